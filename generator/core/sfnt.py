"""A font file's tables checked against the file and against each other, and the work they would cause weighed,
before any parser reads the font (issue 23).

A few kilobytes of `cmap` can declare every code point of Unicode a few hundred times over, which a parser
enumerates one by one; a glyph count that the glyph tables do not agree with sends reportlab's subsetter past the
end of its lists in the middle of a build. So every table a parser will walk is checked here first, from its
bytes: that it lies inside the file, that it is as long as the glyph count says it must be, that every glyph
number it holds is a glyph of the font, and that what it maps stays within the limits below (docs/limits.md).
Code points and glyph numbers are enumerated the way reportlab's parser enumerates them, since its work is what
is weighed.
"""

from __future__ import annotations

import struct
import sys
from array import array

from . import codes
from .errors import Location, MusterError

MAX_FACES = 64             # fonts in one collection (.ttc, .otc)
MAX_TABLES = 100           # tables in one font: real fonts have 10 to 30
MAX_CMAP_SUBTABLES = 32    # character maps in one cmap table
MAX_RANGES = 100_000       # segments or groups in one character map
MAX_CODES = 200_000        # code points one character map gives a glyph, counted as a parser enumerates them
MAX_COMPONENTS = 200_000   # components of composite glyphs, in all the font's glyphs

_SFNT = (b"\x00\x01\x00\x00", b"true", b"OTTO")  # TrueType outlines (twice) and PostScript (CFF) ones
POSTSCRIPT = ("CFF ", "CFF2")  # the tables of PostScript outlines
_COLLECTION = b"ttcf"

# composite glyph flags (the OpenType glyf table)
_WORDS, _SCALE, _MORE, _XY_SCALE, _TWO_BY_TWO = 0x0001, 0x0008, 0x0020, 0x0040, 0x0080


def damaged(message: str, where: Location | None = None) -> MusterError:
    return MusterError.of(codes.DAMAGED_FONT, where, problem=message)


def over(what: str, limit: int) -> MusterError:
    return MusterError.of(codes.FONT_LIMIT, what=what, limit=limit)


def check(data: bytes, face: int = 0) -> None:
    """Raises a MusterError when the font `face` of the font file `data` is damaged (`damaged-font`), would take
    more than the limits above to read (`font-limit`), is not there (`unknown-face`) or is no font (`bad-font`)."""
    view = memoryview(data)
    tables = _directory(view, _face_offset(view, face))
    head, maxp = _table(view, tables, "head", 54), _table(view, tables, "maxp", 6)
    hhea = _table(view, tables, "hhea", 36)
    units, glyphs, metrics = _u16(head, 18), _u16(maxp, 4), _u16(hhea, 34)
    if not 16 <= units <= 16384:
        raise damaged(f"head.unitsPerEm is {units}, not 16 to 16384")
    if glyphs == 0:
        raise damaged("maxp.numGlyphs is 0 (every font has at least its .notdef glyph)")
    if not 1 <= metrics <= glyphs:
        raise damaged(f"hhea.numberOfHMetrics is {metrics}, not 1 to maxp.numGlyphs ({glyphs})")
    _table(view, tables, "hmtx", 4 * metrics + 2 * (glyphs - metrics),
           f"for maxp.numGlyphs {glyphs} and hhea.numberOfHMetrics {metrics}")
    if not any(tag in tables for tag in POSTSCRIPT):
        _outlines(view, tables, glyphs, struct.unpack_from(">h", head, 50)[0])
    _cmap(_table(view, tables, "cmap", 4), glyphs)


def _u16(view, at: int) -> int:
    return struct.unpack_from(">H", view, at)[0]


def _u32(view, at: int) -> int:
    return struct.unpack_from(">L", view, at)[0]


def faces(data: bytes) -> int:
    """How many fonts the file holds: those of a collection (whose header is checked), else 1."""
    if data[:4] != _COLLECTION:
        return 1
    if len(data) < 12:
        raise damaged("its collection header is cut short")
    count = _u32(data, 8)
    if count > MAX_FACES:
        raise over(f"a collection of {count:,} fonts", MAX_FACES)
    if len(data) < 12 + 4 * count:
        raise damaged("its collection header runs past the end of the file")
    return count


