"""Tokens, boards and maps: counter sheets register front to back, maps tile with overlaps, seeds repeat."""

from __future__ import annotations

import math

import pytest
from pypdf import PdfReader

from conftest import patched
from generator.layout.boards import board_context, placed_cells
from generator.building.kit import build_game
from generator.core.options import Options
from generator.imposition.tiles import OVERLAP, TILE_MARGIN, tiles
from generator.reading.loading import load_game
from generator.core.units import PAPERS, PT_PER_MM
from pdfcheck import char_boxes

TOKENS = """\
  chits:
    name: Chits
    component: tokens
    format: {size: counter-5/8in, packing: sheet}
    file: chits.yaml
    size: 30
    face: chit.yaml
    back: chit-back.yaml
"""
CHIT = "elements:\n  - {kind: text, x: 2, y: 4, w: 11.875, h: 8, text: I, font: text-bold, size: 14, align: center}\n"


def token_game(make_game, extra_rules: str = ""):
    folder = make_game({"chits.yaml": "cards:\n  - {title: Chit, count: 30}\n", "chit.yaml": CHIT, "chit-back.yaml": CHIT})
    text = patched((folder / "game.yaml").read_text(), {"rules:\n": TOKENS + "rules:\n" + extra_rules})
    text = patched(text, {"  - name: typed\n    require: [type, force]\n":
                              "  - name: typed\n    require: [type, force]\n    decks: [reds]\n"})
    (folder / "game.yaml").write_text(text)
    return folder


@pytest.mark.parametrize("edge", ["long", "short"])
def test_counters_register_front_to_back(make_game, tmp_path, edge):
    folder = token_game(make_game)
    build_game(load_game(folder), tmp_path, Options(duplex=edge))
    pdf = tmp_path / "tiny" / "tokens.pdf"
    assert len(PdfReader(pdf).pages) == 2
    width, height = PAPERS["a4"]
    front = sorted(((l + r) / 2, (b + t) / 2) for l, b, r, t in char_boxes(pdf, 0, "I"))
    back = [((l + r) / 2, (b + t) / 2) for l, b, r, t in char_boxes(pdf, 1, "I")]
    assert len(front) == len(back) == 30
    # the chit's mark is centred in it, so the back's mark lies exactly behind the front's once turned over
    turned = sorted((width * PT_PER_MM - x, y) if edge == "long" else (x, height * PT_PER_MM - y) for x, y in back)
    offsets = [(fx - bx, fy - by) for (fx, fy), (bx, by) in zip(front, turned)]
    spread_x = max(o[0] for o in offsets) - min(o[0] for o in offsets)
    spread_y = max(o[1] for o in offsets) - min(o[1] for o in offsets)
    assert spread_x < 0.05 and spread_y < 0.05
    assert all(abs(o[0]) < 0.6 and abs(o[1]) < 1.2 for o in offsets)  # glyph outline vs box centre, both sides


def test_token_counts_are_checked_against_the_data(make_game):
    from generator.checking.data import check_data

    rule = "  - name: enough-chits\n    count: {min: 40}\n    decks: [chits]\n"
    findings = check_data(load_game(token_game(make_game, rule)))
    found = [f.message for f in findings]
    assert found == ["[enough-chits] the number of matching cards in deck(s) chits is 30, expected at least 40"]
    assert [f.code for f in findings] == ["rule-count"]


def test_counter_sheet_packs_edge_to_edge():
    from generator.imposition.sheets import arrange

    layout = arrange(PAPERS["a4"], (15.875, 15.875), 3.0, packing="sheet")
    xs = sorted({round(s.x, 4) for s in layout.slots})
    assert all(math.isclose(b - a, 15.875) for a, b in zip(xs, xs[1:]))  # no gutter: one cut serves two counters
    assert all(s.left == s.right == s.top == s.bottom == 0 for s in layout.slots)
    assert layout.cut == "outline"


@pytest.mark.usefixtures("font_book")
def test_big_map_is_tiled_with_overlaps():
    plan = tiles((500.0, 400.0), PAPERS["a4"], "test")
    window = [p - 2 * TILE_MARGIN for p in plan.paper]
    assert plan.columns * plan.rows == len(plan.sheets) > 1
    for axis, count, length in ((0, plan.columns, 500.0), (1, plan.rows, 400.0)):
        # the tiles cover the board, and neighbours share exactly OVERLAP mm
        assert (count - 1) * (window[axis] - OVERLAP) + window[axis] >= length
        assert (count - 2) * (window[axis] - OVERLAP) + window[axis] < length
    first, second = plan.sheets[0].placements[0][0], plan.sheets[1].placements[0][0]
    shown_first = (-first.left, -first.left + first.w + first.left + first.right)  # the board x range on tile 1
    shown_second = (-second.left, -second.left + second.w + second.left + second.right)
    assert math.isclose(shown_first[1] - shown_second[0], OVERLAP)


