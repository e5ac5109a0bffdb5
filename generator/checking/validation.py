"""The game's own rules, declared as data, checked against its cards: deck sizes, uniqueness, the rules list."""

from __future__ import annotations

from collections import Counter

from ..core.errors import Finding
from ..reading.rules import matches
from ..core.model import Card, Deck, Game, Rule


def check_data(game: Game) -> list[Finding]:
    """Every finding about the game's data: the loader's, the built-in checks and the game's rules."""
    findings = list(game.findings)
    for deck in game.decks.values():
        findings.extend(_deck_findings(deck))
    for rule in game.rules:
        decks = [game.decks[d] for d in rule.decks]
        findings.extend(_RULES[rule.kind](rule, decks))
    return findings


def _deck_findings(deck: Deck) -> list[Finding]:
    findings = []
    if deck.size is not None and deck.total != deck.size:
        findings.append(Finding(
            "error", deck.size_where or deck.where, f"decks.{deck.id}.size",
            f"deck '{deck.id}' declares {deck.size} cards, its cards add up to {deck.total}",
        ))
    seen: dict[str, Card] = {}
    for card in deck.cards:
        key = card.title.casefold()
        if key in seen:
            findings.append(Finding(
                "error", card.located("title"), f"cards[{card.index}].title",
                f"title '{card.title}' appears twice in deck '{deck.id}' (first at line {seen[key].where.line})",
                "duplicate-title", seen[key].where,
            ))
        else:
            seen[key] = card
    return findings


def _selected(rule: Rule, decks: list[Deck]):
    for deck in decks:
        for card in deck.cards:
            if matches(card, rule.when):
                yield deck, card


def _say(rule: Rule, detail: str) -> str:
    """The finding's text: the rule's name, its own message if it has one, and what was found."""
    return f"[{rule.name}] {rule.message} ({detail})" if rule.message else f"[{rule.name}] {detail}"


def _require(rule: Rule, decks: list[Deck]) -> list[Finding]:
    findings = []
    for deck, card in _selected(rule, decks):
        missing = [t for t in rule.params["traits"] if not card.has(t)]
        if missing:
            findings.append(Finding("error", card.where, f"cards[{card.index}]", _say(
                rule, f"'{card.title}' in deck '{deck.id}' lacks {', '.join(missing)}")))
    return findings


def _forbid(rule: Rule, decks: list[Deck]) -> list[Finding]:
    findings = []
    for deck, card in _selected(rule, decks):
        present = [t for t in rule.params["traits"] if card.has(t)]
        if present:
            findings.append(Finding("error", card.located(present[0]), f"cards[{card.index}].{present[0]}", _say(
                rule, f"'{card.title}' in deck '{deck.id}' must not have {', '.join(present)}")))
    return findings


def _max_copies(rule: Rule, decks: list[Deck]) -> list[Finding]:
    findings = []
    for deck in decks:
        copies = Counter()
        first = {}
        for _, card in _selected(rule, [deck]):
            copies[card.title] += card.count
            first.setdefault(card.title, card)
        for title, number in copies.items():
            if number > rule.params["max"]:
                card = first[title]
                findings.append(Finding("error", card.where, f"cards[{card.index}]", _say(
                    rule, f"'{title}' has {number} copies in deck '{deck.id}'; at most {rule.params['max']} allowed")))
    return findings


def _bounds(rule: Rule, actual, what: str, where, field: str) -> list[Finding]:
    params = rule.params
    problems = []
    if "equals" in params and actual != params["equals"]:
        problems.append(f"{what} is {actual}, expected {params['equals']}")
    if "min" in params and actual < params["min"]:
        problems.append(f"{what} is {actual}, expected at least {params['min']}")
    if "max" in params and actual > params["max"]:
        problems.append(f"{what} is {actual}, expected at most {params['max']}")
    return [Finding("error", where, field, _say(rule, problem)) for problem in problems]


def _total(rule: Rule, decks: list[Deck]) -> list[Finding]:
    trait = rule.params["trait"]
    actual = sum(card.value(trait) * card.count for _, card in _selected(rule, decks)
                 if isinstance(card.value(trait), (int, float)))
    scope = ", ".join(d.id for d in decks)
    return _bounds(rule, actual, f"the total {trait} of deck(s) {scope}", rule.where, "rules")


def _count(rule: Rule, decks: list[Deck]) -> list[Finding]:
    actual = sum(card.count for _, card in _selected(rule, decks))
    scope = ", ".join(d.id for d in decks)
    return _bounds(rule, actual, f"the number of matching cards in deck(s) {scope}", rule.where, "rules")


_RULES = {"require": _require, "forbid": _forbid, "max_copies": _max_copies, "total": _total, "count": _count}
