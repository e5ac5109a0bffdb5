"""Issue 25, items 1-10: a designer's real files (spreadsheets kept as decks, their formulas, styled columns and
one row per copy), findings that are right (a rule's typo never widens it, every stage reported, tabs named,
exit codes as documented), `embed:` that leaves titles alone, and warnings accepted for one element."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import yaml
from openpyxl import load_workbook
from openpyxl.styles import PatternFill
from pypdf import PdfReader

from conftest import FACE_YAML, GAME_YAML, patched
from generator.checking import check_game
from generator.core import codes as catalogue
from generator.core.errors import Finding
from generator.building.kit import build_game
from generator.core.options import Options
from pdfcheck import page_text
from generator.checking.data import check_data
from generator.formats.spreadsheets import deck_table, import_deck, write_csv
from generator.reading.loading import load_game
from generator.reading.worksheets import cards_from_sheet, read_sheet
from hostile_run import muster
from test_sheet_decks import HEADER, SHEET_DECK, sheet_game
from test_validation import game_with


def codes(folder) -> list[tuple[str, str]]:
    return [(f.code, f.field) for f in check_data(load_game(folder))]


# --- item 6: a rule whose when: names an unknown trait does not run -----------------------------------------------

def test_a_rule_with_an_unknown_trait_in_when_does_not_run(make_game):
    folder = game_with(make_game, "cards:\n  - {title: A, type: L, force: 2}\n  - {title: B, type: U, force: 3, count: 2}\n",
                       "rules:\n  - name: one-each\n    max_copies: 1\n    when: {typ: [O]}\n")
    assert codes(folder) == [("unknown-trait", "rules[0].when.typ")]


def test_a_variant_with_an_unknown_trait_in_when_patches_no_card(make_game):
    folder = game_with(make_game, "cards:\n  - {title: A, type: L, force: 2}\n  - {title: B, type: U, force: 3, count: 2}\n",
                       "variants:\n  late:\n    enabled: true\n    when: {typ: [O]}\n    patch: {year: 1944}\n")
    game = load_game(folder)
    assert [(f.code, f.field) for f in game.findings] == [("unknown-trait", "variants.late.when.typ")]
    assert all(card.value("year") is None for card in game.decks["reds"].cards)


# --- items 1 and 3: a formula's saved empty text is a value; a sheet's extent is its cells with data --------------

def _rewrite(path: Path, old: str, new: str) -> None:
    """An .xlsx with `old` replaced by `new` in its worksheets' XML: as another program would have saved it."""
    with zipfile.ZipFile(path) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data.replace(old.encode(), new.encode()) if "worksheets/" in name else data)


def test_a_formula_whose_saved_value_is_empty_text_is_an_empty_cell(make_game):
    rows = [["Alpha", 1, 7, "L", "x"], ["Bravo", 2, 5, "U", "=IF(E3=\"x\",\"\",E3)"]]
    folder = sheet_game(make_game, header=[*HEADER[:4], "Unit no"], rows=rows, cached={})
    formula = '<f>IF(E3="x","",E3)</f><v></v>'
    _rewrite(folder / "cards.xlsx", f'<c r="E3">{formula}', f'<c r="E3" t="str">{formula}')  # as Excel saves it
    game = load_game(folder)
    assert [f.code for f in game.findings] == []
    assert [dict(card.traits).get("unit") for card in game.decks["reds"].cards] == ["x", None]
    _rewrite(folder / "cards.xlsx", f'<c r="E3" t="str">{formula}', f'<c r="E3">{formula}')  # no value saved
    (finding,) = load_game(folder).findings
    assert (finding.code, finding.where.line, finding.where.column) == ("formula-without-value", 3, 5)


def test_styled_empty_cells_past_the_limits_are_not_the_sheets_extent(make_game):
    folder = sheet_game(make_game, header=HEADER[:4], rows=[["Alpha", 1, 7, "L"], ["Bravo", 2, 5, "U"]])
    book = load_workbook(folder / "cards.xlsx")
    for row in (1, 2, 3, 25_000):  # a style on whole rows, as writers save them
        for column in (5, 600, 16_384):
            book["Units"].cell(row, column).fill = PatternFill("solid", fgColor="FFFF00")
    book.save(folder / "cards.xlsx")
    game = load_game(folder)
    assert [f.code for f in game.findings] == []
    assert [card.title for card in game.decks["reds"].cards] == ["Alpha", "Bravo"]
    book["Units"].cell(2, 600, "data")  # a value past the limit is still refused, at its cell
    book.save(folder / "cards.xlsx")
    (finding,) = load_game(folder).findings
    assert (finding.code, finding.where.line, finding.where.column) == ("too-large", 2, 600)


