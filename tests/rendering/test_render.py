"""Rendered card sheets, opened and measured: page sizes, titles, fonts, back registration, determinism."""

from __future__ import annotations

import math

import pytest
from pypdf import PdfReader

from conftest import GAME_YAML, patched
from generator.building.kit import build_game
from generator.core.options import Options
from generator.reading.loading import load_game
from generator.reading.resources import bundled_games
from generator.imposition.sheets import arrange
from generator.core.units import CARD_SIZES, PAPERS, PT_PER_MM

from pdfcheck import char_boxes, page_text


def build(folder, out, **options):
    build_game(load_game(folder), out, Options(**options))
    return out / folder.name / "cards-reds.pdf"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_size_and_count(make_game, tmp_path, paper):
    pdf = build(make_game(), tmp_path / "out", paper=paper)
    reader = PdfReader(pdf)
    assert len(reader.pages) == 2  # one front sheet, one back sheet
    box = reader.pages[0].mediabox
    assert math.isclose(float(box.width), PAPERS[paper][0] * PT_PER_MM, abs_tol=0.01)
    assert math.isclose(float(box.height), PAPERS[paper][1] * PT_PER_MM, abs_tol=0.01)


def test_every_title_once_per_copy(make_game, tmp_path):
    pdf = build(make_game(), tmp_path / "out")
    front = page_text(pdf, 0)
    assert front.count("Alpha") == 1 and front.count("Bravo") == 2


def test_only_bundled_fonts_embedded_as_subsets(make_game, tmp_path):
    pdf = build(make_game(), tmp_path / "out")
    names = set()
    for page in PdfReader(pdf).pages:
        fonts = page["/Resources"]["/Font"]
        for ref in fonts.values():
            font = ref.get_object()
            descriptor = font["/FontDescriptor"].get_object()
            assert "/FontFile2" in descriptor, font["/BaseFont"]  # TrueType program embedded
            names.add(str(font["/BaseFont"]).split("+", 1)[1])
            assert "+" in str(font["/BaseFont"])  # a subset
    assert names <= {"RobotoCondensed-Bold", "RobotoCondensed-Regular", "DejaVuSansCondensed",
                     "DejaVuSansCondensed-Bold", "DejaVuSansCondensed-Oblique", "DejaVuSansCondensed-BoldOblique"}
    assert "RobotoCondensed-Bold" in names


def marked(fill: str) -> str:
    """A layout with a capital I centred in a box near the top: a glyph symmetric both ways, so the centre of
    its outline is the centre of the box on fronts and backs alike."""
    return (
        "elements:\n"
        f"  - {{kind: box, x: 0, y: 0, w: 63, h: 88, fill: '{fill}', bleed: true}}\n"
        "  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: I, font: text-bold, size: 20, align: center}\n"
        "  - {kind: text, x: 4, y: 40, w: 55, h: 10, text: '{{ card.title | lower }}', size: 10, align: center}\n"
    )


@pytest.mark.parametrize("edge", ["long", "short"])
def test_each_back_lands_behind_its_front(make_game, tmp_path, edge):
    """Every mark, front and back, must sit at the same offset from the spot behind which the other lies.

    The front's marks are measured against the slots of the grid; the back's against the same slots turned over
    (x mirrored for the long edge, y for the short). Glyph outlines are not quite centred in their box, so the
    offset is not zero, but it must be one and the same for every mark of both pages.
    """
    pdf = build(make_game({"face.yaml": marked("#ffffff"), "back.yaml": marked("#dddddd")}), tmp_path / "out", duplex=edge)
    width, height = PAPERS["a4"]
    slots = arrange(PAPERS["a4"], CARD_SIZES["poker"], 3.0).slots[:3]
    residuals = []
    for page, spots in ((0, [(s.x + 31.5, s.y + 9) for s in slots]),
                        (1, [(s.x + 31.5, s.y + 9) if edge == "long" else (s.x + 31.5, s.y + 88 - 9) for s in slots])):
        found = sorted(((l + r) / 2 / PT_PER_MM, height - (b + t) / 2 / PT_PER_MM) for l, b, r, t in char_boxes(pdf, page, "I"))
        if page == 1:  # seen through the sheet from the front
            found = sorted((width - x, y) if edge == "long" else (x, height - y) for x, y in found)
            spots = sorted(spots)
        assert len(found) == 3
        for (x, y), (sx, sy) in zip(found, sorted(spots)):
            residuals.append((x - sx if page == 0 or edge == "short" else sx - x, y - sy if page == 0 or edge == "long" else sy - y))
    xs, ys = [r[0] for r in residuals], [r[1] for r in residuals]
    assert max(xs) - min(xs) < 0.05 and max(ys) - min(ys) < 0.05, residuals
    assert abs(xs[0]) < 0.5 and abs(ys[0]) < 0.5  # and the offset itself is small: the mark is where the layout put it


