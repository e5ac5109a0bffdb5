"""The roles a layout value plays (a length, a colour, a font, a choice, ...): each role one object that reads a
value, as written or as its template wrote it, into what drawing takes, and says what the value is in the layout
schema (`schema`) and in docs/layouts.md (`docs`, the short name of the tables' value column; `description`, one
line saying how such a value is written, which the schema adds to each field's). Fields (spec.py) name their role;
nothing else knows roles.

`read(raw, field, colours)` returns the value or raises a MusterError saying what was expected, with no place
(the evaluator locates it); `colours` are the game's. A role that drawing does not read (`when:`, `repeat:`,
`as:`: the evaluator runs them) has no `read`.
"""

from __future__ import annotations

import math
import re
from typing import Callable

from ..core import codes, fonts, units
from ..core.colour import resolve
from ..core.errors import MusterError
from ..reading.spec import MAX_FIRST, MAX_GRID_LINES
from .findings import ACCEPTABLE

MAX_NUMBER = 1000  # a `number` field's (sizes in points, leading): text is shrunk to fit from it in small steps
TEMPLATE = {"$ref": "#/$defs/template"}  # a value a template writes, checked when the face is laid out
FONTS = {"$ref": "#/$defs/font"}  # the fonts a game may name: the schema's, as game.yaml's `font` keys have them


def _invalid(message: str) -> MusterError:
    return MusterError(message, code=codes.BAD_VALUE.name)


def as_value(read: Callable, *args, **keywords):
    """`read(*args, **keywords)` as a layout value: whatever its reader calls a refusal (bad-length, bad-colour),
    in a layout it is a value its field cannot hold (bad-value), with no place."""
    try:
        return read(*args, **keywords)
    except MusterError as exc:
        raise _invalid(exc.message) from None


def _converted(convert: Callable, raw):
    """`convert(raw)` (float, int), Python's refusal told as a value that will not do, in Python's words."""
    try:
        return convert(raw)
    except (ValueError, TypeError, OverflowError) as exc:
        raise _invalid(str(exc)) from None


class Length:
    """Millimetres: a bare number, or a number with a unit."""

    docs = "length"
    description = "Millimetres (a bare number), or with a unit: 2pt, 0.1in."
    pattern = rf"^\s*{units.NUMBER}\s*({'|'.join(units.MM_PER)})?\s*$"

    def read(self, raw, field, colours) -> float:
        return units.parse_length(raw, bare_unit="mm")

    def schema(self, field) -> dict:
        return {"anyOf": [{"type": "number"}, {"type": "string", "pattern": self.pattern}, TEMPLATE]}


class Number:
    """A number within bounds."""

    kind, type = "number", "number"  # as docs and messages name it; its JSON type

    def __init__(self, minimum: float, maximum: float):
        self.minimum, self.maximum = minimum, maximum
        self.docs = f"{self.kind}, {minimum} to {maximum}"
        self.description = f"A {self.kind} from {minimum} to {maximum}."

    def convert(self, raw):
        return float(raw)

    def read(self, raw, field, colours):
        number = _converted(self.convert, raw)
        if not (math.isfinite(number) and self.minimum <= number <= self.maximum):
            raise _invalid(f"expected a {self.kind} from {self.minimum} to {self.maximum}, got {raw!r}")
        return number

    def schema(self, field) -> dict:
        return {"anyOf": [{"type": self.type, "minimum": self.minimum, "maximum": self.maximum}, TEMPLATE]}


class Count(Number):
    """A whole number within bounds: a grid's columns or rows."""

    kind, type = "whole number", "integer"

    def convert(self, raw) -> int:
        return int(str(raw).strip())


class Switch:
    """true or false; a template's text is true when it says true, yes or 1."""

    docs = "true or false"
    description = ""

    def read(self, raw, field, colours) -> bool:
        return raw if isinstance(raw, bool) else str(raw).strip().lower() in ("true", "yes", "1")

    def schema(self, field) -> dict:
        return {"anyOf": [{"type": "boolean"}, TEMPLATE]}


class Colour:
    """#rrggbb, cmyk(c, m, y, k), none, black, white, or a name of the game's colours."""

    docs = "colour"
    description = ("#rrggbb, cmyk(c, m, y, k) (percent of each ink), none, black, white, or a name of the game's "
                   "colours.")

    def read(self, raw, field, colours) -> str | None:
        return resolve(raw, colours)

    def schema(self, field) -> dict:
        return {"type": "string"}