# --- item 5: the same problem reads the same whatever the source; a header typo is one finding, with a hint -------

def _deck_findings(make_game, deck_file: str, text: str) -> list[tuple[str, str, str]]:
    folder = make_game({"game.yaml": patched(GAME_YAML, {"file: reds.yaml": f"file: {deck_file}"}), deck_file: text})
    return [(f.code, f.field.rpartition(".")[2], f.message) for f in check_data(load_game(folder))]


def test_a_bad_value_reads_the_same_in_a_sheet_and_in_yaml(make_game):
    from_yaml = _deck_findings(make_game, "reds.yaml", "cards:\n  - {title: Alpha, type: L, force: 12, fronts: Q, "
                                                       "count: 20000}\n  - {title: Bravo, type: U, force: 3, count: 2}\n")
    from_sheet = _deck_findings(make_game, "reds.csv", "title,type,force,fronts,count\nAlpha,L,12,Q,20000\n"
                                                       "Bravo,U,3,,2\n")
    assert [code for code, _, _ in from_sheet] == ["out-of-range", "out-of-range", "unknown-code"]
    assert from_sheet == from_yaml


def test_a_header_typo_is_one_warning_with_a_hint_and_no_finding_per_card(make_game):
    findings = _deck_findings(make_game, "reds.csv", "title,type,Forse,fronts\nAlpha,L,2,A\nBravo,U,3,E\nCharlie,U,1,W\n")
    assert [(code, field) for code, field, _ in findings] == [("unknown-column", "")]
    assert "'Forse' (did you mean 'force'?)" in findings[0][2]


# --- item 4: one row per copy ------------------------------------------------------------------------------------

def test_identical_rows_of_a_title_are_copies_of_one_card(make_game, tmp_path):
    rows = "title,type,force,fronts\nAlpha,L,2,A\nBravo,U,3,E\nBravo,U,3,E\n"
    folder = make_game({"game.yaml": patched(GAME_YAML, {"file: reds.yaml": "file: reds.csv"}), "reds.csv": rows})
    game = load_game(folder)
    assert check_data(game) == []
    assert [(c.title, c.count, c.where.line) for c in game.decks["reds"].cards] == [("Alpha", 1, 2), ("Bravo", 2, 3)]
    sheet = tmp_path / "copies.csv"  # muster import groups them the same way
    sheet.write_text("title,type,force,count\nAlpha,L,2,\nBravo,U,3,1\nBravo,U,3,\n", encoding="utf-8")
    read = cards_from_sheet(read_sheet(sheet), game)
    assert (read.cards, read.rows) == ([{"title": "Alpha", "type": "L", "force": 2},
                                        {"title": "Bravo", "type": "U", "force": 3, "count": 2}], [2, 3])


def test_rows_of_a_title_that_differ_are_an_error_naming_both_rows(make_game):
    rows = "title,type,force,fronts\nAlpha,L,2,A\nBravo,U,3,E\nBravo,U,4,E\n"
    folder = make_game({"game.yaml": patched(GAME_YAML, {"file: reds.yaml": "file: reds.csv"}), "reds.csv": rows})
    (finding,) = check_data(load_game(folder))
    assert (finding.code, finding.where.line, finding.related.line) == ("duplicate-title", 4, 3)
    assert finding == Finding.of(catalogue.DUPLICATE_TITLE, finding.where, "cards[2].title", related=finding.related,
                                 title="Bravo", deck="reds", first="row 3")  # a sheet's card is placed by its row


# --- item 2: a deck kept in a spreadsheet exports, and imports through its own column mapping ---------------------

