"""The build of one game as one sequence of messages (messages.py): read, checked, laid out and typeset, in order.

It writes no file. drawing.draw consumes the sequence, drawing and writing each document as its messages come: in
this process (kit.py), or in another with the sequence made in a second process that pipes
each message over (pipeline.py). The same messages in the same order either way: the files are byte-identical.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Callable, Iterator, Mapping

from ..checking import require_valid_data
from ..core import fonts
from ..core.display import Face
from ..core.errors import GameInvalid, has_errors
from ..core.model import Board, Game
from ..core.options import Options
from ..core.plan import BoardPrint, Built, board_plan, plan_of
from ..core.units import LANDSCAPE, paper_size
from ..imposition.booklet import impose_booklet
from ..imposition.tiles import TILE_MARGIN
from ..layout.boards import lay_out_board
from ..layout.cards import lay_out_batches, layout_fonts
from ..layout.files import CALIBRATION, CALIBRATION_BACK
from ..layout.groups import sheet_groups
from ..reading.fonts import read_font_book
from ..reading.loading import load_game
from .messages import Batch, Boards, DeckEnd, Message, Rulebook, Typeset

if TYPE_CHECKING:
    from ..layout.figures import Figure
    from ..layout.rulebook import RulesText


def messages(source: Game | Path, options: Options, beside: Callable | None = None) -> Iterator[Message]:
    """The messages of building `source` (a game, or its folder, read only after the bundled font book is sent).
    With `beside` (pipeline.beside, in a build's second process), the rulebook's booklet is typeset in a process
    of its own while its A4 pages are."""
    yield read_font_book()
    game = source if isinstance(source, Game) else load_game(source, options.variants, options.sets, options.lang)
    book = game.fonts or read_font_book()
    fonts.use(book)  # a game read before another one was: its own fonts again
    yield book
    require_valid_data(game)
    layouts = [name for deck in game.decks.values() for name in (deck.face, deck.back)]
    layouts += [board.layout for board in game.boards.values()] + ([CALIBRATION] if options.calibration else [])
    plan = plan_of(game, tuple(sorted(layout_fonts(game, layouts))), sheet_groups(game))
    yield plan
    for deck_id in plan.cards + plan.tokens:
        for batch in lay_out_batches(game, game.decks[deck_id], options.bleed, warnings=False):
            yield Batch(deck_id, batch)
        yield DeckEnd(deck_id)
    boards = {board_id: lay_out_board(game, board, options.seed) for board_id, board in game.boards.items()}
    rules, rules_findings, figures = checked_rulebook(game) if game.rulebook else (None, [], {})
    board_findings = [f for _, fs in boards.values() for f in fs]
    valid = not has_errors(board_findings + rules_findings)
    yield Boards(board_prints(game, {board_id: face for board_id, (face, _) in boards.items()}, options)
                 if valid else [], board_findings)
    yield Rulebook(rulebook_files(game, rules.markdown, options, figures, beside) if valid and rules else [],
                   rules_findings)


def board_prints(game: Game, faces: dict[str, Face], options: Options) -> list[BoardPrint]:
    """One document for each file the boards name, the boards laid out in it; and the calibration page."""
    prints = []
    for stem in dict.fromkeys(board.file for board in game.boards.values()):
        members = [board for board in game.boards.values() if board.file == stem]
        prints.append(BoardPrint(f"{stem}.pdf", None, tuple(board_plan(b) for b in members),
                                 {b.id: faces[b.id] for b in members}))
    if options.calibration:
        prints.append(calibration_page(game, options))
    return prints


# The duplex calibration: lines `front` mm apart on the front, their partners `back` mm apart on the back, so that
# from one pair to the next the gap grows by 0.25 mm; `ticks` pairs each side of the middle pair read ±3 mm. `row`
# and `column` place the scales' lines (the front's end where the back's begin) from the page's foot and right edge.
DUPLEX_SCALES = {"front": 5.0, "back": 5.25, "step": 0.25, "ticks": 12, "row": 30.0, "column": 18.0}


def calibration_page(game: Game, options: Options) -> BoardPrint:
    """A page to print first: 100 mm rulers and a card at true size, drawn like any board; and when backs are
    printed on the other side, the duplex calibration on both sides of the page (DUPLEX_SCALES): the fronts' lines
    on it, their partners on a back page, which the back offset moves as it does every back."""
    paper = paper_size(options.paper)
    size = (paper[0] - 2 * TILE_MARGIN, paper[1] - 2 * TILE_MARGIN)
    duplex = options.duplex in ("long", "short")
    context = {"calibration": {**DUPLEX_SCALES, "edge": options.duplex if duplex else None,
                               "offset": list(options.back_offset),
                               "ticks": min(DUPLEX_SCALES["ticks"], int((size[0] - 40) / 2 / DUPLEX_SCALES["back"]))}}
    pages = [("calibration", CALIBRATION)] + [("calibration-back", CALIBRATION_BACK)] * duplex
    boards = [Board(board_id, "calibration", "Calibration", layout, size, None, {}, {}, 0, game.where)
              for board_id, layout in pages]
    faces = {}
    for board in boards:
        faces[board.id], findings = lay_out_board(game, board, extra=context)
        if faces[board.id] is None:
            raise GameInvalid(findings)
    return BoardPrint("calibration.pdf", "calibration", tuple(board_plan(board) for board in boards), faces,
                      ("calibration-back",))


def checked_rulebook(game: Game) -> tuple[RulesText, list, dict[str, Figure]]:
    """The game's rulebook rendered, its findings, and the cards it draws laid out once: to check them, then to
    draw them. The rulebook's modules are imported here, for a game that has one."""
    from ..checking.rulebook import rendered_findings
    from ..layout.rulebook import render_text

    rules, figures = render_text(game), {}
    return rules, rendered_findings(game, rules, figures=figures), figures


def rulebook_files(game: Game, markdown: str, options: Options,
                   laid: Mapping[str, Figure] = MappingProxyType({}), beside: Callable | None = None) -> list[Typeset]:
    """rules.pdf, and rules-booklet.pdf when the game or the build asks for one; `laid` holds figures already laid
    out (by the checks), by source. With `beside`, the booklet is made in a process of its own meanwhile."""
    from ..rendering.inks import inks_of
    from ..rendering.pdfx import pdfx
    from ..rendering.rulebook_pdf import typeset_rulebook  # platypus: 60 ms to import; most games have no rulebook

    build = options.paper.removesuffix(LANDSCAPE)  # the rulebook reads upright, whatever way the sheets lie
    paper = game.rulebook.paper or ("letter" if build in ("letter", "tabloid") else "a4")
    inks = inks_of(options)
    figures = rulebook_figures(game, markdown, laid)
    wanted = options.booklet or game.rulebook.booklet
    sheet = "letter" if paper == "letter" else "a4"
    half = (max(paper_size(sheet)) / 2, min(paper_size(sheet)))
    # Shrunk onto half a sheet, an A4 page's 7.5 pt running heads would print at 5.3 pt and its 10 pt text at 7 pt:
    # a page larger than half the sheet is typeset again at that size, and printed at full size.
    again = wanted and (paper_size(paper)[0] > half[0] or paper_size(paper)[1] > half[1])

    def booklet(typeset: bytes, pages: int) -> Typeset:
        imposed, sides = impose_booklet(typeset, sheet)
        imposed = pdfx(imposed, inks.profile) if options.pdfx else imposed
        return Typeset(Built("rules-booklet.pdf", "booklet", sides, _sha256(imposed),
                             {"paper": f"{sheet} landscape", "rulebook_pages": pages}), imposed)

    def typeset_again() -> Typeset:
        return booklet(*typeset_rulebook(game, markdown, half, inks, figures))

    later = beside(typeset_again) if again and beside is not None else None
    typeset, pages = typeset_rulebook(game, markdown, paper_size(paper), inks, figures)
    rules = pdfx(typeset, inks.profile) if options.pdfx else typeset
    files = [Typeset(Built("rules.pdf", "rules", pages, _sha256(rules), {"paper": paper}), rules)]
    if wanted:
        files.append(later() if later else typeset_again() if again else booklet(typeset, pages))
    return files


def rulebook_figures(game: Game, markdown: str, laid: Mapping[str, Figure] = MappingProxyType({})):
    """The cards the rulebook draws, laid out: its figures (`![..](card:...)`), each taken from `laid` when it is
    there, and its cover's row."""
    from ..layout.figures import cover_figures, figure_sources, figure_spec, lay_out_figure
    from ..rendering.rulebook_pdf import Figures

    cards = {source: laid.get(source) or lay_out_figure(game, figure_spec(game, source))
             for source, _ in figure_sources(markdown)}
    return Figures(cards, cover_figures(game))


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
