"""Boards from game.yaml: their size (given, or made by the grid), grid, cells placed at random, named cells."""

from __future__ import annotations

from ..core import codes
from ..core.errors import MusterError, did_you_mean
from ..core.geometry import HexGrid, cell_index, grid_extent
from ..core.model import Board, BoardGrid, Hexside, Placement, Terrain, frozen
from ..core.units import parse_size
from ..core import sandbox
from .kinds import DECK_ID, NAMED_COLOUR, named_colour
from .reader import Reader, at, join
from .sourcemap import Map
from .rules import formula
from .spec import BOARD, BOARD_SHAPES, GAME, GRID, HEXSIDE, MAX_BOARD_MM, MAX_FIRST, MIN_BOARD_MM, PLACE, TERRAIN


def board_size(value, constants: dict) -> tuple[float, float]:
    """A board's size: "277mm x 190mm", or a template over the constants that gives one."""
    if sandbox.is_template(value):
        try:
            value = sandbox.render(value, {"constants": dict(constants)})
        except Exception as exc:  # any failure of the template is the game's author's to fix
            message, code = sandbox.failure(exc, "bad-template")
            raise MusterError(message, code=code) from None
    try:
        return parse_size(value, {})
    except (TypeError, ArithmeticError) as exc:
        raise MusterError(str(exc), code="bad-template") from None


def read_boards(reader: Reader, data: Map, constants: dict, colours: dict[str, str]) -> dict[str, Board]:
    result = {}
    for board_id, body, field, where in reader.entries(data, GAME["boards"], "board"):
        reader.keys(body, field, BOARD)
        grid = _grid(reader, body, field, constants)
        if "size" in body:
            size = reader.attempt(at(body, "size"), join(field, "size"), board_size, body["size"], constants)
            if size is None:
                continue
        elif grid is not None:
            extent = grid_extent(grid.shape, grid.columns, grid.rows, grid.cell, grid.orientation, grid.offset)
            size = (extent[0] + 2 * grid.margin, extent[1] + 2 * grid.margin)
        else:
            if "grid" not in body:  # a grid given but wrong has been reported
                reader.error(body.where, field, "give size, or a grid to size the board by", "missing-key")
            continue
        if not (MIN_BOARD_MM <= size[0] <= MAX_BOARD_MM and MIN_BOARD_MM <= size[1] <= MAX_BOARD_MM):
            reader.error(at(body, "size"), join(field, "size"),
                         f"a board is {MIN_BOARD_MM:g} mm to {MAX_BOARD_MM:g} mm on each side", "out-of-range")
            continue
        file = reader.value(body, BOARD["file"], field, default=board_id)
        if not DECK_ID.match(file):
            reader.found(codes.BAD_ID, at(body, "file"), join(field, "file"), what="a file stem", more="")
            continue
        if "layout" not in body:  # reported by Reader.keys: a board without a layout cannot be drawn
            continue
        result[board_id] = Board(
            id=board_id, file=file, name=reader.value(body, BOARD["name"], field, default=board_id),
            layout=body["layout"], size=size, grid=grid,
            place=frozen(_placements(reader, body, field, constants, grid)),
            features=frozen(_features(reader, body, field, grid)), seed=reader.value(body, BOARD["seed"], field),
            where=where, paper=reader.value(body, BOARD["paper"], field), **_hex_terrain(reader, body, field, grid, colours),
        )
    return result