def test_fold_puts_fronts_and_backs_on_one_landscape_sheet(make_game, tmp_path):
    pdf = build(make_game(), tmp_path / "out", duplex="fold")
    reader = PdfReader(pdf)
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert float(box.width) > float(box.height)
    width = float(box.width)
    for title in ("Alpha", "Bravo"):
        fronts = char_boxes(pdf, 0, title)
        backs = char_boxes(pdf, 0, f"back of {title}")
        for (l, b, r, t), (bl, bb, br, bt) in zip(sorted(fronts), sorted(backs, reverse=True)):
            assert (l + r) / 2 < width / 2 < (bl + br) / 2
            assert abs((l + r) / 2 - (width - (bl + br) / 2)) < 0.5


def test_identical_faces_are_drawn_once_as_forms(make_game, tmp_path):
    pdf = build(make_game(), tmp_path / "out")
    forms = set()
    for page in PdfReader(pdf).pages:
        for name, ref in page["/Resources"].get("/XObject", {}).items():
            if ref.get_object()["/Subtype"] == "/Form":
                forms.add(name)
    faces = {name for name in forms if ".s" in name}  # faces are forms s<section>f<face>, overlays o<n>
    assert len(faces) == 2, forms  # Bravo's face (two copies) and the shared back pattern of Bravo's two copies
    assert len(forms - faces) == 1, forms  # the crop marks: the same over the fronts and the backs


def test_the_marks_of_every_sheet_are_drawn_once(tmp_path):
    """Crop marks are the same on every full sheet of a deck: one form, placed on each page. The last sheet,
    not filled, is marked along its pieces only: a form of its own for its front and its back."""
    root = next(r for r in bundled_games() if r.name == "europe-1939")
    build_game(load_game(root), tmp_path, Options())
    reader = PdfReader(tmp_path / "europe-1939" / "cards-germans.pdf")
    overlays = []
    for page in reader.pages:
        names = [name for name in page["/Resources"]["/XObject"] if ".o" in name]
        assert len(names) == 1 and names[0].encode() in page.get_contents().get_data()
        overlays.append(page["/Resources"]["/XObject"][names[0]].indirect_reference.idnum)
    assert len(reader.pages) == 14 and len(set(overlays[:12])) == 1 and len(set(overlays)) == 3


def test_two_builds_are_byte_identical(make_game, tmp_path):
    folder = make_game()
    first = build(folder, tmp_path / "one").read_bytes()
    second = build(folder, tmp_path / "two").read_bytes()
    assert first == second


def test_no_crop_marks_option_removes_the_marks(make_game, tmp_path):
    folder = make_game()
    with_marks = build(folder, tmp_path / "a").stat().st_size
    without = build(folder, tmp_path / "b", crop_marks=False).stat().st_size
    assert without < with_marks


def test_bundled_europe_prints_every_title_once(tmp_path):
    from pypdf import PdfReader as Reader

    game = load_game("europe-1939")
    build_game(game, tmp_path, Options())
    for deck in (d for d in game.decks.values() if d.format.component == "cards"):
        pdf = tmp_path / "europe-1939" / f"cards-{deck.id}.pdf"
        pages = len(Reader(pdf).pages)
        lines = [line.strip() for page in range(0, pages, 2) for line in page_text(pdf, page).splitlines()]
        for card in deck.cards:
            assert lines.count(card.title) == card.count, card.title


