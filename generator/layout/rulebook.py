"""Rulebooks' text: Markdown with Jinja from the game folder, rendered, and held within what can be typeset.
checking/rulebook.py checks it; rendering/rulebook_pdf.py typesets it.

The values a rulebook's template prints are escaped (sandbox.environment(markdown=True)), so that a card's title
is printed as it is written, whatever it holds: Markdown reads the entities as the characters themselves."""

from __future__ import annotations

import re
from dataclasses import dataclass

from markupsafe import Markup

from ..core.errors import Finding, Location
from ..core.model import Game
from ..core import sandbox
from ..core.inline import unembedded
from ..core.inputs import RULEBOOK, read_bytes
from .context import card_values, game_context
from ..core.sandbox import Record

# The rendered text, before it is typeset (a few seconds at most, at a millisecond or so a block): its size is
# the template's (budget.MAX_SIZE), and then
MAX_LINES = 20_000
MAX_HEADINGS = 1_000     # lines that may be headings: each is a bookmark and a line of the contents
MAX_TABLE_ROWS = 5_000   # lines with a |: long tables cost more than their length to split across pages
_HEADING = re.compile(r"^ {0,3}(#|=+ *$|-+ *$)", re.MULTILINE)


@dataclass
class RulesText:
    """The rulebook's Markdown, rendered; empty when its findings hold the error that stopped it."""

    markdown: str
    findings: list[Finding]


def rulebook_context(game: Game) -> dict:
    """Everything a rulebook may print: the game's data as plain values."""
    decks = {deck.id: Record(f"deck '{deck.id}'", "key", {"id": deck.id, "name": deck.name, "size": deck.size, "total": deck.total,
                       "component": deck.format.component, "cards": [card_values(card, game) for card in deck.cards],
                       **dict(deck.style)})
             for deck in game.decks.values()}
    return {
        **game_context(game),
        "decks": Record("the game", "deck", decks),
        "sets": Record("the game", "set", {card_set.id: {"id": card_set.id, "name": card_set.name,
                                                        "designed": card_set.designed,
                                                        "chosen": card_set.id in game.chosen_sets}
                                           for card_set in game.sets.values()}),
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


def _environment(game: Game):
    """The rulebooks' sandbox; with the game's `embed:` words, what its templates print left without icons: the
    words the rules' author wrote become icons, the values printed (a card's title) never do."""
    env = sandbox.environment(markdown=True)
    if not game.embed:
        return env
    finalize = env.finalize

    def printed(value):
        value = finalize(value)
        return value if isinstance(value, Markup) else Markup(unembedded(str(value), game.embed))

    return env.overlay(finalize=printed)


def render_text(game: Game) -> RulesText:
    """The rulebook's Markdown with every Jinja expression evaluated; errors name rules.md and the line, and the
    limit when one was passed."""
    book = game.rulebook
    source = read_bytes(book.path, RULEBOOK)
    try:
        source = source.decode("utf-8")
    except UnicodeDecodeError as exc:
        return RulesText("", [Finding("error", Location(book.path), "rulebook", f"not UTF-8 text (byte {exc.start})",
                                      "not-utf8")])
    context = rulebook_context(game)
    try:
        with sandbox.time_limit():
            template = sandbox.compiled_in(_environment(game), source, "rules-embed" if game.embed else "rules")
            text = template.render(context)
    except Exception as exc:  # any failure of the template is the rulebook author's to fix
        message, code = sandbox.failure(exc)
        line = sandbox.template_line(exc)
        return RulesText("", [Finding("error", Location(book.path, line or 0, 1 if line else 0), "rulebook", message,
                                      code)])
    problem = _too_big(text)
    if problem:
        return RulesText("", [Finding("error", Location(book.path), "rulebook", problem, "rulebook-too-big")])
    return RulesText(text, [])


def _too_big(text: str) -> str | None:
    """What of the rendered text is over the limits of what is typeset, counted on its lines (an upper bound: a
    line with a | need not be a table's row). The text is at most budget.MAX_SIZE characters: counting is quick."""
    lines = text.splitlines()
    counts = (("lines", len(lines), MAX_LINES), ("headings", len(_HEADING.findall(text)), MAX_HEADINGS),
              ("table rows", sum("|" in line for line in lines), MAX_TABLE_ROWS))
    for what, count, limit in counts:
        if count > limit:
            return f"the rulebook's text, once its templates have run, has {count:,} {what}; the limit is {limit:,}"
    return None
