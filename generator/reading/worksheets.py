"""A spreadsheet's cells: a CSV, TSV or XLSX sheet read, its header row matched to card keys, and each row typed
into a card: for `muster import`, which writes the cards as a deck file, and for a deck whose file is the sheet.

The header row names the card's keys (title, count, the game's traits, or what a deck's `columns:` maps them
to); each further row is a card. A cell is typed by the kind of its column's key, so that the deck file says
`force: 2`, not `force: "2"`, and checked as the loader will read it. Problems are findings placed at the row and
column of the sheet (`cards.csv:7:3`, `cards.xlsx:7:C`); a sheet that cannot be read at all is a MusterError.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping

from ..core.errors import Finding, Location, MusterError, did_you_mean
from ..core.model import Game, Trait
from .kinds import BOOLEAN, INTEGER, describe
from .sheetfiles import UNCOMPUTED, sheet_rows
from .sourcemap import Map, Seq, MAX_NUMBER_CHARS
from .spec import CARD, RESERVED_CARD_KEYS
from .traits import parse_trait

SUFFIXES = (".csv", ".tsv", ".xlsx")
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
    if suffix not in SUFFIXES:
        raise MusterError(f"expected a .csv, .tsv or .xlsx file, got '{path.name}' (save other formats as .xlsx or CSV)",
                          Location(path), code="unsupported-file")
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
    return Sheet(path, header_row, header, body)


def formula_safe(text: str) -> str:
    """`text` for a CSV cell that no spreadsheet program runs as a formula: when it starts with = + - @, a tab or a
    carriage return (after any quotes), a quote goes before it, as OWASP's guidance on CSV injection says.
    Reading a sheet takes the quote off again (`unquoted`), so that an exported deck imports as it was."""
    return "'" + text if text.lstrip("'")[:1] in FORMULA_STARTS else text


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
                header.findings.append(Finding("error", where, "", "a column with values has no name in the header "
                                               "row", "unnamed-column"))
            continue
        name = _cell_text(cell).strip()
        if name in columns:
            key = columns[name]
        elif name.casefold() in ignored:
            continue
        elif name in EXACT_KEYS:
            key = name
        else:
            key = by_name.get(name.casefold())
        if key is None:
            if name.casefold() in EXACT_KEYS:
                header.findings.append(Finding(
                    "warning", where, name, f"column '{name}' is not read: Muster's reserved '{name.casefold()}' is "
                    f"written in lower case; to print it, declare a trait and map the column to it (columns: "
                    f"{{{name}: <trait>}}), or map it to the reserved key (columns: {{{name}: {name.casefold()}}})",
                    "reserved-column"))
            else:
                header.unknown.append((column, name))
        elif key in header.keys.values():
            first = next(c for c, k in header.keys.items() if k == key)
            header.findings.append(Finding("error", where, name, f"a second '{key}' column (the first is column "
                                           f"{first})", "duplicate-key"))
        else:
            header.keys[column] = key
    return header


def unknown_columns(sheet: Sheet, header: Header) -> Finding | None:
    """One warning naming the columns no key was found for (the first few, and how many more), or None."""
    if not header.unknown:
        return None
    names = ", ".join(f"'{_shown(name)}'" for _, name in header.unknown[:MAX_NAMED])
    more = len(header.unknown) - MAX_NAMED
    return Finding("warning", Location(sheet.path, sheet.header_row, header.unknown[0][0]), "",
                   f"{len(header.unknown):,} column(s) not read, the game has no such keys: {names}"
                   + (f" and {more:,} more" if more > 0 else "")
                   + " (map them to keys under the deck's columns:, or list them under ignore:)", "unknown-column")


def _shown(name: str) -> str:
    """A header's name as a message shows it: at most 40 characters."""
    return name if len(name) <= 40 else name[:39] + "…"


def _cells(sheet: Sheet, header: Header, findings: list[Finding]) -> Iterator[tuple[int, dict[str, tuple[Any, int]]]]:
    """(row number, key -> (cell, column)) for each row with a value; a value outside the named columns and a
    formula saved without its value are findings."""
    for number, cells in sheet.rows:
        if all(_blank(c) for c in cells):
            continue
        row = {}
        for column, cell in enumerate(cells, 1):
            key = header.keys.get(column)
            where = Location(sheet.path, number, column)
            if key is None:
                if not _blank(cell) and column > len(sheet.header):
                    findings.append(Finding("error", where, "", f"a value outside the named columns: "
                                            f"{_cell_text(cell)!r}", "unnamed-column"))
            elif cell is UNCOMPUTED:
                findings.append(Finding("error", where, key, "a formula saved without its value (written by a "
                                        "program that does not compute formulas): open the file in a spreadsheet "
                                        "program and save it", "formula-without-value"))
            elif not _blank(cell):
                row[key] = (cell, column)
        yield number, row


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


