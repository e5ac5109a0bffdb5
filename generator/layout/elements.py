"""What each kind of layout element draws: one function per kind, named as the kind (spec.py declares the kinds).

Each function takes the element's values (evaluated and coerced), the element (for the places of its values),
the Canvas it is drawn on and a list of findings, and returns display items. A value it cannot draw raises
ValueError, which the evaluator locates; a problem that ends the face raises MusterError; text that does not fit
is kept in `found`, located in the layout, and the face goes on without it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from ..core import codes, fonts
from ..core.bundle import layouts_dir
from ..core.display import Ellipse, Line, Picture, Polygon, Rect, Run
from ..core.errors import Finding, MusterError
from ..core.inline import SYMBOL_PREFIX, card_segments
from ..core.geometry import HexGrid, cell_centre, cell_label, column_name
from ..core.model import Icon
from ..core.units import PT_PER_MM, parse_length
from ..core.files import confined
from ..reading.resources import image_problem
from . import symbols, typeset
from .roles import as_value

if TYPE_CHECKING:  # files.py reads layouts against the spec, which names the functions here
    from .files import Element

MAX_GRID_CELLS = 10_000


class Canvas(NamedTuple):
    """What elements are drawn on and with: the face's size and bleed, the game's folder (for images) and icons
    (for text)."""

    size: tuple[float, float]
    bleed: float
    root: Path
    icons: dict[str, Icon]


def box(values: dict, element: Element, canvas: Canvas, found: list[Finding]) -> list:
    """A rectangle; with `bleed: true`, each side that touches the trim reaches out over the bleed."""
    x, y, w, h = _reach(values, canvas)
    return [Rect(x, y, w, h, values.get("fill"), values.get("stroke"), values["stroke_width"], values["radius"])]


def _reach(values: dict, canvas: Canvas) -> tuple[float, float, float, float]:
    """An element's box (x, y, w, h); with `bleed: true`, each side that touches the trim moved out over the
    bleed, so that nothing shows white where the cut wanders."""
    x, y, w, h = values["x"], values["y"], values["w"], values["h"]
    if values.get("bleed"):
        (width, height), bleed = canvas.size, canvas.bleed
        if x <= 1e-6:
            x, w = x - bleed, w + bleed
        if x + w >= width - 1e-6:
            w += bleed
        if y <= 1e-6:
            y, h = y - bleed, h + bleed
        if y + h >= height - 1e-6:
            h += bleed
    return x, y, w, h


def line(values: dict, element: Element, canvas: Canvas, found: list[Finding]) -> list:
    return [Line(values["x1"], values["y1"], values["x2"], values["y2"], values.get("stroke") or "#000000",
                 values["width"], values["dash"])]


def circle(values: dict, element: Element, canvas: Canvas, found: list[Finding]) -> list:
    return [Ellipse(values["cx"], values["cy"], values["r"], values["r"], values.get("fill"), values.get("stroke"),
                    values["stroke_width"])]


def ellipse(values: dict, element: Element, canvas: Canvas, found: list[Finding]) -> list:
    """An ellipse filling its box (x, y, w, h): the armour oval of a unit symbol, a counter's rim."""
    rx, ry = values["w"] / 2, values["h"] / 2
    return [Ellipse(values["x"] + rx, values["y"] + ry, rx, ry, values.get("fill"), values.get("stroke"),
                    values["stroke_width"])]


def polygon(values: dict, element: Element, canvas: Canvas, found: list[Finding]) -> list:
    numbers = [as_value(parse_length, n, bare_unit="mm") for n in re.split(r"[\s,]+", values["points"].strip()) if n]
    if len(numbers) < 6 or len(numbers) % 2:
        raise MusterError("points: expected at least three x y pairs", code=codes.BAD_VALUE.name)
    points = tuple(zip(numbers[0::2], numbers[1::2]))
    return [Polygon(points, values.get("fill"), values.get("stroke"), values["stroke_width"])]