def test_a_sheet_deck_exports_and_imports_through_its_columns(make_game, tmp_path):
    rows = [["Alpha", 1, 7, "L", "helper", "T-101"], ["Bravo", 2, "=B3+3", "U", "helper", "T-102"]]
    folder = sheet_game(make_game, header=HEADER[:6], rows=rows)
    header, table = deck_table(load_game(folder), "reds")
    assert header == ["title", "count", "Kind", "Strength"]  # the deck's columns: names, helper columns left out
    assert table == [["Alpha", 1, "L", 7], ["Bravo", 2, "U", 5]]
    exported = tmp_path / "reds.csv"
    write_csv(header, table, exported)
    result = import_deck(folder / "cards.xlsx", folder, "reds", folder / "reds.yaml", sheet="Units")
    assert result.output is not None and "unknown-key" not in [f.code for f in result.findings]
    imported = import_deck(exported, folder, "reds", folder / "exported.yaml")
    assert imported.output is not None and "unknown-key" not in [f.code for f in imported.findings]
    assert yaml.safe_load((folder / "exported.yaml").read_text()) == yaml.safe_load((folder / "reds.yaml").read_text())
    assert "{title: Bravo, count: 2, force: 5, type: U}" in (folder / "reds.yaml").read_text()


# --- item 9: tabs are named; an unreadable deck file exits 2, as documented ----------------------------------------

def test_a_tab_in_yaml_is_named(make_game):
    folder = make_game({"reds.yaml": "cards:\n\t- {title: Alpha, type: L, force: 2}\n"})
    (finding,) = load_game(folder).findings
    assert (finding.code, finding.where.line, finding.where.column) == ("yaml-syntax", 2, 1)
    assert "a tab" in finding.message and "cannot start any token" not in finding.message


def test_an_unreadable_deck_file_exits_2_with_every_finding(make_game):
    folder = make_game({"reds.yaml": "cards:\n  - {title: Alpha, type: L, force: 2\n",
                        "game.yaml": GAME_YAML + "  - name: broken\n    max_copies: 1\n    when: {typ: [O]}\n"})
    for command in (("validate", "tiny"), ("build", "tiny", "--out", "out"), ("export", "pdf", "tiny")):
        run = muster(*command, cwd=folder.parent)
        assert run.code == 2, run
        assert "reds.yaml:3:1: error" in run.output and "rules[1].when.typ" in run.output, run  # both reported
    folder = sheet_game(make_game, header=HEADER[:4], rows=[["Alpha", 1, 7, "L"]],
                        deck=patched(SHEET_DECK, {"sheet: Units": "sheet: Unit"}))
    run = muster("validate", folder.name, cwd=folder.parent)
    assert run.code == 2 and "no worksheet 'Unit'" in run.output, run


# --- item 8: a data error does not hide the rulebook's ---------------------------------------------------------------

def test_a_rule_error_and_a_rulebook_error_are_reported_in_one_run(make_game):
    folder = make_game({"game.yaml": GAME_YAML + "  - name: broken\n    max_copies: 1\n    when: {typ: [O]}\n"
                                                 "rulebook: {file: rules.md}\n",
                        "rules.md": "# Rules\n\nPlay {{ game.title\n"})
    for command in (("validate", "tiny"), ("build", "tiny", "--out", "out")):
        run = muster(*command, cwd=folder.parent)
        assert run.code == 1, run
        assert "game.yaml:" in run.output and "rules[1].when.typ" in run.output, run
        assert "rules.md:3:" in run.output, run


# --- item 7: embed: applies to the text fields, never to a title ---------------------------------------------------

def test_embed_makes_icons_in_text_fields_and_leaves_titles_alone(make_game, tmp_path):
    face = FACE_YAML + ('  - {kind: paragraph, x: 4, y: 60, w: 55, h: 20, text: "{{ card.text }}", size: 9}\n'
                        '  - {kind: text, x: 4, y: 20, w: 55, h: 10, text: "Gold rush", size: 9}\n')
    folder = make_game({"game.yaml": patched(GAME_YAML, {"card: {size: poker}":
                                                             "card: {size: poker}\nembed: {Gold: star}"}),
                        "face.yaml": face,
                        "reds.yaml": "cards:\n  - {title: Gold Mine, type: L, force: 2, text: Gain 1 Gold.}\n"
                                     "  - {title: Bravo, type: U, force: 3, count: 2, text: Gold}\n"})
    build_game(load_game(folder), tmp_path / "out", Options())
    text = page_text(tmp_path / "out" / "tiny" / "cards-reds.pdf", 0)
    assert "Gold Mine" in text and "Gold rush" in text  # the title, and a layout's own words, as written
    assert "Gain 1 ★." in text and "Gain 1 Gold" not in text  # the text field's word, as its icon


