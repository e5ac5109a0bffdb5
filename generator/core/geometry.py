"""Grid arithmetic shared by the grid element, boards, their placements and exports: cells, centres, names.

Hex grids are offset grids: a hex is named by its column and row (0-based here), and every other row (pointy
tops) or column (flat tops) is pushed half a hex along. `offset: odd` pushes the lines of odd index (the second,
fourth, ... as printed), `even` those of even index: Red Blob Games' odd-r, even-r, odd-q and even-q.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

SQRT3 = 3 ** 0.5


def column_name(index: int) -> str:
    """Spreadsheet-style column letters: A..Z, AA, AB, ..."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(65 + rest) + name
    return name


NUMBERINGS = ("letter", "0101", "none")  # C4; 0304 (column then row); nothing printed, named as 0304
ORIENTATIONS = ("flat", "pointy")
OFFSETS = ("odd", "even")


@dataclass(frozen=True)
class HexGrid:
    """Hexes `cell` mm across the flats, flat- or pointy-topped, the top-left hex's box at (x0, y0) mm."""

    cell: float
    orientation: str = "flat"
    offset: str = "odd"
    x0: float = 0.0
    y0: float = 0.0

    @property
    def radius(self) -> float:
        """Centre to corner, which is also a side's length."""
        return self.cell / SQRT3

    def pushed(self, line: int) -> bool:
        """Whether the row (pointy) or column (flat) of this index is pushed half a hex along."""
        return line % 2 == (1 if self.offset == "odd" else 0)

    def centre(self, column: int, row: int) -> tuple[float, float]:
        """The centre of hex (column, row), 0-based, in mm."""
        radius, half = self.radius, self.cell / 2
        if self.orientation == "pointy":
            return (self.x0 + half + column * self.cell + (half if self.pushed(row) else 0.0),
                    self.y0 + radius + row * 1.5 * radius)
        return (self.x0 + radius + column * 1.5 * radius,
                self.y0 + half + row * self.cell + (half if self.pushed(column) else 0.0))

    def corners(self, column: int, row: int) -> tuple[tuple[float, float], ...]:
        """The six corners of hex (column, row), clockwise (y downwards) from the east (flat) or south-east one."""
        return hex_corners(*self.centre(column, row), self.cell, self.orientation)

    def extent(self, columns: int, rows: int) -> tuple[float, float]:
        """Width and height in mm of a grid of columns x rows hexes."""
        radius, half = self.radius, self.cell / 2
        if self.orientation == "pointy":
            return columns * self.cell + (half if rows > 1 or self.pushed(0) else 0.0), 2 * radius + (rows - 1) * 1.5 * radius
        return 2 * radius + (columns - 1) * 1.5 * radius, rows * self.cell + (half if columns > 1 or self.pushed(0) else 0.0)

    def neighbours(self, column: int, row: int, columns: int, rows: int) -> list[tuple[int, int]]:
        """The hexes of a columns x rows grid that share a side with (column, row), in column then row order."""
        here = self.centre(column, row)
        return [(c, r) for c in range(max(column - 1, 0), min(column + 2, columns))
                for r in range(max(row - 1, 0), min(row + 2, rows))
                if (c, r) != (column, row) and abs(math.dist(here, self.centre(c, r)) - self.cell) < 1e-6]

    def side(self, first: tuple[int, int], second: tuple[int, int]) -> tuple[tuple[float, float], tuple[float, float]] | None:
        """The side two hexes share, as its two end corners; None when they are not neighbours."""
        others = self.corners(*second)
        shared = [p for p in self.corners(*first) if any(math.dist(p, q) < 1e-3 for q in others)]
        return (shared[0], shared[1]) if len(shared) == 2 else None


def hex_corners(cx: float, cy: float, cell: float, orientation: str = "flat") -> tuple[tuple[float, float], ...]:
    """The corners of the hex `cell` mm across the flats centred on (cx, cy)."""
    radius = cell / SQRT3
    if orientation == "pointy":
        return tuple((round(cx + cell / 2 * dx, 4), round(cy + radius * dy, 4))
                     for dx, dy in ((1, 0.5), (0, 1), (-1, 0.5), (-1, -0.5), (0, -1), (1, -0.5)))
    return tuple((round(cx + radius * dx, 4), round(cy + cell / 2 * dy, 4))
                 for dx, dy in ((1, 0), (0.5, 1), (-0.5, 1), (-1, 0), (-0.5, -1), (0.5, -1)))


def cell_centre(shape: str, column: int, row: int, cell: float, x0: float = 0.0, y0: float = 0.0) -> tuple[float, float]:
    """Centre of a grid cell in mm; hexes flat-topped, odd columns half a cell lower (HexGrid for the others)."""
    if shape == "square":
        return x0 + (column + 0.5) * cell, y0 + (row + 0.5) * cell
    return HexGrid(cell, x0=x0, y0=y0).centre(column, row)


def grid_extent(shape: str, columns: int, rows: int, cell: float, orientation: str = "flat",
                offset: str = "odd") -> tuple[float, float]:
    """Width and height in mm of a grid of columns x rows cells."""
    if shape == "square":
        return columns * cell, rows * cell
    return HexGrid(cell, orientation, offset).extent(columns, rows)


def number_digits(count: int) -> int:
    """The digits a 0101-style number gives each of a grid's `count` columns (or rows): enough for the last, at
    least two."""
    return max(2, len(str(count)))


def cell_label(column: int, row: int, numbering: str = "letter", columns: int = 0, rows: int = 0,
               first: tuple[int, int] = (1, 1)) -> str:
    """The name of cell (column, row), 0-based: C4 (letter), or 0304 (0101 and none: column then row, each
    zero-padded to the digits its grid's last number needs, at least two). The first column and row are numbered
    `first` (a published map's 1701 is column 17, row 1)."""
    column, row = column + first[0], row + first[1]
    if numbering == "letter":
        return f"{column_name(column - 1)}{row}"
    return f"{column:0{number_digits(columns + first[0] - 1)}d}{row:0{number_digits(rows + first[1] - 1)}d}"


_CELL = re.compile(r"^([A-Z]{1,2})(\d{1,3})$")


def cell_index(label: str, numbering: str = "letter", columns: int = 0, rows: int = 0,
               first: tuple[int, int] = (1, 1)) -> tuple[int, int] | None:
    """(column, row), 0-based, of a cell named as cell_label names it: 'C4' is the third column, fourth row; with
    numbering 0101 (or none) on a 20 x 24 grid, '0304' is the third column, fourth row; numbered from `first`
    (17, 1), '1701' is the first column, first row. None: no such name (nor one before `first`)."""
    if numbering != "letter":
        text, split = str(label).strip(), number_digits(columns + first[0] - 1)
        if not text.isdigit() or not text.isascii() or len(text) != split + number_digits(rows + first[1] - 1):
            return None
        column, row = int(text[:split]), int(text[split:])
    else:
        match = _CELL.match(str(label).strip().upper())
        if not match:
            return None
        column = 0
        for letter in match.group(1):
            column = column * 26 + ord(letter) - 64
        row = int(match.group(2))
    if column < first[0] or row < first[1]:
        return None
    return column - first[0], row - first[1]
