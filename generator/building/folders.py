"""The output folder a build or an export writes into: made without following links, refused when it is not a
folder of its own or cannot be written, and locked while one build writes into it.

Game folders and output folders are shared between users, so nothing is written through a link planted in
OUT/ (OUT itself may be a link: the user named it), and two builds of one game into one folder never interleave:
the first takes a lock file holding its pid (as git does), and the second says that one is running. The lock is
the kernel's (flock) on that file, so a lock whose holder has died is taken over as if it were not there; where
the kernel offers none (Windows), builds are not locked.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..core import codes
from ..core.errors import Location, MusterError
from ..core.files import unwritable

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None

LOCK = ".muster.lock"
NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)


def apart(out: Path, game_root: Path) -> None:
    """Refuses to build the game in `game_root` into `out` when its kit's folder would lie inside the game folder
    (as `muster build .` run in the game folder would have it) or hold it: the kit's files would be read as the
    game's, so it would never be up to date, and `muster watch` would rebuild it for ever."""
    kit, root = (out / game_root.name).resolve(), game_root.resolve()
    if kit == root or root in kit.parents or kit in root.parents:
        raise MusterError.of(codes.OUTPUT_IN_GAME, Location(out), game=root.name)


def made(out: Path, parts: tuple[str, ...]) -> bool:
    """out/<parts...> made where missing, each part a real folder; whether the last part was made now."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise _not_a_folder(out, "the", "a file, not a folder", "name a folder with --out") from None
    except OSError as exc:
        raise _unwritable(out, exc) from None
    if not out.is_dir():
        raise _not_a_folder(out, "the", "not a folder", "name a folder with --out")
    folder, created = out, False
    for part in parts:
        folder = folder / part
        try:
            folder.mkdir()
            created = True
            continue
        except FileExistsError:
            created = False
        except OSError as exc:
            raise _unwritable(folder.parent, exc) from None
        mode = os.lstat(folder).st_mode
        if stat.S_ISLNK(mode):
            raise MusterError.of(codes.OUTPUT_IS_A_LINK, Location(folder), what="this output folder", it="the link")
        if not stat.S_ISDIR(mode):
            raise _not_a_folder(folder, "this", "a file, not a folder", "Muster leaves it as it is (move it away)")
    return created


class FolderLock:
    """The lock of one output folder while a build writes into it: a file in it holding the holder's pid."""

    def __init__(self, folder: Path):
        self.path = folder / LOCK
        self.handle = None if fcntl is None else self._take(folder)

    def _take(self, folder: Path) -> int:
        for _ in range(10):  # the holder removes the file as it lets go: then the file to lock is a new one
            try:
                handle = os.open(self.path, os.O_RDWR | os.O_CREAT | NO_FOLLOW, 0o644)
            except OSError as exc:
                if stat.S_ISLNK(_mode(self.path)):
                    raise MusterError.of(codes.OUTPUT_IS_A_LINK, Location(self.path),
                                         what="the output folder's lock file", it="it") from None
                raise _unwritable(folder, exc) from None
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.read(handle, 32).decode("ascii", "replace").strip() or "?"
                os.close(handle)
                raise MusterError.of(codes.OUTPUT_LOCKED, Location(folder), pid=f" (pid {holder})") from None
            if os.fstat(handle).st_ino == _inode(self.path):
                try:
                    os.ftruncate(handle, 0)
                    os.write(handle, f"{os.getpid()}\n".encode("ascii"))
                except OSError as exc:  # a full disk, a file-size limit
                    os.close(handle)
                    self.path.unlink(missing_ok=True)
                    raise _unwritable(folder, exc) from None
                return handle
            os.close(handle)
        raise MusterError.of(codes.OUTPUT_LOCKED, Location(folder), pid="")  # others keep taking it

    def release(self) -> None:
        if self.handle is not None:
            self.path.unlink(missing_ok=True)  # while still held: whoever locks the old file next sees it gone
            os.close(self.handle)
            self.handle = None


def _not_a_folder(folder: Path, which: str, what: str, remedy: str) -> MusterError:
    return MusterError.of(codes.OUTPUT_NOT_A_FOLDER, Location(folder), which=which, what=what, remedy=remedy)


def _unwritable(folder: Path, exc: OSError) -> MusterError:
    return unwritable("write into this output folder", exc, Location(folder))


def _mode(path: Path) -> int:
    try:
        return os.lstat(path).st_mode
    except OSError:
        return 0


def _inode(path: Path) -> int | None:
    try:
        return os.lstat(path).st_ino
    except OSError:
        return None
