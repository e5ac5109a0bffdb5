"""Rulebooks' text: Markdown with Jinja from the game folder, rendered and checked. rulebook_pdf typesets it."""

from __future__ import annotations

import re
import traceback
from dataclasses import dataclass

from . import sandbox
from ..core.errors import Finding, Location, MusterError
from .layout import game_context
from ..core.model import Game

MAX_SOURCE_BYTES = 1024 * 1024


@dataclass
class RulesText:
    markdown: str
    findings: list[Finding]


def rulebook_context(game: Game) -> dict:
    """Everything a rulebook may print: the game's data as plain values."""
    decks = {}
    for deck in game.decks.values():
        cards = []
        for card in deck.cards:
            values = {name: list(v) if isinstance(v, tuple) else v for name, v in card.traits.items()}
            cards.append({**values, "title": card.title, "id": card.id, "count": card.count, "designed": card.designed})
        decks[deck.id] = {"id": deck.id, "name": deck.name, "size": deck.size, "total": deck.total,
                          "component": deck.component, "cards": cards, **dict(deck.style)}
    return {
        **game_context(game),
        "decks": decks,
        "traits": {t.name: {"label": t.label, "description": t.description, "kind": t.kind} for t in game.traits.values()},
        "boards": {b.id: {"name": b.name, "w": b.size[0], "h": b.size[1],
                          "grid": None if b.grid is None else {"columns": b.grid.columns, "rows": b.grid.rows,
                                                               "cell": b.grid.cell, "shape": b.grid.shape},
                          "features": {name: list(cells) for name, cells in b.features.items()},
                          "place": {name: p.count for name, p in b.place.items()}, "seed": b.seed}
                   for b in game.boards.values()},
        "summary": game.summary,
    }


def render_text(game: Game) -> RulesText:
    """The rulebook's Markdown with every Jinja expression evaluated; errors name rules.md and the line."""
    book = game.rulebook
    source = book.path.read_bytes()
    if len(source) > MAX_SOURCE_BYTES:
        raise MusterError(f"rulebook is {len(source)} bytes; the limit is {MAX_SOURCE_BYTES}", Location(book.path))
    try:
        with sandbox.time_limit():
            text = sandbox.environment().from_string(source.decode("utf-8")).render(rulebook_context(game))
    except UnicodeDecodeError as exc:
        return RulesText("", [Finding("error", Location(book.path), "rulebook", f"not UTF-8 text (byte {exc.start})")])
    except sandbox.TemplateError as exc:
        line = getattr(exc, "lineno", None) or _template_line(exc)
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return RulesText("", [Finding("error", Location(book.path, line or 0, 1 if line else 0), "rulebook", message)])
    return RulesText(text, _coverage(game, text))


def _template_line(exc: BaseException) -> int | None:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == "<template>"]
    return frames[-1].lineno if frames else None


_CELL_MARKUP = re.compile(r"[*_`†‡§]+")


def listed_titles(text: str) -> set[str]:
    """What the rendered Markdown lists: every table cell and every list item, markup stripped."""
    entries = set()
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("|"):
            entries.update(_CELL_MARKUP.sub("", cell).strip() for cell in stripped.strip("|").split("|"))
        elif re.match(r"^([-*+]|\d+[.)])\s+", stripped):
            item = re.sub(r"^([-*+]|\d+[.)])\s+", "", stripped)
            entries.add(_CELL_MARKUP.sub("", re.split(r"[:(—–]| - ", item)[0]).strip())
    return entries


def _coverage(game: Game, text: str) -> list[Finding]:
    """Every card of every card deck must be listed in the rulebook (its card reference): in a table cell or a
    list item of its own, not just mentioned somewhere in the prose."""
    findings = []
    listed = listed_titles(text)
    for deck in game.decks.values():
        if deck.component != "cards":
            continue
        missing = sorted({card.title for card in deck.cards if card.title not in listed})
        if missing:
            shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
            findings.append(Finding("error", game.rulebook.where, "rulebook",
                                    f"the card reference lacks {len(missing)} card(s) of deck '{deck.id}': {shown}"))
    return findings


def check_rulebook(game: Game) -> list[Finding]:
    if game.rulebook is None:
        return []
    return render_text(game).findings
