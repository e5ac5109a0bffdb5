"""Layout files: a file read and checked against the keys a layout and each kind of element may have (spec.py)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..core import codes
from ..core.bundle import layouts_dir
from ..core.errors import Location, MusterError, did_you_mean
from ..core.model import Game
from ..core.options import LANGUAGE
from ..core.files import confined
from ..core.inputs import per_version
from ..reading.sourcemap import Map, Seq, load_yaml
from .roles import NAME
from .spec import ELEMENTS, LAYOUT_KEYS, rotating
from .findings import ACCEPTABLE

TRANSLATED = "text"  # the one field of an element given per language (text:de), for a game of several languages
CALIBRATION = "calibration.yaml"  # the bundled layout of the calibration page
CALIBRATION_BACK = "calibration-back.yaml"  # and of its back: the duplex calibration's reading side


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
    translations: tuple[tuple[str, Value], ...] = ()  # (language, its text) of a `text:<lang>` beside `text`

    def in_language(self, language: str) -> Element:
        """The element as it prints in `language`: its text that language's, when it gives one."""
        text = dict(self.translations).get(language)
        return self if text is None else replace(self, fields={**self.fields, TRANSLATED: text})


@dataclass(frozen=True)
class Layout:
    """A layout file, checked: its elements in drawing order and its `let:` names."""

    path: Path
    elements: tuple[Element, ...]
    let: tuple[tuple[str, Value], ...] = ()  # names computed once per face, in order, before the elements

    def in_language(self, language: str) -> Layout:
        """The layout as it prints in `language` ("": as written): its elements' texts in that language."""
        if not language or not any(element.translations for element in self.elements):
            return self
        return replace(self, elements=tuple(element.in_language(language) for element in self.elements))


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
        raise MusterError.of(codes.UNKNOWN_KEY, data.key_where[unknown[0]], what="key", name=unknown[0],
                             hint=f" (expected {', '.join(LAYOUT_KEYS)})")
    let = data.get("let", Map())
    if not isinstance(let, Map):
        raise MusterError("let: expected a mapping of names to expressions", _at(data, "let"), code="layout-error")
    for name, value in let.items():
        if not NAME.fits(name) or not isinstance(value, (str, int, float)):
            raise MusterError(f"let: '{name}' must be a lower-case name with an expression", let.key_where[name],
                              code="bad-name")
    elements = tuple(_element(index, raw, data["elements"].item_where[index])
                     for index, raw in enumerate(data["elements"]))
    return Layout(path, elements, tuple((name, Value(value, let.value_where[name])) for name, value in let.items()))


def _element(index: int, raw, where: Location) -> Element:
    if not isinstance(raw, Map):
        raise MusterError(f"elements[{index}]: expected a mapping", where, code="layout-error")
    name = raw.get("kind")
    if name not in ELEMENTS:
        raise MusterError.of(codes.UNKNOWN_KIND, _at(raw, "kind"), index=index, kinds=", ".join(ELEMENTS), got=name)
    kind = ELEMENTS[name]
    translations = []
    for key in raw:
        base, _, language = str(key).partition(":")
        if language and base in kind.allowed:
            if base != TRANSLATED or not LANGUAGE.fullmatch(language):
                raise MusterError(f"elements[{index}].{key}: " + (f"only an element's {TRANSLATED} is translated"
                                  if base != TRANSLATED else f"'{language}' is no language tag such as de"),
                                  raw.key_where[key], code="not-translatable" if base != TRANSLATED else "bad-value")
            translations.append((language, Value(raw[key], raw.value_where[key])))
        elif key not in kind.allowed:
            raise MusterError(f"elements[{index}]: unknown key '{key}' for a {name}{did_you_mean(key, kind.allowed)}",
                              raw.key_where[key], code="unknown-key")
    for key in kind.required:
        if key not in raw:
            raise MusterError(f"elements[{index}]: a {name} needs '{key}'", where, code="missing-key")
    accept = raw.get("accept", [])
    if not isinstance(accept, list) or not all(code in ACCEPTABLE for code in accept):
        raise MusterError(f"elements[{index}].accept: expected a list of the warnings an element may accept "
                          f"({', '.join(ACCEPTABLE)}), got {accept!r}", raw.value_where["accept"], code="bad-value")
    if "rotate" in raw and not kind.rotates:
        raise MusterError(f"elements[{index}]: a {name} cannot be rotated (only {', '.join(rotating())})",
                          raw.key_where["rotate"], code="layout-error")
    return Element(name, {key: Value(raw[key], raw.value_where[key]) for key in raw
                          if key != "kind" and ":" not in str(key)}, where, tuple(translations))


def _at(data: Map, key) -> Location:
    return data.value_where.get(key, data.where)
