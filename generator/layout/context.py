"""What templates see: the game, a deck and a card as plain data (no model objects, no paths)."""

from __future__ import annotations

from ..core.inline import marked
from ..core.model import Card, Deck, Game
from ..core.sandbox import Record


def game_context(game: Game) -> dict:
    """What every template of a game sees."""
    return {
        "game": Record("game", "key", {"id": game.id, "title": game.title, "players": game.players,
                                       "card": {"w": game.card_size[0], "h": game.card_size[1]},
                                       "language": game.printed_language}),
        "words": Record("the game", "word", game.words),
        "constants": Record("the game", "constant", game.constants),
        "colours": Record("the game", "colour", game.colours),
        "tables": Record("the game", "table", {name: [dict(row) for row in rows] for name, rows in game.tables.items()}),
        "vocab": Record("the game", "vocabulary", {
            name: Record(f"vocabulary '{name}'", "code", {
                code: {"code": code, "name": term.name, "short": term.short, "icon": term.icon, **dict(term.extra)}
                for code, term in vocabulary.terms.items()})
            for name, vocabulary in game.vocabularies.items()}),
    }


def deck_context(game: Game, deck: Deck, bleed: float) -> dict:
    """What every card of a deck shares in its templates."""
    return {
        **game_context(game),
        "deck": Record("deck", "key", {"id": deck.id, "name": deck.name, "size": deck.total, **dict(deck.style)}),
        "face": {"w": deck.format.face_size[0], "h": deck.format.face_size[1], "bleed": bleed},
    }


def card_values(card: Card, game: Game) -> dict:
    """A card as templates see it, in its layouts and in the rulebook: its traits (codes as lists; the game's
    `embed:` words of its text fields written as their icons, [[name]]), title, id, count, whether it is designed,
    and its set (its id) when the game declares sets."""
    values = Record("card", "trait", {name: list(value) if isinstance(value, tuple) else
                                      marked(value, game.embed) if game.traits[name].kind == "text" else value
                                      for name, value in card.traits.items()})
    values.update(title=card.printed_title, id=card.id, count=card.count, designed=card.designed)
    if card.set:  # a game that declares no sets: a template asking for one is told the card has none
        values["set"] = card.set
    return values


def card_context(shared: dict, card: Card, game: Game) -> dict:
    """The context of one card's layouts: its deck's shared context (deck_context) and the card."""
    return {**shared, "card": card_values(card, game)}
