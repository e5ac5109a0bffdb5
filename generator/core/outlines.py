"""Fonts as designers have them, made into the one TrueType font reportlab reads and embeds (issue 28): a face
of a collection (.ttc, .otc) chosen by its index or its name, and OpenType fonts with PostScript outlines (CFF,
CFF2), whose outlines are converted to TrueType ones.

A CFF font is handed to reportlab as a TrueType font of the same tables (metrics, character map, names) whose
glyphs are all empty: made from the file's bytes at once, however many glyphs it has. Only when reportlab makes
the subset a PDF embeds are the outlines of the glyphs that subset holds converted, by fontTools (cu2qu: each
cubic curve by quadratic ones within a unit of the em), each glyph once per font file version. Conversion is
deterministic: the same file gives the same bytes in every build.
"""

from __future__ import annotations

import io
import struct
from functools import lru_cache
from itertools import accumulate

from reportlab.pdfbase.ttfonts import TTFontFace

from . import codes
from .errors import Location, MusterError
from .sfnt import POSTSCRIPT, assemble, damaged, faces, over, tables

_DROPPED = (*POSTSCRIPT, "VORG")  # tables of PostScript outlines only
MAX_ERROR = 1.0  # font units a converted curve may stray from the original
MAX_RUNS = 10_000  # charstrings one glyph's outline runs, itself and every subroutine it calls (real ones: tens)
_NAME_IDS = (1, 4, 6, 16)  # family, full name, PostScript name, typographic family


def face_index(data: bytes, face: int | str) -> int:
    """The index of the face `face` names: an index (sfnt.check says whether the file has it), or one of the
    names of a face (its family, full or PostScript name); a MusterError (`unknown-face`) listing the faces when
    no face has that name."""
    if isinstance(face, int):
        return face
    names = [_names(data, index) for index in range(faces(data))]
    for index, known in enumerate(names):
        if face in known:
            return index
    listed = "; ".join(f"{index}: {', '.join(sorted(known))}" for index, known in enumerate(names))
    raise MusterError.of(codes.UNKNOWN_FACE, face=f"named '{face}'", faces=f"faces {listed}")


def _names(data: bytes, index: int) -> set[str]:
    from fontTools.ttLib import TTFont  # fontTools (30 ms to import) only for the fonts that need it

    table = TTFont(io.BytesIO(data), fontNumber=index, lazy=True)["name"]
    return {str(record) for record in table.names if record.nameID in _NAME_IDS and record.isUnicode()}


def standalone(data: bytes, face: int) -> tuple[bytes, bool]:
    """Font `face` of the file `data` as a font file of its own that reportlab can read, and whether its outlines
    are PostScript ones (its glyphs then empty, for Outlines to fill): a single TrueType font as it is, a face of a
    collection taken out of it (reportlab would name it after its index)."""
    parts = tables(data, face)
    if not any(tag in POSTSCRIPT for tag in parts):
        return (assemble(parts) if data[:4] == b"ttcf" else data), False
    parts = {tag: table for tag, table in parts.items() if tag not in _DROPPED}
    glyphs = struct.unpack_from(">H", parts["maxp"], 4)[0]
    # maxp 1.0: the TrueType fields a reader sizes its buffers by, at their largest (the real outlines come later)
    parts["maxp"] = struct.pack(">LH13H", 0x00010000, glyphs, 0xFFFF, 0xFFFF, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0)
    parts["head"] = parts["head"][:50] + struct.pack(">h", 1) + parts["head"][52:]  # long loca offsets
    parts["loca"] = bytes(4 * (glyphs + 1))
    parts["glyf"] = b""
    return assemble(dict(sorted(parts.items()))), True


class Outlines:
    """The TrueType outlines of a PostScript-outlined face, converted glyph by glyph when first asked for."""

    def __init__(self, data: bytes, face: int, where: Location):
        self.data, self.face, self.where = data, face, where
        self.converted: dict[int, bytes] = {}
        self._font = None

    def glyph(self, number: int) -> bytes:
        """Glyph `number` as the bytes of a TrueType glyph (b"" for one with no outline)."""
        if number not in self.converted:
            self.converted[number] = self._convert(number)
        return self.converted[number]

    def _convert(self, number: int) -> bytes:
        from fontTools.pens.cu2quPen import Cu2QuPen
        from fontTools.pens.ttGlyphPen import TTGlyphPen
        from fontTools.ttLib import TTFont, newTable

        if self._font is None:
            self._font = TTFont(io.BytesIO(self.data), fontNumber=self.face, lazy=True)
            self._glyphs, self._order = self._font.getGlyphSet(), self._font.getGlyphOrder()
            self._table = newTable("glyf")
        if number >= len(self._order):
            return b""
        pen = TTGlyphPen(None)
        try:
            charstring = self._glyphs.charStrings[self._order[number]]
            charstring.outlineExtractor = _bounded()
            charstring.draw(Cu2QuPen(pen, MAX_ERROR, reverse_direction=True), self._glyphs.blender)
        except MusterError as problem:
            raise MusterError(f"glyph {number}: {problem.message}", self.where, code=problem.code) from None
        except Exception:  # fontTools meets damaged charstrings with whatever Python raises
            raise damaged(f"the outline of glyph {number} cannot be read", self.where) from None
        glyph = pen.glyph()
        return glyph.compile(self._table) if glyph.numberOfContours else b""

    def glyf(self, numbers: set[int], count: int) -> tuple[bytes, list[int]]:
        """A glyf table holding the outlines of glyphs `numbers` (the others empty) of a font of `count` glyphs,
        and its loca offsets."""
        lengths = [0] * count
        pieces = []
        for number in sorted(numbers):
            outline = self.glyph(number)
            outline += b"\0" * (len(outline) % 2)
            lengths[number] = len(outline)
            pieces.append(outline)
        return b"".join(pieces), [0, *accumulate(lengths)]


@lru_cache(maxsize=1)
def _bounded():
    """fontTools' reader of charstrings, counting what one glyph runs: a few subroutines that each call the next
    twice would run for ever."""
    from fontTools.misc.psCharStrings import T2OutlineExtractor

    class Bounded(T2OutlineExtractor):
        """fontTools' outline extractor, stopped once it has run MAX_RUNS charstrings."""

        runs = 0

        def execute(self, charString):
            self.runs += 1
            if self.runs > MAX_RUNS:
                raise over(f"its outline runs over {MAX_RUNS:,} charstrings and subroutines", MAX_RUNS)
            return super().execute(charString)

    return Bounded


class ConvertedFace(TTFontFace):
    """reportlab's face of a font read from its TrueType shell (`outlines` set after it is read): when a subset
    is made, the glyf table holds the converted outlines of the glyphs the subset uses."""

    outlines: Outlines

    def makeSubset(self, subset):
        numbers = {self.charToGlyph.get(code, 0) for code in subset} | {0}
        glyf, positions = self.outlines.glyf(numbers, self.numGlyphs)
        kept = self._ttf_data, self.table["glyf"], self.glyphPos
        self._ttf_data = kept[0] + glyf
        self.table["glyf"] = {"tag": "glyf", "offset": len(kept[0]), "length": len(glyf)}
        self.glyphPos = positions
        try:
            return super().makeSubset(subset)
        finally:
            self._ttf_data, self.table["glyf"], self.glyphPos = kept
