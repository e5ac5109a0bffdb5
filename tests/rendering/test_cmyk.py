"""Files a print shop accepts: every font embedded, CMYK colour through an ICC profile, PDF/X (issue 15).

The checker here walks each PDF with pypdf, pages and the forms they place alike, so that what a preflight would
reject is found in the tests and not at the shop."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.building.kit import build_all
from generator.core.options import Options
from conftest import TESTS, patched

GAMES = ["company-commander", "eastern-front", "europe-1939", "grid-battle", "modern-war", "tank-duel"]


def resources(pdf: Path):
    """Every resource dictionary of a PDF (each page's and each form's it places, at any depth), with where it is."""
    from pypdf import PdfReader

    reader = PdfReader(pdf)
    seen = set()

    def walk(res, where):
        res = res.get_object() if res is not None else None
        if res is None or id(res) in seen:
            return
        seen.add(id(res))
        yield where, res
        for name, xobject in (res.get("/XObject") or {}).items():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Form":
                yield from walk(xobject.get("/Resources"), f"{where} {name}")

    for number, page in enumerate(reader.pages, 1):
        yield from walk(page.get("/Resources"), f"page {number}")


def unembedded_fonts(pdf: Path) -> list[str]:
    """The fonts a PDF names without embedding a font program, each as 'where: font'."""
    missing = []
    for where, res in resources(pdf):
        for font in (res.get("/Font") or {}).values():
            font = font.get_object()
            descriptors = [font.get("/FontDescriptor")]
            descriptors += [child.get_object().get("/FontDescriptor") for child in font.get("/DescendantFonts", [])]
            if not any(d is not None and any(k in d.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3"))
                       for d in descriptors):
                missing.append(f"{where}: {font.get('/BaseFont')}")
    return missing


@pytest.fixture(scope="module")
def rgb_kits(tmp_path_factory):
    """Two games whose kits hold every kind of PDF: cards, tokens, a mat and a map, rules and booklet."""
    out = tmp_path_factory.mktemp("rgb")
    games = ["europe-1939", "grid-battle"]
    outcomes = list(build_all(games, out, Options(booklet=True), 1, force=True))
    assert [outcome.code for outcome in outcomes] == [0] * len(games)
    return out


def test_every_font_of_every_pdf_is_embedded(rgb_kits):
    pdfs = sorted(rgb_kits.glob("*/*.pdf"))
    assert {p.name for p in pdfs} >= {"rules.pdf", "rules-booklet.pdf", "calibration.pdf", "tokens.pdf", "mat.pdf",
                                      "map.pdf", "cards-germans.pdf"}
    assert {pdf.relative_to(rgb_kits).as_posix(): unembedded_fonts(pdf) for pdf in pdfs
            if unembedded_fonts(pdf)} == {}


def test_exported_card_pdfs_embed_every_font(tmp_path):
    from typer.testing import CliRunner

    from generator.cli.app import app

    result = CliRunner().invoke(app, ["export", "pdf", "--out", str(tmp_path), "--deck", "tactics", "tank-duel"])
    assert result.exit_code == 0, result.output
    pdfs = sorted(tmp_path.rglob("*.pdf"))
    assert pdfs and [p.name for p in pdfs if unembedded_fonts(p)] == []


TOKENS = re.compile(rb"\[|\]|/[^\s/\[\]()<>]+|[-+]?(?:\d+\.?\d*|\.\d+)|[A-Za-z'\"*]+")
PATH_OPERATORS = {b"m", b"l", b"c", b"v", b"y", b"re"}
FILL_OPERATORS = {b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"}
TEXT_SHOWS = {b"Tj", b"TJ", b"'", b'"'}


def drawn_colours(stream: bytes):
    """What a content stream draws, in the stream's own units (points where nothing scales it): ("text", size in
    points, fill colour) for each text shown, ("area", width, height, fill colour) for each filled path; colours as
    the operands of k, g or rg. Strings are left out first, so that a text's bytes are never read as operators."""
    code = STRINGS.sub(b" ", stream)
    stack: list[list] = []
    fill: tuple[float, ...] = (0.0,)
    size, scale = 0.0, 1.0
    box: list[float] | None = None
    operands: list[bytes] = []
    for token in TOKENS.findall(code):
        if token[:1].isdigit() or token[:1] in b"-+.[]/" or token in (b"true", b"false", b"null"):
            operands.append(token)
            continue
        values = [float(v) for v in operands if v[:1].isdigit() or v[:1] in b"-+."]
        if token == b"q":
            stack.append([fill, size, scale])
        elif token == b"Q" and stack:
            fill, size, scale = stack.pop()
        elif token in (b"k", b"g", b"rg"):
            fill = tuple(values[-{b"k": 4, b"g": 1, b"rg": 3}[token]:])
        elif token == b"Tf":
            size = values[-1]
        elif token == b"Tm":
            a, b, c, d = values[-6:-2]
            scale = abs(a * d - b * c) ** 0.5
        elif token in TEXT_SHOWS:
            yield "text", round(size * scale, 3), fill
        elif token in PATH_OPERATORS:
            points = list(zip(values[0::2], values[1::2])) if token != b"re" else \
                [(values[-4], values[-3]), (values[-4] + values[-2], values[-3] + values[-1])]
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            box = ([min(xs), min(ys), max(xs), max(ys)] if box is None else
                   [min(box[0], *xs), min(box[1], *ys), max(box[2], *xs), max(box[3], *ys)])
        elif token in FILL_OPERATORS or token in (b"S", b"s", b"n"):
            if token in FILL_OPERATORS and box is not None:
                yield "area", box[2] - box[0], box[3] - box[1], fill
            box = None
        operands = []