def image(values: dict, element: Element, canvas: Canvas, found: list[Finding]) -> list:
    """A PNG, JPEG, GIF or SVG from the game's folder, else from the bundled layouts, fitted to its box as `fit`
    says (with `bleed: true`, the box reaches over the bleed as a box's does)."""
    src, where = values["src"], element.fields["src"].where
    try:
        path = confined(canvas.root, src)
        if not path.is_file():
            path = confined(layouts_dir(), src)
    except MusterError as exc:
        raise MusterError(f"src: {exc.message}", where, code="bad-image") from None
    if not path.is_file():
        raise MusterError(f"src: no image '{src}' in the game folder or the bundled layouts", where, code="bad-image")
    problem = image_problem(path)
    if problem:
        raise MusterError(f"src: '{src}': {problem.message}", where, code=problem.code)
    return [Picture(path, *_reach(values, canvas), values["fit"])]


def text(values: dict, element: Element, canvas: Canvas, found: list[Finding]) -> list:
    """One line, shrunk to fit its box; its capitals centred on the box's middle."""
    parts = _spans(values, element, canvas, found)
    size = values["size"]
    fitted = typeset.fit_line(typeset.words(parts), values["w"], values["h"], size, values.get("min_size", size))
    if fitted is None:
        found.append(Finding.of(codes.TEXT_OVERFLOW, element.where, kind="text", text=values["text"][:40],
                                room="on one line of", w=values["w"], h=values["h"], size=values.get("min_size", size)))
        return []
    font = parts[0].font if parts else values["font"]
    baseline = values["y"] + values["h"] / 2 + fonts.cap_height(font) * fitted.size / PT_PER_MM / 2
    return typeset.place_line(fitted.lines[0], fitted.size, values["x"], values["w"], baseline, values["align"])


def paragraph(values: dict, element: Element, canvas: Canvas, found: list[Finding]) -> list:
    """Lines broken to the box's width, shrunk until they fit its height, aligned to its top, middle or bottom."""
    parts = _spans(values, element, canvas, found)
    size, leading = values["size"], values["leading"]
    min_size = values.get("min_size", size)
    fitted = typeset.fit_block(typeset.words(parts), values["w"], values["h"], size, min_size, leading)
    if fitted is None:
        found.append(Finding.of(codes.TEXT_OVERFLOW, element.where, kind="paragraph", text=values["text"][:40],
                                room="in", w=values["w"], h=values["h"], size=min_size))
        return []
    line_height = fitted.size * leading / PT_PER_MM
    block = line_height * len(fitted.lines)
    top = values["y"] + {"top": 0, "middle": (values["h"] - block) / 2, "bottom": values["h"] - block}[values["valign"]]
    font = parts[0].font if parts else values["font"]
    first = (line_height + fonts.cap_height(font) * fitted.size / PT_PER_MM) / 2
    items = []
    for number, words in enumerate(fitted.lines):
        baseline = top + first + number * line_height
        items.extend(typeset.place_line(words, fitted.size, values["x"], values["w"], baseline, values["align"],
                                        justify=number < len(fitted.lines) - 1))
    return items


def _spans(values: dict, element: Element, canvas: Canvas, found: list[Finding]) -> list[typeset.Span]:
    """The element's text as spans; a warning in `found` when its markup asks for a face its font's family lacks."""
    segments = card_segments(values["text"])
    named = [s.token.icon for s in segments if s.token.icon is not None]
    for name in named:
        if name.startswith(SYMBOL_PREFIX):
            symbols.icon_name(name, element.fields["text"].where)
    missing = [name for name in named if name not in canvas.icons and not name.startswith(SYMBOL_PREFIX)]
    if missing:
        raise MusterError.of(codes.UNKNOWN_ICON, element.fields["text"].where, name=repr(missing[0]),
                             hint=f" (the game's icons: {', '.join(canvas.icons) or 'none'})")
    for role, mark, code in (("bold", "**bold**", codes.NO_BOLD), ("italic", "*italic*", codes.NO_ITALIC)):
        family = None
        if any(getattr(s, role) and s.token.text.strip() for s in segments):
            family = fonts.font_book().lacking(values["font"], role)
        if family:
            found.append(Finding.of(code, element.where, mark=mark, setting="", font=values["font"], family=family,
                                    face=role, printed="in its regular one"))
    return typeset.spans(segments, values["font"], values["colour"], canvas.icons)


