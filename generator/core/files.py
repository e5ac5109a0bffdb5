"""Files: written so that they are never seen half-written (beside their final name, then renamed), a write that
fails for want of room said in one line naming the file, named only inside their folder, and fingerprinted."""

from __future__ import annotations

import errno
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from . import codes
from .errors import Location, MusterError


# A write that fails for want of room: the disk or the user's quota is full, the file is over the process's file-size
# limit (ulimit -f; SIGXFSZ ignored), the file system is read-only. The message is said after "cannot write: ".
WRITE_FAILURES = {errno.ENOSPC: (codes.DISK_FULL, "no space left on the device"),
                  errno.EDQUOT: (codes.DISK_FULL, "the disk quota is used up"),
                  errno.EFBIG: (codes.OUTPUT_TOO_LARGE, "the file is over the file-size limit (ulimit -f)"),
                  errno.EROFS: (codes.OUTPUT_NOT_WRITABLE, "the file system is read-only")}


@contextmanager
def writing(target: Path | Callable[[OSError], Path]) -> Iterator[None]:
    """A write in the block that fails for want of room (WRITE_FAILURES) made a MusterError naming `target` (or the
    file `target(error)` names): whatever was being written is a temporary, removed as the block is left, so
    nothing was changed. Any other OSError goes on as it is."""
    try:
        yield
    except OSError as exc:
        if exc.errno not in WRITE_FAILURES:
            raise
        code, what = WRITE_FAILURES[exc.errno]
        where = target(exc) if callable(target) else target
        raise MusterError.of(code, Location(where), action="write", reason=f"{what}; nothing was changed") from None


def unwritable(action: str, exc: OSError, where: Location | None = None) -> MusterError:
    """The problem of an output Muster cannot write ("cannot {action}: {the system's reason}")."""
    return MusterError.of(codes.OUTPUT_NOT_WRITABLE, where, action=action, reason=exc.strerror or exc)


def atomic_target(final: Path) -> Path:
    """A temporary file beside `final`, to be renamed over it once complete."""
    final.parent.mkdir(parents=True, exist_ok=True)
    with writing(final):  # no room left even for an empty file: no inode, or a full quota
        handle, name = tempfile.mkstemp(prefix=f".{final.name}.", suffix=".tmp", dir=final.parent)
    os.close(handle)
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(name, 0o666 & ~mask)  # mkstemp makes files private; outputs are ordinary files
    return Path(name)


@contextmanager
def atomic_write(final: Path) -> Iterator[Path]:
    """A temporary path beside `final` to write to: renamed over `final` when the block completes, removed when
    it fails."""
    temporary = atomic_target(final)
    try:
        with writing(final):
            yield temporary
            os.replace(temporary, final)
    finally:
        temporary.unlink(missing_ok=True)


def confined(root: Path, name: str) -> Path:
    """`name` resolved below `root`; absolute paths, '..', links that lead outside and loops of links are
    refused."""
    if not isinstance(name, str) or not name or "\x00" in name:
        raise MusterError(f"expected a file name, got {name!r}", code="wrong-type")
    candidate = Path(name)
    if candidate.is_absolute():
        raise MusterError.of(codes.FILE_OUTSIDE_GAME, name=name, leads="is an absolute path; name a file inside",
                             folder=root.name)
    base = root.resolve()
    try:
        resolved = (base / candidate).resolve()
    except (RuntimeError, OSError):  # Python 3.11 says RuntimeError of a loop of links, later ones OSError (ELOOP)
        raise MusterError.of(codes.LINK_LOOP, name=name) from None
    if resolved != base and base not in resolved.parents:
        raise MusterError.of(codes.FILE_OUTSIDE_GAME, name=name, leads="leads outside", folder=root.name)
    return resolved


def user_cache(kind: str) -> Path:
    """Muster's own cache folder of `kind` (templates, fonts) in the user's: `$XDG_CACHE_HOME/muster/<kind>`, else
    `~/.cache/muster/<kind>`, made mode 0700 if need be. OSError (RuntimeError: no home folder) when there is none.
    No input names it: it is Muster's own, as a user's cache of pip or black is theirs."""
    home = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    folder = Path(home, "muster", kind)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder


def kept(kind: str, name: str):
    """The value an earlier run kept as `name` in Muster's cache folder of `kind` (keep); None when there is none, it
    cannot be read, or there is no cache folder. Entries are marshal data: no code runs as they are read."""
    import marshal

    try:
        return marshal.loads((user_cache(kind) / name).read_bytes())
    except (OSError, RuntimeError, EOFError, ValueError, TypeError):
        return None


def keep(kind: str, name: str, value) -> None:
    """Keeps `value` as `name` in Muster's cache folder of `kind` for later runs (kept), whole or not at all, whatever
    another run reads meanwhile. Nothing is written when Python is asked to write no bytecode, as for compiled
    templates; no cache folder, or one that refuses, is no error: the value is made again next time."""
    import marshal
    import sys

    if sys.dont_write_bytecode:
        return
    try:
        with atomic_write(user_cache(kind) / name) as temporary:
            temporary.write_bytes(marshal.dumps(value))
    except (OSError, RuntimeError, ValueError, MusterError):
        pass


def sha256(path: Path) -> str:
    import hashlib  # here: OpenSSL's library costs --help and the commands that only name this module 3 ms, 4 MB

    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
