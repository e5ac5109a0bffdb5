"""Layouts: YAML whose strings are Jinja, evaluated per card in the sandbox into a display list."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..core import fonts

from . import sandbox, typeset
from ..core.geometry import cell_centre, column_name, grid_extent, hex_corners
from ..core.display import DeckFaces, Ellipse, Face, Line, Picture, Polygon, Rect, Run, Turned
from ..core.errors import Finding, Location, MusterError, did_you_mean
from ..reading.loading import COLOUR
from ..core.model import Card, Deck, Game
from ..core.bundle import layouts_dir
from ..core.files import confined
from ..reading.resources import image_problem
from ..reading.sourcemap import Map, Seq, load_yaml
from ..core.units import PT_PER_MM, parse_length

BASIC_COLOURS = {"black": "#000000", "white": "#ffffff"}
CALIBRATION = "calibration.yaml"  # the bundled layout of the calibration page

COMMON = {"kind": "choice", "when": "condition", "repeat": "condition", "as": "name", "rotate": "angle"}
ROTATABLE = ("text", "paragraph", "image", "box")
MAX_REPEAT = 2000
RECORD, UNIT = "\x1e", "\x1f"  # separators of the values a layout's one template writes
LAYOUT_KEYS = ("elements", "let", "description")
FIELDS: dict[str, dict[str, str]] = {
    "box": {"x": "length", "y": "length", "w": "length", "h": "length", "fill": "colour", "stroke": "colour",
            "stroke_width": "length", "radius": "length", "bleed": "bool"},
    "line": {"x1": "length", "y1": "length", "x2": "length", "y2": "length", "stroke": "colour",
             "width": "length", "dash": "text"},
    "circle": {"cx": "length", "cy": "length", "r": "length", "fill": "colour", "stroke": "colour",
               "stroke_width": "length"},
    "polygon": {"points": "text", "fill": "colour", "stroke": "colour", "stroke_width": "length"},
    "text": {"x": "length", "y": "length", "w": "length", "h": "length", "text": "text", "font": "font",
             "size": "number", "min_size": "number", "colour": "colour", "align": "align"},
    "paragraph": {"x": "length", "y": "length", "w": "length", "h": "length", "text": "text", "font": "font",
                  "size": "number", "min_size": "number", "leading": "number", "colour": "colour",
                  "align": "align", "valign": "valign"},
    "image": {"x": "length", "y": "length", "w": "length", "h": "length", "src": "text"},
    "grid": {"x": "length", "y": "length", "columns": "count", "rows": "count", "cell": "length", "shape": "shape",
             "stroke": "colour", "width": "length", "fill": "colour", "labels": "bool", "font": "font",
             "size": "number", "colour": "colour"},
}
REQUIRED = {
    "box": ("x", "y", "w", "h"), "line": ("x1", "y1", "x2", "y2"), "circle": ("cx", "cy", "r"),
    "polygon": ("points",), "text": ("x", "y", "w", "h", "text"), "paragraph": ("x", "y", "w", "h", "text"),
    "image": ("x", "y", "w", "h", "src"), "grid": ("x", "y", "columns", "rows", "cell"),
}
DEFAULTS = {"font": "text", "size": 9, "colour": "#000000", "align": "left", "valign": "top", "leading": 1.2,
            "stroke_width": "0.25mm", "width": "0.25mm", "radius": 0, "bleed": False, "shape": "square",
            "labels": False}
MAX_GRID_CELLS = 10_000


class LayoutError(MusterError):
    """A layout that cannot be read, or a value that cannot be evaluated for a card."""


@dataclass(frozen=True)
class Value:
    raw: Any
    where: Location


@dataclass(frozen=True)
class Element:
    kind: str
    fields: dict[str, Value]
    where: Location


@dataclass(frozen=True)
class Layout:
    path: Path
    elements: tuple[Element, ...]
    let: tuple[tuple[str, Value], ...] = ()  # names computed once per face, in order, before the elements


def find_layout(game: Game, name: str) -> Path:
    """A layout named by a deck: the game's own folder first, then the bundled layouts."""
    own = confined(game.root, name)
    if own.is_file():
        return own
    bundled = confined(layouts_dir(), name)
    if bundled.is_file():
        return bundled
    raise MusterError(f"layout '{name}' is neither in {game.root.name}/ nor in the bundled layouts/")


