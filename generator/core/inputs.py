"""The one way an input file is read: checked to be a regular file within the size limit of its kind, then read
whole or handed over open.

Game folders are shared between people, so every file in one is untrusted, and every reader comes through here:
YAML files and layouts (sourcemap.load_yaml), images (resources.image_problem, svg.load), the rulebook, fonts and
spreadsheets. A named pipe, a device or a socket is refused before a byte is read (reading a pipe waits for a
writer forever, a device may never end): the file is opened without blocking and its kind taken from the open
descriptor, so that it cannot change between the check and the read. Paths reach here already confined to their
folder (files.confined).
"""

from __future__ import annotations

import os
import stat
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache, wraps
from pathlib import Path
from typing import BinaryIO, Callable, Iterator, TypeVar

from . import codes
from .errors import Location, MusterError

MIB = 1024 * 1024


@dataclass(frozen=True)
class Allowance:
    """What one kind of input file may be: what messages call it, its size limit in bytes, the code of a refusal."""

    noun: str
    limit: int
    code: str = "too-large"


YAML = Allowance("file", 4 * MIB)
RULEBOOK = Allowance("rulebook", MIB, "rulebook-too-big")
IMAGE = Allowance("image", 64 * MIB)
SVG = Allowance("SVG file", 4 * MIB)  # text: a game-icons.net icon is a few kilobytes, a detailed map a megabyte
FONT = Allowance("font file", 32 * MIB)
SHEET = Allowance("spreadsheet", 16 * MIB)
SHEET_SUFFIXES = (".csv", ".tsv", ".xlsx")  # the deck files that are spreadsheets (reading/worksheets.py)

# O_NONBLOCK: opening a named pipe with no writer returns at once instead of waiting for one; it changes nothing
# for a regular file, whose reads never block.
_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_SPECIAL = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"),
            (stat.S_ISBLK, "a device"))


@contextmanager
def opened(path: Path, allowance: Allowance) -> Iterator[BinaryIO]:
    """`path` open for reading bytes, once it is known to be a regular file no larger than the allowance; a
    MusterError naming the file otherwise."""
    where = Location(Path(path))
    try:
        descriptor = os.open(path, _FLAGS)
    except FileNotFoundError:
        raise MusterError("no such file", where, code="missing-file") from None
    except OSError as exc:  # a socket cannot be opened at all: say what it is when that is why
        kind = _kind(path)
        if kind is not None:
            _check(kind, allowance, where)
        raise MusterError(f"cannot read: {exc.strerror or exc}", where, code="unreadable") from None
    try:
        _check(os.fstat(descriptor), allowance, where)
    except BaseException:
        os.close(descriptor)
        raise
    with os.fdopen(descriptor, "rb") as handle:
        yield handle


def read_bytes(path: Path, allowance: Allowance) -> bytes:
    """The whole of `path`, checked as `opened` checks it; never more than the allowance's limit is read."""
    with opened(path, allowance) as handle:
        try:
            data = handle.read(allowance.limit + 1)
        except OSError as exc:
            raise MusterError(f"cannot read: {exc.strerror or exc}", Location(Path(path)), code="unreadable") from None
    if len(data) > allowance.limit:  # it grew after it was measured
        raise _too_large(len(data), allowance, Location(Path(path)))
    return data


Result = TypeVar("Result")


def per_version(maxsize: int) -> Callable[[Callable[[Path], Result]], Callable[[Path], Result]]:
    """A cache of what a function makes of one file, kept only while the file is the same version: keyed by its
    path and what a stat says of it (inode, size, modification and change times), never by its path alone, so a
    file edited while Muster runs (`muster watch`, the preview) is read again. A stat costs a microsecond; reading
    and checking the file again would cost far more."""

    def cache(function: Callable[[Path], Result]) -> Callable[[Path], Result]:
        @lru_cache(maxsize=maxsize)
        def of_version(path: Path, version: tuple | None) -> Result:
            return function(path)

        @wraps(function)
        def cached(path: Path) -> Result:
            return of_version(path, version_of(path))

        return cached

    return cache


def version_of(path: Path) -> tuple | None:
    """What tells one version of a file from the next without reading it; None when there is nothing to stat. The
    change time is in it as nobody can set it: a file put back with its old size and modification time (cp -p,
    an editor writing a new file and renaming it over) still differs."""
    status = _kind(path)
    return None if status is None else (status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)


def _kind(path: Path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except OSError:
        return None


def _check(status: os.stat_result, allowance: Allowance, where: Location) -> None:
    mode = status.st_mode
    if stat.S_ISDIR(mode):
        raise MusterError("expected a file, found a folder", where, code="missing-file")
    for test, kind in _SPECIAL:
        if test(mode):
            raise MusterError.of(codes.NOT_A_REGULAR_FILE, where, what=kind, hint="")
    if not stat.S_ISREG(mode):
        raise MusterError.of(codes.NOT_A_REGULAR_FILE, where, what="a file of another kind", hint="")
    if status.st_size > allowance.limit:
        raise _too_large(status.st_size, allowance, where)


def _too_large(size: int, allowance: Allowance, where: Location) -> MusterError:
    return MusterError(f"{allowance.noun} is {size:,} bytes; the limit is {allowance.limit:,}", where,
                       code=allowance.code)