class Dash:
    """A dash pattern: lengths in mm, on and off in turn; empty for a solid line."""

    docs = "dash pattern"
    description = "Dashes and gaps in mm, in turn: \"2 1\"; empty for a solid line."

    def read(self, raw, field, colours) -> tuple[float, ...]:
        return units.parse_dash(raw)

    def schema(self, field) -> dict:
        return {"anyOf": [{"type": ["string", "number"]}, TEMPLATE]}


class Font:
    """A bundled font, or a face of a family of the game's fonts."""

    docs = "font"
    description = "A bundled font (fonts/fonts.yaml), or a face of a family of the game's fonts:."

    def read(self, raw, field, colours) -> str:
        if not fonts.known(str(raw)):
            raise _invalid(fonts.font_book().unknown(str(raw)).message)
        return str(raw)

    def schema(self, field) -> dict:
        return {"anyOf": [FONTS, TEMPLATE]}


class Text:
    """Text as written (a number is read as text); nothing is empty text."""

    docs = "text"
    description = ""

    def read(self, raw, field, colours) -> str:
        return "" if raw is None else str(raw)

    def schema(self, field) -> dict:
        return {"type": ["string", "number"]}


class Choice:
    """One of the field's choices."""

    docs = "one of"
    description = ""

    def read(self, raw, field, colours):
        choices = field.choices
        if raw not in choices:
            raise _invalid(f"{field.name}: expected {', '.join(choices[:-1])} or {choices[-1]}, got {raw!r}")
        return raw

    def schema(self, field) -> dict:
        return {"anyOf": [{"enum": list(field.choices)}, TEMPLATE]}


class Keyword:
    """One of the field's choices, as written: no template writes it (an element's kind, which files.py checks)."""

    docs = "one of"
    description = ""

    def schema(self, field) -> dict:
        return {"enum": list(field.choices)}


class Angle:
    """A quarter turn: 0, 90, 180 or 270 degrees clockwise; read as the turn it makes (450 as 90)."""

    docs = "0, 90, 180 or 270"
    description = "Degrees clockwise: 0, 90, 180 or 270."

    def read(self, raw, field, colours) -> float:
        angle = _converted(float, raw)
        if angle % 90:
            raise _invalid(f"{field.name}: expected 0, 90, 180 or 270 degrees, got {raw!r}")
        return angle % 360

    def schema(self, field) -> dict:
        return {"anyOf": [{"enum": [0, 90, 180, 270]}, TEMPLATE]}


class Expression:
    """A Jinja expression, without braces (the evaluator runs it); `true` or `false` as they are."""

    docs = "expression"
    description = "A Jinja expression, without braces: card.year is defined."

    def schema(self, field) -> dict:
        return {"type": ["string", "boolean"]}


class Accepted:
    """The warnings an element accepts for itself, checked where the layout is read (files.py); the evaluator
    reads them as written."""

    docs = "list of warnings"
    description = "Warnings this element accepts: text-too-small."

    def schema(self, field) -> dict:
        return {"type": "array", "items": {"enum": list(ACCEPTABLE)}}


class Name:
    """A lower-case name for templates to see: `let:` names and `as:`."""

    docs = "name"
    description = "A lower-case name: letters, digits and _, not first a digit."
    pattern = re.compile(r"[a-z_][a-z0-9_]*")

    def fits(self, name) -> bool:
        return isinstance(name, str) and self.pattern.fullmatch(name) is not None

    def schema(self, field=None) -> dict:
        return {"type": "string", "pattern": f"^{self.pattern.pattern}$"}


LENGTH, NUMBER, COUNT, SWITCH = Length(), Number(-MAX_NUMBER, MAX_NUMBER), Count(1, MAX_GRID_LINES), Switch()
FIRST, DASH = Count(0, MAX_FIRST), Dash()
COLOUR, FONT, TEXT, CHOICE, KEYWORD = Colour(), Font(), Text(), Choice(), Keyword()
ANGLE, EXPRESSION, NAME, ACCEPTED = Angle(), Expression(), Name(), Accepted()