@lru_cache(maxsize=128)
def read_layout(path: Path) -> Layout:
    data = load_yaml(path)
    if not isinstance(data, Map) or not isinstance(data.get("elements"), Seq):
        raise LayoutError("expected a mapping with a list under 'elements'", Location(path, 1, 1))
    unknown = [k for k in data if k not in LAYOUT_KEYS]
    if unknown:
        raise LayoutError(f"unknown key '{unknown[0]}' (expected elements, let, description)", data.key_where[unknown[0]])
    let = data.get("let", Map())
    if not isinstance(let, Map):
        raise LayoutError("let: expected a mapping of names to expressions", at(data, "let"))
    for name, value in let.items():
        if not isinstance(name, str) or not re.fullmatch(r"[a-z_][a-z0-9_]*", name) or not isinstance(value, (str, int, float)):
            raise LayoutError(f"let: '{name}' must be a lower-case name with an expression", let.key_where[name])
    elements = []
    for index, raw in enumerate(data["elements"]):
        where = data["elements"].item_where[index]
        if not isinstance(raw, Map):
            raise LayoutError(f"elements[{index}]: expected a mapping", where)
        kind = raw.get("kind")
        if kind not in FIELDS:
            raise LayoutError(f"elements[{index}].kind: expected one of {', '.join(FIELDS)}, got {kind!r}", at(raw, "kind"))
        allowed = {**COMMON, **FIELDS[kind]}
        for key in raw:
            if key not in allowed:
                raise LayoutError(f"elements[{index}]: unknown key '{key}' for a {kind}{did_you_mean(key, allowed)}",
                                  raw.key_where[key])
        for key in REQUIRED[kind]:
            if key not in raw:
                raise LayoutError(f"elements[{index}]: a {kind} needs '{key}'", where)
        if "rotate" in raw and kind not in ROTATABLE:
            raise LayoutError(f"elements[{index}]: a {kind} cannot be rotated (only {', '.join(ROTATABLE)})",
                              raw.key_where["rotate"])
        fields = {key: Value(raw[key], raw.value_where[key]) for key in raw if key != "kind"}
        elements.append(Element(kind, fields, where))
    return Layout(path, tuple(elements), tuple((name, Value(value, let.value_where[name])) for name, value in let.items()))


def at(data: Map, key) -> Location:
    return data.value_where.get(key, data.where)


def game_context(game: Game) -> dict:
    """What every template of a game sees: plain data, no model objects, no paths."""
    return {
        "game": {"id": game.id, "title": game.title, "players": game.players,
                 "card": {"w": game.card_size[0], "h": game.card_size[1]}},
        "constants": dict(game.constants),
        "colours": dict(game.colours),
        "tables": {name: [dict(row) for row in rows] for name, rows in game.tables.items()},
        "vocab": {name: {code: {"code": code, "name": t.name, "short": t.short, "icon": t.icon, **dict(t.extra)}
                         for code, t in v.terms.items()} for name, v in game.vocabularies.items()},
    }


def deck_context(game: Game, deck: Deck, bleed: float) -> dict:
    """What every card of a deck shares in its templates."""
    return {
        **game_context(game),
        "deck": {"id": deck.id, "name": deck.name, "size": deck.total, **dict(deck.style)},
        "face": {"w": deck.face_size[0], "h": deck.face_size[1], "bleed": bleed},
    }


def card_context(shared: dict, card: Card) -> dict:
    values = {name: list(v) if isinstance(v, tuple) else v for name, v in card.traits.items()}
    return {**shared, "card": {**values, "title": card.title, "id": card.id, "count": card.count, "designed": card.designed}}


