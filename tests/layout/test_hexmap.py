"""Hex maps as wargamers make them (issue 16): pointy and flat tops, 0101 numbers, odd and even offsets, terrain
per hex, rivers along hexsides, and tiles that cut neither thin strips nor labels. The test game is
tests/fixtures/hexmap: a 20 x 24 pointy-top map, 16 mm hexes, numbered 0101, odd rows pushed right."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest

from generator.building.kit import build_game
from generator.checking import check_game
from generator.core.geometry import HexGrid, cell_index, cell_label
from generator.core.options import Options
from generator.core.units import PAPERS, PT_PER_MM
from generator.imposition.tiles import MIN_TILE_SHARE, OVERLAP, TILE_MARGIN, label_boxes, seams, tiles
from generator.layout.boards import board_context, lay_out_board
from generator.reading.loading import load_game
from pdfcheck import char_boxes, rasterise
from conftest import TESTS, patched

HEXMAP = TESTS / "fixtures" / "hexmap"
R = 16 / math.sqrt(3)  # the hexes' radius: centre to corner, and a side's length

# Worked by hand for pointy tops, odd rows pushed right, 16 mm across the flats, the grid 10 mm in:
# x = 10 + 8 + 16 column (+ 8 on an odd row), y = 10 + R + 1.5 R row, with R = 16 / sqrt 3 = 9.2376 mm.
WORKED = {
    "0101": (0, 0, 18.0, 19.2376),   # 10 + 8; 10 + R
    "0102": (0, 1, 26.0, 33.0940),   # row 2 is pushed: 10 + 8 + 8; 10 + 2.5 R
    "0201": (1, 0, 34.0, 19.2376),   # 10 + 8 + 16
    "2024": (19, 23, 330.0, 337.9350),  # 10 + 8 + 19 x 16 + 8; 10 + 35.5 R
}


@pytest.fixture(scope="module")
def game():
    return load_game(HEXMAP)


@pytest.fixture(scope="module")
def laid_out(game):
    face, found = lay_out_board(game, game.boards["map"])
    assert found == []
    return face


def test_the_test_game_validates_clean(game):
    assert [str(f) for f in check_game(game)] == []
    grid = game.boards["map"].grid
    assert (grid.columns, grid.rows, grid.orientation, grid.offset, grid.numbering) == (20, 24, "pointy", "odd", "0101")


def test_hex_centres_and_numbers_match_the_worked_table(game, laid_out):
    board = game.boards["map"]
    context = board_context(game, board, 1)["board"]
    hexes = HexGrid(16.0, "pointy", "odd", 10.0, 10.0)
    runs = {item.text: item for item in laid_out.items if getattr(item, "text", "").isdigit()}
    for label, (column, row, x, y) in WORKED.items():
        assert cell_label(column, row, "0101", 20, 24) == label
        assert cell_index(label, "0101", 20, 24) == (column, row)
        cx, cy = hexes.centre(column, row)
        assert abs(cx - x) < 0.05 and abs(cy - y) < 0.05, label
        # the printed number is centred across its hex, inside the hex's top
        from generator.core import fonts

        run = runs[label]
        middle = run.x + fonts.unit_width(label, run.font) * run.size / PT_PER_MM / 2
        assert abs(middle - x) < 0.05, label
        assert y - R < run.y - run.size / PT_PER_MM < run.y < y, label
    forest = next(h for h in context["hexes"] if h["label"] == "0305")
    assert forest["terrain"] == "forest" and forest["fill"] == "#b5cf9f"
    assert (forest["column"], forest["row"]) == (2, 4)
    assert len(context["hexes"]) == len(board.hexes) == 24


def test_neighbours_offsets_and_orientations():
    pointy = HexGrid(16.0, "pointy", "odd")
    assert pointy.neighbours(0, 0, 20, 24) == [(0, 1), (1, 0)]  # 0102 (pushed right, so below-right) and 0201
    assert pointy.neighbours(0, 1, 20, 24) == [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)]
    assert len(pointy.neighbours(5, 5, 20, 24)) == 6
    even = HexGrid(16.0, "pointy", "even")
    assert even.centre(0, 0) == (16.0, R) and even.centre(0, 1) == (8.0, 2.5 * R)
    flat = HexGrid(16.0)  # today's: flat tops, odd columns half a hex lower
    assert flat.centre(1, 0) == (2.5 * R, 16.0) and flat.extent(3, 2) == (2 * R + 3 * R, 40.0)
    assert HexGrid(16.0, "flat", "even").centre(0, 0) == (R, 16.0)
    assert pointy.extent(20, 24) == (328.0, 2 * R + 23 * 1.5 * R)
    assert cell_label(2, 3) == "C4" and cell_label(2, 3, "0101", 120, 9) == "00304"  # 3 digits for 120 columns
    assert cell_index("0304", "0101", 20, 24) == (2, 3) and cell_index("304", "0101", 20, 24) is None


def test_hexside_terrain_lies_on_the_shared_side(game):
    context = board_context(game, game.boards["map"], 1)["board"]
    hexes = HexGrid(16.0, "pointy", "odd", 10.0, 10.0)
    rivers = [s for s in context["hexsides"] if s["terrain"] == "river"]
    assert len(rivers) == 58 and len(context["hexsides"]) == 77
    for side in context["hexsides"]:
        ends = [(side["x1"], side["y1"]), (side["x2"], side["y2"])]
        first, second = (hexes.corners(*cell_index(label, "0101", 20, 24)) for label in side["between"])
        shared = [p for p in first if any(math.dist(p, q) < 1e-3 for q in second)]
        assert len(shared) == 2, side["between"]
        assert sorted(ends) == sorted(shared), side["between"]  # its ends are the two corners both hexes have
        assert abs(math.dist(*ends) - R) < 1e-3
    # by hand: 1001 and 1101 (columns 10 and 11, row 1) share the upright side at x = 10 + 16 x 10, R tall
    first = next(s for s in rivers if s["between"] == ["1001", "1101"])
    assert first["x1"] == first["x2"] == pytest.approx(170.0, abs=1e-3)
    assert sorted((first["y1"], first["y2"])) == pytest.approx([10 + R / 2, 10 + 1.5 * R], abs=1e-3)
    assert first["stroke"] == "#3f7fbf" and first["width"] == pytest.approx(1.4)


def test_tiles_are_even_and_cut_no_hex_number(game, laid_out):
    board = game.boards["map"]
    boxes = label_boxes(laid_out.items)
    plan = tiles(board.size, PAPERS["a4"], "River Line", boxes)
    assert (plan.columns, plan.rows) == (2, 2)
    window = [side - 2 * TILE_MARGIN for side in plan.paper]
    shown = []
    for sheet in plan.sheets:
        slot = sheet.placements[0][0]
        shown.append((-slot.left, -slot.top, slot.w + slot.right, slot.h + slot.bottom))  # board mm on this tile
    for left, top, right, bottom in shown:
        assert right - left <= window[0] + 1e-6 and bottom - top <= window[1] + 1e-6
        assert right - left >= 0.4 * window[0] and bottom - top >= 0.4 * window[1]  # no thin strip
    # the trim lines: where the second column and row of tiles begin to show, past their overlap
    trim_x, trim_y = shown[1][0] + OVERLAP, shown[2][1] + OVERLAP
    numbers = [box for item, box in zip([i for i in laid_out.items if getattr(i, "text", "").strip()], boxes)
               if item.text.isdigit()]
    assert len(numbers) == 480
    assert not [b for b in numbers if b[0] < trim_x < b[2] or b[1] < trim_y < b[3]]
    # every label shows whole on one tile, inside the page's printable area (TILE_MARGIN from the paper's edge)
    for box in boxes:
        assert any(l <= box[0] and box[2] <= r and t <= box[1] and box[3] <= b for l, t, r, b in shown), box
    assert all(0 < box[0] and box[2] < board.size[0] and 0 < box[1] and box[3] < board.size[1] for box in boxes)


def test_seams_are_even_and_avoid_labels():
    # a 200 mm board on a 190 mm window was a full tile and a 20 mm strip; now two of 105 mm
    assert seams(200.0, 190.0, 2, []) == [(0.0, 105.0), (95.0, 200.0)]
    # a label across the even trim line moves it just past the label's end
    assert seams(200.0, 190.0, 2, [(100.0, 108.0)]) == [(0.0, 108.5), (98.5, 200.0)]
    # where no place is clear, the one cutting fewest; and never a tile under MIN_TILE_SHARE of the window
    (first, first_end), (second, end) = seams(200.0, 190.0, 2, [(0.0, 200.0), (104.0, 106.0)])
    assert first_end in (103.5, 106.5) and end - second >= MIN_TILE_SHARE * 190


def test_the_map_prints_its_numbers_terrain_and_rivers(game, tmp_path):
    build_game(game, tmp_path, Options())
    pdf = tmp_path / "hexmap" / "map.pdf"
    # tile 1 shows the board's top-left corner TILE_MARGIN in from the page's
    height = PAPERS["a4"][1]
    for label in ("0101", "0102", "0201"):
        _, _, x, y = WORKED[label]
        (left, bottom, right, top), = char_boxes(pdf, 0, label)
        assert abs((left + right) / 2 / PT_PER_MM - TILE_MARGIN - x) < 0.3, label
        assert y - R < height - top / PT_PER_MM - TILE_MARGIN < y, label
    assert char_boxes(pdf, 3, "2024")
    dpi = 100
    page = rasterise(pdf, 0, dpi=dpi, mode="RGB")
    px = lambda mm: round((mm + TILE_MARGIN) / 25.4 * dpi)
    # the river between 1001 and 1101, halfway down their shared side, and a forest hex's fill
    red, green, blue = page.getpixel((px(170.0), px(10 + R)))
    assert blue > red + 60, (red, green, blue)
    cx, cy = HexGrid(16.0, "pointy", "odd", 10.0, 10.0).centre(2, 4)
    assert page.getpixel((px(cx + 4), px(cy + 4))) == pytest.approx((181, 207, 159), abs=6)


FIRST_RIVER = '    - {between: ["1001", "1101"], terrain: river}'


@pytest.mark.parametrize("broken, code, words", [
    ('    - {between: ["1001", "1201"], terrain: river}', "not-neighbours", "hexes 1001 and 1201 are not neighbours"),
    ('    - {between: ["1001", "1101"], terrain: rivr}', "unknown-terrain", "did you mean 'river'"),
    ('    - {between: ["1001", 1101], terrain: river}', "wrong-type", "write hex names in quotes"),
    ('    - {between: ["1001", "2501"], terrain: river}', "out-of-range", "'2501' is no hex of this 20 x 24 grid"),
])
def test_bad_hexsides_name_the_line(tmp_path, broken, code, words):
    assert_one_error_at_its_line(tmp_path, FIRST_RIVER, broken, code, words)


def assert_one_error_at_its_line(tmp_path, line: str, broken: str, code: str, words: str) -> None:
    """The hex map's game.yaml with `line` replaced by `broken` gives one error, `code`, saying `words`, at it."""
    folder = tmp_path / "hexmap"
    shutil.copytree(HEXMAP, folder)
    text = (folder / "game.yaml").read_text()
    assert line in text.splitlines()
    text = patched(text, {line: broken}, count=1)
    (folder / "game.yaml").write_text(text)
    found = [f for f in check_game(load_game(folder)) if f.severity == "error"]
    assert [f.code for f in found] == [code], [str(f) for f in found]
    assert words in found[0].message and found[0].where.line == text.splitlines().index(broken) + 1, str(found[0])


