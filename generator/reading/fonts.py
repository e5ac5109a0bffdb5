"""The font book read: the bundled one (fonts/fonts.yaml) and a game's own families (game.yaml `fonts:`), into the
core.fonts.FontBook this process then uses."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from ..core import codes, fonts
from ..core.bundle import fonts_dir
from ..core.errors import Location, MusterError, did_you_mean
from ..core.files import confined
from .kinds import NAME, describe
from .reader import Reader, at, join
from .sourcemap import Map, Seq, load_yaml
from .spec import FONT_FACE, FONT_FAMILY, GAME

SUFFIXES = {"regular": "", "bold": "-bold", "italic": "-italic", "bold_italic": "-bold-italic"}  # each face's name
# the face that stands in for a missing one, in order of preference
FALLBACKS = {"bold": ("regular",), "italic": ("regular",), "bold_italic": ("bold", "italic", "regular")}


@lru_cache(maxsize=1)
def _bundled() -> fonts.FontBook:
    folder = fonts_dir()
    data = load_yaml(folder / "fonts.yaml")
    if not isinstance(data, Map):
        raise MusterError.of(codes.WRONG_TYPE, Location(folder / "fonts.yaml"), expected="a mapping",
                             got=describe(data))
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
    files, families, stamps, faces, chains = dict(bundled.files), dict(bundled.families), {}, {}, {}
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
                found = reader.attempt(at(body, style), join(field, style), _font_file, reader, root, body[style],
                                       font, join(field, style))
                if found is not None:
                    files[font], stamps[font], faces[font] = found
                    names[style] = font
        if "regular" in names:
            families[name] = {style: names.get(style) or next(names[s] for s in FALLBACKS[style] if s in names)
                              for style in fonts.STYLES}
            for style in fonts.STYLES:  # a face not given is its stand-in under its own name too: display-bold,
                if style not in names:  # which layouts and the rulebook's headings name, is the family's regular
                    stand_in, font = families[name][style], name + SUFFIXES[style]
                    files[font], stamps[font], faces[font] = files[stand_in], stamps[stand_in], faces[stand_in]
            if "fallback" in body:
                chains[name] = (body["fallback"], at(body, "fallback"), join(field, "fallback"))
    fallbacks = {name: _fallback(reader, name, *chain, families) for name, chain in chains.items()}
    book = fonts.FontBook(files, families, stamps, {font: face for font, face in faces.items() if face != 0},
                          {name: chain for name, chain in fallbacks.items() if chain})
    fonts.use(book)
    return book


def _fallback(reader: Reader, name: str, value, where, field: str, families: dict) -> tuple[str, ...]:
    """The families of family `name`'s `fallback:` (a list of the names of other families, bundled or the game's);
    those that are not, reported."""
    if not isinstance(value, Seq):
        reader.error(where, field, f"expected a list of font families, got {describe(value)}", "wrong-type")
        return ()
    chain = []
    for index, other in enumerate(value):
        if isinstance(other, str) and other in families and other != name:
            chain.append(other)
            continue
        known = [family for family in families if family != name]
        hint = did_you_mean(str(other), known, f" (known: {', '.join(known)})")
        reader.error(value.item_where[index], join(field, index), f"'{other}' is not another font family{hint}",
                     "unknown-font")
    return tuple(chain)


def _font_file(reader: Reader, root: Path, value, font: str, field: str) -> tuple[Path, str, int | str] | None:
    """The font file `value` names (a file name, or {file, face}) read as the font `font`, its stamp and the face
    of it: a file in the game folder, named as itself (not through a link), that Muster can embed. None when
    {file, face} has no file (reported as a missing key)."""
    face = 0
    if isinstance(value, Map):
        reader.keys(value, field, FONT_FACE)
        if "file" not in value:
            return None
        face = value.get("face", 0)
        if isinstance(face, bool) or not (isinstance(face, int) and 0 <= face or isinstance(face, str) and face):
            raise MusterError(f"face: expected an index from 0 or a name, got {describe(face)}", code="wrong-type")
        value = value.get("file")
    if not isinstance(value, str):
        raise MusterError(f"expected a file name, got {describe(value)}", code="wrong-type")
    path = confined(root, value)
    if Path(os.path.normpath(root.resolve() / value)) != path:
        raise MusterError.of(codes.NOT_A_REGULAR_FILE, what=f"'{value}' is a link",
                             hint=" (name the font file itself)")
    if not path.exists():
        raise MusterError.of(codes.MISSING_FILE, name=value, folder=root.name)
    status = path.stat()
    stamp = f"{status.st_size}:{status.st_mtime_ns}"
    try:
        fonts.parsed(font, path, stamp, face)
    except MusterError as problem:  # it names the font file; the finding names the line of game.yaml
        raise MusterError(f"'{value}': {problem.message}", code=problem.code) from None
    return path, stamp, face