def test_image_element_draws_the_file_once_per_document(make_game, tmp_path):
    from PIL import Image

    folder = make_game({"face.yaml": "elements:\n  - {kind: image, x: 4, y: 4, w: 20, h: 20, src: art/flag.png}\n"
                                     "  - {kind: text, x: 4, y: 30, w: 55, h: 10, text: '{{ card.title }}'}\n"})
    (folder / "art").mkdir()
    Image.new("RGB", (64, 48), (200, 30, 30)).save(folder / "art" / "flag.png")
    pdf = build(folder, tmp_path / "out")
    assert pdf.read_bytes().count(b"/Subtype /Image") == 1  # three cards, one image object


def test_greyscale_greys_colours_and_images(make_game, tmp_path):
    from PIL import Image

    from pdfcheck import rasterise

    folder = make_game({"face.yaml": "elements:\n  - {kind: box, x: 0, y: 0, w: 63, h: 88, fill: '#c03020', bleed: true}\n"
                                     "  - {kind: image, x: 10, y: 10, w: 40, h: 40, src: red.png}\n"})
    Image.new("RGB", (20, 20), (30, 200, 40)).save(folder / "red.png")
    pdf = build(folder, tmp_path / "out", greyscale=True)
    image = rasterise(pdf, 0, dpi=30, mode="RGB")
    pixels = {colour for _, colour in image.getcolors(maxcolors=1 << 20)}
    assert all(r == g == b for r, g, b in pixels), "a coloured pixel in a greyscale build"
    assert len(pixels) > 2  # and not all one grey: the background and the image differ


def test_duplex_none_prints_all_fronts_then_all_backs_unmirrored(make_game, tmp_path):
    cards = "cards:\n" + "".join(f"  - {{title: Card{i}, type: U, force: 1}}\n" for i in range(12))
    folder = make_game({"reds.yaml": cards, "game.yaml": patched(GAME_YAML, {"size: 3": "size: 12"}),
                        "back.yaml": marked("#dddddd")})
    pdf = build(folder, tmp_path / "out", duplex="none")
    assert len(PdfReader(pdf).pages) == 4
    assert "Card0" in page_text(pdf, 0) and "Card9" in page_text(pdf, 1)
    fronts_slots = arrange(PAPERS["a4"], CARD_SIZES["poker"], 3.0).slots
    first_back = sorted(char_boxes(pdf, 2, "I"), key=lambda b: (-b[1], b[0]))[0]
    # unmirrored: the first back sits in the first (top-left) slot, as the first front does
    assert abs((first_back[0] + first_back[2]) / 2 / PT_PER_MM - (fronts_slots[0].x + 31.5)) < 1


def test_zero_bleed_butts_the_cards(make_game, tmp_path):
    layout = arrange(PAPERS["a4"], CARD_SIZES["poker"], 0.0)
    xs = sorted({s.x for s in layout.slots})
    assert all(abs(b - a - 63) < 1e-9 for a, b in zip(xs, xs[1:]))
    pdf = build(make_game(), tmp_path / "out", bleed=0.0)
    assert len(PdfReader(pdf).pages) == 2


@pytest.mark.usefixtures("font_book")
def test_text_beyond_one_font_subset_is_encoded_right(tmp_path):
    """A font subset holds about 220 characters; text drawn after that spills into a second one. Each line is
    written twice, so the second time is encoded from the codes remembered for the first subset."""
    from generator.core.display import Face, Run
    from generator.imposition.sheets import Sheet, Slot
    from generator.rendering.render import SheetWriter

    alphabet = [chr(c) for c in range(0x21, 0x7F)] + [chr(c) for c in range(0xC0, 0x17F)] + \
               [chr(c) for c in range(0x391, 0x3A9) if c != 0x3A2] + [chr(c) for c in range(0x410, 0x44F)]
    lines = ["".join(alphabet[i:i + 40]) for i in range(0, len(alphabet), 40)]
    lines += lines + ["a\u00a0(b) \\c"]  # again, and a no-break space, brackets and a backslash
    runs = tuple(Run(5, 8 + 6 * i, line, "text", 6, "#000000") for i, line in enumerate(lines))
    pdf = tmp_path / "subsets.pdf"
    writer = SheetWriter(pdf, "subsets")
    writer.sheet(Sheet("front", (210, 297), ((Slot(0, 0, 210, 297, 0, 0, 0, 0), 0),)), [Face(210, 297, runs)])
    writer.save()
    assert len(alphabet) > 300
    assert page_text(pdf, 0).replace("\r", "").split("\n") == [line.replace("\u00a0", " ") for line in lines]
    fonts = PdfReader(pdf).pages[0]["/Resources"]["/Font"]
    assert len(fonts) >= 2  # the text needed a second subset of the font