@functools.lru_cache(maxsize=None)
def near_neutral(cmyk: tuple[float, ...]) -> bool:
    """Whether inks print a colour within NEAR_NEUTRAL of grey, seen through the bundled profile."""
    from generator.rendering.inks import FOGRA39, NEAR_NEUTRAL, chroma

    return chroma(cmyk, FOGRA39) <= NEAR_NEUTRAL


def ink_problems(stream: bytes, where: str, areas: bool = True) -> list[str]:
    """Small near-neutral text in more than one ink, a large area in solid black alone (inks.py's rules); with
    `areas` off (SVG art: drawn once at its own scale, placed at any size) the text alone."""
    from generator.core.units import PT_PER_MM
    from generator.rendering.inks import LARGE_AREA, SMALL_TEXT

    problems = []
    for drawn in set(drawn_colours(stream)):
        colour = drawn[-1]
        if len(colour) != 4:
            continue
        if drawn[0] == "text" and drawn[1] < SMALL_TEXT and sum(v > 0 for v in colour[:3]) and near_neutral(colour):
            problems.append(f"{where}: {drawn[1]:g} pt text in {len([v for v in colour if v > 0])} inks "
                            f"{' '.join(f'{v:g}' for v in colour)}")
        elif drawn[0] == "area" and areas and min(drawn[1:3]) >= LARGE_AREA * PT_PER_MM and colour == (0.0, 0.0, 0.0, 1.0):
            problems.append(f"{where}: {drawn[1] / PT_PER_MM:.0f} x {drawn[2] / PT_PER_MM:.0f} mm in black alone")
    return sorted(problems)


RGB_OPERATORS = {b"rg", b"RG"}
STRINGS = re.compile(rb"\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>", re.DOTALL)  # literal and hex strings
OPERATION = re.compile(rb"((?:[-+]?[\d.]+\s+|/\w+\s+)*)(?<![\w/.+*])(rg|RG|k|K|cs|CS)(?![\w*])")


def image_ink(xobject) -> int:
    """The most ink (0 to 4 x 255) of any pixel of a DeviceCMYK image XObject, 8 bits a channel."""
    import io

    from PIL import Image, ImageMath

    size = (int(xobject["/Width"]), int(xobject["/Height"]))
    data = xobject.get_data()
    image = (Image.open(io.BytesIO(data)) if xobject.get("/Filter") == "/DCTDecode"  # pypdf leaves a JPEG as it is
             else Image.frombytes("CMYK", size, data))
    c, m, y, k = (band.convert("I") for band in image.split())
    return ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"], c=c, m=m, y=y, k=k).getextrema()[1]


