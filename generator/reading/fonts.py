"""The font book read: the bundled one (fonts/fonts.yaml) and a game's own families (game.yaml `fonts:`), into the
core.fonts.FontBook this process then uses."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from ..core import fonts
from ..core.bundle import fonts_dir
from ..core.errors import Location, MusterError
from ..core.files import confined
from .kinds import NAME, describe
from .reader import Reader, at, join
from .sourcemap import Map, load_yaml
from .spec import FONT_FAMILY, GAME

SUFFIXES = {"regular": "", "bold": "-bold", "italic": "-italic", "bold_italic": "-bold-italic"}  # each face's name
# the face that stands in for a missing one, in order of preference
FALLBACKS = {"bold": ("regular",), "italic": ("regular",), "bold_italic": ("bold", "italic", "regular")}


@lru_cache(maxsize=1)
def _bundled() -> fonts.FontBook:
    folder = fonts_dir()
    data = load_yaml(folder / "fonts.yaml")
    if not isinstance(data, Map):
        raise MusterError("expected a mapping", Location(folder / "fonts.yaml"))
    files = {name: folder / spec["file"] for name, spec in data["fonts"].items()}
    families = {name: dict(members) for name, members in data["families"].items()}
    return fonts.FontBook(files, families)


def read_font_book() -> fonts.FontBook:
    """The bundled fonts and their families, from now on the ones this process measures and draws with."""
    book = _bundled()
    fonts.use(book)
    return book


def read_game_fonts(reader: Reader, data: Map, root: Path) -> fonts.FontBook:
    """The bundled fonts with the game's own families (`fonts:`), from now on the ones this process uses. Each of
    the game's font files is read now, so that a bad one is an error at its line of game.yaml."""
    bundled = read_font_book()
    files, families, stamps = dict(bundled.files), dict(bundled.families), {}
    for name, body, field in reader.named(data, GAME["fonts"]):
        if not isinstance(name, str) or not NAME.match(name):
            reader.error(at(data["fonts"], name), field, f"'{name}' is not a name (lower case, digits, _)",
                         "bad-name")
            continue
        reader.keys(body, field, FONT_FAMILY)
        for font in bundled.families.get(name, {}).values():  # a bundled family of that name: the game's replaces it
            files.pop(font, None)
        names = {}
        for style in fonts.STYLES:
            if style in body:
                font = name + SUFFIXES[style]
                found = reader.attempt(at(body, style), join(field, style), _font_file, root, body[style], font)
                if found is not None:
                    files[font], stamps[font] = found
                    names[style] = font
        if "regular" in names:
            families[name] = {style: names.get(style) or next(names[s] for s in FALLBACKS[style] if s in names)
                              for style in fonts.STYLES}
            for style in fonts.STYLES:  # a face not given is its stand-in under its own name too: display-bold,
                if style not in names:  # which layouts and the rulebook's headings name, is the family's regular
                    stand_in = families[name][style]
                    files[name + SUFFIXES[style]], stamps[name + SUFFIXES[style]] = files[stand_in], stamps[stand_in]
    book = fonts.FontBook(files, families, stamps)
    fonts.use(book)
    return book


def _font_file(root: Path, value, font: str) -> tuple[Path, str]:
    """The font file `value` names, read as the font `font`, and its stamp: a file in the game folder, named as
    itself (not through a link), that reportlab can embed."""
    if not isinstance(value, str):
        raise MusterError(f"expected a file name, got {describe(value)}", code="wrong-type")
    path = confined(root, value)
    if Path(os.path.normpath(root.resolve() / value)) != path:
        raise MusterError(f"'{value}' is a link: name the font file itself", code="not-a-regular-file")
    if not path.exists():
        raise MusterError(f"no file '{value}' in {root.name}/", code="missing-file")
    status = path.stat()
    stamp = f"{status.st_size}:{status.st_mtime_ns}"
    try:
        fonts.parsed(font, path, stamp)
    except MusterError as problem:  # it names the font file; the finding names the line of game.yaml
        raise MusterError(f"'{value}': {problem.message}", code=problem.code) from None
    return path, stamp