class Evaluator:
    """Evaluates one layout for one game; one instance serves every card of a deck."""

    def __init__(self, game: Game, layout: Layout, bleed: float, size: tuple[float, float]):
        self.game = game
        self.layout = layout
        self.bleed = bleed
        self.size = size
        self.icons = dict(game.icons)
        self.fixed: dict[tuple[int, str], object] = {}  # values without templates, coerced once
        self.fields = [[k for k in FIELDS[e.kind] if k in e.fields or k in DEFAULTS] for e in layout.elements]
        self.repeated: dict[int, Any] = {}  # per element with `repeat:`, a template of its values, run per item
        self.program, self.templated, self.per_card = self._program()
        self.output: tuple[str, dict[int, list[str]] | None] | None = None  # the program's output, if not per card
        self.static: dict[int, dict] = {}  # per element, its values without templates
        # A face is a function of what the program writes unless an element loops or turns by a template; then
        # faces are remembered by that output, so a shared back or a repeated card is laid out once.
        self.remembered: dict[str, tuple[Face, tuple[str, ...]]] | None = None
        if self.program is not None and not any(
                "repeat" in e.fields or ("rotate" in e.fields and sandbox.is_template(e.fields["rotate"].raw))
                for e in layout.elements):
            self.remembered = {}

    def _program(self):
        """One template that evaluates every templated value of the layout at once, and which values it holds.

        Rendering one template per face instead of one per value is most of the cost of a layout. Each element's
        values are written after a record separator and its number, each after a unit separator; an element whose
        `when` is false writes nothing. An element with `repeat:` gets a template of its own, run once per item.
        """
        parts, templated = [], {}
        for number, element in enumerate(self.layout.elements):
            keys = [k for k in self.fields[number] if k in element.fields and sandbox.is_template(element.fields[k].raw)]
            templated[number] = keys
            if "repeat" in element.fields:
                try:
                    self.repeated[number] = sandbox.compile_template(UNIT.join(str(element.fields[k].raw) for k in keys))
                except sandbox.TemplateError:  # the per-value path will say which value, and where
                    pass
                continue
            body = RECORD + str(number) + "".join(UNIT + str(element.fields[k].raw) for k in keys)
            when = element.fields.get("when")
            if when is None or when.raw is True:
                parts.append(body)
            elif when.raw is not False:
                parts.append("{% if " + str(when.raw) + " %}" + body + "{% endif %}")
        source = "".join(parts)
        try:  # what the program writes is the same for every card of a deck unless it reads the card
            return (sandbox.compile_template(source), templated,
                    sandbox.may_read(source, "card") or bool(self.layout.let))
        except sandbox.TemplateError:  # a broken value: the per-value path will say which, and where
            return None, templated, True

    def _run_program(self, context: dict) -> tuple[str, dict[int, list[str]] | None]:
        """What the program wrote, and each drawn element's templated values as text; None when the per-value
        path must take over."""
        if self.program is None:
            return "", None
        try:
            output = self.program.render(context)
        except sandbox.TimeLimit:
            raise
        except Exception:  # the per-value path reports the failure with its file and line
            return "", None
        result = {}
        for record in output.split(RECORD)[1:]:
            number, *values = record.split(UNIT)
            number = int(number)
            if len(values) != len(self.templated[number]):
                return output, None  # a value contained a separator
            result[number] = values
        return output, result

    def face(self, context: dict, problems: list[str]) -> Face:
        context = self._let(context)
        if self.per_card:
            output, evaluated = self._run_program(context)
        else:
            if self.output is None:
                self.output = self._run_program(context)
            output, evaluated = self.output
        if evaluated is None or self.remembered is None:
            return self._face(context, evaluated, problems)
        known = self.remembered.get(output)
        if known is None:
            found: list[str] = []
            known = self.remembered[output] = (self._face(context, evaluated, found), tuple(found))
        problems.extend(known[1])
        return known[0]

    def _face(self, context: dict, evaluated: dict[int, list[str]] | None, problems: list[str]) -> Face:
        items = []
        for number, element in enumerate(self.layout.elements):
            if evaluated is not None and "repeat" not in element.fields:
                if number not in evaluated:
                    continue  # its `when` was false
                try:
                    items.extend(self._draw(element, self._values(number, element, evaluated[number], context),
                                            context, problems))
                    continue
                except LayoutError:
                    raise
                except (ValueError, TypeError, ArithmeticError):
                    pass  # evaluated again below, to name the value at fault
            for scope in self._scopes(element, context):
                try:
                    if "when" in element.fields and not self._condition(element.fields["when"], scope):
                        continue
                    items.extend(self._draw(element, self._item_values(number, element, scope), scope, problems))
                except LayoutError:
                    raise
                except (sandbox.TemplateError, sandbox.SecurityError, ValueError, TypeError, ArithmeticError) as exc:
                    raise LayoutError(f"{_short(exc)}", self._failed_where(element, exc)) from None
        return Face(self.size[0], self.size[1], tuple(items))

    def _values(self, number: int, element: Element, texts: list[str], context: dict) -> dict:
        """An element's values: those without templates as coerced once, the others from the texts given."""
        static = self.static.get(number)
        if static is None:
            static = self.static[number] = {k: self._value(number, k, element, context)
                                            for k in self.fields[number] if k not in self.templated[number]}
        values = dict(static)
        for key, text in zip(self.templated[number], texts):
            values[key] = self._coerce(FIELDS[element.kind][key], text, context)
        return values

    def _item_values(self, number: int, element: Element, scope: dict) -> dict:
        """The values of one item of a `repeat:` (or of an element the program could not evaluate): by the
        element's own template when it runs cleanly, else value by value, which names the one at fault."""
        program = self.repeated.get(number)
        if program is not None:
            try:
                texts = program.render(scope).split(UNIT) if self.templated[number] else []
                if len(texts) == len(self.templated[number]):
                    return self._values(number, element, texts, scope)
            except sandbox.TimeLimit:
                raise
            except Exception:  # any failure is found again below, with its file and line
                pass
        return {k: self._value(number, k, element, scope) for k in self.fields[number]}

    def _let(self, context: dict) -> dict:
        """The context with the layout's `let:` names added, each an expression over what comes before it."""
        if not self.layout.let:
            return context
        context = dict(context)
        for name, value in self.layout.let:
            if name in context:
                raise LayoutError(f"let: '{name}' is already a name templates see", value.where)
            try:
                context[name] = _expression(str(value.raw))(**context) if isinstance(value.raw, str) else value.raw
            except Exception as exc:  # any template failure is the layout author's to fix
                raise LayoutError(f"let: {name}: {_short(exc)}", value.where) from None
        return context

    def _draw(self, element: Element, values: dict, context: dict, problems: list[str]) -> list:
        """The element's items, turned about the centre of its box when it has `rotate:`."""
        drawn = getattr(self, "_" + element.kind)(values, element, problems)
        if "rotate" not in element.fields or not drawn:
            return drawn
        raw = element.fields["rotate"].raw
        angle = float(sandbox.render(raw, context) if sandbox.is_template(raw) else raw)
        if angle % 90:
            raise ValueError(f"rotate: expected 0, 90, 180 or 270 degrees, got {raw!r}")
        if angle % 360 == 0:
            return drawn
        cx, cy = values["x"] + values["w"] / 2, values["y"] + values["h"] / 2
        return [Turned(cx, cy, angle % 360, tuple(drawn))]

    def _scopes(self, element: Element, context: dict):
        """The contexts an element is drawn in: once, or once per item of its `repeat:` list, bound to `as:`."""
        if "repeat" not in element.fields:
            yield context
            return
        repeat = element.fields["repeat"]
        try:
            items = _expression(str(repeat.raw))(**context)
            items = list(items) if not isinstance(items, (str, dict)) else None
        except Exception as exc:  # any template failure is the layout author's to fix
            raise LayoutError(f"repeat: {_short(exc)}", repeat.where) from None
        if items is None or len(items) > MAX_REPEAT:
            raise LayoutError(f"repeat: expected a list of at most {MAX_REPEAT} items", repeat.where)
        name = str(element.fields["as"].raw) if "as" in element.fields else "item"
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", name) or name in context:
            raise LayoutError(f"as: '{name}' must be a new lower-case name", element.fields.get("as", repeat).where)
        for index, item in enumerate(items):
            loop = {"index0": index, "index": index + 1, "length": len(items), "first": index == 0,
                    "last": index == len(items) - 1}
            yield {**context, name: item, "loop": loop}

    def _failed_where(self, element: Element, exc) -> Location:
        field = getattr(exc, "field", None)
        return element.fields[field].where if field in element.fields else element.where

    def _condition(self, value: Value, context: dict) -> bool:
        if isinstance(value.raw, bool):
            return value.raw
        try:
            return bool(_expression(str(value.raw))(**context))
        except Exception as exc:  # any template failure is the layout author's to fix
            raise LayoutError(f"when: {_short(exc)}", value.where) from None

    def _value(self, number: int, key: str, element: Element, context: dict):
        fixed = self.fixed.get((number, key), self)
        if fixed is not self:
            return fixed
        value = element.fields.get(key)
        raw = value.raw if value else DEFAULTS.get(key)
        try:
            if sandbox.is_template(raw):
                return self._coerce(FIELDS[element.kind][key], sandbox.render(raw, context), context)
            fixed = self.fixed[(number, key)] = self._coerce(FIELDS[element.kind][key], raw, context)
            return fixed
        except (ValueError, TypeError) as exc:
            exc.field = key
            raise
        except Exception as exc:
            raise LayoutError(f"{key}: {_short(exc)}", value.where if value else element.where) from None

    def _coerce(self, kind: str, raw, context: dict):
        if kind == "length":
            return parse_length(raw, bare_unit="mm")
        if kind == "number":
            return float(raw)
        if kind == "bool":
            return raw if isinstance(raw, bool) else str(raw).strip().lower() in ("true", "yes", "1")
        if kind == "colour":
            return self.colour(raw)
        if kind == "font":
            if not fonts.known(str(raw)):
                raise ValueError(f"unknown font '{raw}' (bundled: {', '.join(fonts.font_book().files)})")
            return str(raw)
        if kind == "align":
            if raw not in ("left", "center", "right", "justify"):
                raise ValueError(f"align: expected left, center, right or justify, got {raw!r}")
            return raw
        if kind == "count":
            number = int(str(raw).strip())
            if not 1 <= number <= 200:
                raise ValueError(f"expected a whole number from 1 to 200, got {raw!r}")
            return number
        if kind == "shape":
            if raw not in ("square", "hex"):
                raise ValueError(f"shape: expected square or hex, got {raw!r}")
            return raw
        if kind == "valign":
            if raw not in ("top", "middle", "bottom"):
                raise ValueError(f"valign: expected top, middle or bottom, got {raw!r}")
            return raw
        return "" if raw is None else str(raw)

    def colour(self, raw) -> str | None:
        text = "" if raw is None else str(raw).strip()
        if text in ("", "none"):
            return None
        if COLOUR.match(text):
            return text.lower()
        if text in self.game.colours:
            return self.game.colours[text]
        if text in BASIC_COLOURS:
            return BASIC_COLOURS[text]
        raise ValueError(f"unknown colour {text!r}: use #rrggbb, none, or a name of the game's colours")

    def _box(self, v: dict, element: Element, problems: list[str]):
        x, y, w, h = v["x"], v["y"], v["w"], v["h"]
        if v.get("bleed"):
            width, height, b = self.size[0], self.size[1], self.bleed
            if x <= 1e-6:
                x, w = x - b, w + b
            if x + w >= width - 1e-6:
                w += b
            if y <= 1e-6:
                y, h = y - b, h + b
            if y + h >= height - 1e-6:
                h += b
        return [Rect(x, y, w, h, v.get("fill"), v.get("stroke"), v["stroke_width"], v["radius"])]

    def _line(self, v: dict, element: Element, problems: list[str]):
        dash = tuple(float(d) for d in v.get("dash", "").split()) if v.get("dash") else ()
        return [Line(v["x1"], v["y1"], v["x2"], v["y2"], v.get("stroke") or "#000000", v["width"], dash)]

    def _circle(self, v: dict, element: Element, problems: list[str]):
        return [Ellipse(v["cx"], v["cy"], v["r"], v["r"], v.get("fill"), v.get("stroke"), v["stroke_width"])]

    def _polygon(self, v: dict, element: Element, problems: list[str]):
        numbers = [parse_length(n, bare_unit="mm") for n in re.split(r"[\s,]+", v["points"].strip()) if n]
        if len(numbers) < 6 or len(numbers) % 2:
            raise ValueError("points: expected at least three x y pairs")
        points = tuple(zip(numbers[0::2], numbers[1::2]))
        return [Polygon(points, v.get("fill"), v.get("stroke"), v["stroke_width"])]

    def _image(self, v: dict, element: Element, problems: list[str]):
        try:
            path = confined(self.game.root, v["src"])
            if not path.is_file():
                path = confined(layouts_dir(), v["src"])
        except MusterError as exc:
            raise LayoutError(f"src: {exc.message}", element.fields["src"].where) from None
        if not path.is_file():
            raise LayoutError(f"src: no image '{v['src']}' in the game folder or the bundled layouts", element.fields["src"].where)
        problem = image_problem(path)
        if problem:
            raise LayoutError(f"src: '{v['src']}': {problem}", element.fields["src"].where)
        return [Picture(path, v["x"], v["y"], v["w"], v["h"])]

    def _grid(self, v: dict, element: Element, problems: list[str]):
        """A square or hex grid of `columns` x `rows` cells from (x, y), optionally with edge coordinates."""
        columns, rows, cell, x0, y0 = v["columns"], v["rows"], v["cell"], v["x"], v["y"]
        if columns * rows > MAX_GRID_CELLS:
            raise ValueError(f"a grid has at most {MAX_GRID_CELLS} cells")
        stroke, width, fill = v.get("stroke") or "#000000", v["width"], v.get("fill")
        items: list = []
        if v["shape"] == "square":
            if fill:
                items.append(Rect(x0, y0, columns * cell, rows * cell, fill))
            items += [Line(x0 + c * cell, y0, x0 + c * cell, y0 + rows * cell, stroke, width) for c in range(columns + 1)]
            items += [Line(x0, y0 + r * cell, x0 + columns * cell, y0 + r * cell, stroke, width) for r in range(rows + 1)]
        else:
            for column in range(columns):
                for row in range(rows):
                    cx, cy = cell_centre("hex", column, row, cell, x0, y0)
                    items.append(Polygon(hex_corners(cx, cy, cell), fill, stroke, width))
        if v["labels"]:
            items += self._grid_labels(v, columns, rows, cell, x0, y0)
        return items

    def _grid_labels(self, v: dict, columns: int, rows: int, cell: float, x0: float, y0: float):
        """Column letters above and below, row numbers left and right, centred on each cell."""
        size, font, colour = v["size"], v["font"], v.get("colour") or "#000000"
        gap = size / PT_PER_MM
        extent_w, extent_h = grid_extent(v["shape"], columns, rows, cell)
        labels = []
        for column in range(columns):
            cx, _ = cell_centre(v["shape"], column, 0, cell, x0, y0)
            for y in (y0 - gap * 1.4, y0 + extent_h + gap * 0.4):
                labels += self._label(column_name(column), cx, y + gap / 2, font, size, colour)
        for row in range(rows):
            _, cy = cell_centre(v["shape"], 0, row, cell, x0, y0)
            for x in (x0 - gap * 1.2, x0 + extent_w + gap * 1.2):
                labels += self._label(str(row + 1), x, cy, font, size, colour)
        return labels

    def _label(self, text: str, cx: float, cy: float, font: str, size: float, colour: str):
        width = fonts.unit_width(text, font) * size / PT_PER_MM
        baseline = cy + fonts.cap_height(font) * size / PT_PER_MM / 2
        return [Run(round(cx - width / 2, 3), round(baseline, 3), text, font, size, colour)]

    def _text(self, v: dict, element: Element, problems: list[str]):
        parts = self._spans(v, element)
        size = v["size"]
        fitted = typeset.fit_line(typeset.words(parts), v["w"], v["h"], size, v.get("min_size", size))
        if fitted is None:
            problems.append(f"text {v['text']!r} does not fit on one line of {v['w']:.1f} x {v['h']:.1f} mm at "
                            f"{v.get('min_size', size):g} pt ({self._where(element)})")
            return []
        line = fitted.lines[0]
        font = parts[0].font if parts else v["font"]
        baseline = v["y"] + v["h"] / 2 + fonts.cap_height(font) * fitted.size / PT_PER_MM / 2
        return self._place(line, fitted.size, v["x"], v["w"], baseline, v["align"])

    def _paragraph(self, v: dict, element: Element, problems: list[str]):
        parts = self._spans(v, element)
        size = v["size"]
        min_size = v.get("min_size", size)
        fitted = typeset.fit_block(typeset.words(parts), v["w"], v["h"], size, min_size, v["leading"])
        if fitted is None:
            problems.append(f"paragraph {v['text'][:40]!r} does not fit in {v['w']:.1f} x {v['h']:.1f} mm at "
                            f"{min_size:g} pt ({self._where(element)})")
            return []
        line_height = fitted.size * v["leading"] / PT_PER_MM
        block = line_height * len(fitted.lines)
        top = v["y"] + {"top": 0, "middle": (v["h"] - block) / 2, "bottom": v["h"] - block}[v["valign"]]
        font = parts[0].font if parts else v["font"]
        first = (line_height + fonts.cap_height(font) * fitted.size / PT_PER_MM) / 2
        items = []
        for number, line in enumerate(fitted.lines):
            items.extend(self._place(line, fitted.size, v["x"], v["w"], top + first + number * line_height, v["align"],
                                     justify=number < len(fitted.lines) - 1))
        return items

    def _spans(self, v: dict, element: Element):
        missing = typeset.unknown_icons(v["text"], self.icons)
        if missing:
            raise LayoutError(f"text: unknown icon '{missing[0]}' (the game's icons: {', '.join(self.icons) or 'none'})",
                              element.fields["text"].where)
        return typeset.spans(v["text"], v["font"], v["colour"], self.icons)

    def _place(self, line, size: float, x: float, w: float, baseline: float, align: str, justify: bool = False):
        """Runs for one line: pieces of one font and colour joined by plain spaces become one run."""
        em = size / PT_PER_MM
        natural = typeset.line_width(line, size) / PT_PER_MM
        extra = 0.0
        if align == "center":
            x += (w - natural) / 2
        elif align == "right":
            x += w - natural
        elif align == "justify" and justify and len(line) > 1:
            extra = (w - natural) / (len(line) - 1)
        style = line[0].style if line else None
        if style is not None and extra == 0.0 and len({word.style for word in line}) == 1:
            text = " ".join([word.pieces[0].text for word in line])  # the common case: one font, one colour
            return [Run(round(x, 3), round(baseline, 3), text, style[0], size, style[1])]
        runs: list[list] = []  # [x, text, font, colour]
        pictures = []
        cursor = x
        joinable = False
        for index, word in enumerate(line):
            for number, piece in enumerate(word.pieces):
                last = runs[-1] if runs else None
                if piece.image is not None:
                    middle = baseline - fonts.cap_height(piece.font) * em / 2
                    pictures.append(Picture(piece.image, round(cursor, 3), round(middle - em / 2, 3), em, em))
                    joinable = False
                elif last and last[2] == piece.font and last[3] == piece.colour and (number > 0 or joinable):
                    last[1] += piece.text if number > 0 else " " + piece.text
                else:
                    runs.append([cursor, piece.text, piece.font, piece.colour])
                cursor += piece.width * em
            if index < len(line) - 1:
                cursor += word.space * em + extra
            joinable = extra == 0.0 and word.pieces[-1].image is None
        return [Run(round(rx, 3), round(baseline, 3), text, font, size, colour) for rx, text, font, colour in runs] + pictures

    def _where(self, element: Element) -> str:
        return str(element.where)


