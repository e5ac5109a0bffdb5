"""Text printed exactly as written, on cards and in rulebooks: escapes, asterisks that are not markup, icons in
their place next to punctuation, emphasis within bold text, faces a family lacks, numbers kept with their icons,
embedded words, and a property test over the PDF's own text."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from conftest import patched
from generator.building.kit import build_game
from generator.checking import check_game
from generator.core.display import Face, Picture, Run
from generator.core import codes as catalogue
from generator.core.errors import Finding, Location
from generator.core.inline import marked
from generator.core.model import Icon
from generator.core.options import Options
from generator.layout import elements
from generator.layout.files import Element
from generator.reading.loading import load_game
from pdfcheck import ICON_AT, page_text, read_back

STAR = Icon("star", "★", "text-bold", None, None)


@pytest.fixture(scope="module")
def wood(tmp_path_factory) -> Path:
    """A folder with an image icon; the bundled font book read."""
    from generator.reading.fonts import read_font_book

    read_font_book()
    folder = tmp_path_factory.mktemp("icons")
    Image.new("RGB", (16, 16), (120, 70, 20)).save(folder / "wood.png")
    return folder


def card_text(text: str, root: Path, embed: dict | None = None, font: str = "text", w: float = 50.0,
              size: float = 9.0, found: list | None = None) -> list:
    """The display items of a paragraph element setting `text` (the game's icons: star, a glyph; wood, an image),
    its `embed` words made icons as they are in a card's text field."""
    icons = {"star": STAR, "wood": Icon("wood", None, "text", None, root / "wood.png")}
    canvas = elements.Canvas((63.0, 88.0), 3.0, root, icons)
    values = {"text": marked(text, embed or {}), "font": font, "colour": "#000000", "x": 5.0, "y": 5.0, "w": w, "h": 78.0,
              "size": size, "min_size": 3.0, "leading": 1.2, "valign": "top", "align": "left"}
    element = Element("paragraph", {}, Location(root / "face.yaml", 7, 5))
    found = [] if found is None else found
    items = elements.paragraph(values, element, canvas, found)
    assert not [f for f in found if f.severity == "error"], found
    return items


def printed(items: list) -> str:
    """The PDF's own text of a face holding `items` (see read_back)."""
    from generator.imposition.sheets import Sheet, Slot
    from generator.rendering.render import SheetWriter

    target = io.BytesIO()
    writer = SheetWriter(target, "text")
    writer.sheet(Sheet("front", (63, 88), ((Slot(0, 0, 63, 88, 0, 0, 0, 0), 0),)), [Face(63, 88, tuple(items))])
    writer.save()
    return read_back(target.getvalue(), 0)


def test_image_icons_keep_their_place_next_to_punctuation(wood):
    items = card_text("1 [[wood]], 2 [[wood]]. 3", wood)
    assert printed(items) == f"1{ICON_AT},2{ICON_AT}.3"
    runs = [(round(i.x, 2), i.text) for i in items if isinstance(i, Run)]
    pictures = [round(i.x, 2) for i in items if isinstance(i, Picture)]
    assert [text for _, text in runs] == ["1 ", ", 2 ", ". 3"]  # each number and its icon a space apart
    assert runs[0][0] < pictures[0] < runs[1][0] < pictures[1] < runs[2][0]


def test_glyph_icons_keep_their_place_too(wood):
    assert printed(card_text("1 [[star]], 2 [[star]]. 3", wood)) == "1★,2★.3"


@pytest.mark.parametrize("text, expected", [
    (r"\*not italic\*", "*not italic*"),
    (r"\*\*not bold\*\*", "**not bold**"),
    (r"\[[star]] is written so", "[[star]] is written so"),
    ("2*3*4", "2*3*4"),
    ("5 * 2 and 7 *", "5 * 2 and 7 *"),
    ("a *lone star", "a *lone star"),
    (r"C:\path", r"C:\path"),
])
def test_escapes_and_stray_asterisks_print_as_written(wood, text, expected):
    items = card_text(text, wood)
    assert [i.font for i in items if isinstance(i, Run)] == ["text"]  # nothing turned italic
    assert printed(items) == expected.replace(" ", "")
    assert " ".join(i.text for i in items if isinstance(i, Run)) == expected


def test_markup_still_works_around_escapes(wood):
    runs = [(i.text, i.font) for i in card_text(r"*a \* b* **c** [[star]]", wood) if isinstance(i, Run)]
    assert runs == [("a * b", "text-italic"), ("c ★", "text-bold")]  # the star's font is text-bold too


def test_bold_inside_a_bold_element_stays_bold(wood):
    runs = [(i.text, i.font) for i in card_text("plain **strong** *leaning*", wood, font="text-bold")
            if isinstance(i, Run)]
    assert runs == [("plain strong", "text-bold"), ("leaning", "text-bold-italic")]


def test_italic_in_a_family_without_one_is_a_warning_naming_the_element_and_family(wood):
    found: list = []
    runs = [i for i in card_text("a *b* c", wood, font="display", found=found) if isinstance(i, Run)]
    assert {r.font for r in runs} == {"display"}
    assert [(f.severity, f.code) for f in found] == [("warning", "no-italic")]
    assert (found[0].where.path.name, found[0].where.line) == ("face.yaml", 7)
    assert found == [Finding.of(catalogue.NO_ITALIC, found[0].where, mark="*italic*", setting="", font="display",
                                family="display", face="italic", printed="in its regular one")]


def test_italic_in_a_layout_is_reported_by_the_validator(make_game):
    folder = make_game({"face.yaml": "elements:\n  - {kind: paragraph, x: 4, y: 4, w: 55, h: 40, "
                                     "text: 'Hit *hard*', font: display-bold}\n"})
    found = [f for f in check_game(load_game(folder)) if f.code == "no-italic"]
    assert [(f.where.path.name, f.where.line, f.field, f.related.path.name, f.related.line) for f in found] == [
        ("reds.yaml", 2, "cards[0]", "face.yaml", 2), ("reds.yaml", 3, "cards[1]", "face.yaml", 2)]  # each card


@pytest.mark.parametrize("gap", [" ", ""])
def test_a_number_and_its_icon_never_break_apart(wood, gap):
    for icon in ("star", "wood"):
        # the line holds "Pay 2" but not the icon: the number moves down with it
        for width in [tenths / 10 for tenths in range(100, 300, 5)]:
            items = card_text(f"Pay 2{gap}[[{icon}]] now", wood, w=width, size=9.0)
            two = next(i for i in items if isinstance(i, Run) and "2" in i.text)
            mark = next(i for i in items if isinstance(i, Picture) or isinstance(i, Run) and "★" in i.text)
            mark_line = mark.y + (mark.h / 2 if isinstance(mark, Picture) else 0)
            assert abs(two.y - mark_line) < 3.0, (width, items)


def test_embedded_words_print_as_icons(wood):
    embed = {"Wood": "wood", "Star": "star", "Star Wood": "star"}
    items = card_text("2 Wood, Woods, Star Wood, Star and wood", wood, embed)
    assert printed(items) == f"2{ICON_AT},Woods,★,★andwood"


def test_embed_is_read_from_game_yaml_and_unknown_icons_are_findings(make_game):
    folder = make_game()
    text = patched((folder / "game.yaml").read_text(), {"vocabularies:": "embed:\n  Star: star\n  Gold: gold\n"
                                                                        "vocabularies:"}, count=1)
    (folder / "game.yaml").write_text(text)
    found = [f for f in check_game(load_game(folder)) if f.code == "unknown-icon"]
    assert [(f.where.path.name, f.where.line, f.field) for f in found] == [("game.yaml", 9, "embed.Gold")]


def test_an_escaped_icon_in_card_text_is_not_an_unknown_icon(wood):
    assert printed(card_text(r"\[[nothing]]", wood)) == "[[nothing]]"


RULES = """\
# Rules

1 [[wood]], 2 [[wood]]. 3 and 1 [[star]], 2 [[star]]. 3

Escaped: \\*a\\* \\*\\*b\\*\\* \\[[star]] and 2*3*4, 5 * 2.

Embedded: 4 Wood.

# Card reference

| Card |
|---|
| Alpha |
| Bravo |
"""


def test_rulebook_text_prints_as_written(make_game, tmp_path):
    folder = make_game({"rules.md": RULES})
    Image.new("RGB", (16, 16), (120, 70, 20)).save(folder / "wood.png")
    text = patched((folder / "game.yaml").read_text(), {"  star: {glyph: \"★\", font: text-bold}": "  star: {glyph: \"★\", font: text-bold}\n"
                                                       "  wood: {image: wood.png}\nembed: {Wood: wood}"})
    (folder / "game.yaml").write_text(text + "rulebook: {file: rules.md}\n")
    game = load_game(folder)
    assert not [f for f in check_game(game) if f.severity == "error"]
    build_game(game, tmp_path / "out", Options())
    pdf = tmp_path / "out" / folder.name / "rules.pdf"
    body = " ".join(page_text(pdf, 2).split())
    assert "1 , 2 . 3 and 1 ★, 2 ★. 3" in body
    assert f"1{ICON_AT},2{ICON_AT}.3and1★,2★.3" in read_back(str(pdf), 2)
    assert "Escaped: *a* **b** [[star]] and 2*3*4, 5 * 2." in body
    assert "Embedded: 4" in body and "Wood" not in body


def _atoms():
    """Pieces of card text, each (source, what prints): words, numbers, punctuation, icons, escapes, markup."""
    word = st.text("abcxyzAB", min_size=1, max_size=6)
    return st.one_of(
        word.map(lambda w: (w, w)),
        st.integers(0, 99).map(lambda n: (str(n), str(n))),
        st.sampled_from([",", ".", ";", ":", "!", "(", ")", "-"]).map(lambda p: (p, p)),
        st.sampled_from([("[[star]]", "★"), ("[[wood]]", ICON_AT), (" Wood ", ICON_AT)]),
        st.sampled_from([("\\*", "*"), ("\\*\\*", "**"), ("\\[[star]]", "[[star]]"), ("\\\\", "\\")]),
        st.sampled_from([("2*3*4", "2*3*4"), ("*", "*")]).map(lambda a: (f" {a[0]} ", a[1])),
        word.map(lambda w: (f" *{w}* ", w)),
        word.map(lambda w: (f" **{w}** ", w)),
    )


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(_atoms(), st.sampled_from(["", " "])), min_size=1, max_size=14))
def test_the_pdf_says_what_the_card_text_says(wood, atoms):
    source = "".join(text + gap for (text, _), gap in atoms)
    expected = "".join(shown for (_, shown), _ in atoms)
    assert printed(card_text(source, wood, {"Wood": "wood"})) == expected.replace(" ", ""), source