def test_a_board_that_fits_is_one_centred_page():
    plan = tiles((180.0, 260.0), PAPERS["a4"], "test")
    assert len(plan.sheets) == 1
    slot = plan.sheets[0].placements[0][0]
    assert math.isclose(slot.x, 15.0) and math.isclose(slot.y, 18.5)


def test_grid_battle_map_tiles_and_places_cities_from_the_seed(tmp_path):
    game = load_game("grid-battle")
    board = game.boards["battlefield"]
    assert board.size[0] > PAPERS["a4"][0] - 2 * TILE_MARGIN  # larger than one page: tiled
    first, again, other = placed_cells(board, 7), placed_cells(board, 7), placed_cells(board, 8)
    assert first == again and first != other
    for seed in range(50):
        cities = placed_cells(board, seed)["cities"]
        assert len(set(cities)) == game.constants["cities"]
        assert all(row in (3, 4) for _, row in cities)  # the two rows of no man's land, counted from 0
        assert not {(1, 3), (6, 4)} & set(cities)  # never on the woods the data names
    context = board_context(game, board, 7)["board"]
    assert [c["label"] for c in context["placed"]["cities"]] == [
        f"{chr(65 + c)}{r + 1}" for c, r in first["cities"]]
    build_game(game, tmp_path, Options(seed=7))
    pdf = tmp_path / "grid-battle" / "map.pdf"
    assert len(PdfReader(pdf).pages) == 2
    labels = ", ".join(c["label"] for c in context["placed"]["cities"])
    assert char_boxes(pdf, 0, f"seed 7: {labels}") or char_boxes(pdf, 1, f"seed 7: {labels}")
    first_build = pdf.read_bytes()
    build_game(game, tmp_path, Options(seed=7))
    assert pdf.read_bytes() == first_build


def test_calibration_rulers_are_100_mm_at_true_scale(make_game, tmp_path):
    build_game(load_game(make_game()), tmp_path, Options())
    pdf = tmp_path / "tiny" / "calibration.pdf"
    centre = lambda box: ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    nineties = [centre(b) for b in char_boxes(pdf, 0, "90")]  # only the two rulers print 90
    tens = [centre(b) for b in char_boxes(pdf, 0, "10")]
    across = [(x90 - x10) for x90, y90 in nineties for x10, y10 in tens if abs(y90 - y10) < 0.5 and x10 < x90]
    down = [(y10 - y90) for x90, y90 in nineties for x10, y10 in tens if abs(x90 - x10) < 0.5 and y10 > y90]
    assert len(across) == 1 and abs(across[0] / PT_PER_MM - 80) < 0.1  # the 10 and 90 mm marks, 80 mm apart
    assert len(down) == 1 and abs(down[0] / PT_PER_MM - 80) < 0.1
    assert len(PdfReader(pdf).pages) == 2  # and the duplex calibration's back (tests/imposition/test_back_offset.py)


def test_hex_boards_size_and_tile_like_square_ones(make_game, tmp_path):
    from generator.core.geometry import cell_centre, grid_extent

    from conftest import hex_board_game

    folder = hex_board_game(make_game, "    place: {towns: {count: 5}}\n")
    game = load_game(folder)
    board = game.boards["hexes"]
    width, height = grid_extent("hex", 14, 10, 25.0)
    assert board.size == (width + 20, height + 20)
    # neighbouring columns interlock: centres 1.5 radii apart, odd columns half a cell lower
    (x0, y0), (x1, y1) = cell_centre("hex", 0, 0, 25.0), cell_centre("hex", 1, 0, 25.0)
    assert math.isclose(x1 - x0, 1.5 * 25.0 / math.sqrt(3)) and math.isclose(y1 - y0, 12.5)
    build_game(game, tmp_path, Options())
    pages = len(PdfReader(tmp_path / "tiny" / "map.pdf").pages)
    plan = tiles(board.size, PAPERS["a4"], "x")
    assert pages == plan.columns * plan.rows > 1


