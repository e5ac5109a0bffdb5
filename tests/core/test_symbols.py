"""NATO-style unit symbols: the bundled set's frames, types and echelon marks, the `unit` element in a layout,
and a symbol as an icon in text."""

from __future__ import annotations

import pytest

from conftest import patched
from generator.checking import check_game
from generator.core.display import Ellipse, Line, Polygon, Polyline, Rect
from generator.core.errors import MusterError
from generator.layout import symbols
from generator.layout.cards import lay_out_cards
from generator.reading.loading import load_game

SET = symbols.symbol_set()
BOX = (10.0, 20.0, 30.0, 30.0)


def draw(affiliation="friend", types="infantry", echelon="", box=BOX):
    return symbols.draw(affiliation, types, echelon, box, symbols.STANDARD, "#000000", {})


def extent(points):
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def points_of(item) -> list[tuple[float, float]]:
    if isinstance(item, Line):
        return [(item.x1, item.y1), (item.x2, item.y2)]
    if isinstance(item, (Polygon, Polyline)):
        return list(item.points)
    if isinstance(item, Ellipse):
        return [(item.cx - item.rx, item.cy - item.ry), (item.cx + item.rx, item.cy + item.ry)]
    assert isinstance(item, Rect)
    return [(item.x, item.y), (item.x + item.w, item.y + item.h)]


def inside(point, outline, slack=0.02) -> bool:
    """Whether `point` lies in the convex `outline` (or on it, within `slack` mm)."""
    sign = 0
    for index, (ax, ay) in enumerate(outline):
        bx, by = outline[(index + 1) % len(outline)]
        cross = (bx - ax) * (point[1] - ay) - (by - ay) * (point[0] - ax)
        length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
        if abs(cross) / length <= slack:
            continue
        if sign and (cross > 0) != (sign > 0):
            return False
        sign = cross
    return True


@pytest.mark.parametrize("affiliation, ratio", [("friend", 1.5), ("hostile", 1.0), ("neutral", 1.0), ("unknown", 1.0)])
def test_each_affiliation_has_its_frame_and_proportions(affiliation, ratio):
    frame = draw(affiliation)[0]
    left, top, right, bottom = extent(frame.points)
    assert isinstance(frame, Polygon) and (right - left) / (bottom - top) == pytest.approx(ratio, rel=1e-3)
    assert frame.fill == SET.frames[affiliation].fill
    corners = {"friend": 4, "hostile": 4, "neutral": 4}
    if affiliation in corners:
        assert len(frame.points) == corners[affiliation]
    else:  # a quatrefoil: four lobes, each bulging past the square through its notches
        assert len(frame.points) > 16
    if affiliation == "hostile":  # a diamond: its corners at the middles of its box's sides
        assert (round((left + right) / 2, 2), round(top, 2)) in {(round(x, 2), round(y, 2)) for x, y in frame.points}


def test_a_symbol_is_as_large_as_fits_its_box_centred_with_room_for_the_echelon_mark():
    frame = draw("friend", box=(0.0, 0.0, 30.0, 30.0))[0]
    left, top, right, bottom = extent(frame.points)
    assert right - left == pytest.approx(30.0) and bottom - top == pytest.approx(20.0)
    band = SET.band * (right - left) / 150
    assert top == pytest.approx((30 - 20 - band) / 2 + band, abs=1e-3)  # the frame and its band centred


@pytest.mark.parametrize("affiliation", ["friend", "hostile", "neutral", "unknown"])
@pytest.mark.parametrize("unit_type", [t for t in SET.types if t != "headquarters"])
def test_every_type_draws_within_its_frame(affiliation, unit_type):
    frame, *shapes = draw(affiliation, unit_type)
    assert shapes
    for item in shapes:
        for point in points_of(item):
            if affiliation == "unknown":  # not convex: within its box
                left, top, right, bottom = extent(frame.points)
                assert left - 0.02 <= point[0] <= right + 0.02 and top - 0.02 <= point[1] <= bottom + 0.02
            else:
                assert inside(point, frame.points), (unit_type, item)


