"""Grouped counter sheets: blocks of whole rows by side and formation, on zones of their colour under labels."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from generator.building.kit import build_one
from generator.core.display import Line, Rect, Run
from generator.core.options import Options
from generator.core.plan import SheetGroup
from generator.core.units import CARD_SIZES, PAPERS
from generator.imposition.groups import block_pages, grouped_sheets
from generator.imposition.sheets import arrange
from generator.layout.groups import sheet_groups
from generator.reading.loading import load_game
from conftest import TESTS, patched

GAME = TESTS / "fixtures" / "counter-sheet"
HALF = CARD_SIZES["counter-1/2in"]


def test_the_groups_of_the_test_game_and_their_colours():
    groups = sheet_groups(load_game(GAME))
    assert [g.label for g in groups["blue"]] == ["Blue · 1st Division", "Blue · 2nd Division", "Blue · 3rd Division"]
    assert [g.label for g in groups["red"]] == ["Red · Guards Corps", "Red · Reserve"]
    assert {g.colour for g in groups["blue"]} == {"#9fc1e6"} and {g.colour for g in groups["red"]} == {"#eaa59a"}
    assert [len(g.copies) for g in groups["blue"] + groups["red"]] == [40] * 5
    assert sorted(i for g in groups["blue"] for i in g.copies) == list(range(120))


def test_blocks_are_whole_rows_and_each_group_starts_its_own():
    layout = arrange(PAPERS["a4"], HALF, 3.0, packing="sheet")
    columns = len({s.x for s in layout.slots})
    groups = [SheetGroup("A", "#9fc1e6", tuple(range(0, 20))), SheetGroup("B", "#eaa59a", tuple(range(20, 23))),
              SheetGroup("C", "#e4e4e4", tuple(range(23, 60)))]
    [page] = block_pages(groups, layout)
    rows = {}
    for slot, copy in page.slots:
        group = next(g.label for g in groups if copy in g.copies)
        rows.setdefault(round(slot.y, 3), set()).add(group)
    assert all(len(labels) == 1 for labels in rows.values())  # no row holds two groups
    assert [len([y for y, g in rows.items() if g == {label}]) for label in "ABC"] == [
        -(-20 // columns), 1, -(-37 // columns)]
    for group, (x, y, w, h) in page.zones:  # each zone holds its block, the label strip above the pieces
        slots = [slot for slot, copy in page.slots if copy in group.copies]
        assert all(x < s.x and s.x + s.w < x + w and y + 4 < s.y and s.y + s.h < y + h for s in slots)
    ys = [zone[1] for _, zone in page.zones]
    assert ys == sorted(ys) and all(b[1] > a[1] + a[3] for (_, a), (_, b) in zip(page.zones, page.zones[1:]))


@pytest.mark.parametrize("duplex", ["long", "short", "fold", "none"])
def test_backs_register_and_one_sided_groups_have_no_back_pages(duplex):
    layout = arrange(PAPERS["a4"], HALF, 3.0, fold=duplex == "fold", packing="sheet")
    groups = [SheetGroup("A", "#9fc1e6", tuple(range(0, 30))), SheetGroup("B", "#eaa59a", tuple(range(30, 45)))]
    fronts, backs = list(range(45)), [100 + i for i in range(45)]
    pages = list(grouped_sheets(fronts, backs, groups, layout, duplex))
    width, height = layout.paper
    front = {i: s for p in pages for s, i in p.placements if i < 100}
    back = {i - 100: s for p in pages for s, i in p.placements if i >= 100}
    for i, slot in front.items():
        expected = (round(slot.x, 3), round(height - slot.y - slot.h, 3)) if duplex == "short" else (
            round(width - slot.x - slot.w, 3) if duplex != "none" else round(slot.x, 3), round(slot.y, 3))
        assert (round(back[i].x, 3), round(back[i].y, 3)) == expected
    for page in pages:  # zones under the pieces, labels on them; marks only at the pieces' trim lines
        assert any(isinstance(item, Rect) for item in page.underlay)
        assert {item.text for item in page.underlay if isinstance(item, Run)} == {"A", "B"}
        marks = [m for m in page.overlay if isinstance(m, Line) and m.stroke == "#000000"]
        trims = {round(v, 3) for s, _ in page.placements for v in (s.y, s.y + s.h)}
        assert {round(m.y1, 3) for m in marks if m.y1 == m.y2} <= trims
    alone = list(grouped_sheets(fronts, [None] * 45, groups, layout, duplex))
    assert all(i < 100 for p in alone for _, i in p.placements) and len(alone) == len(
        [p for p in pages if p.side != "back"])


@pytest.mark.parametrize("duplex", ["long", "short", "fold", "none"])
def test_the_grouped_test_game_builds(tmp_path, duplex):
    outcome = build_one(GAME, tmp_path, Options(duplex=duplex, calibration=False))
    assert outcome.code == 0, outcome.errors
    manifest = json.loads((tmp_path / "counter-sheet" / "manifest.json").read_text())
    assert manifest["decks"] == {"blue": {"declared": 120, "cards": 120}, "red": {"declared": 80, "cards": 80}}
    [tokens] = [f for f in manifest["files"] if f["file"] == "tokens.pdf"]
    assert tokens["pages"] == {"long": 3, "short": 3, "none": 3, "fold": 2}[duplex]  # fold: blue on one folded sheet


def test_the_grouped_test_game_validates():
    result = subprocess.run([sys.executable, "-m", "generator", "validate", str(GAME)], capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_bad_group_is_one_line_naming_the_key(tmp_path):
    import shutil

    game = tmp_path / "bad"
    shutil.copytree(GAME, game)
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(patched(text, {"{{ group.side }} · {{ group.formation }}": "{{ group.side.nope.x }}"}))
    outcome = build_one(game, tmp_path / "out", Options(calibration=False))
    assert outcome.code == 1 and any("decks.blue.group.label" in line for line in outcome.errors), outcome.errors
    (game / "game.yaml").write_text(patched(text, {"group: {by: [side, formation]}": "group: {by: [side, formaton]}"}))
    outcome = build_one(game, tmp_path / "out", Options(calibration=False))
    assert outcome.code == 1 and any("decks.red.group.by" in line and "did you mean 'formation'" in line
                                     for line in outcome.errors), outcome.errors


@pytest.mark.parametrize("fault", [
    ("- {kind: box, x: 0,", "- {kind: nosuch, x: 0,", "counter.yaml:3:", "elements[0].kind"),  # every face
    ("x: 3.35, y: 2.2, w: 6,", "x: 3.35, y: 2.2, w: \"{{ 6 if card.strength != 3 else 'wide' }}\",",  # some cards
     "counter.yaml:4:", "blue.yaml:"),
])
def test_a_layout_error_in_a_grouped_deck_is_located_not_a_crash(tmp_path, fault):
    import shutil

    old, new, where, also = fault
    game = tmp_path / "bad"
    shutil.copytree(GAME, game)
    text = (game / "counter.yaml").read_text()
    assert old in text
    (game / "counter.yaml").write_text(patched(text, {old: new}, count=1))
    outcome = build_one(game, tmp_path / "out", Options(calibration=False))
    assert outcome.code == 1, outcome.errors
    assert any(line.startswith(str(game / where)) and also in line for line in outcome.errors), outcome.errors
    assert not (tmp_path / "out" / "counter-sheet").exists()
