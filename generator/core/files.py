"""Files: written so that they are never seen half-written (beside their final name, then renamed), named only
inside their folder, and fingerprinted."""

from __future__ import annotations

import hashlib
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .errors import MusterError


def atomic_target(final: Path) -> Path:
    """A temporary file beside `final`, to be renamed over it once complete."""
    final.parent.mkdir(parents=True, exist_ok=True)
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
        raise MusterError(f"'{name}' is an absolute path; name a file inside {root.name}/", code="file-outside-game")
    base = root.resolve()
    try:
        resolved = (base / candidate).resolve()
    except (RuntimeError, OSError):  # Python 3.11 says RuntimeError of a loop of links, later ones OSError (ELOOP)
        raise MusterError(f"'{name}' is a loop of symbolic links", code="link-loop") from None
    if resolved != base and base not in resolved.parents:
        raise MusterError(f"'{name}' leads outside {root.name}/", code="file-outside-game")
    return resolved


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
