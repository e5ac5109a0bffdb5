"""A game built in two processes: a second one makes the build's sequence; this one draws it meanwhile.

The second process is forked before the game is read: at the start of the `muster build` command where it can be
(prepare, from generator/__main__.py), otherwise when the build begins. It imports the stages, then waits for the
game it is to build. It runs sequence.messages (reading, checking, laying out, typesetting the rulebook) and pipes
each message over as it is made; this process, which imports only what drawing needs, consumes them with
drawing.draw, the very function a build in one process uses. Two things travel the other way: first the game and
the options, then, when the Plan goes by, the metrics of the fonts it names, which this process parses, so that
the child measures text as those fonts would without reading them again. The child writes no file.

Forked at the command's start, the child imports the stages (YAML, Jinja, the layout) while this process imports
the command line (typer) and finds what to build; forked once that is known, it imported them after. A command
that builds no game in two processes (nothing to build, several games at once, --jobs 1) releases it. This module
imports little, so that the fork comes early: what it needs of Muster is imported where used.
"""

from __future__ import annotations

import atexit
import gc
import os
import pickle
import signal
import struct
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Callable, Iterator, NamedTuple, TypeVar

if TYPE_CHECKING:
    from ..core.options import Options
    from .cache import Inputs
    from .drawing import Drawn
    from .messages import Message

_LENGTH = struct.Struct("<Q")
Result = TypeVar("Result")
PIPE_BYTES = 1 << 20


class _Child(NamedTuple):
    """A forked child waiting for its game: its process id, the read end of its messages, the write end to it."""

    pid: int
    messages: int
    down: int


_prepared: _Child | None = None  # forked by prepare, not yet given a game


def prepare() -> None:
    """Forks now the child of the next build_forked, on a machine with a second core to run it on; it is released
    when this process ends without having given it a game."""
    global _prepared
    if _prepared is None and hasattr(os, "fork") and (os.cpu_count() or 1) > 1:
        _prepared = _fork()
        atexit.register(release, wait=False)


def release(wait: bool = True) -> None:
    """Ends the child prepare forked, if no build took it: before other processes are forked, which would inherit
    its pipes, and as this process ends, when it is not waited for (1-2 ms: it ends with this process's end)."""
    global _prepared
    if _prepared is not None:
        child, _prepared = _prepared, None
        for end in (child.messages, child.down):
            os.close(end)
        _ended(child.pid, wait)


def build_forked(root: Path, out: Path, options: Options, inputs: Inputs | None = None,
                 done: Callable[[str], None] | None = None) -> Drawn:
    """The game in folder `root` built into out/<its id>/ (its folder's name), in two processes; `inputs` is the
    key of its inputs, made before they were read; `done` is told of each document as it is finished."""
    global _prepared
    child, _prepared = _prepared or _fork(), None
    down = os.fdopen(child.down, "wb")
    with os.fdopen(child.messages, "rb") as stream:
        try:
            with suppress(BrokenPipeError):  # the child has stopped: what it said, or that it said nothing, comes next
                _send(down, (root, options))
            from reportlab.pdfbase import ttfonts  # noqa: F401  (what parsing its fonts needs, while the child imports)

            from .drawing import draw

            return draw(_received(stream, down), out, options, inputs, done)
        finally:
            with suppress(BrokenPipeError):  # the child may have stopped before reading it all
                down.close()
            _ended(child.pid)


def _fork() -> _Child:
    """A child that imports the stages and waits for its game; never returns in the child."""
    read, write = os.pipe()  # child to parent: the messages
    down_read, down_write = os.pipe()  # parent to child: the game and options, then the fonts' measures
    for end in (write, down_write):
        _widen(end)
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child, which never returns from here
        with suppress(OSError):  # a group of its own, with any process it forks: ended together (_ended)
            os.setpgid(0, 0)
        os.close(read)
        os.close(down_write)
        _child(os.fdopen(write, "wb"), os.fdopen(down_read, "rb"))
    with suppress(OSError):  # set here as well, so that it is set before either process goes on
        os.setpgid(child, child)
    os.close(write)
    os.close(down_read)
    return _Child(child, read, down_write)