def cards_from_sheet(sheet: Sheet, game: Game, titled: bool = True) -> Cards:
    """Each row of `sheet` as a card of `game`, for a deck file: values typed by their traits, problems placed at
    row and column; a column the game has no key for is an error, as the deck file could not hold it. Without
    `titled` (a deck of tokens), rows need no title."""
    header = read_header(sheet, game.traits)
    result = Cards([], [], header.columns, header.findings)
    keys = list(RESERVED_CARD_KEYS) + list(game.traits)
    for column, name in header.unknown:
        suffix = did_you_mean(name, keys, f" (expected one of: {', '.join(keys)})")
        result.findings.append(Finding("error", Location(sheet.path, sheet.header_row, column), name,
                                       f"unknown column '{name}'{suffix}", "unknown-key"))
    result.findings.sort(key=lambda f: f.where.column)
    if titled and "title" not in result.columns:
        result.findings.append(Finding("error", Location(sheet.path, sheet.header_row, 1), "title",
                                       "no 'title' column: the header row names the card's keys "
                                       f"(title, count, and the game's traits: {', '.join(game.traits) or 'none'})",
                                       "missing-key"))
        return result
    for number, row in _cells(sheet, header, result.findings):
        card = {}
        for key, (cell, column) in row.items():
            try:
                card[key] = typed(key, cell, game.traits, game.vocabularies)
            except MusterError as problem:
                result.findings.append(problem.finding("error", Location(sheet.path, number, column), key))
        if titled and "title" not in card:
            result.findings.append(Finding("error", Location(sheet.path, number, result.columns["title"]), "title",
                                           "every card needs a title", "missing-key"))
            continue
        result.cards.append(card)
        result.rows.append(number)
    return result


def card_maps(sheet: Sheet, header: Header, traits: Mapping[str, Trait], vocabularies: Mapping,
              findings: list[Finding]) -> Seq:
    """Each row of `sheet` as a card mapping for the loader, as a deck file's would be, each value placed at its
    cell: typed by its trait where the cell allows, else left as its text for the loader to report."""
    cards = Seq()
    for number, row in _cells(sheet, header, findings):
        card = Map()
        card.where = Location(sheet.path, number, 1)
        for key, (cell, column) in row.items():
            try:
                card[key] = typed(key, cell, traits, vocabularies)
            except MusterError:
                card[key] = _cell_text(cell)
            card.key_where[key] = card.value_where[key] = Location(sheet.path, number, column)
        cards.append(card)
        cards.item_where.append(card.where)
    return cards


def typed(key: str, cell, traits: Mapping[str, Trait], vocabularies: Mapping):
    """The cell as the deck file writes it, checked as the loader will read it: a MusterError when it will not do."""
    text = _cell_text(cell)
    if key in RESERVED_CARD_KEYS:
        return _reserved(CARD[key], text)
    trait = traits[key]
    if trait.kind == "text":
        return text
    text = text.strip()
    if len(text) > MAX_NUMBER_CHARS and trait.kind in ("integer", "number", "year_from") and _NUMBER.match(text):
        raise MusterError(f"a number of {len(text):,} characters; the limit is {MAX_NUMBER_CHARS}", code="too-large")
    if trait.kind == "boolean":
        return _boolean(text)
    if trait.kind in ("integer", "number") and text not in trait.also:
        if _INTEGER.match(text):
            value = int(text)
        elif trait.kind == "number" and _NUMBER.match(text):
            value = float(text)
        else:
            value = text
    elif trait.kind == "year_from":
        value = int(text) if _INTEGER.match(text) else text
    elif trait.kind == "codes":
        value = [] if text == EMPTY_LIST else vocabularies[trait.vocabulary].split(text)
    else:
        value = text
    parse_trait(trait, value, dict(vocabularies))
    return value


def _reserved(key, text: str):
    """A cell of a reserved card key (title, count, ...), typed by the key's kind in the spec."""
    if key.kind is INTEGER:
        number = int(text.strip()) if _INTEGER.match(text.strip()) and len(text) <= MAX_NUMBER_CHARS else None
        if number is None or not key.minimum <= number <= key.maximum:
            raise MusterError(f"expected a whole number of copies from {key.minimum} to {key.maximum}, "
                              f"got {describe(text.strip())}", code="wrong-type" if number is None else "out-of-range")
        return number
    if key.kind is BOOLEAN:
        return _boolean(text)
    return text


def _boolean(text: str) -> bool:
    word = text.strip().casefold()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise MusterError(f"expected true or false, got {describe(text.strip())}", code="wrong-type")