def print_problems(pdf: Path, ink_limit: float = 3.0) -> list[str]:
    """What a PDF/X-1a preflight would reject in `pdf`, each as 'where: what': RGB colour operators or colour
    spaces, images not in CMYK or grey, transparency, colours and image pixels over `ink_limit` (1.0 = 100 %), text under 9 pt in a
    near-neutral colour printed in more than one ink, a large area in black alone, fonts not embedded,
    pages without a TrimBox and BleedBox, no output intent with an embedded profile, no ID, no version or conformance."""
    from pypdf import PdfReader

    reader = PdfReader(pdf)
    problems = [f"{where}: font not embedded" for where in unembedded_fonts(pdf)]
    intents = reader.trailer["/Root"].get("/OutputIntents") or []
    if not any(i.get_object().get("/S") == "/GTS_PDFX" and "/DestOutputProfile" in i.get_object() for i in intents):
        problems.append("no GTS_PDFX output intent with an embedded profile")
    info = reader.trailer.get("/Info")
    info = info.get_object() if info is not None else {}
    if info.get("/GTS_PDFXVersion") != "PDF/X-1:2003" or info.get("/Trapped") != "/False":
        problems.append(f"Info: version {info.get('/GTS_PDFXVersion')}, Trapped {info.get('/Trapped')}")
    if info.get("/GTS_PDFXConformance") != "PDF/X-1a:2003":
        problems.append(f"Info: conformance {info.get('/GTS_PDFXConformance')}")
    if "/ID" not in reader.trailer:
        problems.append("no ID in the trailer")
    for number, page in enumerate(reader.pages, 1):
        if "/TrimBox" not in page or "/BleedBox" not in page:
            problems.append(f"page {number}: no TrimBox or BleedBox")
        if "/Annots" in page:
            problems.append(f"page {number}: annotations")

    def check_stream(stream, where):
        problems.extend(ink_problems(stream.get_data(), where, areas=".svg" not in where))
        # strings left out (a text's bytes could read as an operator), then each operator with its operands
        code = STRINGS.sub(b" ", stream.get_data())
        for operands, operator in OPERATION.findall(code):
            values = operands.split()
            if operator in RGB_OPERATORS:
                problems.append(f"{where}: {operands.decode()} {operator.decode()}")
            elif operator in (b"k", b"K") and sum(float(v) for v in values[-4:]) > ink_limit + 1e-6:
                problems.append(f"{where}: {sum(float(v) for v in values[-4:]) * 100:.0f} % ink")
            elif operator in (b"cs", b"CS") and values[-1] not in (b"/DeviceCMYK", b"/DeviceGray"):
                problems.append(f"{where}: colour space {values[-1].decode()}")

    for number, page in enumerate(reader.pages, 1):
        check_stream(page.get_contents(), f"page {number}")
    for where, res in resources(pdf):
        for name, state in (res.get("/ExtGState") or {}).items():
            state = state.get_object()
            if any(float(state.get(key, 1)) < 1 for key in ("/ca", "/CA")) or state.get("/SMask", "/None") != "/None":
                problems.append(f"{where} {name}: transparency")
        for name, xobject in (res.get("/XObject") or {}).items():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Form":
                check_stream(xobject, f"{where} {name}")
            elif xobject.get("/ColorSpace") not in ("/DeviceCMYK", "/DeviceGray") or "/SMask" in xobject:
                problems.append(f"{where} {name}: image in {xobject.get('/ColorSpace')}"
                                f"{' with a soft mask' if '/SMask' in xobject else ''}")
            elif xobject.get("/ColorSpace") == "/DeviceCMYK" and (most := image_ink(xobject)) > ink_limit * 255 + 4:
                problems.append(f"{where} {name}: {most / 2.55:.0f} % ink in an image's pixel")
        if "/ColorSpace" in res:
            problems.append(f"{where}: colour spaces {list(res['/ColorSpace'])}")
    return problems


