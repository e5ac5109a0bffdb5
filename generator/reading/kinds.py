"""The kinds of value a key of game.yaml or a deck file holds: what each is called, and how a plain one is read.

A kind's coercion takes a value as YAML gave it and returns the value the model keeps, or raises MusterError
with a stable code (never returns an error); the Reader keeps that as a finding. Kinds whose values need more
than themselves (files below the game folder, codes of a vocabulary, templates over the constants, nested
mappings) have no coercion here: the section that owns them reads them.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Callable

from ..core import codes, fonts
from ..core.colour import COLOUR, EXAMPLES, resolve
from ..core.errors import MusterError
from ..core.options import LANGUAGE
from ..core.units import CARD_SIZES, paper_name, parse_dash, parse_length, parse_size

DECK_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
NAME = re.compile(r"^[a-z][a-z0-9_]*$")
DICE = re.compile(r"^\s*(\d{1,3})?\s*[dD]\s*(\d{1,4})\s*$")
MAX_DICE, MAX_SIDES = 20, 1000
YEAR_FROM = re.compile(r"^\s*(\d{1,4})\s*\+?\s*$")
MAX_SHOWN = 80  # characters of a value a message shows
MAX_NUMBER = 1e15  # any number of game.yaml or a deck file, either way: beyond it a float no longer counts in ones


def describe(value) -> str:
    """A value as messages name it: 'a mapping', 'a list', 'nothing', or its repr."""
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    shown = repr(value)  # a value of a million characters is shown by its start, so that the message stays a line
    return shown if len(shown) <= MAX_SHOWN else f"{shown[:MAX_SHOWN]}... ({len(shown):,} characters)"


def _text(value, key) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise MusterError(f"expected text, got {describe(value)}", code="wrong-type")


MAX_LINE_TEXT = 1000  # characters: a game's title, summary and fixed words print on a cover, in running heads


def _line(value, key) -> str:
    """Text that prints as a line or two of the rulebook's own (a title, a fixed word), at most MAX_LINE_TEXT."""
    text = _text(value, key)
    if len(text) > MAX_LINE_TEXT:
        raise MusterError(f"{len(text):,} characters; the limit is {MAX_LINE_TEXT:,}", code="too-large")
    return text


def _font(value, key) -> str:
    name = _text(value, key)
    if not fonts.known(name):
        raise fonts.font_book().unknown(name)
    return name


def _integer(value, key) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MusterError(f"expected an integer, got {describe(value)}", code="wrong-type")
    if (key.minimum is not None and value < key.minimum) or (key.maximum is not None and value > key.maximum):
        raise MusterError.of(codes.OUT_OF_RANGE, what="an integer", low=key.minimum, high=key.maximum, got=value)
    return value


def _number(value, key):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise MusterError(f"expected a number, got {describe(value)}", code="wrong-type")
    if not (math.isfinite(value) and abs(value) <= MAX_NUMBER):  # YAML's .nan and .inf, and 1e400 read as inf
        raise MusterError.of(codes.OUT_OF_RANGE, what="a finite number", low=f"-{MAX_NUMBER:.0e}",
                             high=f"{MAX_NUMBER:.0e}", got=describe(value))
    return value


def _boolean(value, key) -> bool:
    if not isinstance(value, bool):
        raise MusterError(f"expected true or false, got {describe(value)}", code="wrong-type")
    return value


def _choice(value, key):
    if value not in key.choices:
        raise MusterError(f"expected one of {', '.join(key.choices)}, got {value!r}", code="bad-choice")
    return value


def _version(value, key):
    if value != key.default:
        raise MusterError.of(codes.BAD_VERSION, got=value, expected=key.default)
    return value


def _length(value, key) -> float:
    length = parse_length(value)
    if key is not None and (key.minimum is not None and length < key.minimum
                            or key.maximum is not None and length > key.maximum):
        raise MusterError(f"expected a length from {key.minimum:g} mm to {key.maximum:g} mm, got {describe(value)}",
                          code="out-of-range")
    return length


def _dash(value, key) -> str:
    """A dash pattern as written, once it is one that can be drawn (units.parse_dash)."""
    text = _text("" if value is None else value, key)
    parse_dash(text)
    return text


def _face_size(value, key) -> tuple[float, float]:
    """A card's or counter's size, within the bounds that can be printed on any paper Muster knows."""
    size = parse_size(value, CARD_SIZES)
    if not all(key.minimum <= side <= key.maximum for side in size):
        raise MusterError(f"each side must be {key.minimum:g} mm to {key.maximum:g} mm, "
                          f"got {size[0]:g} x {size[1]:g} mm", code="out-of-range")
    return size


def _paper(value, key) -> str:
    return paper_name(value)


def _colour(value, key) -> str:
    if not isinstance(value, str) or not COLOUR.match(value):
        raise MusterError(f"expected a colour such as {EXAMPLES}, got {describe(value)}", code="bad-colour")
    return value


def named_colour(value, colours: dict[str, str]) -> str | None:
    """A colour of game.yaml that may also be a name (NAMED_COLOUR), read as layouts read one (colour.resolve)."""
    if value is not None and not isinstance(value, str):
        raise MusterError(f"expected a colour such as {EXAMPLES} or a name of colours:, got {describe(value)}",
                          code="bad-colour")
    return resolve(value, colours)


