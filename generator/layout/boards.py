"""Boards (maps and play mats): their cells, the cells placed from a seed, and their one large face."""

from __future__ import annotations

import random

from ..core.display import Face
from ..core.errors import Finding, MusterError
from ..core.geometry import cell_centre, cell_index, column_name
from . import sandbox
from .layout import Evaluator, LayoutError, find_layout, game_context, read_layout, text_findings
from ..core.model import Board, Game


def placed_cells(board: Board, seed: int) -> dict[str, list[tuple[int, int]]]:
    """For each placement, its cells (column, row; 0-based), drawn without repeats from `seed` alone.

    Placements never share a cell with each other or with a feature the data names; the same seed always gives
    the same cells.
    """
    taken = {cell_index(label) for labels in board.features.values() for label in labels}
    result = {}
    for name, placement in board.place.items():
        rows = [r - 1 for r in placement.rows] if placement.rows else list(range(board.grid.rows))
        columns = [c - 1 for c in placement.columns] if placement.columns else list(range(board.grid.columns))
        free = [(c, r) for r in rows for c in columns if (c, r) not in taken]
        if placement.count > len(free):
            raise MusterError(f"board '{board.id}': {placement.count} {name} do not fit in the {len(free)} free cells", board.where)
        chosen = sorted(random.Random(f"{seed}/{board.id}/{name}").sample(free, placement.count), key=lambda c: (c[1], c[0]))
        taken.update(chosen)
        result[name] = chosen
    return result


def board_context(game: Game, board: Board, seed: int) -> dict:
    grid = board.grid

    def cell(column: int, row: int) -> dict:
        x, y = cell_centre(grid.shape, column, row, grid.cell, grid.margin, grid.margin)
        return {"column": column, "row": row, "label": f"{column_name(column)}{row + 1}", "x": x, "y": y}

    context = {
        "id": board.id, "name": board.name, "w": board.size[0], "h": board.size[1], "seed": seed,
        "grid": None, "placed": {}, "features": {},
    }
    if grid is not None:
        context["grid"] = {"columns": grid.columns, "rows": grid.rows, "cell": grid.cell, "shape": grid.shape,
                           "x": grid.margin, "y": grid.margin}
        context["placed"] = {name: [cell(*c) for c in cells] for name, cells in placed_cells(board, seed).items()}
        context["features"] = {name: [cell(*cell_index(label)) for label in labels]
                               for name, labels in board.features.items()}
    return {**game_context(game), "board": context}


BOARD_SAFE = 3.0  # mm: text kept this far from a board's edge


def lay_out_board(game: Game, board: Board, seed: int | None = None,
                  warnings: bool = False) -> tuple[Face | None, list[Finding]]:
    """The board's face, and the findings its layout produced: template errors, text that does not fit, and with
    `warnings` the printed-text checks cards get too (glyphs, small text, the safe zone)."""
    seed = board.seed if seed is None else seed
    try:
        evaluator = Evaluator(game, read_layout(find_layout(game, board.layout)), 0.0, board.size)
        problems: list[str] = []
        with sandbox.time_limit():
            face = evaluator.face(board_context(game, board, seed), problems)
    except LayoutError as exc:
        return None, [Finding("error", exc.where, f"boards.{board.id}", f"{exc.message} (drawing board '{board.id}')")]
    except sandbox.TimeLimit as exc:
        return None, [Finding("error", board.where, f"boards.{board.id}", str(exc))]
    except MusterError as exc:
        return None, [Finding("error", exc.where or board.where, f"boards.{board.id}", exc.message)]
    findings = [Finding("error", board.where, f"boards.{board.id}", p) for p in problems]
    if warnings:
        findings += text_findings(face, BOARD_SAFE, board.where, f"boards.{board.id}", f"board '{board.id}'")
    return face, findings
