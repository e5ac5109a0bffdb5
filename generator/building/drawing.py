"""The drawing side of a build: takes a build's messages (sequence.py), gives the kit's files, committed together.

It draws each deck's sheets as its batches come, then the boards, writes the rulebook's files, and commits them
all with the manifest unless a finding is an error. It imports nothing that reads or lays out a game: in a build
in two processes (pipeline.py) this is all that the drawing process runs, and it never loads YAML or Jinja.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterator, NamedTuple, TypeVar

from ..core import codes, fonts
from ..core.display import DeckFaces
from ..core.errors import Finding, GameInvalid, MusterError, has_errors
from ..core.options import Options
from ..core.plan import Built, Plan
from .cache import Inputs
from .manifest import in_order, manifest
from .messages import Batch, Boards, DeckEnd, Message, Rulebook
from .staging import Staging

Expected = TypeVar("Expected")


class Drawn(NamedTuple):
    """What a build gives: the game's Plan, its documents, and the warnings found on the way (missing glyphs)."""

    plan: Plan
    built: list[Built]
    warnings: list[Finding]


def draw(messages: Iterator[Message], out: Path, options: Options, inputs: Inputs | None = None,
         done: Callable[[str], None] | None = None) -> Drawn:
    """The game the messages describe, built into out/<game id>/ (in a language not its source one, into
    out/<game id>/<language>/). The folder is made once the Plan says the game
    is valid; nothing in it changes unless everything is built. `inputs` is the key of its inputs, made before
    they were read (without it the manifest records none: the next build builds again);
    `done` is told the name of each document as it is finished (for a progress display)."""
    fonts.use(_expect(messages, fonts.FontBook))
    fonts.face("text")  # every sheet needs it: in two processes, loaded while the other reads the game
    fonts.use(_expect(messages, fonts.FontBook))  # the bundled fonts with the game's own
    plan = _expect(messages, Plan)
    from ..rendering.documents import draw_boards, draw_decks  # reportlab's canvas: after the Plan is answered
    staging = Staging(out, *plan.folder)
    finished = (lambda built: done(built.file)) if done else (lambda built: None)
    try:
        with staging.writing():
            batches = {deck_id: _batches(messages, deck_id) for deck_id in plan.cards + plan.tokens}
            decks, findings = draw_decks(plan, batches, staging.path, options, finished)
            boards = _expect(messages, Boards)
            drawn = draw_boards(plan.title, boards.prints, staging.path, options, finished)
            rulebook = _expect(messages, Rulebook)
            for typeset in rulebook.files:
                staging.path(typeset.built.file).write_bytes(typeset.data)
                finished(typeset.built)
        built = in_order(decks, drawn, [typeset.built for typeset in rulebook.files])
        findings += boards.findings + rulebook.findings
        if has_errors(findings):
            raise GameInvalid(findings)
        staging.commit(manifest(plan, built, options, inputs.current_key() if inputs else None))
    finally:
        staging.discard()
    return Drawn(plan, built, findings)


def _expect(messages: Iterator[Message], kind: type[Expected]) -> Expected:
    message = next(messages, None)
    if not isinstance(message, kind):
        raise MusterError.of(codes.INTERNAL_ERROR,
                             detail=f"expected {kind.__name__} from the game's reading, got {type(message).__name__}")
    return message


def _batches(messages: Iterator[Message], deck_id: str) -> Iterator[DeckFaces]:
    """The batches of one deck, as they come."""
    while True:
        message = next(messages, None)
        if isinstance(message, DeckEnd) and message.deck == deck_id:
            return
        if not isinstance(message, Batch) or message.deck != deck_id:
            raise MusterError.of(codes.INTERNAL_ERROR, detail=f"expected deck '{deck_id}' from the game's reading, "
                                 f"got {type(message).__name__} {getattr(message, 'deck', '')}")
        yield message.faces
