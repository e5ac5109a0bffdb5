"""Boards larger than the paper, cut into tiles that overlap, with trim lines, registration crosses and labels."""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Sequence

from ..core import fonts
from ..core.display import Line, Rect, Run, Turned
from ..core.units import PT_PER_MM
from .sheets import MARK_WIDTH, Sheet, Slot

TILE_MARGIN = 10.0   # mm: home printers leave 4-6 mm unprinted; the rest holds the tile's label
OVERLAP = 10.0       # mm of the board printed on both neighbouring tiles, for trimming and taping
MIN_TILE_SHARE = 0.45  # of the window: no tile is cut shorter, so none comes out a thin strip


@dataclass(frozen=True)
class Tiling:
    """A board cut into tiles: `columns` x `rows` sheets of `paper` (either orientation), one tile each."""

    paper: tuple[float, float]
    columns: int
    rows: int
    sheets: tuple[Sheet, ...]


def tiles(size: tuple[float, float], paper: tuple[float, float], label: str,
          keep_whole: Sequence[tuple[float, float, float, float]] = ()) -> Tiling:
    """A board of `size` mm on as few pages of `paper` (either orientation) as will hold it at 100 %.

    A board that fits is centred on one page. A larger one is cut into a grid of tiles of even size, so that none
    comes out a thin strip; neighbouring tiles share an OVERLAP strip, marked with a dashed trim line and
    registration crosses, and every tile carries its position and a small assembly diagram in its bottom margin.
    Each trim line is moved off the boxes of `keep_whole` (left, top, right, bottom in mm on the board: its
    labels) where it can be (see seams), so that no label is cut in two.
    """
    best = None
    for candidate in (paper, (paper[1], paper[0])):
        window = (candidate[0] - 2 * TILE_MARGIN, candidate[1] - 2 * TILE_MARGIN)
        counts = tuple(_tile_count(size[i], window[i]) for i in (0, 1))
        if best is None or counts[0] * counts[1] < best[1][0] * best[1][1]:
            best = (candidate, counts, window)
    page, (columns, rows), window = best
    if columns * rows == 1:
        slot = Slot((page[0] - size[0]) / 2, (page[1] - size[1]) / 2, size[0], size[1], 0, 0, 0, 0)
        return Tiling(page, 1, 1, (Sheet("tile", page, ((slot, 0),)),))
    across = seams(size[0], window[0], columns, [(box[0], box[2]) for box in keep_whole])
    down = seams(size[1], window[1], rows, [(box[1], box[3]) for box in keep_whole])
    result = []
    for row in range(rows):
        for column in range(columns):
            left, top = across[column][0], down[row][0]  # the window's top-left on the board
            width, height = across[column][1] - left, down[row][1] - top
            x, y = TILE_MARGIN - left, TILE_MARGIN - top  # where the board's origin falls on this page
            slot = Slot(x, y, size[0], size[1], left=-left, right=width + left - size[0],
                        top=-top, bottom=height + top - size[1])
            overlay = _tile_guides(column, row, columns, rows, width, height, page, label)
            result.append(Sheet("tile", page, ((slot, 0),), tuple(overlay)))
    return Tiling(page, columns, rows, tuple(result))


