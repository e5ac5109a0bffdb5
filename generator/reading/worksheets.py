"""A spreadsheet's cells: a CSV, TSV or XLSX sheet read, its header row matched to card keys, and each row typed
into a card: for `muster import`, which writes the cards as a deck file, and for a deck whose file is the sheet.

The header row names the card's keys (title, count, the game's traits, or what a deck's `columns:` maps them
to); each further row is a card. A cell is typed by the kind of its column's key, so that the deck file says
`force: 2`, not `force: "2"`, and checked as the loader will read it. Problems are findings placed at the row and
column of the sheet (`cards.csv:7:3`, `cards.xlsx:7:C`); a sheet that cannot be read at all is a MusterError.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping

from ..core import codes
from ..core.errors import Finding, Location, MusterError, did_you_mean
from ..core.inputs import SHEET_SUFFIXES
from ..core.model import Game, SheetMapping, Trait
from ..core.written import xml_text
from .sheetfiles import UNCOMPUTED, sheet_rows
from .reader import translation_of
from .sourcemap import Map, Seq, MAX_NUMBER_CHARS
from .spec import CARD, RESERVED_CARD_KEYS
from .traits import parse_trait

EMPTY_LIST = "[]"  # a codes cell holding this is an empty list (`fronts: []`): present, but no codes
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what makes a spreadsheet program read a cell as a formula
_INTEGER = re.compile(r"^[+-]?\d+$")
_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_TRUE, _FALSE = ("true", "yes"), ("false", "no")
# The headers other tools give the title and the copies, read as Muster's own (in any case, as title and count are)
COMMON_NAMES = {"name": "title", "qty": "count", "quantity": "count", "copies": "count"}
# Reserved keys a sheet often uses for something else (a unit's number in `ID`): read only when written as they are
EXACT_KEYS = ("id", "designed", "note", "set")
MAX_NAMED = 10  # unknown columns a warning names; it counts the rest


@dataclass
class Sheet:
    """A spreadsheet's cells: the header row and the rows below it, each with its row number in the sheet."""

    path: Path
    header_row: int
    header: list[Any]
    rows: list[tuple[int, list[Any]]]


