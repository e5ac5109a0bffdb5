"""--back-offset: every back page moves, crop marks and all, and no front page; the duplex calibration that
measures the offset to give it."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.building.kit import build_game
from generator.building.sequence import DUPLEX_SCALES
from generator.core.options import Options
from generator.core.units import PAPERS, PT_PER_MM
from generator.reading.loading import load_game
from pdfcheck import page_text
from test_cli import muster


def placed(pdf: Path, page: int) -> list[tuple[int, tuple[float, ...]]]:
    """Every object drawn on a page (text, path, image, form), as its type and its bounds in mm on the page."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        return [(thing.type, tuple(value / PT_PER_MM for value in thing.get_bounds()))
                for thing in document[page].get_objects(max_depth=1)]
    finally:
        document.close()


@pytest.mark.parametrize("duplex", ["long", "short", "none"])
def test_back_offset_moves_every_back_page_and_no_front_page(make_game, tmp_path, duplex):
    game = load_game(make_game())
    build_game(game, tmp_path / "plain", Options(duplex=duplex))
    build_game(game, tmp_path / "moved", Options(duplex=duplex, back_offset=(1.5, -0.5)))
    plain, moved = tmp_path / "plain" / "tiny" / "cards-reds.pdf", tmp_path / "moved" / "tiny" / "cards-reds.pdf"
    pages = PdfReader(plain).pages
    sides = ["front", "back"] if duplex != "none" else ["front"] * (len(pages) // 2) + ["back"] * (len(pages) // 2)
    assert len(pages) == len(sides) == len(PdfReader(moved).pages) >= 2
    for page, side in enumerate(sides):
        before, after = placed(plain, page), placed(moved, page)
        assert len(before) == len(after) >= 4  # faces (as forms, or their paths and text), the crop marks' form
        if side == "front":
            assert after == before
            assert PdfReader(moved).pages[page].get_contents().get_data() == pages[page].get_contents().get_data()
            continue
        for (kind, old), (new_kind, new) in zip(before, after):
            # 1.5 mm to the right and 0.5 mm up (Y is down, as on a layout); crop marks too: they are in the list
            assert new_kind == kind
            assert new == pytest.approx((old[0] + 1.5, old[1] + 0.5, old[2] + 1.5, old[3] + 0.5), abs=1e-3)


def test_calibration_back_moves_and_its_numbers_count_the_offset_in(make_game, tmp_path):
    game = load_game(make_game())
    build_game(game, tmp_path / "plain", Options())
    build_game(game, tmp_path / "moved", Options(back_offset=(1.5, -0.5)))
    plain, moved = (tmp_path / out / "tiny" / "calibration.pdf" for out in ("plain", "moved"))
    assert placed(moved, 0) == placed(plain, 0)
    lines = lambda pdf: [bounds for kind, bounds in placed(pdf, 1) if kind == 2]
    for old, new in zip(lines(plain), lines(moved)):
        assert new == pytest.approx((old[0] + 1.5, old[1] + 0.5, old[2] + 1.5, old[3] + 0.5), abs=1e-3)
    assert "-1.5" in page_text(plain, 1).split() and "+3" in page_text(plain, 1).split()
    # the pair that lines up with the printer shifting 1.5 mm to the left is the pair now marked 0: no change left
    text = page_text(moved, 1).split()
    assert "--back-offset 1.5,-0.5" in page_text(moved, 1) and "0" in text and "+4.5" in text and "+2.5" in text


def scale_lines(pdf: Path, page: int, paper: tuple[float, float]) -> tuple[list[float], list[float]]:
    """The x of the short vertical lines of a calibration page's X scale, and the y (down) of the short horizontal
    lines of its Y scale, in mm in the page's own coordinates. On the front, the rulers' 10 mm lines are as long:
    they are in the page's upper half (the vertical lines) and left half (the horizontal ones), the scales'
    across its lower half and down its right half."""
    across, down = [], []
    for kind, (left, bottom, right, top) in placed(pdf, page):  # bounds with the line's width around it
        x, y = (left + right) / 2, paper[1] - (top + bottom) / 2
        if kind != 2:  # paths only
            continue
        if right - left < 1 and 6 < top - bottom < 7 and (page > 0 or y > paper[1] / 2):
            across.append(x)
        elif top - bottom < 1 and 6 < right - left < 7 and (page > 0 or x > paper[0] / 2):
            down.append(y)
    return sorted(across), sorted(down)


@pytest.mark.parametrize("paper, duplex", [("a4", "long"), ("letter", "short"), ("a3", "long")])
def test_duplex_calibration_pairs_gain_a_quarter_millimetre_each(make_game, tmp_path, paper, duplex):
    build_game(load_game(make_game()), tmp_path, Options(paper=paper, duplex=duplex))
    pdf = tmp_path / "tiny" / "calibration.pdf"
    sheet = PAPERS[paper]
    assert len(PdfReader(pdf).pages) == 2
    assert all(abs(float(size) / PT_PER_MM - expected) < 0.01 for size, expected in
               zip(PdfReader(pdf).pages[1].mediabox[2:], sheet))
    front_x, front_y = scale_lines(pdf, 0, sheet)
    back_x, back_y = scale_lines(pdf, 1, sheet)
    ticks = DUPLEX_SCALES["ticks"]
    assert len(front_x) == len(front_y) == len(back_x) == len(back_y) == 2 * ticks + 1
    assert [b - a for a, b in zip(front_x, front_x[1:])] == pytest.approx([5.0] * 2 * ticks, abs=1e-3)
    assert [b - a for a, b in zip(back_x, back_x[1:])] == pytest.approx([5.25] * 2 * ticks, abs=1e-3)
    # the front as seen from the back: turned over on the long edge, x mirrors; on the short edge, y does
    if duplex == "long":
        front_x = sorted(sheet[0] - x for x in front_x)
    else:
        front_y = sorted(sheet[1] - y for y in front_y)
    for front, back in ((front_x, back_x), (front_y, back_y)):
        gaps = [b - f for f, b in zip(front, back)]
        # pair i (from -ticks) is 0.25 i mm apart: with the printer shifting the back by -0.25 i mm, it lines up,
        # and --back-offset 0.25 i (its number) puts it back
        assert gaps == pytest.approx([0.25 * i for i in range(-ticks, ticks + 1)], abs=1e-3)
    text = page_text(pdf, 1)
    assert "-3" in text.split() and "+2.75" in text.split() and f"the {duplex} edge" in " ".join(text.split())


def test_no_duplex_calibration_without_back_pages(make_game, tmp_path):
    build_game(load_game(make_game()), tmp_path, Options(duplex="fold"))
    pdf = tmp_path / "tiny" / "calibration.pdf"
    assert len(PdfReader(pdf).pages) == 1 and "Duplex" not in page_text(pdf, 0)


@pytest.mark.parametrize("value, message", [
    ("1.5mm", "two lengths"), ("1.5mm,abc", "--back-offset"), ("11mm,0", "within ±10mm"),
])
def test_a_bad_back_offset_is_one_line_and_exit_2(tmp_path, value, message):
    result = muster("build", "tank-duel", "--out", str(tmp_path), "--back-offset", value)
    assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr
    assert not any(tmp_path.iterdir())


def test_back_offset_is_refused_with_gutter_fold(tmp_path):
    result = muster("build", "tank-duel", "--out", str(tmp_path), "--duplex", "fold", "--back-offset", "1,0")
    assert result.returncode == 2 and "--duplex fold" in result.stderr


def test_back_offset_takes_bare_millimetres_and_units_and_is_in_the_manifest(make_game, tmp_path):
    import json

    result = muster("build", str(make_game()), "--out", str(tmp_path / "out"), "--back-offset", "0.5,-0.02in", "-q")
    assert result.returncode == 0, result.stderr
    manifest = json.loads((tmp_path / "out" / "tiny" / "manifest.json").read_text())
    assert manifest["options"]["back_offset_mm"] == pytest.approx([0.5, -0.508])