def test_hexes_need_quotes_and_a_hex_grid(tmp_path):
    folder = tmp_path / "hexmap"
    shutil.copytree(HEXMAP, folder)
    text = (folder / "game.yaml").read_text()
    (folder / "game.yaml").write_text(patched(text, {'numbering: "0101"': "numbering: 0101"}))
    found = [f for f in check_game(load_game(folder)) if f.severity == "error"]
    assert found[0].code == "wrong-type" and "write \"0101\" in quotes" in found[0].message
    (folder / "game.yaml").write_text(patched(text, {"      shape: hex\n": "",
                                                     'numbering: "0101"': "numbering: letter"}))
    assert "not-hex-grid" in [f.code for f in check_game(load_game(folder))]


def test_the_schemas_know_the_hex_keys():
    import json

    import jsonschema
    import yaml

    from generator.formats.schema import game_schema, layout_schema

    game_yaml = yaml.safe_load((HEXMAP / "game.yaml").read_text())
    jsonschema.validate(game_yaml, game_schema())
    game_yaml["boards"]["map"]["grid"]["orientation"] = "sideways"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(game_yaml, game_schema())
    jsonschema.validate(yaml.safe_load((HEXMAP / "map.yaml").read_text()), layout_schema())
    assert '"pointy"' in json.dumps(layout_schema())


