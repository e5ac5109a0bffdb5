"""Saves to a game's inputs, as `muster watch` waits for them: one batch of changed files per save.

What is watched is what a build's key covers (cache.py): the game's folder, the bundled layouts and the bundled
fonts. The kernel tells of changes (inotify on Linux, through watchfiles) instead of the folders being walked
again and again: a 5,400-card game's folder costs nothing to watch while nobody saves. Files the key leaves out
(names starting with a dot) and what editors write beside the file they save (vim's swap files and its 4913,
backups ending in ~, JetBrains' ___jb_ files) are not changes, and neither is anything written into the output
folder. One save is often several writes (a temporary file, then a rename over the old one): changes are
gathered until `settle` seconds pass without another, so one save makes one batch. Where the kernel cannot tell
(some network and virtual-machine folders), WATCHFILES_FORCE_POLLING=1 makes watchfiles look every 300 ms.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

from ..core.bundle import fonts_dir, layouts_dir

EDITORS = (r"^\.", r"~$", r"^4913$", r"\.___jb_...___$")  # dot files (swap files among them), vim's write test
LONGEST = 5.0  # seconds a batch may gather for while the saves go on (a tool writing many files at once)


def watched(game_root: Path) -> list[Path]:
    """The folders whose files are the inputs of the game in `game_root`."""
    return [folder for folder in (game_root, layouts_dir(), fonts_dir()) if folder.is_dir()]


def saves(game_root: Path, out: Path, settle: float, stop=None) -> Iterator[set[Path]]:
    """An empty batch as soon as the watching has begun (the first build goes then: nothing saved while it reads
    is missed), then the files changed by each save to the inputs of the game in `game_root`, for ever or until
    the threading.Event `stop` is set. Ctrl-C raises KeyboardInterrupt, as ever."""
    from watchfiles import Change, DefaultFilter
    from watchfiles._rust_notify import RustNotify  # watchfiles.watch begins only when asked for a first batch

    ignored = DefaultFilter(ignore_entity_patterns=EDITORS, ignore_paths=(str(out.resolve()),))
    polling = os.environ.get("WATCHFILES_FORCE_POLLING", "").lower() not in ("", "false", "disable", "disabled")
    with RustNotify([str(folder) for folder in watched(game_root)], False, polling, 300, True, True) as notify:
        yield set()
        while True:
            changes = notify.watch(round(LONGEST * 1000), max(1, round(settle * 1000)), 0, stop)
            if changes == "signal":
                raise KeyboardInterrupt
            if changes == "stop":
                return
            paths = {Path(path) for change, path in changes if ignored(Change(change), path)}
            if paths:
                yield paths
