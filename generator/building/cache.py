"""Up-to-date checks: a game whose inputs have not changed since its last build is not built again.

The key of a build covers everything that can change its files: Muster's version, the build options, every file
in the game folder, the bundled layouts and the bundled fonts. It is stored in the game's manifest.json; a game
is fresh only when the key matches and every file the manifest lists is there with the same sha256, so a file
edited or deleted in the output folder is rebuilt too.

The key is made before the build reads anything, with the version (inode, size, times) of every file it hashes;
the build records it only if every one of them is still that version once it has read the game. A file saved
while a build runs (as under `muster watch`) may have been read in either version, so that build is recorded
with no key: the next one builds again, never calling stale cards up to date.

Muster's own files (the bundled layouts, fonts and profiles: 5 MB, 4 ms to hash) are hashed once per version:
their digests are kept between runs in the user's cache folder (`muster/inputs`, one entry per installation),
each with the version it was made of, and a file of another version is hashed again. Nothing is written when
Python is asked to write no bytecode, as for the other caches (core/fontcache.py).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from ..core.bundle import fonts_dir, layouts_dir, profiles_dir
from ..core.files import keep, kept, sha256
from ..core.inputs import version_of


@dataclass(frozen=True)
class Inputs:
    """The key of a game's inputs, and the version of each file it hashed, taken before the file was read."""

    key: str
    versions: tuple[tuple[Path, tuple | None], ...]

    def current_key(self) -> str | None:
        """The key while every file it hashed is still the version it hashed; else None (see above)."""
        return self.key if all(version_of(path) == version for path, version in self.versions) else None


def _tree(digest, versions: list, root: Path, label: str, known: dict | None = None) -> None:
    """Each file under `root` into `digest` and `versions`; with `known` (Muster's own files), a digest kept there
    for the file's version is taken, and one made is kept there."""
    for path in sorted(p for p in root.rglob("*") if p.is_file() and not p.name.startswith(".")):
        version = version_of(path)  # first: a save between this and the read below shows later
        versions.append((path, version))
        digest.update(f"{label}/{path.relative_to(root).as_posix()}\0".encode())
        if known is None or version is None:
            digest.update(_content_key(path))
            continue
        kept = known.get(str(path))
        if kept is None or kept[0] != version:
            kept = known[str(path)] = (version, _content_key(path))
        digest.update(kept[1])


def _content_key(path: Path) -> bytes:
    """What stands for a file's content in the key: a link's target by name, never read (the file it names is in
    the tree itself, or outside the game, where nothing may be read); a file that cannot be read by the error
    (the build says so); any other file by its sha256, read in blocks."""
    if path.is_symlink():
        return b"link\0" + os.fsencode(os.readlink(path))
    try:
        return bytes.fromhex(sha256(path))
    except OSError as exc:
        return f"unreadable\0{exc.errno}".encode()


def inputs_of(game_root: Path, options: dict) -> Inputs:
    """The key of the inputs of the game in `game_root` built with `options`, to make before the build reads it."""
    digest, versions = hashlib.sha256(), []
    digest.update(json.dumps({"muster": __version__, "options": options}, sort_keys=True).encode())
    _tree(digest, versions, game_root, "game")
    kept = _kept_digests()
    known = dict(kept)
    _tree(digest, versions, layouts_dir(), "layouts", known)
    _tree(digest, versions, fonts_dir(), "fonts", known)
    if options.get("colour") == "cmyk":  # the output profile is an input of CMYK kits only
        _tree(digest, versions, profiles_dir(), "profiles", known)
    if known != kept:
        keep("inputs", _digests_entry(), known)  # no cache folder: hashed again next time
    return Inputs(digest.hexdigest(), tuple(versions))


def _digests_entry() -> str:
    """The name of this installation's entry (by where its files lie) in the user's cache folder."""
    return f"{hashlib.sha256(os.fsencode(fonts_dir().parent)).hexdigest()}.marshal"


def _kept_digests() -> dict:
    """Muster's own files' digests as an earlier run kept them: {path: (version, digest)}; none when there is no
    entry, or it cannot be read."""
    digests = kept("inputs", _digests_entry())
    if not isinstance(digests, dict):
        return {}
    return {path: entry for path, entry in digests.items()
            if isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[1], bytes)}


def is_fresh(folder: Path, key: str) -> bool:
    if folder.is_symlink():  # never up to date: the build refuses it, and says so
        return False
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if manifest.get("inputs") != key:
        return False
    for entry in manifest.get("files", []):
        path = folder / entry.get("file", "")
        try:
            if hashlib.sha256(path.read_bytes()).hexdigest() != entry.get("sha256"):
                return False
        except OSError:
            return False
    return True
