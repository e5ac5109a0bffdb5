"""The game's data checked against itself and its own rules: deck sizes, titles, the rules list."""

from __future__ import annotations

import operator
from collections import Counter
from pathlib import Path
from typing import Iterator

from ..core import codes
from ..core.errors import Finding, Location
from ..core.inputs import SHEET_SUFFIXES
from ..core.model import Card, Deck, Game, Rule
from ..reading.rules import matches

Problem = tuple[Location, str, dict]  # where, field, the values of the rule's code: a finding before the rule frames it


def check_data(game: Game) -> list[Finding]:
    """Every finding about the game's data: the loader's, the built-in checks and the game's rules."""
    findings = list(game.findings)
    for deck in game.decks.values():
        findings.extend(_deck_findings(deck))
    for rule in game.rules:
        findings.extend(rule_findings(rule, [game.decks[d] for d in rule.decks]))
    return findings


def rule_findings(rule: Rule, decks: list[Deck]) -> Iterator[Finding]:
    """The findings of one rule over the decks it applies to."""
    check, code = _RULES[rule.kind]
    for where, field, values in check(rule, decks):
        yield Finding("error", where, field, _say(rule, code.message(**values)), code.name)


def _deck_findings(deck: Deck) -> list[Finding]:
    findings = []
    if deck.size is not None and deck.complete and deck.total != deck.size:
        findings.append(Finding.of(codes.DECK_SIZE, deck.size_where or deck.where, f"decks.{deck.id}.size",
                                   deck=deck.id, size=deck.size, total=deck.total))
    seen: dict[str, Card] = {}
    for card in deck.cards:
        key = card.title.casefold()
        if not key:  # a piece without a title (a token) is told apart by its id
            continue
        if key in seen:
            findings.append(Finding.of(codes.DUPLICATE_TITLE, card.located("title"), f"cards[{card.index}].title",
                                       related=seen[key].where, title=card.title, deck=deck.id,
                                       first=_place(seen[key].where)))
        else:
            seen[key] = card
    return findings


def _place(where: Location) -> str:
    """A card's place as its file numbers it: a row of a spreadsheet, a line of YAML."""
    sheet = Path(where.path).suffix.lower() in SHEET_SUFFIXES
    return f"row {where.line}" if sheet else f"line {where.line}"


def _selected(rule: Rule, decks: list[Deck]):
    for deck in decks:
        for card in deck.cards:
            if matches(card, rule.when):
                yield deck, card


def _say(rule: Rule, detail: str) -> str:
    """The finding's text: the rule's name, its own message if it has one, and what was found."""
    return f"[{rule.name}] {rule.message} ({detail})" if rule.message else f"[{rule.name}] {detail}"


def _require(rule: Rule, decks: list[Deck]) -> Iterator[Problem]:
    for deck, card in _selected(rule, decks):
        missing = [t for t in rule.params["traits"] if not card.has(t)]
        if missing:
            yield (card.where, f"cards[{card.index}]",
                   {"card": card.label, "deck": deck.id, "traits": ", ".join(missing)})


def _forbid(rule: Rule, decks: list[Deck]) -> Iterator[Problem]:
    for deck, card in _selected(rule, decks):
        present = [t for t in rule.params["traits"] if card.has(t)]
        if present:
            yield (card.located(present[0]), f"cards[{card.index}].{present[0]}",
                   {"card": card.label, "deck": deck.id, "traits": ", ".join(present)})


def _max_copies(rule: Rule, decks: list[Deck]) -> Iterator[Problem]:
    for deck in decks:
        copies = Counter()
        first = {}
        for _, card in _selected(rule, [deck]):
            copies[card.label] += card.count
            first.setdefault(card.label, card)
        for label, number in copies.items():
            if number > rule.params["max"]:
                card = first[label]
                yield (card.where, f"cards[{card.index}]",
                       {"card": label, "copies": number, "deck": deck.id, "most": rule.params["max"]})


def _total(rule: Rule, decks: list[Deck]) -> Iterator[Problem]:
    trait = rule.params["trait"]
    actual = sum(card.value(trait) * card.count for _, card in _selected(rule, decks)
                 if isinstance(card.value(trait), (int, float)))
    return _bounds(rule, actual, f"the total {trait} of", decks)


def _count(rule: Rule, decks: list[Deck]) -> Iterator[Problem]:
    actual = sum(card.count for _, card in _selected(rule, decks))
    return _bounds(rule, actual, "the number of matching cards in", decks)


_BOUNDS = (("equals", operator.ne, ""), ("min", operator.lt, "at least "), ("max", operator.gt, "at most "))


def _bounds(rule: Rule, actual, what: str, decks: list[Deck]) -> Iterator[Problem]:
    """One problem for each of the rule's bounds (equals, min, max) that `actual` breaks."""
    for key, breaks, which in _BOUNDS:
        if key in rule.params and breaks(actual, rule.params[key]):
            yield rule.where, "rules", {"what": what, "decks": ", ".join(d.id for d in decks), "actual": actual,
                                        "bound": f"{which}{rule.params[key]}"}


# Each rule kind: its check, and the code of every finding it makes.
_RULES = {
    "require": (_require, codes.RULE_REQUIRE),
    "forbid": (_forbid, codes.RULE_FORBID),
    "max_copies": (_max_copies, codes.RULE_MAX_COPIES),
    "total": (_total, codes.RULE_TOTAL),
    "count": (_count, codes.RULE_COUNT),
}
