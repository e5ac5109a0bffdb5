"""SVG art (issue 13): drawn as vector paths wherever an image may appear, once per file per PDF, and refused
when it refers to anything outside itself or uses what cannot be drawn. The hostile cases that run Muster are in
hostile_cases.py (svg-*)."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from generator.core import svg
from generator.core.errors import Location, MusterError
from generator.building.kit import build_game
from generator.core.options import Options
from generator.reading.loading import load_game
from generator.reading.resources import image_problem
from hostile_run import images_in, write_game
from conftest import TESTS, patched

FIXTURES = TESTS / "fixtures" / "svg"
OPEN = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">'

FACE = """\
elements:
  - {kind: box, x: 0, y: 0, w: 63, h: 88, fill: "#ffffff", bleed: true}
  - {kind: image, x: 4, y: 10, w: 55, h: 30, src: art/wide.svg}
  - {kind: image, x: 4, y: 46, w: 20, h: 20, src: art/tank.svg}
  - {kind: paragraph, x: 30, y: 46, w: 29, h: 20, text: "Pay [[wood]]", size: 10}
"""
MAP = """\
elements:
  - {kind: box, x: 0, y: 0, w: "{{ board.w }}", h: "{{ board.h }}", fill: "#ffffff"}
  - {kind: image, x: 10, y: 10, w: 40, h: 40, src: art/tank.svg}