@pytest.fixture(scope="module")
def cmyk_kits(tmp_path_factory):
    out = tmp_path_factory.mktemp("cmyk")
    options = Options(booklet=True, colour="cmyk", pdfx=True)
    outcomes = list(build_all(GAMES, out, options, 1, force=True))
    assert [outcome.code for outcome in outcomes] == [0] * len(GAMES)
    return out


def test_a_cmyk_pdfx_build_of_every_bundled_game_passes_the_checker(cmyk_kits):
    pdfs = sorted(cmyk_kits.glob("*/*.pdf"))
    kinds = {p.name.split("-")[0].removesuffix(".pdf") for p in pdfs}
    assert kinds == {"cards", "tokens", "rules", "calibration", "mat", "map"} and len(pdfs) > 30
    assert {pdf.relative_to(cmyk_kits).as_posix(): problems for pdf in pdfs
            if (problems := print_problems(pdf))} == {}


def test_the_checker_finds_what_an_rgb_build_has(rgb_kits):
    problems = print_problems(rgb_kits / "grid-battle" / "rules.pdf")
    assert any(p.endswith(" rg") for p in problems) and "no GTS_PDFX output intent with an embedded profile" in problems
    assert any("no TrimBox" in p for p in problems) and any("annotations" in p for p in problems)


def rewritten(pdf: Path, target: Path, change) -> Path:
    """`pdf` written again to `target` after `change(writer)`: a file that breaks one rule, for the checker."""
    from pypdf import PdfWriter

    writer = PdfWriter(clone_from=pdf)
    change(writer)
    writer.write(target)
    return target


def test_the_checker_requires_the_pdfx_conformance_key(cmyk_kits, tmp_path):
    from pypdf.generic import NameObject

    pdf = cmyk_kits / "grid-battle" / "rules.pdf"
    info = PdfReader(pdf).trailer["/Info"].get_object()
    assert (info["/GTS_PDFXVersion"], info["/GTS_PDFXConformance"]) == ("PDF/X-1:2003", "PDF/X-1a:2003")
    without = rewritten(pdf, tmp_path / "without.pdf",
                        lambda w: w._info.get_object().pop(NameObject("/GTS_PDFXConformance")))
    assert print_problems(without) == ["Info: conformance None"]


def test_the_output_intent_embeds_the_bundled_profile(cmyk_kits):
    from pypdf import PdfReader

    from generator.rendering.inks import FOGRA39

    reader = PdfReader(cmyk_kits / "europe-1939" / "cards-germans.pdf")
    intent = reader.trailer["/Root"]["/OutputIntents"][0].get_object()
    assert intent["/OutputConditionIdentifier"] == "FOGRA39"
    profile = intent["/DestOutputProfile"].get_object()
    assert profile["/N"] == 4 and profile.get_data() == FOGRA39.data()
    assert reader.pdf_header == "%PDF-1.4"


def test_a_sheet_is_trimmed_at_the_paper_and_an_exported_card_at_its_own_trim(cmyk_kits, tmp_path):
    from pypdf import PdfReader
    from typer.testing import CliRunner

    from generator.cli.app import app
    from generator.core.units import PT_PER_MM

    sheet = PdfReader(cmyk_kits / "europe-1939" / "cards-germans.pdf").pages[0]
    assert list(sheet.trimbox) == list(sheet.bleedbox) == list(sheet.mediabox)  # a sheet of many cards: its paper
    result = CliRunner().invoke(app, ["export", "pdf", "--out", str(tmp_path), "--pdfx", "--bleed", "3mm",
                                      "--deck", "tactics", "tank-duel"])
    assert result.exit_code == 0, result.output
    pdfs = sorted(tmp_path.rglob("*.pdf"))
    assert pdfs and [problems for pdf in pdfs[:3] if (problems := print_problems(pdf))] == []
    page = PdfReader(pdfs[0]).pages[0]
    assert list(page.bleedbox) == list(page.mediabox)
    left, bottom, right, top = (float(v) / PT_PER_MM for v in page.trimbox)
    assert [round(v, 2) for v in (left, bottom, right - left, top - bottom)] == [3, 3, 63, 88]


