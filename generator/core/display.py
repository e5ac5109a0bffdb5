"""The display list: plain drawing operations in millimetres, origin at the trim's top-left, y downwards.

The layout stage produces these; the renderer is the only code that turns them into PDF operators, by a painter
per kind (rendering/render.py PAINTERS), as the preview finds their boxes by a function per kind (preview/tracing.py
BOUNDS). A new kind is a class here, in `Item`, and one entry in each of those two tables.
Every item is an immutable tuple, hashable and cheap to make, so identical faces are recognised and drawn once.
Items of different kinds never compare equal: no two kinds share both their number of fields and the types of
their last field (tests/layout/test_layout.py checks it).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple, get_args

if TYPE_CHECKING:
    from .errors import Finding


class Rect(NamedTuple):
    """A box at (x, y) of w x h mm, filled and/or stroked; rounded when `radius` > 0."""

    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.25
    radius: float = 0.0


class Line(NamedTuple):
    """A straight line from (x1, y1) to (x2, y2), `width` mm wide, dashed when `dash` gives mm on and off."""

    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "#000000"
    width: float = 0.25
    dash: tuple[float, ...] = ()


class Ellipse(NamedTuple):
    """An ellipse (a circle when rx == ry) centred on (cx, cy), filled and/or stroked."""

    cx: float
    cy: float
    rx: float
    ry: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.25


class Polygon(NamedTuple):
    """A closed polygon through `points` (mm), filled and/or stroked."""

    points: tuple[tuple[float, float], ...]
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.25


class Polyline(NamedTuple):
    """An open path through `points` (mm), stroked `width` mm wide: an arc or a bent stroke of a unit symbol."""

    points: tuple[tuple[float, float], ...]
    stroke: str
    width: float


class Run(NamedTuple):
    """Text on one baseline in one font: x is the left end, y the baseline, size in points."""

    x: float
    y: float
    text: str
    font: str
    size: float
    colour: str


Fit = Literal["contain", "cover", "stretch"]
FITS: tuple[Fit, ...] = ("contain", "cover", "stretch")


class Picture(NamedTuple):
    """An image file drawn into the box at (x, y), w x h mm, centred: whole, its aspect kept (contain); filling the
    box, its aspect kept and what overflows cut off (cover); or filling the box, its aspect not kept (stretch)."""

    path: Path
    x: float
    y: float
    w: float
    h: float
    fit: Fit = "contain"


class Turned(NamedTuple):
    """Items turned clockwise by `angle` degrees about (cx, cy): an upside-down corner index, a sideways label."""

    cx: float
    cy: float
    angle: float
    items: tuple


Item = Rect | Line | Ellipse | Polygon | Run | Picture | Turned | Polyline


class Face(NamedTuple):
    """One drawn face: its trim size, how far it reaches into the bleed, and what is on it."""

    width: float
    height: float
    items: tuple[Item, ...]


@dataclass
class DeckFaces:
    """A deck laid out: its distinct faces, and for every copy of every card the index of its front and back
    (None: a counter printed on one side). A batch of a deck has the same shape: the faces first seen in it,
    indexed from the deck's first face."""

    faces: list[Face]
    fronts: list[int]
    backs: list[int | None]
    findings: list[Finding]

    def extend(self, batch: DeckFaces) -> None:
        self.faces += batch.faces
        self.fronts += batch.fronts
        self.backs += batch.backs
        self.findings += batch.findings


KINDS = get_args(Item)  # every kind of item: what the renderer paints and the preview traces, each by its kind
_KIND = {kind: number for number, kind in enumerate(KINDS)}


def pack(face: Face) -> tuple:
    """A face as plain nested tuples, each item tagged with its kind: pickled ten times faster than named tuples,
    which pickle through a Python method per item."""
    return face.width, face.height, tuple(map(_pack, face.items))


def _pack(item) -> tuple:
    if type(item) is Turned:
        return _KIND[Turned], item.cx, item.cy, item.angle, tuple(map(_pack, item.items))
    return _KIND[type(item)], *item


def unpack(packed: tuple) -> Face:
    width, height, items = packed
    return Face(width, height, tuple(map(_unpack, items)))


def _unpack(packed: tuple):
    kind = KINDS[packed[0]]
    if kind is Turned:
        return Turned(packed[1], packed[2], packed[3], tuple(map(_unpack, packed[4])))
    return tuple.__new__(kind, packed[1:])