def test_every_kind_of_display_item_has_one_painter_and_one_tracer():
    """The renderer and the preview dispatch by the item's type: a kind without its painter or tracer fails here."""
    from generator.core.display import KINDS, Run
    from generator.preview.tracing import BOUNDS
    from generator.rendering.render import PAINTERS

    assert set(PAINTERS) == set(KINDS) == set(BOUNDS)
    with pytest.raises(ValueError, match="painter of 'Run' is declared twice"):
        PAINTERS.register(Run)(lambda painter, runs, height: None)


def test_lines_keep_their_stroke_across_text_and_end_their_dash_before_other_items(font_book):
    """Painted a run of one kind at a time: text between two lines does not make the second set its stroke again,
    and the dash ends before a box (which would be drawn dashed) but not before text."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from generator.core.display import Line, Rect, Run
    from generator.rendering.render import Painter

    canvas = Canvas(io.BytesIO())
    dashed = Line(0, 0, 10, 0, "#000000", 0.5, (1.0, 1.0))
    Painter(canvas).paint([dashed, Run(1, 5, "A", "text", 9, "#000000"), dashed._replace(y1=2, y2=2),
                           Rect(0, 0, 5, 5, "#ff0000")], 20)
    code = canvas._code
    assert [op for op in code if op.endswith((" w", " d", " RG"))] == ["0 0 0 RG", "1.417323 w",
                                                                       "[2.834646 2.834646] 0 d", "[] 0 d"]
    assert code.index("[] 0 d") == len(code) - 3  # after the second line, before the box's colour and path


@pytest.mark.parametrize("item", [
    ("Line", (1.0, 1.0, math.nan, 2.0)),
    ("Line", (1.0, 1.0, 2.0, 2.0, "#000000", 0.25, (math.inf, 1.0))),
    ("Turned", (5.0, 5.0, 90.0, ())),  # filled in below: a rectangle 1e300 mm wide, turned
])
@pytest.mark.usefixtures("font_book")
def test_the_renderer_refuses_a_number_pdf_cannot_carry(tmp_path, item):
    """An invariant, not an input check: inputs are checked where they are read, so none reaches here."""
    from generator.core import display
    from generator.imposition.sheets import Sheet, Slot
    from generator.rendering.render import SheetWriter

    kind, values = item
    if kind == "Turned":
        values = values[:3] + ((display.Rect(0.0, 0.0, 1e300, 1.0, "#000000"),),)
    writer = SheetWriter(tmp_path / "x.pdf", "guard")
    face = display.Face(63, 88, (getattr(display, kind)(*values),))
    with pytest.raises(ValueError, match="PDF cannot carry"):
        writer.sheet(Sheet("front", (210, 297), ((Slot(0, 0, 63, 88, 0, 0, 0, 0), 0),)), [face])


@pytest.mark.parametrize("kind", ["png", "svg"])
def test_an_image_fits_its_box_as_fit_says(tmp_path, kind):
    """A 2:1 picture in stripes, red, green (the middle half) and blue, in a 40 mm square box on a white card:
    contain shows it whole with white above and below; cover fills the box with its green middle, the rest cut
    off at the box's edges; stretch fills the box with all three stripes."""
    import pypdfium2 as pdfium
    from PIL import Image

    from hostile_run import write_game

    if kind == "png":
        picture = Image.new("RGB", (200, 100), (0, 255, 0))
        picture.paste((255, 0, 0), (0, 0, 50, 100))
        picture.paste((0, 0, 255), (150, 0, 200, 100))
        art = tmp_path / "art.png"
        picture.save(art)
        data = art.read_bytes()
    else:
        data = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10"><rect width="20" height="10" '
                'fill="#00ff00"/><rect width="5" height="10" fill="#ff0000"/><rect x="15" width="5" height="10" '
                'fill="#0000ff"/></svg>').encode()
    slot = arrange(PAPERS["a4"], CARD_SIZES["poker"], 0.0, False).slots[0]
    seen = {}
    for fit in ("contain", "cover", "stretch"):
        game = write_game(tmp_path / fit, {f"art/a.{kind}": data, "face.yaml": (
            "elements:\n  - {kind: box, x: 0, y: 0, w: 63, h: 88, fill: '#ffffff', bleed: true}\n"
            f"  - {{kind: image, x: 10, y: 20, w: 40, h: 40, src: art/a.{kind}, fit: {fit}}}\n")})
        build_game(load_game(game), tmp_path / "out", Options(calibration=False, crop_marks=False, bleed=0.0))
        pdf = pdfium.PdfDocument(str(tmp_path / "out" / fit / "cards-reds.pdf"))
        image = pdf[0].render(scale=4 / PT_PER_MM).to_pil().convert("RGB")  # 4 pixels a millimetre
        pdf.close()

        def at(x, y):  # the colour at (x, y) mm on the first card, by name
            pixel = image.getpixel((round((slot.x + x) * 4), round((slot.y + y) * 4)))
            return {(255, 0, 0): "red", (0, 255, 0): "green", (0, 0, 255): "blue", (255, 255, 255): "white"}.get(
                tuple(255 if v > 200 else 0 if v < 55 else v for v in pixel), str(pixel))
        seen[fit] = [at(x, y) for x, y in ((12, 22), (30, 22), (12, 40), (30, 40), (48, 40), (8, 40), (30, 18))]
    #                            top left  top mid  left     centre   right    outside  above
    assert seen["contain"] == ["white", "white", "red", "green", "blue", "white", "white"]
    assert seen["cover"] == ["green", "green", "green", "green", "green", "white", "white"]
    assert seen["stretch"] == ["red", "green", "red", "green", "blue", "white", "white"]


