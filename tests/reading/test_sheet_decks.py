"""Issue 13, points 4-6: a spreadsheet as a deck's file (read on every build, headers mapped, helper columns
ignored, formulas by their saved values, findings at the sheet's cells), pieces without titles, and images that
bleed."""

from __future__ import annotations

import zipfile
from pathlib import Path

from openpyxl import Workbook
from PIL import Image

from conftest import GAME_YAML, patched
from hostile_run import muster, refused
from generator.building.cache import inputs_of
from generator.building.kit import build_game
from generator.checking import check_game
from generator.core import codes as catalogue
from generator.core.errors import Location
from generator.core.options import Options
from generator.core.units import CARD_SIZES, PAPERS
from generator.formats.exports import export_png, run_export
from generator.formats.spreadsheets import import_deck
from generator.imposition.sheets import arrange
from generator.reading.loading import load_game
from pdfcheck import page_text, rasterise

SHEET_DECK = """\
    file: cards.xlsx
    sheet: Units
    columns: {Strength: force, Kind: type}
    ignore: [Notes, TGC code]
    size: 3"""
HEADER = ["Name", "Qty", "Strength", "Kind", "Notes", "TGC code", "Colour", "Weight", "Unit no"]
ROWS = [["Alpha", 1, 7, "L", "helper", "T-101", "red", 3, "6th"],
        ["Bravo", 2, "=B3+3", "U", "helper", "T-102", "blue", 4, "7th"]]
FACE = """\
elements:
  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: "{{ card.title }}", size: 12}
  - {kind: text, x: 4, y: 20, w: 55, h: 10, text: "force {{ card.force }}", size: 12}
  - {kind: text, x: 4, y: 40, w: 55, h: 10, text: "unit {{ card.unit }}", size: 12}
"""


def workbook(path: Path, header: list, rows: list, cached: dict[str, str] | None = None) -> Path:
    """An .xlsx whose first worksheet is a decoy and whose second, Units, holds the cards; `cached` gives
    formulas (as openpyxl writes them, without a value) the value a spreadsheet program would have saved."""
    book = Workbook()
    book.active.title = "Decoy"
    book.active.append(["nothing", "here"])
    sheet = book.create_sheet("Units")
    sheet.append(header)
    for row in rows:
        sheet.append(row)
    book.save(path)
    if cached:
        with zipfile.ZipFile(path) as archive:
            parts = {name: archive.read(name) for name in archive.namelist()}
        for name in parts:
            for formula, value in cached.items():
                parts[name] = parts[name].replace(f"<f>{formula}</f><v></v>".encode(),
                                                  f"<f>{formula}</f><v>{value}</v>".encode())
        with zipfile.ZipFile(path, "w") as archive:
            for name, data in parts.items():
                archive.writestr(name, data)
    return path


def sheet_game(make_game, header=HEADER, rows=ROWS, cached=None, deck=SHEET_DECK) -> Path:
    game_yaml = (patched(GAME_YAML, {"    file: reds.yaml\n    size: 3": deck,
                                     "  text:   {kind: text}": "  text:   {kind: text}\n  unit:   {kind: text, label: Unit no}"}))
    folder = make_game({"game.yaml": game_yaml, "face.yaml": FACE})
    workbook(folder / "cards.xlsx", header, rows, {"B3+3": "5"} if cached is None else cached)
    return folder


def test_an_xlsx_deck_with_helper_columns_and_a_mapping_builds(make_game, tmp_path):
    folder = sheet_game(make_game)
    game = load_game(folder)
    deck = game.decks["reds"]
    assert [(c.title, c.count, dict(c.traits)) for c in deck.cards] == [
        ("Alpha", 1, {"force": 7, "type": "L", "unit": "6th"}),
        ("Bravo", 2, {"force": 5, "type": "U", "unit": "7th"}),  # the formula's saved value
    ]
    assert deck.cards[1].located("force") == Location(folder / "cards.xlsx", 3, 3)
    findings = check_game(game)
    assert [(str(f), f.code) for f in findings] == [(
        f"{folder / 'cards.xlsx'}:1:G: warning: 2 column(s) not read, the game has no such keys: 'Colour', "
        "'Weight' (map them to keys under the deck's columns:, or list them under ignore:)", "unknown-column")]
    build_game(game, tmp_path / "kit", Options())
    text = page_text(tmp_path / "kit" / "tiny" / "cards-reds.pdf", 0)
    for printed in ("Alpha", "force 7", "unit 6th", "Bravo", "force 5", "unit 7th"):
        assert printed in text, text
    assert "helper" not in text and "T-101" not in text


def test_findings_name_the_cell(make_game):
    rows = [["Alpha", 1, "seven", "L"], ["Bravo", "x", "=B3+3", "Q"], ["", 1, 2, "U"]]
    folder = sheet_game(make_game, header=HEADER[:4], rows=rows, cached={})
    findings = [(str(f.where).replace(f"{folder}/", ""), f.severity, f.field, f.code)
                for f in check_game(load_game(folder))]
    assert ("cards.xlsx:2:C", "error", "force", "wrong-type") in findings, findings
    assert ("cards.xlsx:3:B", "error", "count", "wrong-type") in findings, findings
    assert ("cards.xlsx:3:C", "error", "force", "formula-without-value") in findings, findings
    assert ("cards.xlsx:3:D", "error", "type", "unknown-code") in findings, findings
    assert ("cards.xlsx:4:A", "error", "title", "missing-key") in findings, findings