def _dice(value, key) -> tuple[tuple[int, int], ...]:
    """Kinds of roll as "2d6": (number of dice, sides) each, within MAX_DICE dice of MAX_SIDES sides."""
    if not isinstance(value, list):
        raise MusterError(f"expected a list of dice such as [2d6], got {describe(value)}", code="wrong-type")
    rolls = []
    for item in value:
        match = DICE.match(item) if isinstance(item, str) else None
        if match is None:
            raise MusterError.of(codes.BAD_DICE, got=describe(item))
        count, sides = int(match[1] or 1), int(match[2])
        if not (1 <= count <= MAX_DICE and 2 <= sides <= MAX_SIDES):
            raise MusterError(f"expected 1 to {MAX_DICE} dice of 2 to {MAX_SIDES} sides, got {item!r}",
                              code="out-of-range")
        rolls.append((count, sides))
    return tuple(dict.fromkeys(rolls))


MAX_LANGUAGES = 50


def _languages(value, key) -> tuple[str, ...]:
    """Language tags, the source language first, each once, at most MAX_LANGUAGES."""
    if not isinstance(value, list) or not value:
        raise MusterError(f"expected a list of languages such as [en, de], got {describe(value)}", code="wrong-type")
    if len(value) > MAX_LANGUAGES:
        raise MusterError(f"{len(value)} languages; the limit is {MAX_LANGUAGES}", code="too-large")
    for item in value:
        if not isinstance(item, str) or not LANGUAGE.fullmatch(item):
            raise MusterError(f"expected a language tag such as de or pt-BR, got {describe(item)}", code="bad-value")
    if len(set(value)) != len(value):
        raise MusterError("a language listed twice", code="bad-value")
    return tuple(value)


def _tokens(value, key) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, (str, int)) for item in value):
        raise MusterError("expected a list of tokens", code="wrong-type")
    return tuple(str(item) for item in value)


@dataclass(frozen=True)
class Kind:
    """What a key holds: its name (the schema's fragment is chosen by it), how docs/format.md calls it, and how
    a plain value of it is read (None: the section owning the key reads it)."""

    name: str
    docs: str
    coerce: Callable[[Any, Any], Any] | None = None

    def read(self, value, key=None):
        """`value` read as this kind (bounds and choices from `key`); a MusterError when it will not do."""
        return self.coerce(value, key)


TEXT = Kind("text", "text", _text)                                  # a number is read as its text
LINE = Kind("text", "text", _line)                                  # TEXT of at most MAX_LINE_TEXT characters
STRING = Kind("string", "text", _text)                              # as text, but the schema asks for a string
PLAYERS = Kind("players", "number or range", _text)
VERSION = Kind("version", "format version", _version)
INTEGER = Kind("integer", "integer", _integer)
NUMBER = Kind("number", "number", _number)
BOOLEAN = Kind("boolean", "true or false", _boolean)
CHOICE = Kind("choice", "one of", _choice)
FONT = Kind("font", "font", _font)
LENGTH = Kind("length", "length", _length)
DASH = Kind("dash", "dash pattern", _dash)
FACE_SIZE = Kind("size", "size", _face_size)
PAPER = Kind("paper", "paper", _paper)
HEX_COLOUR = Kind("colour", "colour", _colour)
NAMED_COLOUR = Kind("named-colour", "colour or name")                # also black, white, none, a name of colours:
TOKENS = Kind("tokens", "list of tokens", _tokens)
DICE_LIST = Kind("dice", "list of dice", _dice)
LANGUAGES = Kind("languages", "list of languages", _languages)
WORDS = Kind("words", "languages to words")                          # read by reading/loading.py
SCALAR = Kind("scalar", "number or text")
FILE = Kind("file", "file")                                          # below the game folder
FONT_FILE = Kind("font-file", "file or {file, face}")                 # read by reading/fonts.py
FACE_OF_FILE = Kind("face", "index or name")                          # read by reading/fonts.py
FAMILIES = Kind("families", "list of font families")                  # read by reading/fonts.py
FILES = Kind("files", "list of files")
STEM = Kind("stem", "file stem", _text)                              # its pattern is checked by the board
BOARD_SIZE = Kind("board-size", "size or template")
FREE = Kind("free", "mapping")                                       # any keys: data handed to layouts
MAPPING = Kind("mapping", "the keys of")                             # the keys of a Section
MAP = Kind("map", "names to")                                        # entries named freely, each of one kind
LIST = Kind("list", "list of")
ROWS = Kind("rows", "list of rows")
FORMULA = Kind("formula", "number or template")                      # a Jinja expression over constants
WHOLE_FORMULA = Kind("whole-formula", "whole number or template")
TRAIT_NAMES = Kind("trait-names", "trait or list of traits")
DECK_IDS = Kind("deck-ids", "list of deck ids")
LINES = Kind("lines", "list of line numbers")
CELLS = Kind("cells", "list of cells")
WHEN = Kind("when", "conditions")
