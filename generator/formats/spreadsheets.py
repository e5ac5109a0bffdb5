"""Decks as spreadsheets: a CSV or XLSX sheet (one card a row) into a deck file, every cell checked; and back.

The header row names the card's keys (title, count, the game's traits); each further row is a card. A cell is
typed by the kind of its column's trait, so that the deck file says `force: 2`, not `force: "2"`. Problems are
findings placed at the row and column of the sheet (`cards.csv:7:3: error: force: ...`), and a sheet with
errors writes nothing. Export writes the cards as their deck files give them (aliases and `1944+` included), so
that importing the export gives the same cards.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..core.errors import Finding, Location, MusterError, did_you_mean, display_path
from ..reading.loading import MAX_COUNT, RESERVED_CARD_KEYS, describe, parse_trait
from ..core.model import Game, Trait
from ..core.files import atomic_write
from ..reading.sourcemap import Map, Seq, load_yaml

SUFFIXES = (".csv", ".tsv", ".xlsx")
EMPTY_LIST = "[]"  # a codes cell holding this is an empty list (`fronts: []`): present, but no codes
MAX_ROWS = 20_000
MAX_SHEET_BYTES = 16 * 1024 * 1024
_INTEGER = re.compile(r"^[+-]?\d+$")
_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_TRUE, _FALSE = ("true", "yes"), ("false", "no")
FLOW_WIDTH = 118  # a card whose flow mapping fits on a line this long is written on one line, as the bundled decks are


# --- reading sheets -------------------------------------------------------------------------------------------

@dataclass
class Sheet:
    """A spreadsheet's cells: the header row and the rows below it, each with its row number in the sheet."""

    path: Path
    header_row: int
    header: list[Any]
    rows: list[tuple[int, list[Any]]]


