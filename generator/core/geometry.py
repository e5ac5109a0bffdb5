"""Grid arithmetic shared by the grid element, boards and their placements: cells, centres, names."""

from __future__ import annotations

import re

SQRT3 = 3 ** 0.5


def column_name(index: int) -> str:
    """Spreadsheet-style column letters: A..Z, AA, AB, ..."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(65 + rest) + name
    return name


def cell_centre(shape: str, column: int, row: int, cell: float, x0: float = 0.0, y0: float = 0.0) -> tuple[float, float]:
    """Centre of a grid cell in mm. Hexes are flat-topped, `cell` across the flats, odd columns half a cell lower."""
    if shape == "square":
        return x0 + (column + 0.5) * cell, y0 + (row + 0.5) * cell
    radius = cell / SQRT3
    return x0 + radius + column * 1.5 * radius, y0 + cell / 2 + row * cell + (cell / 2 if column % 2 else 0.0)


def hex_corners(cx: float, cy: float, cell: float) -> tuple[tuple[float, float], ...]:
    radius = cell / SQRT3
    return tuple((round(cx + radius * dx, 4), round(cy + cell / 2 * dy, 4))
                 for dx, dy in ((1, 0), (0.5, 1), (-0.5, 1), (-1, 0), (-0.5, -1), (0.5, -1)))


def grid_extent(shape: str, columns: int, rows: int, cell: float) -> tuple[float, float]:
    """Width and height in mm of a grid of columns x rows cells."""
    if shape == "square":
        return columns * cell, rows * cell
    radius = cell / SQRT3
    return 2 * radius + (columns - 1) * 1.5 * radius, rows * cell + (cell / 2 if columns > 1 else 0.0)


_CELL = re.compile(r"^([A-Z]{1,2})(\d{1,3})$")


def cell_index(label: str) -> tuple[int, int] | None:
    """(column, row), 0-based, of a cell named like a spreadsheet: 'C4' is the third column, fourth row."""
    match = _CELL.match(str(label).strip().upper())
    if not match:
        return None
    column = 0
    for letter in match.group(1):
        column = column * 26 + ord(letter) - 64
    return column - 1, int(match.group(2)) - 1
