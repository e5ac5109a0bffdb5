"""Crop marks only where pieces are: a sheet not filled is marked along its pieces, token and card sheets alike."""

from __future__ import annotations

import pytest

from generator.core.display import Line
from generator.core.units import CARD_SIZES, PAPERS
from generator.imposition.sheets import arrange, sheets


def lines(sheet):
    """The marks of a sheet: x of the vertical ones, y of the horizontal ones."""
    marks = [m for m in sheet.overlay if isinstance(m, Line) and m.stroke == "#000000"]
    return {round(m.x1, 3) for m in marks if m.x1 == m.x2}, {round(m.y1, 3) for m in marks if m.y1 == m.y2}, marks


def overlaps(mark, slot) -> bool:
    return (min(mark.x1, mark.x2) < slot.x + slot.w and max(mark.x1, mark.x2) > slot.x
            and min(mark.y1, mark.y2) < slot.y + slot.h and max(mark.y1, mark.y2) > slot.y)


@pytest.mark.parametrize("card, packing, bleed", [
    (CARD_SIZES["counter-3/4in"], "sheet", 3.0), (CARD_SIZES["counter-1/2in"], "spaced", 1.0),
    (CARD_SIZES["poker"], "spaced", 3.0)])
@pytest.mark.parametrize("duplex", ["long", "short", "fold", "none"])
def test_a_sheet_not_filled_is_marked_along_its_pieces_only(card, packing, bleed, duplex):
    layout = arrange(PAPERS["a4"], card, bleed, fold=duplex == "fold", packing=packing)
    columns = len({s.x for s in layout.slots})
    copies = columns + 2  # one full row and two pieces of the next
    pages = list(sheets(list(range(copies)), list(range(copies)), layout, duplex))
    for page in pages:
        xs, ys, marks = lines(page)
        used = [slot for slot, _ in page.placements]
        trims_x = {round(v, 3) for s in used for v in (s.x, s.x + s.w)}
        trims_y = {round(v, 3) for s in used for v in (s.y, s.y + s.h)}
        assert xs == trims_x and ys == trims_y  # a mark on every trim line of a piece, on no other line
        assert len({s.y for s in used}) == 2 and max(ys) <= max(s.y + s.h for s in used) + 0.001  # not 11 rows
        assert not any(overlaps(m, s) for m in marks for s in used)


def test_a_full_sheet_keeps_its_marks_in_the_margin():
    layout = arrange(PAPERS["a4"], CARD_SIZES["poker"], 3.0)
    [front, back] = list(sheets(list(range(9)), list(range(9)), layout, "long"))
    assert front.overlay == back.overlay == layout.marks and len(layout.marks) == 2 * 6 + 2 * 6


def test_the_europe_token_sheet_marks_two_rows(tmp_path):
    from generator.building.kit import build_one
    from generator.core.options import Options
    import pypdfium2 as pdfium

    outcome = build_one("europe-1939", tmp_path, Options(calibration=False))
    assert outcome.code == 0, outcome.errors
    document = pdfium.PdfDocument(str(tmp_path / "europe-1939" / "tokens.pdf"))
    try:
        image = document[0].render(scale=1).to_pil().convert("L")
    finally:
        document.close()
    width, height = image.size
    # the left margin, below the second row of counters: no marks there any more
    lower = image.crop((0, height // 3, int(4 / 210 * width), height))
    assert lower.getextrema()[0] > 200


@pytest.mark.parametrize("card, bleed, fold", [
    (CARD_SIZES["counter-5/8in"], 1.0, False), (CARD_SIZES["counter-3/4in"], 3.0, False),
    (CARD_SIZES["counter-1/2in"], 1.0, True), (CARD_SIZES["mini"], 3.0, True)])
def test_no_mark_runs_beside_the_last_piece_of_a_row_not_filled(card, bleed, fold):
    """Round counters stand closer than twice the bleed: the trim line of the column after the last counter of a
    partial row used to be marked down beside that counter, touching it (the modern war's action counters)."""
    from generator.imposition.sheets import MARK_OFFSET

    layout = arrange(PAPERS["a4"], card, bleed, fold=fold, shape="round")
    columns = len({s.x for s in layout.slots})
    for copies in range(columns + 1, 2 * columns):
        page = next(iter(sheets(list(range(copies)), list(range(copies)), layout, "long")))
        _, _, marks = lines(page)
        used = [slot for slot, _ in page.placements]
        for mark in marks:
            for s in used:  # each piece as drawn (its slot's reach), and the marks' distance from it
                near_x = min(mark.x1, mark.x2) < s.x + s.w + s.right + MARK_OFFSET - 1e-6 and \
                    max(mark.x1, mark.x2) > s.x - s.left - MARK_OFFSET + 1e-6
                near_y = min(mark.y1, mark.y2) < s.y + s.h + s.bottom + MARK_OFFSET - 1e-6 and \
                    max(mark.y1, mark.y2) > s.y - s.top - MARK_OFFSET + 1e-6
                assert not (near_x and near_y), (copies, mark, s)
        assert len(marks) >= 2 * len({s.y for s in used}) + 2  # the rows and the columns are still marked
