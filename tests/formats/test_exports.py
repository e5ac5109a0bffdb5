"""Exports for print shops and Tabletop Simulator: pixel sizes, file pairing, PDF boxes, TTS sheets, and that the
exported pixels are the card sheets' own."""

from __future__ import annotations

import csv
import json
import math

import pytest
from PIL import Image, ImageChops, ImageStat
from pypdf import PdfReader
from typer.testing import CliRunner

from conftest import GAME_YAML, REPO, patched
from generator.building.kit import build_game
from generator.core.options import Options
from generator.formats.exports import export_pdf, export_png, png_size, run_export, size_table
from generator.formats.tts import TTS_CARDS_PER_SHEET, TTS_MAX_PIXELS, export_tts, tts_chunks, tts_grid
from generator.cli.app import export_app
from generator.imposition.sheets import arrange
from generator.reading.loading import load_game
from generator.core.units import CARD_SIZES, PAPERS, PT_PER_MM, parse_length
from pdfcheck import page_text

POKER = CARD_SIZES["poker"]


def png(folder, out, dpi=300, bleed=3.0, decks=None):
    return run_export(folder, decks, (), bleed, out, "png",
                      lambda g, d, laid, target: export_png(g, d, laid, target, dpi, bleed))


def test_png_pixel_sizes():
    assert png_size(POKER, 0.0, 300) == (744, 1039)           # trim
    assert png_size(POKER, 3.0, 300) == (815, 1110)           # 69 x 94 mm
    assert png_size(POKER, parse_length("0.125in"), 300) == (819, 1114)  # not 825 x 1125: 63 mm is not 2.5 in
    assert png_size((63.5, 88.9), parse_length("0.125in"), 300) == (825, 1125)  # a 2.5 x 3.5 in card is


def test_docs_table_is_the_computed_one():
    assert size_table() in (REPO / "docs" / "exports.md").read_text(encoding="utf-8")


def test_png_files_pair_up_with_counts_and_exact_sizes(make_game, tmp_path):
    folder = make_game()
    png(folder, tmp_path / "a")
    deck = tmp_path / "a" / "tiny" / "png" / "reds"
    names = sorted(p.name for p in deck.iterdir())
    assert names == ["001-alpha-back.png", "001-alpha-front.png", "002-bravo-back.png", "002-bravo-front.png",
                     "cards.csv", "manifest.json"]
    rows = list(csv.DictReader((deck / "cards.csv").open(encoding="utf-8")))
    assert [(r["id"], r["count"], r["front"], r["back"]) for r in rows] == [
        ("alpha", "1", "001-alpha-front.png", "001-alpha-back.png"),
        ("bravo", "2", "002-bravo-front.png", "002-bravo-back.png")]
    for name in names[:4]:
        with Image.open(deck / name) as image:
            assert image.size == (815, 1110) and image.mode == "RGB"
            assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)
    manifest = json.loads((deck / "manifest.json").read_text())
    assert manifest["pixels"] == [815, 1110] and manifest["trim_pixels"] == [744, 1039]
    assert {f["file"] for f in manifest["files"]} == set(names) - {"manifest.json"}
    assert not list(deck.glob(".*"))  # no temporary files left
    # the same input gives the same bytes
    png(folder, tmp_path / "b")
    again = tmp_path / "b" / "tiny" / "png" / "reds"
    assert all((deck / n).read_bytes() == (again / n).read_bytes() for n in names)


def test_eighth_inch_bleed_and_stale_files(make_game, tmp_path):
    folder = make_game()
    png(folder, tmp_path, dpi=300, bleed=parse_length("0.125in"))
    deck = tmp_path / "tiny" / "png" / "reds"
    with Image.open(deck / "002-bravo-back.png") as image:
        assert image.size == (819, 1114)
    (folder / "reds.yaml").write_text("cards:\n  - {title: Alpha, type: L, force: 2, fronts: A, count: 3}\n")
    png(folder, tmp_path, dpi=72, bleed=0.0)
    assert sorted(p.name for p in deck.glob("*.png")) == ["001-alpha-back.png", "001-alpha-front.png"]
    with Image.open(deck / "001-alpha-front.png") as image:
        assert image.size == (round(63 / 25.4 * 72), round(88 / 25.4 * 72))