def test_qpdf_and_ghostscript_accept_the_files(cmyk_kits):
    import shutil
    import subprocess

    pdfs = sorted(cmyk_kits.glob("*/*.pdf"))
    for pdf in pdfs:
        result = subprocess.run(["qpdf", "--check", str(pdf)], capture_output=True, text=True)
        assert result.returncode == 0 and "No syntax or stream encoding errors" in result.stdout, (pdf, result.stdout)
    if shutil.which("gs") is None:
        pytest.skip("Ghostscript is not installed")
    for pdf in (cmyk_kits / "europe-1939" / "cards-germans.pdf", cmyk_kits / "europe-1939" / "rules-booklet.pdf"):
        result = subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=ink_cov", "-o", "-",
                                 "-dFirstPage=1", "-dLastPage=2", str(pdf)], capture_output=True, text=True)
        assert result.returncode == 0 and "CMYK OK" in result.stdout and "rror" not in result.stderr, result


def test_a_cmyk_pdfx_build_is_deterministic(tmp_path):
    options = Options(colour="cmyk", pdfx=True, calibration=False)
    for out in ("one", "two"):
        assert [o.code for o in build_all(["grid-battle"], tmp_path / out, options, 1, force=True)] == [0]
    files = sorted(p.name for p in (tmp_path / "one" / "grid-battle").glob("*.pdf"))
    assert files and all((tmp_path / "one" / "grid-battle" / f).read_bytes() ==
                         (tmp_path / "two" / "grid-battle" / f).read_bytes() for f in files)


# -- colours and images


def test_black_and_near_black_text_print_on_the_black_plate_alone():
    from generator.rendering.inks import Inks

    inks = Inks("cmyk")
    assert inks.of("#000000") == (0.0, 0.0, 0.0, 1.0)
    assert inks.of("#1d1d1b") == (0.0, 0.0, 0.0, 1.0)  # the rulebook's ink
    c, m, y, k = inks.of("#808080")
    assert (c, m, y) == (0.0, 0.0, 0.0) and 0.3 < k < 0.8
    assert inks.of("#ffffff") == (0.0, 0.0, 0.0, 0.0)
    c, m, y, k = inks.of("#c03020")  # a red goes through the profile: magenta and yellow
    assert m > 0.7 and y > 0.7 and c < 0.2


def test_a_cmyk_colour_prints_as_given_and_is_seen_through_the_profile_in_rgb():
    from generator.rendering.inks import Inks

    assert Inks("cmyk").of("cmyk(0, 100, 100, 0)") == (0.0, 1.0, 1.0, 0.0)
    assert Inks("cmyk").of("cmyk(12.5%,0,0,5)") == (0.125, 0.0, 0.0, 0.05)
    r, g, b = Inks("rgb").of("cmyk(0, 100, 100, 0)")
    assert r > 0.8 and g < 0.3 and b < 0.3  # the profile's solid red, not 1 - m


def test_converted_colours_and_image_pixels_stay_within_the_ink_limit():
    from PIL import Image

    from generator.rendering.inks import FOGRA39, Inks

    assert FOGRA39.ink_limit == 300.0
    steps = range(0, 256, 51)
    samples = [f"#{r:02x}{g:02x}{b:02x}" for r in steps for g in steps for b in steps]
    for limit, inks in ((3.0, Inks("cmyk")), (2.4, Inks("cmyk", ink_limit=240))):
        totals = [sum(inks.of(colour)) for colour in samples]
        assert max(totals) <= limit + 1e-9
        image = Image.new("RGB", (len(samples), 1))
        image.putdata([tuple(int(s[i:i + 2], 16) for i in (1, 3, 5)) for s in samples])
        printed = inks.image(image)
        assert printed.mode == "CMYK" and max(sum(pixel) for pixel in printed.get_flattened_data()) <= limit * 255 + 4
    assert max(sum(Inks("cmyk").of(c)) for c in samples) > 2.4  # the 240 % limit did cut something


