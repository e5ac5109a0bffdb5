"""The fonts text is measured and drawn with: their metrics, and their registration with the PDF renderer.

Which fonts there are (the font book) is read from fonts/fonts.yaml and a game's `fonts:` on the reading side
(reading/fonts.py) and given to this module with `use`; the drawing process of a build receives it as a message
and never reads YAML. The caches here are by font name: a book that gives a name another file empties them.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace

from . import codes, sfnt, shaping
from .bundle import fonts_dir
from .errors import Location, MusterError, did_you_mean
from .inputs import FONT, read_bytes


STYLES = ("regular", "bold", "italic", "bold_italic")  # the faces of a family, as fonts.yaml and game.yaml name them
# the rulebook's own fonts, whatever its body text is set in: chapters, sections and the cover's title; running heads
RULEBOOK_DISPLAY, RULEBOOK_HEADS = "display-bold", "text"


@dataclass(frozen=True)
class FontBook:
    """The fonts layouts may name: each one's file by its name, and the families text markup switches within; the
    bundled ones, with a game's own (game.yaml `fonts:`) when a game is loaded. Travels from the reading side to
    the drawing side in a build's messages."""

    files: dict[str, Path]
    families: dict[str, dict[str, str]]
    stamps: dict[str, str] = field(default_factory=dict)  # a game font's file size and time: edited, it is read again
    faces: dict[str, int | str] = field(default_factory=dict)  # the face of a collection, when not the first
    fallbacks: dict[str, tuple[str, ...]] = field(default_factory=dict)  # a family's `fallback:` families

    def chain(self, font: str) -> tuple[str, ...]:
        """`font`, then the face of the same style of each of its family's fallback families: the fonts a
        character is printed in, the first that has a glyph for it."""
        members = self.family_of(font)
        style = next(style for style, member in members.items() if member == font)
        return (font, *(self.families[other][style] for other in self.fallbacks.get(self._family(font), ())))

    def family_of(self, font: str) -> dict[str, str]:
        """The family a font belongs to, so that markup can switch to its bold or italic face."""
        for members in self.families.values():
            if font in members.values():
                return members
        return {style: font for style in STYLES}

    def has_face(self, font: str, style: str) -> bool:
        """Whether the family of `font` has a face of its own for `style` (bold, italic), rather than one that
        stands in for it (a family without italic sets *italic* upright)."""
        members = self.family_of(font)
        return members[style] != members["regular"]

    def unknown(self, font: str) -> MusterError:
        """The error for a font name this book does not have."""
        hint = did_you_mean(font, self.files, f" (known: {', '.join(self.files)})")
        return MusterError(f"unknown font '{font}'{hint}", code="unknown-font")

    def _version(self, name: str) -> tuple:
        return self.files.get(name), self.stamps.get(name), self.faces.get(name, 0)

    def lacking(self, font: str, role: str) -> str | None:
        """The name of `font`'s family when the family has no `role` face (bold, italic) of its own, so that
        markup asking for one prints in the regular face; None when it has one."""
        members = self.family_of(font)
        return self._family(font) if members[role] == members["regular"] else None

    def _family(self, font: str) -> str:
        """The name of the family `font` belongs to (its own name when it is in none)."""
        return next((name for name, members in self.families.items() if font in members.values()), font)


_book: FontBook | None = None


def use(book: FontBook) -> None:
    """Measure and draw with the fonts of `book` from now on. A name whose file differs from the book in use
    before (two games' own fonts of one name, a font file edited between two builds) is read again."""
    global _book
    _chains.clear()
    versions = {name: book._version(name) for name in book.files}
    if any(_versions.get(name, version) != version for name, version in versions.items()):
        _forget()
    _versions.update(versions)
    _book = book


_versions: dict[str, tuple] = {}  # the file of each font name used so far


_measuring: list = []  # the caches of other modules keyed by font name (measured words)


def measuring(cache):
    """Marks an lru_cache keyed by font name, so that it is emptied with the caches here when a font name's file
    changes (use)."""
    _measuring.append(cache)
    return cache


def _forget() -> None:
    for cached in (face, unit_width, cap_height, *_measuring):
        cached.cache_clear()
    _adopted.clear()
    _present.clear()


def font_book() -> FontBook:
    """The font book in use: read by reading.fonts.read_font_book (which loading a game does), or received."""
    if _book is None:
        raise MusterError.of(codes.INTERNAL_ERROR, detail="no font book yet: reading.fonts.read_font_book() reads the "
                             "bundled one")
    return _book


@lru_cache(maxsize=None)
def face(name: str):
    """The reportlab font object for a font of the book, registered on first use."""
    from reportlab.pdfbase import pdfmetrics

    book = font_book()
    if name not in book.files:
        raise book.unknown(name)
    font = _read(book, name)
    font.face.name = _pdf_name(book, name, font.postscript)
    pdfmetrics.registerFont(font)
    if pdfmetrics.getFont(name) is not font:
        # reportlab keeps the first font registered under a name (or with the same face name inside): a font of
        # that name read again from another file must replace it, or the rulebook would draw with the old one
        pdfmetrics._fonts[name] = font
    return font


def _read(book: FontBook, name: str):
    return parsed(name, book.files[name], book.stamps.get(name, ""), book.faces.get(name, 0))


def _pdf_name(book: FontBook, name: str, postscript: bytes) -> bytes:
    """The name a font is embedded under: its PostScript name, unless a font before it in the book has that name
    (a game's copy of a bundled font, one file given for two faces), as two subsets of one name in a PDF clash.
    Then the font's own name is added: the same in every process, as the book is."""
    if name not in book.stamps:  # a bundled font
        return postscript
    names = list(book.files)
    taken = {_read(book, other).postscript for other in names[:names.index(name)]}
    return postscript + b"-" + name.encode() if postscript in taken else postscript