@pytest.mark.parametrize("broken, code, words", [
    ('      "0305": forst', "unknown-terrain", "unknown terrain 'forst' (did you mean 'forest'?)"),
    ("      0305: forest", "wrong-type", "write hex names in quotes, \"0304\": unquoted, YAML reads 197 as a number"),
    ('      "2125": forest', "out-of-range", "'2125' is no hex of this 20 x 24 grid"),
])
def test_bad_hexes_name_the_line(tmp_path, broken, code, words):
    assert_one_error_at_its_line(tmp_path, '      "0305": forest', broken, code, words)


def test_a_map_numbered_from_1701_is_printed_and_read_so(tmp_path):
    """A published map's 14 x 10 hexes numbered 1701-3010: printed so, its data names hexes and hexsides so, and a
    number the map does not have (0101) is an error at its line."""
    folder = tmp_path / "published"
    shutil.copytree(HEXMAP, folder)
    text = (folder / "game.yaml").read_text()
    text = patched(text[:text.index("    hexes:")], {"columns: 20": "columns: 14", "rows: 24": "rows: 10"})
    text = patched(text, {"      shape: hex\n": "      shape: hex\n      first_column: 17\n      first_row: 1\n"})
    (folder / "game.yaml").write_text(text + "    hexes: {\"1701\": forest, \"3010\": hills}\n"
                                      "    hexsides:\n      - {between: [\"2405\", \"2406\"], terrain: river}\n")
    game = load_game(folder)
    assert [str(f) for f in check_game(game)] == []
    face, found = lay_out_board(game, game.boards["map"])
    numbers = {item.text for item in face.items if getattr(item, "text", "").isdigit()}
    assert len(numbers) == 140 and {"1701", "1710", "3001", "3010"} <= numbers and "0101" not in numbers
    context = board_context(game, game.boards["map"], 1)["board"]
    assert [(h["label"], h["column"], h["row"]) for h in context["hexes"]] == [("1701", 0, 0), ("3010", 13, 9)]
    assert context["hexsides"][0]["between"] == ["2405", "2406"]
    (folder / "game.yaml").write_text(text + "    hexes: {\"0101\": forest}\n")
    [problem] = [f for f in check_game(load_game(folder)) if f.severity == "error"]
    assert (problem.code, problem.field, problem.where.line) == ("out-of-range", "boards.map.hexes.0101",
                                                                 text.count("\n") + 1)