def test_a_csv_deck_common_headers_and_reserved_names(make_game):
    game_yaml = patched(GAME_YAML, {"file: reds.yaml": "file: reds.csv"})
    folder = make_game({"game.yaml": game_yaml})
    (folder / "reds.csv").write_text("NAME,Copies,type,force,ID\nAlpha,1,L,2,A-1\nBravo,2,U,three,B-2\n",
                                     encoding="utf-8")
    game = load_game(folder)
    assert [(c.title, c.count, c.id) for c in game.decks["reds"].cards] == [("Alpha", 1, "alpha"), ("Bravo", 2, "bravo")]
    findings = [(str(f).replace(f"{folder}/", ""), f.code) for f in game.findings]
    assert ("reds.csv:3:4: error: force: expected an integer, got 'three'", "wrong-type") in findings
    reserved = [line for line, code in findings if code == "reserved-column"]
    assert reserved and reserved[0].startswith("reds.csv:1:5: warning: ID: column 'ID' is not read")
    assert "columns: {ID: id}" in reserved[0]
    (folder / "reds.csv").write_text("title,count,type,force,id\nAlpha,1,L,2,A-1\nBravo,2,U,3,B-2\n", encoding="utf-8")
    assert [c.id for c in load_game(folder).decks["reds"].cards] == ["A-1", "B-2"]  # as muster export writes it


def test_thousands_of_unknown_columns_are_one_bounded_warning(make_game):
    game_yaml = patched(GAME_YAML, {"file: reds.yaml": "file: reds.csv"})
    folder = make_game({"game.yaml": game_yaml})
    helpers = [f"helper {n} " + "x" * 100 for n in range(480)]
    (folder / "reds.csv").write_text(",".join(["title", "type", "force", *helpers]) + "\n"
                                     + "Alpha,L,2" + ",1" * 480 + "\nBravo,U,3" + ",2" * 480 + "\n", encoding="utf-8")
    (finding,) = [f for f in load_game(folder).findings if f.code == "unknown-column"]
    assert finding.severity == "warning" and "480 column(s) not read" in finding.message
    assert "and 470 more" in finding.message and len(finding.message) < 800


def test_the_sheet_is_an_input_of_the_build(make_game):
    folder = sheet_game(make_game)
    before = inputs_of(folder, {}).key
    workbook(folder / "cards.xlsx", HEADER, [["Alpha", 1, 8, "L"], ["Bravo", 2, 5, "U"]])
    assert inputs_of(folder, {}).key != before
    assert load_game(folder).decks["reds"].cards[0].traits["force"] == 8


def test_sheet_keys_are_checked(make_game):
    deck = patched(SHEET_DECK, {"Kind: type": "Kind: kind, Strenght: force"})
    found = [(f.code, f.message) for f in load_game(sheet_game(make_game, deck=deck)).findings]
    assert (catalogue.MISSING_COLUMN.name, catalogue.MISSING_COLUMN.message(
        name="Strenght", hint=" (did you mean 'Strength'?)")) in found
    folder = sheet_game(make_game, deck=patched(deck, {"sheet: Units": "sheet: Unit"}))
    unknown, sheet = load_game(folder).findings
    assert (unknown.code, unknown.field, unknown.where.path.name, unknown.where.line) == (
        "unknown-key", "decks.reds.columns.Kind", "game.yaml", 29)  # the key it maps the column to: kind
    assert (sheet.code, sheet.where.path.name) == ("unknown-sheet", "cards.xlsx")
    assert "(the file has: Decoy, Units)" in sheet.message  # on purpose: the hint lists the sheets to choose from
    yaml_deck = make_game({"game.yaml": patched(GAME_YAML, {"file: reds.yaml": "file: reds.yaml\n    ignore: [Notes]"})},
                          name="yaml-deck")
    assert [f.code for f in load_game(yaml_deck).findings] == ["key-conflict"]


def test_hostile_sheets_are_one_line_and_not_built(make_game, tmp_path):
    outside = workbook(tmp_path / "outside.xlsx", ["title"], [["Secret"]])
    cases = {
        "reds.xlsx": lambda path: path.write_bytes(b"PK\x03\x04 not really a zip"),
        "reds.csv": lambda path: path.write_text("title,text\nA," + "x" * 40_000 + "\n", encoding="utf-8"),
        "link.xlsx": lambda path: path.symlink_to(outside),
        "wide.xlsx": lambda path: workbook(path, ["title"] + [f"c{n}" for n in range(600)], [["A"]]),
    }
    for name, prepare in cases.items():
        folder = make_game({"game.yaml": patched(GAME_YAML, {"file: reds.yaml": f"file: {name}"})}, name=name[:-5])
        prepare(folder / name)
        result = muster("build", folder, "--out", tmp_path / "out", cwd=tmp_path)
        lines = refused(result, [name, "game.yaml"])
        assert result.code == (2 if name == "reds.xlsx" else 1), (name, result)  # unreadable input exits 2
        assert len(lines) == 1, (name, result)
        assert not (tmp_path / "out" / folder.name).exists()


