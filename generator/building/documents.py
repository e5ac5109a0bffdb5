"""A game's documents in this process: checked (validate), or built from the build's sequence (build_game)."""

from __future__ import annotations

from pathlib import Path

from ..layout.boards import lay_out_board
from ..core.errors import Finding, has_errors
from ..layout.layout import lay_out_cards
from ..core.model import Game
from ..core.options import Options
from ..core.plan import Built
from ..layout.rulebook import check_rulebook
from ..checking.validation import check_data
from .drawing import draw
from .sequence import messages


def validate(game: Game, bleed: float = 3.0) -> list[Finding]:
    """All findings for a game: its data, its rules, and every card laid out with its layouts."""
    findings = check_data(game)
    if not has_errors(findings):
        for deck in game.decks.values():
            findings.extend(lay_out_cards(game, deck, bleed).findings)
        for board in game.boards.values():
            findings.extend(lay_out_board(game, board, warnings=True)[1])
        findings.extend(check_rulebook(game))
    return findings


def build_game(game: Game, out: Path, options: Options) -> list[Built]:
    """Every document of `game` into out/<game id>/, then its manifest. Nothing is written if validation fails.
    The sequence is drawn as it is made, in this process; pipeline.build_forked makes it in another."""
    return draw(messages(game, options), out, options)[1]
