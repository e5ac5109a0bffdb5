"""Colour values as layouts and game.yaml give them: "#rrggbb", or "cmyk(c, m, y, k)" in percent of each ink.

A designer who chose their own ink values writes cmyk(...): a CMYK build prints exactly those, an RGB build shows
them through the output profile (rendering/inks.py). Reading checks a value against COLOUR; drawing reads it back
with `channels`."""

from __future__ import annotations

import re

from . import codes
from .errors import MusterError

_PERCENT = r"\s*(100(?:\.0+)?|\d{1,2}(?:\.\d+)?)\s*%?\s*"
CMYK = re.compile(rf"^cmyk\({_PERCENT},{_PERCENT},{_PERCENT},{_PERCENT}\)$")
COLOUR = re.compile(rf"^#[0-9a-fA-F]{{6}}$|^cmyk\({_PERCENT},{_PERCENT},{_PERCENT},{_PERCENT}\)$")
EXAMPLES = '"#3b3b3b" or "cmyk(0, 100, 100, 0)"'  # how an error message shows a colour
BASIC = {"black": "#000000", "white": "#ffffff"}  # the names every game has


def resolve(raw, colours: dict[str, str]) -> str | None:
    """The one reading of a colour wherever a game gives one (layouts, terrain, icons): #rrggbb or cmyk(c, m, y, k)
    (lower case) for a colour given so, by a name of the game's `colours`, or black or white; None for none or
    nothing; a MusterError (bad-colour) saying what it expected otherwise, for its caller to locate."""
    text = "" if raw is None else str(raw).strip()
    if text in ("", "none"):
        return None
    if COLOUR.match(text):
        return text.lower()
    if text in colours:
        return colours[text]
    if text in BASIC:
        return BASIC[text]
    raise MusterError.of(codes.BAD_COLOUR, got=text, examples=EXAMPLES)


def channels(colour: str) -> tuple[str, tuple[float, ...]]:
    """("rgb", (r, g, b)) or ("cmyk", (c, m, y, k)), each from 0 to 1, of a value COLOUR matches."""
    inks = CMYK.match(colour)
    if inks:
        return "cmyk", tuple(float(value) / 100 for value in inks.groups())
    value = int(colour[1:], 16)
    return "rgb", (((value >> 16) & 255) / 255, ((value >> 8) & 255) / 255, (value & 255) / 255)
