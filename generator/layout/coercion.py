"""A layout value's text made into what its field's kind (files.FIELDS) holds: a length, a colour, a font, ..."""

from __future__ import annotations

import math

from ..core import fonts
from ..core.colour import resolve
from ..core.units import parse_dash, parse_length
from .files import CHOICES, MAX_COUNT, MAX_FIRST

MAX_NUMBER = 1000  # a `number` field's (sizes in points, leading): text is shrunk to fit from it in small steps


def coerce(kind: str, raw, colours: dict[str, str]):
    """`raw` as a value of `kind`; ValueError (or TypeError) says what was expected. `colours`: the game's."""
    if kind == "length":
        return parse_length(raw, bare_unit="mm")
    if kind == "dash":
        return parse_dash(raw)
    if kind == "number":
        number = float(raw)
        if not (math.isfinite(number) and abs(number) <= MAX_NUMBER):
            raise ValueError(f"expected a number from -{MAX_NUMBER} to {MAX_NUMBER}, got {raw!r}")
        return number
    if kind == "bool":
        return raw if isinstance(raw, bool) else str(raw).strip().lower() in ("true", "yes", "1")
    if kind == "colour":
        return resolve(raw, colours)
    if kind == "font":
        if not fonts.known(str(raw)):
            raise ValueError(fonts.font_book().unknown(str(raw)).message)
        return str(raw)
    if kind in CHOICES:
        choices = CHOICES[kind]
        if raw not in choices:
            raise ValueError(f"{kind}: expected {', '.join(choices[:-1])} or {choices[-1]}, got {raw!r}")
        return raw
    if kind in ("count", "first"):
        least, most = (1, MAX_COUNT) if kind == "count" else (0, MAX_FIRST)
        number = int(str(raw).strip())
        if not least <= number <= most:
            raise ValueError(f"expected a whole number from {least} to {most}, got {raw!r}")
        return number
    return "" if raw is None else str(raw)