@lru_cache(maxsize=1024)
def _expression(source: str):
    return sandbox.environment().compile_expression(source)


def _short(exc: Exception) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text


def layout_fonts(game: Game, layouts) -> set[str]:
    """The bundled fonts the named layouts name outright, with the default one and the icons': most of what
    drawing with them will use, known before anything is laid out."""
    names = {DEFAULTS["font"]} | {icon.font for icon in game.icons.values() if icon.font}
    for name in filter(None, layouts):
        try:
            layout = read_layout(find_layout(game, name))
        except MusterError:  # reported when the deck is laid out
            continue
        names |= {str(e.fields["font"].raw) for e in layout.elements
                  if "font" in e.fields and not sandbox.is_template(e.fields["font"].raw)}
    return {name for name in names if fonts.known(name)}


BATCH = 90  # cards laid out at a time: ten sheets of nine poker cards, drawn while the next batch is laid out


def lay_out_cards(game: Game, deck: Deck, bleed: float, warnings: bool = True) -> DeckFaces:
    """Every card of `deck` laid out once (copies share the result); identical faces are stored once.

    Errors (templates that fail, text that cannot fit) are always found; `warnings` adds the printed-text checks
    (missing glyphs, small text, the safe zone), which `muster validate` reports and a build does not need.
    """
    result = DeckFaces([], [], [], [])
    for batch in lay_out_batches(game, deck, bleed, warnings):
        result.extend(batch)
    return result


