"""Deck files read again after a save, only as far as the save changed them: what the preview reads on every save.

A YAML deck file is a mapping whose `cards:` list holds one entry per card. When the list is in block style (each
entry starting `- ` on a line of its own, at one column) and the file holds no anchor or alias (a part that
refers to another), each entry spans the lines from its `- ` to the next entry's. A save whose changed lines lie
within the entries is read by parsing those entries' lines alone, placed at their lines, and putting them in the
place of the old ones; every other entry stays the same object, and so does the card read from it. Anything else
(a change to the lines around the list, lines added or taken away, a part that does not read alone as entries of
the list, an anchor) is read whole, as load_yaml reads it. Either way the cards and findings are those a whole
read gives (tests/reading/test_rereading.py compares the two over random edits).
"""

from __future__ import annotations

import bisect
import re
from pathlib import Path
from typing import Any, NamedTuple

from ..core.errors import MusterError
from .sourcemap import Map, Seq, parse_yaml, yaml_text

_ENTRY = re.compile(r" *- ")
_LIST_DEPTH = 1  # the list of cards lies in the file's mapping: an entry read alone is one level less deep


class _Read(NamedTuple):
    """A deck file as last read: its lines, its document, and for a list of cards that can be read entry by entry,
    the line (from 0) each entry starts at and the line the list ends before."""

    lines: list[str]
    data: Any
    starts: list[int]
    end: int


class DeckFiles:
    """The deck files of a game as last read, and the cards made of their entries, kept between reads.

    `parsed` counts the card entries the last `load` parsed (all of them, for a file read whole)."""

    def __init__(self):
        self.read: dict[Path, _Read] = {}
        self.made: dict[Path, tuple[object, list[tuple]]] = {}
        self.parsed = 0

    def load(self, path: Path):
        """The document in the deck file `path`, as load_yaml gives it; its unchanged card entries the same objects
        as the last time it was read."""
        text = yaml_text(path)
        lines = text.splitlines(keepends=True)
        old = self.read.get(path)
        data = self._changed(path, old, lines) if old is not None and old.starts else None
        if data is None:
            self.read.pop(path, None)
            parsed = parse_yaml(text, path)
            data = parsed.value
            cards = data.get("cards") if isinstance(data, Map) else None
            self.parsed = len(cards) if isinstance(cards, Seq) else 0
            self.read[path] = _Read(lines, data, [] if parsed.anchored else _starts(lines, cards), _end(cards))
        return data

    def _changed(self, path: Path, old: _Read, lines: list[str]):
        """The document of the file now made of `lines`, its changed card entries parsed alone; None when the change
        is not within the entries of the list, or its lines do not read alone as entries of it."""
        if len(lines) != len(old.lines):
            return None
        first = next((n for n, (a, b) in enumerate(zip(old.lines, lines)) if a != b), None)
        if first is None:
            self.parsed = 0
            return old.data
        last = next(n for n in range(len(lines) - 1, first - 1, -1) if old.lines[n] != lines[n])
        if first < old.starts[0] or last >= old.end:
            return None
        begin = bisect.bisect_right(old.starts, first) - 1
        stop = bisect.bisect_right(old.starts, last)  # the first entry after the change
        top = old.starts[begin]
        bottom = old.starts[stop] if stop < len(old.starts) else old.end
        try:
            part = parse_yaml("".join(lines[top:bottom]), path, top, _LIST_DEPTH)
        except MusterError:
            return None
        cards = old.data["cards"]
        if (part.anchored or not isinstance(part.value, Seq) or len(part.value) != stop - begin
                or part.value.where.column != cards.where.column or part.value.end != (path, bottom + 1, 1)
                or _starts(lines, part.value) != old.starts[begin:stop]):
            return None
        entries = Seq(cards[:begin] + part.value + cards[stop:])
        entries.where, entries.end = cards.where, cards.end
        entries.item_where = cards.item_where[:begin] + part.value.item_where + cards.item_where[stop:]
        data = Map(old.data)
        data.where, data.key_where = old.data.where, old.data.key_where
        data.value_where = old.data.value_where
        data["cards"] = entries
        self.read[path] = old._replace(lines=lines, data=data)
        self.parsed = stop - begin
        return data

    def keep(self, paths: set[Path]) -> None:
        """Forget the files but `paths` (the deck files the game now has)."""
        self.read = {path: read for path, read in self.read.items() if path in paths}
        self.made = {path: made for path, made in self.made.items() if path in paths}

    def cards(self, path: Path, source: object) -> tuple[list[tuple], list[tuple]]:
        """What was made of each card entry of `path` the last time its cards were read as `source` says (by the
        entry's place in the file: the entry, its card, the findings made; nothing when they were read otherwise),
        and the list to fill with what is made of them this time, which replaces it."""
        kept_source, made = self.made.get(path, (None, []))
        fresh: list[tuple] = []
        self.made[path] = (source, fresh)
        return (made if kept_source == source else []), fresh


def _starts(lines: list[str], cards) -> list[int] | None:
    """The line (from 0) each entry of the list `cards` starts on, when every one starts a line with `- ` at the
    list's column; otherwise None (a list in flow style, an entry whose `-` stands on a line of its own)."""
    if not isinstance(cards, Seq) or not cards or cards.end is None or cards.end.column != 1:
        return None
    column = cards.where.column - 1
    starts = []
    for where in cards.item_where:
        line = lines[where.line - 1] if where.line <= len(lines) else ""
        if _ENTRY.match(line) is None or line.index("-") != column or where.column != column + 3:
            return None
        starts.append(where.line - 1)
    return starts


def _end(cards) -> int:
    """The line (from 0) the list of cards ends before."""
    return cards.end.line - 1 if isinstance(cards, Seq) and cards.end is not None else 0
