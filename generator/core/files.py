"""How Muster writes a file so that it is never seen half-written: beside its final name, then renamed."""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


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
