"""Rulebooks: Markdown and Jinja from the game's data, typeset with an outline; booklets in saddle-stitch order."""

from __future__ import annotations

import glob
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pypdf import PdfReader

from generator.imposition.booklet import saddle_stitch_order
from generator.building.kit import build_game
from generator.core.options import Options
from generator.checking import check_game
from generator.core import codes as catalogue
from generator.core.errors import Finding, GameInvalid
from generator.reading.loading import load_game
from generator.reading.resources import bundled_games
from generator.layout.rulebook import render_text
from pdfcheck import page_text
from conftest import REPO, patched

RULES = """\
# Playing

Shuffle the **{{ decks.reds.name }}**. Each player draws [[star]] three cards.

## Fighting

Highest force wins.

# Card reference

| Card | Force |
|---|---|
{% for card in decks.reds.cards %}| {{ card.title }} | {{ card.force }} |
{% endfor %}
"""


def rules_game(make_game, rules: str = RULES):
    folder = make_game({"rules.md": rules})
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text() + "rulebook: {file: rules.md}\n")
    return folder


def outline(pdf: Path) -> list[tuple[int, str]]:
    reader = PdfReader(pdf)

    def walk(items, depth):
        for item in items:
            if isinstance(item, list):
                yield from walk(item, depth + 1)
            else:
                yield depth, item.title

    return list(walk(reader.outline, 0))


def test_rulebook_has_numbered_bookmarks_and_data_tables(make_game, tmp_path):
    folder = rules_game(make_game)
    build_game(load_game(folder), tmp_path, Options())
    pdf = tmp_path / "tiny" / "rules.pdf"
    assert outline(pdf) == [(0, "1  Playing"), (1, "1.1  Fighting"), (0, "2  Card reference")]
    text = "\n".join(page_text(pdf, i) for i in range(len(PdfReader(pdf).pages)))
    assert "Alpha 2" in text.replace("\r", "") or re.search(r"Alpha\s+2", text)
    assert "Contents" in text and "Red deck" in text


def test_changing_a_card_changes_the_rulebook(make_game, tmp_path):
    folder = rules_game(make_game)
    before = render_text(load_game(folder)).markdown
    (folder / "reds.yaml").write_text(patched((folder / "reds.yaml").read_text(), {"force: 2": "force: 7"}))
    after = render_text(load_game(folder)).markdown
    assert "| Alpha | 2 |" in before and "| Alpha | 7 |" in after
    build_game(load_game(folder), tmp_path, Options())
    pdf = tmp_path / "tiny" / "rules.pdf"
    text = " ".join(page_text(pdf, i) for i in range(len(PdfReader(pdf).pages)))
    assert re.search(r"Alpha\s+7", text)


def test_unknown_reference_is_a_finding_with_the_line(make_game):
    folder = rules_game(make_game, patched(RULES, {"{{ decks.reds.name }}": "{{ decks.blues.name }}"}))
    findings = check_game(load_game(folder))
    found = [str(f) for f in findings]
    assert found == [f"{folder / 'rules.md'}:3:1: error: rulebook: the game has no deck 'blues'; it has: reds"]
    assert [f.code for f in findings] == ["template-error"]


def test_every_deck_must_appear_in_the_card_reference(make_game):
    folder = rules_game(make_game, "# Playing\n\nAlpha is named in the prose, which is no reference.\n\n- **Bravo**: listed\n")
    findings = check_game(load_game(folder))
    assert findings == [Finding.of(catalogue.CARD_NOT_LISTED, load_game(folder).rulebook.where, "rulebook", count=1,
                                   deck="reds", titles="Alpha")]


@pytest.mark.parametrize("pages, expected", [
    (1, [(None, 1), (None, None)]),
    (4, [(4, 1), (2, 3)]),
    (5, [(None, 1), (2, None), (None, 3), (4, 5)]),
    (13, [(None, 1), (2, None), (None, 3), (4, 13), (12, 5), (6, 11), (10, 7), (8, 9)]),
])
def test_saddle_stitch_order(pages, expected):
    assert saddle_stitch_order(pages) == expected


