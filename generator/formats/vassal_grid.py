"""VASSAL's grid for a board's grid: its HexGrid or SquareGrid and their numbering, in the pixels of the board's
image at DPI, so that a grid cell's centre on the printed map is at the same pixel as in VASSAL's grid, and VASSAL
names every cell as the map prints it."""

from __future__ import annotations

from ..core import codes
from ..core.errors import MusterError
from ..core.geometry import HexGrid, number_digits
from ..core.units import MM_PER

DPI = 150                    # pixels per inch of every image: boards, counters and cards at their printed size
MM_PER_INCH = MM_PER["in"]


def pixels(mm: float) -> float:
    return mm / MM_PER_INCH * DPI


def hex_shift(grid) -> int:
    """1 when VASSAL's grid starts a line before the first: VASSAL pushes only the lines of odd index (odd columns
    lower; sideways, odd rows further right), so an even offset is an odd one counted from line -1."""
    return 1 if grid.offset == "even" else 0


def grid_attributes(grid) -> dict:
    """VASSAL's grid for a board grid, in pixels at DPI. The origin (x0, y0) is the centre of VASSAL's cell 0: a
    square grid's first cell, cells dx x dy. A hex grid has lines dx apart of hexes dy across, its odd lines dy/2
    along (HexGrid.hexY); flat tops are columns (sideways false), pointy tops rows (sideways true: VASSAL swaps x
    and y, the origin's and every point's, HexGrid.rotateIfSideways)."""
    if grid.shape == "square":
        step = pixels(grid.cell)
        origin = (pixels(grid.margin + grid.cell / 2), pixels(grid.margin + grid.cell / 2))
        spacing = (step, step)
    else:
        hexes = HexGrid(grid.cell, grid.orientation, grid.offset, grid.margin, grid.margin)
        sideways = grid.orientation == "pointy"
        x, y = hexes.centre(0, -hex_shift(grid)) if sideways else hexes.centre(-hex_shift(grid), 0)
        origin = (pixels(y), pixels(x)) if sideways else (pixels(x), pixels(y))
        spacing = (pixels(1.5 * hexes.radius), pixels(grid.cell))
    attributes = {"x0": str(round(origin[0])), "y0": str(round(origin[1])),
                  "dx": f"{spacing[0]:.4f}", "dy": f"{spacing[1]:.4f}",
                  "snapTo": "true", "visible": "false", "color": "0,0,0"}
    if grid.shape == "hex":
        attributes["sideways"] = "true" if sideways else "false"
    return attributes


def numbering(grid, board: str) -> dict:
    """Cells named as Muster names them (RegularGridNumbering.getName): column letters then the row ("C4"), or
    column then row zero-padded ("0304": hLeading/vLeading are the zeros a number may get), each counted from the
    grid's first column and row (hOff/vOff: the number of line 0, "1701" for a map that starts there). VASSAL's
    h keys number its columns, v keys its rows; sideways, its columns are the map's rows, so the map's columns
    take the v keys and come first with first="V". No stagger: VASSAL numbers a hex by its line, as Muster does."""
    if grid.numbering == "letter" and grid.columns + grid.first[0] - 1 > 26:
        raise MusterError.of(codes.VASSAL_NUMBERING, board=board, columns=grid.columns)
    sideways = grid.shape == "hex" and grid.orientation == "pointy"
    shift = hex_shift(grid) if grid.shape == "hex" else 0
    column_shift, row_shift = (0, shift) if sideways else (shift, 0)
    first_column, first_row = grid.first
    if grid.numbering == "letter":
        kinds, offsets, zeros = ("A", "N"), (first_column - 1 - column_shift, first_row - row_shift), (0, 0)
    else:
        kinds, offsets = ("N", "N"), (first_column - column_shift, first_row - row_shift)
        zeros = tuple(number_digits(count + first - 1) - 1 for count, first in ((grid.columns, first_column),
                                                                                 (grid.rows, first_row)))
    keys = dict(zip(("column", "row"), ("v", "h") if sideways else ("h", "v")))
    by_axis = {keys[line]: values for line, values in zip(("column", "row"), zip(kinds, offsets, zeros))}
    attributes = {"first": "V" if sideways else "H", "hType": by_axis["h"][0], "vType": by_axis["v"][0],
                  "hOff": str(by_axis["h"][1]), "vOff": str(by_axis["v"][1]), "sep": "",
                  "hLeading": str(by_axis["h"][2]), "vLeading": str(by_axis["v"][2]), "hDescend": "false",
                  "vDescend": "false", "visible": "false"}
    if grid.shape == "hex":
        attributes["stagger"] = "false"
    return attributes
