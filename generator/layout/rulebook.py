"""Rulebooks' text: Markdown with Jinja from the game folder, rendered. checking/rulebook.py checks it;
rendering/rulebook_pdf.py typesets it."""

from __future__ import annotations

import traceback
from dataclasses import dataclass

from ..core.errors import Finding, Location
from ..core.model import Game
from ..core import sandbox
from ..core.inputs import RULEBOOK, read_bytes
from .context import card_values, game_context
from ..core.sandbox import Record


@dataclass
class RulesText:
    """The rulebook's Markdown, rendered; empty when its findings hold the error that stopped it."""

    markdown: str
    findings: list[Finding]


def rulebook_context(game: Game) -> dict:
    """Everything a rulebook may print: the game's data as plain values."""
    decks = {deck.id: Record(f"deck '{deck.id}'", "key", {"id": deck.id, "name": deck.name, "size": deck.size, "total": deck.total,
                       "component": deck.component, "cards": [card_values(card) for card in deck.cards],
                       **dict(deck.style)})
             for deck in game.decks.values()}
    return {
        **game_context(game),
        "decks": Record("the game", "deck", decks),
        "traits": Record("the game", "trait", {trait.name: {"label": trait.label, "description": trait.description, "kind": trait.kind}
                   for trait in game.traits.values()}),
        "boards": Record("the game", "board", {board.id: {"name": board.name, "w": board.size[0], "h": board.size[1],
                              "grid": None if board.grid is None else {
                                  "columns": board.grid.columns, "rows": board.grid.rows, "cell": board.grid.cell,
                                  "shape": board.grid.shape},
                              "features": {name: list(cells) for name, cells in board.features.items()},
                              "place": {name: placement.count for name, placement in board.place.items()},
                              "seed": board.seed}
                   for board in game.boards.values()}),
        "summary": game.summary,
    }


def render_text(game: Game) -> RulesText:
    """The rulebook's Markdown with every Jinja expression evaluated; errors name rules.md and the line."""
    book = game.rulebook
    source = read_bytes(book.path, RULEBOOK)
    try:
        with sandbox.time_limit():
            text = sandbox.environment().from_string(source.decode("utf-8")).render(rulebook_context(game))
    except UnicodeDecodeError as exc:
        return RulesText("", [Finding("error", Location(book.path), "rulebook", f"not UTF-8 text (byte {exc.start})",
                                      "not-utf8")])
    except sandbox.TemplateError as exc:
        line = getattr(exc, "lineno", None) or _template_line(exc)
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        code = "time-limit" if isinstance(exc, sandbox.TimeLimit) else "template-error"
        return RulesText("", [Finding("error", Location(book.path, line or 0, 1 if line else 0), "rulebook", message,
                                      code)])
    return RulesText(text, [])


def _template_line(exc: BaseException) -> int | None:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == "<template>"]
    return frames[-1].lineno if frames else None