def _grid(reader: Reader, body: Map, field: str, constants: dict) -> BoardGrid | None:
    if "grid" not in body:
        return None
    spec = reader.mapping(body["grid"], at(body, "grid"), join(field, "grid"))
    if spec is None:
        return None
    field = join(field, "grid")
    reader.keys(spec, field, GRID)
    numbers = {}
    for key in (GRID["columns"], GRID["rows"]):
        where = at(spec, key.name)
        value = reader.attempt(where, join(field, key.name), formula, spec.get(key.name), constants)
        if not isinstance(value, int) or not key.minimum <= value <= key.maximum:
            reader.error(where, join(field, key.name), f"expected a whole number from {key.minimum} to {key.maximum}",
                         "out-of-range")
            return None
        numbers[key.name] = value
    cell = reader.attempt(at(spec, "cell"), join(field, "cell"), GRID["cell"].read, spec.get("cell"))
    if cell is None:
        return None
    margin = reader.attempt(at(spec, "margin"), join(field, "margin"), GRID["margin"].read,
                            spec.get("margin", GRID["margin"].default))
    if margin is None:
        return None
    shape = spec.get("shape", GRID["shape"].default)
    if shape not in BOARD_SHAPES:  # a cell's bounds are its key's (spec.GRID)
        reader.error(at(spec, "shape"), join(field, "shape"), f"expected shape square or hex, got {shape!r}",
                     "bad-choice")
        return None
    numbering = spec.get("numbering")
    if isinstance(numbering, int) and not isinstance(numbering, bool):
        reader.error(at(spec, "numbering"), join(field, "numbering"),
                     f"write \"0101\" in quotes: unquoted, YAML reads it as the number {numbering}", "wrong-type")
        return None
    first = tuple(reader.value(spec, GRID[name], field) for name in ("first_column", "first_row"))
    if first[0] + numbers["columns"] - 1 > MAX_FIRST or first[1] + numbers["rows"] - 1 > MAX_FIRST:
        reader.error(at(spec, "first_column"), join(field, "first_column"),
                     f"the last column and row are numbered at most {MAX_FIRST}", "out-of-range")
        return None
    if first[0] < 1 and spec.get("numbering", GRID["numbering"].default) == "letter":
        reader.error(at(spec, "first_column"), join(field, "first_column"),
                     "letter numbering starts at column 1 (A) or later", "out-of-range")
        return None
    return BoardGrid(numbers["columns"], numbers["rows"], cell, shape, margin,
                     *(reader.value(spec, GRID[name], field) for name in ("orientation", "offset", "numbering")),
                     first)


def _placements(reader: Reader, body: Map, field: str, constants: dict, grid: BoardGrid | None) -> dict:
    raw = reader.section(body, BOARD["place"], field)
    result = {}
    for name, spec in raw.items():
        where = join(join(field, "place"), name)
        spec = reader.mapping(spec, raw.value_where[name], where)
        if spec is None:
            continue
        if grid is None:
            reader.error(spec.where, where, "placing cells needs the board's grid", "missing-key")
            continue
        reader.keys(spec, where, PLACE)
        lines = {}
        for key, limit in (("rows", grid.rows), ("columns", grid.columns)):
            value = spec.get(key)
            if value is None:
                lines[key] = None
            elif isinstance(value, list) and value and all(isinstance(v, int) and 1 <= v <= limit for v in value):
                lines[key] = tuple(value)
            else:
                reader.error(at(spec, key), join(where, key), f"expected a list of {key} from 1 to {limit}",
                             "out-of-range" if isinstance(value, list) else "wrong-type")
                lines[key] = ()
        count = reader.attempt(at(spec, "count"), join(where, "count"), formula, spec.get("count"), constants)
        cells = len(lines["rows"] or range(grid.rows)) * len(lines["columns"] or range(grid.columns))
        if not isinstance(count, int) or not 0 <= count <= cells:
            reader.error(at(spec, "count"), join(where, "count"),
                         f"expected a whole number from 0 to {cells} (the cells available)", "out-of-range")
            continue
        result[str(name)] = Placement(count, lines["rows"], lines["columns"])
    return result


def _features(reader: Reader, body: Map, field: str, grid: BoardGrid | None) -> dict:
    raw = reader.section(body, BOARD["features"], field)
    result = {}
    for name, cells in raw.items():
        where = join(join(field, "features"), name)
        if grid is None or not isinstance(cells, list):
            reader.error(raw.value_where[name], where, "expected a list of cells such as C4 on a board with a grid",
                         "missing-key" if grid is None else "wrong-type")
            continue
        bad = [c for c in cells if _cell(grid, c) is None]
        if bad:
            reader.error(raw.value_where[name], where,
                         f"not cells of this {grid.columns} x {grid.rows} grid: {', '.join(map(str, bad))}",
                         "out-of-range")
            continue
        result[str(name)] = tuple(str(c).upper() for c in cells)
    return result


def _cell(grid: BoardGrid, label) -> tuple[int, int] | None:
    """(column, row) of the cell `label` names by the grid's numbering; None when the grid has no such cell."""
    index = cell_index(label, grid.numbering, grid.columns, grid.rows, grid.first)
    if index is None or not (0 <= index[0] < grid.columns and 0 <= index[1] < grid.rows):
        return None
    return index


