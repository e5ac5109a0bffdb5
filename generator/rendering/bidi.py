"""The words of a line of a rulebook paragraph that holds right-to-left text (Hebrew, Arabic), put in the order
they print by the Unicode bidirectional algorithm (core/shaping.py), word by word: platypus breaks the paragraph into
lines in logical order and HarfBuzz has shaped each word in its own direction, glyphs from left to right."""

from __future__ import annotations

import re
import unicodedata

from reportlab.platypus.paragraph import _FK_BREAK

from ..core import shaping

# in a word HarfBuzz shaped right to left (a heading's "1.2  القواعد", joined by no-break spaces), a number or a
# Latin word it turned round with the rest: put back left to right
_LEFT_TO_RIGHT = re.compile(r"[0-9A-Za-z]+(?:[.,:/][0-9A-Za-z]+)*")
# what stands for a word in the text given to the algorithm: a right-to-left, a left-to-right letter, a number,
# a neutral mark, an icon
_STANDS_FOR = {"R": "\u05d0", "L": "a", "EN": "1", "ON": "!", "icon": "\ufffc"}


def visual_line(frags: list, level: int) -> list:
    """The fragments of a line (platypus's FragLine.words: text with its font, or an icon), in logical order,
    remade as fragments in the order they print, in a paragraph of base `level` (1, right to left): words apart
    (at spaces) by their level; in a word, its fragments as HarfBuzz left them (it shapes a word as a whole)."""
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
    kinds = [_kind(word) for word in words]
    levels = shaping.levels(" ".join(_STANDS_FOR[kind] for kind in kinds), level)[::2]
    line: list = []
    spacer = None  # the last text fragment: a space before an icon is in its font
    for index in shaping.visual_order(levels):
        turned = _shaped_right_to_left("".join(text for _, text in words[index] if text))
        for number, (frag, text) in enumerate(words[index]):
            space = " " if line and number == 0 else ""
            if text is not None:
                spacer = frag.clone(text=space + (_turned(text) if turned else text))
                line.append(spacer)
                continue
            if space and spacer is not None:
                line.append(spacer.clone(text=space))
            line.append(frag)
    return line + tail


def _kind(word: list[tuple]) -> str:
    """What a word is to the algorithm: right to left if it has a Hebrew or Arabic letter, left to right if a Latin
    (or other) letter, else a number, a neutral mark, or an icon."""
    text = "".join(text for _, text in word if text)
    if not text:
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