"""
BOARD = ("boards:\n  mat:\n    name: Mat\n    file: mat\n    layout: mat.yaml\n"
         "    grid: {columns: 2, rows: 2, cell: 20mm, margin: 10mm}\n")


def svg_game(folder: Path) -> Path:
    """The tests' tiny game with SVG art on its cards, an SVG icon in card text and in the rulebook, an SVG image
    in the rulebook and on a board."""
    files = {"face.yaml": FACE, "mat.yaml": MAP, "icons/wood.svg": (FIXTURES / "wood.svg").read_bytes()}
    files.update({f"art/{name}": (FIXTURES / name).read_bytes() for name in ("wide.svg", "tank.svg")})
    game = write_game(folder, files, rulebook="Pay [[wood]] to build.\n\n![tank](art/tank.svg)\n",
                      game={"icons:\n": "icons:\n  wood: {image: icons/wood.svg}\n"})
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(text + BOARD)
    return game


def forms_in(pdf: Path) -> dict[str, int]:
    """How many form XObjects of each name the PDF holds, pages and forms together (each object counted once)."""
    found: dict[str, int] = {}
    seen = set()

    def visit(resources):
        objects = resources.get("/XObject") if resources else None
        for name, ref in (objects.get_object() if objects is not None else {}).items():
            obj = ref.get_object()
            key = (ref.idnum, ref.generation) if hasattr(ref, "idnum") else id(obj)
            if key in seen:
                continue
            seen.add(key)
            if obj["/Subtype"] == "/Form":
                found[name] = found.get(name, 0) + 1
                visit(obj.get("/Resources"))

    for page in PdfReader(pdf).pages:
        visit(page.get("/Resources"))
    return found


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    work = tmp_path_factory.mktemp("svg")
    game = svg_game(work / "tiny")
    build_game(load_game(game), work / "out", Options(paper="a4"))
    return work / "out" / "tiny"


def test_svg_is_drawn_as_vector_forms_not_images(built):
    for name in ("cards-reds.pdf", "rules.pdf", "mat.pdf"):
        pdf = built / name
        assert not images_in(pdf), name
        forms = {form: count for form, count in forms_in(pdf).items() if form.startswith("/FormXob.svg")}
        assert forms and all(count == 1 for count in forms.values()), (name, forms)
    # the cards use three files: each a form of its own, whatever the number of cards
    assert len([f for f in forms_in(built / "cards-reds.pdf") if f.startswith("/FormXob.svg")]) == 3
    text = (built / "rules.pdf").read_bytes()
    assert b"Helvetica" not in text and b"placeholder" not in text


def test_svg_art_is_visible_where_it_is_placed(built):
    pdf = built / "cards-reds.pdf"
    # the first card is found from its red art; the rest is measured from there
    page = pdfium.PdfDocument(pdf)[0].render(scale=150 / 72).to_pil().convert("RGB")
    reds = [(x, y) for y in range(0, page.height, 3) for x in range(0, page.width, 3)
            if page.getpixel((x, y)) == (198, 40, 40)]
    assert reds, "the red SVG art is not drawn"
    left = min(x for x, _ in reds)
    column = [y for y in range(page.height) if page.getpixel((left + 10, y)) == (198, 40, 40)]
    top, bottom = column[0], column[-1] + 1
    # wide.svg is 2:1 in a 55 x 30 mm box: 55 x 27.5 mm, centred, so 1.25 mm from the box's top and bottom
    height_mm = (bottom - top) / 150 * 25.4
    assert abs(height_mm - 27.5) < 0.5, height_mm
    # the tank below the art, and the icon right of the tank, in the card's text
    blues = [(x, y) for y in range(top, page.height, 2) for x in range(left, left + 300, 2)
             if page.getpixel((x, y)) == (31, 92, 153)]
    assert blues and min(y for _, y in blues) > bottom, "the tank is not drawn below the art"
    greens = [(x, y) for y in range(top, page.height, 2) for x in range(left, left + 400, 2)
              if page.getpixel((x, y)) == (46, 125, 50)]
    assert greens and min(x for x, _ in greens) > max(x for x, _ in blues), "the icon is not drawn in the text"


def test_svg_in_the_rulebook_and_on_the_board_is_visible(built):
    rules = pdfium.PdfDocument(built / "rules.pdf")
    last = rules[len(rules) - 1].render(scale=1).to_pil().convert("RGB")
    colours = {colour for _, colour in last.getcolors(1 << 24)}
    assert (31, 92, 153) in colours, "the tank image is not in the rulebook"
    assert any(abs(r - 46) + abs(g - 125) + abs(b - 50) < 30 for r, g, b in colours), "the icon is not drawn"
    board = pdfium.PdfDocument(built / "mat.pdf")[0].render(scale=1).to_pil().convert("RGB")
    assert (31, 92, 153) in {colour for _, colour in board.getcolors(1 << 24)}


def test_svg_output_is_byte_identical_twice(tmp_path):
    game = svg_game(tmp_path / "tiny")
    for out in ("a", "b"):
        build_game(load_game(game), tmp_path / out, Options(paper="a4"))
    for name in ("cards-reds.pdf", "rules.pdf", "mat.pdf"):
        assert (tmp_path / "a" / "tiny" / name).read_bytes() == (tmp_path / "b" / "tiny" / name).read_bytes(), name


def test_greyscale_turns_svg_colours_grey(tmp_path):
    game = svg_game(tmp_path / "tiny")
    build_game(load_game(game), tmp_path / "out", Options(paper="a4", greyscale=True))
    page = pdfium.PdfDocument(tmp_path / "out" / "tiny" / "cards-reds.pdf")[0].render(scale=1).to_pil()
    assert all(max(p) - min(p) <= 2 for _, p in page.convert("RGB").getcolors(1 << 24))


@pytest.mark.parametrize("body,code,words", [
    ('<image href="http://example.invalid/a.png" width="5" height="5"/>', "svg-refused", "outside itself"),
    ('<use xlink:href="other.svg#a"/>', "svg-refused", "'other.svg#a'"),
    ('<image href="data:image/png;base64,iVBORw0KGgo=" width="5" height="5"/>', "svg-refused", "data:image"),
    ('<rect width="5" height="5" style="fill: url(http://example.invalid/p)"/>', "svg-refused", "url("),
    ("<style>@import 'a.css';</style>", "svg-refused", "@import"),
    ("<style>rect {fill: url(a.svg#p)}</style>", "svg-refused", "a.svg#p"),
    ("<script>alert(1)</script>", "svg-refused", "script"),
    ('<rect width="5" height="5" onclick="alert(1)"/>', "svg-refused", "onclick"),
    ("<foreignObject><p>x</p></foreignObject>", "svg-refused", "foreignObject"),
    ('<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="#a"/>', "svg-refused", "XInclude"),
    ("<text>Hi</text>", "svg-unsupported", "<text>"),
    ('<defs><linearGradient id="g"/></defs><rect width="5" height="5" fill="url(#g)"/>', "svg-unsupported",
     "<linearGradient>"),
    ('<defs><filter id="f"/></defs><g filter="url(#f)"/>', "svg-unsupported", "<filter>"),
    ('<text x="9" y="0.5" font-size="2">Hi</text>', "svg-unsupported", "<text>"),  # its foot on the canvas
    ('<g transform="translate(90 0)"><text x="9" y="50">Hi</text></g>', "svg-unsupported", "<text>"),
    ('<rect width="5" height="5" opacity="0.5"/>', "svg-unsupported", "transparency (opacity: 0.5)"),
    ('<rect width="5" height="5" opacity="0.98"/>', "svg-unsupported", "transparency (opacity: 0.98)"),
    ("<style>rect {fill-opacity: 0.9}</style>", "svg-unsupported", "transparency (fill-opacity: 0.9)"),
    ('<rect width="5" height="5" style="fill-opacity: 50%"/>', "svg-unsupported", "fill-opacity"),
    ('<rect width="5" height="5" fill="bogus"/>', "svg-undrawable", "bogus"),
    ("<animate/>", "svg-unsupported", "<animate>"),
    ('<symbol id="s" viewBox="0 0 5 5"/><use href="#s" width="10" height="10"/>', "svg-unsupported", "<symbol>"),
    ('<g id="a"><use href="#a"/></g>', "bad-image", "holds it"),
])
def test_what_an_svg_may_not_hold(body, code, words):
    with pytest.raises(MusterError) as caught:
        data = (OPEN + body + "</svg>").encode()
        svg.vet(data, Location(Path("x.svg")))
        svg._convert(data, Location(Path("x.svg")))
    assert caught.value.code == code and words in caught.value.message, caught.value.message


@pytest.mark.parametrize("data,code,words", [
    (b'<?xml version="1.0"?><!DOCTYPE svg SYSTEM "http://example.invalid/svg.dtd"><svg/>', "svg-refused", "DOCTYPE"),
    (b'<?xml-stylesheet href="http://example.invalid/a.css"?>' + OPEN.encode() + b"</svg>", "svg-refused", "processing instruction"),
    (b"<html/>", "bad-image", "root element is <html>"),
    (b"\x89PNG\r\n\x1a\n", "bad-image", "not a well-formed SVG"),
    (b'<svg xmlns="http://www.w3.org/2000/svg"/>', "bad-image", "has no size"),
    ((OPEN + "<g>" * 70 + "</g>" * 70 + "</svg>").encode(), "too-large", "nested more than 64 deep"),
    ((OPEN + '<path d="M0 0' + " 1.5 .5" * 250_001 + '"/></svg>').encode(), "too-large", "over the limit of 500,000"),
])
def test_svgs_that_are_not_svg_or_not_whole(tmp_path, data, code, words):
    """Refused with its code at the file; the words tell apart the causes that share a code."""
    (tmp_path / "x.svg").write_bytes(data)
    problem = image_problem(tmp_path / "x.svg")
    assert problem is not None and (problem.code, problem.where.path) == (code, tmp_path / "x.svg"), problem
    assert words in problem.message, problem


def test_good_svgs_pass_and_keep_their_size(tmp_path):
    for name in ("tank.svg", "wood.svg", "wide.svg", "star.svg"):  # star.svg: as game-icons.net writes them
        assert image_problem(FIXTURES / name) is None, name
    drawing = svg.load(FIXTURES / "wide.svg")
    assert drawing.width == 2 * drawing.height
    (tmp_path / "inkscape.svg").write_bytes(
        (patched(OPEN, {"<svg ": '<svg xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" '})
         + '<title>t</title><metadata>m</metadata><sodipodi:namedview pagecolor="#fff"/>'
         + '<defs><clipPath id="c"><rect width="5" height="5"/></clipPath><path id="p" d="M0 0L9 9"/></defs>'
         + '<use xlink:href="#p" stroke="#000" clip-path="url(#c)"/><g style="fill:#0a0;opacity:1">'
         + '<circle cx="5" cy="5" r="3"/></g><style>circle {stroke: #00f}</style></svg>').encode())
    assert image_problem(tmp_path / "inkscape.svg") is None


def test_an_unsupported_format_names_the_supported_ones(tmp_path):
    (tmp_path / "x.png").write_text("not a picture")
    (tmp_path / "x.svgz").write_bytes(b"\x1f\x8b\x08")
    for name in ("x.png", "x.svgz"):
        problem = image_problem(tmp_path / name)
        assert problem is not None and problem.code == "bad-image", problem
        assert "supported: PNG, JPEG, GIF, and SVG" in problem.message, problem


def test_the_drawing_side_vets_the_file_it_reads(tmp_path):
    """An SVG that changed for the worse after it was checked is refused by the painter too, never drawn."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from generator.core.display import Picture
    from generator.rendering.render import Painter

    bad = tmp_path / "x.svg"
    bad.write_text(OPEN + '<image href="file:///etc/passwd"/></svg>')
    with pytest.raises(MusterError) as caught:
        Painter(Canvas(io.BytesIO())).paint([Picture(bad, 0, 0, 10, 10)], 20)
    assert (caught.value.code, caught.value.where.path) == ("svg-refused", bad)
    assert "outside itself" in caught.value.message  # the one of svg-refused's causes meant


