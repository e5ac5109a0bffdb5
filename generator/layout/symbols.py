"""NATO-style land unit symbols (after APP-6): the bundled set in symbols.yaml, and each symbol drawn as display
items at any size, in a layout's box (`kind: unit`) or one em high in text (`[[nato:armour]]`).

A symbol is a frame by affiliation, the shapes of one or more unit types inside it, and its echelon's mark above it.
The shapes are data; this module only reads them, carries frame-relative shapes onto each frame and scales.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from ..core.display import Ellipse, Line, Polygon, Polyline, Rect
from ..core import codes
from ..core.errors import Location, MusterError, did_you_mean
from ..core.inline import SYMBOL_PREFIX

DATA = Path(__file__).with_name("symbols.yaml")
ARC_STEP = 10.0  # degrees: an arc is drawn as straight pieces this wide, finer than the eye sees at counter size
STANDARD = "standard"  # a unit element's fill when none is given: its affiliation's colour in the standard

Point = tuple[float, float]


@dataclass(frozen=True)
class Frame:
    """An affiliation's frame: its outline, the box its frame-relative shapes fill, the point a headquarters'
    staff leaves it, and its standard fill colour (frame units)."""

    outline: tuple[Point, ...]
    box: tuple[float, float, float, float]
    staff: Point
    fill: str

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        xs, ys = [p[0] for p in self.outline], [p[1] for p in self.outline]
        return min(xs), min(ys), max(xs), max(ys)


@dataclass(frozen=True)
class SymbolSet:
    """The bundled symbols: frames by affiliation, shapes by unit type and by echelon (marks are also names)."""

    weight: float
    band: float
    frames: dict[str, Frame]
    types: dict[str, tuple[dict, ...]]
    echelons: dict[str, tuple[dict, ...]]
    marks: dict[str, str]  # an echelon's mark (III) to its name (regiment)

    def frame(self, affiliation: str, where: Location | None) -> Frame:
        frame = self.frames.get(affiliation)
        if frame is None:
            raise MusterError.of(codes.UNKNOWN_AFFILIATION, where, name=affiliation, expected=", ".join(self.frames),
                                 hint=_hint(affiliation, self.frames))
        return frame

    def shapes(self, types: str, where: Location | None) -> tuple[dict, ...]:
        """The shapes of `types`, one type or several joined by '+' (armour+reconnaissance)."""
        shapes: tuple[dict, ...] = ()
        for name in types.split("+"):
            name = name.strip()
            if name not in self.types:
                raise MusterError.of(codes.UNKNOWN_UNIT_TYPE, where, name=name, expected=", ".join(self.types),
                                     hint=_hint(name, self.types))
            shapes += self.types[name]
        return shapes

    def echelon(self, echelon: str, where: Location | None) -> tuple[dict, ...]:
        name = self.marks.get(echelon, echelon)
        if name not in self.echelons:
            known = [*self.echelons, *self.marks]
            raise MusterError.of(codes.UNKNOWN_ECHELON, where, name=echelon,
                                 expected=", ".join(f"{n} ({m})" for m, n in self.marks.items()),
                                 hint=_hint(echelon, known))
        return self.echelons[name]


def _hint(word: str, choices) -> str:
    """" (did you mean 'x'?)": the first choice that `word` begins (recon: reconnaissance), else the closest."""
    start = next((c for c in choices if word and c.startswith(word)), None)
    return f" (did you mean '{start}'?)" if start else did_you_mean(word, choices)


@lru_cache(maxsize=1)
def symbol_set() -> SymbolSet:
    """The bundled set, read once (symbols.yaml is part of Muster, not a user's file)."""
    data = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    frames = {name: Frame(tuple(_outline(raw["outline"])), tuple(raw["box"]), tuple(raw["staff"]), raw["fill"])
              for name, raw in data["frames"].items()}
    types: dict[str, tuple[dict, ...]] = {}
    for name, raw in data["types"].items():
        if isinstance(raw, list):
            types[name] = tuple(raw)
        else:
            types[name] = sum((types[other] for other in raw["with"]), ()) + tuple(raw.get("draw", ()))
    echelons, marks = {}, {}
    for name, raw in data["echelons"].items():
        count, spacing = raw.get("repeat", (1, 0))
        echelons[name] = tuple(_shifted(shape, (index - (count - 1) / 2) * spacing)
                            for index in range(count) for shape in raw["draw"])
        marks[raw["mark"]] = name
    return SymbolSet(data["weight"], data["band"], frames, types, echelons, marks)


def _outline(pieces: list) -> list[Point]:
    points: list[Point] = []
    for piece in pieces:
        points += _arc(*piece["arc"]) if isinstance(piece, dict) else [tuple(piece)]
    return points


def _arc(cx: float, cy: float, rx: float, ry: float, start: float, end: float) -> list[Point]:
    steps = max(2, math.ceil(abs(end - start) / ARC_STEP))
    angles = [math.radians(start + (end - start) * step / steps) for step in range(steps + 1)]
    return [(cx + rx * math.cos(a), cy + ry * math.sin(a)) for a in angles]


def _shifted(shape: dict, dx: float) -> dict:
    """An echelon mark's shape moved `dx` across: the x of each point (an ellipse's centre, not its radii)."""
    kind = next(k for k in ("line", "polyline", "polygon", "ellipse") if k in shape)
    numbers = list(shape[kind])
    count = 1 if kind == "ellipse" else len(numbers) // 2
    for index in range(count):
        numbers[2 * index] += dx
    return {**shape, kind: numbers}


class Placement:
    """Frame units to millimetres: `scale` mm per unit, the frame's centre at `origin`."""

    def __init__(self, frame: Frame, origin: Point, scale: float):
        self.frame, self.origin, self.scale = frame, origin, scale

    def at(self, x: float, y: float) -> Point:
        return (round(self.origin[0] + x * self.scale, 3), round(self.origin[1] + y * self.scale, 3))

    def in_box(self, u: float, v: float) -> Point:
        """A frame-relative point (-1 to 1 across the frame's icon box) in frame units."""
        left, top, right, bottom = self.frame.box
        return left + (u + 1) / 2 * (right - left), top + (v + 1) / 2 * (bottom - top)


def draw(affiliation: str, types: str, echelon: str, box: tuple[float, float, float, float], fill: str | None,
         ink: str, places: dict[str, Location | None]) -> list:
    """A symbol as large as fits in `box` (x, y, w, h mm) with room for an echelon's mark above its frame, centred;
    `places`: where the affiliation, type and echelon were written, for the errors."""
    symbols = symbol_set()
    frame = symbols.frame(affiliation, places.get("affiliation"))
    shapes = symbols.shapes(types, places.get("type"))
    marks = symbols.echelon(echelon, places.get("echelon")) if echelon else ()
    left, top, right, bottom = frame.bounds
    x, y, w, h = box
    scale = min(w / (right - left), h / (bottom - top + symbols.band))
    drawn_w, drawn_h = (right - left) * scale, (bottom - top + symbols.band) * scale
    frame_top = y + (h - drawn_h) / 2 + symbols.band * scale
    place = Placement(frame, (x + (w - drawn_w) / 2 - left * scale, frame_top - top * scale), scale)
    items = _frame_and_type(place, shapes, fill, ink, symbols.weight)
    above = Placement(frame, (place.origin[0], frame_top), scale)
    items += [item for shape in marks for item in _shape(above, shape, ink, round(symbols.weight * scale, 4))]
    return items


def inline(affiliation: str, types: str, left: float, middle: float, em: float, ink: str) -> list:
    """A symbol in text: its frame one em high, its left side at `left` and its middle at `middle` (mm)."""
    symbols = symbol_set()
    frame = symbols.frames[affiliation]
    low_x, low_y, high_x, high_y = frame.bounds
    scale = em / (high_y - low_y)
    place = Placement(frame, (left - low_x * scale, middle - (low_y + high_y) / 2 * scale), scale)
    return _frame_and_type(place, symbols.shapes(types, None), None, ink, symbols.weight)


def width(affiliation: str) -> float:
    """How many ems wide a symbol in text is: its frame's width over its height."""
    low_x, low_y, high_x, high_y = symbol_set().frames[affiliation].bounds
    return (high_x - low_x) / (high_y - low_y)


def svg(affiliation: str, types: str, ink: str) -> str:
    """A symbol's frame and type as an SVG file's text, its frame 100 units high: an image icon for where
    symbols cannot be drawn from this data (a rulebook's text)."""
    symbols = symbol_set()
    low_x, low_y, high_x, high_y = symbols.frames[affiliation].bounds
    margin = symbols.weight * 100 / (high_y - low_y) / 2
    items = inline(affiliation, types, margin, 50 + margin, 100, ink)
    size = f"{width(affiliation) * 100 + 2 * margin:g} {100 + 2 * margin:g}"
    body = "".join(f"\n  {_svg_element(item)}" for item in items)
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size}">{body}\n</svg>\n'


