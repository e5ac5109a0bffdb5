"""A game built in two processes: a second one makes the build's sequence; this one draws it meanwhile.

The build forks before it reads anything. The child runs sequence.messages (reading, checking, laying out,
typesetting the rulebook) and pipes each message over as it is made; this process, which imports only what
drawing needs, consumes them with drawing.draw, the very function a build in one process uses. One thing
travels the other way: when the Plan goes by, this process parses the fonts it names and hands their metrics
back, so the child measures text as those fonts would without reading them again. The child writes no file.
"""

from __future__ import annotations

import os
import pickle
import signal
import struct
import traceback
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Callable, Iterator

from ..core import codes, fonts
from ..core.errors import MusterError
from ..core.options import Options
from ..core.plan import Plan

if TYPE_CHECKING:
    from .cache import Inputs
    from .drawing import Drawn
    from .messages import Message

_LENGTH = struct.Struct("<Q")
PIPE_BYTES = 1 << 20


def build_forked(root: Path, out: Path, options: Options, inputs: Inputs | None = None,
                 done: Callable[[str], None] | None = None) -> Drawn:
    """The game in folder `root` built into out/<its id>/ (its folder's name), in two processes; `inputs` is the
    key of its inputs, made before they were read; `done` is told of each document as it is finished."""
    read, write = os.pipe()  # child to parent: the messages
    fonts_read, fonts_write = os.pipe()  # parent to child: the fonts' measures
    for end in (write, fonts_write):
        _widen(end)
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child, which never returns from here
        os.close(read)
        os.close(fonts_write)
        _child(root, options, os.fdopen(write, "wb"), os.fdopen(fonts_read, "rb"))
    os.close(write)
    os.close(fonts_read)
    fonts_stream = os.fdopen(fonts_write, "wb")
    with os.fdopen(read, "rb") as stream:
        try:
            from .drawing import draw  # the renderer: imported while the child reads the game

            return draw(_received(stream, fonts_stream), out, options, inputs, done)
        finally:
            with suppress(BrokenPipeError):  # the child may have stopped before reading it all
                fonts_stream.close()
            with suppress(ProcessLookupError):
                os.kill(child, signal.SIGKILL)  # done or not, it has nothing more to say
            os.waitpid(child, 0)


def _widen(pipe: int) -> None:
    """A pipe that holds about ten batches, or the measures of a few fonts (Linux), so that neither process
    waits for the other to read: the default 64 KiB hold less than one batch."""
    try:
        import fcntl

        fcntl.fcntl(pipe, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    except (ImportError, AttributeError, OSError):  # another system, or a lower limit: a narrower pipe still works
        pass


def _received(stream: BinaryIO, fonts_stream: BinaryIO) -> Iterator[Message]:
    """The child's messages as they come; a problem it sends is raised here. Answers the Plan with the measures of
    the fonts it names."""
    while True:
        try:
            message = _receive(stream)
        except EOFError:
            raise MusterError.of(codes.BUILD_STOPPED) from None
        if isinstance(message, MusterError):
            raise message
        if isinstance(message, Plan):
            with suppress(BrokenPipeError):  # the child has stopped: what it said, or that it said nothing, comes next
                _send(fonts_stream, {name: fonts.Measures.of(name) for name in message.fonts})
        yield message


def _child(root: Path, options: Options, stream: BinaryIO, fonts_stream: BinaryIO) -> None:
    """Makes the build's sequence and sends each message; never returns."""
    status = 0
    try:
        from .sequence import messages  # the stages: YAML, Jinja, layout, imported in this process only

        for message in messages(root, options):
            _send(stream, message)
            if isinstance(message, Plan):  # measure with the parent's fonts before laying anything out
                for name, measures in _receive(fonts_stream).items():
                    fonts.adopt(name, measures)
    except MusterError as exc:
        _send(stream, exc)
    except (BrokenPipeError, EOFError):  # the parent stopped: it failed, or was interrupted
        status = 1
    except BaseException:
        _send(stream, MusterError.of(codes.INTERNAL_ERROR, detail="building failed:\n" + traceback.format_exc()))
        status = 1
    finally:
        try:
            stream.close()
        finally:
            os._exit(status)


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