@pytest.mark.parametrize("body", [
    '<path d="M0 0 L nan 5 L 5 5 Z"/>',  # svglib skips a word it cannot read: the path drawn short
    '<polygon points="0 0 inf 5 5 5"/>',
    '<path d="M0 0 L 1e308 5 L 5 5 Z"/>',
    '<rect x="nan" width="5" height="5"/>',
    '<g transform="translate(1e9 0)"><rect width="5" height="5"/></g>',
    '<rect width="5" height="5" stroke="#000" stroke-dasharray="inf 1"/>',
    '<rect width="5" height="5" style="stroke:#000;stroke-width:1e400"/>',
])
def test_svg_numbers_that_cannot_be_drawn_are_refused(tmp_path, body):
    path = tmp_path / "x.svg"
    path.write_text(OPEN + body + "</svg>")
    with pytest.raises(MusterError) as caught:
        svg.load(path)
    assert caught.value.code == "svg-number" and caught.value.where.path == path


@pytest.mark.parametrize("opening", ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1e-300 1e-300">',
                                     '<svg xmlns="http://www.w3.org/2000/svg" width="inf" height="10">'])
def test_an_svg_sized_beyond_drawing_is_refused(tmp_path, opening):
    path = tmp_path / "x.svg"
    path.write_text(opening + '<rect width="5" height="5"/></svg>')
    with pytest.raises(MusterError) as caught:
        svg.load(path)
    assert caught.value.code == "svg-number"


