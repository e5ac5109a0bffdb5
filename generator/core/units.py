"""Lengths with units, and the named paper and card sizes. Inside Muster every length is in millimetres.

A value that is not what its parser reads is a MusterError with its code (bad-length, bad-dash, bad-size,
bad-paper) and no place: the caller, which knows the file, line and field, locates it."""

from __future__ import annotations

import math
import re

from . import codes
from .errors import MusterError

MM_PER = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72}
PT_PER_MM = 72 / 25.4

PAPERS = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
    "tabloid": (279.4, 431.8),
    "a5": (148.0, 210.0),
}
LANDSCAPE = "-landscape"
MIN_PAPER_MM, MAX_PAPER_MM = 50.0, 2000.0  # a postcard to a plotter's roll
PAPER_NAMES = tuple(name + turn for name in PAPERS for turn in ("", LANDSCAPE))  # what --paper and paper: name

CARD_SIZES = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "mini": (44.0, 68.0),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
    "counter-1/2in": (12.7, 12.7),
    "counter-5/8in": (15.875, 15.875),
    "counter-3/4in": (19.05, 19.05),
    "counter-1in": (25.4, 25.4),
}

MAX_LENGTH_MM = 10_000.0  # any length, either way: five times the largest paper, far beyond any drawing
MAX_DASH_MM, MAX_DASHES = 100.0, 16  # a dash pattern's on and off lengths, and how many it may alternate
NUMBER = r"(-?\d+(?:\.\d+)?|-?\.\d+|\d+/[1-9]\d*)"  # how a length's number is written: 3, -1.5, .5, 1/8
_LENGTH = re.compile(rf"^\s*{NUMBER}\s*(mm|cm|in|pt)?\s*$")
_SIZE = re.compile(r"^\s*(\S+?)\s*[x×]\s*(\S+)\s*$")


def parse_length(value, *, bare_unit: str | None = None) -> float:
    """Millimetres from '63mm', '2.5in', '1/8in', '9pt'; a bare number is taken in `bare_unit` when one is allowed."""
    if isinstance(value, bool):
        raise MusterError(f"expected a length such as 3mm, got {value!r}", code=codes.BAD_LENGTH.name)
    if isinstance(value, (int, float)):
        if bare_unit is None:
            raise _without_unit(value)
        return _bounded(float(value) * MM_PER[bare_unit], value)
    match = _LENGTH.match(str(value))
    if not match:
        raise MusterError.of(codes.BAD_LENGTH, got=value)
    unit = match.group(2) or bare_unit
    if unit is None:
        raise _without_unit(value)
    number, _, denominator = match.group(1).partition("/")
    return _bounded(float(number) / float(denominator or 1) * MM_PER[unit], value)


def _without_unit(value) -> MusterError:
    return MusterError(f"expected a length with a unit (mm, cm, in, pt), got {value!r}", code=codes.BAD_LENGTH.name)


def _bounded(mm: float, value) -> float:
    """`mm`, a length read from `value`, when it is finite and within MAX_LENGTH_MM either way."""
    if not (math.isfinite(mm) and abs(mm) <= MAX_LENGTH_MM):
        raise MusterError(f"expected a length from -{MAX_LENGTH_MM:,.0f} mm to {MAX_LENGTH_MM:,.0f} mm, got {value!r}",
                          code=codes.BAD_LENGTH.name)
    return mm


def parse_dash(value) -> tuple[float, ...]:
    """A dash pattern, "2 1" (mm on, mm off, ...), as millimetres; () for none (empty). Each length is 0 to
    MAX_DASH_MM and one at least is more than 0, as PDF requires; a MusterError (bad-dash) otherwise."""
    parts = str(value if value is not None else "").replace(",", " ").split()
    try:
        dashes = tuple(float(part) for part in parts)
    except ValueError:
        dashes = (math.nan,)
    if len(dashes) > MAX_DASHES or not all(0 <= d <= MAX_DASH_MM for d in dashes) or dashes and not any(dashes):
        raise MusterError.of(codes.BAD_DASH, most=MAX_DASHES, longest=MAX_DASH_MM, got=value)
    return dashes


def parse_size(value, named: dict[str, tuple[float, float]]) -> tuple[float, float]:
    """(width, height) in mm from a name of `named` or 'W x H' with units; a MusterError (bad-size) otherwise."""
    if isinstance(value, str) and value.strip().lower() in named:
        return named[value.strip().lower()]
    match = _SIZE.match(str(value))
    if not match:
        raise MusterError.of(codes.BAD_SIZE, names=", ".join(named), got=value)
    try:
        width, height = parse_length(match.group(1)), parse_length(match.group(2))
    except MusterError as exc:  # a side that is no length: the size is what is wrong
        raise MusterError(exc.message, code=codes.BAD_SIZE.name) from None
    if width <= 0 or height <= 0:
        raise MusterError(f"a size must be positive, got {value!r}", code=codes.BAD_SIZE.name)
    return width, height


def paper_size(value) -> tuple[float, float]:
    """(width, height) in mm of a paper: a name of PAPER_NAMES (a4, a4-landscape, ...; any case) or a custom size
    such as '300mm x 400mm' or '11in x 17in'; a MusterError (bad-paper) naming the papers when it is neither."""
    name = str(value).strip().lower()
    if name.endswith(LANDSCAPE) and name[:-len(LANDSCAPE)] in PAPERS:
        width, height = PAPERS[name[:-len(LANDSCAPE)]]
        return max(width, height), min(width, height)
    try:
        size = parse_size(value, PAPERS)
    except MusterError:
        raise MusterError.of(codes.BAD_PAPER, papers=", ".join(PAPER_NAMES), got=value) from None
    if not all(MIN_PAPER_MM <= side <= MAX_PAPER_MM for side in size):
        raise MusterError(f"each side of a paper must be {MIN_PAPER_MM:g} mm to {MAX_PAPER_MM:g} mm, got {value!r}",
                          code=codes.BAD_PAPER.name)
    return size


def paper_name(value) -> str:
    """A paper as a build records it: a named one in lower case, a custom size as written; a MusterError (bad-paper)
    when `value` is not a paper."""
    paper_size(value)
    name = str(value).strip()
    return name.lower() if name.lower() in PAPER_NAMES else name
