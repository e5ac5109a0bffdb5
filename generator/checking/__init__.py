"""What `muster validate` checks, from one entry point: check_game takes a loaded Game and gives its Findings.

data.py: the game's data (deck sizes, titles, the game's own rules), after what the loader found (unknown keys,
trait values). check_game adds what laying the game out finds (layouts, text that does not fit, the safe zone)
and the rulebook's checks (rulebook.py: its text, and every card listed in the card reference).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from ..core.errors import Finding, GameInvalid, has_errors
from ..core.model import Game
from ..layout.boards import lay_out_board
from ..layout.cards import lay_out_cards
from .data import check_data


def check_game(game: Game, bleed: float = 3.0) -> list[Finding]:
    """All findings for a game in one run: its data and its rules; then, when those hold no error, every card and
    board laid out with the warnings a build does not need; and the rulebook, whose text is checked either way
    (an error in the data must not hide one in rules.md), its card reference only with the cards all there."""
    findings = check_data(game)
    clean = not has_errors(findings)
    if clean:
        for deck in game.decks.values():
            findings.extend(lay_out_cards(game, deck, bleed).findings)
        for board in game.boards.values():
            findings.extend(lay_out_board(game, board, warnings=True)[1])
    findings.extend(_rulebook(game, cards=clean))
    return findings


def check_languages(game: Game, read: Callable[[str], Game], bleed: float = 3.0) -> list[Finding]:
    """The findings of `game` (read in its source language) and, for each other language it declares, those of
    the game as `read(language)` gives it that the source has not: text that fits in English and not in German,
    a German rulebook that fails. Each of those says its language after its message."""
    findings = check_game(game, bleed)
    seen = set(findings)
    for language in game.languages[1:]:
        for finding in check_game(read(language), bleed):
            if finding not in seen:
                seen.add(finding)
                findings.append(replace(finding, message=f"{finding.message} [{language}]"))
    return findings


def require_valid_data(game: Game) -> list[Finding]:
    """The findings of the game's data (check_data), which must hold no error to go on: GameInvalid when one does.
    What a build or an export checks before laying anything out; the rulebook's text is checked too when there
    are errors, so that they do not hide its own."""
    findings = check_data(game)
    if has_errors(findings):
        raise GameInvalid(findings + _rulebook(game, cards=False))
    return findings


def _rulebook(game: Game, cards: bool) -> list[Finding]:
    """checking/rulebook.check_rulebook's findings; it and the rulebook's layout modules are imported only for a
    game that has a rulebook."""
    if game.rulebook is None:
        return []
    from .rulebook import check_rulebook

    return check_rulebook(game, cards)