def _hex_label(grid: BoardGrid, label, where, field: str, reader: Reader) -> tuple[int, int] | None:
    """The hex `label` names, or None after an error saying why it names none."""
    if isinstance(label, int) and not isinstance(label, bool):  # YAML reads 0304 as a number: its text is lost
        reader.error(where, field, f"write hex names in quotes, \"0304\": unquoted, YAML reads {label} as a number",
                     "wrong-type")
        return None
    index = _cell(grid, label)
    if index is None:
        reader.error(where, field, f"'{label}' is no hex of this {grid.columns} x {grid.rows} grid", "out-of-range")
    return index


def _hex_terrain(reader: Reader, body: Map, field: str, grid: BoardGrid | None, colours: dict[str, str]) -> dict:
    """The board's terrain kinds, its hexes' terrain and its hexsides, each hexside checked to lie between two
    neighbouring hexes of the grid."""
    terrain = {}
    for name, spec, where in _terrain_specs(reader, body, field):
        reader.keys(spec, where, TERRAIN)
        values = {key.name: reader.attempt(at(spec, key.name), join(where, key.name), named_colour, spec.get(key.name),
                                           colours) if key.kind is NAMED_COLOUR else reader.value(spec, key, where)
                  for key in TERRAIN.keys}
        terrain[str(name)] = Terrain(**{**values, "name": values["name"] or str(name)})
    raw_hexes, raw_sides = reader.section(body, BOARD["hexes"], field), body.get("hexsides", [])
    if not (raw_hexes or raw_sides) or (grid is None and "grid" in body):  # a bad grid is reported already
        return {"terrain": frozen(terrain)}
    if grid is None or grid.shape != "hex":
        reader.found(codes.NOT_HEX_GRID, body.where, field)
        return {"terrain": frozen(terrain)}
    hexes = {}
    for label, kind in raw_hexes.items():
        where = join(join(field, "hexes"), label)
        if _hex_label(grid, label, raw_hexes.key_where[label], where, reader) and _known(
                reader, terrain, kind, raw_hexes.value_where[label], where):
            hexes[str(label)] = str(kind)
    return {"terrain": frozen(terrain), "hexes": frozen(hexes),
            "hexsides": tuple(_hexsides(reader, body, field, grid, terrain))}


def _terrain_specs(reader: Reader, body: Map, field: str):
    raw = reader.section(body, BOARD["terrain"], field)
    for name, spec in raw.items():
        where = join(join(field, "terrain"), name)
        spec = reader.mapping(spec, raw.value_where[name], where)
        if spec is not None:
            yield name, spec, where


def _known(reader: Reader, terrain: dict, kind, where, field: str) -> bool:
    if kind in terrain:
        return True
    reader.found(codes.UNKNOWN_TERRAIN, where, field, name=kind, hint=did_you_mean(str(kind), list(terrain), ""),
                 terrain=", ".join(terrain) or "none")
    return False


def _hexsides(reader: Reader, body: Map, field: str, grid: BoardGrid, terrain: dict) -> list[Hexside]:
    shape = HexGrid(grid.cell, grid.orientation, grid.offset)
    result = []
    for where, spec in reader.listed(body, "hexsides", join(field, "hexsides")):
        reader.keys(spec, where, HEXSIDE)
        between = spec.get("between")
        if not isinstance(between, list) or len(between) != 2:
            reader.error(at(spec, "between"), join(where, "between"), "expected the two hexes: [\"0304\", \"0305\"]",
                         "wrong-type")
            continue
        cells = [_hex_label(grid, label, at(spec, "between"), join(where, "between"), reader) for label in between]
        if None in cells or not _known(reader, terrain, spec.get("terrain"), at(spec, "terrain"), join(where, "terrain")):
            continue
        if shape.side(*cells) is None:
            reader.error(at(spec, "between"), join(where, "between"),
                         f"hexes {between[0]} and {between[1]} are not neighbours: no side lies between them",
                         "not-neighbours")
            continue
        result.append(Hexside((str(between[0]), str(between[1])), str(spec["terrain"])))
    return result