def read_sheet(path: Path, sheet: str | None = None) -> Sheet:
    """The cells of a .csv, .tsv or .xlsx file, within the limits of sheetfiles.py; a MusterError when it cannot
    be read at all."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SHEET_SUFFIXES:
        raise MusterError.of(codes.UNSUPPORTED_FILE, Location(path), name=path.name)
    if sheet is not None and suffix != ".xlsx":
        raise MusterError("--sheet names a worksheet of an .xlsx file; a CSV file has one sheet", Location(path),
                          code="unknown-sheet")
    header_row, header, body = 0, [], []
    for number, cells in sheet_rows(path, sheet):
        if not header_row:
            if any(not _blank(c) for c in cells):
                header_row, header = number, cells
            continue
        body.append((number, cells))
    if not header_row:
        raise MusterError("the sheet is empty: expected a header row naming the card's keys (title, count, traits)",
                          Location(path), code="empty-sheet")
    width = max((len(cells) for _, cells in body), default=0)  # a column with values but no name is the header's
    return Sheet(path, header_row, header + [None] * (width - len(header)), body)


def formula_safe(text: str) -> str:
    """`text` for a CSV cell that no spreadsheet program runs as a formula: when it starts with = + - @, a tab or a
    carriage return (after any quotes), a quote goes before it, as OWASP's guidance on CSV injection says.
    Reading a sheet takes the quote off again (`unquoted`), so that an exported deck imports as it was."""
    return "'" + text if text.lstrip("'")[:1] in FORMULA_STARTS else text


def csv_cell(text: str) -> str:
    """`text` as every CSV file Muster writes holds it: what XML cannot hold made U+FFFD (core/written.py), then
    formula_safe."""
    return formula_safe(xml_text(text))


def unquoted(text: str) -> str:
    """A cell's text without the quote `formula_safe` put before a formula's start (a cell that is '=1+1 reads
    as =1+1); any other text as it is."""
    return text[1:] if text[:1] == "'" and text.lstrip("'")[:1] in FORMULA_STARTS else text


def _blank(cell) -> bool:
    return cell is None or (isinstance(cell, str) and not cell.strip())


def _cell_text(cell) -> str:
    """A cell as the text a CSV file would hold: numbers and booleans of an .xlsx sheet written out."""
    if isinstance(cell, bool):
        return "true" if cell else "false"
    if isinstance(cell, float):
        return str(int(cell)) if cell.is_integer() and abs(cell) < 1e15 else repr(cell)
    if isinstance(cell, int):
        return str(cell)
    if hasattr(cell, "isoformat"):  # a date or time: Excel's guess at what was typed
        return cell.isoformat()
    return unquoted(str(cell))


@dataclass
class Header:
    """The header row read: column number -> card key, the columns no key was found for, and what was wrong."""

    keys: dict[int, str]
    unknown: list[tuple[int, str]]           # (column, its name)
    findings: list[Finding]

    @property
    def columns(self) -> dict[str, int]:
        """Card key -> its column."""
        return {key: column for column, key in self.keys.items()}

    def misspelt(self, keys) -> dict[str, str]:
        """Unknown column name -> the key no column holds that it is close to: a typo in the header, most likely
        (`Strenght` for strength)."""
        missing = [key for key in keys if key not in self.keys.values()]
        guesses = {name: difflib.get_close_matches(name.casefold(), missing, n=1) for _, name in self.unknown}
        return {name: hint[0] for name, hint in guesses.items() if hint}


def read_header(sheet: Sheet, traits: Mapping[str, Trait], columns: Mapping[str, str] | None = None,
                ignore: tuple[str, ...] = ()) -> Header:
    """Which key each column holds: a name of `columns` maps to the key it gives; a name of `ignore` (in any case)
    is no key; else a trait's name or label, title or count or a name other tools give them (Name, Qty, ...), all
    in any case, or id, designed or note as written. `ID` (say) is no key, with a warning: it is the user's."""
    columns = dict(columns or {})
    ignored = {name.casefold() for name in ignore}
    by_name = {**{key: key for key in ("title", "count")}, **COMMON_NAMES}
    for name, trait in traits.items():
        by_name[trait.label.casefold()] = name
        by_name[name] = name
    header = Header({}, [], [])
    for column, cell in enumerate(sheet.header, 1):
        where = Location(sheet.path, sheet.header_row, column)
        if _blank(cell):
            if any(len(cells) >= column and not _blank(cells[column - 1]) for _, cells in sheet.rows):
                header.findings.append(Finding.of(codes.UNNAMED_COLUMN, where))
            continue
        name = _cell_text(cell).strip()
        if name.casefold() in ignored:
            continue
        base, language = name, ""
        if name not in columns and translation_of(name):  # Title:de, the translation of the Title column
            base, language = translation_of(name)
            base = base.strip()
        if base in columns:
            key = columns[base]
        elif base in EXACT_KEYS:
            key = base
        else:
            key = by_name.get(base.casefold())
        if key is not None and language:
            key = f"{key}:{language}"
        if key is None:
            if name.casefold() in EXACT_KEYS:
                header.findings.append(Finding.of(codes.RESERVED_COLUMN, where, name, name=name,
                                                  key=name.casefold()))
            else:
                header.unknown.append((column, name))
        elif key in header.keys.values():
            first = next(c for c, k in header.keys.items() if k == key)
            header.findings.append(Finding.of(codes.DUPLICATE_KEY, where, name, what="column", key=key,
                                              first=f"column {first}"))
        else:
            header.keys[column] = key
    return header


def unknown_columns(sheet: Sheet, header: Header, misspelt: Mapping[str, str]) -> Finding | None:
    """One warning naming the columns no key was found for (the first few, each with the key it is `misspelt`
    for, and how many more), or None."""
    if not header.unknown:
        return None
    names = ", ".join(f"'{_shown(name)}'" + (f" (did you mean '{misspelt[name]}'?)" if name in misspelt else "")
                      for _, name in header.unknown[:MAX_NAMED])
    more = len(header.unknown) - MAX_NAMED
    return Finding.of(codes.UNKNOWN_COLUMN, Location(sheet.path, sheet.header_row, header.unknown[0][0]),
                      count=len(header.unknown), names=names, more=f" and {more:,} more" if more > 0 else "")


def _shown(name: str) -> str:
    """A header's name as a message shows it: at most 40 characters."""
    return name if len(name) <= 40 else name[:39] + "…"