def test_the_infantry_cross_runs_corner_to_corner_and_edge_to_edge():
    frame, first, second = draw("friend", "infantry")
    corners = set(frame.points)
    assert {(first.x1, first.y1), (first.x2, first.y2), (second.x1, second.y1), (second.x2, second.y2)} == corners
    frame, first, _ = draw("hostile", "infantry")
    left, top, right, bottom = extent(frame.points)
    quarter = ((right - left) / 4, (bottom - top) / 4)  # the middles of the diamond's upper-left and lower-right sides
    assert (first.x1, first.y1) == pytest.approx((left + quarter[0], top + quarter[1]), abs=1e-3)
    assert (first.x2, first.y2) == pytest.approx((right - quarter[0], bottom - quarter[1]), abs=1e-3)


def test_mechanised_is_infantry_and_armour_and_a_headquarters_staff_hangs_from_the_lower_left():
    assert draw(types="mechanised") == draw(types="infantry") + draw(types="armour")[1:]
    assert draw(types="infantry+armour") == draw(types="mechanised")
    frame, staff = draw("friend", "headquarters")
    left, top, right, bottom = extent(frame.points)
    assert (staff.x1, staff.y1) == pytest.approx((left, bottom)) and staff.x2 == staff.x1 and staff.y2 > bottom


@pytest.mark.parametrize("echelon, lines, dots", [
    ("team", 1, 1), ("squad", 0, 1), ("section", 0, 2), ("platoon", 0, 3), ("I", 1, 0), ("company", 1, 0),
    ("II", 2, 0), ("III", 3, 0), ("X", 2, 0), ("XX", 4, 0), ("XXX", 6, 0), ("XXXX", 8, 0), ("XXXXX", 10, 0),
    ("army-group", 10, 0)])
def test_echelon_marks_stand_above_the_frame_centred(echelon, lines, dots):
    plain = draw()
    marked = draw(echelon=echelon)
    assert marked[:len(plain)] == plain
    mark = marked[len(plain):]
    assert sum(isinstance(i, Line) for i in mark) == lines and sum(isinstance(i, Ellipse) for i in mark) == dots
    left, top, right, bottom = extent(plain[0].points)
    points = [p for item in mark for p in points_of(item)]
    low_x, low_y, high_x, high_y = extent(points)
    assert high_y < top and low_y >= BOX[1] - 1e-3  # above the frame, inside the box
    assert (low_x + high_x) / 2 == pytest.approx((left + right) / 2, abs=1e-3)
    if lines > 2 and not dots:  # bars and crosses evenly apart
        starts = sorted({round(min(i.x1, i.x2), 3) for i in mark})
        gaps = {round(b - a, 2) for a, b in zip(starts, starts[1:])}
        assert len(gaps) == 1


def test_a_symbol_scales_with_its_box():
    small, large = draw(box=(0, 0, 15, 15), echelon="XX"), draw(box=(0, 0, 150, 150), echelon="XX")
    for little, big in zip(small, large):
        # flat lists: pytest.approx takes no nested sequences (pytest 9.2 refuses them)
        assert ([value * 10 for point in points_of(little) for value in point]
                == pytest.approx([value for point in points_of(big) for value in point], abs=0.02))
    assert large[0].stroke_width == pytest.approx(small[0].stroke_width * 10, rel=1e-3)


@pytest.mark.parametrize("field, value, code, hint", [
    ("type", "infantri", "unknown-unit-type", "infantry"), ("type", "armour+recon", "unknown-unit-type",
                                                             "reconnaissance"),
    ("affiliation", "hostil", "unknown-affiliation", "hostile"), ("echelon", "IIII", "unknown-echelon", "III")])
def test_unknown_names_are_errors_with_a_suggestion(field, value, code, hint):
    values = {"affiliation": "friend", "types": "infantry", "echelon": ""}
    values["types" if field == "type" else field] = value
    with pytest.raises(MusterError) as caught:
        draw(**values)
    assert caught.value.code == code and f"did you mean '{hint}'" in caught.value.message


