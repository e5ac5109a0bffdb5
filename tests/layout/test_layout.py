"""Layouts: templates evaluated per card in the sandbox, text fitted, errors located."""

from __future__ import annotations

import pytest

from conftest import patched
from generator.core.display import Rect, Run
from generator.core.errors import Location
from generator.checking import check_game
from generator.layout.cards import lay_out_cards
from generator.reading.loading import load_game
from generator.reading.resources import bundled_games
from generator.core.units import PT_PER_MM
from generator.core import fonts


def runs(folder):
    game = load_game(folder)
    laid = lay_out_cards(game, game.decks["reds"], 3.0)
    return laid, [i for face in laid.faces for i in face.items if isinstance(i, Run)]


def test_copies_share_one_face_and_identical_backs_are_stored_once(make_game):
    folder = make_game({"back.yaml": "elements:\n  - {kind: box, x: 0, y: 0, w: 63, h: 88, fill: dark, bleed: true}\n"})
    laid, _ = runs(folder)
    assert laid.fronts[1] == laid.fronts[2] != laid.fronts[0]
    assert len(set(laid.backs)) == 1 and len(laid.faces) == 3


def test_bleed_box_reaches_into_the_bleed_only_where_it_touches_the_trim(make_game):
    laid, _ = runs(make_game())
    background = laid.faces[0].items[0]
    assert (background.x, background.y, background.w, background.h) == (-3, -3, 69, 94)


def test_title_shrinks_to_fit_one_line(make_game):
    long_title = "The Extraordinarily Long Operation Title"
    folder = make_game({"reds.yaml": f"cards:\n  - {{title: {long_title}, type: L, force: 2}}\n  - {{title: B, type: U, force: 3, count: 2}}\n"})
    _, items = runs(folder)
    title = next(r for r in items if r.text == long_title)
    assert 8 <= title.size < 16
    width = fonts.unit_width(title.text, title.font) * title.size / PT_PER_MM
    assert title.x >= 4 - 1e-6 and title.x + width <= 4 + 55 + 1e-6


def test_text_that_cannot_fit_is_a_finding_naming_the_card(make_game):
    folder = make_game({"reds.yaml": "cards:\n  - {title: Alpha, type: L, force: 2, text: " + "word " * 200 + "}\n  - {title: B, type: U, force: 3, count: 2}\n",
                        "face.yaml": "elements:\n  - {kind: paragraph, x: 4, y: 60, w: 55, h: 20, text: '{{ card.text }}', size: 9, min_size: 6}\n  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: '{{ card.title }}'}\n"})
    found = [(f.code, f.field, f.where) for f in check_game(load_game(folder))]
    assert ("text-overflow", "cards[0]", (folder / "reds.yaml", 2, 5)) in found, found


def test_template_error_names_layout_line_and_card(make_game):
    folder = make_game({"face.yaml": "elements:\n  - {kind: box, x: 0, y: 0, w: 63, h: 88}\n  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: '{{ card.titel }}'}\n"})
    found = [str(f) for f in check_game(load_game(folder))]
    assert len(found) == 1
    assert found[0].startswith(f"{folder / 'face.yaml'}:3:")
    assert ("card has no trait 'titel' (did you mean 'title'?); it has: count, designed, force, fronts, id, title, type"
            in found[0]
            and "drawing the face of 'Alpha'" in found[0])


def test_sandbox_refuses_python_internals(make_game):
    folder = make_game({"face.yaml": "elements:\n  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: \"{{ card.__class__.__mro__ }}\"}\n"})
    found = [(f.code, f.where.path.name, f.where.line) for f in check_game(load_game(folder))]
    assert found == [("template-error", "face.yaml", 2)]


def test_condition_and_icon_markup(make_game):
    folder = make_game({"face.yaml": (
        "elements:\n"
        "  - {kind: text, when: \"card.type == 'L'\", x: 4, y: 4, w: 55, h: 10, text: '[[star]] {{ card.title }}', font: text}\n")})
    laid, items = runs(folder)
    star = [r for r in items if r.text == "★"]
    assert len(star) == 1 and star[0].font == "text-bold"
    fronts = [i for index in sorted(set(laid.fronts)) for i in laid.faces[index].items]
    assert [r.text for r in fronts if r.font == "text"] == ["Alpha"]