def test_alike_token_decks_share_their_sheets(make_game, tmp_path):
    folder = token_game(make_game)
    text = patched((folder / "game.yaml").read_text(),
                   {"rules:\n": patched(TOKENS, {"  chits:": "  more-chits:"}) + "rules:\n"}, count=1)
    (folder / "game.yaml").write_text(text)
    build_game(load_game(folder), tmp_path, Options())
    pdf = tmp_path / "tiny" / "tokens.pdf"
    assert len(PdfReader(pdf).pages) == 2  # 60 counters of one size: one sheet and its backs
    assert len(char_boxes(pdf, 0, "I")) == 60


def test_the_calibration_page_labels_a_card_too_small_to_hold_its_label(tmp_path):
    """Grid Battle's cards are 25 mm counters: the outline's label goes below it, not inside where it cannot fit."""
    from generator.reading.resources import bundled_games
    from pdfcheck import page_text

    root = next(r for r in bundled_games() if r.name == "grid-battle")
    build_game(load_game(root), tmp_path, Options())
    text = page_text(tmp_path / "grid-battle" / "calibration.pdf", 0)
    assert "One card, true size: 25.0 × 25.0 mm" in text and "cover this outline exactly" in text


def test_a_board_files_its_problems_under_itself_with_codes(make_game):
    from generator.checking import check_game
    from generator.core.errors import Location

    folder = make_game({"mat.yaml": "elements:\n  - {kind: text, x: 0, y: 1, w: 2, h: 10, text: '{{ board.name }}'}\n"
                                    "  - {kind: text, x: 0, y: 20, w: 40, h: 10, text: '{{ board.name }}', size: 4}\n"})
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text() + (
        "boards:\n  mat:\n    name: Mat\n    file: mat\n    layout: mat.yaml\n"
        "    grid: {columns: 2, rows: 2, cell: 20mm, margin: 10mm}\n"))
    found = [f for f in check_game(load_game(folder)) if f.field == "boards.mat"]
    assert {(f.severity, f.code) for f in found} == {("error", "text-overflow"), ("warning", "text-too-small"),
                                                    ("warning", "outside-safe-area")}, [str(f) for f in found]
    overflow = next(f for f in found if f.code == "text-overflow")
    assert overflow.message.startswith("board 'mat': text 'Mat' does not fit")
    assert overflow.related == Location(folder / "mat.yaml", 2, 5)
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text() + "    place: {towns: {count: 3}, forts: {count: 3}}\n")
    assert [f.code for f in check_game(load_game(folder)) if f.field == "boards.mat"] == ["too-few-cells"]


def test_grid_battle_home_rows_stay_apart_in_greyscale_and_are_named(tmp_path):
    """Blue's and Red's home rows were the same grey on a greyscale print: their tones now differ in lightness
    (and Red's are hatched), and each side's name is printed beside its rows."""
    from PIL import ImageStat
    from pdfcheck import rasterise

    game = load_game("grid-battle")
    build_game(game, tmp_path, Options(greyscale=True))
    pdf = tmp_path / "grid-battle" / "map.pdf"
    dpi, grid = 40, game.boards["battlefield"].grid
    page = rasterise(pdf, 0, dpi=dpi)
    rows = game.constants["deploy_rows"]
    blue = (grid.margin, grid.margin + rows * grid.cell)  # board mm, top to bottom
    red = (grid.margin + (grid.rows - rows) * grid.cell, grid.margin + grid.rows * grid.cell)

    def mean_grey(top: float, bottom: float) -> float:
        # tile 1 shows the board from its top-left corner, TILE_MARGIN in from the page's
        px = lambda mm: round((mm + TILE_MARGIN) / 25.4 * dpi)
        zone = page.crop((px(grid.margin + 2), px(top + 2), px(grid.margin + 4 * grid.cell), px(bottom - 2)))
        return ImageStat.Stat(zone).mean[0]

    assert abs(mean_grey(*blue) - mean_grey(*red)) > 25  # of 255: a clear step, not a shade
    height = PAPERS["a4"][1]
    for side, (top, bottom) in (("BLUE", blue), ("RED", red)):
        # the right margin's label lies beyond this tile, clipped away
        boxes = [b for b in char_boxes(pdf, 0, f"{side} HOME ROWS") if b[2] < PAPERS["a4"][0] * PT_PER_MM]
        assert len(boxes) == 1, side
        middle = height - (boxes[0][1] + boxes[0][3]) / 2 / PT_PER_MM - TILE_MARGIN  # board mm from its top
        assert top < middle < bottom, side