def grid(values: dict, element: Element, canvas: Canvas, found: list[Finding]) -> list:
    """A square or hex grid of `columns` x `rows` cells from (x, y), optionally with its cells' names: edge
    coordinates for letter numbering, each hex's number inside its top for 0101."""
    columns, rows, cell, left, top = values["columns"], values["rows"], values["cell"], values["x"], values["y"]
    if columns * rows > MAX_GRID_CELLS:
        raise MusterError(f"a grid has at most {MAX_GRID_CELLS} cells", code=codes.BAD_VALUE.name)
    stroke, width, fill = values.get("stroke") or "#000000", values["width"], values.get("fill")
    hexes = HexGrid(cell, values["orientation"], values["offset"], left, top)
    items: list = []
    if values["shape"] == "square":
        if fill:
            items.append(Rect(left, top, columns * cell, rows * cell, fill))
        items += [Line(left + column * cell, top, left + column * cell, top + rows * cell, stroke, width)
                  for column in range(columns + 1)]
        items += [Line(left, top + row * cell, left + columns * cell, top + row * cell, stroke, width)
                  for row in range(rows + 1)]
    else:
        for column in range(columns):
            for row in range(rows):
                items.append(Polygon(hexes.corners(column, row), fill, stroke, width))
    if values["labels"] and values["numbering"] == "letter":
        items += _grid_labels(values, hexes, columns, rows, cell, left, top)
    elif values["labels"] and values["numbering"] == "0101":
        items += _cell_numbers(values, hexes, columns, rows)
    return items


def _centre(values: dict, hexes: HexGrid, column: int, row: int) -> tuple[float, float]:
    if values["shape"] == "square":
        return cell_centre("square", column, row, values["cell"], values["x"], values["y"])
    return hexes.centre(column, row)


def _grid_labels(values: dict, hexes: HexGrid, columns: int, rows: int, cell: float, left: float, top: float) -> list:
    """Column letters above and below, row numbers left and right, centred on each cell."""
    size, font, colour, shape = values["size"], values["font"], values.get("colour") or "#000000", values["shape"]
    gap = size / PT_PER_MM
    extent_w, extent_h = (columns * cell, rows * cell) if shape == "square" else hexes.extent(columns, rows)
    labels = []
    first_column, first_row = values["first_column"], values["first_row"]
    for column in range(columns):
        cx, _ = _centre(values, hexes, column, 0)
        for y in (top - gap * 1.4, top + extent_h + gap * 0.4):
            labels.append(_label(column_name(column + first_column - 1), cx, y + gap / 2, font, size, colour))
    for row in range(rows):
        _, cy = _centre(values, hexes, 0, row)
        for x in (left - gap * 1.2, left + extent_w + gap * 1.2):
            labels.append(_label(str(row + first_row), x, cy, font, size, colour))
    return labels


def _cell_numbers(values: dict, hexes: HexGrid, columns: int, rows: int) -> list:
    """Each cell's number (0304: column then row) centred across it near its top: within a flat top's flat, or
    where a pointy top is still wide enough."""
    size, font, colour = values["size"], values["font"], values.get("colour") or "#000000"
    height = fonts.cap_height(font) * size / PT_PER_MM
    if values["shape"] == "square":
        below = height / 2 + values["cell"] * 0.08
    elif values["orientation"] == "pointy":
        below = hexes.radius * 0.5 + height * 0.1
    else:
        below = values["cell"] * 0.5 - height * 0.5 - values["cell"] * 0.06
    first = (values["first_column"], values["first_row"])
    return [_label(cell_label(column, row, "0101", columns, rows, first), cx, cy - below, font, size, colour)
            for column in range(columns) for row in range(rows)
            for cx, cy in [_centre(values, hexes, column, row)]]


def _label(label: str, cx: float, cy: float, font: str, size: float, colour: str) -> Run:
    """`label` centred on (cx, cy): its width and its capitals' height."""
    width = fonts.unit_width(label, font) * size / PT_PER_MM
    baseline = cy + fonts.cap_height(font) * size / PT_PER_MM / 2
    return Run(round(cx - width / 2, 3), round(baseline, 3), label, font, size, colour)


def unit(values: dict, element: Element, canvas: Canvas, found: list[Finding]) -> list:
    """A NATO-style unit symbol (layout/symbols.py), as large as fits its box with room for its echelon's mark."""
    places = {key: element.fields[key].where if key in element.fields else element.where
              for key in ("affiliation", "type", "echelon")}
    return symbols.draw(values["affiliation"], values["type"], values.get("echelon", ""),
                        (values["x"], values["y"], values["w"], values["h"]), values.get("fill", symbols.STANDARD),
                        values.get("stroke") or "#000000", places)

