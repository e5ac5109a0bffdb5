"""Staging a build's files: written under temporary names, moved into place together, or not at all."""

from __future__ import annotations

import json
import os
from contextlib import suppress
from pathlib import Path

from ..core.errors import Location
from ..core.files import atomic_target, atomic_write, unwritable, writing
from ..core.written import json_text
from .folders import FolderLock, made


class Staging:
    """New files are written beside their final names and moved into place together only when all are complete.

    The folder is out/<parts...>, checked and locked (folders.py) until discard(): no other build writes into it
    meanwhile. Until commit() nothing in it changes; a failure or a kill leaves the old files as they were (and at
    most a hidden temporary file, removed by the next build to hold the lock). On commit the old manifest goes
    first, then each file is renamed over its old version, then the new manifest is written: at every moment the
    manifest, when there is one, describes the files that are there.
    """

    def __init__(self, out: Path, *parts: str):
        self.folder = out.joinpath(*parts)
        self.created = made(out, parts)  # removed again when nothing is committed to it
        try:
            self.lock = FolderLock(self.folder)
        except BaseException:
            self._remove_if_created()
            raise
        self._sweep()  # what a build that was killed left: no other build writes here while the lock is held
        self.pending: list[tuple[Path, Path]] = []

    def path(self, name: str) -> Path:
        """Where to write the file `name`: a temporary name beside it, renamed on commit."""
        final = self.folder / name
        temporary = atomic_target(final)
        self.pending.append((temporary, final))
        return temporary

    def writing(self):
        """A context in which a write into the folder that fails for want of room (core/files.writing) is said of
        the file being written: the one the error names, else the last one asked for (files are written in turn)."""
        return writing(self._being_written)

    def _being_written(self, exc: OSError) -> Path:
        named = {str(temporary): final for temporary, final in self.pending}.get(str(exc.filename))
        return named or (self.pending[-1][1] if self.pending else self.folder)

    def commit(self, manifest: dict) -> None:
        previous = self.folder / "manifest.json"
        try:
            listed = {entry["file"] for entry in json.loads(previous.read_text(encoding="utf-8")).get("files", [])}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            listed = set()
        try:
            previous.unlink(missing_ok=True)
            for temporary, final in self.pending:
                os.replace(temporary, final)
        except OSError as exc:  # what stands in a file's place: a folder, say
            raise unwritable(f"write {Path(exc.filename or '').name} into this output folder", exc,
                             Location(self.folder)) from None
        for name in listed - {final.name for _, final in self.pending}:  # a document the game no longer has
            if _plain_name(name) and name != "manifest.json":
                with suppress(OSError):  # not a file after all (a folder, say): it is not the kit's, it stays
                    (self.folder / name).unlink(missing_ok=True)
        self.pending = []
        self.created = False
        with atomic_write(self.folder / "manifest.json") as target:
            target.write_text(json_text(manifest, indent=2) + "\n", encoding="utf-8")

    def discard(self) -> None:
        for temporary, _ in self.pending:
            temporary.unlink(missing_ok=True)
        self.pending = []
        self._sweep()
        self.lock.release()
        self._remove_if_created()

    def _remove_if_created(self) -> None:
        if self.created:
            self.created = False
            try:
                self.folder.rmdir()
            except OSError:  # something else has put files there since: they stay
                pass

    def _sweep(self) -> None:
        for leftover in self.folder.glob(".*.tmp"):
            leftover.unlink(missing_ok=True)


def _plain_name(name) -> bool:
    """Whether an old manifest's entry names a file of the folder itself (the manifest may have been edited)."""
    return isinstance(name, str) and name not in ("", ".", "..") and Path(name).name == name and "\\" not in name
