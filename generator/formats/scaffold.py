"""`muster new`: a small working game folder to start from, copied from the templates shipped in the package or
from another game (a bundled one, say, which is read-only where it is installed)."""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path

from ..core import codes
from ..core.errors import Location, MusterError
from ..core.files import unwritable, writing

TEMPLATE = Path(__file__).resolve().parent / "templates" / "new-game"
NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MAX_NAME = 64
MAX_TITLE = 80


def check_name(name: str) -> str:
    """The game's name as a folder name: lower case letters, digits and single dashes between them."""
    if not NAME.match(name) or len(name) > MAX_NAME:
        raise MusterError.of(codes.BAD_ID, field="NAME", what="a game name",
                             more=f" (such as my-game), at most {MAX_NAME} characters: got '{name}'")
    return name


def title_of(name: str) -> str:
    """'desert-war-2' -> 'Desert War 2'."""
    return " ".join(part.capitalize() for part in name.split("-"))


def new_game(name: str, parent: Path, title: str | None = None, source: Path | None = None) -> Path:
    """Creates parent/name/ from the template, or as a copy of the game folder `source`, and returns it; refuses
    to touch a folder that exists.

    The files are written into a hidden folder beside the target and renamed into place when all are there, so
    an interrupted run leaves no half-made game.
    """
    check_name(name)
    if source is None:
        title = title_of(name) if title is None else title.strip()
        if not title or "\n" in title or len(title) > MAX_TITLE:
            raise MusterError(f"--title: expected one line of at most {MAX_TITLE} characters", field="--title",
                              code=codes.BAD_OPTION.name)
    elif title is not None:
        raise MusterError("--title: a copied game keeps its title; change title: in its game.yaml", field="--title",
                          code=codes.BAD_OPTION.name)
    target = Path(parent) / name
    if target.exists() or target.is_symlink():
        raise MusterError.of(codes.ALREADY_EXISTS, Location(target))
    try:
        Path(parent).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise unwritable("create the folder", exc, Location(Path(parent))) from None
    try:
        with writing(target):
            staging = Path(tempfile.mkdtemp(prefix=f".{name}.", suffix=".tmp", dir=parent))
    except OSError as exc:
        raise unwritable("create the folder", exc, Location(Path(parent))) from None
    try:
        with writing(target):
            if source is None:
                _fill_template(staging, name, title)
            else:
                _copy_game(source, staging)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(staging, 0o777 & ~mask)  # mkdtemp makes the folder private; a game folder is an ordinary one
        if target.exists():
            raise MusterError.of(codes.ALREADY_EXISTS, Location(target))
        os.rename(staging, target)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return target


def _fill_template(folder: Path, name: str, title: str) -> None:
    for source in sorted(TEMPLATE.iterdir()):
        if not source.is_file():
            continue
        text = source.read_text(encoding="utf-8")
        text = (text.replace("__TITLE_YAML__", json.dumps(title, ensure_ascii=False))
                .replace("__TITLE__", title).replace("__NAME__", name))
        (folder / source.name).write_text(text, encoding="utf-8")


def _copy_game(source: Path, folder: Path) -> None:
    """The game's regular files and folders, hidden ones and links left out (a link could lead anywhere)."""
    for top, folders, files in os.walk(source):
        here = Path(top)
        folders[:] = sorted(d for d in folders if not d.startswith(".") and not (here / d).is_symlink())
        into = folder / here.relative_to(source)
        into.mkdir(exist_ok=True)
        for file in sorted(files):
            path = here / file
            if not file.startswith(".") and not path.is_symlink() and path.is_file():
                shutil.copyfile(path, into / file)