def lay_out_batches(game: Game, deck: Deck, bleed: float, warnings: bool = True, size: int | None = None):
    """lay_out_cards, `size` cards at a time, so that drawing can begin before the deck is laid out. The deck's
    templates have TIME_LIMIT seconds in all, counted only while they run; a template error ends the deck."""
    evaluators, findings = {}, []
    for which in ("face", "back"):
        name = deck.face if which == "face" else deck.back
        try:
            if not name:
                raise MusterError(f"deck '{deck.id}' has no {which} layout", deck.where)
            evaluators[which] = Evaluator(game, read_layout(find_layout(game, name)), bleed, deck.face_size)
        except MusterError as exc:
            findings.append(Finding("error", exc.where or deck.where, f"decks.{deck.id}.{which}", exc.message))
    if findings:
        yield DeckFaces([], [], [], findings)
        return
    index: dict[Face, int] = {}
    shared = deck_context(game, deck, bleed)
    budget = float(sandbox.TIME_LIMIT)
    size = size or BATCH
    for start in range(0, len(deck.cards), size):
        batch = DeckFaces([], [], [], [])
        began = time.monotonic()
        try:
            with sandbox.time_limit(max(budget, 0.001)):
                complete = _lay_out(deck, deck.cards[start:start + size], shared, warnings, evaluators, index, batch)
        except sandbox.TimeLimit:
            batch.findings.append(Finding("error", deck.where, f"decks.{deck.id}",
                                          f"templates ran for more than {sandbox.TIME_LIMIT:g} s laying out the deck"))
            complete = False
        budget -= time.monotonic() - began
        yield batch
        if not complete:
            return


