"""The renderer's guard on the numbers of a display list: every one a number PDF can carry, or a fault of Muster's."""

from __future__ import annotations

import math
from itertools import chain
from operator import itemgetter
from typing import Callable, Iterable

from ..core.display import KINDS, Line, Polygon, Polyline, Turned

MAX_MM = 1e6  # any number of a display list: the input checks keep lengths far inside it


def _numbers(kind) -> Callable:
    """The numbers of a display item of `kind`, as a tuple: its fields declared float (one itemgetter for two or
    more)."""
    indices = [index for index, declared in enumerate(kind.__annotations__.values())
               if getattr(declared, "__forward_arg__", declared) in ("float", float)]
    return itemgetter(*indices) if len(indices) > 1 else lambda item: tuple(item[index] for index in indices)


_NUMBERS = {kind: _numbers(kind) for kind in KINDS}


def drawable(items: tuple) -> None:
    """Refuse, as a fault of Muster's, a display list holding a number PDF cannot carry (nan, inf, or one beyond
    MAX_MM): every input's numbers are checked where they are read, with their file and line, so none may get here,
    and reportlab would write 'nan' into the page or fail deep inside. The numbers of all the items are weighed at
    once in C (their sum is finite, their largest within MAX_MM), and the item at fault looked for only when one
    is: the guard costs a few per cent of a build otherwise."""
    if not _carried(chain.from_iterable(map(_numbers_of, items))):
        item = next(item for item in items if not _carried(_numbers_of(item)))
        raise ValueError(f"a display list holds a number PDF cannot carry: {item}"[:200])


def _carried(numbers: Iterable[float]) -> bool:
    magnitudes = list(map(abs, numbers))
    return math.isfinite(sum(magnitudes)) and max(magnitudes, default=0.0) <= MAX_MM


def _numbers_of(item) -> Iterable[float]:
    """Every number of a display item: its own (_NUMBERS), a line's dash, a shape's points, a turned group's items'."""
    kind = type(item)
    numbers = _NUMBERS[kind](item)
    if kind is Line:
        return numbers + item.dash
    if kind is Polygon or kind is Polyline:
        return chain(numbers, chain.from_iterable(item.points))
    if kind is Turned:
        return chain(numbers, chain.from_iterable(map(_numbers_of, item.items)))
    return numbers
