"""Deck files read again after a save, only as far as the save changed them: what the preview reads on every save.

A YAML deck file is a mapping whose `cards:` list holds one entry per card. When the list is in block style (each
entry starting `- ` on a line of its own, at one column) and the file holds no anchor or alias (a part that
refers to another), each entry spans the lines from its `- ` to the next entry's. A save whose changed lines lie
within the entries (lines changed, added or taken away: a value, a card added or deleted, a line added to a card)
is read by parsing the entries those lines touch alone, placed at their lines, and putting them in the place of
the old ones; the entries before stay the same objects, and so do the cards read from them; the entries after stay
the same objects too, noted as lying some lines below the places they hold (a card read from one is the card made
before, moved: decks.py), and are copied to their lines only when a card is made of one again (`placed`): a card
added near the top of thousands costs what that card does, not a copy of every entry below it.
Anything else (a change to the lines around the list, a part that does not read alone as entries of the list, an
anchor) is read whole, as load_yaml reads it. Either way the cards and findings are those a whole read gives
(tests/reading/test_rereading.py compares the two over random edits).
"""

from __future__ import annotations

import bisect
import re
import sys
from pathlib import Path
from typing import Any, NamedTuple

from ..core.errors import Location, MusterError
from .sourcemap import Map, Parsed, Seq, parse_yaml, yaml_text

_ENTRY = re.compile(r" *- ")
_LIST_DEPTH = 1  # the list of cards lies in the file's mapping: an entry read alone is one level less deep


class _Read(NamedTuple):
    """A deck file as last read: its lines, its document, and for a list of cards that can be read entry by entry,
    the line (from 0) each entry starts at, the line the list ends before, and how many lines each entry lies below
    the places it holds (0 once it is `placed`)."""

    lines: list[str]
    data: Any
    starts: list[int]
    end: int
    shifts: list[int]


class _Move(NamedTuple):
    """What the last read of a deck file did to its list of cards: the entries [begin, stop) became `count` entries
    parsed anew, and those after them moved `lines` lines."""

    begin: int
    stop: int
    count: int
    lines: int


class DeckFiles:
    """The deck files of a game as last read, and the cards made of their entries, kept between reads.

    `parsed` counts the card entries the last `load` parsed (all of them, for a file read whole)."""

    def __init__(self):
        self.read: dict[Path, _Read] = {}
        # per file, what its cards were last made of and its first card's place in the deck (see `cards`), and the
        # place in it from which they moved
        self.made: dict[Path, tuple[object, int, list[tuple | None], int]] = {}
        self.patched: dict[str, dict] = {}  # per deck, its cards as the variants last patched them (rules.patched)
        self.sheets: dict[Path, tuple[object, dict]] = {}  # per sheet file, what its rows were made into (`rows`)
        self.parsed = 0

    def load(self, path: Path):
        """The document in the deck file `path`, as load_yaml gives it but for the places inside the card entries that
        moved: its unchanged card entries are the same objects as the last time it was read, those moved too, their
        places given by `placed`."""
        text = yaml_text(path)
        lines = text.splitlines(keepends=True)
        old = self.read.get(path)
        data = self._changed(path, old, lines) if old is not None and old.starts else None
        if data is None:
            self.read.pop(path, None)
            self.made.pop(path, None)  # every entry is a new object: nothing made of the old ones is found again
            parsed = parse_yaml(text, path)
            data = parsed.value
            cards = data.get("cards") if isinstance(data, Map) else None
            self.parsed = len(cards) if isinstance(cards, Seq) else 0
            starts = [] if parsed.anchored else _starts(lines, cards)
            self.read[path] = _Read(lines, data, starts, _end(cards), [0] * len(starts or ()))
        return data

    def _changed(self, path: Path, old: _Read, lines: list[str]):
        """The document of the file now made of `lines`, its changed card entries parsed alone and the entries after
        them moved to their new lines; None when the change is not within the entries of the list, or its lines do
        not read alone as entries of it."""
        size = min(len(lines), len(old.lines))
        first = next((n for n in range(size) if old.lines[n] != lines[n]), size)
        moved = len(lines) - len(old.lines)
        if first == size and not moved:
            self.parsed = 0
            return old.data
        tail = 0  # the lines alike at the end, short of those alike at the start
        while tail < size - first and old.lines[-1 - tail] == lines[-1 - tail]:
            tail += 1
        last = len(old.lines) - tail  # the old lines [first, last) became the new [first, last + moved)
        starts, column = old.starts, old.data["cards"].where.column - 1
        if first < starts[0] or last > old.end:
            return None
        begin = bisect.bisect_right(starts, first) - 1  # the entry holding the first line changed
        if starts[begin] == first and not _starts_entry(lines[first] if first < len(lines) else "", column):
            begin -= 1  # lines put before an entry's first one that may belong to the entry before
            if begin < 0:
                return None
        stop = max(bisect.bisect_left(starts, last), begin + (first > starts[begin]))  # the first entry after it
        top = starts[begin]
        bottom = (starts[stop] if stop < len(starts) else old.end) + moved
        part = _part(lines, top, bottom, path)
        if part is None or part.anchored:
            return None
        entries = part.value or Seq()
        new = _starts(lines, entries) if entries else []
        if new is None or entries and (entries.where.column - 1 != column
                                       or entries.end != Location(path, bottom + 1, 1)):
            return None
        starts = starts[:begin] + new + [start + moved for start in starts[stop:]]
        if not starts:  # no card left: the list is read whole, as what it now is
            return None
        cards = old.data["cards"]
        listed = Seq(cards[:begin] + entries + cards[stop:])
        listed.item_where = (cards.item_where[:begin] + entries.item_where
                             + [_line(where, moved) for where in cards.item_where[stop:]])
        listed.where, listed.end = Location(path, starts[0] + 1, column + 1), _line(cards.end, moved)
        data = _mapping(old.data, {**old.data, "cards": listed}, moved, old.end)  # what follows the list moved too
        data.value_where["cards"] = listed.where
        shifts = old.shifts[:begin] + [0] * len(entries) + [shift + moved for shift in old.shifts[stop:]]
        self.read[path] = _Read(lines, data, starts, old.end + moved, shifts)
        self.parsed = len(entries)
        self._realign(path, _Move(begin, stop, len(entries), moved))
        return data

    def placed(self, path: Path, cards: Seq, index: int):
        """The entry `index` of `cards`, the list of cards of `path` as `load` last gave it, at its lines: an entry
        that moved is copied there the first time it is asked for, in the list too."""
        read = self.read.get(path)
        if read is not None and read.shifts and read.shifts[index] and read.data["cards"] is cards:
            cards[index] = _moved(cards[index], read.shifts[index])
            read.shifts[index] = 0
        return cards[index]

    def _realign(self, path: Path, move: _Move) -> None:
        """What was made of the file's entries put at their new places in the list: none for those parsed anew, and
        those after them noted as moved when they did."""
        if path not in self.made:
            return
        source, start, made, after = self.made[path]
        made = made[:move.begin] + [None] * move.count + made[move.stop:]
        if move.lines or move.count != move.stop - move.begin:
            after = min(after, move.begin + move.count)
        self.made[path] = (source, start, made, after)

    def keep(self, paths: set[Path]) -> None:
        """Forget the files but `paths` (the deck files the game now has)."""
        self.read = {path: read for path, read in self.read.items() if path in paths}
        self.made = {path: made for path, made in self.made.items() if path in paths}
        self.sheets = {path: rows for path, rows in self.sheets.items() if path in paths}

    def rows(self, path: Path, header: object) -> dict:
        """What each row of the sheet `path` was made into the last time it was read under `header` (its columns'
        keys and the game's traits), by the row's number and cells (worksheets.card_maps), to be filled with this
        time's: a save that changes a row of thousands types that row alone."""
        kept = self.sheets.get(path)
        if kept is None or kept[0] != header:
            kept = self.sheets[path] = (header, {})
        return kept[1]

    def cards(self, path: Path, source: object, start: int) -> tuple[list[tuple | None], list[tuple], int]:
        """What was made of each card entry of `path` the last time its cards were read as `source` says (by the
        entry's place in the list now: the entry, its card, the findings made; nothing when they were read
        otherwise or the entry was parsed anew), the list to fill with what is made of them this time, which
        replaces it, and the place in the list from which the entries kept moved (to other lines, or to another
        place in the list or the deck, whose first `start` cards are those of the files before: each is its old
        entry moved). A sheet's rows are found again by their cells, not by their places: moved in the deck, they are
        made again."""
        kept_source, kept_start, made, after = self.made.get(path, (None, 0, [], 0))
        fresh: list[tuple] = []
        self.made[path] = (source, start, fresh, sys.maxsize)
        if kept_source != source or kept_start != start and path not in self.read:
            return [], fresh, 0
        return made, fresh, after if kept_start == start else 0


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