UNIT_FACE = """\
elements:
  - {kind: box, x: 0, y: 0, w: 63, h: 88, fill: "#f4f0e6", bleed: true}
  - {kind: unit, x: 10, y: 10, w: 43, h: 30, type: armour, echelon: "II"}
  - kind: unit
    x: 10
    y: 45
    w: 43
    h: 30
    affiliation: "{{ 'hostile' if card.type == 'L' else 'friend' }}"
    type: "{{ 'anti-tank' if card.force > 2 else 'artillery' }}"
    echelon: "{{ 'XX' if card.type == 'L' else '' }}"
    fill: "{{ 'dark' if card.type == 'L' else 'none' }}"
    stroke: "#303030"
"""


def test_a_unit_element_builds_validates_and_draws_the_symbol(make_game):
    game = load_game(make_game({"face.yaml": UNIT_FACE}))
    assert [f for f in check_game(game) if f.severity == "error"] == []
    laid = lay_out_cards(game, game.decks["reds"], 3.0)
    alpha, bravo = (laid.faces[laid.fronts[i]] for i in (0, 1))
    frames = [i for i in alpha.items if isinstance(i, Polygon)]
    assert [len(f.points) for f in frames] == [4, 4]
    assert extent(frames[1].points) == pytest.approx((10 + 43 / 2 - 30 * 144 / 174 / 2, 45 + 30 * 30 / 174,
                                                       10 + 43 / 2 + 30 * 144 / 174 / 2, 75), abs=1e-3)
    assert frames[1].fill == "#222222" and frames[1].stroke == "#303030"
    bravo_frames = [i for i in bravo.items if isinstance(i, Polygon)]
    scale = 30 / 130  # a friend frame of 150 x 100 units and its band of 30, held by the box's height
    assert bravo_frames[1].fill is None and extent(bravo_frames[1].points) == pytest.approx(
        (10 + 43 / 2 - 75 * scale, 45 + 30 * scale, 10 + 43 / 2 + 75 * scale, 75), abs=1e-3)


@pytest.mark.parametrize("line, value, code", [
    ("type: armour,", "type: armor,", "unknown-unit-type"),
    ("type: armour,", "affiliation: frend, type: armour,", "unknown-affiliation"),
    ('echelon: "II"', 'echelon: "IIX"', "unknown-echelon")])
def test_an_unknown_name_in_a_layout_is_a_finding_naming_its_line(make_game, line, value, code):
    game = load_game(make_game({"face.yaml": patched(UNIT_FACE, {line: value})}))
    found = [f for f in check_game(game) if f.severity == "error"]
    assert [f.code for f in found] == [code]
    assert (found[0].where.path.name, found[0].where.line) == ("face.yaml", 3)
    assert "did you mean" in found[0].message  # on purpose: the hint, which no field holds


def text_face(text: str, size: float = 12) -> str:
    return ("elements:\n"
            f"  - {{kind: text, x: 4, y: 40, w: 55, h: 10, text: \"{text}\", size: {size}, colour: dark}}\n")


def test_a_symbol_in_text_is_one_em_high_centred_on_the_capitals_in_the_flow(make_game, font_book):
    from generator.core import fonts
    from generator.core.display import Run
    from generator.core.units import PT_PER_MM

    game = load_game(make_game({"face.yaml": text_face("Attack with [[nato:armour]] then [[nato:hostile:infantry]] go")}))
    assert [f for f in check_game(game) if f.severity == "error"] == []
    face = lay_out_cards(game, game.decks["reds"], 3.0).faces[0]
    runs = [i for i in face.items if isinstance(i, Run)]
    frames = [i for i in face.items if isinstance(i, Polygon)]
    assert [r.text for r in runs] == ["Attack with", "then", "go"] and len(frames) == 2
    em = 12 / PT_PER_MM
    middle = runs[0].y - fonts.cap_height("text") * em / 2
    space = fonts.unit_width(" ", "text") * em
    friend, hostile = (extent(f.points) for f in frames)
    assert friend[3] - friend[1] == pytest.approx(em, abs=1e-3) and friend[2] - friend[0] == pytest.approx(1.5 * em, abs=2e-3)
    assert hostile[3] - hostile[1] == pytest.approx(em, abs=1e-3) and hostile[2] - hostile[0] == pytest.approx(em, abs=2e-3)
    assert (friend[1] + friend[3]) / 2 == pytest.approx(middle, abs=1e-3)
    assert friend[0] == pytest.approx(runs[0].x + fonts.unit_width("Attack with", "text") * em + space, abs=2e-3)
    assert runs[1].x == pytest.approx(friend[2] + space, abs=2e-3)  # the text goes on after the symbol's width
    assert all(i.stroke == "#222222" for i in frames) and all(i.fill is None for i in frames)
    lines = [i for i in face.items if isinstance(i, Line)]
    assert len(lines) == 2 and all(hostile[0] <= x <= hostile[2] for i in lines for x in (i.x1, i.x2))


