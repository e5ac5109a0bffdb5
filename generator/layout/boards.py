"""Boards (maps and play mats): their cells, the cells placed from a seed, and their one large face."""

from __future__ import annotations

import random
from dataclasses import asdict
from functools import partial
from typing import Callable

from ..core.display import Face
from ..core import codes
from ..core.errors import Finding, MusterError
from ..core.geometry import HexGrid, cell_centre, cell_index, cell_label
from ..core.model import Board, Game
from ..core import sandbox
from .context import game_context
from .evaluation import Evaluator
from .files import find_layout, read_layout
from .findings import attempt, filed, text_findings


def placed_cells(board: Board, seed: int) -> dict[str, list[tuple[int, int]]]:
    """For each placement, its cells (column, row; 0-based), drawn without repeats from `seed` alone.

    Placements never share a cell with each other or with a feature the data names; the same seed always gives
    the same cells.
    """
    grid = board.grid
    taken = {cell_index(label, grid.numbering, grid.columns, grid.rows, grid.first)
             for labels in board.features.values() for label in labels}
    result = {}
    for name, placement in board.place.items():
        rows = [r - 1 for r in placement.rows] if placement.rows else list(range(board.grid.rows))
        columns = [c - 1 for c in placement.columns] if placement.columns else list(range(board.grid.columns))
        free = [(c, r) for r in rows for c in columns if (c, r) not in taken]
        if placement.count > len(free):
            raise MusterError.of(codes.TOO_FEW_CELLS, board.where, board=board.id, count=placement.count, name=name,
                                 free=len(free))
        chosen = sorted(random.Random(f"{seed}/{board.id}/{name}").sample(free, placement.count), key=lambda c: (c[1], c[0]))
        taken.update(chosen)
        result[name] = chosen
    return result


def board_context(game: Game, board: Board, seed: int) -> dict:
    """What a board's layout sees: the game, and the board with its grid, its placements, its features, and on a
    hex map its terrain, its hexes' terrain and its hexsides (with the points a polygon or line draws them by)."""
    grid = board.grid
    hexes = HexGrid(grid.cell, grid.orientation, grid.offset, grid.margin, grid.margin) if grid else None

    def index(label: str) -> tuple[int, int]:
        return cell_index(label, grid.numbering, grid.columns, grid.rows, grid.first)

    def cell(column: int, row: int) -> dict:
        if grid.shape == "hex":
            x, y = hexes.centre(column, row)
        else:
            x, y = cell_centre(grid.shape, column, row, grid.cell, grid.margin, grid.margin)
        return {"column": column, "row": row, "label": cell_label(column, row, grid.numbering, grid.columns, grid.rows,
                                                                   grid.first),
                "x": x, "y": y}

    context = {
        "id": board.id, "name": board.name, "w": board.size[0], "h": board.size[1], "seed": seed,
        "grid": None, "placed": {}, "features": {}, "terrain": {}, "hexes": [], "hexsides": [],
    }
    if grid is not None:
        context["grid"] = {"columns": grid.columns, "rows": grid.rows, "cell": grid.cell, "shape": grid.shape,
                           "x": grid.margin, "y": grid.margin, "orientation": grid.orientation,
                           "offset": grid.offset, "numbering": grid.numbering, "first_column": grid.first[0],
                           "first_row": grid.first[1]}
        context["placed"] = {name: [cell(*c) for c in cells] for name, cells in placed_cells(board, seed).items()}
        context["features"] = {name: [cell(*index(label)) for label in labels]
                               for name, labels in board.features.items()}
        terrain = {name: asdict(kind) | {"key": name} for name, kind in board.terrain.items()}
        context["terrain"] = terrain
        context["hexes"] = [
            {**terrain[kind], **cell(*index(label)), "terrain": kind,
             "points": " ".join(f"{x:g} {y:g}" for x, y in hexes.corners(*index(label)))}
            for label, kind in board.hexes.items()]
        context["hexsides"] = [
            {**terrain[side.terrain], "terrain": side.terrain, "between": list(side.between),
             **dict(zip(("x1", "y1", "x2", "y2"), (*ends[0], *ends[1])))}
            for side in board.hexsides for ends in [hexes.side(index(side.between[0]), index(side.between[1]))]]
    return {**game_context(game), "board": context}


BOARD_SAFE = 3.0  # mm: text kept this far from a board's edge


def lay_out_board(game: Game, board: Board, seed: int | None = None, warnings: bool = False,
                  evaluator: Callable[..., Evaluator] = Evaluator,
                  extra: dict | None = None) -> tuple[Face | None, list[Finding]]:
    """The board's face (None when an error stopped it), and the findings its layout produced: template errors,
    text that does not fit, missing glyphs, and with `warnings` the other printed-text checks cards get too
    (small text, the safe zone). `evaluator` makes the layout's Evaluator, as for lay_out_batches; `extra` adds
    names the layout sees (Muster's own pages: the calibration page's `calibration`)."""
    findings: list[Finding] = []
    face = attempt(partial(_board_face, game, board, board.seed if seed is None else seed, warnings, findings,
                           evaluator, extra or {}),
                   findings, board.where, f"boards.{board.id}", f"board '{board.id}'")
    return face, findings


def _board_face(game: Game, board: Board, seed: int, warnings: bool, findings: list[Finding],
                evaluator: Callable[..., Evaluator], extra: dict) -> Face:
    field, label = f"boards.{board.id}", f"board '{board.id}'"
    evaluating = evaluator(game, read_layout(find_layout(game, board.layout)), 0.0, board.size, field)
    evaluating.small_text = warnings
    with sandbox.time_limit():
        face, found = evaluating.face({**board_context(game, board, seed), **extra}, lambda: label)
    findings += filed(found, board.where, field, label)
    findings += text_findings(face, BOARD_SAFE, board.where, field, label, warnings)
    return face