def test_terrain_colours_read_as_every_other_colour(tmp_path):
    """A terrain's fill, symbol colour and stroke take what layouts take: a name of the game's colours, black,
    white, none, cmyk(...); what is none of those is an error at its key."""
    folder = tmp_path / "named"
    shutil.copytree(HEXMAP, folder)
    text = (folder / "game.yaml").read_text()
    text = patched(text, {'fill: "#e3cf9c", symbol: "▲", colour: "#8a6d2f"': 'fill: sand, symbol: "▲", colour: black'})
    text = patched(text, {'stroke: "#3f7fbf"': 'stroke: "cmyk(100, 40, 0, 0)"'})
    text = patched(text, {"boards:\n": 'colours: {sand: "#e3cf9c"}\nboards:\n'}, count=1)
    (folder / "game.yaml").write_text(text)
    game = load_game(folder)
    assert [str(f) for f in check_game(game)] == []
    terrain = game.boards["map"].terrain
    assert (terrain["hills"].fill, terrain["hills"].colour, terrain["river"].stroke) == (
        "#e3cf9c", "#000000", "cmyk(100, 40, 0, 0)")
    hills = [item for item in lay_out_board(game, game.boards["map"])[0].items
             if getattr(item, "fill", None) == "#e3cf9c"]
    assert hills  # drawn in the named colour
    (folder / "game.yaml").write_text(patched(text, {"fill: sand,": "fill: sandy,"}))
    [problem] = [f for f in check_game(load_game(folder)) if f.severity == "error"]
    assert (problem.code, problem.field) == ("bad-colour", "boards.map.terrain.hills.fill")
