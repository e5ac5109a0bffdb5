"""The documents of a game built from the stages: its card sheets, boards, rulebook and calibration page."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from .boards import lay_out_board
from .booklet import impose_booklet
from .display import Face
from .errors import Finding, GameInvalid
from .imposition import TILE_MARGIN, tiles
from .layout import lay_out_batches, lay_out_cards
from .model import Board, Game
from .options import Options
from .plan import Built, plan_of
from .render import SheetWriter
from .rulebook import check_rulebook, render_text
from .sheets import draw_decks, final_name, finish, sha256
from .staging import Staging
from .units import PAPERS
from .validation import check_data


def validate(game: Game, bleed: float = 3.0) -> list[Finding]:
    """All findings for a game: its data, its rules, and every card laid out with its layouts."""
    findings = check_data(game)
    if not any(f.severity == "error" for f in findings):
        for deck in game.decks.values():
            findings.extend(lay_out_cards(game, deck, bleed).findings)
        for board in game.boards.values():
            findings.extend(lay_out_board(game, board, warnings=True)[1])
        findings.extend(check_rulebook(game))
    return findings


def build_game(game: Game, out: Path, options: Options) -> list[Built]:
    """Every document of `game` into out/<game id>/, then its manifest. Nothing is written if validation fails.
    (pipeline.build_forked does the same in two processes.)"""
    findings = check_data(game)
    if any(f.severity == "error" for f in findings):
        raise GameInvalid(findings)
    plan = plan_of(game)
    staging = Staging(out / game.id)
    try:
        others, findings = other_documents(game, staging.path, options)
        batches = {deck_id: lay_out_batches(game, game.decks[deck_id], options.bleed, warnings=False)
                   for deck_id in plan.decks}
        built, deck_findings = draw_decks(plan, batches, staging.path, options)
        finish(plan, staging, built + others, deck_findings + findings, options)
    finally:
        staging.discard()
    return built + others


def other_documents(game: Game, path: Callable[[str], Path], options: Options) -> tuple[list[Built], list[Finding]]:
    """The boards, the rulebook and the calibration page, with the boards' and the rulebook's findings; none is
    written when those hold an error. `path(name)` gives a file's staging path."""
    boards = {board_id: lay_out_board(game, board, options.seed) for board_id, board in game.boards.items()}
    rules = render_text(game) if game.rulebook else None
    findings = [f for _, fs in boards.values() for f in fs] + (rules.findings if rules else [])
    if any(f.severity == "error" for f in findings):
        return [], findings
    built = []
    for stem in dict.fromkeys(board.file for board in game.boards.values()):
        members = [board for board in game.boards.values() if board.file == stem]
        faces = {b.id: boards[b.id][0] for b in members}
        built.append(board_sheets(game, members, faces, path(f"{stem}.pdf"), options))
    if rules is not None:
        built += rulebook_files(game, rules.markdown, path, options)
    if options.calibration:
        built.append(calibration_page(game, path("calibration.pdf"), options))
    return built, findings


def board_sheets(game: Game, members: list[Board], faces: dict[str, Face], target: Path, options: Options,
                 kind: str | None = None) -> Built:
    """One PDF with each board at 100 %: on one page when it fits the paper, else tiled with overlaps."""
    tiling = {}
    writer = SheetWriter(target, f"{game.title}: {final_name(target)}", options.greyscale)
    for board in members:
        plan = tiles(board.size, PAPERS[options.paper], f"{game.title} · {board.name}")
        tiling[board.id] = f"{plan.columns}x{plan.rows}"
        writer.start_section({})
        for sheet in plan.sheets:
            writer.sheet(sheet, [faces[board.id]])
    writer.save()
    name = final_name(target)
    if kind is not None:  # a page of Muster's own (the calibration page), not one of the game's boards
        return Built(name, kind, writer.pages, sha256(target))
    seeds = {b.id: b.seed if options.seed is None else options.seed for b in members if b.place}
    extra = {"boards": [b.id for b in members], "tiles": tiling, **({"seeds": seeds} if seeds else {})}
    return Built(name, "map" if name == "map.pdf" else "board", writer.pages, sha256(target), extra)


CALIBRATION = "calibration.yaml"  # a bundled layout


def calibration_page(game: Game, target: Path, options: Options) -> Built:
    """A page to print first: 100 mm rulers and a card at true size, drawn like any board."""
    paper = PAPERS[options.paper]
    board = Board("calibration", "calibration", "Calibration", CALIBRATION,
                  (paper[0] - 2 * TILE_MARGIN, paper[1] - 2 * TILE_MARGIN), None, {}, {}, 0, game.where)
    face, findings = lay_out_board(game, board)
    if face is None:
        raise GameInvalid(findings)
    return board_sheets(game, [board], {board.id: face}, target, options, kind="calibration")


def rulebook_files(game: Game, markdown: str, path: Callable[[str], Path], options: Options) -> list[Built]:
    """rules.pdf, and rules-booklet.pdf when the game or the build asks for one."""
    from .rulebook_pdf import write_rulebook  # platypus takes 60 ms to import; most custom games have no rulebook

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