def test_cmyk_colours_in_game_yaml_and_layouts_are_drawn_as_given(make_game, tmp_path):
    from pypdf import PdfReader
    from PIL import Image

    from generator.building.kit import build_game
    from generator.reading.loading import load_game

    from conftest import GAME_YAML

    folder = make_game({"game.yaml": patched(GAME_YAML, {'colours: {dark: "#222222"}':
                                                             'colours: {dark: "cmyk(0, 100, 100, 0)"}'}),
                        "face.yaml": "elements:\n  - {kind: box, x: 0, y: 0, w: 63, h: 88, fill: 'cmyk(100,0,0,0)',"
                                     " bleed: true}\n  - {kind: image, x: 10, y: 10, w: 40, h: 40, src: art.png}\n"})
    Image.new("RGBA", (20, 20), (30, 200, 40, 255)).save(folder / "art.png")
    build_game(load_game(folder), tmp_path / "cmyk", Options(colour="cmyk", pdfx=True, calibration=False))
    pdf = next((tmp_path / "cmyk").glob("*/cards-reds.pdf"))
    assert print_problems(pdf) == []
    reader = PdfReader(pdf)
    streams = b"".join(page.get_contents().get_data() for page in reader.pages)
    for page in reader.pages:
        for form in page["/Resources"].get("/XObject", {}).values():
            streams += form.get_object().get_data() if form.get_object()["/Subtype"] == "/Form" else b""
    assert b"1 0 0 0 k" in streams and b"0 1 1 0 k" in streams  # the face's cyan, the back's red
    build_game(load_game(folder), tmp_path / "rgb", Options(calibration=False))
    pages = PdfReader(next((tmp_path / "rgb").glob("*/cards-reds.pdf"))).pages
    rgb = b"".join(page.get_contents().get_data() for page in pages)
    assert b" k\n" not in rgb and b" rg" in rgb


def test_the_colour_options_are_part_of_the_input_key_only_when_chosen():
    from generator.building.cache import inputs_of
    from generator.core.bundle import bundled_games_dir

    root = bundled_games_dir() / "tank-duel"
    assert set(Options().as_dict()).isdisjoint({"colour", "pdfx", "ink_limit"})  # RGB kits built before stay fresh
    choices = (Options(), Options(colour="cmyk"), Options(colour="cmyk", pdfx=True), Options(colour="cmyk", ink_limit=240))
    keys = {inputs_of(root, options.as_dict()).key for options in choices}
    assert len(keys) == 4


@pytest.mark.parametrize("mode, expected", [("rgb", b" rg"), ("cmyk", b"0 1 1 0 k")])
def test_a_rulebook_icon_in_a_cmyk_colour_is_drawn_in_the_rulebook_s_inks(make_game, tmp_path, mode, expected):
    import io

    from pypdf import PdfReader

    from generator.reading.loading import load_game
    from generator.rendering.inks import Inks
    from generator.rendering.rulebook_pdf import typeset_rulebook
    from generator.core.units import paper_size

    from conftest import GAME_YAML

    game_yaml = patched(GAME_YAML, {'  star: {glyph: "★", font: text-bold}':
                                        '  star: {glyph: "★", font: text-bold, colour: "cmyk(0, 100, 100, 0)"}'})
    assert game_yaml != GAME_YAML
    game = load_game(make_game({"game.yaml": game_yaml + "rulebook: {file: rules.md}\n", "rules.md": "# R\n"}))
    data, _ = typeset_rulebook(game, "# Rules\n\nA [[star]] here.\n", paper_size("a5"), Inks(mode))
    streams = b"".join(page.get_contents().get_data() for page in PdfReader(io.BytesIO(data)).pages)
    assert expected in streams and b"0 100 100 0" not in streams
    if mode == "rgb":  # the red the profile prints for those inks
        from reportlab.lib.rl_accel import fp_str

        assert f"{fp_str(*Inks('rgb').of('cmyk(0, 100, 100, 0)'))} rg".encode() in streams