def _lay_out(deck: Deck, cards, shared: dict, warnings: bool, evaluators: dict, index: dict[Face, int],
             batch: DeckFaces) -> bool:
    """Lays `cards` out into `batch`; False when a template error stopped the deck."""
    for card in cards:
        context = card_context(shared, card)
        drawn = []
        for which, evaluator in evaluators.items():
            problems: list[str] = []
            try:
                face = evaluator.face(context, problems)
            except LayoutError as exc:
                batch.findings.append(Finding("error", exc.where, f"decks.{deck.id}.{which}",
                                              f"{exc.message} (drawing the {which} of '{card.title}', {card.where})"))
                return False
            batch.findings.extend(Finding("error", card.where, f"cards[{card.index}]", f"'{card.title}': {p}")
                                  for p in problems)
            if warnings:
                batch.findings.extend(text_findings(face, deck.safe_margin, card.where, f"cards[{card.index}]",
                                                    f"'{card.title}' ({which})"))
            number = index.get(face)
            if number is None:
                number = index[face] = len(index)
                batch.faces.append(face)
            drawn.append(number)
        batch.fronts.extend([drawn[0]] * card.count)
        batch.backs.extend([drawn[1]] * card.count)
    return True


MIN_TEXT_PT = 6.0


def text_findings(face: Face, safe: float, where: Location, field: str, label: str) -> list[Finding]:
    """Warnings a printed face would show: missing glyphs, text too small to read, text outside the safe zone."""
    findings = []
    said = set()

    def warn(message: str) -> None:
        if message not in said:
            said.add(message)
            findings.append(Finding("warning", where, field, f"{label}: {message}"))

    for item in face.items:
        if not isinstance(item, Run):
            continue
        missing = fonts.missing_glyphs(item.text, item.font)
        if missing:
            warn(f"font '{item.font}' has no glyph for {', '.join(repr(c) for c in missing)}")
        if item.size < MIN_TEXT_PT - 1e-6:
            warn(f"text {item.text[:30]!r} is {item.size:g} pt, below the {MIN_TEXT_PT:g} pt that prints legibly")
        width = fonts.unit_width(item.text, item.font) * item.size / PT_PER_MM
        top = item.y - fonts.cap_height(item.font) * item.size / PT_PER_MM
        if (item.x < safe - 0.05 or item.x + width > face.width - safe + 0.05
                or top < safe - 0.05 or item.y > face.height - safe + 0.05):
            warn(f"text {item.text[:30]!r} reaches outside the {safe:g} mm safe zone")
    return findings