def test_svg_numbers_written_every_legal_way_are_drawn(tmp_path):
    path = tmp_path / "x.svg"
    path.write_text(OPEN + '<path d="M0,0L5-5.5e-1l1E1 .5z" transform="scale(0.5)"/></svg>')
    assert svg.load(path).width == 7.5


# What an editor writes that draws nothing, or draws as solid: drawn as if it were not there (issue 25 item 11).
NOTHING_DRAWN = [
    '<defs><filter id="f"><feGaussianBlur stdDeviation="2"/></filter><linearGradient id="g"/><mask id="m"/></defs>',
    '<text x="40" y="40" font-size="3">Notes beside the canvas</text>',
    '<text x="-30" y="5" style="font-size:2px">left of it</text>',
    '<g opacity="0"><text x="5" y="5">hidden layer</text><rect width="9" height="9" fill="#00f"/></g>',
    '<g style="display:none"><image href="#x"/></g>',
    '<rect width="9" height="9" fill="#00f" stroke="#000" fill-opacity="0" stroke-opacity="0"/>',
]
SOLID = ['fill-opacity="0.992"', 'style="fill-opacity:0.992;opacity:99.5%"', 'opacity="1"', 'stroke-opacity=".99"']


def _raster(tmp_path, body: str, name: str):
    """The SVG `body` (around a red square 2..8 of a 10 x 10 canvas) drawn on a card of the tiny game, rasterised:
    the card's pixels."""
    game = write_game(tmp_path / name, {
        "art/x.svg": OPEN + body + "</svg>",
        "face.yaml": "elements:\n  - {kind: image, x: 0, y: 0, w: 63, h: 63, src: art/x.svg}\n"})
    assert image_problem(game / "art" / "x.svg") is None
    build_game(load_game(game), tmp_path / f"out-{name}", Options(calibration=False))
    pdf = tmp_path / f"out-{name}" / name / "cards-reds.pdf"
    page = pdfium.PdfDocument(str(pdf))[0]
    return page.render(scale=1).to_pil().convert("RGB")


@pytest.mark.parametrize("extra", NOTHING_DRAWN)
def test_what_draws_nothing_is_ignored_not_refused(tmp_path, extra):
    square = '<rect x="2" y="2" width="6" height="6" fill="#ff0000"/>'
    plain = _raster(tmp_path, square, "plain")
    assert (255, 0, 0) in {colour for _, colour in plain.getcolors(1 << 24)}
    assert plain == _raster(tmp_path, square + extra, "extra"), "what draws nothing changed the card"


@pytest.mark.parametrize("opacity", SOLID)
def test_opacities_that_round_to_1_are_drawn_solid(tmp_path, opacity):
    solid = _raster(tmp_path, '<rect x="2" y="2" width="6" height="6" fill="#ff0000" stroke="#000"/>', "solid")
    drawn = _raster(tmp_path, f'<rect x="2" y="2" width="6" height="6" fill="#ff0000" stroke="#000" {opacity}/>', "x")
    assert (255, 0, 0) in {colour for _, colour in solid.getcolors(1 << 24)} and drawn == solid
