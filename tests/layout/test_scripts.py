"""Text in every script: CJK card text wraps between characters by UAX #14, never with a closing mark (。、」）) at
a line's start nor an opening one (「) at its end; Latin text never reaches the algorithm; Arabic and Hebrew are
shaped by HarfBuzz, measured as shaped and printed right to left."""

from __future__ import annotations

import unicodedata
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from generator.building.kit import build_game
from generator.core import linebreak
from generator.core.options import Options
from generator.layout import typeset
from generator.reading.loading import load_game
from pdfcheck import page_text, text_lines
from conftest import TESTS

CJK = TESTS / "fixtures" / "cjk"
ARABIC = TESTS / "fixtures" / "arabic"
DEVANAGARI = TESTS / "fixtures" / "devanagari"
THAI = TESTS / "fixtures" / "thai"
CARD_PT = 63 / 25.4 * 72  # a poker card's width, in points
CLOSING, OPENING = "。、，」）；", "「（"
TEXT = "「装甲部队」前进两格，然后攻击相邻的敌方单位。若敌方单位被消灭，你可以再抽一张牌（不需要视线）。Tank单位不能进入森林。"


def card_lines(pdf: Path, count: int) -> list[list[str]]:
    """The lines of text of the first `count` cards of a sheet's first row, as pdfium reads them card by card; each
    card found by its force, printed 4 mm from its left edge on the second line."""
    import pypdfium2 as pdfium

    forces = sorted(left for left, _, text in text_lines(pdf, 0) if text.isdigit())[:count]
    document = pdfium.PdfDocument(str(pdf))
    try:
        page = document[0]
        text, top = page.get_textpage(), page.get_size()[1]
        edges = [left - 4 / 25.4 * 72 - 2 for left in forces]
        return [text.get_text_bounded(left=edge, bottom=0, right=edge + CARD_PT + 4, top=top).split("\r\n")
                for edge in edges]
    finally:
        document.close()


def _lines(text: str, width_pt: float) -> list[str]:
    lines = typeset.break_lines(typeset.words([typeset.Span(text, "text", "black")]), width_pt, 10)
    assert lines is not None
    return ["".join(p.text for w in line for p in w.pieces) for line in lines]


def test_a_chinese_paragraph_wraps_between_characters(font_book):
    lines = _lines(TEXT, 60)
    assert len(lines) > 5 and "".join(lines) == TEXT  # no characters lost, none added (no spaces)


@given(st.floats(min_value=25, max_value=300))
@settings(max_examples=60, deadline=None)
def test_no_line_starts_with_a_closing_mark_nor_ends_with_an_opening_one(width_pt):
    from generator.reading.fonts import read_font_book

    read_font_book()
    lines = _lines(TEXT, width_pt)
    assert not [line for line in lines[1:] if line[0] in CLOSING]
    assert not [line for line in lines[:-1] if line[-1] in OPENING]


def test_mixed_latin_and_chinese_keep_their_spaces(font_book):
    words = typeset.words([typeset.Span("前进 two hexes 然后攻击", "text", "black")])
    line = typeset.place_line(words, 10, 0, 200, 0, "left")
    assert [run.text for run in line] == ["前进 two hexes 然后攻击"]


def test_latin_text_never_reaches_the_algorithm(font_book, monkeypatch):
    def refuse(text):
        raise AssertionError(f"UAX #14 asked about {text!r}")

    monkeypatch.setattr(linebreak, "_boundaries", refuse)  # the only ways to uniseg
    monkeypatch.setattr(linebreak, "_ideograph", refuse)
    for text in ("Advance two hexes, then attack.", "Déjà vu: ÆØÅ über straße", "Line one\nline two"):
        assert typeset.words([typeset.Span(text, "text", "black")])
    assert linebreak.breaks("Move 3 hexes") == frozenset()


def test_the_chinese_test_game_builds_its_text_read_back_and_wrapped(tmp_path):
    game = load_game(CJK)
    build_game(game, tmp_path, Options())
    printed = card_lines(tmp_path / "cjk" / "cards-units.pdf", 3)
    for card, lines in zip(game.decks["units"].cards, printed):
        assert lines[0] == card.title and "".join(lines[2:]) == card.value("text") and len(lines) > 5
        assert not [line for line in lines[3:] if line[0] in CLOSING]


def test_arabic_and_hebrew_are_shaped_right_to_left_and_read_back_as_written(tmp_path):
    """Read back from the PDF (left to right, as printed), each line put back in logical order by the bidi
    algorithm and its presentation forms (the shaped, joined letters) by NFKC, the cards' text is the source's."""
    game = load_game(ARABIC)
    build_game(game, tmp_path, Options())
    printed = [[unicodedata.normalize("NFKC", text) for text in lines]
               for lines in card_lines(tmp_path / "arabic" / "cards-units.pdf", 3)]
    for card, lines in zip(game.decks["units"].cards, printed):
        assert lines[0] == card.title and lines[1] == str(card.value("force"))
        assert " ".join(lines[2:]) == card.value("text") and len(lines) > 3
    assert "\ufefb" not in "".join(sum(printed, []))  # NFKC undid every presentation form


