"""Issue 25: a deck's file is the designer's. Every deck of every bundled game and fixture exported as CSV and
as XLSX, imported again (a spreadsheet deck: the export read as its sheet), builds byte-identical PDFs; and a
property over generated decks keeps the values exact through both formats."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import GAME_YAML, REPO, patched
from generator.building.kit import build_game
from generator.core.bundle import fonts_dir
from generator.core.options import Options
from generator.formats.spreadsheets import deck_table, deck_yaml, import_deck, write_csv, write_xlsx
from generator.reading.loading import load_game
from generator.core.inputs import SHEET_SUFFIXES as SUFFIXES

GAMES = [REPO / "decks" / name for name in ("company-commander", "eastern-front", "europe-1939", "grid-battle",
                                             "modern-war", "tank-duel")]
GAMES += [REPO / "tests" / "fixtures" / name for name in ("workshop", "counter-sheet", "hexmap")]
WRITERS = {".csv": write_csv, ".xlsx": write_xlsx}


def _copy(game: Path, folder: Path) -> Path:
    """The game copied under `folder`, with the workshop's own font family (bundled fonts under its names)."""
    copy = folder / game.name
    shutil.copytree(game, copy)
    if game.name == "workshop":
        (copy / "fonts").mkdir()
        for face, suffix in {"Regular": "", "Bold": "-Bold", "Italic": "-Italic"}.items():
            shutil.copyfile(fonts_dir() / f"DejaVuSerifCondensed{suffix}.ttf", copy / "fonts" / f"Workshop-{face}.ttf")
    return copy


def _valid(folder: Path):
    game = load_game(folder)
    assert [f for f in game.findings if f.severity == "error"] == []
    return game


def _pdfs(folder: Path, out: Path) -> dict[str, bytes]:
    build_game(_valid(folder), out, Options())
    return _read_pdfs(out)


def _read_pdfs(out: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(out.rglob("*.pdf"))}


def _round_trip(folder: Path, suffix: str) -> None:
    """Every deck of the game at `folder` exported as `suffix` and read back: a YAML deck imported into its
    first file (its other files emptied), a spreadsheet deck's sheet replaced by the export."""
    game = load_game(folder)
    game_yaml = folder / "game.yaml"
    for deck in game.decks.values():
        header, rows = deck_table(game, deck.id)
        first = deck.files[0]
        if first.suffix.lower() in SUFFIXES:
            sheet = first.with_name(f"{first.stem}-exported{suffix}")
            game_yaml.write_text(patched(game_yaml.read_text(), {f"file: {first.name}": f"file: {sheet.name}"}))
        else:
            sheet = folder.parent / f"{deck.id}{suffix}"
        WRITERS[suffix](header, rows, sheet)
        if first.suffix.lower() not in SUFFIXES:
            assert import_deck(sheet, folder, deck.id, output=first).output == first
            for other in deck.files[1:]:
                other.write_text("cards: []\n", encoding="utf-8")


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_every_deck_exported_and_imported_builds_the_same_pdfs(tmp_path, bundled_kit, game):
    if game.parent.name == "decks":  # a bundled game's own build, the one other tests read
        _valid(game)
        before = _read_pdfs(bundled_kit(game.name))
    else:
        before = _pdfs(_copy(game, tmp_path / "before"), tmp_path / "out-before")
    assert before
    for suffix in SUFFIXES[::2]:  # .csv and .xlsx
        folder = _copy(game, tmp_path / suffix[1:])
        _round_trip(folder, suffix)
        after = _pdfs(folder, tmp_path / f"out{suffix}")
        assert after.keys() == before.keys()
        assert [name for name in before if after[name] != before[name]] == [], suffix


_TEXT = st.text(st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Zs")), max_size=30)
_CARD = st.fixed_dictionaries(
    {"title": _TEXT.filter(lambda title: title.strip() and title == title.strip())},
    optional={"count": st.integers(0, 30), "type": st.sampled_from(["L", "U"]), "force": st.integers(0, 9),
              "fronts": st.sampled_from(["E", "W", "A", "EW", "W E", "E, W", []]),
              "year": st.sampled_from([1939, 1944, "1944+"]), "text": _TEXT.filter(str.strip)})  # a cell of spaces alone reads as blank


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cards=st.lists(_CARD, min_size=1, max_size=6, unique_by=lambda card: card["title"].casefold()),
       suffix=st.sampled_from([".csv", ".xlsx"]))
def test_generated_decks_keep_their_values_through_a_sheet(make_game, tmp_path_factory, cards, suffix):
    folder = make_game({"game.yaml": patched(GAME_YAML, {"    size: 3\n": ""}), "reds.yaml": deck_yaml(cards)[0]},
                       name=tmp_path_factory.mktemp("deck").name)
    header, rows = deck_table(load_game(folder), "reds")
    sheet = folder / f"reds{suffix}"
    WRITERS[suffix](header, rows, sheet)
    result = import_deck(sheet, folder, "reds", output=folder / "imported.yaml")
    assert result.output is not None, result.findings
    assert yaml.safe_load((folder / "imported.yaml").read_text()) == {"cards": cards}
