"""The bundled fonts: their names, their metrics, and their registration with the PDF renderer."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .errors import Location, MusterError
from .resources import fonts_dir
from .sourcemap import Map, load_yaml


@dataclass(frozen=True)
class FontBook:
    files: dict[str, Path]
    families: dict[str, dict[str, str]]

    def family_of(self, font: str) -> dict[str, str]:
        """The family a font belongs to, so that markup can switch to its bold or italic face."""
        for members in self.families.values():
            if font in members.values():
                return members
        return {"regular": font, "bold": font, "italic": font, "bold_italic": font}


@lru_cache(maxsize=1)
def font_book() -> FontBook:
    folder = fonts_dir()
    data = load_yaml(folder / "fonts.yaml")
    if not isinstance(data, Map):
        raise MusterError("expected a mapping", Location(folder / "fonts.yaml"))
    files = {name: folder / spec["file"] for name, spec in data["fonts"].items()}
    families = {name: dict(members) for name, members in data["families"].items()}
    return FontBook(files, families)


@lru_cache(maxsize=None)
def face(name: str):
    """The reportlab font object for a bundled font, registered on first use."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFError, TTFont

    book = font_book()
    if name not in book.files:
        raise MusterError(f"unknown font '{name}' (bundled: {', '.join(book.files)})")
    try:
        font = TTFont(name, str(book.files[name]))
    except (TTFError, OSError) as exc:
        raise MusterError(f"cannot read font file: {exc}", Location(book.files[name])) from None
    pdfmetrics.registerFont(font)
    return font


def known(name: str) -> bool:
    return name in font_book().files


@lru_cache(maxsize=65536)
def unit_width(text: str, font: str) -> float:
    """Width of `text` at 1 pt, in points."""
    return face(font).stringWidth(text, 1.0)


@lru_cache(maxsize=None)
def cap_height(font: str) -> float:
    """Height of capitals at 1 pt, in points."""
    return (face(font).face.capHeight or 700) / 1000


@lru_cache(maxsize=None)
def ascent(font: str) -> float:
    return face(font).face.ascent / 1000


@lru_cache(maxsize=65536)
def missing_glyphs(text: str, font: str) -> str:
    """The characters of `text` that `font` has no glyph for."""
    cmap = face(font).face.charToGlyph
    return "".join(sorted({c for c in text if ord(c) > 32 and ord(c) not in cmap}))