def test_italic_in_a_display_heading_is_a_warning_with_its_line(make_game):
    folder = make_game({"rules.md": patched(RULES, {"# Rules": "# Rules\n\n## A *leaning* section"})})
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text() + "rulebook: {file: rules.md}\n")
    found = [f for f in check_game(load_game(folder)) if f.code == "no-italic"]
    assert found == [Finding.of(catalogue.NO_ITALIC, (folder / "rules.md", 3, 1), "rulebook", mark="*italic*",
                                setting="a heading set in ", font="display-bold", family="display", face="italic",
                                printed="upright")]


@pytest.fixture(scope="module")
def book_game(tmp_path_factory):
    """A game with a glyph icon (star), an image icon (wood) and embed: {Wood: wood}, for typesetting rules."""
    from conftest import BACK_YAML, FACE_YAML, GAME_YAML, REDS_YAML

    folder = tmp_path_factory.mktemp("book") / "tiny"
    folder.mkdir()
    game_yaml = patched(GAME_YAML, {"  star: {glyph: \"★\", font: text-bold}": "  star: {glyph: \"★\", font: text-bold}\n  wood: {image: wood.png}\n"
                                  "embed: {Wood: wood}"})
    for name, text in {"game.yaml": game_yaml + "rulebook: {file: rules.md}\n", "reds.yaml": REDS_YAML,
                       "face.yaml": FACE_YAML, "back.yaml": BACK_YAML, "rules.md": "# Rules\n"}.items():
        (folder / name).write_text(text, encoding="utf-8")
    Image.new("RGB", (16, 16), (120, 70, 20)).save(folder / "wood.png")
    return load_game(folder)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(_atoms(), st.sampled_from(["", " "])), min_size=1, max_size=14))