def seams(length: float, window: float, count: int, spans: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """Where each of `count` tiles starts and ends along one side of the board, in mm.

    The tiles are first all the same length (each sharing OVERLAP with its neighbours); then each trim line (where
    a tile's shown part ends and the next one's begins) moves to the nearest place that cuts none of `spans`
    (labels' extents along this side), as long as every tile still fits the window and none is shorter than
    MIN_TILE_SHARE of it; where every place cuts some, the one that cuts fewest.
    """
    even = (length + (count - 1) * OVERLAP) / count
    shortest = MIN_TILE_SHARE * window
    trims = [OVERLAP]  # where the first tile would begin after a trim: at the board's edge
    for k in range(1, count):
        left = count - k  # tiles after this trim line
        low = max(trims[-1] - OVERLAP + shortest, length + OVERLAP - left * window + (left - 1) * OVERLAP)
        high = min(trims[-1] - OVERLAP + window, length + OVERLAP - left * shortest + (left - 1) * OVERLAP)
        trims.append(_clear(min(max(k * even - (k - 1) * OVERLAP, low), high), low, high, spans))
    starts = [0.0] + [trim - OVERLAP for trim in trims[1:]]
    return list(zip(starts, trims[1:] + [length]))


def _clear(trim: float, low: float, high: float, spans: Sequence[tuple[float, float]]) -> float:
    """The place from `low` to `high` that lies in the fewest of `spans` (none, where there is one), the nearest
    `trim` of those: a title across the whole map is cut where it must be, the small labels around it are not."""
    cut = [(a, b) for a, b in spans if a < high and b > low]
    starts, ends = sorted(a for a, _ in cut), sorted(b for _, b in cut)
    candidates = [trim] + [edge + step for a, b in cut for edge, step in ((a, -0.5), (b, 0.5))]
    return min((c for c in candidates if low <= c <= high),  # spans cut: begun before c, less those ended by c
               key=lambda c: (bisect_left(starts, c) - bisect_right(ends, c), abs(c - trim), c))


def label_boxes(items: Sequence) -> list[tuple[float, float, float, float]]:
    """The box (left, top, right, bottom, mm) of each run of text among display items, turned ones included."""
    boxes = []
    for item in items:
        if isinstance(item, Turned):
            turn = math.radians(item.angle)
            for left, top, right, bottom in label_boxes(item.items):
                points = [(item.cx + (x - item.cx) * math.cos(turn) - (y - item.cy) * math.sin(turn),
                           item.cy + (x - item.cx) * math.sin(turn) + (y - item.cy) * math.cos(turn))
                          for x in (left, right) for y in (top, bottom)]
                boxes.append((min(p[0] for p in points), min(p[1] for p in points),
                              max(p[0] for p in points), max(p[1] for p in points)))
        elif isinstance(item, Run) and item.text.strip():
            size = item.size / PT_PER_MM
            boxes.append((item.x, item.y - size * 0.8, item.x + fonts.unit_width(item.text, item.font) * size,
                          item.y + size * 0.25))
    return boxes


def _tile_count(length: float, window: float) -> int:
    if length <= window + 1e-6:
        return 1
    return math.ceil((length - OVERLAP) / (window - OVERLAP) - 1e-9)


def _tile_guides(column: int, row: int, columns: int, rows: int, width: float, height: float,
                 page: tuple[float, float], label: str) -> list:
    """Trim lines and registration crosses on the overlap strips, the tile's name, and where it goes."""
    x0, y0 = TILE_MARGIN, TILE_MARGIN
    guides = []
    dash = (1.5, 1.5)
    if column > 0:  # trim this tile along its left overlap edge and lay it over its left neighbour
        guides.append(Line(x0 + OVERLAP, y0, x0 + OVERLAP, y0 + height, "#606060", MARK_WIDTH, dash))
    if row > 0:
        guides.append(Line(x0, y0 + OVERLAP, x0 + width, y0 + OVERLAP, "#606060", MARK_WIDTH, dash))
    for cx in ([x0 + OVERLAP / 2] if column > 0 else []) + ([x0 + width - OVERLAP / 2] if column < columns - 1 else []):
        for cy in (y0 + height * 0.25, y0 + height * 0.75):
            guides += _cross(cx, cy)
    for cy in ([y0 + OVERLAP / 2] if row > 0 else []) + ([y0 + height - OVERLAP / 2] if row < rows - 1 else []):
        for cx in (x0 + width * 0.25, x0 + width * 0.75):
            guides += _cross(cx, cy)
    name = f"{label} · tile {chr(65 + row)}{column + 1} (row {row + 1} of {rows}, column {column + 1} of {columns})"
    name += " · print at 100 %, trim the dashed edges, overlap and tape"
    cell = 2.2  # the assembly diagram: one small box per tile, this one filled
    left = page[0] - TILE_MARGIN - columns * cell
    size = min(6.5, (left - x0 - 3) / (fonts.unit_width(name, "text") / PT_PER_MM))
    guides.append(Run(x0, page[1] - TILE_MARGIN / 2 + 1, name, "text", size, "#404040"))
    top = page[1] - TILE_MARGIN + 1.5
    for r in range(rows):
        for c in range(columns):
            guides.append(Rect(left + c * cell, top + r * cell * 0.75, cell, cell * 0.75,
                               "#404040" if (r, c) == (row, column) else None, "#404040", 0.15))
    return guides


def _cross(cx: float, cy: float, arm: float = 2.5) -> list[Line]:
    return [Line(cx - arm, cy, cx + arm, cy, "#000000", MARK_WIDTH), Line(cx, cy - arm, cx, cy + arm, "#000000", MARK_WIDTH)]