def _face_offset(view: memoryview, face: int) -> int:
    """Where the table directory of font `face` begins: 0 in a single font, from the header in a collection."""
    count = faces(view)
    if not 0 <= face < count:
        raise MusterError.of(codes.UNKNOWN_FACE, face=face, faces=f"it has {count}: 0 to {count - 1}")
    return _u32(view, 12 + 4 * face) if view[:4] == _COLLECTION else 0


def _directory(view: memoryview, start: int) -> dict[str, tuple[int, int]]:
    """Each table's tag -> (offset, length), every one inside the file."""
    if start + 12 > len(view) or bytes(view[start:start + 4]) not in _SFNT:
        raise MusterError.of(codes.BAD_FONT, problem="not a TrueType or OpenType font")
    count = _u16(view, start + 4)
    if start + 12 + 16 * count > len(view):
        raise damaged("its table directory runs past the end of the file")
    if count > MAX_TABLES:
        raise over(f"{count:,} tables", MAX_TABLES)
    tables = {}
    for tag, _, offset, length in struct.iter_unpack(">4sLLL", view[start + 12:start + 12 + 16 * count]):
        name = tag.decode("latin-1")
        if offset + length > len(view):
            raise damaged(f"its '{name}' table ({length:,} bytes at {offset:,}) runs past the end of the file "
                          f"({len(view):,} bytes)")
        tables[name] = (offset, length)
    return tables


def _table(view: memoryview, tables: dict, tag: str, need: int, why: str = "") -> memoryview:
    """The table `tag`, which must hold at least `need` bytes."""
    if tag not in tables:
        raise damaged(f"it has no '{tag}' table")
    offset, length = tables[tag]
    if length < need:
        raise damaged(f"its '{tag}' table holds {length:,} bytes, {need:,} needed" + (f" {why}" if why else ""))
    return view[offset:offset + length]


def _numbers(view, code: str, count: int) -> array:
    """`count` big-endian unsigned numbers (`code` H or L) from the start of `view`."""
    numbers = array(code if code == "H" else "I")
    numbers.frombytes(view[:count * numbers.itemsize])
    if sys.byteorder == "little":
        numbers.byteswap()
    return numbers


def _outlines(view: memoryview, tables: dict, glyphs: int, loc_format: int) -> None:
    """TrueType outlines: `loca` places glyphs+1 offsets in order inside `glyf`, and every composite glyph's
    components lie inside it and are glyphs of the font."""
    if loc_format not in (0, 1):
        raise damaged(f"head.indexToLocFormat is {loc_format}, not 0 or 1")
    size = 4 if loc_format else 2
    loca = _numbers(_table(view, tables, "loca", (glyphs + 1) * size, f"for maxp.numGlyphs {glyphs}"),
                    "L" if loc_format else "H", glyphs + 1)
    glyf = _table(view, tables, "glyf", 0)
    scale = 1 if loc_format else 2
    if any(after < before for before, after in zip(loca, loca[1:])):
        raise damaged("its 'loca' table's offsets go backwards")
    if loca[-1] * scale > len(glyf):
        raise damaged(f"its 'loca' table places glyphs up to byte {loca[-1] * scale:,} of a 'glyf' table of "
                      f"{len(glyf):,}")
    components = 0
    for glyph in range(glyphs):
        start, end = loca[glyph] * scale, loca[glyph + 1] * scale
        if start == end:
            continue
        if end - start < 10:
            raise damaged(f"glyph {glyph} is {end - start} bytes long, shorter than a glyph's header")
        if struct.unpack_from(">h", glyf, start)[0] < 0:
            components += _components(glyf, glyph, start, end, glyphs)
            if components > MAX_COMPONENTS:
                raise over("components in its composite glyphs", MAX_COMPONENTS)


