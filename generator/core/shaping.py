"""Text in scripts that need shaping (Arabic, Hebrew, the Indic scripts): measured as HarfBuzz shapes it, and cut
into runs of one direction in the order they print, by the Unicode bidirectional algorithm (python-bidi)."""

from __future__ import annotations

import re

from bidi import algorithm

# Hebrew, Arabic, Syriac, Thaana, N'Ko, the Indic scripts, Sinhala, Tibetan, the Arabic and Hebrew presentation
# forms. Text without them is measured and drawn as it always was, character by character.
_COMPLEX = re.compile("[\u0590-\u08ff\u0900-\u0dff\u0e00-\u0eff\u0f00-\u0fff\ufb1d-\ufdff\ufe70-\ufeff]")
_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")  # of those, the scripts written right to left


def shaped(text: str) -> bool:
    """Whether `text` has characters of a script that HarfBuzz must shape (or that runs right to left)."""
    return not text.isascii() and _COMPLEX.search(text) is not None


def right_to_left(text: str) -> bool:
    """Whether `text` has characters of a script written right to left (Hebrew, Arabic and their neighbours)."""
    return not text.isascii() and _RTL.search(text) is not None


def base_level(text: str) -> int:
    """The direction of a paragraph of `text` by its first strong character (UAX #9 P2, P3): 1, right to left, for
    a Hebrew or Arabic letter; 0 for a Latin one, or none."""
    return algorithm.get_base_level(text)


def unit_width(text: str, font_name: str) -> float:
    """The width of `text` at 1 pt, in points, as HarfBuzz shapes it in the registered font `font_name`."""
    from reportlab.lib.abag import ABag
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.pdfbase.ttfonts import shapeFragWord

    return shapeFragWord([stringWidth(text, font_name, 1.0), (ABag(fontName=font_name, fontSize=1.0), text)])[0]


def visual_runs(text: str) -> list[tuple[str, bool]]:
    """`text` (a line, in logical order) as runs of one embedding level, each in logical order (HarfBuzz shapes a
    right-to-left run into glyphs from left to right) and whether it runs right to left, the runs in the order
    they print from left to right."""
    runs: list[list] = []  # [level, text]
    for char, level in zip(text, levels(text, base_level(text))):
        if runs and runs[-1][0] == level:
            runs[-1][1] += char
        else:
            runs.append([level, char])
    return [(runs[index][1], runs[index][0] % 2 == 1) for index in visual_order([level for level, _ in runs])]


def levels(text: str, base_level: int) -> list[int]:
    """The embedding level of each character of `text` by the Unicode bidirectional algorithm, in a paragraph of
    `base_level` (0 left to right, 1 right to left): odd levels run right to left."""
    storage = algorithm.get_empty_storage()
    storage["base_level"] = base_level
    storage["base_dir"] = ("L", "R")[base_level]
    algorithm.get_embedding_levels(text, storage, False, False)
    for step in (algorithm.explicit_embed_and_overrides, algorithm.resolve_weak_types,
                 algorithm.resolve_neutral_types, algorithm.resolve_implicit_levels):
        step(storage, False)
    return [char["level"] for char in storage["chars"]]


def visual_order(runs: list[int]) -> list[int]:
    """The indices of runs (or words) of the embedding levels `runs`, in logical order, in the order they print
    from left to right (UAX #9 L2: from the highest level down, every sequence at or above it reversed)."""
    order = list(range(len(runs)))
    odd = [level for level in runs if level % 2]
    for level in range(max(runs, default=0), min(odd, default=max(runs, default=0) + 1) - 1, -1):
        start = None
        for index in range(len(order) + 1):
            if index < len(order) and runs[order[index]] >= level:
                start = index if start is None else start
            elif start is not None:
                order[start:index] = order[start:index][::-1]
                start = None
    return order


def shaped_runs(text: str, font_name: str, size: float) -> list[tuple[str, str, bool]]:
    """`text` (a line) as its runs in the order they print (visual_runs), each shaped by HarfBuzz in the registered
    font `font_name` (reportlab's ShapedStr: glyphs with their advances and offsets), with its text and whether
    it runs right to left."""
    from reportlab.pdfbase.ttfonts import shapeStr

    return [(shapeStr(part, font_name, size), part, rtl) for part, rtl in visual_runs(text)]


def shaped_line(text: str, font_name: str, size: float) -> str:
    """`text` shaped and in the order it prints, as one string reportlab's canvas draws (drawString and the
    like); other text as it is."""
    if not shaped(text):
        return text
    runs = [glyphs for glyphs, _, _ in shaped_runs(text, font_name, size)]
    line = runs[0]
    for glyphs in runs[1:]:
        line += glyphs
    return line