@lru_cache(maxsize=None)
def parsed(name: str, path: Path, stamp: str = "", face: int | str = 0):
    """Face `face` (an index or a name; 0 for a file of one font) of the font file at `path` read as the font
    `name` (not registered); a MusterError naming the file when it is not a font Muster can embed. `stamp` tells
    two versions of one file apart, so this cache is never stale. A bundled font is read back as it was read in
    an earlier run, when it was (fontcache.py)."""
    from . import fontcache

    bundled = path.parent == fonts_dir()  # Muster's own fonts are checked by its tests, not at every start
    font = fontcache.load(name, path, face) if bundled else None
    if font is None:
        font = _parse(name, path, face, bundled)
    font.postscript = font.face.name  # face.name becomes the name it is embedded under (_pdf_name)
    return font


def _parse(name: str, path: Path, face: int | str, bundled: bool):
    """The font as reportlab reads it from the file (a bundled one kept for the next run)."""
    from reportlab.pdfbase.ttfonts import TTFError, TTFont

    from . import fontcache, outlines

    data = read_bytes(path, FONT)
    try:
        index = outlines.face_index(data, face)
        if not bundled:
            sfnt.check(data, index)  # before reportlab reads a table: a damaged or hostile font is refused from its bytes
        readable, postscript = outlines.standalone(data, index)
    except MusterError as problem:
        raise MusterError(problem.message, Location(path), code=problem.code) from None
    except Exception:  # fontTools meets a damaged name table with whatever Python raises
        raise sfnt.damaged("its names cannot be read", Location(path)) from None
    handle = io.BytesIO(readable)
    handle.name = str(path)  # what reportlab calls the font file in its messages
    try:
        font = TTFont(name, handle)
    except TTFError as exc:
        raise MusterError.of(codes.BAD_FONT, Location(path), problem=exc) from None
    except Exception:  # reportlab's parser meets a damaged or cut short font with whatever Python raises
        raise MusterError.of(codes.BAD_FONT, Location(path), problem="damaged or cut short") from None
    if postscript:
        font.face.__class__ = outlines.ConvertedFace
        font.face.outlines = outlines.Outlines(data, index, Location(path))
    elif bundled:
        fontcache.store(font, path, face)
    return font


def known(name: str) -> bool:
    return name in font_book().files


class Measures:
    """What measuring text in a font needs (its glyphs' advance widths, its cap height and ascent, which
    characters it has), without the font's outlines: handed to a second process, which then measures text
    exactly as reportlab's font would, without reading the font file again."""

    def __init__(self, char_widths: dict, default_width: float, cap_height: float, ascent: float, glyphs: dict):
        self.face = SimpleNamespace(charWidths=char_widths, defaultWidth=default_width, capHeight=cap_height,
                                    ascent=ascent, charToGlyph=glyphs)

    @classmethod
    def of(cls, name: str) -> Measures:
        font = face(name).face
        return cls(font.charWidths, font.defaultWidth, font.capHeight, font.ascent, font.charToGlyph)

    def stringWidth(self, text: str, size: float) -> float:  # reportlab's own routine, on these metrics
        from reportlab.lib.rl_accel import instanceStringWidthTTF

        return instanceStringWidthTTF(self, text, size)


_adopted: dict[str, Measures] = {}


def adopt(name: str, measures: Measures) -> None:
    """Measure text in `name` by these metrics from now on, instead of reading the font file."""
    _adopted[name] = measures


def _measured(name: str):
    return _adopted.get(name) or face(name)


@lru_cache(maxsize=65536)
def unit_width(text: str, font: str) -> float:
    """Width of `text` at 1 pt, in points; text in Arabic, Hebrew or an Indic script as HarfBuzz shapes it."""
    if shaping.shaped(text):
        return shaping.unit_width(text, _measured(font).fontName)
    return _measured(font).stringWidth(text, 1.0)


@lru_cache(maxsize=None)
def cap_height(font: str) -> float:
    """Height of capitals at 1 pt, in points."""
    return (_measured(font).face.capHeight or 700) / 1000


_present: dict[str, set[str]] = {}  # each font's characters already found to have a glyph


def missing_glyphs(text: str, font: str) -> str:
    """The characters of `text` that `font` has no glyph for. Every run of text a build prints is checked, so
    the characters already found in a font are remembered and only new ones are looked up."""
    present = _present.setdefault(font, set())
    if present.issuperset(text):  # most text: no character new to the font, found without making a set of them
        return ""
    new = set(text) - present
    cmap = _measured(font).face.charToGlyph
    missing = {c for c in new if ord(c) > 32 and ord(c) not in cmap}
    present.update(new - missing)
    return "".join(sorted(missing))


_chains: dict[str, tuple[str, ...]] = {}  # each font's fallback chain in the book in use


def runs(text: str, font: str) -> list[tuple[str, str]]:
    """`text` cut into runs, each in the first font of `font`'s chain (FontBook.chain) that has a glyph for its
    characters; a character no font of the chain has stays in `font` (and is reported as missing there)."""
    chain = _chains.get(font)
    if chain is None:
        chain = _chains[font] = font_book().chain(font) if font in font_book().files else (font,)
    if len(chain) == 1 or not missing_glyphs(text, font):
        return [(text, font)]
    result: list[list[str]] = []
    for character in text:
        chosen = next((other for other in chain if not missing_glyphs(character, other)), font)
        if result and result[-1][1] == chosen:
            result[-1][0] += character
        else:
            result.append([character, chosen])
    return [(run, chosen) for run, chosen in result]