def test_repeat_let_and_grid(make_game):
    folder = make_game({"face.yaml": (
        "let:\n"
        "  step: face.w / 4\n"
        "elements:\n"
        "  - {kind: box, repeat: 'range(4)', as: i, x: '{{ i * step }}', y: 0, w: '{{ step }}', h: 5, fill: dark}\n"
        "  - {kind: grid, x: 10, y: 20, columns: 3, rows: 2, cell: 10, labels: true, size: 6}\n")})
    game = load_game(folder)
    face = lay_out_cards(game, game.decks["reds"], 3.0).faces[0]
    boxes = [i for i in face.items if type(i).__name__ == "Rect"]
    assert [b.x for b in boxes] == [0, 15.75, 31.5, 47.25]
    lines = [i for i in face.items if type(i).__name__ == "Line"]
    assert len(lines) == 4 + 3  # column and row boundaries
    labels = sorted(r.text for r in face.items if isinstance(r, Run))
    assert labels == sorted(["A", "A", "B", "B", "C", "C", "1", "1", "2", "2"])


def test_image_icon_is_placed_inline(make_game):
    from PIL import Image

    folder = make_game()
    (folder / "mine.png").write_bytes(b"")
    Image.new("RGB", (16, 16), (0, 0, 0)).save(folder / "mine.png")
    text = patched((folder / "game.yaml").read_text(), {"  star: {glyph: \"★\", font: text-bold}":
                                                            "  star: {glyph: \"★\", font: text-bold}\n  mine: {image: mine.png}"})
    (folder / "game.yaml").write_text(text)
    (folder / "face.yaml").write_text("elements:\n  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: '[[mine]] {{ card.title }}', size: 10}\n")
    game = load_game(folder)
    face = lay_out_cards(game, game.decks["reds"], 3.0).faces[0]
    picture = next(i for i in face.items if type(i).__name__ == "Picture")
    title = next(i for i in face.items if isinstance(i, Run))
    assert picture.x < title.x and abs(picture.w - 10 / PT_PER_MM) < 1e-6


def test_rotated_text_turns_about_its_box(make_game, tmp_path):
    from generator.core.display import Turned
    from generator.building.kit import build_game
    from generator.core.options import Options

    folder = make_game({"face.yaml": "elements:\n  - {kind: text, rotate: 180, x: 40, y: 70, w: 20, h: 10, text: 'L', size: 20, align: center}\n"})
    game = load_game(folder)
    turned = lay_out_cards(game, game.decks["reds"], 3.0).faces[0].items[0]
    assert isinstance(turned, Turned) and (turned.cx, turned.cy, turned.angle) == (50, 75, 180)
    build_game(game, tmp_path, Options())
    pdf = tmp_path / "tiny" / "cards-reds.pdf"
    # an upside-down L has its long stroke on the right: more ink in the right half of its box than the left
    from generator.imposition.sheets import arrange
    from generator.core.units import CARD_SIZES, PAPERS
    from pdfcheck import rasterise

    slot = arrange(PAPERS["a4"], CARD_SIZES["poker"], 3.0).slots[0]
    dpi = 150
    page = rasterise(pdf, 0, dpi=dpi)
    px = lambda mm: round(mm / 25.4 * dpi)
    left, top = slot.x + 40, slot.y + 70
    box = page.crop((px(left), px(top), px(left + 20), px(top + 10)))
    half = box.width // 2
    ink = lambda image: sum(255 - value for value in image.tobytes())
    assert ink(box.crop((half, 0, box.width, box.height))) > 1.5 * ink(box.crop((0, 0, half, box.height)))
    bad = make_game({"face.yaml": "elements:\n  - {kind: circle, rotate: 90, cx: 5, cy: 5, r: 2}\n"}, name="bad")
    assert [(f.code, f.field, f.where) for f in check_game(load_game(bad))] == [
        ("layout-error", "decks.reds.face", (bad / "face.yaml", 2, 20))]  # rotate: of a circle


def test_faces_that_print_alike_are_laid_out_once_yet_each_card_reports_its_problems(make_game):
    words = "word " * 200
    folder = make_game({"reds.yaml": f"cards:\n  - {{title: Alpha, type: L, force: 2, text: {words}}}\n"
                                     f"  - {{title: Bravo, type: U, force: 3, count: 2, text: {words}}}\n",
                        "face.yaml": "elements:\n  - {kind: paragraph, x: 4, y: 60, w: 55, h: 20, text: '{{ card.text }}', size: 9, min_size: 6}\n"})
    found = [(f.code, f.field, f.where.line) for f in check_game(load_game(folder))]
    assert found == [("text-overflow", "cards[0]", 2), ("text-overflow", "cards[1]", 3)]  # each card named