def test_the_pdf_says_what_the_rulebook_paragraph_says(book_game, atoms):
    from generator.core.units import PAPERS
    from generator.rendering.rulebook_pdf import Book

    source = "Text: " + "".join(text + gap for (text, _), gap in atoms)
    expected = "Text: " + "".join(shown for (_, shown), _ in atoms)
    target = io.BytesIO()
    Book(book_game, PAPERS["a5"]).build(source + "\n", target)
    assert expected.replace(" ", "") in read_back(target.getvalue(), 2), source


def test_bold_in_bold_rulebook_text_stays_bold(book_game):
    from pypdf import PdfReader

    from generator.core.units import PAPERS
    from generator.rendering.rulebook_pdf import Book

    source = "# Heading **strong** end\n\nBody **strong** end\n\n| Head **strong** end |\n|---|\n| cell |\n"
    target = io.BytesIO()
    Book(book_game, PAPERS["a5"]).build(source, target)
    seen: list[tuple[str, str]] = []

    def visit(text, matrix, text_matrix, font, size):
        if text.strip() and font:
            seen.append((text.strip(), str(font["/BaseFont"]).split("+")[-1]))

    PdfReader(target).pages[2].extract_text(visitor_text=visit)
    # a heading and a table's head are bold already: their **strong** is set in the same bold face, in one run
    assert ("1  Heading strong end", "RobotoCondensed-Bold") in seen
    assert ("Head strong end", "DejaVuSansCondensed-Bold") in seen
    assert ("Body", "DejaVuSansCondensed") in seen and ("strong", "DejaVuSansCondensed-Bold") in seen


