"""The fonts text is measured and drawn with: their metrics, and their registration with the PDF renderer.

Which fonts there are (the font book) is read from fonts/fonts.yaml on the reading side (reading/fonts.py) and
given to this module with `use`; the drawing process of a build receives it as a message and never reads YAML.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace

from .errors import Location, MusterError
from .inputs import FONT, read_bytes


@dataclass(frozen=True)
class FontBook:
    """The bundled fonts: each one's file by the name layouts give it, and the families text markup switches
    within. Travels from the reading side to the drawing side as the first message of a build."""

    files: dict[str, Path]
    families: dict[str, dict[str, str]]

    def family_of(self, font: str) -> dict[str, str]:
        """The family a font belongs to, so that markup can switch to its bold or italic face."""
        for members in self.families.values():
            if font in members.values():
                return members
        return {"regular": font, "bold": font, "italic": font, "bold_italic": font}

    def lacking(self, font: str, role: str) -> str | None:
        """The name of `font`'s family when the family has no `role` face (bold, italic) of its own, so that
        markup asking for one prints in the regular face; None when it has one."""
        name = next((n for n, members in self.families.items() if font in members.values()), font)
        members = self.family_of(font)
        return name if members[role] == members["regular"] else None


_book: FontBook | None = None


def use(book: FontBook) -> None:
    """Measure and draw with the fonts of `book` from now on."""
    global _book
    _book = book


def font_book() -> FontBook:
    """The font book in use: read by reading.fonts.read_font_book (which loading a game does), or received."""
    if _book is None:
        raise MusterError("no font book yet: reading.fonts.read_font_book() reads the bundled one")
    return _book


@lru_cache(maxsize=None)
def face(name: str):
    """The reportlab font object for a bundled font, registered on first use."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFError, TTFont

    book = font_book()
    if name not in book.files:
        raise MusterError(f"unknown font '{name}' (bundled: {', '.join(book.files)})", code="unknown-font")
    path = book.files[name]
    handle = io.BytesIO(read_bytes(path, FONT))
    handle.name = str(path)  # what reportlab calls the font file in its messages
    try:
        font = TTFont(name, handle)
    except TTFError as exc:
        raise MusterError(f"not a font file Muster can read: {exc}", Location(path), code="bad-font") from None
    except Exception as exc:  # reportlab's parser meets a file that is not a font with whatever Python raises
        raise MusterError(f"not a font file Muster can read ({type(exc).__name__})", Location(path),
                          code="bad-font") from None
    pdfmetrics.registerFont(font)
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
    """Width of `text` at 1 pt, in points."""
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
    new = set(text) - present
    if not new:
        return ""
    cmap = _measured(font).face.charToGlyph
    missing = {c for c in new if ord(c) > 32 and ord(c) not in cmap}
    present.update(new - missing)
    return "".join(sorted(missing))