# --- pieces without titles ---------------------------------------------------------------------------------------

TOKENS = """\
  counters:
    component: tokens
    file: counters.yaml
    face: token.yaml
    back: token.yaml
    format: {size: counter-1/2in, packing: sheet}
"""
TOKEN_LAYOUT = """\
elements:
  - {kind: text, x: 1, y: 1, w: 10.7, h: 4, text: "{{ card.force }}", size: 8}
"""


def test_titleless_tokens_get_ids_and_build(make_game, tmp_path):
    game_yaml = patched(GAME_YAML, {"rules:": TOKENS + "rules:",
                                    "require: [type, force]": "require: [type, force]\n    decks: [reds]"})
    folder = make_game({"game.yaml": game_yaml, "token.yaml": TOKEN_LAYOUT,
                        "counters.yaml": "cards:\n  - {force: 6, count: 3}\n  - {force: 4}\n"
                                         "  - {title: HQ, force: 1}\n  - {title: HQ, force: 2}\n"})
    game = load_game(folder)
    assert [c.id for c in game.decks["counters"].cards] == ["counters-1", "counters-2", "hq", "hq"]
    findings = check_game(game)
    assert [f.code for f in findings] == ["duplicate-title"]  # titles given are still unique; none is no duplicate
    (folder / "counters.yaml").write_text("cards:\n  - {force: 6, count: 3}\n  - {force: 4}\n", encoding="utf-8")
    game = load_game(folder)
    assert check_game(game) == []
    build_game(game, tmp_path / "kit", Options())
    assert "6" in page_text(tmp_path / "kit" / "tiny" / "tokens.pdf", 0)
    run_export(folder, ["counters"], (), 0.0, tmp_path / "png", "png",
               lambda g, d, laid, target: export_png(g, d, laid, target, 100, 0.0))
    names = sorted(p.name for p in (tmp_path / "png").rglob("*.png"))
    assert names[:2] == ["001-counters-1-back.png", "001-counters-1-front.png"], names


def test_import_of_a_titleless_token_sheet(make_game, tmp_path):
    game_yaml = patched(GAME_YAML, {"rules:": TOKENS + "rules:"})
    folder = make_game({"game.yaml": game_yaml, "token.yaml": TOKEN_LAYOUT, "counters.yaml": "cards: []\n"})
    (tmp_path / "counters.csv").write_text("Qty,force\n3,6\n1,4\n", encoding="utf-8")
    result = import_deck(tmp_path / "counters.csv", folder, "counters")
    assert [f for f in result.findings if f.severity == "error" and "typed" not in f.message] == []
    assert (result.cards, result.copies) == (2, 4)
    assert "cards:\n  - {count: 3, force: 6}\n  - {count: 1, force: 4}\n" in (folder / "counters.yaml").read_text()


def test_cards_still_need_titles(make_game):
    folder = make_game({"reds.yaml": "cards:\n  - {type: L, force: 2, fronts: A}\n  - {title: Bravo, type: U, "
                                     "force: 3, fronts: E, count: 2}\n"})
    (finding,) = [f for f in load_game(folder).findings]
    assert (finding.code, finding.field, finding.where.line) == ("missing-key", "cards[0].title", 2)
    assert "a deck of tokens may go without" in finding.message


# --- images that bleed -------------------------------------------------------------------------------------------

def test_a_full_bleed_image_reaches_the_bleed_edge(make_game, tmp_path):
    Image.new("RGB", (690, 940), (200, 0, 0)).save(tmp_path / "red.png")  # a poker card with 3 mm bleed: 69 x 94
    edges = {}
    for bleed in ("true", "false"):
        folder = make_game({"art/red.png": "", "face.yaml": "elements:\n  - {kind: image, x: 0, y: 0, w: 63, "
                            f"h: 88, src: art/red.png, bleed: {bleed}}}\n"}, name=f"bleed-{bleed}")
        (folder / "art" / "red.png").write_bytes((tmp_path / "red.png").read_bytes())
        build_game(load_game(folder), tmp_path / "kit", Options())
        page = rasterise(tmp_path / "kit" / folder.name / "cards-reds.pdf", 0, dpi=150, mode="RGB")
        slot = arrange(PAPERS["a4"], CARD_SIZES["poker"], 3.0).slots[0]
        k = 150 / 25.4
        inside_the_bleed = (round((slot.x - 0.8 * slot.left) * k), round((slot.y + 30) * k))
        edges[bleed] = page.getpixel(inside_the_bleed)
    assert edges["true"][0] > 150 and edges["true"][1] < 60, edges   # red out to the bleed's edge
    assert edges["false"] == (255, 255, 255), edges                  # without it the bleed stays white
