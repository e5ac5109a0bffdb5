"""Spreadsheets in and out: round trips of bundled decks through CSV and XLSX, cells typed by their traits, and
problems reported at the sheet's row and column."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import typer
import yaml
from typer.testing import CliRunner

from conftest import GAME_YAML, REPO, patched
from generator.cli.authoring import import_cards
from generator.cli.export import export_csv, export_xlsx
from generator.core import codes as catalogue
from generator.core.errors import Finding, MusterError
from generator.reading.loading import load_game
from generator.formats.spreadsheets import deck_table, deck_yaml, import_deck, write_csv, write_xlsx
from generator.reading.worksheets import cards_from_sheet, read_sheet


def cli() -> typer.Typer:
    """The commands as the lead registers them in cli.py."""
    app = typer.Typer()
    app.command("import")(import_cards)
    export = typer.Typer()
    export.command("csv")(export_csv)
    export.command("xlsx")(export_xlsx)
    app.add_typer(export, name="export")
    return app


def cards_of(deck) -> list[tuple]:
    return [(c.title, c.id, c.count, c.designed, c.note, dict(c.traits), c.invalid) for c in deck.cards]


def copy_game(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    shutil.copytree(REPO / "decks" / name, folder)
    return folder


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_europe_germans_round_trip(tmp_path, suffix):
    game = copy_game(tmp_path, "europe-1939")
    original = load_game(game)
    header, rows = deck_table(original, "germans")
    assert header[:6] == ["title", "title:de", "type", "force", "fronts", "year"]  # a translation beside its source
    sheet = tmp_path / f"germans{suffix}"
    (write_csv if suffix == ".csv" else write_xlsx)(header, rows, sheet)
    result = import_deck(sheet, game, "germans")
    assert result.output == game / "germans.yaml"
    assert [f for f in result.findings if f.severity == "error"] == []
    assert (result.cards, result.copies) == (56, 56)
    assert cards_of(load_game(game).decks["germans"]) == cards_of(original.decks["germans"])
    text = (game / "germans.yaml").read_text()
    assert ("  - {title: Jet Fighters, 'title:de': Düsenjäger, type: U, force: 2, fronts: A, year: 1944+}\n"
            in text)  # codes as written, the German title beside its source (a key with a colon quoted in a flow)
    assert "    fronts: []\n" in text  # Speer: present, but no fronts


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_tank_duel_british_round_trip_with_counts(tmp_path, suffix):
    game = copy_game(tmp_path, "tank-duel")
    original = load_game(game)
    header, rows = deck_table(original, "british")
    assert header[:2] == ["title", "count"] and "designed" in header
    sheet = tmp_path / f"british{suffix}"
    (write_csv if suffix == ".csv" else write_xlsx)(header, rows, sheet)
    with pytest.raises(MusterError, match="read from 2 files"):  # which of the two files to write?
        import_deck(sheet, game, "british")
    result = import_deck(sheet, game, "british", output=game / "all-british.yaml")
    assert "not from" in result.note  # the game does not read that file (yet)
    game_yaml = game / "game.yaml"
    game_yaml.write_text(patched(game_yaml.read_text(), {"files: [british.yaml, british-designed.yaml]":
                                                             "file: all-british.yaml"}))
    reloaded = load_game(game)
    assert cards_of(reloaded.decks["british"]) == cards_of(original.decks["british"])
    assert reloaded.decks["british"].total == 50
    assert "range: PB" in (game / "all-british.yaml").read_text()  # a token of `also:` stays text


def test_errors_name_row_and_column_and_nothing_is_written(tmp_path, make_game):
    game = make_game()
    before = (game / "reds.yaml").read_text()
    sheet = tmp_path / "cards.csv"
    sheet.write_text("title,type,force,fronts,year\n"
                     "Alpha,L,2,A,\n"
                     "\n"                                   # blank rows are skipped, but still counted
                     "Bravo,U,3,E,1944+\n"
                     "Charlie,U,4,EW,\n"
                     "Delta,X,5,EQ,1950\n"
                     "Echo,U,two,W,\n"
                     ",U,1,E,\n", encoding="utf-8")
    result = import_deck(sheet, game, "reds")
    assert result.output is None
    assert [(f.where, f.field, f.code, f.message) for f in result.findings] == [
        ((sheet, 6, 2), "type", "unknown-code",
         catalogue.UNKNOWN_CODE.message(trait="type", got="'X'", expected="one of L, U")),
        ((sheet, 6, 4), "fronts", "unknown-code",
         catalogue.UNKNOWN_CODE.message(trait="fronts", got="'Q'", expected="codes of E, W, A")),
        ((sheet, 6, 5), "year", "out-of-range", "1950 is outside 1939..1945"),
        ((sheet, 7, 3), "force", "wrong-type", catalogue.WRONG_TYPE.message(expected="an integer", got="'two'")),
        ((sheet, 8, 1), "title", "missing-key", "every card needs a title"),
    ]
    assert {f.severity for f in result.findings} == {"error"}
    assert [f.code for f in result.findings] == ["unknown-code", "unknown-code", "out-of-range", "wrong-type", "missing-key"]
    assert (game / "reds.yaml").read_text() == before


def test_header_problems(tmp_path, make_game):
    game = make_game()
    load = load_game(game)
    sheet = tmp_path / "cards.csv"
    sheet.write_text("Title,forse,Force,force,\nAlpha,1,2,3,stray\n", encoding="utf-8")
    messages = [(f.where.line, f.where.column, f.message) for f in cards_from_sheet(read_sheet(sheet), load).findings]
    assert (1, 2, "unknown column 'forse' (did you mean 'force'?)") in messages
    assert (1, 4, "duplicate column 'force' (first at column 3)") in messages
    assert (1, 5, "a column with values has no name in the header row") in messages
    codes = [f.code for f in cards_from_sheet(read_sheet(sheet), load).findings]
    assert codes == ["unknown-key", "duplicate-key", "unnamed-column"]
    sheet.write_text("label,force\nAlpha,1\n", encoding="utf-8")
    findings = cards_from_sheet(read_sheet(sheet), load).findings
    assert ("missing-key", "title", 1, 1) in [(f.code, f.field, f.where.line, f.where.column) for f in findings]


def test_cells_are_typed_by_trait(tmp_path, make_game):
    game = make_game({"game.yaml": patched(GAME_YAML, {"  text:   {kind: text}": "  text:   {kind: text}\n"
                                                     "  elite:  {kind: boolean}\n  weight: {kind: number}"})})
    sheet = tmp_path / "cards.csv"
    # semicolons, as a spreadsheet in a comma-decimal locale writes them; a label as a header
    sheet.write_text("title;force;fronts;year;elite;weight;text;count\n"
                     "Alpha;2;A;1944;yes;2.5;007;1\n"
                     "Bravo;3;E, W;1944+;FALSE;3;yes;2\n", encoding="utf-8")
    read = cards_from_sheet(read_sheet(sheet), load_game(game))
    assert read.findings == []
    assert read.cards == [
        {"title": "Alpha", "force": 2, "fronts": "A", "year": 1944, "elite": True, "weight": 2.5, "text": "007", "count": 1},
        {"title": "Bravo", "force": 3, "fronts": "E, W", "year": "1944+", "elite": False, "weight": 3, "text": "yes", "count": 2},
    ]
    text, starts = deck_yaml(read.cards)
    assert yaml.safe_load(text) == {"cards": read.cards}  # "007" and "yes" stay text
    assert starts == [2, 3]


def test_deck_yaml_quotes_what_yaml_would_misread():
    tricky = [{"title": t, "text": t} for t in ("yes", "a: b", "#hash", "{brace}", "- dash", "1944+", "3", "null",
                                                  "x, y", "'quoted'", "multi\nline\ntext", "ümlaut ★", " padded ")]
    tricky.append({"title": "Long", "text": "word " * 40})
    text, starts = deck_yaml(tricky, "a comment")
    assert text.startswith("# a comment\ncards:\n")
    assert yaml.safe_load(text) == {"cards": tricky}
    assert len(starts) == len(tricky)
    assert all(text.splitlines()[line - 1].startswith("  - ") for line in starts)


def test_validation_findings_point_at_the_sheet(tmp_path, make_game):
    game = make_game()
    sheet = tmp_path / "cards.csv"
    sheet.write_text("title,type,force,fronts\nAlpha,L,2,A\nBravo,U,,E\nAlpha,U,1,W\n", encoding="utf-8")
    result = import_deck(sheet, game, "reds")
    assert result.output == game / "reds.yaml"
    lines = [str(f) for f in result.findings]
    assert [(f.where, f.code) for f in result.findings if f.code == "rule-require"] == [((sheet, 3, 1), "rule-require")]
    twice = next(f for f in result.findings if f.code == "duplicate-title")
    assert twice.related == (sheet, 2, 1)  # placed from the finding's locations, not from its text
    assert twice == Finding.of(catalogue.DUPLICATE_TITLE, (sheet, 4, 1), "title", related=twice.related, title="Alpha",
                               deck="reds", first="row 2")
    assert not any("reds.yaml" in line for line in lines)


def test_commands(tmp_path, make_game, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    app = cli()
    game = make_game()
    exported = runner.invoke(app, ["export", "csv", str(game), "--deck", "reds"])
    assert exported.exit_code == 0, exported.output
    assert (tmp_path / "reds.csv").read_text(encoding="utf-8") == "title,count,type,force,fronts\nAlpha,,L,2,A\nBravo,2,U,3,E\n"
    to_stdout = runner.invoke(app, ["export", "csv", str(game), "--deck", "reds", "--output", "-"])
    assert to_stdout.stdout.startswith("title,count,type,force,fronts\n")
    assert runner.invoke(app, ["export", "xlsx", str(game), "--deck", "reds", "-o", "r.xlsx"]).exit_code == 0

    clean = runner.invoke(app, ["import", "r.xlsx", "--game", str(game), "--deck", "reds"])
    assert clean.exit_code == 0, clean.output
    assert "2 card(s) (3 with copies) from r.xlsx; 0 error(s), 0 warning(s)" in clean.stderr

    (tmp_path / "bad.csv").write_text("title,force\nAlpha,two\n", encoding="utf-8")
    bad = runner.invoke(app, ["import", "bad.csv", "--game", str(game), "--deck", "reds"])
    assert bad.exit_code == 1
    assert bad.stdout == "bad.csv:2:2: error: force: expected an integer, got 'two'\n"

    for args, message in ((["import", "missing.csv"], "missing.csv: error: no such file"),
                          (["import", "bad.csv", "--deck", "red"], "no deck 'red' in tiny (did you mean 'reds'?)"),
                          (["import", "cards.ods"], "expected a .csv, .tsv or .xlsx file")):
        (tmp_path / "cards.ods").write_text("x")
        base = args[:2] + ["--game", str(game)] + (args[2:] or ["--deck", "reds"])
        outcome = runner.invoke(app, base)
        assert outcome.exit_code == 2, (args, outcome.output)
        assert len(outcome.stderr.splitlines()) == 1 and message in outcome.stderr, outcome.stderr


def test_unreadable_sheets(tmp_path):
    (tmp_path / "latin1.csv").write_bytes("title\nD\xf6nitz\n".encode("latin-1"))
    (tmp_path / "fake.xlsx").write_text("not a zip")
    (tmp_path / "empty.csv").write_text("\n\n")
    write_xlsx(["title"], [["A"]], tmp_path / "one.xlsx", "germans")
    for name, sheet, code in (("latin1.csv", None, "bad-encoding"), ("fake.xlsx", None, "unreadable"),
                              ("empty.csv", None, "empty-sheet"), ("one.xlsx", "allies", "unknown-sheet")):
        with pytest.raises(MusterError) as refused:
            read_sheet(tmp_path / name, sheet)
        assert (refused.value.code, refused.value.where.path) == (code, tmp_path / name)
    assert read_sheet(tmp_path / "one.xlsx", "germans").rows == [(2, ["A"])]


def test_xlsx_text_is_never_a_formula(tmp_path):
    write_xlsx(["title", "text"], [["=1+1", "=SUM(A1)"]], tmp_path / "f.xlsx")
    assert read_sheet(tmp_path / "f.xlsx").rows == [(2, ["=1+1", "=SUM(A1)"])]