def test_booklet_pages_are_two_up_landscape(make_game, tmp_path):
    folder = rules_game(make_game)
    build_game(load_game(folder), tmp_path, Options(booklet=True))
    rules = PdfReader(tmp_path / "tiny" / "rules.pdf")
    booklet = PdfReader(tmp_path / "tiny" / "rules-booklet.pdf")
    # typeset again on A5 for the booklet: at least as many pages as on A4
    assert len(booklet.pages) >= 2 * -(-len(rules.pages) // 4)
    box = booklet.pages[0].mediabox
    assert float(box.width) > float(box.height)
    # the first sheet's right half is page 1: the title page with the game's title
    assert "Tiny War" in booklet.pages[0].extract_text()


def printed_sizes(pdf: Path, page: int) -> list[tuple[str, float, float]]:
    """Each visible character of a page: itself, its size in points as printed (its font size scaled by its text
    matrix and every form's matrix around it) and the height of its box's foot above the page's foot, in mm."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    text = pdfium.PdfDocument(str(pdf))[page].get_textpage()
    found = []
    for index in range(text.count_chars()):
        char = chr(raw.FPDFText_GetUnicode(text, index))
        if char.isspace():
            continue
        matrix = raw.FS_MATRIX()
        raw.FPDFText_GetMatrix(text, index, matrix)
        scale = abs(matrix.a * matrix.d - matrix.b * matrix.c) ** 0.5
        found.append((char, raw.FPDFText_GetFontSize(text, index) * scale, text.get_charbox(index)[1] / 72 * 25.4))
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_booklet_running_heads_and_page_numbers_print_at_6_pt_or_more(tmp_path, paper, monkeypatch):
    """The booklet's own text: its cards (the cover's and the figures') are pictures at their figures' scale, left
    out here."""
    from generator.building import sequence
    from generator.layout.figures import figure_sources
    from generator.rendering.rulebook_pdf import Figures

    game = load_game("europe-1939")
    markdown = render_text(game).markdown
    for source, line in figure_sources(markdown):
        markdown = "\n".join(text for number, text in enumerate(markdown.split("\n"), 1) if number != line)
    monkeypatch.setattr(sequence, "rulebook_figures", lambda game, markdown, laid: Figures({}, ()))
    files = {typeset.built.file: typeset.data for typeset in sequence.rulebook_files(
        game, markdown, Options(paper=paper, booklet=True))}
    pdf = tmp_path / "rules-booklet.pdf"
    pdf.write_bytes(files["rules-booklet.pdf"])
    height = 210.0 if paper == "a4" else 215.9
    heads = numbers = 0
    for side in range(len(PdfReader(pdf).pages)):
        chars = printed_sizes(pdf, side)
        head = [size for _, size, foot in chars if foot > height - 14]  # above the frame: the running heads
        number = [size for char, size, foot in chars if foot < 8 and char.isdigit()]  # in the foot margin
        assert head and number or side == 0, side  # the first side holds the title page, without furniture
        assert min(head + number, default=6) >= 6.0, (side, min(head + number))
        assert min(size for _, size, _ in chars) >= 6.0
        heads, numbers = heads + len(head), numbers + len(number)
    assert heads > 100 and numbers > 10


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def test_no_sentence_of_eight_words_is_copied_from_the_sources():
    seeds = sorted(glob.glob(str(REPO.parent / "shared" / "seeds" / "*")))
    if not seeds:
        pytest.skip("the source documents are not beside this checkout")
    grams = set()
    for seed in seeds:
        words = _words(Path(seed).read_text(errors="ignore"))
        grams.update(tuple(words[i:i + 8]) for i in range(len(words) - 7))
    checked = 0
    for game in bundled_games():
        loaded = load_game(game)
        if loaded.rulebook is None:
            continue
        # prose only: table rows carry the source's numbers and titles, which are facts to carry over exactly
        prose = "\n".join(line for line in render_text(loaded).markdown.splitlines() if not line.lstrip().startswith("|"))
        words = _words(prose)
        copied = [" ".join(words[i:i + 8]) for i in range(len(words) - 7) if tuple(words[i:i + 8]) in grams]
        assert copied == [], f"{game.name}: {copied[:3]}"
        checked += 1
    assert checked >= 1


@pytest.mark.parametrize("paper, size", [("a5", (148.0, 210.0)), ("letter", (215.9, 279.4))])
def test_rulebook_page_sizes_and_an_a5_booklet_at_full_size(make_game, tmp_path, paper, size):
    folder = make_game({"rules.md": RULES})
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text() + f"rulebook: {{file: rules.md, paper: {paper}, booklet: true}}\n")
    build_game(load_game(folder), tmp_path, Options())
    box = PdfReader(tmp_path / "tiny" / "rules.pdf").pages[0].mediabox
    assert abs(float(box.width) / 72 * 25.4 - size[0]) < 0.1 and abs(float(box.height) / 72 * 25.4 - size[1]) < 0.1
    sheet = PdfReader(tmp_path / "tiny" / "rules-booklet.pdf").pages[0].mediabox
    expected = (279.4, 215.9) if paper == "letter" else (297.0, 210.0)  # landscape Letter, or A4 for A4 and A5
    assert abs(float(sheet.width) / 72 * 25.4 - expected[0]) < 0.1


def test_rulebook_and_booklet_are_byte_identical_across_builds(make_game, tmp_path):
    folder = rules_game(make_game)
    for out in ("one", "two"):
        build_game(load_game(folder), tmp_path / out, Options(booklet=True))
    for name in ("rules.pdf", "rules-booklet.pdf"):
        assert (tmp_path / "one" / "tiny" / name).read_bytes() == (tmp_path / "two" / "tiny" / name).read_bytes()


def test_contents_page_numbers_are_the_pages_headings_land_on(bundled_kit):
    pdf = bundled_kit("europe-1939") / "rules.pdf"
    reader = PdfReader(pdf)
    contents = page_text(pdf, 1)
    for item in reader.outline:
        if isinstance(item, list):
            continue
        landed = reader.get_destination_page_number(item) + 1
        line = next(l for l in contents.splitlines() if l.startswith(item.title.split("  ")[0] + " "))
        assert line.rstrip().endswith(str(landed)), (item.title, line)


def test_no_heading_is_stranded_at_the_foot_of_a_page(bundled_kit):
    """Every bundled rulebook: a heading always has room for text under it on its page, and text under it there."""
    from pdfcheck import char_boxes, lowest_text

    for game_folder in bundled_games():
        game = load_game(game_folder)
        pdf = bundled_kit(game.id) / "rules.pdf"
        reader = PdfReader(pdf)

        def walk(items):
            for item in items:
                yield from walk(item) if isinstance(item, list) else [item]

        for item in walk(reader.outline):
            page = reader.get_destination_page_number(item)
            number = item.title.split("  ")[0]
            heading = f"{number} {item.title.split('  ', 1)[1]}"[:30]  # its number too: a title's words recur
            boxes = [b for b in char_boxes(pdf, page, heading) if b[1] > 0]
            assert boxes, (game.id, item.title)
            bottom_mm = min(b[1] for b in boxes) / 72 * 25.4
            assert bottom_mm > 20 + 15, f"{game.id}: '{item.title}' ({number}) starts {bottom_mm:.0f} mm from the foot"
            # the page number sits in the bottom margin, below 20 mm: anything else under the heading is its text
            column = (min(b[0] for b in boxes) - 1, 10_000 if max(b[2] for b in boxes) > 300 else 300)
            lowest = lowest_text(pdf, page, above=15 / 25.4 * 72, between=column)  # under it, in its column
            assert lowest is not None and lowest < min(b[1] for b in boxes) - 2, \
                f"{game.id}: '{item.title}' ({number}) is the last thing on page {page + 1}"


def test_a_build_refuses_a_rulebook_that_leaves_out_a_card(make_game, tmp_path):
    folder = rules_game(make_game, "# Playing\n\nAlpha is named in the prose, which is no reference.\n\n- **Bravo**: listed\n")
    with pytest.raises(GameInvalid) as raised:
        build_game(load_game(folder), tmp_path, Options())
    assert [f.code for f in raised.value.findings] == ["card-not-listed"]
    assert not (tmp_path / folder.name / "rules.pdf").exists()


@pytest.mark.parametrize("paper", [(210, 297), (215.9, 279.4), (148.5, 210)])
def test_rulebook_lines_keep_a_measure_of_45_to_75_characters(paper, tmp_path):
    """The body text of every page sets at most 75 characters a line, in two columns on A4 and Letter (one on
    A5); a table too wide for a column spans the page."""
    import statistics

    from pdfcheck import text_lines
    from generator.rendering.rulebook_pdf import typeset_rulebook

    from generator.building.sequence import rulebook_figures

    game = load_game("eastern-front")
    markdown = render_text(game).markdown
    pdf, pages = typeset_rulebook(game, markdown, paper, None, rulebook_figures(game, markdown))
    path = tmp_path / "rules.pdf"
    path.write_bytes(pdf)
    lines = [line for page in range(2, pages) for line in text_lines(path, page)]
    full = [len(text) for _, _, text in lines if len(text) > 30]  # lines of running text, not cells and heads
    assert 45 <= statistics.median(full) <= 75 and max(full) <= 90, (statistics.median(full), max(full))
    if paper[0] > 180:
        lefts = {round(left) for left, _, text in lines if len(text) > 30}
        assert any(left > paper[0] / 2 / 25.4 * 72 for left in lefts), "no line starts in a second column"


FIGURE = "![An Alpha card](<card:reds/Alpha?width=50mm&callouts=title,force>)\n\n"


def test_a_figure_draws_the_cards_real_face_with_numbered_callouts(make_game, tmp_path):
    """The card's own face, at the width asked (its title and force where the face layout puts them, scaled),
    numbered callouts and their legend below, then the caption."""
    from pdfcheck import char_boxes

    folder = rules_game(make_game, patched(RULES, {"## Fighting": FIGURE + "## Fighting"}))
    build_game(load_game(folder), tmp_path, Options(calibration=False))
    pdf = tmp_path / "tiny" / "rules.pdf"
    page = next(i for i in range(len(PdfReader(pdf).pages)) if "An Alpha card" in page_text(pdf, i))
    text = page_text(pdf, page)
    assert "1 Title" in text and "2 Force" in text
    title = char_boxes(pdf, page, "Alpha")
    force = [b for b in char_boxes(pdf, page, "2") if b[3] - b[1] > 15]  # the 30 pt force, scaled to 50/63
    assert title and force
    # the face layout centres both on its 63 mm: at 50 mm wide, they share a centre line
    assert abs((title[0][0] + title[0][2]) / 2 - (force[0][0] + force[0][2]) / 2) < 2


@pytest.mark.parametrize("source, problem", [
    ("card:reds/Alpah", "no card 'Alpah' (did you mean 'Alpha'?)"),
    ("card:blues/Alpha", "no deck 'blues'"),
    ("card:reds/Alpha?width=2mm", "width: 2 mm is outside"),
    ("card:reds/Alpha?size=50mm", "unknown option 'size'"),
    ("card:reds/Alpha?callouts=forse", "no field 'forse' (did you mean 'force'?)"),
    ("card:reds/Alpha?callouts=fronts", "no element of the face layout prints card.fronts"),
    ("card:reds/Alpha?side=top", "side: expected face or back"),
])
def test_a_figure_that_names_no_card_is_an_error_at_its_line(make_game, source, problem):
    folder = rules_game(make_game, patched(RULES, {"## Fighting": f"![x](<{source}>)\n\n## Fighting"}))
    findings = [f for f in check_game(load_game(folder)) if f.code == "card-figure"]
    assert len(findings) == 1 and findings[0].where.line == 5, findings  # the line of the figure
    assert problem in findings[0].message


def test_the_cover_shows_the_games_own_cards(bundled_kit):
    """The title page draws the first card of each card deck: their titles print on it, above the components."""
    game = load_game("tank-duel")
    cover = page_text(bundled_kit("tank-duel") / "rules.pdf", 0)
    for deck in (d for d in game.decks.values() if d.format.component == "cards"):
        assert deck.cards[0].title in cover.split("Components")[0], deck.id


@pytest.mark.parametrize("paper, margin", [((210, 297), 20), ((215.9, 279.4), 20), ((148.5, 210), 14)])
def test_no_page_of_a_bundled_rulebook_is_less_than_a_third_full(tmp_path, paper, margin):
    """Past the cover and the contents, and before the last page, every page's text frame is a third full at least
    (a page in two columns counting both), on A4, on Letter and on a booklet's A5."""
    from pdfcheck import page_fill
    from generator.building.sequence import rulebook_figures
    from generator.rendering.rulebook_pdf import typeset_rulebook

    for folder in bundled_games():
        game = load_game(folder)
        markdown = render_text(game).markdown
        data, pages = typeset_rulebook(game, markdown, paper, None, rulebook_figures(game, markdown))
        pdf = tmp_path / f"{game.id}.pdf"
        pdf.write_bytes(data)
        fills = {page + 1: page_fill(pdf, page, margin) for page in range(2, pages - 1)}
        assert min(fills.values()) >= 1 / 3, (game.id, {p: f"{f:.0%}" for p, f in fills.items()})


def test_a_paragraph_is_measured_again_when_what_it_was_measured_by_changes():
    """A paragraph keeps its lines for the width it was last measured at; a new width, a new style, or a split
    that dropped its lines (a paragraph that cannot leave more than one line at a page's foot) measures it again,
    and it still draws."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfgen.canvas import Canvas

    from generator.rendering.flowables import Paragraph

    style = ParagraphStyle("body", fontName="Helvetica", fontSize=10, leading=12)
    paragraph = Paragraph("word " * 60, style)
    assert paragraph.wrap(200, 1000) == paragraph.wrap(200, 1000) == (200, 12 * len(paragraph.blPara.lines))
    narrow = paragraph.wrap(200, 1000)[1]
    wide = paragraph.wrap(400, 1000)[1]
    assert wide < narrow
    paragraph.style = ParagraphStyle("large", parent=style, fontSize=20, leading=24)
    assert paragraph.wrap(400, 1000)[1] == 24 * len(paragraph.blPara.lines) > wide
    paragraph.wrap(200, 1000)
    assert paragraph.split(200, 13) == [] and not hasattr(paragraph, "blPara")  # one line's room: an orphan
    assert paragraph.wrap(200, 1000)[1] == 24 * len(paragraph.blPara.lines)
    paragraph.drawOn(Canvas("/dev/null"), 0, 0)


@given(st.text())
def test_markup_is_escaped_as_xml_escapes_it(text):
    """markup.escape and attribute: the very text xml.sax.saxutils gives, without importing its module."""
    from xml.sax.saxutils import escape as xml_escape

    from generator.rendering.markup import attribute, escape

    assert escape(text) == xml_escape(text)
    assert attribute(text) == xml_escape(text, {'"': "&quot;"})