def test_embed_in_the_rulebook_makes_icons_of_its_prose_and_leaves_titles_alone(make_game, tmp_path):
    """The rules' own words become icons; a card's title a template prints there never changes, nor a code span."""
    rules = ("# Cards\n\nSpend Gold to play a card; `Gold` is its keyword.\n\n"
             "{% for card in decks.reds.cards %}- {{ card.title }}\n{% endfor %}\n")
    folder = make_game({"game.yaml": GAME_YAML.replace("card: {size: poker}", "card: {size: poker}\nembed: {Gold: star}")
                        + "rulebook: {file: rules.md}\n", "rules.md": rules,
                        "reds.yaml": "cards:\n  - {title: Gold Mine, type: L, force: 2}\n"
                                     "  - {title: Bravo, type: U, force: 3, count: 2}\n"})
    build_game(load_game(folder), tmp_path / "out", Options(calibration=False))
    pdf = tmp_path / "out" / "tiny" / "rules.pdf"
    text = " ".join(page_text(pdf, page) for page in range(len(PdfReader(pdf).pages)))
    assert "Gold Mine" in text and "Spend ★ to play" in text and "Gold is its keyword" in text
    assert "Spend Gold" not in text and "★ Mine" not in text


# --- item 10: a warning accepted for one element; rotated text checked; lists of titles; token counts ---------------

SMALL = "  - {kind: text, x: 4, y: 60, w: 55, h: 10, text: 'fine print', size: 4%s}\n"


def _small_text(make_game, *elements: str) -> list:
    folder = make_game({"face.yaml": FACE_YAML + "".join(elements)})
    return [f for f in check_game(load_game(folder)) if f.code == "text-too-small"]


def test_accept_silences_a_warning_for_its_element_only(make_game):
    assert len(_small_text(make_game, SMALL % "")) == 2  # each card
    assert _small_text(make_game, SMALL % ", accept: [text-too-small]") == []
    other = patched(SMALL, {"y: 60": "y: 70", "fine print": "other print"}) % ""
    found = _small_text(make_game, SMALL % ", accept: [text-too-small]", other)
    assert {f.where.line for f in found} == {2, 3}  # each card
    assert all(f.related.line == 6 for f in found)  # at the element that did not accept it ("other print"), face.yaml


def test_accept_names_only_warnings_an_element_may_accept(make_game):
    folder = make_game({"face.yaml": FACE_YAML + SMALL % ", accept: [text-overflow]"})
    assert [(f.code, f.where.line) for f in check_game(load_game(folder)) if f.severity == "error"][:1] == [
        ("bad-value", 5)]


def test_rotated_text_is_checked_for_small_text(make_game):
    found = _small_text(make_game, SMALL % ", rotate: 90")
    assert len(found) == 2 and {f.related.line for f in found} == {5}  # the turned element, in face.yaml


def test_a_comma_separated_list_of_titles_is_a_card_reference(make_game):
    rules = "# Rules\n\n# Card reference\n\n- Alpha, Bravo\n"
    folder = make_game({"game.yaml": GAME_YAML + "rulebook: {file: rules.md}\n", "rules.md": rules})
    assert [f.code for f in check_game(load_game(folder))] == []
    (folder / "rules.md").write_text(patched(rules, {"Bravo": "Charlie"}))
    assert [f.code for f in check_game(load_game(folder))] == ["card-not-listed"]


def test_the_manifest_counts_the_pieces_of_a_tokens_file(bundled_kit):
    manifest = json.loads((bundled_kit("europe-1939") / "manifest.json").read_text())
    (tokens,) = [entry for entry in manifest["files"] if entry["file"] == "tokens.pdf"]
    assert tokens["cards"] == sum(tokens["decks"].values()) == manifest["decks"]["counters"]["cards"] == 13
