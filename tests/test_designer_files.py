"""Issue 25, items 1-10: a designer's real files (spreadsheets kept as decks, their formulas, styled columns and
one row per copy), findings that are right (a rule's typo never widens it, every stage reported, tabs named,
exit codes as documented), `embed:` that leaves titles alone, and warnings accepted for one element."""

from __future__ import annotations

from generator.checking.data import check_data
from generator.reading.loading import load_game
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