def test_a_face_turned_by_a_template_is_laid_out_per_card(make_game):
    folder = make_game({"face.yaml": "elements:\n  - {kind: text, rotate: \"{{ 180 if card.type == 'L' else 0 }}\", x: 4, y: 4, w: 20, h: 10, text: 'X'}\n"})
    laid, _ = runs(folder)
    alpha, bravo = (laid.faces[laid.fronts[i]] for i in (0, 1))
    assert type(alpha.items[0]).__name__ == "Turned" and type(bravo.items[0]) is Run


def test_display_items_of_different_kinds_never_compare_equal():
    """Items are tuples, so two kinds could compare equal only with as many fields and alike last fields."""
    from generator.core import display

    shapes = {}
    for kind in (display.Rect, display.Line, display.Ellipse, display.Polygon, display.Run, display.Picture,
                 display.Turned, display.Polyline):
        shape = (len(kind._fields), kind.__annotations__[kind._fields[-1]])
        assert shape not in shapes, (kind.__name__, shapes.get(shape))
        shapes[shape] = kind.__name__


def test_a_failing_value_of_a_repeated_element_is_named_with_its_line(make_game):
    """Repeated elements are evaluated by one template per item; a failure still names the value at fault."""
    folder = make_game({"face.yaml": (
        "elements:\n"
        "  - kind: line\n"
        "    repeat: 'range(3)'\n"
        "    as: i\n"
        "    x1: '{{ i }}'\n"
        "    y1: '{{ 10 if i < 2 else i.nope }}'\n"
        "    x2: 1\n"
        "    y2: '{{ i * 2 }}'\n")})
    found = [(f.code, f.where.path, f.where.line) for f in check_game(load_game(folder))]
    assert found == [("template-error", folder / "face.yaml", 6)]  # y1: of the item that reads i.nope


def test_a_program_that_does_not_read_the_card_runs_once_per_deck(make_game, monkeypatch):
    from generator.layout.evaluation import Evaluator

    runs = []
    original = Evaluator._run_program
    monkeypatch.setattr(Evaluator, "_run_program", lambda self, context: runs.append(self) or original(self, context))
    folder = make_game({"back.yaml": "elements:\n  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: '{{ deck.side }}'}\n"})
    game = load_game(folder)
    laid = lay_out_cards(game, game.decks["reds"], 3.0)
    backs = [evaluator for evaluator in runs if evaluator.layout.path.name == "back.yaml"]
    fronts = [evaluator for evaluator in runs if evaluator.layout.path.name == "face.yaml"]
    assert len(backs) == 1 and len(fronts) == 2  # two cards (one with two copies), one deck
    assert len(set(laid.backs)) == 1 and laid.faces[laid.backs[0]].items[0].text == "Red"


def test_the_element_table_draws_every_kind_the_layout_format_knows_and_no_other():
    """Each kind of element is drawn by the function of its name, so searching for a kind finds what draws it; and
    every drawing function of elements.py is a kind of the spec."""
    import inspect

    from generator.layout import elements
    from generator.layout.spec import ELEMENTS

    drawing = {name for name, function in inspect.getmembers(elements, inspect.isfunction)
               if function.__module__ == elements.__name__ and not name.startswith("_")
               and list(inspect.signature(function).parameters) == ["values", "element", "canvas", "found"]}
    assert drawing == set(ELEMENTS)
    assert all(kind.draw.__name__ == name and kind.draw is getattr(elements, name) for name, kind in ELEMENTS.items())


TEXT = "  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: '{{ card.title }}'}\n"