def _cells(sheet: Sheet, header: Header, findings: list[Finding]) -> Iterator[tuple[int, dict[str, tuple[Any, int]]]]:
    """(row number, key -> (cell, column)) for each row with a value; a formula saved without its value is a
    finding."""
    for number, cells in sheet.rows:
        row = _row(sheet, header, number, cells, findings)
        if row is not None:
            yield number, row


def _row(sheet: Sheet, header: Header, number: int, cells: list, findings: list[Finding]
         ) -> dict[str, tuple[Any, int]] | None:
    """Row `number` of `sheet`, of `cells`, as key -> (cell, column); None for a row without a value. A formula
    saved without its value is a finding."""
    if all(_blank(c) for c in cells):
        return None
    row = {}
    for column, cell in enumerate(cells, 1):
        key = header.keys.get(column)
        where = Location(sheet.path, number, column)
        if key is None:  # a column not read; one with values but no name is the header's finding
            continue
        if cell is UNCOMPUTED:
            findings.append(Finding.of(codes.FORMULA_WITHOUT_VALUE, where, key))
        elif not _blank(cell):
            row[key] = (cell, column)
    return row


@dataclass
class Cards:
    """The cards of a sheet, each a mapping of key to typed value in the sheet's column order."""

    cards: list[dict]
    rows: list[int]                          # the sheet row of each card
    columns: dict[str, int]                  # key -> column number (from 1)
    findings: list[Finding] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return sum(f.severity == "error" for f in self.findings)


def cards_from_sheet(sheet: Sheet, game: Game, titled: bool = True, mapping: SheetMapping = SheetMapping()) -> Cards:
    """Each row of `sheet` as a card of `game`, for a deck file: values typed by their traits, problems placed at
    row and column; a column the game has no key for is an error, as the deck file could not hold it, unless the
    deck's `mapping` maps or ignores it. Without `titled` (a deck of tokens), rows need no title."""
    header = read_header(sheet, game.traits, mapping.columns, mapping.ignore)
    result = Cards([], [], header.columns, header.findings)
    keys = list(RESERVED_CARD_KEYS) + list(game.traits)
    for column, name in header.unknown:
        suffix = did_you_mean(name, keys, f" (expected one of: {', '.join(keys)})")
        result.findings.append(Finding.of(codes.UNKNOWN_KEY, Location(sheet.path, sheet.header_row, column), name,
                                          what="column", name=name, hint=suffix))
    result.findings.sort(key=lambda f: f.where.column)
    if titled and "title" not in result.columns:
        result.findings.append(Finding.of(codes.MISSING_KEY, Location(sheet.path, sheet.header_row, 1), "title",
                                          detail="no 'title' column: the header row names the card's keys (title, "
                                                 f"count, and the game's traits: {', '.join(game.traits) or 'none'})"))
        return result
    for number, row in _cells(sheet, header, result.findings):
        card = {}
        for key, (cell, column) in row.items():
            try:
                card[key] = typed(key, cell, game.traits, game.vocabularies)
            except MusterError as problem:
                result.findings.append(problem.finding("error", Location(sheet.path, number, column), key))
        if titled and "title" not in card:
            result.findings.append(Finding.of(codes.MISSING_KEY, Location(sheet.path, number, result.columns["title"]),
                                              "title", detail="every card needs a title"))
            continue
        result.cards.append(card)
        result.rows.append(number)
    kept = merge_copies(result.cards)
    result.cards, result.rows = [result.cards[i] for i in kept], [result.rows[i] for i in kept]
    return result


def card_maps(sheet: Sheet, header: Header, traits: Mapping[str, Trait], findings: list[Finding],
              known: dict | None = None) -> Seq:
    """Each row of `sheet` as a card mapping for the loader, as a deck file's would be, each value placed at its
    cell and typed by its key's kind where the cell allows: the loader checks it as it checks a deck file's, so
    that the same problem reads the same whatever the source. With `known` (what each row was made into the last
    time, by its number and cells, under the same header and traits: the preview's, reading/rereading.py), a row as
    it was is the mapping made then, with its findings; `known` is left holding this time's."""
    made = {}
    rows = []
    for number, cells in sheet.rows:
        key = (number, tuple(cells))
        done = known.get(key) if known is not None else None
        if done is None:
            mark = len(findings)
            done = (_card_map(sheet, header, traits, number, cells, findings), tuple(findings[mark:]))
        else:
            findings.extend(done[1])
        made[key] = done
        if done[0] is not None:
            rows.append(done[0])
    if known is not None:
        known.clear()
        known.update(made)
    titles = Counter(card.get("title") for card in rows)
    rows = [card.copy() if titles[card.get("title")] > 1 else card for card in rows]  # merge_copies sums into one
    cards = Seq()
    for index in merge_copies(rows):
        card = rows[index]
        if "count" in card and "count" not in card.value_where:  # summed from rows that gave none: the first row's
            card.key_where["count"] = card.value_where["count"] = card.where
        cards.append(card)
        cards.item_where.append(card.where)
    return cards