def _part(lines: list[str], top: int, bottom: int, path: Path):
    """The lines [top, bottom) parsed alone as entries of the list of cards (Parsed; its value None when they hold
    nothing but blank lines and comments); None when they do not read alone."""
    if all(not line.strip() or line.lstrip().startswith("#") for line in lines[top:bottom]):
        return Parsed(None, False)
    try:
        part = parse_yaml("".join(lines[top:bottom]), path, top, _LIST_DEPTH)
    except MusterError:
        return None
    return part if isinstance(part.value, Seq) else None


def _starts_entry(line: str, column: int) -> bool:
    """Whether `line` starts an entry of a list at `column` (from 0): `- ` there."""
    return _ENTRY.match(line) is not None and line.index("-") == column


def _line(where: Location | None, lines: int, after: int = 0) -> Location | None:
    """`where` moved `lines` lines down when it lies below line `after` (from 1)."""
    if where is None or not lines or where.line <= after:
        return where
    return Location(where.path, where.line + lines, where.column)


def _moved(value, lines: int, after: int = 0):
    """A value read from a YAML file with its parts below line `after` (from 1) moved `lines` lines down: itself
    when nothing moves, else a copy (of a mapping or list; a scalar knows no place)."""
    if not lines:
        return value
    if isinstance(value, Map):
        return _mapping(value, {key: _moved(item, lines, after) if isinstance(item, (Map, Seq)) else item
                                for key, item in value.items()}, lines, after)
    if isinstance(value, Seq):
        moved = Seq(_moved(item, lines, after) if isinstance(item, (Map, Seq)) else item for item in value)
        moved.where, moved.end = _line(value.where, lines, after), _line(value.end, lines, after)
        moved.item_where = [_line(where, lines, after) for where in value.item_where]
        return moved
    return value


def _mapping(value: Map, items: dict, lines: int, after: int) -> Map:
    """A Map of `items` placed where `value` is, with the places below line `after` moved `lines` lines down."""
    moved = Map(items)
    moved.where = _line(value.where, lines, after)
    moved.key_where = {key: _line(where, lines, after) for key, where in value.key_where.items()}
    moved.value_where = {key: _line(where, lines, after) for key, where in value.value_where.items()}
    return moved


def _end(cards) -> int:
    """The line (from 0) the list of cards ends before."""
    return cards.end.line - 1 if isinstance(cards, Seq) and cards.end is not None else 0