def test_small_near_neutral_text_prints_on_black_alone_and_large_dark_areas_in_rich_black():
    from generator.rendering.inks import RICH_BLACK, Inks

    inks = Inks("cmyk")
    c, m, y, k = inks.of("#8a8578")  # a warm grey: four inks as a line, a large area or large text
    assert min(c, m, y) > 0.1 and inks.of("#8a8578", large_area=True) == (c, m, y, k)
    small = inks.of("#8a8578", small_text=True)
    assert small[:3] == (0.0, 0.0, 0.0) and 0.4 < small[3] < 0.8  # on black alone, about as light
    assert inks.of("#6b5a3a", small_text=True) == inks.of("#6b5a3a")  # a brown is no grey: its own inks
    assert inks.of("#c03020", small_text=True) == inks.of("#c03020")
    assert inks.of("#1c1c1c") == (0.0, 0.0, 0.0, 1.0)  # darker than black alone: still black alone in a line
    assert inks.of("#1c1c1c", large_area=True) == RICH_BLACK  # the shop's C60 M40 Y40 K100 on a large area
    assert inks.of("#1c1c1c", small_text=True) == (0.0, 0.0, 0.0, 1.0)
    assert inks.of("#2a2e32", large_area=True) == inks.of("#2a2e32")  # lighter than black alone: as it is
    tight = Inks("cmyk", ink_limit=200).of("#000000", large_area=True)
    assert tight[3] == 1.0 and 0 < sum(tight[:3]) and abs(sum(tight) - 2.0) < 1e-9  # held to the limit
    assert Inks("rgb").of("#8a8578", small_text=True) == Inks("rgb").of("#8a8578")


@pytest.mark.parametrize("stream, problem", [
    (b"BT /F1 7 Tf 1 0 0 1 10 10 Tm 0.188235 0.184314 0.305882 0.490196 k (Tiny) Tj ET", "7 pt text in 4 inks"),
    (b"BT /F1 18 Tf 0.5 0 0 0.5 10 10 Tm 0.188235 0.184314 0.305882 0.490196 k [(a) 20 (b)] TJ ET",
     "9 pt text in 4 inks"),  # 18 pt at half scale is 9 pt: not small
    (b"BT /F1 7 Tf 0 0 0 0.62 k (Tiny) Tj ET", None),
    (b"BT /F1 7 Tf 0 0.86 0.83 0.2 k (Red) Tj ET", None),
    (b"0 0 0 1 k 10 10 60 90 re f", "21 x 32 mm in black alone"),
    (b"0 0 0 1 k 10 10 m 70 10 l 70 100 l h f", "21 x 32 mm in black alone"),
    (b"0.6 0.4 0.4 1 k 10 10 60 90 re f", None),
    (b"0 0 0 1 k 10 10 10 90 re f", None),  # 3.5 mm wide: a rule, not an area
    (b"0 0 0 1 k q 0 0 0 0.5 k Q 10 10 60 90 re f", "21 x 32 mm in black alone"),  # Q restores the colour
])
def test_the_checker_finds_small_text_in_four_inks_and_large_areas_in_black_alone(stream, problem):
    found = ink_problems(stream, "page 1")
    if problem is None or problem.startswith("9 pt"):
        assert found == []
    else:
        assert found == [f"page 1: {problem}" + (" 0.188235 0.184314 0.305882 0.490196" if "inks" in problem else "")]


# -- a game with raster art (tests/fixtures/gallery): conversion, the ink limit on pixels, flattening

GALLERY = TESTS / "fixtures" / "gallery"


def images(pdf: Path) -> dict[str, object]:
    """Every image XObject of a PDF, by its place."""
    return {f"{where} {name}": xobject.get_object() for where, res in resources(pdf)
            for name, xobject in (res.get("/XObject") or {}).items() if xobject.get_object()["/Subtype"] == "/Image"}


