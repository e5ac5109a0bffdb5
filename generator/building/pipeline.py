"""A game built in two processes: one reads, checks and lays out; the other draws meanwhile.

The build forks before it reads anything. The child imports the stages (YAML, Jinja, layout), loads and checks
the game and sends a Plan of it; this process, which imports only what drawing needs, parses the fonts the Plan
names and hands their metrics back. The child then sends each deck's batches as soon as they are laid out, then
the boards and calibration page laid out, and the staged files of the rulebook it typeset. This process draws
everything as it arrives and commits the kit. Batches are the same either way, so the files are byte-identical
to those of documents.build_game in one process.
"""

from __future__ import annotations

import os
import pickle
import signal
import struct
import traceback
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Iterator

from ..core.display import DeckFaces, pack, unpack
from ..core.errors import MusterError, has_errors
from ..core.options import Options

if TYPE_CHECKING:
    from ..core.plan import Built, Plan

_LENGTH = struct.Struct("<Q")
PIPE_BYTES = 1 << 20


def build_forked(root: Path, out: Path, options: Options) -> tuple[Plan, list[Built]]:
    """The game in folder `root` built into out/<its id>/ (its folder's name), in two processes."""
    read, write = os.pipe()  # child to parent: the plan, the batches, the other documents
    fonts_read, fonts_write = os.pipe()  # parent to child: the fonts' measures
    for end in (write, fonts_write):
        _widen(end)
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child, which never returns from here
        os.close(read)
        os.close(fonts_write)
        _child(root, out / root.name, options, os.fdopen(write, "wb"), os.fdopen(fonts_read, "rb"))
    os.close(write)
    os.close(fonts_read)
    fonts_stream = os.fdopen(fonts_write, "wb")
    staging = None  # made once the game is known to be valid; discarded (if not committed) after the child stops
    try:
        with os.fdopen(read, "rb") as stream:
            try:
                from ..core import fonts
                from ..rendering import sheets  # noqa: F401  (the renderer: imported while the child reads the game)
                from .staging import Staging

                fonts.face("text")  # every sheet needs it, and the child is still reading the game
                _, plan = _expect(stream, "plan")
                staging = Staging(out / plan.id)
                return plan, _draw(stream, fonts_stream, plan, staging, options)
            finally:
                with suppress(BrokenPipeError):  # the child may have stopped before reading it all
                    fonts_stream.close()
                with suppress(ProcessLookupError):
                    os.kill(child, signal.SIGKILL)  # done or not, it has nothing more to say
                os.waitpid(child, 0)
    finally:
        if staging is not None:
            staging.discard()


def _widen(pipe: int) -> None:
    """A pipe that holds about ten batches, or the measures of a few fonts (Linux), so that neither process
    waits for the other to read: the default 64 KiB hold less than one batch."""
    try:
        import fcntl

        fcntl.fcntl(pipe, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    except (ImportError, AttributeError, OSError):  # another system, or a lower limit: a narrower pipe still works
        pass


def _draw(stream: BinaryIO, fonts_stream: BinaryIO, plan: Plan, staging, options: Options) -> list[Built]:
    from ..core import fonts
    from ..rendering.sheets import draw_boards, draw_decks, finish, in_order

    with suppress(BrokenPipeError):  # the child has stopped: what it said, or that it said nothing, comes next
        # it measures text with this process's fonts instead of reading the font files again; it stages its own
        # files only after this, in the folder made just before
        _send(fonts_stream, ("measures", {name: fonts.Measures.of(name) for name in plan.fonts}))
    batches = {deck_id: _received(stream, deck_id) for deck_id in plan.cards + plan.tokens}
    decks, findings = draw_decks(plan, batches, staging.path, options)
    _, prints, rules, other_findings, files = _expect(stream, "others")
    staging.adopt(files)
    built = in_order(decks, draw_boards(plan.title, prints, staging.path, options), rules)
    finish(plan, staging, built, findings + other_findings, options)
    return built


def _child(root: Path, folder: Path, options: Options, stream: BinaryIO, fonts_stream: BinaryIO) -> None:
    """Reads, checks and lays out the game (its decks, boards and calibration page) and writes its rulebook,
    sending what the parent needs; never returns."""
    status = 0
    files: list[tuple[Path, Path]] = []  # staged here, handed to the parent (which sweeps them up on failure)
    try:
        from ..core.errors import GameInvalid
        from ..layout.cards import lay_out_batches, layout_fonts
        from ..layout.files import CALIBRATION
        from ..reading.loading import load_game
        from ..core.plan import plan_of
        from .staging import staged
        from ..checking.data import check_data

        game = load_game(root, options.variants)
        findings = check_data(game)
        if has_errors(findings):
            raise GameInvalid(findings)
        layouts = [name for deck in game.decks.values() for name in (deck.face, deck.back)]
        layouts += [board.layout for board in game.boards.values()] + ([CALIBRATION] if options.calibration else [])
        plan = plan_of(game, tuple(sorted(layout_fonts(game, layouts))))
        _send(stream, ("plan", plan))
        from ..core import fonts

        for name, measures in _expect(fonts_stream, "measures")[1].items():
            fonts.adopt(name, measures)
        for deck_id in plan.cards + plan.tokens:
            for batch in lay_out_batches(game, game.decks[deck_id], options.bleed, warnings=False):
                _send(stream, ("batch", deck_id, [pack(face) for face in batch.faces], batch.fronts, batch.backs,
                               batch.findings))
            _send(stream, ("end", deck_id))

        def path(name: str) -> Path:
            files.append(staged(folder, name))
            return files[-1][0]

        from .documents import other_documents  # the boards' and rulebook's modules: not needed before now

        prints, rules, findings = other_documents(game, path, options)
        _send(stream, ("others", prints, rules, findings, files))
    except MusterError as exc:
        _send(stream, ("error", exc))
    except BrokenPipeError:  # the parent stopped reading: it failed, or was interrupted
        status = 1
    except BaseException:
        _send(stream, ("error", MusterError("building failed:\n" + traceback.format_exc())))
        status = 1
    finally:
        try:
            stream.close()
        finally:
            os._exit(status)


def _send(stream: BinaryIO, message: tuple) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_LENGTH.pack(len(data)))
    stream.write(data)
    stream.flush()


def _next(stream: BinaryIO) -> tuple:
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        raise MusterError("the process reading the game stopped without finishing")
    message = pickle.loads(stream.read(_LENGTH.unpack(head)[0]))
    if message[0] == "error":
        raise message[1]
    return message


def _expect(stream: BinaryIO, kind: str) -> tuple:
    message = _next(stream)
    if message[0] != kind:
        raise MusterError(f"expected '{kind}' from the process reading the game, got '{message[0]}'")
    return message


def _received(stream: BinaryIO, deck_id: str) -> Iterator[DeckFaces]:
    """The batches of one deck as the child sends them."""
    while True:
        message = _next(stream)
        if message[0] not in ("batch", "end") or message[1] != deck_id:
            raise MusterError(f"expected deck '{deck_id}' from the process reading the game, got {message[:2]}")
        if message[0] == "end":
            return
        _, _, faces, fronts, backs, findings = message
        yield DeckFaces([unpack(face) for face in faces], fronts, backs, findings)
