"""Fonts damaged or swollen on purpose (issue 23): the bundled DejaVu Sans Condensed with some of its tables
rewritten byte by byte, or a table directory written by hand. No font library is needed to make them."""

from __future__ import annotations

import struct
from typing import Callable

from generator.core.bundle import fonts_dir
from generator.core.sfnt import assemble, tables

BASE = "DejaVuSansCondensed.ttf"
E_ACUTE_GLYPH = 171  # 'é' in DejaVu Sans Condensed: a composite glyph (the letter and its accent)


def base() -> bytes:
    return (fonts_dir() / BASE).read_bytes()


def patched(changes: dict[str, Callable[[bytes], bytes]], declared: dict[str, int] | None = None) -> bytes:
    """The base font with each table of `changes` replaced by what its function makes of it."""
    parts = tables(base())
    for tag, change in changes.items():
        parts[tag] = change(parts[tag])
    return assemble(parts, declared=declared)


def put(table: bytes, at: int, form: str, *values) -> bytes:
    """`table` with `values` packed (big-endian `form`) at byte `at`."""
    packed = struct.pack(">" + form, *values)
    return table[:at] + packed + table[at + len(packed):]


def cmap_of(subtable: bytes, platform: int = 3, encoding: int = 10) -> bytes:
    """A cmap table holding one character map."""
    return struct.pack(">HHHHL", 0, 1, platform, encoding, 12) + subtable


def format_12(groups: list[tuple[int, int, int]], form: int = 12) -> bytes:
    """A character map of format 12 (or 13) of these (first code, last code, glyph) groups."""
    body = b"".join(struct.pack(">LLL", *group) for group in groups)
    return struct.pack(">HHLLL", form, 0, 16 + len(body), 0, len(groups)) + body


def format_4(segments: list[tuple[int, int, int]]) -> bytes:
    """A character map of format 4 of these (first code, last code, delta) segments, the closing one added."""
    segments = segments + [(0xFFFF, 0xFFFF, 1)]
    count = len(segments)
    ends = struct.pack(f">{count}H", *(end for _, end, _ in segments))
    starts = struct.pack(f">{count}H", *(start for start, _, _ in segments))
    deltas = struct.pack(f">{count}H", *(delta & 0xFFFF for _, _, delta in segments))
    ranges = bytes(2 * count)
    body = ends + b"\0\0" + starts + deltas + ranges
    return struct.pack(">HHHHHHH", 4, 14 + len(body), 0, 2 * count, 0, 0, 0) + body


def format_2(entries: int) -> bytes:
    """A character map of format 2 whose every high byte leads to a subheader of `entries` codes."""
    keys = struct.pack(">256H", *([1] * 256))
    subheaders = struct.pack(">HHhH", 0, 1, 0, 0) + struct.pack(">HHhH", 0, entries, 0, 0)
    body = keys + subheaders + bytes(2 * 256)
    return struct.pack(">HHH", 2, 6 + len(body), 0) + body


def glyph_count(count: int) -> Callable[[bytes], bytes]:
    return lambda maxp: put(maxp, 4, "H", count)


def components_of_e_acute_at(glyph: int) -> Callable[[bytes], bytes]:
    """Makes the glyf table's 'é' made of `glyph` (its first component). Needs the base loca (long offsets)."""
    loca = tables(base())["loca"]
    start = struct.unpack_from(">L", loca, 4 * E_ACUTE_GLYPH)[0]
    return lambda glyf: put(glyf, start + 12, "H", glyph)


# --- fonts made from nothing, as designers have them: PostScript (CFF) outlines, collections ------------------------

PRINTABLE = [chr(code) for code in range(0x20, 0x7F)]


def built(family: str, *, postscript: bool, style: str = "Regular", characters=PRINTABLE) -> bytes:
    """A font of `characters`, each a bar of its own width (the space empty), with CFF outlines or TrueType ones."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    names = {character: f"uni{ord(character):04X}" for character in characters}
    order = [".notdef", *names.values()]
    advances = {".notdef": 500, **{name: 300 + 40 * (ord(c) % 9) for c, name in names.items()}}
    builder = FontBuilder(1000, isTTF=not postscript)
    builder.setupGlyphOrder(order)
    builder.setupCharacterMap({ord(character): name for character, name in names.items()})
    outlines = {}
    for name in order:
        pen = T2CharStringPen(advances[name], None) if postscript else TTGlyphPen(None)
        if name != "uni0020":
            right = advances[name] - 50
            pen.moveTo((50, 0))
            if postscript:  # a cubic curve, for the conversion to make quadratic
                pen.curveTo((50, 400), (right, 400), (right, 700))
            else:
                pen.lineTo((right, 700))
            pen.lineTo((right, 0))
            pen.closePath()
        outlines[name] = pen.getCharString() if postscript else pen.glyph()
    postscript_name = f"{family.replace(' ', '')}-{style}"
    if postscript:
        builder.setupCFF(postscript_name, {"FullName": f"{family} {style}"}, outlines, {})
    else:
        builder.setupGlyf(outlines)
    builder.setupHorizontalMetrics({name: (advances[name], 50) for name in order})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": family, "styleName": style, "psName": postscript_name})
    builder.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200, sCapHeight=700)
    builder.setupPost()
    return saved(builder.font)


def saved(font) -> bytes:
    import io

    out = io.BytesIO()
    font.recalcTimestamp = False
    font.save(out)
    return out.getvalue()


def collection(*members: bytes) -> bytes:
    """A font collection (.ttc) of these fonts, in this order."""
    import io

    from fontTools.ttLib import TTCollection, TTFont

    fonts = TTCollection()
    fonts.fonts = [TTFont(io.BytesIO(member)) for member in members]
    out = io.BytesIO()
    fonts.save(out)
    return out.getvalue()


def subroutine_bomb(depth: int = 40) -> bytes:
    """A CFF font whose every glyph calls a global subroutine that calls the next one twice, `depth` deep: a
    few hundred bytes that draw for ever."""
    import io

    from fontTools.misc.psCharStrings import T2CharString
    from fontTools.ttLib import TTFont

    font = TTFont(io.BytesIO(built("House Bomb", postscript=True)))
    cff = font["CFF "].cff
    bias = 107  # the number of global subroutines below 1,240 is biased so
    subroutines = cff.GlobalSubrs
    for level in range(depth):
        program = [level + 1 - bias, "callgsubr"] * 2 if level + 1 < depth else [0, 10, "rlineto"]
        subroutines.append(T2CharString(program=program + ["return"], globalSubrs=subroutines))
    top = cff.topDictIndex[0]
    for name in top.CharStrings.keys():
        top.CharStrings[name] = T2CharString(program=[0, 0, "rmoveto", -bias, "callgsubr", "endchar"],
                                             private=top.Private, globalSubrs=subroutines)
    font.recalcBBoxes = False  # measuring the glyphs would run them
    return saved(font)