def read_sheet(path: Path, sheet: str | None = None) -> Sheet:
    """The cells of a .csv, .tsv or .xlsx file; a MusterError when it cannot be read at all."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise MusterError(f"expected a .csv, .tsv or .xlsx file, got '{path.name}' (save other formats as .xlsx or CSV)",
                          Location(path))
    if not path.is_file():
        raise MusterError("no such file", Location(path))
    if path.stat().st_size > MAX_SHEET_BYTES:
        raise MusterError(f"larger than {MAX_SHEET_BYTES // (1024 * 1024)} MB: refused", Location(path))
    if sheet is not None and suffix != ".xlsx":
        raise MusterError("--sheet names a worksheet of an .xlsx file; a CSV file has one sheet", Location(path))
    rows = _xlsx_rows(path, sheet) if suffix == ".xlsx" else _csv_rows(path, "\t" if suffix == ".tsv" else None)
    header_row, header, body = 0, [], []
    for number, cells in rows:
        if not header_row:
            if any(not _blank(c) for c in cells):
                header_row, header = number, cells
            continue
        body.append((number, cells))
        if len(body) > MAX_ROWS:
            raise MusterError(f"more than {MAX_ROWS} rows: refused", Location(path, number, 1))
    if not header_row:
        raise MusterError("the sheet is empty: expected a header row naming the card's keys (title, count, traits)",
                          Location(path))
    return Sheet(path, header_row, header, body)


def _csv_rows(path: Path, delimiter: str | None):
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise MusterError(f"cannot read: {exc.strerror or exc}", Location(path)) from None
    except UnicodeDecodeError as exc:
        raise MusterError(f"not UTF-8 text (byte {exc.start}): save the sheet as 'CSV UTF-8', or as .xlsx",
                          Location(path)) from None
    if delimiter is None:
        first = text.split("\n", 1)[0]
        counts = {d: first.count(d) for d in (",", ";", "\t")}
        delimiter = max(counts, key=counts.get) if any(counts.values()) else ","
    try:
        return list(enumerate(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True), 1))
    except csv.Error as exc:
        raise MusterError(f"not a readable CSV file: {exc}", Location(path)) from None


def _xlsx_rows(path: Path, sheet: str | None):
    import zipfile

    from openpyxl import load_workbook

    try:
        book = load_workbook(path, read_only=True, data_only=True)
    except (zipfile.BadZipFile, OSError, KeyError, ValueError) as exc:
        raise MusterError(f"not a readable .xlsx file ({type(exc).__name__}: {exc})", Location(path)) from None
    try:
        if sheet is None:
            worksheet = book.worksheets[0]
        elif sheet in book.sheetnames:
            worksheet = book[sheet]
        else:
            raise MusterError(f"no worksheet '{sheet}' (the file has: {', '.join(book.sheetnames)})", Location(path))
        worksheet.reset_dimensions()  # read every row, whatever size the file claims (some writers get it wrong)
        rows = []
        for number, cells in enumerate(worksheet.iter_rows(values_only=True), 1):
            rows.append((number, list(cells)))
            if number > MAX_ROWS + 100:
                raise MusterError(f"more than {MAX_ROWS} rows: refused", Location(path, number, 1))
        return rows
    finally:
        book.close()


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
    return str(cell)


# --- cells into cards ------------------------------------------------------------------------------------------

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
                                       f"(title, count, and the game's traits: {', '.join(game.traits) or 'none'})"))
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
                    result.findings.append(Finding("error", where, "", f"a value outside the named columns: {_cell_text(cell)!r}"))
                continue
            if _blank(cell):
                continue
            value = _typed(key, cell, game)
            if isinstance(value, ValueError):
                result.findings.append(Finding("error", where, key, str(value)))
            else:
                card[key] = value
        if "title" not in card:
            result.findings.append(Finding("error", Location(sheet.path, number, result.columns["title"]), "title",
                                           "every card needs a title"))
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
                                        "a column with values has no name in the header row"))
            continue
        name = _cell_text(cell).strip()
        key = by_name.get(name.casefold())
        if key is None:
            suffix = did_you_mean(name, keys, f" (expected one of: {', '.join(keys)})")
            findings.append(Finding("error", Location(sheet.path, sheet.header_row, column), name,
                                    f"unknown column '{name}'{suffix}"))
        elif key in columns.values():
            first = next(c for c, k in columns.items() if k == key)
            findings.append(Finding("error", Location(sheet.path, sheet.header_row, column), name,
                                    f"a second '{key}' column (the first is column {first})"))
        else:
            columns[column] = key
    return columns


def _typed(key: str, cell, game: Game):
    """The cell as the deck file writes it (checked as the loader will read it), or a ValueError."""
    text = _cell_text(cell)
    if key in ("title", "id", "note"):
        return text
    if key == "count":
        number = int(text.strip()) if _INTEGER.match(text.strip()) else None
        if number is None or not 0 <= number <= MAX_COUNT:
            return ValueError(f"expected a whole number of copies from 0 to {MAX_COUNT}, got {describe(text.strip())}")
        return number
    if key == "designed":
        return _boolean(text)
    trait: Trait = game.traits[key]
    if trait.kind == "text":
        return text
    text = text.strip()
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
    parsed = parse_trait(trait, value, dict(game.vocabularies))
    return parsed if isinstance(parsed, ValueError) else value


def _boolean(text: str):
    word = text.strip().casefold()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    return ValueError(f"expected true or false, got {describe(text.strip())}")


# --- cards into a deck file ------------------------------------------------------------------------------------

class _Dumper(yaml.SafeDumper):
    pass


def _text(dumper, value: str):
    style = "|" if "\n" in value.rstrip("\n") else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)


def deck_yaml(cards: list[dict], comment: str = "") -> tuple[str, list[int]]:
    """A deck file holding `cards`, and the line each card starts on."""
    lines = [f"# {line}".rstrip() for line in comment.splitlines()] + ["cards:"]
    starts = []
    for card in cards:
        starts.append(len(lines) + 1)
        flow = yaml.dump(card, Dumper=_Dumper, default_flow_style=True, sort_keys=False, allow_unicode=True,
                         width=10**6).strip()
        if "\n" not in flow and len(flow) + 4 <= FLOW_WIDTH:
            lines.append(f"  - {flow}")
            continue
        block = yaml.dump([card], Dumper=_Dumper, default_flow_style=None, sort_keys=False, allow_unicode=True,
                          width=FLOW_WIDTH - 4)
        lines.extend("  " + line if line else line for line in block.rstrip("\n").split("\n"))
    if not cards:
        lines[-1] = "cards: []"
    text = "\n".join(lines) + "\n"
    reread = yaml.safe_load(text)
    if reread != {"cards": cards}:  # pragma: no cover - a bug in the writer, never the user's input
        raise AssertionError("the deck file written does not read back as the cards given")
    return text, starts


def write_text(path: Path, text: str) -> None:
    """Writes `text` to `path` atomically: a temporary file beside it, renamed into place when complete."""
    with atomic_write(path) as temporary:
        temporary.write_text(text, encoding="utf-8", newline="\n")


@dataclass
class Imported:
    """What `import_deck` did: the file written (None when the sheet had errors) and every finding."""

    output: Path | None
    cards: int
    copies: int
    findings: list[Finding]
    note: str = ""


def import_deck(source: Path, game_path: str | Path, deck_id: str, output: Path | None = None,
                sheet: str | None = None) -> Imported:
    """Reads the sheet, writes the deck file when no cell has an error, and validates the game with it.

    A MusterError when the sheet, the game or the deck cannot be used at all.
    """
    from ..checking import check_game
    from ..reading.loading import load_game

    game = load_game(game_path)
    deck = _deck(game, deck_id)
    if output is None:
        if len(deck.files) != 1:
            names = ", ".join(p.name for p in deck.files)
            raise MusterError(f"deck '{deck_id}' is read from {len(deck.files)} files ({names}): "
                              "name the one to write with --output")
        output = deck.files[0]
    output = Path(output)
    if output.suffix.lower() not in (".yaml", ".yml"):
        raise MusterError(f"--output: a deck file ends in .yaml, got '{output.name}'")
    read = cards_from_sheet(read_sheet(source, sheet), game)
    if read.errors:
        return Imported(None, len(read.cards), 0, read.findings)
    comment = (f"Deck '{deck_id}' of {game.title}, imported from {Path(source).name} by `muster import`.\n"
               "Edit the sheet and import it again, or edit this file (importing again replaces it).")
    text, starts = deck_yaml(read.cards, comment)
    write_text(output, text)
    copies = sum(card.get("count", 1) for card in read.cards)
    note = ""
    if output.resolve() not in [p.resolve() for p in deck.files]:
        note = (f"deck '{deck_id}' is read from {', '.join(display_path(p) for p in deck.files)}, not from "
                f"{display_path(output)}: the validation does not see the imported cards")
    findings = check_game(load_game(game.root))
    located = [_in_sheet(f, output, starts, read, Path(source)) for f in findings]
    return Imported(output, len(read.cards), copies, read.findings + located, note)


def _deck(game: Game, deck_id: str):
    if deck_id not in game.decks:
        raise MusterError(f"game '{game.id}' has no deck '{deck_id}'"
                          + did_you_mean(deck_id, game.decks, f" (its decks: {', '.join(game.decks)})"))
    return game.decks[deck_id]


def _in_sheet(finding: Finding, output: Path, starts: list[int], read: Cards, source: Path) -> Finding:
    """A finding about the written deck file, placed at the sheet's row and column instead (the sheet is what
    the user edits); other findings as they are."""
    where = finding.where
    if where is None or not where.line or Path(where.path).resolve() != output.resolve():
        return finding
    index = max((i for i, start in enumerate(starts) if start <= where.line), default=None)
    if index is None:
        return finding
    key = finding.field.rsplit(".", 1)[-1] if "." in finding.field else ""
    column = read.columns.get(key, 1)

    def row_of(match: re.Match) -> str:  # "first at line 12" of the deck file: the sheet's row instead
        line = int(match.group(1))
        card = max((i for i, start in enumerate(starts) if start <= line), default=None)
        return match.group(0) if card is None else f"first at row {read.rows[card]}"

    message = re.sub(r"first at line (\d+)", row_of, finding.message)
    return Finding(finding.severity, Location(source, read.rows[index], column), key if key in read.columns else "",
                   message)


# --- decks into sheets -----------------------------------------------------------------------------------------

def deck_table(game: Game, deck_id: str) -> tuple[list[str], list[list[Any]]]:
    """The header and rows of a deck's cards as its files give them: title, count, the traits in the game's
    order, then designed, id and note; only the columns some card uses."""
    deck = _deck(game, deck_id)
    raw_cards = []
    for path in deck.files:
        data = load_yaml(path)
        if not isinstance(data, Map) or not isinstance(data.get("cards"), Seq):
            raise MusterError("expected a mapping with a list under 'cards'", Location(path, 1, 1))
        raw_cards.extend(card for card in data["cards"] if isinstance(card, Map))
    used = {key for card in raw_cards for key in card}
    order = ["title", "count", *game.traits, "designed", "id", "note"]
    header = [key for key in order if key in used]
    header += [key for card in raw_cards for key in card if key not in order]  # keys the game does not know
    header = list(dict.fromkeys(header))
    rows = [[_export_value(card.get(key)) for key in header] for card in raw_cards]
    return header, rows


def _export_value(value):
    """A deck file's value as a cell: lists of codes joined with spaces, an empty list as []."""
    if isinstance(value, list):
        return " ".join(str(v) for v in value) if value else EMPTY_LIST
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def write_csv(header: list[str], rows: list[list[Any]], output: Path | None) -> None:
    """The table as CSV (UTF-8, comma-separated) to `output`, atomically, or to standard output when None."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow(["" if v is None else ("true" if v is True else "false" if v is False else v) for v in row])
    if output is None:
        import sys

        sys.stdout.write(buffer.getvalue())
        sys.stdout.flush()
    else:
        write_text(Path(output), buffer.getvalue())


def write_xlsx(header: list[str], rows: list[list[Any]], output: Path, title: str = "cards") -> None:
    """The table as an .xlsx workbook of one sheet, header row bold and frozen, written atomically."""
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    book = Workbook()
    sheet = book.active
    sheet.title = re.sub(r"[\[\]:*?/\\]", "-", title)[:31] or "cards"
    for column, name in enumerate(header, 1):
        sheet.cell(1, column, name).font = Font(bold=True)
    for number, row in enumerate(rows, 2):
        for column, value in enumerate(row, 1):
            if value is None:
                continue
            cell = sheet.cell(number, column)
            cell.value = value
            if isinstance(value, str):
                cell.data_type = "s"  # text that starts with '=' stays text, never a formula
    sheet.freeze_panes = "B2"
    for column, name in enumerate(header, 1):
        widest = max([len(name)] + [len(str(row[column - 1])) for row in rows if row[column - 1] is not None])
        sheet.column_dimensions[get_column_letter(column)].width = min(60, max(6, widest + 2))
    with atomic_write(Path(output)) as temporary:
        book.save(temporary)