def _card_map(sheet: Sheet, header: Header, traits: Mapping[str, Trait], number: int, cells: list,
              findings: list[Finding]) -> Map | None:
    """Row `number` of `sheet`, of `cells`, as a card mapping (see card_maps); None for a row without a value."""
    row = _row(sheet, header, number, cells, findings)
    if row is None:
        return None
    card = Map()
    card.where = Location(sheet.path, number, 1)
    for key, (cell, column) in row.items():
        where = Location(sheet.path, number, column)
        try:
            card[key] = cell_value(key, cell, traits)
        except MusterError as problem:
            findings.append(problem.finding("error", where, key))
            continue
        card.key_where[key] = card.value_where[key] = where
    return card


def merge_copies(cards: list[dict]) -> list[int]:
    """The indexes of the cards kept once rows listing a card's copies one a row are merged: a row with the title and
    every value but the count of an earlier row adds its count (1 when it has none) to that row's, and is
    dropped. Rows of one title that differ in another value are all kept, for the check of titles to report."""
    kept: list[int] = []
    first: dict[str, int] = {}
    for index, card in enumerate(cards):
        title = card.get("title")
        earlier = first.get(title) if isinstance(title, str) and title else None
        if earlier is not None and _copies(cards[earlier], card):
            cards[earlier]["count"] = cards[earlier].get("count", 1) + card.get("count", 1)
            continue
        if isinstance(title, str) and title:
            first.setdefault(title, index)
        kept.append(index)
    return kept


def _copies(card: dict, other: dict) -> bool:
    """Whether two rows are copies of one card: every value but the count the same, and whole counts."""
    counts = [row.get("count", 1) for row in (card, other)]
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in counts):
        return False
    return {k: v for k, v in card.items() if k != "count"} == {k: v for k, v in other.items() if k != "count"}


def typed(key: str, cell, traits: Mapping[str, Trait], vocabularies: Mapping):
    """The cell as the deck file writes it, checked as the loader will read it: a MusterError, worded as for a
    deck file, when it will not do."""
    value = cell_value(key, cell, traits)
    key = key.partition(":")[0]  # a translation is checked as its key; whether it may be one, by the loader
    if key in RESERVED_CARD_KEYS:
        CARD[key].read(value)
    else:
        parse_trait(traits[key], value, dict(vocabularies))
    return value


def cell_value(key: str, cell, traits: Mapping[str, Trait]):
    """The cell as a deck file would hold it, not yet checked: a whole number or a number where the key's kind
    takes one and the cell holds one, true or false for a boolean, `[]` as an empty list, else its text, as it
    was written (a codes cell `WM` stays `WM`, so that an exported deck imports as it was)."""
    text = _cell_text(cell)
    key = key.partition(":")[0]  # a translation (title:de) is of its key's kind; the loader checks it may be one
    kind = CARD[key].kind.name if key in RESERVED_CARD_KEYS else traits[key].kind
    if kind in ("text", "string") or (key not in RESERVED_CARD_KEYS and text.strip() in traits[key].also):
        return text
    stripped = text.strip()
    if len(stripped) > MAX_NUMBER_CHARS and kind in ("integer", "number", "year_from") and _NUMBER.match(stripped):
        raise MusterError(f"a number of {len(stripped):,} characters; the limit is {MAX_NUMBER_CHARS}",
                          code="too-large")
    if kind in ("integer", "number", "year_from") and _INTEGER.match(stripped):
        return int(stripped)
    if kind == "number" and _NUMBER.match(stripped):
        return float(stripped)
    if kind == "boolean" and stripped.casefold() in _TRUE + _FALSE:
        return stripped.casefold() in _TRUE
    if kind == "codes" and stripped == EMPTY_LIST:
        return []
    return stripped
