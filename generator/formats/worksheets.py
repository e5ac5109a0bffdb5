"""A spreadsheet's cells: a CSV, TSV or XLSX sheet read, and each row typed into a card of a game.

The header row names the card's keys (title, count, the game's traits); each further row is a card. A cell is
typed by the kind of its column's key, so that the deck file says `force: 2`, not `force: "2"`, and checked as
the loader will read it. Problems are findings placed at the row and column of the sheet
(`cards.csv:7:3: error: force: ...`); a sheet that cannot be read at all is a MusterError.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import Finding, Location, MusterError, did_you_mean
from ..core.model import Game, Trait
from ..reading.kinds import BOOLEAN, INTEGER, describe
from ..reading.spec import CARD, RESERVED_CARD_KEYS
from ..reading.sourcemap import MAX_NUMBER_CHARS
from ..reading.traits import parse_trait
from .sheetfiles import sheet_rows

SUFFIXES = (".csv", ".tsv", ".xlsx")
EMPTY_LIST = "[]"  # a codes cell holding this is an empty list (`fronts: []`): present, but no codes
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what makes a spreadsheet program read a cell as a formula
_INTEGER = re.compile(r"^[+-]?\d+$")
_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_TRUE, _FALSE = ("true", "yes"), ("false", "no")


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
class Cards:
    """The cards of a sheet, each a mapping of key to typed value in the sheet's column order."""

    cards: list[dict]
    rows: list[int]                          # the sheet row of each card
    columns: dict[str, int]                  # key -> column number (from 1)
    findings: list[Finding] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return sum(f.severity == "error" for f in self.findings)


def cards_from_sheet(sheet: Sheet, game: Game) -> Cards:
    """Each row of `sheet` as a card of `game`: values typed by their traits, problems placed at row and column."""
    result = Cards([], [], {})
    columns = _columns(sheet, game, result.findings)
    result.columns = {key: column for column, key in columns.items()}
    if "title" not in result.columns:
        result.findings.append(Finding("error", Location(sheet.path, sheet.header_row, 1), "title",
                                       "no 'title' column: the header row names the card's keys "
                                       f"(title, count, and the game's traits: {', '.join(game.traits) or 'none'})",
                                       "missing-key"))
        return result
    for number, cells in sheet.rows:
        if all(_blank(c) for c in cells):
            continue
        card = {}
        for column, cell in enumerate(cells, 1):
            key = columns.get(column)
            where = Location(sheet.path, number, column)
            if key is None:
                if not _blank(cell) and column > len(sheet.header):
                    result.findings.append(Finding("error", where, "",
                                                   f"a value outside the named columns: {_cell_text(cell)!r}",
                                                   "unnamed-column"))
                continue
            if _blank(cell):
                continue
            try:
                card[key] = _typed(key, cell, game)
            except MusterError as problem:
                result.findings.append(problem.finding("error", where, key))
        if "title" not in card:
            result.findings.append(Finding("error", Location(sheet.path, number, result.columns["title"]), "title",
                                           "every card needs a title", "missing-key"))
            continue
        result.cards.append(card)
        result.rows.append(number)
    return result


def _columns(sheet: Sheet, game: Game, findings: list[Finding]) -> dict[int, str]:
    """Column number -> card key, from the header row (a key, or a trait's label, in any case)."""
    keys = list(RESERVED_CARD_KEYS) + list(game.traits)
    by_name = {key.casefold(): key for key in keys}
    for name, trait in game.traits.items():
        by_name.setdefault(trait.label.casefold(), name)
    columns: dict[int, str] = {}
    for column, cell in enumerate(sheet.header, 1):
        if _blank(cell):
            if any(len(cells) >= column and not _blank(cells[column - 1]) for _, cells in sheet.rows):
                findings.append(Finding("error", Location(sheet.path, sheet.header_row, column), "",
                                        "a column with values has no name in the header row", "unnamed-column"))
            continue
        name = _cell_text(cell).strip()
        key = by_name.get(name.casefold())
        if key is None:
            suffix = did_you_mean(name, keys, f" (expected one of: {', '.join(keys)})")
            findings.append(Finding("error", Location(sheet.path, sheet.header_row, column), name,
                                    f"unknown column '{name}'{suffix}", "unknown-key"))
        elif key in columns.values():
            first = next(c for c, k in columns.items() if k == key)
            findings.append(Finding("error", Location(sheet.path, sheet.header_row, column), name,
                                    f"a second '{key}' column (the first is column {first})", "duplicate-key"))
        else:
            columns[column] = key
    return columns


def _typed(key: str, cell, game: Game):
    """The cell as the deck file writes it, checked as the loader will read it: a MusterError when it will not do."""
    text = _cell_text(cell)
    if key in RESERVED_CARD_KEYS:
        return _reserved(CARD[key], text)
    trait: Trait = game.traits[key]
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
        value = [] if text == EMPTY_LIST else game.vocabularies[trait.vocabulary].split(text)
    else:
        value = text
    parse_trait(trait, value, dict(game.vocabularies))
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