def test_shaped_text_is_measured_as_shaped(font_book):
    from generator.core import fonts

    joined = "مرحبا"  # five letters joined into one word: narrower than the five letters alone
    assert fonts.unit_width(joined, "text") < sum(fonts.unit_width(letter, "text") for letter in joined) - 0.3


def test_devanagari_is_shaped_and_reads_back_as_written(tmp_path):
    """Conjuncts and vowel signs printed before their consonant are glyphs without characters: the PDF gives each
    shaped run its text (ActualText), so the cards read back as the source, line by line."""
    game = load_game(DEVANAGARI)
    build_game(game, tmp_path, Options())
    pdf = tmp_path / "devanagari" / "cards-units.pdf"
    printed = card_lines(pdf, 3)
    for card, lines in zip(game.decks["units"].cards, printed):
        assert lines[0] == card.title and " ".join(lines[2:]) == card.value("text") and len(lines) > 3
    glyphs = PdfReader(pdf).pages[0].extract_text()  # pypdf reads the glyphs alone, without their ActualText
    assert [c for c in glyphs if 0xE000 <= ord(c) <= 0xF8FF]  # glyphs HarfBuzz made that no character maps to


def test_a_chinese_rulebook_wraps_between_characters_by_the_kinsoku_rules(tmp_path):
    build_game(load_game(CJK), tmp_path, Options())
    source = (CJK / "rules.md").read_text(encoding="utf-8").split("\n\n")[1]
    lines = page_text(tmp_path / "cjk" / "rules.pdf", 2).split("\r\n")
    start = next(index for index, line in enumerate(lines) if line.startswith("消灭"))
    paragraph = lines[start:start + 6]
    assert "".join(paragraph) == source  # six lines, no character lost nor space added
    assert not [line for line in paragraph[1:] if line[0] in CLOSING]
    assert not [line for line in paragraph[:-1] if line[-1] in OPENING]


@given(st.text(alphabet="装甲部队前进两格攻击。、，「」（）；！？ー々ぁァTank12 .", max_size=60))
@settings(max_examples=200, deadline=None)
def test_breaks_asked_piece_by_piece_are_those_of_the_whole_text(text):
    from uniseg.linebreak import line_break_boundaries

    whole = {at for at in line_break_boundaries(text) if 0 < at < len(text) and text[at - 1] not in " \n"}
    assert linebreak.breaks(text) == (whole if linebreak.spaceless(text) else set())


def test_a_running_head_in_arabic_is_shaped_in_the_order_it_prints(font_book):
    from generator.core import fonts, shaping

    fonts.face("text")
    line = shaping.shaped_line("دبابة Tank", "text", 7.5)
    assert line.startswith("Tank")  # the Latin word left of the Arabic one
    arabic = line[4:].strip()
    assert arabic != "دبابة"[::-1] and unicodedata.normalize("NFKC", arabic) == "دبابة"[::-1]  # joined, right to left
    assert shaping.shaped_line("Europe 1939", "text", 7.5) == "Europe 1939"