@pytest.mark.parametrize("files, severity, code", [
    ({"face.yaml": "elements:\n  - {kind: text, x: 4, y: 4, w: 1, h: 10, text: '{{ card.title }}', min_size: 8}\n"},
     "error", "text-overflow"),
    ({"face.yaml": "elements:\n  - {kind: paragraph, x: 4, y: 4, w: 20, h: 3, text: '{{ card.title }} is long'}\n"},
     "error", "text-overflow"),
    ({"face.yaml": "elements:\n  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: '{{ card.title }}', size: 5}\n"},
     "warning", "text-too-small"),
    ({"face.yaml": "elements:\n  - {kind: text, x: 0, y: 4, w: 55, h: 10, text: '{{ card.title }}'}\n"},
     "warning", "outside-safe-area"),
    ({"face.yaml": "elements:\n  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: 'Ξ ⛵'}\n"}, "warning", "missing-glyph"),
    ({"face.yaml": "elements:\n  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: '{{ card.titel }}'}\n"},
     "error", "template-error"),
    ({"face.yaml": "elements:\n  - {kind: box, x: 4, y: 4, w: 5, h: 5, fill: '{{ \"mauve\" }}'}\n"}, "error", "bad-value"),
    ({"face.yaml": "elements:\n  - {kind: box, x: 4, y: 4, w: 5, h: 5, fill: mauve}\n"}, "error", "bad-value"),
    ({"face.yaml": "elements:\n  - {kind: image, x: 4, y: 4, w: 5, h: 5, src: nowhere.png}\n"}, "error", "bad-image"),
    ({"face.yaml": "elements:\n  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: '[[moon]]'}\n"}, "error", "unknown-icon"),
    ({"face.yaml": "elements:\n  - {kind: box, x: 4, y: 4, w: 5, h: 5, colour: red}\n"}, "error", "unknown-key"),
    ({"face.yaml": "elements:\n  - {kind: box, x: 4, y: 4, w: 5}\n"}, "error", "missing-key"),
    ({"face.yaml": "elements:\n  - {kind: star, x: 4}\n"}, "error", "unknown-kind"),
    ({"face.yaml": "elements: {}\n"}, "error", "layout-error"),
    ({"face.yaml": "let:\n  card: 1\nelements:\n" + TEXT}, "error", "bad-name"),
    ({"face.yaml": "elements:\n  - {kind: box, repeat: \"'abc'\", x: 4, y: 4, w: 5, h: 5}\n"}, "error", "bad-value"),
    ({"back.yaml": "elements:\n  - {kind: box, x: 4, y: 4, w: 5, h: 5, when: 'card.nope.deeper'}\n"},
     "error", "template-error"),
])
def test_every_finding_of_laying_out_has_its_code(make_game, files, severity, code):
    folder = make_game({"back.yaml": "elements:\n  - {kind: box, x: 0, y: 0, w: 63, h: 88}\n", **files})
    found = [f for f in check_game(load_game(folder)) if f.severity == severity]
    assert found and {f.code for f in found} == {code}, [(str(f), f.code) for f in found]


def test_a_missing_layout_and_a_deck_out_of_time_have_codes(make_game, monkeypatch):
    from generator.core import sandbox

    folder = make_game()
    (folder / "face.yaml").unlink()
    assert [f.code for f in check_game(load_game(folder))] == ["missing-layout"]
    monkeypatch.setattr(sandbox, "TIME_LIMIT", 0.2)
    loop = ("{% for a in range(1000) %}{% for b in range(1000) %}{% for c in range(1000) %}"
            "{% endfor %}{% endfor %}{% endfor %}")
    folder = make_game({"face.yaml": f"elements:\n  - {{kind: text, x: 4, y: 4, w: 55, h: 10, text: \"{loop}\"}}\n"},
                       name="slow")
    found = check_game(load_game(folder))
    assert [f.code for f in found] == ["time-limit"] and "laying out deck 'reds'" in found[0].message


def test_a_problem_of_a_face_is_filed_under_its_card_and_points_at_the_layout(make_game):
    folder = make_game({"face.yaml": "elements:\n  - {kind: text, x: 4, y: 4, w: 1, h: 10, text: '{{ card.title }}'}\n"})
    found = check_game(load_game(folder))
    alpha = [f for f in found if f.field == "cards[0]"]
    assert len(alpha) == 1 and alpha[0].where == Location(folder / "reds.yaml", 2, 5)
    assert alpha[0].related == Location(folder / "face.yaml", 2, 5) and str(alpha[0].related) in alpha[0].message


SAFE_ZONE = 3.0  # mm inside the trim


def test_card_frames_stay_clear_of_the_cut():
    """A frame (a stroked box around most of a card) either runs off the card or keeps its outer edge inside the
    safe zone: a line just inside the trim shows every uneven cut."""
    near = []
    for folder in bundled_games():
        game = load_game(folder)
        for deck in game.decks.values():
            if deck.format.component != "cards":
                continue
            for face in lay_out_cards(game, deck, 3.0, warnings=False).faces:
                for item in face.items:
                    if type(item) is not Rect or not item.stroke or item.w < face.width * 0.8 or item.h < face.height * 0.8:
                        continue
                    half = item.stroke_width / 2
                    gaps = (item.x - half, item.y - half, face.width - item.x - item.w - half,
                            face.height - item.y - item.h - half)
                    if any(0 <= gap < SAFE_ZONE for gap in gaps):
                        near.append((game.id, deck.id, item))
    assert near == []


