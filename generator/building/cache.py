"""Up-to-date checks: a game whose inputs have not changed since its last build is not built again.

The key of a build covers everything that can change its files: Muster's version, the build options, every file
in the game folder, the bundled layouts and the bundled fonts. It is stored in the game's manifest.json; a game
is fresh only when the key matches and every file the manifest lists is there with the same sha256, so a file
edited or deleted in the output folder is rebuilt too.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .. import __version__
from ..core.bundle import fonts_dir, layouts_dir


def _tree(digest, root: Path, label: str) -> None:
    for path in sorted(p for p in root.rglob("*") if p.is_file() and not p.name.startswith(".")):
        digest.update(f"{label}/{path.relative_to(root).as_posix()}\0".encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())


def input_key(game_root: Path, options: dict) -> str:
    digest = hashlib.sha256()
    digest.update(json.dumps({"muster": __version__, "options": options}, sort_keys=True).encode())
    _tree(digest, game_root, "game")
    _tree(digest, layouts_dir(), "layouts")
    _tree(digest, fonts_dir(), "fonts")
    return digest.hexdigest()


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