def _components(glyf: memoryview, glyph: int, start: int, end: int, glyphs: int) -> int:
    """How many components composite glyph `glyph` has; each must lie inside it and be a glyph of the font."""
    at, flags, count = start + 10, _MORE, 0
    while flags & _MORE:
        if at + 4 > end:
            raise damaged(f"glyph {glyph}'s components run past its end")
        flags, part = struct.unpack_from(">HH", glyf, at)
        if part >= glyphs:
            raise damaged(f"glyph {glyph} is made of glyph {part}, but maxp.numGlyphs is {glyphs}")
        at += 4 + (4 if flags & _WORDS else 2)
        at += 2 if flags & _SCALE else 4 if flags & _XY_SCALE else 8 if flags & _TWO_BY_TWO else 0
        count += 1
    if at > end:
        raise damaged(f"glyph {glyph}'s components run past its end")
    return count


def _cmap(cmap: memoryview, glyphs: int) -> None:
    """Every character map of the cmap table, whichever one a parser picks: inside the table, within the limits,
    and giving only glyphs of the font."""
    count = _u16(cmap, 2) or _u16(cmap, 0)  # reportlab reads a cmap whose two first fields are swapped so too
    if count > MAX_CMAP_SUBTABLES:
        raise over(f"{count:,} character maps in its 'cmap' table", MAX_CMAP_SUBTABLES)
    if 4 + 8 * count > len(cmap):
        raise damaged("its 'cmap' table's list of character maps runs past the table's end")
    read = set()
    for platform, encoding, offset in struct.iter_unpack(">HHL", cmap[4:4 + 8 * count]):
        if offset in read:
            continue
        read.add(offset)
        where = f"character map {platform}/{encoding}"
        codes = _character_map(cmap, offset, glyphs, where)
        if codes > MAX_CODES:
            raise over(f"its {where} gives a glyph to {codes:,} characters", MAX_CODES)


def _character_map(cmap: memoryview, offset: int, glyphs: int, where: str) -> int:
    """How many code points the character map at `offset` enumerates (once it is over MAX_CODES, a number over
    it); its glyph numbers are checked when it is not."""
    if offset + 8 > len(cmap):
        raise damaged(f"its {where} lies outside the 'cmap' table")
    form = _u16(cmap, offset)
    length = _u32(cmap, offset + 4) if form in (8, 10, 12, 13) else _u16(cmap, offset + 2)
    if offset + length > len(cmap):
        raise damaged(f"its {where} runs past the end of the 'cmap' table")
    table = cmap[offset:offset + length]
    try:
        return _MAPS.get(form, lambda *_: 0)(table, glyphs, where)
    except struct.error:
        raise damaged(f"its {where} (format {form}) is cut short") from None


def _format_0(table, glyphs: int, where: str) -> int:
    codes = min(256, glyphs, len(table) - 6)
    if codes > 0 and max(table[6:6 + codes]) >= glyphs:
        raise damaged(f"its {where} gives a glyph past maxp.numGlyphs ({glyphs})")
    return max(codes, 0)


def _format_2(table, glyphs: int, where: str) -> int:
    """High bytes, each with its subheader's entries (glyphs past the font are dropped by the parser)."""
    keys = _numbers(table[6:], "H", 256) if len(table) >= 518 else [0xFFFF]
    if 518 + 8 * (max(keys) + 1) > len(table):
        raise damaged(f"its {where} (format 2) is cut short")
    return sum(_u16(table, 518 + 8 * key + 2) if key else 1 for key in keys)


def _format_4(table, glyphs: int, where: str) -> int:
    segments = _u16(table, 6) // 2
    if 16 + 8 * segments > len(table):
        raise damaged(f"its {where} (format 4) is cut short")
    ends = _numbers(table[14:], "H", segments)
    starts = _numbers(table[16 + 2 * segments:], "H", segments)
    deltas = _numbers(table[16 + 4 * segments:], "H", segments)
    ranges_at = 16 + 6 * segments
    ranges = _numbers(table[ranges_at:], "H", segments)
    codes = sum(max(0, end - start + 1) for start, end in zip(starts, ends))
    if codes > MAX_CODES:
        return codes
    for n, (start, end, delta, offset) in enumerate(zip(starts, ends, deltas, ranges)):
        if end < start:
            continue
        if offset == 0:
            first, last = (start + delta) & 0xFFFF, (end + delta) & 0xFFFF
            if last < first or last >= glyphs:  # a range that wraps round holds glyph 0xFFFF
                raise damaged(f"its {where} gives glyphs past maxp.numGlyphs ({glyphs})")
            continue
        for code in range(start, end + 1):
            at = ranges_at + 2 * n + offset + 2 * (code - start)
            glyph = _u16(table, at) if at + 2 <= len(table) else 0  # the parser reads past the end as glyph 0
            if glyph and (glyph + delta) & 0xFFFF >= glyphs:
                raise damaged(f"its {where} gives glyph {(glyph + delta) & 0xFFFF} to U+{code:04X}, but "
                              f"maxp.numGlyphs is {glyphs}")
    return codes


