"""Where Thai text may break between its words, which it writes without spaces: the fewest words of a word list
(words/th.txt.gz, PyThaiNLP's, CC0: words/README.md) that make up the text, by dynamic programming (maximal
matching), never inside a character cluster (a consonant and its vowel and tone marks). The list is read (some
40 ms) only when Thai text is first broken."""

from __future__ import annotations

import gzip
import re
from functools import lru_cache
from pathlib import Path

THAI = re.compile("[\u0e01-\u0e4e]+")  # a run of Thai letters, vowels and marks
_LONGEST = 30  # letters: the list's longest word
# a cluster goes on across a vowel sign or a mark that follows its consonant, and after a vowel written before it
_FOLLOWS = frozenset("\u0e30\u0e31\u0e32\u0e33\u0e34\u0e35\u0e36\u0e37\u0e38\u0e39\u0e3a\u0e45\u0e46"
                     "\u0e47\u0e48\u0e49\u0e4a\u0e4b\u0e4c\u0e4d\u0e4e")
_LEADS = frozenset("\u0e40\u0e41\u0e42\u0e43\u0e44")


@lru_cache(maxsize=1)
def _words() -> frozenset[str]:
    data = (Path(__file__).parent / "words" / "th.txt.gz").read_bytes()
    return frozenset(gzip.decompress(data).decode("utf-8").split())


def breaks(text: str) -> list[int]:
    """The offsets inside `text` between two of its Thai words, run by run of Thai."""
    return [run.start() + at for run in THAI.finditer(text) for at in _run_breaks(run.group())]


@lru_cache(maxsize=65536)
def _run_breaks(run: str) -> tuple[int, ...]:
    """Where a run of Thai breaks between words: of the ways to cut it at clusters' edges into words of the list
    and unknown clusters, the one with the fewest letters unknown, then the fewest words; unknown clusters side by
    side stay one word."""
    words = _words()
    edges = [0] + [at for at in range(1, len(run)) if run[at] not in _FOLLOWS and run[at - 1] not in _LEADS]
    edges.append(len(run))
    best: dict[int, tuple[int, int, int, bool]] = {0: (0, 0, 0, False)}  # edge: unknown, words, previous, known
    for number, end in enumerate(edges[1:], 1):
        choices = []
        for start in reversed(edges[:number]):
            if end - start > _LONGEST:
                break
            unknown, count, _, _ = best[start]
            if run[start:end] in words:
                choices.append((unknown, count + 1, start, True))
            elif start == edges[number - 1]:
                choices.append((unknown + end - start, count + 1, start, False))
        best[end] = min(choices, key=lambda choice: (choice[0], choice[1], -choice[2]))  # ties: longer words first
    cuts = []
    end = len(run)
    while end:
        _, _, start, known = best[end]
        if start and (known or best[start][3]):  # between two unknown clusters the word goes on
            cuts.append(start)
        end = start
    return tuple(reversed(cuts))
