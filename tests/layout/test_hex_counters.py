"""Hex counters: a hexagonal cut line round each face, pointy or flat, fronts and backs registering."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from generator.building.kit import build_one
from generator.core.display import Polygon
from generator.core.options import Options
from generator.core.units import PAPERS
from generator.imposition.sheets import arrange, hexagon, sheets

from conftest import GAME_YAML, patched

SIZE = (12.7, 14.665)  # a regular pointy hex half an inch across the flats


def test_the_hexes_of_pointy_and_flat_counters():
    layout = arrange(PAPERS["a4"], SIZE, 1.0, shape="hex", orientation="pointy")
    slot = layout.slots[0]
    corners = hexagon(slot, "pointy")
    assert corners[0] == (round(slot.x + 6.35, 4), round(slot.y, 4))            # a corner at the top
    assert corners[3] == (round(slot.x + 6.35, 4), round(slot.y + 14.665, 4))   # and at the bottom
    assert {round(x, 4) for x, _ in corners} == {round(slot.x, 4), round(slot.x + 6.35, 4), round(slot.x + 12.7, 4)}
    flat = hexagon(slot, "flat")
    assert [y for _, y in flat].count(round(slot.y, 4)) == 2  # a flat side at the top
    for a, b in zip(corners, corners[1:] + corners[:1]):  # a regular hex: six equal sides
        assert ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 == pytest.approx(14.665 / 2, abs=0.01)


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
@pytest.mark.parametrize("duplex", ["long", "short", "fold"])
def test_a_hex_back_is_cut_by_the_line_of_its_front(orientation, duplex):
    layout = arrange(PAPERS["a4"], SIZE, 1.0, fold=duplex == "fold", shape="hex", orientation=orientation)
    copies = layout.per_sheet - 3
    pages = list(sheets(list(range(copies)), [100 + i for i in range(copies)], layout, duplex))
    width, height = layout.paper
    fronts = {i: s for page in pages for s, i in page.placements if i < 100}
    backs = {i - 100: s for page in pages for s, i in page.placements if i >= 100}

    def turned(point):  # where a point of the front lands once the sheet is turned over (or folded)
        x, y = point
        return (round(x, 3), round(height - y, 3)) if duplex == "short" else (round(width - x, 3), round(y, 3))

    for i, front in fronts.items():
        assert {turned(p) for p in hexagon(front, orientation)} == {
            (round(x, 3), round(y, 3)) for x, y in hexagon(backs[i], orientation)}
    for page in pages:  # one hexagonal cut line round each placed face
        cuts = [item for item in page.overlay if isinstance(item, Polygon)]
        assert sorted(c.points for c in cuts) == sorted(hexagon(s, orientation) for s, _ in page.placements)


def test_a_deck_of_hex_counters_builds(make_game, tmp_path):
    game = patched(GAME_YAML, {"""    style: {side: Red}
""": """    style: {side: Red}
  hexes:
    component: tokens
    file: hexes.yaml
    face: hex.yaml
    back: hex.yaml
    format: {size: 12.7mm x 14.665mm, shape: hex, orientation: pointy}
""", "    require: [type, force]\n": "    require: [type, force]\n    decks: [reds]\n"})
    folder = make_game({"game.yaml": game, "hexes.yaml": "cards:\n  - {title: H, count: 30}\n",
                        "hex.yaml": "elements:\n  - {kind: box, x: 0, y: 0, w: 12.7, h: 14.665, fill: \"#204080\","
                                    " bleed: true}\n"})
    outcome = build_one(folder, tmp_path / "out", Options(calibration=False))
    assert outcome.code == 0, outcome.errors
    document = pdfium.PdfDocument(str(tmp_path / "out" / "tiny" / "tokens.pdf"))
    try:
        assert len(document) == 2
    finally:
        document.close()