def _faces_by_card(game, deck_id):
    """Each card of a bundled deck with the display items of its front."""
    deck = game.decks[deck_id]
    laid = lay_out_cards(game, deck, 3.0, warnings=False)
    copies = [card for card in deck.cards for _ in range(card.count)]
    return [(card, laid.faces[front].items) for card, front in zip(copies, laid.fronts)]


def _bars_in(items, left, top, size):
    """Thin horizontal bars (an underline) inside the square corner box at (left, top)."""
    return [i for i in items if type(i) is Rect and i.h < 1 and i.w < size / 2
            and left <= i.x and i.x + i.w <= left + size and top <= i.y and i.y + i.h <= top + size]


def test_eastern_front_underlines_six_and_nine_in_both_corners():
    """The action number decides every shot and the lower corner is upside down: 6 and 9 carry a mark."""
    game = load_game("eastern-front")
    checked = set()
    for card, items in _faces_by_card(game, "conflict"):
        action = card.traits["action"]
        upper, lower = _bars_in(items, 3, 3, 11.5), _bars_in(items, 48.5, 73.5, 11.5)
        marked = action in (6, 9)
        assert (len(upper), len(lower)) == ((1, 1) if marked else (0, 0)), (card.title, action)
        if marked:
            # under the upright digit, and above the upside-down one (its underline, turned with it)
            assert upper[0].y > 3 + 11.5 / 2 and lower[0].y < 73.5 + 11.5 / 2
        checked.add(action)
    assert checked == set(range(1, 11))


def test_eastern_front_battle_header_follows_the_card():
    game = load_game("eastern-front")
    headers = {}
    for card, items in _faces_by_card(game, "conflict"):
        if card.traits["kind"] == "battle":
            texts = " ".join(i.text for i in items if type(i) is Run)
            headers[card.title] = ("Must be fought" in texts, "Fight it, or discard it" in texts)
    assert headers.pop("Battle for Kiev") == (True, False)
    assert set(headers.values()) == {(False, True)}


def test_eastern_front_units_that_never_fire_draw_no_phase_numbers():
    """The DOES NOT FIRE bar replaces the four phase boxes; nothing is drawn under it."""
    game = load_game("eastern-front")
    silent = 0
    for deck_id in ("soviet-arsenal", "german-arsenal"):
        for card, items in _faces_by_card(game, deck_id):
            in_row = [i for i in items if (type(i) is Run and 62 <= i.y <= 69.5 and i.x > 16)
                      or (type(i) is Rect and i.y == 62 and i.x >= 16.5)]
            texts = sorted(i.text for i in in_row if type(i) is Run)
            if card.traits["phases"]:
                assert texts == ["1", "2", "3", "4"] and len(in_row) == 8, card.title
            else:
                assert texts == ["DOES NOT FIRE"] and len(in_row) == 2, card.title
                silent += 1
    assert silent == 3  # the two leaders and the Storch


def test_an_element_is_set_once_for_each_set_of_values_yet_each_card_reports_its_problems(make_game, monkeypatch):
    """Drawing an element depends on its values alone: one without templates is set once per deck, one whose
    template gives a few values once per value; the problems found setting it are still every card's."""
    from generator.layout import typeset

    folder = make_game({"reds.yaml": "cards:\n" + "".join(f"  - {{title: T{n}, type: U, force: {n % 2}}}\n" for n in range(4)),
                        "face.yaml": "elements:\n"
                                     "  - {kind: text, x: 4, y: 4, w: 4, h: 4, text: far too long for its box, min_size: 12}\n"
                                     "  - {kind: text, x: 4, y: 20, w: 55, h: 10, text: '{{ card.force }}'}\n"
                                     "  - {kind: text, x: 4, y: 40, w: 55, h: 10, text: '{{ card.title }}'}\n"})
    (folder / "game.yaml").write_text(patched((folder / "game.yaml").read_text(), {"size: 3": "size: 4"}))
    fitted = []
    fit_line = typeset.fit_line
    monkeypatch.setattr(typeset, "fit_line", lambda *args: fitted.append(args) or fit_line(*args))
    game = load_game(folder)
    found = [(f.code, f.field, f.where.path.name, f.where.line) for f in check_game(game)]
    assert found == [("text-overflow", f"cards[{n}]", "reds.yaml", n + 2) for n in range(4)]
    assert len(fitted) == 1 + 2 + 4 + 4  # the fixed text, each force, each title; each back's title
    laid = lay_out_cards(game, game.decks["reds"], 3.0)
    assert [[r.text for r in laid.faces[i].items] for i in laid.fronts] == [["0", "T0"], ["1", "T1"], ["0", "T2"],
                                                                            ["1", "T3"]]
