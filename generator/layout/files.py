"""Layout files: the keys a layout and each kind of element may have, and a file read and checked against them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.bundle import layouts_dir
from ..core.errors import Location, MusterError, did_you_mean
from ..core.model import Game
from ..core.files import confined
from ..core.geometry import NUMBERINGS, OFFSETS, ORIENTATIONS
from ..core.inputs import per_version
from ..reading.sourcemap import Map, Seq, load_yaml
from .findings import ACCEPTABLE

CALIBRATION = "calibration.yaml"  # the bundled layout of the calibration page
CALIBRATION_BACK = "calibration-back.yaml"  # and of its back: the duplex calibration's reading side

LAYOUT_KEYS = ("elements", "let", "description")
COMMON = {"kind": "choice", "when": "condition", "repeat": "condition", "as": "name", "rotate": "angle",
          "accept": "codes"}
ROTATABLE = ("text", "paragraph", "image", "box")
FIELDS: dict[str, dict[str, str]] = {
    "box": {"x": "length", "y": "length", "w": "length", "h": "length", "fill": "colour", "stroke": "colour",
            "stroke_width": "length", "radius": "length", "bleed": "bool"},
    "line": {"x1": "length", "y1": "length", "x2": "length", "y2": "length", "stroke": "colour",
             "width": "length", "dash": "text"},
    "circle": {"cx": "length", "cy": "length", "r": "length", "fill": "colour", "stroke": "colour",
               "stroke_width": "length"},
    "polygon": {"points": "text", "fill": "colour", "stroke": "colour", "stroke_width": "length"},
    "ellipse": {"x": "length", "y": "length", "w": "length", "h": "length", "fill": "colour", "stroke": "colour",
                "stroke_width": "length"},
    "text": {"x": "length", "y": "length", "w": "length", "h": "length", "text": "text", "font": "font",
             "size": "number", "min_size": "number", "colour": "colour", "align": "align"},
    "paragraph": {"x": "length", "y": "length", "w": "length", "h": "length", "text": "text", "font": "font",
                  "size": "number", "min_size": "number", "leading": "number", "colour": "colour",
                  "align": "align", "valign": "valign"},
    "image": {"x": "length", "y": "length", "w": "length", "h": "length", "src": "text", "bleed": "bool"},
    "grid": {"x": "length", "y": "length", "columns": "count", "rows": "count", "cell": "length", "shape": "shape",
             "stroke": "colour", "width": "length", "fill": "colour", "labels": "bool", "font": "font",
             "size": "number", "colour": "colour", "orientation": "orientation", "offset": "offset",
             "numbering": "numbering"},
    "unit": {"x": "length", "y": "length", "w": "length", "h": "length", "affiliation": "text", "type": "text",
             "echelon": "text", "fill": "colour", "stroke": "colour"},
}
REQUIRED = {
    "box": ("x", "y", "w", "h"), "line": ("x1", "y1", "x2", "y2"), "circle": ("cx", "cy", "r"),
    "polygon": ("points",), "text": ("x", "y", "w", "h", "text"), "paragraph": ("x", "y", "w", "h", "text"),
    "image": ("x", "y", "w", "h", "src"), "grid": ("x", "y", "columns", "rows", "cell"),
    "ellipse": ("x", "y", "w", "h"),
    "unit": ("x", "y", "w", "h", "type"),
}
DEFAULTS = {"font": "text", "size": 9, "colour": "#000000", "align": "left", "valign": "top", "leading": 1.2,
            "stroke_width": "0.25mm", "width": "0.25mm", "radius": 0, "bleed": False, "shape": "square",
            "labels": False, "affiliation": "friend", "orientation": "flat", "offset": "odd", "numbering": "letter"}
CHOICES = {"align": ("left", "center", "right", "justify"), "valign": ("top", "middle", "bottom"),
           "shape": ("square", "hex"), "orientation": ORIENTATIONS, "offset": OFFSETS,
           "numbering": NUMBERINGS}  # the values of the fields of these kinds
MAX_COUNT = 200  # the most a `count` field (a grid's columns or rows) may hold
NAME = re.compile(r"[a-z_][a-z0-9_]*")  # a name templates see: `let:` names and `as:`


@dataclass(frozen=True)
class Value:
    """One value of a layout as written (a template or a plain value), and where."""

    raw: Any
    where: Location


@dataclass(frozen=True)
class Element:
    """One element of a layout: its kind and its values (every key but `kind`), unevaluated."""

    kind: str
    fields: dict[str, Value]
    where: Location


@dataclass(frozen=True)
class Layout:
    """A layout file, checked: its elements in drawing order and its `let:` names."""

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
    raise MusterError(f"layout '{name}' is neither in {game.root.name}/ nor in the bundled layouts/",
                      code="missing-layout")


@per_version(maxsize=128)
def read_layout(path: Path) -> Layout:
    """The layout in `path`; MusterError at the first key or value the format does not allow."""
    data = load_yaml(path)
    if not isinstance(data, Map) or not isinstance(data.get("elements"), Seq):
        raise MusterError("expected a mapping with a list under 'elements'", Location(path, 1, 1), code="layout-error")
    unknown = [k for k in data if k not in LAYOUT_KEYS]
    if unknown:
        raise MusterError(f"unknown key '{unknown[0]}' (expected {', '.join(LAYOUT_KEYS)})", data.key_where[unknown[0]],
                          code="unknown-key")
    let = data.get("let", Map())
    if not isinstance(let, Map):
        raise MusterError("let: expected a mapping of names to expressions", _at(data, "let"), code="layout-error")
    for name, value in let.items():
        if not isinstance(name, str) or not NAME.fullmatch(name) or not isinstance(value, (str, int, float)):
            raise MusterError(f"let: '{name}' must be a lower-case name with an expression", let.key_where[name],
                              code="bad-name")
    elements = tuple(_element(index, raw, data["elements"].item_where[index])
                     for index, raw in enumerate(data["elements"]))
    return Layout(path, elements, tuple((name, Value(value, let.value_where[name])) for name, value in let.items()))


def _element(index: int, raw, where: Location) -> Element:
    if not isinstance(raw, Map):
        raise MusterError(f"elements[{index}]: expected a mapping", where, code="layout-error")
    kind = raw.get("kind")
    if kind not in FIELDS:
        raise MusterError(f"elements[{index}].kind: expected one of {', '.join(FIELDS)}, got {kind!r}",
                          _at(raw, "kind"), code="unknown-kind")
    allowed = {**COMMON, **FIELDS[kind]}
    for key in raw:
        if key not in allowed:
            raise MusterError(f"elements[{index}]: unknown key '{key}' for a {kind}{did_you_mean(key, allowed)}",
                              raw.key_where[key], code="unknown-key")
    for key in REQUIRED[kind]:
        if key not in raw:
            raise MusterError(f"elements[{index}]: a {kind} needs '{key}'", where, code="missing-key")
    accept = raw.get("accept", [])
    if not isinstance(accept, list) or not all(code in ACCEPTABLE for code in accept):
        raise MusterError(f"elements[{index}].accept: expected a list of the warnings an element may accept "
                          f"({', '.join(ACCEPTABLE)}), got {accept!r}", raw.value_where["accept"], code="bad-value")
    if "rotate" in raw and kind not in ROTATABLE:
        raise MusterError(f"elements[{index}]: a {kind} cannot be rotated (only {', '.join(ROTATABLE)})",
                          raw.key_where["rotate"], code="layout-error")
    return Element(kind, {key: Value(raw[key], raw.value_where[key]) for key in raw if key != "kind"}, where)


def _at(data: Map, key) -> Location:
    return data.value_where.get(key, data.where)