def _format_6(table, glyphs: int, where: str) -> int:
    return _trimmed(table, *struct.unpack_from(">HH", table, 6), 10, glyphs, where)


def _format_10(table, glyphs: int, where: str) -> int:
    return _trimmed(table, *struct.unpack_from(">LL", table, 12), 20, glyphs, where)


def _trimmed(table, first: int, entries: int, header: int, glyphs: int, where: str) -> int:
    """Formats 6 and 10: `entries` numbers of 2 bytes after a header; reportlab numbers their glyphs from
    `first`, so those must be glyphs of the font."""
    if header + 2 * entries > len(table):
        raise damaged(f"its {where} is cut short")
    if entries and first + entries > glyphs:
        raise damaged(f"its {where} gives glyphs past maxp.numGlyphs ({glyphs})")
    return entries


def _groups(table, glyphs: int, where: str, *, constant: bool) -> int:
    """Formats 12 and 13: groups of consecutive code points, given consecutive glyphs or (13) one glyph."""
    count = _u32(table, 12)
    if count > MAX_RANGES:
        raise over(f"{count:,} groups in its {where}", MAX_RANGES)
    if 16 + 12 * count > len(table):
        raise damaged(f"its {where} (format {13 if constant else 12}) is cut short")
    groups = list(struct.iter_unpack(">LLL", table[16:16 + 12 * count]))
    codes = sum(max(0, end - start + 1) for start, end, _ in groups)
    if codes > MAX_CODES:
        return codes
    for start, end, glyph in groups:
        if end >= start and (glyph if constant else glyph + end - start) >= glyphs:
            raise damaged(f"its {where} gives glyphs past maxp.numGlyphs ({glyphs}) to U+{start:04X}")
    return codes


_MAPS = {0: _format_0, 2: _format_2, 4: _format_4, 6: _format_6, 10: _format_10,
         12: lambda table, glyphs, where: _groups(table, glyphs, where, constant=False),
         13: lambda table, glyphs, where: _groups(table, glyphs, where, constant=True)}


def tables(data: bytes, face: int = 0) -> dict[str, bytes]:
    """The tables of font `face` of a font file that `check` has passed: tag -> bytes, in the directory's order."""
    view = memoryview(data)
    directory = _directory(view, _face_offset(view, face))
    return {tag: data[offset:offset + length] for tag, (offset, length) in directory.items()}


def assemble(parts: dict[str, bytes], version: bytes = b"\0\1\0\0", declared: dict[str, int] | None = None) -> bytes:
    """A font file of these tables, each at an offset of a multiple of 4 (their checksums left at 0, which PDF
    readers do not check); `declared` gives a table a length in the directory other than its own (tests make
    damaged fonts so)."""
    count = len(parts)
    power = 1 << (count.bit_length() - 1) if count else 0
    header = struct.pack(">4sHHHH", version, count, 16 * power, max(power.bit_length() - 1, 0), 16 * (count - power))
    offset, directory, body = len(header) + 16 * count, [], []
    for tag, table in parts.items():
        length = (declared or {}).get(tag, len(table))
        directory.append(struct.pack(">4sLLL", tag.encode("latin-1"), 0, offset, length))
        body.append(table + b"\0" * (-len(table) % 4))
        offset += len(body[-1])
    return header + b"".join(directory) + b"".join(body)