@pytest.mark.usefixtures("font_book")
def test_each_page_is_compressed_as_its_sheet_is_drawn_into_the_bytes_reportlab_would_write(tmp_path, monkeypatch):
    """In a build in two processes the drawing process waits for batches while they are laid out, and saving is
    all that is left once the last one comes: each page is compressed when its sheet is done, not all of them at
    the end, and the file is byte for byte what reportlab writes compressing them at save."""
    import zlib

    from generator.core.display import Face, Rect, Run
    from generator.imposition.sheets import Sheet, Slot
    from generator.rendering.render import SheetWriter

    faces = [Face(63, 88, (Rect(0, 0, 63, 88, "#e9e1cf"), Run(5, 10, f"Card {n}", "text", 9, "#000000")))
             for n in range(2)]
    sheets = [Sheet("front", (210, 297), ((Slot(10 + 70 * n, 10, 63, 88, 3, 3, 3, 3), n),)) for n in range(2)]

    def written(name: str) -> bytes:
        writer = SheetWriter(tmp_path / name, "pages")
        for sheet in sheets:
            writer.sheet(sheet, faces)
            page = writer.canvas._doc.Pages.pages[-1]
            if page.stream is None:  # compressed already: the operators are in its Contents
                assert b"(" in zlib.decompress(page.Contents.content) and page.Contents.dictionary["Filter"]
        writer.save()
        return (tmp_path / name).read_bytes()

    ours = written("ours.pdf")
    pages = SheetWriter(tmp_path / "probe.pdf", "pages")
    pages.sheet(sheets[0], faces)
    assert pages.canvas._doc.Pages.pages[-1].stream is None  # compressed as soon as the sheet was drawn
    monkeypatch.setattr(SheetWriter, "_compress_page", lambda self: None, raising=False)
    assert ours == written("reportlabs.pdf")
    assert page_text(tmp_path / "ours.pdf", 1).strip() == "Card 1"