@pytest.fixture(scope="module")
def gallery(tmp_path_factory):
    from generator.building.kit import build_game
    from generator.reading.loading import load_game

    out = tmp_path_factory.mktemp("gallery")
    game = load_game(GALLERY)
    build_game(game, out / "cmyk", Options(colour="cmyk", pdfx=True, ink_limit=240, calibration=False))
    build_game(game, out / "rgb", Options(calibration=False))
    return out / "cmyk" / "gallery" / "cards-paintings.pdf", out / "rgb" / "gallery" / "cards-paintings.pdf"


def test_raster_art_is_printed_in_cmyk_through_the_profile_within_the_ink_limit(gallery):
    from PIL import Image

    from generator.rendering.inks import Inks

    import subprocess

    cmyk, _ = gallery
    assert print_problems(cmyk, ink_limit=2.4) == []
    assert "No syntax or stream encoding errors" in subprocess.run(["qpdf", "--check", str(cmyk)],
                                                                   capture_output=True, text=True).stdout
    found = {(int(x["/Width"]), x["/ColorSpace"], "/SMask" in x) for x in images(cmyk).values()}
    assert found == {(120, "/DeviceCMYK", False)}  # three pictures, each once: CMYK, no soft mask
    assert max(image_ink(x) for x in images(cmyk).values()) <= 2.4 * 255 + 4
    with Image.open(GALLERY / "art" / "deep.png") as deep:
        unlimited = Inks("cmyk").image(deep)  # the profile's own 300 %: the 240 % limit had to cut these pixels
    assert max(sum(pixel) for pixel in unlimited.get_flattened_data()) > 2.4 * 255 + 4
    pixels = {bytes(Image.frombytes("CMYK", (120, 120), x.get_data()).getpixel((45, 60))) for x in images(cmyk).values()}
    navy = Inks("cmyk", ink_limit=240).image(Image.new("RGB", (1, 1), (90, 0, 20))).getpixel((0, 0))
    assert bytes(navy) in pixels and navy[1] > 200 and navy[0] < navy[1]  # the deep red: magenta, not a guess


def test_transparent_art_is_flattened_onto_white_paper(gallery):
    from PIL import Image

    cmyk, rgb = gallery
    pictures = {x.indirect_reference.idnum: x for x in images(cmyk).values()}.values()
    centres = [Image.frombytes("CMYK", (120, 120), x.get_data()).getpixel((60, 60)) for x in pictures]
    badges = [x for x, (c, m, y, k) in zip(pictures, centres) if y > 100 and c < 60 and k < 60]  # its yellow
    assert len(badges) == 1
    badge = Image.frombytes("CMYK", (120, 120), badges[0].get_data())
    assert badge.getpixel((0, 0)) == (0, 0, 0, 0)  # a transparent corner: paper, no ink
    c, m, y, k = badge.getpixel((10, 60))  # the red ring
    assert m > 180 and y > 180 and c < 40
    # the RGB build keeps the transparency as a soft mask, which the PDF/X checker refuses
    problems = print_problems(rgb)
    assert any(p.endswith("image in /DeviceRGB with a soft mask") for p in problems)


def test_the_checker_finds_image_pixels_over_the_ink_limit(gallery, tmp_path):
    from pypdf.generic import NameObject

    cmyk, _ = gallery

    def overinked(writer):
        for page in writer.pages:
            for xobject in page["/Resources"]["/XObject"].values():
                for inner in (xobject.get_object().get("/Resources") or {}).get("/XObject", {}).values():
                    image = inner.get_object()
                    if image.get("/Subtype") == "/Image":
                        image.set_data(b"\xff\xff\xff\x00" * (120 * 120))  # 300 % of cyan, magenta and yellow
                        image[NameObject("/Filter")] = NameObject("/FlateDecode")

    broken = rewritten(cmyk, tmp_path / "overinked.pdf", overinked)
    problems = print_problems(broken, ink_limit=2.4)
    assert problems and all(p.endswith("300 % ink in an image's pixel") for p in problems)