def test_the_scripts_games_build_from_the_command_line_in_a_process_of_their_own(tmp_path):
    """A game whose rulebook is set in a family of its own, built without the calibration page: the bundled faces
    the rulebook still names (list bullets, contents leaders, callouts) are registered by the rulebook itself, not
    by whatever drew before it (the calibration page did, by chance)."""
    import subprocess
    import sys

    from conftest import REPO

    for game in (CJK, ARABIC, DEVANAGARI, THAI):
        done = subprocess.run([sys.executable, "-m", "generator", "build", str(game), "--out", str(tmp_path),
                               "--jobs", "1", "--quiet", "--no-calibration"], cwd=REPO, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0 and "internal error" not in done.stderr, (game.name, done.stderr)


def _rulebook_lines(pdf: Path, page: int) -> list[tuple[float, float, str]]:
    """The rulebook page's lines of text as (left, right, text as printed, left to right, NFKC)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        text = document[page].get_textpage()
        chars = [(text.get_charbox(i, loose=True), text.get_text_range(i, 1)) for i in range(text.count_chars())]
    finally:
        document.close()
    lines: dict[float, list] = {}
    for box, char in chars:
        if char.strip():
            lines.setdefault(round(box[1]), []).append((box, char))
    return [(min(b[0] for b, _ in line), max(b[2] for b, _ in line),
             unicodedata.normalize("NFKC", "".join(c for _, c in sorted(line, key=lambda m: m[0][0]))))
            for _, line in sorted(lines.items(), reverse=True)]


def test_an_arabic_rulebook_is_set_right_to_left_and_reads_back_as_written(tmp_path):
    """Paragraphs, headings, list items and table cells in Arabic or Hebrew: each line in the order it prints
    (the first word at the right, a number or a Latin word inside left to right), set right; read back by pdfium,
    which puts each line back in logical order, the text is the source's."""
    import pypdfium2 as pdfium

    build_game(load_game(ARABIC), tmp_path, Options())
    pdf = tmp_path / "arabic" / "rules.pdf"
    source = (ARABIC / "rules.md").read_text(encoding="utf-8").split("\n\n")
    document = pdfium.PdfDocument(str(pdf))
    try:
        read = [unicodedata.normalize("NFKC", line) for line in document[2].get_textpage().get_text_bounded().split("\r\n")]
    finally:
        document.close()
    assert read[0] == "1 القواعد" and read[4] == "1.1 الدور" and read[12] == "1.2 עברית"
    assert " ".join(read[1:4]) == source[1] and " ".join(read[13:15]) == source[6].strip()
    assert read[5:8] == ["• " + item[2:] for item in source[3].split("\n")]
    assert read[8:12] == ["الوحدة القوة", "دبابة 3", "مشاة 2", "מפקד 4"]

    printed = _rulebook_lines(pdf, 2)
    heading, arabic, hebrew = printed[1], printed[2:5], printed[-3:-1]
    assert heading[2].endswith("القواعد"[::-1] + "1")  # the number right of its heading
    assert arabic[0][2].endswith("يلعب"[::-1]) and "Tank" in arabic[1][2] and "3" in arabic[1][2]
    rights = [right for _, right, _ in arabic + hebrew]
    assert max(rights) - min(rights) < 0.5  # every line set right, to the column's edge
    assert len({round(left) for left, _, _ in arabic}) == 3
    assert hebrew[0][2].endswith("המפקד"[::-1]) and "Tank" in hebrew[1][2]
    bullets = [line for _, _, line in printed if line.endswith("•")]
    assert len(bullets) == 3  # each item's bullet right of its text
    header = next(line for _, _, line in printed if "القوة"[::-1] in line)
    assert header.index("القوة"[::-1]) < header.index("الوحدة"[::-1])  # the first column at the right
    contents = [line for _, _, line in _rulebook_lines(pdf, 1) if "...." in line]
    assert contents[0].startswith("3.") and contents[0].endswith("القواعد"[::-1] + "1")  # its page number left
    assert contents[2].startswith("3.") and contents[2].endswith("עברית"[::-1] + "1.2")


def test_thai_breaks_between_its_words_never_inside_a_cluster():
    from generator.core import thai

    text = "ทหารราบเข้าเมืองได้แต่รถถังเข้าป่าไม่ได้"
    cuts = [0, *thai.breaks(text), len(text)]
    assert [text[a:b] for a, b in zip(cuts, cuts[1:])] == ["ทหารราบ", "เข้า", "เมือง", "ได้", "แต่", "รถถัง", "เข้า",
                                                            "ป่า", "ไม่", "ได้"]
    assert linebreak.breaks("Tank ทหารราบเข้า 3") == {12}  # the run of Thai alone, at its place in the text
    unknown = "ฃฅฃฅฃฅ"  # obsolete letters, no word of the list: left whole, not cut letter by letter
    assert thai.breaks(unknown) == [] and thai.breaks("เข้า" + "ไม่") == [4]


def test_the_thai_test_game_wraps_its_card_text_between_words(tmp_path):
    """Thai is written without spaces between words: a card's paragraph breaks its lines between two words of the
    word list (before, only at spaces: a whole sentence was one word), and reads back as the source."""
    game = load_game(THAI)
    build_game(game, tmp_path, Options())
    printed = card_lines(tmp_path / "thai" / "cards-units.pdf", 3)
    for card, lines in zip(game.decks["units"].cards, printed):
        text = card.value("text")
        assert lines[0] == card.title and "".join(lines[2:]) == text and len(lines) > 3
        from generator.core import thai

        ends = [sum(len(line) for line in lines[2:index]) for index in range(3, len(lines))]
        assert set(ends) <= set(thai.breaks(text))


def test_icons_and_numbers_in_a_right_to_left_line_print_in_the_order_of_the_bidi_algorithm(tmp_path, font_book):
    """Word by word, and piece by piece inside a word: a number and the icon after it (read right to left: the
    number, then the icon), an icon and the full stop written against an Arabic word, left of it."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import SimpleDocTemplate

    from generator.core import fonts
    from generator.rendering.flowables import Paragraph
    from pdfcheck import ICON_AT, read_back

    fonts.face("text")
    icon = f'<img src="{TESTS / "fixtures" / "gallery" / "art" / "badge.png"}" width="10" height="10"/>'
    pdf = tmp_path / "line.pdf"
    SimpleDocTemplate(str(pdf), pagesize=(400, 100), topMargin=10, bottomMargin=10).build(
        [Paragraph(f"ادفع 2{icon} ثم بطاقة{icon}.", ParagraphStyle("body", fontName="text", fontSize=12))])
    printed = unicodedata.normalize("NFKC", read_back(pdf, 0))
    assert printed == "." + ICON_AT + "بطاقة"[::-1] + "ثم"[::-1] + ICON_AT + "2" + "ادفع"[::-1]
