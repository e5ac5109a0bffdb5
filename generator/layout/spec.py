"""The layout format, declared once: every kind of element, the fields each may have, and the keys every element
may have.

One entry per kind: its name, one line of what it draws, the function that draws it (elements.py), whether it
turns with `rotate:`, and its fields. One entry per field: its name, its role (roles.py: how its value is read,
and what it is in the schema), one line of description, whether it must be given, its default (as a layout would
write it, per kind: a `size` means what its kind says) and its choices. The key checks of layout files (files.py),
the evaluator's reading of every value (evaluation.py), `muster schema` (formats/schema.py) and the element tables
of docs/layouts.md (formats/reference.py; a test keeps them equal) all come from here. Kinds are entered in
ELEMENTS, which refuses a name twice; a kind refuses a field twice. Adding a kind is one entry here and its
function in elements.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable

from ..core.display import FITS
from ..core.geometry import NUMBERINGS, OFFSETS, ORIENTATIONS
from ..core.registry import Registry
from ..reading.spec import BOARD_SHAPES, Derived
from . import elements
from .roles import (ACCEPTED, ANGLE, CHOICE, COLOUR, COUNT, DASH, EXPRESSION, FIRST, FONT, KEYWORD, LENGTH, NAME, NUMBER,
                    SWITCH, TEXT, as_value)

LAYOUT_KEYS = ("elements", "let", "description")  # the keys of a layout file
MAX_REPEAT = 2000  # the items a `repeat:` may give


@dataclass(frozen=True, eq=False)
class Field:
    """One key an element may have: its role, one line of description, whether it must be given, its default (as
    a layout writes it; Derived: none, the words say what drawing does instead) and, for a choice, its choices."""

    name: str
    role: Any
    description: str
    required: bool = False
    default: Any = None
    choices: tuple | Registry = ()

    def __post_init__(self):
        if (self.role in (CHOICE, KEYWORD)) != bool(self.choices):
            raise ValueError(f"field {self.name!r}: a choice has choices, and only a choice")

    def read(self, raw, colours: dict[str, str]):
        """`raw` (as written, or as its template wrote it) as drawing takes it; a MusterError (bad-value), with no
        place, when it will not do."""
        return as_value(self.role.read, raw, self, colours)


WHEN = Field("when", EXPRESSION, "Draw the element only when this is true: 'E' in card.fronts.")
REPEAT = Field("repeat", EXPRESSION, f"Draw the element once per item of this list (at most {MAX_REPEAT:,} items), "
                                     "the item named by as:, with loop.index0, loop.index, loop.length, loop.first "
                                     "and loop.last.")
AS = Field("as", NAME, "The name of repeat:'s item.", default="item")
ROTATE = Field("rotate", ANGLE, "Turn what the element draws clockwise about the centre of its box, once drawn.")
ACCEPT = Field("accept", ACCEPTED, "Warnings this element accepts for itself, and only it: [text-too-small] for "
                                   "type set small on purpose.")
ELEMENT_FIELDS = (WHEN, REPEAT, AS, ROTATE, ACCEPT)  # what every element may have besides its kind and its kind's fields


@dataclass(frozen=True, eq=False)
class Kind:
    """One kind of element: what it draws (one line), the function that draws it, its fields in the order the
    docs list them, and whether `rotate:` turns it."""

    name: str
    description: str
    draw: Callable
    fields: tuple[Field, ...]
    rotates: bool = False

    def __post_init__(self):
        names = [field.name for field in self.fields]
        reserved = {"kind", *(field.name for field in ELEMENT_FIELDS)}
        twice = sorted({name for name in names if names.count(name) > 1 or name in reserved})
        if twice:
            raise ValueError(f"element kind {self.name!r}: {', '.join(twice)} declared twice")

    @cached_property
    def allowed(self) -> tuple[str, ...]:
        """Every key an element of this kind may have (`rotate` too: the loader says why it may not turn)."""
        return ("kind", *(field.name for field in (*ELEMENT_FIELDS, *self.fields)))

    @cached_property
    def required(self) -> tuple[str, ...]:
        return tuple(field.name for field in self.fields if field.required)

    @cached_property
    def defaults(self) -> dict[str, Any]:
        """The defaults drawing takes when a value is not given; a field without one is left out of the values."""
        return {field.name: field.default for field in self.fields
                if field.default is not None and not isinstance(field.default, Derived)}


ELEMENTS: Registry = Registry("element kind")  # name -> Kind, in the order the docs list them


def element(name: str, description: str, *fields: Field, rotates: bool = False) -> None:
    """Declares the kind `name`, drawn by the function of its name in elements.py."""
    ELEMENTS[name] = Kind(name, description, getattr(elements, name), fields, rotates)


BOX = (Field("x", LENGTH, "The left of the element's box.", required=True),
       Field("y", LENGTH, "The top of the element's box.", required=True),
       Field("w", LENGTH, "The box's width.", required=True),
       Field("h", LENGTH, "The box's height.", required=True))
PAINT = (Field("fill", COLOUR, "The colour inside.", default=Derived("none")),
         Field("stroke", COLOUR, "The outline's colour.", default=Derived("none")),
         Field("stroke_width", LENGTH, "The outline's width.", default="0.25mm"))
TEXT_FIELDS = (Field("text", TEXT, "The text, with markup: **bold**, *italic*, [[icon]].", required=True),
               Field("font", FONT, "The text's font; **bold** and *italic* use its family's faces.", default="text"),
               Field("size", NUMBER, "The size in points the text is set in; it shrinks towards min_size to fit.",
                     default=9),
               Field("min_size", NUMBER, "The smallest size in points the text may shrink to; text that does not "
                                         "fit at it is an error.", default=Derived("size")))
COLOUR_ALIGN = (Field("colour", COLOUR, "The text's colour.", default="#000000"),
                Field("align", CHOICE, "Where the lines sit across the box.", default="left",
                      choices=("left", "center", "right", "justify")))
BLEED = "true: each side of the box that touches the trim reaches out over the bleed"

element("box", "A rectangle, filled and/or outlined, its corners rounded by radius.",
        *BOX, *PAINT,
        Field("radius", LENGTH, "The corners' radius.", default=0),
        Field("bleed", SWITCH, f"{BLEED}: for backgrounds and bands.", default=False),
        rotates=True)
element("line", "A straight line.",
        Field("x1", LENGTH, "Where the line starts, from the left.", required=True),
        Field("y1", LENGTH, "Where the line starts, from the top.", required=True),
        Field("x2", LENGTH, "Where the line ends, from the left.", required=True),
        Field("y2", LENGTH, "Where the line ends, from the top.", required=True),
        Field("stroke", COLOUR, "The line's colour.", default=Derived("black")),
        Field("width", LENGTH, "The line's width.", default="0.25mm"),
        Field("dash", DASH, "Dashes and gaps in mm, in turn, up to 16 of 0 to 100 mm: \"1 1\"; empty for a "
                            "solid line.", default=""))
element("circle", "A circle, filled and/or outlined.",
        Field("cx", LENGTH, "The centre, from the left.", required=True),
        Field("cy", LENGTH, "The centre, from the top.", required=True),
        Field("r", LENGTH, "The radius.", required=True),
        *PAINT)
element("polygon", "A closed shape through the points given, filled and/or outlined.",
        Field("points", TEXT, "At least three x y pairs, in mm: \"0 0 10 0 5 8\".", required=True),
        *PAINT)
element("ellipse", "The ellipse filling its box, so that it lines up with boxes and text: an armour oval, a "
                   "counter's rim.",
        *BOX, *PAINT)
element("text", "One line, vertically centred in its box (its capitals on the box's middle), shrunk to fit its "
                "width.",
        *BOX, *TEXT_FIELDS, *COLOUR_ALIGN,
        rotates=True)
element("paragraph", "Lines broken to the box's width, shrunk until they fit its height.",
        *BOX, *TEXT_FIELDS,
        Field("leading", NUMBER, "The distance between baselines, in sizes of the text.", default=1.2),
        *COLOUR_ALIGN,
        Field("valign", CHOICE, "Where the lines sit in the box's height.", default="top",
              choices=("top", "middle", "bottom")),
        rotates=True)
element("image", "A PNG, JPEG, GIF or SVG (drawn as vectors) fitted to its box as fit: says.",
        *BOX,
        Field("src", TEXT, "The image's file, in the game folder or else the bundled layouts.", required=True),
        Field("bleed", SWITCH, f"{BLEED}, as a box's does: for full-bleed pictures.", default=False),
        Field("fit", CHOICE, "contain: the whole image, keeping its proportions, centred in the box; cover: the box "
                             "filled, keeping its proportions, cut to the box; stretch: the box filled, its "
                             "proportions given up.", default="contain", choices=FITS),
        rotates=True)
element("grid", "A square grid, or hexes, of columns x rows cells, optionally with its cells' names.",
        Field("x", LENGTH, "The left of the grid.", required=True),
        Field("y", LENGTH, "The top of the grid.", required=True),
        Field("columns", COUNT, "Columns of cells.", required=True),
        Field("rows", COUNT, "Rows of cells.", required=True),
        Field("cell", LENGTH, "A cell's size: a square's side, a hex's width across the flats.", required=True),
        Field("shape", CHOICE, "Squares or hexes.", default="square", choices=BOARD_SHAPES),
        Field("stroke", COLOUR, "The lines' colour.", default=Derived("black")),
        Field("width", LENGTH, "The lines' width.", default="0.25mm"),
        Field("fill", COLOUR, "The colour inside the cells.", default=Derived("none")),
        Field("labels", SWITCH, "true: print the cells' names, as numbering says.", default=False),
        Field("font", FONT, "The labels' font.", default="text"),
        Field("size", NUMBER, "The labels' size in points.", default=9),
        Field("colour", COLOUR, "The labels' colour.", default="#000000"),
        Field("orientation", CHOICE, "Hexes: flat (flat tops, odd columns half a cell lower) or pointy (odd rows "
                                     "half a cell right).", default="flat", choices=ORIENTATIONS),
        Field("offset", CHOICE, "Hexes: even pushes the even columns (or rows) instead of the odd ones.",
              default="odd", choices=OFFSETS),
        Field("numbering", CHOICE, "Labels: letter (column letters and row numbers around the grid), 0101 (each "
                                   "cell's number inside its top) or none.", default="letter", choices=NUMBERINGS),
        Field("first_column", FIRST, "The number of the first column (a published map's 1701 has 17).", default=1),
        Field("first_row", FIRST, "The number of the first row (1701 has 01).", default=1))
element("unit", "A NATO-style unit symbol, as large as fits its box with room for its echelon's mark above the "
                "frame (see Unit symbols).",
        *BOX,
        Field("affiliation", TEXT, "The frame: friend, hostile, neutral or unknown.", default="friend"),
        Field("type", TEXT, "What the unit is: infantry, armour, ...; types combine with +.", required=True),
        Field("echelon", TEXT, "Its size, by name or mark: company or I, division or XX, ...", default=Derived("none")),
        Field("fill", COLOUR, "The frame's colour; none for none.", default=Derived("the affiliation's")),
        Field("stroke", COLOUR, "The colour of the frame, the type and the mark.", default=Derived("black")))

KIND = Field("kind", KEYWORD, "What the element draws.", required=True, choices=ELEMENTS)  # every kind entered


def rotating() -> tuple[str, ...]:
    """The kinds `rotate:` turns."""
    return tuple(name for name, kind in ELEMENTS.items() if kind.rotates)
