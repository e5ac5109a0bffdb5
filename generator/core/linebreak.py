"""Where a line may break inside text written without spaces (Chinese, Japanese; Thai as far as UAX #14 goes
without a dictionary), by the Unicode line-breaking algorithm: what card text and rulebooks wrap at."""

from __future__ import annotations

import re

from uniseg.linebreak import line_break_boundaries

# Scripts written without spaces between words: CJK punctuation, kana, ideographs, compatibility and fullwidth
# forms, the supplementary ideographs; Thai, Lao, Myanmar and Khmer. Text without them breaks at spaces only and
# never reaches the algorithm (pure Python, so the common path stays as fast as it was).
_SPACELESS = re.compile("[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f"
                        "\uff00-\uffef\U00020000-\U0003ffff]")
OBJECT = "\ufffc"  # an inline icon in the text given to the algorithm: a line may break on either side of it


def spaceless(text: str) -> bool:
    """Whether `text` has characters of a script written without spaces, where lines break between words."""
    return not text.isascii() and _SPACELESS.search(text) is not None


def breaks(text: str) -> frozenset[int]:
    """The offsets into `text` where UAX #14 lets a line break that are not after a space or a newline (those
    are where words end anyway): between two ideographs, but never before `。`, `、`, `」` or `）` nor after `「`."""
    if not spaceless(text):
        return frozenset()
    return frozenset(at for at in line_break_boundaries(text) if 0 < at < len(text) and text[at - 1] not in " \n")
