"""The documents of a game built from the stages: its card sheets, boards, rulebook and calibration page."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ..layout.boards import lay_out_board
from ..imposition.booklet import impose_booklet
from ..core.errors import Finding, GameInvalid, has_errors
from ..imposition.imposition import TILE_MARGIN
from ..layout.cards import lay_out_batches
from ..layout.files import CALIBRATION
from ..core.model import Board, Game
from ..core.options import Options
from ..core.plan import BoardPrint, Built, board_plan, plan_of
from ..layout.rulebook import render_text
from ..checking.rulebook import rendered_findings
from ..rendering.sheets import draw_boards, draw_decks, finish, in_order, sha256
from .staging import Staging
from ..core.units import PAPERS
from ..checking.data import check_data


def build_game(game: Game, out: Path, options: Options) -> list[Built]:
    """Every document of `game` into out/<game id>/, then its manifest. Nothing is written if validation fails.
    (pipeline.build_forked does the same in two processes.)"""
    findings = check_data(game)
    if has_errors(findings):
        raise GameInvalid(findings)
    plan = plan_of(game)
    staging = Staging(out / game.id)
    try:
        prints, rules, findings = other_documents(game, staging.path, options)
        boards = draw_boards(game.title, prints, staging.path, options)
        batches = {deck_id: lay_out_batches(game, game.decks[deck_id], options.bleed, warnings=False)
                   for deck_id in plan.decks}
        decks, deck_findings = draw_decks(plan, batches, staging.path, options)
        built = in_order(decks, boards, rules)
        finish(plan, staging, built, deck_findings + findings, options)
    finally:
        staging.discard()
    return built


def other_documents(game: Game, path: Callable[[str], Path], options: Options
                    ) -> tuple[list[BoardPrint], list[Built], list[Finding]]:
    """The boards and the calibration page laid out, ready to draw; the rulebook written (`path(name)` gives a
    file's staging path); and the boards' and the rulebook's findings. Nothing when those hold an error."""
    boards = {board_id: lay_out_board(game, board, options.seed) for board_id, board in game.boards.items()}
    rules = render_text(game) if game.rulebook else None
    findings = [f for _, fs in boards.values() for f in fs] + (rendered_findings(game, rules) if rules else [])
    if has_errors(findings):
        return [], [], findings
    prints = []
    for stem in dict.fromkeys(board.file for board in game.boards.values()):
        members = [board for board in game.boards.values() if board.file == stem]
        prints.append(BoardPrint(f"{stem}.pdf", None, tuple(board_plan(b) for b in members),
                                 {b.id: boards[b.id][0] for b in members}))
    if options.calibration:
        prints.append(calibration_page(game, options))
    written = rulebook_files(game, rules.markdown, path, options) if rules is not None else []
    return prints, written, findings


def calibration_page(game: Game, options: Options) -> BoardPrint:
    """A page to print first: 100 mm rulers and a card at true size, drawn like any board."""
    paper = PAPERS[options.paper]
    board = Board("calibration", "calibration", "Calibration", CALIBRATION,
                  (paper[0] - 2 * TILE_MARGIN, paper[1] - 2 * TILE_MARGIN), None, {}, {}, 0, game.where)
    face, findings = lay_out_board(game, board)
    if face is None:
        raise GameInvalid(findings)
    return BoardPrint("calibration.pdf", "calibration", (board_plan(board),), {board.id: face})


def rulebook_files(game: Game, markdown: str, path: Callable[[str], Path], options: Options) -> list[Built]:
    """rules.pdf, and rules-booklet.pdf when the game or the build asks for one."""
    from ..rendering.rulebook_pdf import write_rulebook  # platypus takes 60 ms to import; most custom games have no rulebook

    paper = game.rulebook.paper or ("letter" if options.paper in ("letter", "tabloid") else "a4")
    target = path("rules.pdf")
    pages = write_rulebook(game, markdown, target, paper)
    built = [Built("rules.pdf", "rules", pages, sha256(target), {"paper": paper})]
    if options.booklet or game.rulebook.booklet:
        sheet = "letter" if paper == "letter" else "a4"
        booklet = path("rules-booklet.pdf")
        sides = impose_booklet(target, booklet, sheet)
        built.append(Built("rules-booklet.pdf", "booklet", sides, sha256(booklet),
                           {"paper": f"{sheet} landscape", "rulebook_pages": pages}))
    return built


