"""Where a line may break inside text written without spaces, by the Unicode line-breaking algorithm (Chinese,
Japanese) and, in Thai, between its words by a word list (thai.py): what card text and rulebooks wrap at."""

from __future__ import annotations

import re
from functools import lru_cache

OBJECT = "\ufffc"  # an inline icon in the text given to the algorithm: a line may break on either side of it
SCRIPTS = {
    # Scripts written without spaces between words: CJK punctuation, kana, ideographs, compatibility and fullwidth
    # forms, the supplementary ideographs; Thai, Lao, Myanmar and Khmer (only Thai has a word list here: the others
    # break at spaces). Text without them breaks at spaces only and never reaches the algorithm (pure Python, so
    # the common path stays as fast as it was).
    "spaceless": "[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"
                 "\U00020000-\U0003ffff]",
    "thai": "[\u0e01-\u0e4e]",
}


@lru_cache(maxsize=None)
def _script(name: str) -> re.Pattern:
    """The pattern of SCRIPTS[name], compiled when the first text that is not ASCII asks for it: a class that
    reaches the astral planes takes 1.5 ms to compile, which a game in English never needs."""
    return re.compile(SCRIPTS[name])


def spaceless(text: str) -> bool:
    """Whether `text` has characters of a script written without spaces, where lines break between words."""
    return not text.isascii() and _script("spaceless").search(text) is not None


def breaks(text: str) -> frozenset[int]:
    """The offsets into `text` where UAX #14 lets a line break that are not after a space or a newline (those
    are where words end anyway): between two ideographs, but never before `。`, `、`, `」` or `）` nor after `「`;
    between two Thai words."""
    if not spaceless(text):
        return frozenset()
    found = []
    start = 0
    for at in range(1, len(text) + 1):
        # between two ideographs a line may always break and no rule looks across them: the algorithm (pure
        # Python, about 0.2 ms a character) is asked only about the pieces between, each once (they repeat)
        if at == len(text) or _ideograph(text[at - 1]) and _ideograph(text[at]):
            found += [start + offset for offset in _boundaries(text[start:at])]
            start = at
    if _script("thai").search(text):  # UAX #14 leaves the words of Thai to a dictionary
        from . import thai

        found += thai.breaks(text)
    return frozenset(at for at in found if 0 < at < len(text) and text[at - 1] not in " \n")


@lru_cache(maxsize=65536)
def _ideograph(char: str) -> bool:
    from uniseg.linebreak import LineBreak, line_break  # 20 ms to import: only for text that needs it

    return line_break(char) is LineBreak.ID


@lru_cache(maxsize=65536)
def _boundaries(piece: str) -> tuple[int, ...]:
    """Where UAX #14 lets a line break in `piece`, its end included."""
    from uniseg.linebreak import line_break_boundaries

    return tuple(line_break_boundaries(piece))