@pytest.mark.parametrize("icon, code", [("nato:armor", "unknown-unit-type"), ("nato:hostle:armour", "unknown-affiliation"),
                                        ("nato:a:b:c", "bad-icon")])
def test_an_unknown_symbol_in_text_is_a_finding_naming_the_line(make_game, icon, code):
    game = load_game(make_game({"face.yaml": text_face(f"go [[{icon}]]")}))
    found = [f for f in check_game(game) if f.severity == "error"]
    assert [f.code for f in found] == [code] and "face.yaml:2" in str(found[0])


def test_grid_battle_icons_are_the_symbols_its_counters_draw():
    """The rulebook's icon of each unit type is an SVG file made from the symbol data (bench/symbol_chart.py
    icons) for the symbol the counters draw for that type: they match."""
    from generator.core.bundle import bundled_games_dir

    game = load_game(bundled_games_dir() / "grid-battle")
    terms = game.vocabularies["unit_type"].terms
    assert len(terms) == 8
    for code, term in terms.items():
        image = game.icons[term.icon].image
        assert image.read_text(encoding="utf-8") == symbols.svg("friend", term.extra["symbol"], "#1c1c1c"), code


def test_a_symbol_prints_its_fill_frame_and_open_arc(tmp_path, font_book):
    """Through the renderer: the anti-air dome (an open Polyline) and the frame print where the data puts them."""
    from reportlab.pdfgen.canvas import Canvas

    from generator.core.units import PT_PER_MM
    from generator.rendering.render import Painter
    from pdfcheck import rasterise

    items = symbols.draw("friend", "anti-air", "", (10.0, 0.0, 60.0, 52.0), symbols.STANDARD, "#000000", {})
    target = tmp_path / "symbol.pdf"
    canvas = Canvas(str(target), pagesize=(80 * PT_PER_MM, 60 * PT_PER_MM), invariant=1)
    Painter(canvas).paint(items, 60.0)
    canvas.showPage()
    canvas.save()
    image = rasterise(target, 0, dpi=254, mode="RGB")  # 10 pixels a millimetre
    left, top, right, bottom = extent(items[0].points)
    scale = (right - left) / 150
    centre_x, centre_y = (left + right) / 2, (top + bottom) / 2

    def pixel(x, y):
        return image.getpixel((round(x * 10), round(y * 10)))

    apex = centre_y + (50 - 0.62 * 50) * scale  # the dome's top: its centre at the frame's foot, 0.62 of half its height
    assert max(pixel(centre_x, apex)) < 90  # the arc
    assert pixel(centre_x, apex - 2) == pytest.approx((0x80, 0xE0, 0xFF), abs=12)  # the fill above it
    assert pixel(centre_x, (apex + bottom) / 2) == pytest.approx((0x80, 0xE0, 0xFF), abs=12)  # and under it
    assert max(pixel(left, centre_y)) < 90 and max(pixel(centre_x, top)) < 90  # the frame
    assert min(pixel(left - 1, centre_y)) > 240  # and nothing outside it


def test_a_symbol_in_a_rulebook_is_an_unknown_icon_saying_what_to_do_instead(make_game):
    from generator.building.kit import build_game
    from generator.core.options import Options

    folder = make_game({"rules.md": "# Rules\n\nArmour is [[nato:armour]].\n\n- **Alpha**: one\n- **Bravo**: two\n"})
    text = patched((folder / "game.yaml").read_text(), {"rules:\n": "rulebook: {file: rules.md}\nrules:\n"}, count=1)
    (folder / "game.yaml").write_text(text)
    with pytest.raises(MusterError) as caught:
        build_game(load_game(folder), folder.parent / "out", Options())
    assert caught.value.code == "unknown-icon" and "card text only" in caught.value.message, str(caught.value)
