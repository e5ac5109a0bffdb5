"""Sets of cards (sets: in game.yaml): a base set and expansions, a deck's and a card's set, and --sets choosing
which are read, built, exported and shown in the rulebook."""

from __future__ import annotations

import csv

import pytest

from conftest import GAME_YAML, patched
from pdfcheck import page_text
from test_cli import muster

SETS = """\
sets:
  base: {name: Base game}
  pack-1: {name: Pack One, designed: true, default: false}
"""

REDS = """\
cards:
  - {title: Alpha, type: L, force: 2, fronts: A}
  - {title: Bravo, type: U, force: 3, fronts: E, count: 2}
  - {title: Zulu Guards, type: U, force: 4, fronts: W, set: pack-1}
"""


@pytest.fixture
def sets_game(make_game):
    return make_game({"game.yaml": patched(GAME_YAML, {"decks:\n": SETS + "decks:\n"}), "reds.yaml": REDS})


def test_default_sets_leave_out_an_expansion_and_keep_the_declared_size(sets_game):
    from generator.checking import check_game
    from generator.reading.loading import load_game

    game = load_game(sets_game)
    assert game.chosen_sets == ("base",)
    assert [card.title for card in game.decks["reds"].cards] == ["Alpha", "Bravo"]
    assert [card.set for card in game.decks["reds"].cards] == ["base", "base"]
    assert game.decks["reds"].size == 3
    assert [f.code for f in check_game(game) if f.severity == "error"] == []


def test_chosen_sets_hold_their_cards_and_drop_the_size_of_the_default_sets(sets_game):
    from generator.checking import check_game
    from generator.reading.loading import load_game

    game = load_game(sets_game, sets=("pack-1", "base"))
    assert game.chosen_sets == ("base", "pack-1")  # in the game's order
    assert [(card.title, card.set) for card in game.decks["reds"].cards][-1] == ("Zulu Guards", "pack-1")
    assert game.decks["reds"].size is None
    assert [f.code for f in check_game(game) if f.severity == "error"] == []
    only_pack = load_game(sets_game, sets=("pack-1",))
    assert [card.title for card in only_pack.decks["reds"].cards] == ["Zulu Guards"]


def test_a_card_of_an_unknown_set_is_located(sets_game):
    from generator.reading.loading import load_game

    (sets_game / "reds.yaml").write_text(patched(REDS, {"set: pack-1": "set: pack-2"}))
    finding, = [f for f in load_game(sets_game).findings if f.code == "unknown-set"]
    assert (finding.where.path.name, finding.where.line, finding.field) == ("reds.yaml", 4, "cards[2].set")


def test_a_deck_of_an_unknown_set_and_a_set_in_a_game_without_sets(make_game, sets_game):
    from generator.reading.loading import load_game

    game_yaml = sets_game / "game.yaml"
    game_yaml.write_text(patched(game_yaml.read_text(), {"    file: reds.yaml\n": "    file: reds.yaml\n    set: bse\n"}))
    finding, = [f for f in load_game(sets_game).findings if f.code == "unknown-set"]
    assert (finding.where.path.name, finding.field) == ("game.yaml", "decks.reds.set")
    plain = make_game({"reds.yaml": REDS}, name="plain")
    finding, = [f for f in load_game(plain).findings if f.code == "unknown-set"]
    assert finding.field == "cards[2].set"


def test_a_set_column_of_a_sheet(sets_game):
    from generator.reading.loading import load_game

    (sets_game / "reds.csv").write_text("title,type,force,set\nAlpha,L,2,base\nBravo,U,3,\nZulu Guards,U,4,pack-1\n")
    game_yaml = sets_game / "game.yaml"
    game_yaml.write_text(patched(game_yaml.read_text(), {"file: reds.yaml": "file: reds.csv", "size: 3": ""}))
    game = load_game(sets_game, sets=("base", "pack-1"))
    assert [(card.title, card.set) for card in game.decks["reds"].cards] == [
        ("Alpha", "base"), ("Bravo", "base"), ("Zulu Guards", "pack-1")]


def test_rules_may_select_by_set(sets_game):
    from generator.checking import check_game
    from generator.reading.loading import load_game

    game_yaml = sets_game / "game.yaml"
    game_yaml.write_text(game_yaml.read_text() + "  - name: no-pack\n    count: {equals: 0}\n    when: {set: [pack-1]}\n")
    assert [f.code for f in check_game(load_game(sets_game)) if f.severity == "error"] == []
    breach, = [f for f in check_game(load_game(sets_game, sets=("base", "pack-1"))) if f.severity == "error"]
    assert breach.where.path.name == "game.yaml"


def test_the_rulebook_says_each_cards_set(sets_game):
    from generator.layout.rulebook import render_text
    from generator.reading.loading import load_game

    (sets_game / "rules.md").write_text("# Cards\n\n{% for card in decks.reds.cards %}- {{ card.title }}: "
                                        "{{ sets[card.set].name }}\n{% endfor %}")
    game_yaml = sets_game / "game.yaml"
    game_yaml.write_text(game_yaml.read_text() + "rulebook: {file: rules.md}\n")
    text = render_text(load_game(sets_game, sets=("base", "pack-1"))).markdown
    assert "- Bravo: Base game" in text and "- Zulu Guards: Pack One" in text


def test_build_prints_only_the_chosen_sets(sets_game, tmp_path):
    out = tmp_path / "out"
    assert muster("build", str(sets_game), "-o", str(out), "--no-calibration", "-q").returncode == 0
    assert "Zulu Guards" not in page_text(out / "tiny" / "cards-reds.pdf", 0)
    result = muster("build", str(sets_game), "-o", str(out), "--no-calibration", "-q", "--sets", "base,pack-1")
    assert result.returncode == 0, result.stderr
    assert "Zulu Guards" in page_text(out / "tiny" / "cards-reds.pdf", 0)


def test_exports_take_the_chosen_sets(sets_game, tmp_path):
    result = muster("export", "png", str(sets_game), "-o", str(tmp_path), "--dpi", "72", "--sets", "pack-1")
    assert result.returncode == 0, result.stderr
    with open(tmp_path / "tiny" / "png" / "reds" / "cards.csv", newline="") as rows:
        assert [row["title"] for row in csv.DictReader(rows)] == ["Zulu Guards"]


def test_an_unknown_set_on_the_command_line_is_one_line_and_exit_2(sets_game, tmp_path):
    out = str(tmp_path / "out")
    for command in (["build", str(sets_game), "-o", out], ["validate", str(sets_game)],
                    ["export", "tts", str(sets_game), "-o", out], ["export", "vassal", str(sets_game), "-o", out]):
        result = muster(*command, "--sets", "base,pack-2")
        assert result.returncode == 2, (command, result.stderr)
        assert "pack-2" in result.stderr and "pack-1" in result.stderr and "Traceback" not in result.stderr
        assert result.stderr.count("error: --sets: ") == 1, result.stderr  # validate adds its summary line