def _svg_element(item) -> str:
    paint = f'fill="{getattr(item, "fill", None) or "none"}" stroke="{item.stroke or "none"}"'
    width_attribute = f'stroke-width="{getattr(item, "stroke_width", getattr(item, "width", 0)):g}"'
    if isinstance(item, Line):
        return f'<line x1="{item.x1:g}" y1="{item.y1:g}" x2="{item.x2:g}" y2="{item.y2:g}" {paint} {width_attribute}/>'
    if isinstance(item, Ellipse):
        return f'<ellipse cx="{item.cx:g}" cy="{item.cy:g}" rx="{item.rx:g}" ry="{item.ry:g}" {paint} {width_attribute}/>'
    if isinstance(item, Rect):
        return (f'<rect x="{item.x:g}" y="{item.y:g}" width="{item.w:g}" height="{item.h:g}" rx="{item.radius:g}" '
                f'{paint} {width_attribute}/>')
    points = " ".join(f"{x:g},{y:g}" for x, y in item.points)
    tag = "polygon" if isinstance(item, Polygon) else "polyline"
    return f'<{tag} points="{points}" {paint} {width_attribute}/>'


def icon_name(name: str, where: Location | None) -> tuple[str, str]:
    """The affiliation and types a text icon names (`nato:armour` is a friend's); MusterError when it names
    something the set lacks."""
    parts = name[len(SYMBOL_PREFIX):].split(":")
    if len(parts) > 2:
        raise MusterError.of(codes.BAD_ICON, where, name=name)
    affiliation, types = parts if len(parts) == 2 else ("friend", parts[0])
    symbols = symbol_set()
    symbols.frame(affiliation, where)
    symbols.shapes(types, where)
    return affiliation, types


