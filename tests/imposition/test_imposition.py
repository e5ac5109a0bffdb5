"""Imposition: slots on the paper, no overlaps, the expected count, backs behind fronts."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st

from generator.core import codes
from generator.core.errors import MusterError
from generator.imposition.sheets import MARGIN, arrange, sheets
from generator.core.units import CARD_SIZES, PAPERS

papers = st.sampled_from(sorted(PAPERS))
cards = st.one_of(st.sampled_from(sorted(CARD_SIZES.values())),
                  st.tuples(st.floats(15, 120), st.floats(15, 150)))
bleeds = st.floats(0, 5)


def test_poker_cards_three_by_three_on_a4_and_letter():
    for paper in ("a4", "letter"):
        layout = arrange(PAPERS[paper], CARD_SIZES["poker"], 3.0)
        assert layout.per_sheet == 9


@settings(max_examples=300, deadline=None)
@given(papers, cards, bleeds, st.booleans())
def test_slots_lie_on_the_paper_and_never_overlap(paper_name, card, bleed, fold):
    paper = PAPERS[paper_name]
    try:
        layout = arrange(paper, card, bleed, fold=fold)
    except MusterError:
        return
    width, height = layout.paper
    for slot in layout.slots:
        assert slot.x - slot.left >= MARGIN - 1e-6 and slot.y - slot.top >= MARGIN - 1e-6
        assert slot.x + slot.w + slot.right <= width - MARGIN + 1e-6
        assert slot.y + slot.h + slot.bottom <= height - MARGIN + 1e-6
        if fold:
            assert slot.x + slot.w + slot.right < width / 2
    for a in layout.slots:
        for b in layout.slots:
            if a is not b:  # bleed boxes may touch but never overlap
                assert (a.x + a.w + a.right <= b.x - b.left + 1e-6 or b.x + b.w + b.right <= a.x - a.left + 1e-6
                        or a.y + a.h + a.bottom <= b.y - b.top + 1e-6 or b.y + b.h + b.bottom <= a.y - a.top + 1e-6)


@settings(max_examples=200, deadline=None)
@given(papers, st.sampled_from(sorted(CARD_SIZES.values())), bleeds, st.integers(1, 60),
       st.sampled_from(["long", "short"]))
def test_pages_and_backs_behind_fronts(paper_name, card, bleed, copies, edge):
    layout = arrange(PAPERS[paper_name], card, bleed)
    pages = list(sheets(list(range(copies)), [1000 + i for i in range(copies)], layout, edge))
    assert len(pages) == 2 * math.ceil(copies / layout.per_sheet)
    width, height = layout.paper
    for front, back in zip(pages[0::2], pages[1::2]):
        assert front.side == "front" and back.side == "back"
        behind = {face - 1000: slot for slot, face in back.placements}
        for slot, face in front.placements:
            other = behind[face]
            # turning the sheet over: the long edge swaps left and right, the short edge top and bottom
            if edge == "long":
                assert math.isclose(other.x, width - slot.x - slot.w, abs_tol=1e-9) and other.y == slot.y
                assert (other.left, other.right) == (slot.right, slot.left)
            else:
                assert math.isclose(other.y, height - slot.y - slot.h, abs_tol=1e-9) and other.x == slot.x


def test_crop_marks_stay_outside_every_bleed_box():
    layout = arrange(PAPERS["a4"], CARD_SIZES["poker"], 3.0)
    assert layout.marks
    for mark in layout.marks:
        for slot in layout.slots:
            left, right = slot.x - slot.left, slot.x + slot.w + slot.right
            top, bottom = slot.y - slot.top, slot.y + slot.h + slot.bottom
            touches_x = max(mark.x1, mark.x2) >= left and min(mark.x1, mark.x2) <= right
            touches_y = max(mark.y1, mark.y2) >= top and min(mark.y1, mark.y2) <= bottom
            assert not (touches_x and touches_y)


def test_a_card_larger_than_the_paper_is_a_clear_error():
    with pytest.raises(MusterError) as refused:
        arrange(PAPERS["a4"], (250.0, 100.0), 3.0)
    assert refused.value.code == "does-not-fit"
    assert refused.value.message == codes.DOES_NOT_FIT.message(thing="a 250 x 100 mm card with 3 mm bleed",
                                                               paper="210 x 297 mm paper")
