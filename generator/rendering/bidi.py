"""The words of a line of a rulebook paragraph that holds right-to-left text (Hebrew, Arabic), put in the order
they print by the Unicode bidirectional algorithm (core/shaping.py): platypus breaks the paragraph into lines in
logical order and HarfBuzz has shaped each word in its own direction, glyphs from left to right, so the algorithm
is given a character for each word (or each piece of a word in several fonts, or icon) and each space."""

from __future__ import annotations

import re
import unicodedata

from reportlab.platypus.paragraph import _FK_BREAK

from ..core import shaping

# in a word HarfBuzz shaped right to left (a heading's "1.2  القواعد", joined by no-break spaces), a number or a
# Latin word it turned round with the rest: put back left to right
_LEFT_TO_RIGHT = re.compile(r"[0-9A-Za-z]+(?:[.,:/][0-9A-Za-z]+)*")
# what stands for a word in the text given to the algorithm: one with a right-to-left letter, one with a
# left-to-right letter, a number, a neutral mark, an icon; and a space
_STANDS_FOR = {"R": "\u05d0", "L": "a", "EN": "1", "ON": "!", "icon": "\ufffc", "space": " "}


def visual_line(frags: list, level: int) -> list:
    """The fragments of a line (platypus's FragLine.words: text with its font, or an icon), in logical order,
    remade as fragments in the order they print, in a paragraph of base `level` (1, right to left). A word that
    HarfBuzz shaped right to left as a whole, in several fonts, keeps the order it gave its fragments; one with
    an icon inside is in logical order, each fragment and icon ordered by the algorithm."""
    words: list[list[tuple]] = [[]]  # each a list of (fragment, its text or None for an icon)
    tail = []  # a line break ends the line wherever it prints
    for frag in frags:
        if getattr(frag, "_fkind", None) == _FK_BREAK:
            tail.append(frag)
        elif hasattr(frag, "cbDefn"):
            words[-1].append((frag, None))
        else:
            text, start = frag.text, 0
            for at, char in enumerate(text + " "):
                if char != " ":
                    continue
                if at > start:
                    words[-1].append((frag, text[start:at]))
                if at < len(text) and words[-1]:
                    words.append([])
                start = at + 1
    words = [word for word in words if word]
    if not words:
        return frags
    units: list[tuple[str, list[tuple]]] = []  # (what it is, its pieces) in logical order, spaces between words
    spacer = next((frag for word in words for frag, text in word if text is not None), None)  # a space's font
    for word in words:
        if units and spacer is not None:
            units.append(("space", [(spacer, " ")]))
        spacer = next((frag for frag, text in reversed(word) if text is not None), spacer)
        if _shaped_right_to_left("".join(text for _, text in word if text)):
            word = [(frag, text if text is None else _turned(text)) for frag, text in word]
            if all(text is not None for _, text in word):  # fragments in the order HarfBuzz gave them
                units.append(("R", word))
                continue
        # each fragment of the word in logical order (reportlab puts an icon's word back so)
        units += [(_kind(text), [(frag, text)]) for frag, text in word]
    levels = shaping.levels("".join(_STANDS_FOR[kind] for kind, _ in units), level)
    line = []
    for index in shaping.visual_order(levels):
        for frag, text in units[index][1]:
            line.append(frag if text is None else frag.clone(text=text))
    return line + tail


def _kind(text: str | None) -> str:
    """What a piece of a word is to the algorithm: right to left if it has a Hebrew or Arabic letter, left to
    right if a Latin (or other) letter, else a number, a neutral mark, or an icon (None)."""
    if text is None:
        return "icon"
    classes = {unicodedata.bidirectional(char) for char in text}
    return ("R" if classes & {"R", "AL"} else "L" if "L" in classes else "EN" if classes & {"EN", "AN"} else "ON")


def _shaped_right_to_left(text: str) -> bool:
    """Whether HarfBuzz shaped a word (`text`, its glyphs as they print) right to left: its first letter, printed
    last, is Hebrew or Arabic."""
    letters = [char for char in text if unicodedata.bidirectional(char) in ("L", "R", "AL")]
    return bool(letters) and unicodedata.bidirectional(letters[-1]) != "L"


def _turned(text):
    """A piece of a word HarfBuzz shaped right to left, its numbers and Latin words put back left to right."""
    out, start = text[:0], 0
    for match in _LEFT_TO_RIGHT.finditer(text):
        out += text[start:match.start()] + _reversed(text[match.start():match.end()])
        start = match.end()
    return out + text[start:]


def _reversed(text):
    """`text` (a reportlab ShapedStr: glyphs with their advances) in the opposite order."""
    out = text[:0]
    for index in range(len(text) - 1, -1, -1):
        out += text[index]
    return out