def test_a_heading_with_an_image_icon_keeps_its_word_in_the_contents_and_bookmarks(book_game):
    from pypdf import PdfReader

    from generator.core.units import PAPERS
    from generator.rendering.rulebook_pdf import Book

    target = io.BytesIO()
    Book(book_game, PAPERS["a5"]).build("# Gather Wood and [[star]]\n\nText.\n", target)
    assert [item.title for item in PdfReader(target).outline] == ["1  Gather Wood and ★"]
    assert "1GatherWoodand★" in read_back(target.getvalue(), 1)  # the contents page
    assert f"1Gather{ICON_AT}and★" in read_back(target.getvalue(), 2)  # the heading itself


@pytest.mark.parametrize("entry, code", [('"": star', "bad-name"), ("' Star': star", "bad-name"), ("Star: [star]", "unknown-icon")])
def test_a_bad_embed_entry_is_one_error_naming_its_line(make_game, entry, code):
    folder = make_game()
    text = patched((folder / "game.yaml").read_text(), {"vocabularies:": f"embed:\n  {entry}\nvocabularies:"}, count=1)
    (folder / "game.yaml").write_text(text)
    found = [f for f in check_game(load_game(folder)) if f.severity == "error"]
    assert [f.code for f in found] == [code] and "game.yaml:" in str(found[0]) and found[0].field.startswith("embed")


def test_words_measured_in_a_font_are_measured_again_when_its_file_changes():
    """Card text's words are measured once per font and colour; a font name whose file changes (a game's own font
    edited between two builds of a watch) measures them again, as the font now is."""
    from generator.core import fonts
    from generator.layout import typeset
    from generator.reading.fonts import read_font_book

    bundled = read_font_book()
    span = [typeset.Span("Advance hold", "text", "#000000")]
    try:
        condensed = typeset.words(span)
        fonts.use(fonts.FontBook({**bundled.files, "text": bundled.files["display-bold"]}, bundled.families))
        wider = typeset.words(span)
        assert [w.width for w in wider] == [fonts.unit_width(w.pieces[0].text, "text") for w in wider]
        assert wider[0].width != condensed[0].width
    finally:
        fonts.use(bundled)
