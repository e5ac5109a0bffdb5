"""A player's deck list checked against a construction format of its game (formats: in game.yaml): the sets and
decks the format draws on, and its rules, each breach placed at the list's line, or at the list when it is about
the deck as a whole (a size, a total)."""

from __future__ import annotations

from dataclasses import replace

from ..core import codes
from ..core.errors import Finding, Location, MusterError, did_you_mean
from ..core.model import Game, PlayFormat
from ..reading.decklists import DeckList, listed_game
from .data import rule_findings


def chosen_format(game: Game, name: str | None) -> PlayFormat | None:
    """The format named, else the game's first; None when the game declares none. A name the game does not
    declare is a MusterError."""
    if name is None:
        return next(iter(game.formats.values()), None)
    if name not in game.formats:
        known = f" (its formats: {', '.join(game.formats)})" if game.formats else " (it declares no formats:)"
        raise MusterError.of(codes.UNKNOWN_FORMAT, game.where, "--deck-format", game=game.id, name=name,
                             hint=did_you_mean(name, game.formats, known))
    return game.formats[name]


def check_list(game: Game, deck_list: DeckList, play_format: PlayFormat | None) -> list[Finding]:
    """Every finding of the list: reading it, then the format's sets, decks and rules."""
    findings = list(deck_list.findings)
    if play_format is None:
        return findings
    prefix = f"formats.{play_format.name}"
    for entry in deck_list.entries:
        if play_format.sets and entry.card.set not in play_format.sets:
            findings.append(Finding.of(codes.FORMAT_SET, entry.where, "set", related=play_format.where,
                                       title=entry.card.title, set=entry.card.set, format=play_format.name,
                                       sets=", ".join(play_format.sets)))
        if play_format.decks and entry.deck not in play_format.decks:
            findings.append(Finding.of(codes.FORMAT_DECK, entry.where, "deck", related=play_format.where,
                                       title=entry.card.title, deck=entry.deck, format=play_format.name,
                                       decks=", ".join(play_format.decks)))
    listed = listed_game(game, deck_list)
    whole = Location(deck_list.path)
    for index, rule in enumerate(play_format.rules):
        decks = [listed.decks[d] for d in rule.decks if d in listed.decks]
        if not decks:  # the list takes no card from the decks the rule is about
            continue
        for finding in rule_findings(rule, decks):
            if finding.where is not None and finding.where.path == deck_list.path:  # about a card: at its line
                finding = replace(finding, field="title", related=rule.where)
            else:  # a count or a total: about the list as a whole
                finding = replace(finding, where=whole, field=f"{prefix}.rules[{index}]", related=rule.where)
            findings.append(finding)
    return sorted(findings, key=lambda finding: finding.where.line if finding.where else 0)
