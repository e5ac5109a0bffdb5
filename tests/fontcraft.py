"""Fonts damaged or swollen on purpose (issue 23): the bundled DejaVu Sans Condensed with some of its tables
rewritten byte by byte, or a table directory written by hand. No font library is needed to make them."""

from __future__ import annotations

import struct
from typing import Callable

from generator.core.bundle import fonts_dir

BASE = "DejaVuSansCondensed.ttf"
E_ACUTE_GLYPH = 171  # 'é' in DejaVu Sans Condensed: a composite glyph (the letter and its accent)


def base() -> bytes:
    return (fonts_dir() / BASE).read_bytes()


def tables(data: bytes) -> dict[str, bytes]:
    """Each table's tag -> its bytes, in the directory's order."""
    count = struct.unpack_from(">H", data, 4)[0]
    found = {}
    for n in range(count):
        tag, _, offset, length = struct.unpack_from(">4sLLL", data, 12 + 16 * n)
        found[tag.decode("latin-1")] = data[offset:offset + length]
    return found


def assemble(parts: dict[str, bytes], declared: dict[str, int] | None = None, version: bytes = b"\0\1\0\0") -> bytes:
    """A font file of these tables (checksums left at 0, which no reader here checks); `declared` gives a
    table a length in the directory other than its own."""
    header = struct.pack(">4sHHHH", version, len(parts), 0, 0, 0)
    offset = len(header) + 16 * len(parts)
    directory, body = b"", b""
    for tag, table in parts.items():
        length = (declared or {}).get(tag, len(table))
        directory += struct.pack(">4sLLL", tag.encode("latin-1"), 0, offset + len(body), length)
        body += table + b"\0" * (-len(table) % 4)
    return header + directory + body


def patched(changes: dict[str, Callable[[bytes], bytes]], declared: dict[str, int] | None = None) -> bytes:
    """The base font with each table of `changes` replaced by what its function makes of it."""
    parts = tables(base())
    for tag, change in changes.items():
        parts[tag] = change(parts[tag])
    return assemble(parts, declared)


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