def _ended(pid: int, wait: bool = True) -> None:
    """The child `pid` ended, with any process it forked (its group): done or not, it has nothing more to say."""
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    with suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    if wait:
        os.waitpid(pid, 0)


def beside(work: Callable[[], Result]) -> Callable[[], Result]:
    """`work` begun now in a forked process, on another core, in the child of a build in two processes (which
    builds a game's A4 rulebook while its booklet is typeset beside it): the function returned gives its result,
    or raises what it raised, once it is done."""
    read, write = os.pipe()
    _widen(write)
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the forked process, which never returns from here
        os.close(read)
        try:
            with os.fdopen(write, "wb") as stream:
                try:
                    outcome = (True, work())
                except BaseException as exc:
                    outcome = (False, _problem(exc))
                _send(stream, outcome)
        finally:
            os._exit(0)
    os.close(write)

    def result() -> Result:
        try:
            with os.fdopen(read, "rb") as stream:
                done, value = _receive(stream)
        except EOFError:
            from ..core import codes
            from ..core.errors import MusterError

            raise MusterError.of(codes.BUILD_STOPPED) from None
        finally:
            os.waitpid(pid, 0)
        if not done:
            raise value
        return value

    return result


def _widen(pipe: int) -> None:
    """A pipe that holds about ten batches, or the measures of a few fonts (Linux), so that neither process
    waits for the other to read: the default 64 KiB hold less than one batch."""
    try:
        import fcntl

        fcntl.fcntl(pipe, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    except (ImportError, AttributeError, OSError):  # another system, or a lower limit: a narrower pipe still works
        pass


def _received(stream: BinaryIO, down: BinaryIO) -> Iterator[Message]:
    """The child's messages as they come; a problem it sends is raised here. Answers the Plan with the measures of
    the fonts it names."""
    from ..core import codes, fonts
    from ..core.errors import MusterError
    from ..core.plan import Plan

    while True:
        try:
            message = _receive(stream)
        except EOFError:
            raise MusterError.of(codes.BUILD_STOPPED) from None
        if isinstance(message, MusterError):
            raise message
        if isinstance(message, Plan):
            with suppress(BrokenPipeError):  # the child has stopped: what it said, or that it said nothing, comes next
                _send(down, {name: fonts.Measures.of(name) for name in message.fonts})
        yield message


def _child(stream: BinaryIO, down: BinaryIO) -> None:
    """Imports the stages, waits for its game, makes the build's sequence and sends each message; never returns.
    Without a game (this process ended, or released it), it ends."""
    gc.disable()  # as in a build in one process (kit.without_cycle_collection); the process ends after it
    status = 0
    try:
        from ..core import fonts
        from ..core.plan import Plan
        from .sequence import messages  # the stages: YAML, Jinja, layout, imported in this process only

        root, options = _receive(down)
        for message in messages(root, options, beside=beside):
            _send(stream, message)
            if isinstance(message, Plan):  # measure with the parent's fonts before laying anything out
                for name, measures in _receive(down).items():
                    fonts.adopt(name, measures)
    except (BrokenPipeError, EOFError, KeyboardInterrupt):  # no game, or the parent stopped: it failed, or was interrupted
        status = 1
    except BaseException as exc:
        status = 1
        with suppress(BrokenPipeError):
            _send(stream, _problem(exc))
    finally:
        try:
            stream.close()
        finally:
            os._exit(status)


def _problem(exc: BaseException):
    """What the child says of `exc`: a MusterError as it is; anything else is a bug, with its traceback."""
    import traceback

    from ..core import codes
    from ..core.errors import MusterError

    if isinstance(exc, MusterError):
        return exc
    return MusterError.of(codes.INTERNAL_ERROR, detail="building failed:\n" + traceback.format_exc())


def _send(stream: BinaryIO, message: object) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_LENGTH.pack(len(data)))
    stream.write(data)
    stream.flush()


def _receive(stream: BinaryIO) -> object:
    """The next object sent down `stream`; EOFError when the other process has stopped sending."""
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        raise EOFError
    return pickle.loads(stream.read(_LENGTH.unpack(head)[0]))
