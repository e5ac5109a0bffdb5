"""Where each drawn element came from, for the preview only: an Evaluator that also notes, for every face it
draws, each element's bounding box (mm, origin at the trim's top-left) and the layout place that drew it.

The build's Evaluator is untouched: the items drawn are the same, and the notes live beside them, keyed by face.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from ..core import fonts
from ..core.display import Ellipse, Face, Line, Picture, Polygon, Polyline, Rect, Run, Turned
from ..core.errors import Location
from ..core.registry import Registry
from ..core.units import PT_PER_MM
from ..layout.evaluation import Evaluator

Bounds = tuple[float, float, float, float]  # left, top, right, bottom
BOUNDS: Registry = Registry("bounds of")  # per kind of display item, the function giving one item's box (or None)


class Outline(NamedTuple):
    """One element as drawn on one face: its kind, the box around what it drew, and where the layout says it."""

    kind: str
    box: Bounds
    where: Location


class TracingEvaluator(Evaluator):
    """An Evaluator that records the Outlines of each face it draws in `traces` (shared by the caller)."""

    def __init__(self, *args, traces: dict[Face, tuple[Outline, ...]], **kwargs):
        super().__init__(*args, **kwargs)
        self.traces = traces
        self.drawing: list[Outline] = []

    def _face(self, context, evaluated, found) -> Face:
        self.drawing = []
        face = super()._face(context, evaluated, found)
        self.traces.setdefault(face, tuple(self.drawing))
        return face

    def _draw(self, element, values, context, found) -> list:
        drawn = super()._draw(element, values, context, found)
        box = bounds(drawn)
        if box is not None:
            self.drawing.append(Outline(element.kind, box, element.where))
        return drawn


def bounds(items) -> Bounds | None:
    """The box around display items, each by the function for its kind (BOUNDS); None for none."""
    boxes = [b for b in (BOUNDS[type(item)](item) for item in items) if b is not None]
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


@BOUNDS.register(Rect)
@BOUNDS.register(Picture)
def _box(item: Rect | Picture) -> Bounds:
    return item.x, item.y, item.x + item.w, item.y + item.h


@BOUNDS.register(Line)
def _line(item: Line) -> Bounds:
    return min(item.x1, item.x2), min(item.y1, item.y2), max(item.x1, item.x2), max(item.y1, item.y2)


@BOUNDS.register(Ellipse)
def _ellipse(item: Ellipse) -> Bounds:
    return item.cx - item.rx, item.cy - item.ry, item.cx + item.rx, item.cy + item.ry


@BOUNDS.register(Polygon)
@BOUNDS.register(Polyline)
def _points(item: Polygon | Polyline) -> Bounds:
    xs, ys = [p[0] for p in item.points], [p[1] for p in item.points]
    return min(xs), min(ys), max(xs), max(ys)


@BOUNDS.register(Run)
def _run(item: Run) -> Bounds:
    """Text by its advance and its font size."""
    size = item.size / PT_PER_MM
    width = fonts.unit_width(item.text, item.font) * size if fonts.known(item.font) else 0.5 * size * len(item.text)
    return item.x, item.y - 0.8 * size, item.x + width, item.y + 0.25 * size


@BOUNDS.register(Turned)
def _turned(item: Turned) -> Bounds | None:
    """The box around turned items: their own box's corners turned about the centre."""
    inner = bounds(item.items)
    if inner is None:
        return None
    angle = math.radians(item.angle)
    cos, sin = math.cos(angle), math.sin(angle)
    corners = [(x, y) for x in (inner[0], inner[2]) for y in (inner[1], inner[3])]
    turned = [(item.cx + (x - item.cx) * cos - (y - item.cy) * sin, item.cy + (x - item.cx) * sin + (y - item.cy) * cos)
              for x, y in corners]
    return (min(p[0] for p in turned), min(p[1] for p in turned), max(p[0] for p in turned),
            max(p[1] for p in turned))
