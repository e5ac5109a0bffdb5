"""Grouped counter sheets: a deck's copies set in blocks by the values of traits, each block's label and colour.

The blocks are found here, where the game's vocabularies and the template sandbox are at hand; imposition
(imposition/groups.py) places them on sheets knowing only labels, colours and copies.
"""

from __future__ import annotations

import re

from ..core import sandbox
from ..core.errors import Finding, GameInvalid
from ..core.model import Deck, Game
from ..core.plan import SheetGroup

ZONE = "#e4e4e4"  # a block's zone when its value names no colour
HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def sheet_groups(game: Game) -> dict[str, tuple[SheetGroup, ...]]:
    """The blocks of every grouped deck of the game, by deck id."""
    return {deck.id: deck_groups(game, deck) for deck in game.decks.values() if deck.group is not None}


def deck_groups(game: Game, deck: Deck) -> tuple[SheetGroup, ...]:
    """The deck's blocks in the order their first card comes; GameInvalid when a label's template fails."""
    copies: dict[tuple, list[int]] = {}
    start = 0
    for card in deck.cards:
        key = tuple(_code(card.value(name)) for name in deck.group.by)
        copies.setdefault(key, []).extend(range(start, start + card.count))
        start += card.count
    return tuple(SheetGroup(_label(game, deck, key), _colour(game, deck.group.by[0], key[0]), tuple(indices))
                 for key, indices in copies.items() if indices)


def _code(value) -> str:
    if isinstance(value, (tuple, list)):  # a codes trait: its codes together
        return " ".join(map(str, value))
    return "" if value is None else str(value)


def _term(game: Game, trait: str, code: str):
    vocabulary = game.vocabularies.get(game.traits[trait].vocabulary or "")
    return vocabulary.terms.get(code) if vocabulary else None


def _label(game: Game, deck: Deck, key: tuple) -> str:
    names = {}
    for trait, code in zip(deck.group.by, key):
        term = _term(game, trait, code)
        names[trait] = term.name if term else code
    if deck.group.label is None:
        return " · ".join(name for name in names.values() if name)
    try:
        return sandbox.render(deck.group.label, {"group": {**names, "codes": dict(zip(deck.group.by, key))}})
    except Exception as exc:  # any failure of the template is the game's author's to fix
        message, code = sandbox.failure(exc)
        raise GameInvalid([Finding("error", deck.group.where, f"decks.{deck.id}.group.label", message, code)]) from None


def _colour(game: Game, trait: str, code: str) -> str:
    """The zone's colour: the colour the value's vocabulary term names (a colour of colours: or "#rrggbb")."""
    term = _term(game, trait, code)
    named = str(term.extra.get("colour", "")) if term else ""
    colour = game.colours.get(named, named)
    return colour if HEX.match(colour) else ZONE