def _frame_and_type(place: Placement, shapes: tuple[dict, ...], fill: str | None, ink: str, weight: float) -> list:
    frame, width_mm = place.frame, round(weight * place.scale, 4)
    fill = frame.fill if fill == STANDARD else fill
    items: list = [Polygon(tuple(place.at(*p) for p in frame.outline), fill, ink, width_mm)]
    for shape in shapes:
        items += _shape(place, shape, ink, width_mm)
    return items


def _shape(place: Placement, shape: dict, ink: str, width_mm: float) -> list:
    """One shape of the data as display items."""
    fill = ink if shape.get("fill") else None
    relative = shape.get("frame", False)
    shift = place.frame.staff if shape.get("at") == "staff" else (0.0, 0.0)

    def unit(x: float, y: float) -> Point:
        return place.in_box(x, y) if relative else (x + shift[0], y + shift[1])

    if "ellipse" in shape:
        cx, cy, rx, ry = shape["ellipse"]
        (cx, cy), (rx, ry) = place.at(*unit(cx, cy)), _radii(place, rx, ry, relative)
        return [Ellipse(cx, cy, rx, ry, fill, None if fill else ink, width_mm)]
    if "track" in shape:
        cx, cy, w, h = shape["track"]
        left, top = place.at(cx - w / 2, cy - h / 2)
        w, h = w * place.scale, h * place.scale
        return [Rect(left, top, round(w, 3), round(h, 3), fill, None if fill else ink, width_mm, round(h / 2, 3))]
    if "arc" in shape:
        cx, cy, rx, ry, start, end = shape["arc"]
        (cx, cy), (rx, ry) = unit(cx, cy), _radii(place, rx, ry, relative, scaled=False)
        return [Polyline(tuple(place.at(*p) for p in _arc(cx, cy, rx, ry, start, end)), ink, width_mm)]
    kind = next(k for k in ("line", "polyline", "polygon") if k in shape)
    numbers = shape[kind]
    points = [unit(numbers[i], numbers[i + 1]) for i in range(0, len(numbers), 2)]
    if shape.get("reach"):
        points = _reached(points, place.frame.outline)
    drawn = tuple(place.at(*p) for p in points)
    if kind == "line":
        return [Line(*drawn[0], *drawn[1], ink, width_mm)]
    if kind == "polyline":
        return [Polyline(drawn, ink, width_mm)]
    return [Polygon(drawn, fill, None if fill else ink, width_mm)]


def _radii(place: Placement, rx: float, ry: float, relative: bool, scaled: bool = True) -> Point:
    """An ellipse's or arc's radii in frame units (frame-relative ones across the icon box), or in mm."""
    if relative:
        left, top, right, bottom = place.frame.box
        rx, ry = rx * (right - left) / 2, ry * (bottom - top) / 2
    return (round(rx * place.scale, 3), round(ry * place.scale, 3)) if scaled else (rx, ry)


def _reached(points: list[Point], outline: tuple[Point, ...]) -> list[Point]:
    """`points` with the first and the last carried along their segments on to the outline: as far out as the
    segment's line meets the outline, so that an infantry cross runs from corner to corner of any frame."""
    points = list(points)
    points[0] = _farthest(points[1], points[0], outline)
    points[-1] = _farthest(points[-2], points[-1], outline)
    return points


def _farthest(inner: Point, outer: Point, outline: tuple[Point, ...]) -> Point:
    """Where the line from `inner` through `outer` meets the outline farthest on `outer`'s side."""
    dx, dy = outer[0] - inner[0], outer[1] - inner[1]
    best = None
    for index, (ax, ay) in enumerate(outline):
        bx, by = outline[(index + 1) % len(outline)]
        ex, ey = bx - ax, by - ay
        denominator = dx * ey - dy * ex
        if abs(denominator) < 1e-12:
            continue
        t = ((ax - inner[0]) * ey - (ay - inner[1]) * ex) / denominator  # along inner -> outer
        s = ((ax - inner[0]) * dy - (ay - inner[1]) * dx) / denominator  # along the outline's edge
        if -1e-9 <= s <= 1 + 1e-9 and t > 1e-9 and (best is None or t > best):
            best = t
    return outer if best is None else (inner[0] + best * dx, inner[1] + best * dy)