def test_shop_size_825_by_1125(make_game, tmp_path):
    folder = make_game({"game.yaml": patched(GAME_YAML, {"card: {size: poker}": 'card: {size: "2.5in x 3.5in"}'})})
    png(folder, tmp_path, dpi=300, bleed=parse_length("0.125in"))
    for side in ("front", "back"):
        with Image.open(tmp_path / "tiny" / "png" / "reds" / f"001-alpha-{side}.png") as image:
            assert image.size == (825, 1125)


def _trim(image: Image.Image, box_px: tuple[float, float, float, float]) -> Image.Image:
    """The region `box_px` (fractional pixels) resampled to 1 px per mm of a poker card."""
    return image.convert("RGB").resize((63, 88), Image.Resampling.BOX, box=box_px)


def test_png_shows_the_card_as_on_the_card_sheet(make_game, tmp_path):
    """The exported front, cut at the trim, against the same card rasterised from cards-reds.pdf."""
    import pypdfium2 as pdfium

    folder = make_game()
    build_game(load_game(folder), tmp_path / "kit", Options())
    dpi = 150
    document = pdfium.PdfDocument(str(tmp_path / "kit" / "tiny" / "cards-reds.pdf"))
    sheet = document[0].render(scale=dpi / 72).to_pil()
    document.close()
    slot = arrange(PAPERS["a4"], POKER, 3.0).slots[0]  # the first front on the first sheet: Alpha
    k = dpi / 25.4
    from_sheet = _trim(sheet, (slot.x * k, slot.y * k, (slot.x + slot.w) * k, (slot.y + slot.h) * k))
    png(folder, tmp_path / "out", dpi=dpi)
    with Image.open(tmp_path / "out" / "tiny" / "png" / "reds" / "001-alpha-front.png") as exported:
        sx, sy = exported.width / 69, exported.height / 94  # px per mm, card plus 3 mm bleed
        centre = exported.getpixel((exported.width // 2, round(30 * sy)))  # background between title and force
        from_png = _trim(exported, (3 * sx, 3 * sy, 66 * sx, 91 * sy))
    assert centre == sheet.convert("RGB").getpixel((round((slot.x + 31.5) * k), round((slot.y + 27) * k)))
    assert centre == (0xf4, 0xf0, 0xe6)
    difference = ImageStat.Stat(ImageChops.difference(from_sheet, from_png)).mean
    assert max(difference) < 4, difference
    assert ImageChops.difference(from_sheet, Image.new("RGB", (63, 88), centre)).getextrema()[0][1] > 100  # not blank


def test_pdf_boxes(make_game, tmp_path):
    folder = make_game()
    run_export(folder, None, (), 3.0, tmp_path, "pdf", lambda g, d, laid, target: export_pdf(g, d, laid, target, 3.0))
    deck = tmp_path / "tiny" / "pdf" / "reds"
    assert sorted(p.name for p in deck.glob("*.pdf")) == ["001-alpha.pdf", "002-bravo.pdf"]
    k = PT_PER_MM
    for name, title in (("001-alpha.pdf", "Alpha"), ("002-bravo.pdf", "Bravo")):
        reader = PdfReader(deck / name)
        assert len(reader.pages) == 2
        for page in reader.pages:
            media, bleed, trim = (tuple(float(v) for v in box) for box in (page.mediabox, page.bleedbox, page.trimbox))
            assert "/BleedBox" in page and "/TrimBox" in page
            assert media == pytest.approx((0, 0, 69 * k, 94 * k), abs=0.001)
            assert bleed == media
            assert trim == pytest.approx((3 * k, 3 * k, 66 * k, 91 * k), abs=0.001)
            assert bleed[0] <= trim[0] < trim[2] <= bleed[2] and bleed[1] <= trim[1] < trim[3] <= bleed[3]
        assert title in page_text(deck / name, 0) and f"back of {title}" in page_text(deck / name, 1)
    run_export(folder, None, (), 3.0, tmp_path / "again", "pdf",
               lambda g, d, laid, target: export_pdf(g, d, laid, target, 3.0))
    again = tmp_path / "again" / "tiny" / "pdf" / "reds"
    assert all((deck / n).read_bytes() == (again / n).read_bytes() for n in ("001-alpha.pdf", "cards.csv"))


def test_tts_grid_limits():
    for cards in (1, 2, 9, 10, 30, 50, 51, 56, 60, TTS_CARDS_PER_SHEET):
        for size in (POKER, CARD_SIZES["tarot"], CARD_SIZES["mini"], CARD_SIZES["bridge"]):
            g = tts_grid(size, cards)
            assert 2 <= g.columns <= 10 and 2 <= g.rows <= 7 and g.columns * g.rows >= cards + 1
            assert max(g.size) <= TTS_MAX_PIXELS
            assert g.card[0] <= round(size[0] / 25.4 * 300)  # never more than --dpi
            assert math.isclose(g.card[0] / g.card[1], size[0] / size[1], rel_tol=0.01)
    full = tts_grid(POKER, 69)
    assert (full.columns, full.rows, full.card, full.size) == (10, 7, (409, 572), (4090, 4004))
    assert tts_grid(POKER, 1).card == (744, 1039)  # small decks keep the full 300 dpi
    assert [len(c) for c in tts_chunks(120)] == [60, 60]  # shared out evenly: one grid serves both sheets
    assert [len(c) for c in tts_chunks(138)] == [69, 69] and [len(c) for c in tts_chunks(139)] == [46, 46, 47]
    assert [c.start for c in tts_chunks(139)] == [0, 46, 92] and [len(c) for c in tts_chunks(5)] == [5]
    with pytest.raises(Exception):
        tts_grid(POKER, 70)


def test_tts_sheets_of_a_120_card_deck(make_game, tmp_path):
    folder = make_game({
        "game.yaml": patched(GAME_YAML, {"size: 3": "size: 120"}),
        "reds.yaml": "cards:\n  - {title: Alpha, type: L, force: 2, fronts: A, count: 60}\n"
                     "  - {title: Bravo, type: U, force: 3, fronts: E, count: 60}\n",
    })
    run_export(folder, None, (), 3.0, tmp_path, "tts", lambda g, d, laid, target: export_tts(g, d, laid, target, 100))
    deck = tmp_path / "tiny" / "tts" / "reds"
    assert sorted(p.name for p in deck.iterdir()) == [
        "manifest.json", "reds-backs-1.png", "reds-backs-2.png", "reds-faces-1.png", "reds-faces-2.png", "reds-tts.txt"]
    sheets = json.loads((deck / "manifest.json").read_text())["sheets"]
    assert [(s["cards"], s["columns"], s["rows"]) for s in sheets] == [(60, 9, 7), (60, 9, 7)]
    text = (deck / "reds-tts.txt").read_text()
    assert text.count("Number:         60") == 2 and "Unique backs:   yes" in text and "Width:          9" in text
    faces = Image.open(deck / "reds-faces-1.png")
    backs = Image.open(deck / "reds-backs-1.png")
    assert faces.size == backs.size == tuple(sheets[0]["sheet_pixels"]) and max(faces.size) <= TTS_MAX_PIXELS
    w, h = sheets[0]["card_pixels"]

    second = Image.open(deck / "reds-faces-2.png")

    def cell(image, slot):
        x, y = (slot % 9) * w, (slot // 9) * h
        return image.crop((x, y, x + w, y + h)).tobytes()

    assert cell(faces, 0) == cell(faces, 59) != cell(second, 0)  # 60 Alphas, then 60 Bravos
    assert cell(backs, 0) != cell(Image.open(deck / "reds-backs-2.png"), 0)  # "back of Alpha", "back of Bravo"
    assert cell(faces, 62) == cell(second, 62) == cell(backs, 0)  # the hidden slot holds the deck's first back
    assert cell(faces, 60) == cell(faces, 61) == Image.new("RGB", (w, h), "white").tobytes()  # empty slots


def test_tts_bundled_deck_with_one_back(tmp_path):
    run_export("europe-1939", ["germans"], (), 3.0, tmp_path, "tts",
               lambda g, d, laid, target: export_tts(g, d, laid, target, 100))
    deck = tmp_path / "europe-1939" / "tts" / "germans"
    assert sorted(p.name for p in deck.glob("*.png")) == ["germans-back.png", "germans-faces-1.png"]
    text = (deck / "germans-tts.txt").read_text()
    [sheet] = json.loads((deck / "manifest.json").read_text())["sheets"]
    columns, rows = sheet["columns"], sheet["rows"]
    assert (columns, rows) == (10, 6)  # 57 slots; at 100 dpi the cards fit without shrinking
    assert "Unique backs:   no" in text and "Number:         56" in text and "Width:          10" in text
    with Image.open(deck / "germans-faces-1.png") as faces, Image.open(deck / "germans-back.png") as back:
        assert back.size == tuple(sheet["card_pixels"]) == (round(63 / 25.4 * 100), round(88 / 25.4 * 100))
        assert faces.size == (columns * back.width, rows * back.height)
        hidden = faces.crop(((columns - 1) * back.width, (rows - 1) * back.height, faces.width, faces.height))
        assert hidden.tobytes() == back.tobytes()


def test_command_line(make_game, tmp_path):
    runner = CliRunner()
    folder = make_game()
    result = runner.invoke(export_app, ["png", str(folder), "--dpi", "72", "--bleed", "0.125in",
                                        "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "2 cards (3 copies), 4 PNGs of 197 x 267 px (72 dpi, 3.175 mm bleed; trim 179 x 249 px)" in result.stdout
    unknown = runner.invoke(export_app, ["tts", str(folder), "--deck", "blues", "--out", str(tmp_path)])
    assert unknown.exit_code == 2 and unknown.stderr.strip() == "error: no deck 'blues' in tiny (decks: reds)"
    bad = runner.invoke(export_app, ["pdf", str(folder), "--bleed", "3 parsecs", "--out", str(tmp_path)])
    assert bad.exit_code == 2 and bad.stderr.startswith("error: --bleed:")
    (folder / "reds.yaml").write_text("cards:\n  - {title: A, type: L, force: 99}\n")
    invalid = runner.invoke(export_app, ["png", str(folder), "--out", str(tmp_path / "never")])
    assert invalid.exit_code == 1 and "not exported" in invalid.stderr and "force" in invalid.stderr
    assert not (tmp_path / "never").exists()


def test_a_game_of_counters_exports_its_counters(tmp_path):
    from typer.testing import CliRunner

    from generator.cli import app

    result = CliRunner().invoke(app, ["export", "tts", "grid-battle", "--out", str(tmp_path), "-q"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "grid-battle" / "tts" / "blue-roster" / "blue-roster-tts.txt").is_file()


def art_game(make_game, tmp_path, count: int):
    """A deck of `count` cards, each with its own noisy PNG over the whole face."""
    cards = "".join(f"  - {{title: Card {i}, type: U, force: 1, count: 1, art: art/{i}.png}}\n" for i in range(count))
    face = ("elements:\n  - {kind: image, x: -3, y: -3, w: 69, h: 94, src: '{{ card.art }}', fit: cover, "
            "bleed: true}\n")
    folder = make_game({"game.yaml": patched(GAME_YAML, {"size: 3": f"size: {count}"}).replace(
                            "traits:", "traits:\n  art: {kind: text}", 1),
                        "reds.yaml": "cards:\n" + cards, "face.yaml": face})
    (folder / "art").mkdir()
    for i in range(count):
        Image.merge("RGB", [Image.effect_noise((120, 160), 30 + i + band) for band in range(3)]).save(
            folder / "art" / f"{i}.png")
    return folder


def test_png_files_are_written_as_each_face_is_encoded(make_game, tmp_path, monkeypatch):
    """An export holds a few faces at a time: each face's PNGs are on disk soon after it is drawn, not at the end."""
    from generator.formats import exports
    from generator.rendering.raster import ENCODING

    folder = art_game(make_game, tmp_path, 5)
    written = []
    rasterise = exports.rasterise_faces

    def watched(*args, **kwargs):
        for face in rasterise(*args, **kwargs):
            written.append(sum(1 for path in (tmp_path / "out").rglob("*") if path.is_file() and ".png" in path.name))
            yield face

    monkeypatch.setattr(exports, "rasterise_faces", watched)
    run_export(folder, None, (), 3.0, tmp_path / "out", "png",
               lambda g, d, laid, target: export_png(g, d, laid, target, 150, 3.0))
    # when a face is drawn, the faces before it are written but for those still being encoded (raster.ENCODING)
    assert len(written) == 10 and all(index - count <= ENCODING for index, count in enumerate(written))
    monkeypatch.setattr(exports, "rasterise_faces", rasterise)
    png(folder, tmp_path / "again", dpi=150)
    done, again = (tmp_path / name / "tiny" / "png" / "reds" for name in ("out", "again"))
    assert {p.name: p.read_bytes() for p in done.iterdir()} == {p.name: p.read_bytes() for p in again.iterdir()}


def test_pdfium_opens_the_faces_pdf_again_every_few_pages_and_draws_the_same(make_game, tmp_path, monkeypatch):
    """pdfium keeps the objects it has read, every image's data among them: the faces' document is opened again
    after PAGES_OPEN pages, so that an export's memory does not grow with its art; the pixels are the same."""
    import pypdfium2 as pdfium

    from generator.rendering import raster

    folder = art_game(make_game, tmp_path, 5)
    png(folder, tmp_path / "all", dpi=100)
    opened = []
    document = pdfium.PdfDocument

    def counted(*args, **kwargs):
        opened.append(1)
        return document(*args, **kwargs)

    monkeypatch.setattr(pdfium, "PdfDocument", counted)
    monkeypatch.setattr(raster, "PAGES_OPEN", 2)
    png(folder, tmp_path / "two", dpi=100)
    assert len(opened) == 5  # 10 faces (5 fronts, 5 backs), two by two
    one, two = (tmp_path / name / "tiny" / "png" / "reds" for name in ("all", "two"))
    assert {p.name: p.read_bytes() for p in one.iterdir()} == {p.name: p.read_bytes() for p in two.iterdir()}


def test_images_are_encoded_by_threads_in_their_order_a_few_ahead(monkeypatch):
    """raster.encoded: each image encoded by a thread while the next is drawn, the results in the images' order, the
    same bytes, and no more than ENCODING images drawn and not yet taken."""
    import threading

    from generator.rendering import raster

    monkeypatch.setattr(raster.os, "cpu_count", lambda: 2)
    images = [Image.effect_noise((40, 30), 10 + index) for index in range(7)]
    drawn, threads, ahead = [], [], []

    def draw():
        for index, image in enumerate(images):
            drawn.append(index)
            yield index, image

    def encode(image, dpi):
        threads.append(threading.current_thread().name)
        return raster.png_bytes(image, dpi)

    made = []
    for index, data in raster.encoded(draw(), encode, 72):
        ahead.append(len(drawn) - index - 1)
        made.append((index, data))
    assert made == [(index, raster.png_bytes(image, 72)) for index, image in enumerate(images)]
    assert len(threads) == 7 and all(name.startswith("muster-encode") for name in threads)
    assert max(ahead) == raster.ENCODING - 1
