"""Card text whose only markup is plain `**bold**` is read without markdown-it, exactly as markdown-it reads it:
compared over generated text, and on the cases where CommonMark's flanking rules decide."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core import inline
from generator.core.inline import Segment, Token, card_segments

# the characters that decide whether a `**` opens or closes, with icons, numbers and what leaves it to markdown-it
PIECES = ["**", "*", " ", "\n", "a", "Z", "7", ":", ".", "(", ")", "_", "×", "é", "\t", "\\", "[[star]]", "2 ",
          "\u00a0", "!", "-"]

# what is before, between and after pairs of `**`, mostly such that the pairs are bold
OUTSIDE = ["", " ", "a ", "Hit: ", "(", ")", "x\n", "a", ".", " ×", "2 ", "_", "a\\", "é-"]
INSIDE = ["a", "Attack:", "63 × 88 mm", "[[star]] 2", " a", "a ", "a*", "(a)", "é", "a\nb", ":"]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12).map("".join))
def test_plain_bold_reads_as_markdown_it_does(text):
    assert card_segments(text) == inline._parsed(text)


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(OUTSIDE), st.sampled_from(INSIDE)), min_size=1, max_size=3),
       st.sampled_from(OUTSIDE))
def test_bold_pairs_read_as_markdown_it_does(pairs, last):
    text = "".join(f"{before}**{inside}**" for before, inside in pairs) + last
    assert card_segments(text) == inline._parsed(text)


def test_the_calibration_label_and_a_keyword_are_read_without_markdown_it():
    assert inline._plain_bold("Card at true size: **63.0 × 88.0 mm**\nIts outline") == [
        ("Card at true size: ", False), ("63.0 × 88.0 mm", True), ("\nIts outline", False)]
    assert card_segments("**Duplex check:** printed [[star]]") == [
        Segment(Token("Duplex check:"), True), Segment(Token(" printed ")), Segment(Token("[[star]]", "star"))]


def test_what_the_fast_path_cannot_decide_is_left_to_markdown_it():
    for text in ("a**b**c", "**a** **", "***a***", "**a *b* c**", "**a\\*b**", "2**3**4", "** a**", "**a**×",
                 "**a**\r\nb", "**a**b", "****"):
        assert inline._plain_bold(text) is None, text
        assert card_segments(text) == inline._parsed(text)
