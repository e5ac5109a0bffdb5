"""The validator: built-in checks and the game's own rules, all findings of a run together."""

from __future__ import annotations

from generator.core import codes as catalogue
from generator.core.errors import Finding
from generator.reading.loading import load_game
from generator.checking.data import check_data

RULES = """\
rules:
  - name: typed
    require: [type, force]
  - name: leaders-have-no-year
    forbid: [year]
    when: {type: L}
  - name: single-leader
    max_copies: 1
    when: {type: [L]}
  - name: force-total
    total: {trait: force, equals: 8}
  - name: two-units
    count: {min: "{{ constants.units }}"}
    when: {type: [U]}
"""


def game_with(make_game, cards: str, rules: str = RULES):
    text = make_game()  # writes defaults, then we replace parts
    game_yaml = (text / "game.yaml").read_text().split("rules:")[0] + "constants: {units: 2}\n" + rules
    return make_game({"game.yaml": game_yaml, "reds.yaml": cards})


def findings(folder) -> list[str]:
    return [f.message for f in check_data(load_game(folder))]


def codes(folder) -> list[tuple[str, str]]:
    return [(f.code, f.field) for f in check_data(load_game(folder))]


def test_all_rules_pass_on_consistent_data(make_game):
    folder = game_with(make_game, "cards:\n  - {title: A, type: L, force: 2}\n  - {title: B, type: U, force: 3, count: 2}\n")
    assert findings(folder) == []


def test_declared_size_against_sum_of_counts(make_game):
    folder = game_with(make_game, "cards:\n  - {title: A, type: L, force: 2}\n  - {title: B, type: U, force: 3, count: 3}\n")
    size = next(f for f in check_data(load_game(folder)) if f.code == "deck-size")
    assert size == Finding.of(catalogue.DECK_SIZE, size.where, "decks.reds.size", deck="reds", size=3, total=4)
    assert size.where.path.name == "game.yaml" and size.where.line > 0


def test_each_rule_kind_reports_by_name(make_game):
    folder = game_with(make_game, (
        "cards:\n"
        "  - {title: A, type: L, force: 2, year: 1941, count: 2}\n"
        "  - {title: B, type: L}\n"
    ))
    found = findings(folder)
    assert "[typed] 'B' in deck 'reds' lacks force" in found
    assert "[leaders-have-no-year] 'A' in deck 'reds' must not have year" in found
    assert "[single-leader] 'A' has 2 copies in deck 'reds'; at most 1 allowed" in found
    assert "[force-total] the total force of deck(s) reds is 4, expected 8" in found
    assert "[two-units] the number of matching cards in deck(s) reds is 0, expected at least 2" in found
    assert codes(folder) == [("rule-require", "cards[1]"), ("rule-forbid", "cards[0].year"),
                             ("rule-max-copies", "cards[0]"), ("rule-total", "rules"), ("rule-count", "rules")]


def test_each_bound_broken_is_one_finding(make_game):
    rules = "rules:\n  - {name: band, total: {trait: force, equals: 5, min: 9, max: 7}}\n"
    folder = game_with(make_game, REDS_OK, rules=rules)
    assert findings(folder) == ["[band] the total force of deck(s) reds is 8, expected 5",
                                "[band] the total force of deck(s) reds is 8, expected at least 9",
                                "[band] the total force of deck(s) reds is 8, expected at most 7"]
    assert codes(folder) == [("rule-total", "rules")] * 3


def test_duplicate_titles_in_a_deck(make_game):
    folder = game_with(make_game, "cards:\n  - {title: A, type: L, force: 2}\n  - {title: a, type: U, force: 3, count: 2}\n", rules="")
    [twice] = check_data(load_game(folder))
    first = twice.related
    assert (first.path.name, first.line, twice.where.line) == ("reds.yaml", 2, 3)
    assert twice == Finding.of(catalogue.DUPLICATE_TITLE, twice.where, "cards[1].title", related=first, title="a",
                               deck="reds", first="line 2")


def test_unknown_rule_kind_and_trait_are_reported(make_game):
    folder = game_with(make_game, REDS_OK, rules="rules:\n  - {require: [strength]}\n  - {demand: [force]}\n")
    assert codes(folder) == [("unknown-trait", "rules[0].require"), ("unknown-key", "rules[1].demand"),
                             ("missing-key", "rules[1]")]  # demand: is no rule kind, and the rule has none


REDS_OK = "cards:\n  - {title: A, type: L, force: 2}\n  - {title: B, type: U, force: 3, count: 2}\n"


def test_bundled_europe_validates_clean():
    game = load_game("europe-1939")
    assert check_data(game) == []
    assert game.decks["germans"].total == 56 and game.decks["allies"].total == 60
    speer = next(c for c in game.decks["germans"].cards if c.title == "Speer")
    assert speer.traits["fronts"] == () and "Production Phase" in speer.traits["text"]
