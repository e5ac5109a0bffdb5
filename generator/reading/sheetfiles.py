"""Spreadsheet files read into rows of cells within bounds: CSV and TSV as text, XLSX by openpyxl once its zip and
XML have passed. worksheets.py finds the header row among them and types the cells.

Every limit holds before what it limits is in memory. A sheet file is read through core/inputs.py (a regular
file of at most 16 MiB). An .xlsx is a zip of XML parts, and both can be far bigger inside than the file is: a
1 MB file can hold a cell of a gigabyte or millions of shared strings, and XML can declare entities that expand
("billion laughs"). So the sizes the zip declares are summed first (zipfile never unpacks more of an entry than
it declares), then every XML part is parsed by expat as it unpacks, keeping nothing: a DTD is refused, and each
cell's characters, each row's columns and the shared strings are counted. Only a workbook within every limit is
handed to openpyxl, which streams its rows in read-only mode, values as the file last saved them (a formula's
computed value, the empty text included; a formula saved without one, as programs that do not compute formulas write
them, arrives as UNCOMPUTED). The <dimension> a sheet declares is not believed either way (writers get it wrong;
A1:XFD1048576 is common): what is counted is what is there, and a sheet's extent is the cells that hold data. Writers
style whole rows and columns, so a cell with a style and no value counts for no limit, and a row ends at its last
cell with data.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
import zlib
from pathlib import Path
from typing import Iterator

from ..core import codes
from ..core.errors import Location, MusterError
from ..core.inputs import MIB, SHEET, YAML, read_bytes

MAX_ROWS = 20_000             # rows of cards, below the header
MAX_COLUMNS = 500
MAX_CELLS = 1_000_000         # the rows' widths added up, as they are handed over
MAX_CELL_CHARS = 32_767       # Excel's own limit for one cell
MAX_TEXT_CHARS = YAML.limit   # all the cells' text: more would not fit in the deck file an import writes
MAX_UNPACKED_BYTES = 64 * MIB  # an .xlsx's parts, unpacked
MAX_PARTS = 1_000             # entries in an .xlsx's zip
_READ = 64 * 1024             # bytes of a part given to expat at a time

Rows = Iterator[tuple[int, list]]


class _Uncomputed:
    """The cell of a formula whose file holds no computed value (openpyxl would give None, as for an empty cell)."""

    def __repr__(self) -> str:
        return "UNCOMPUTED"


UNCOMPUTED = _Uncomputed()
_BROKEN = (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, OSError, EOFError, KeyError, ValueError, TypeError,
           IndexError, AttributeError, SyntaxError)


def sheet_rows(path: Path, sheet: str | None) -> Rows:
    """(row number, cells) of each row of a .csv, .tsv or .xlsx file that holds data, up to its last cell with
    data; a MusterError at the file, row and column where it cannot be read or goes over a limit."""
    data = read_bytes(path, SHEET)
    suffix = path.suffix.lower()
    rows = _xlsx_rows(path, data, sheet) if suffix == ".xlsx" else _csv_rows(path, data, suffix == ".tsv")
    tally = _Tally(path)
    for number, row in rows:
        while row and _empty(row[-1]):
            row.pop()
        if not row:
            continue
        tally.row(number, len(row))
        for column, cell in enumerate(row, 1):
            if isinstance(cell, str):
                tally.text(len(cell), len(cell), number, column)
        yield number, row


class _Tally:
    """What a sheet holds, counted as it arrives and held to the limits: rows, their widths, and characters."""

    def __init__(self, path: Path):
        self.path = path
        self.cells = self.characters = 0

    def row(self, number: int, width: int) -> None:
        """A row of `width` columns (the last one it has)."""
        if number > MAX_ROWS + 1:
            raise self.over(f"more than {MAX_ROWS:,} rows below the header", number, 1)
        self.column(number, width)
        self.cells += width
        if self.cells > MAX_CELLS:
            raise self.over(f"more than {MAX_CELLS:,} cells", number, 1)

    def column(self, row: int, column: int) -> None:
        if column > MAX_COLUMNS:
            raise self.over(f"more than {MAX_COLUMNS} columns", row, column)

    def text(self, cell: int, added: int, row: int = 0, column: int = 0) -> None:
        """`added` characters more, of a cell that now has `cell`."""
        if cell > MAX_CELL_CHARS:
            raise self.over(f"a cell of more than {MAX_CELL_CHARS:,} characters (the most a spreadsheet cell holds)",
                            row, column)
        self.characters += added
        if self.characters > MAX_TEXT_CHARS:
            raise self.over(f"the cells hold more than {MAX_TEXT_CHARS:,} characters, more than a deck file may",
                            row, column)

    def over(self, what: str, row: int, column: int) -> MusterError:
        return MusterError(f"{what}: refused", Location(self.path, row, column), code="too-large")


def _empty(cell) -> bool:
    """Whether a cell holds no data: None (an .xlsx cell with only a style) or an empty text."""
    return cell is None or cell == ""


def _csv_rows(path: Path, data: bytes, tabs: bool) -> Rows:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise MusterError(f"not UTF-8 text (byte {exc.start}): save the sheet as 'CSV UTF-8', or as .xlsx",
                          Location(path), code="bad-encoding") from None
    if tabs:
        delimiter = "\t"
    else:
        first = text.split("\n", 1)[0]
        counts = {d: first.count(d) for d in (",", ";", "\t")}
        delimiter = max(counts, key=counts.get) if any(counts.values()) else ","
    if text.count(delimiter) > MAX_CELLS:  # every cell but a row's first follows one: refused before any is made
        raise _Tally(path).over(f"more than {MAX_CELLS:,} cells", 0, 0)
    try:
        yield from enumerate(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True), 1)
    except csv.Error as exc:
        raise MusterError(f"not a readable CSV file: {exc}", Location(path), code="unreadable") from None


def _xlsx_rows(path: Path, data: bytes, sheet: str | None) -> Rows:
    from openpyxl import load_workbook
    from openpyxl.utils.exceptions import InvalidFileException

    uncomputed = _check_workbook(path, data)
    book = None
    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        if sheet is None and not book.worksheets:
            raise MusterError("the workbook has no worksheet", Location(path), code="empty-sheet")
        if sheet is not None and sheet not in book.sheetnames:
            raise MusterError(f"no worksheet '{sheet}' (the file has: {', '.join(book.sheetnames)})", Location(path),
                              code="unknown-sheet")
        worksheet = book.worksheets[0] if sheet is None else book[sheet]
        worksheet.reset_dimensions()  # read every row, whatever size the file claims (some writers get it wrong)
        formulas = uncomputed.get(worksheet._worksheet_path.lstrip("/"), set())
        for number, cells in enumerate(worksheet.iter_rows(values_only=True), 1):
            cells = list(cells)
            for row, column in formulas:
                if row == number and column <= len(cells):
                    cells[column - 1] = UNCOMPUTED
            yield number, cells
    except (InvalidFileException, *_BROKEN) as exc:  # openpyxl meets a broken part with whatever Python raises
        raise _unreadable(path, exc) from None
    finally:
        if book is not None:
            book.close()


def _unreadable(path: Path, exc: Exception) -> MusterError:
    return MusterError(f"not a readable .xlsx file ({type(exc).__name__}: {str(exc)[:200]})", Location(path),
                       code="unreadable")


def _check_workbook(path: Path, data: bytes) -> dict[str, set[tuple[int, int]]]:
    """The zip's entries and every XML part held to the limits, streaming, before openpyxl reads any of it; gives
    the (row, column) of each formula saved without its value, by the worksheet part that holds it."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        entries = archive.infolist()
    except _BROKEN as exc:
        raise _unreadable(path, exc) from None
    if len(entries) > MAX_PARTS:
        raise MusterError(f"a zip of {len(entries):,} parts; the limit is {MAX_PARTS:,}", Location(path),
                          code="too-large")
    unpacked = sum(entry.file_size for entry in entries)
    if unpacked > MAX_UNPACKED_BYTES:
        raise MusterError(f"its parts unpack to {unpacked:,} bytes; the limit is {MAX_UNPACKED_BYTES:,}",
                          Location(path), code="too-large")
    tally = _Tally(path)
    uncomputed = {}
    for entry in entries:
        if entry.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):  # all that .xlsx writers use
            raise MusterError(f"not a readable .xlsx file ({entry.filename} is packed by method "
                              f"{entry.compress_type})", Location(path), code="unreadable")
        try:
            with archive.open(entry) as part:
                check = _PartCheck(tally, entry.filename)
                check.scan(part)
        except (RuntimeError, *_BROKEN) as exc:  # RuntimeError: an encrypted part
            raise _unreadable(path, exc) from None
        if check.uncomputed:
            uncomputed[entry.filename] = check.uncomputed
    return uncomputed


_CELL_REFERENCE = re.compile(r"([A-Za-z]{1,3})?")


class _PartCheck:
    """One part of a workbook parsed by expat as it unpacks, keeping nothing but counts: a DTD refused; in a
    worksheet, each row's number and width and each cell's characters, and the cells of formulas saved without
    their value (no value, or an empty one that is not text: a formula's empty text result is a value, t="str"); in
    the shared strings, their number and characters."""

    def __init__(self, tally: _Tally, name: str):
        self.tally, self.name = tally, name
        self.root = None
        self.row = self.column = 0
        self.width = 0          # of the row under way: its last cell with data
        self.counting = False   # inside a cell or a shared string
        self.characters = 0     # of the cell or shared string under way
        self.strings = 0
        self.parts: set[str] = set()  # what the cell under way holds: a formula (f), a value (v, not empty)
        self.element = ""
        self.uncomputed: set[tuple[int, int]] = set()  # cells holding a formula and no value

    def scan(self, part) -> None:
        from xml.parsers import expat

        head = part.read(_READ)
        start = head.lstrip(b" \t\r\n\x00\xef\xbb\xbf\xfe\xff")[:1]
        if start and start != b"<":
            return  # not XML (an image, say), which openpyxl does not parse: XML may start only with spaces and <
        parser = expat.ParserCreate()
        parser.StartDoctypeDeclHandler = parser.EntityDeclHandler = self.declaration
        parser.StartElementHandler = self.start
        parser.EndElementHandler = self.end
        parser.CharacterDataHandler = self.text
        parser.buffer_text = True
        try:
            while head:
                parser.Parse(head, False)
                head = part.read(_READ)
            parser.Parse(b"", True)
        except expat.ExpatError as exc:
            raise MusterError(f"not a readable .xlsx file ({self.name}: {expat.ErrorString(exc.code)}, line "
                              f"{exc.lineno})", Location(self.tally.path), code="unreadable") from None

    def declaration(self, *_) -> None:
        raise MusterError.of(codes.UNSAFE_XML, Location(self.tally.path), part=self.name)

    def start(self, tag: str, attributes: dict) -> None:
        name = tag.rpartition(":")[2]
        self.element = name
        if self.root is None:
            self.root = name
        elif self.root == "worksheet" and name == "row":
            self.row = int(attributes["r"]) if attributes.get("r", "").isdigit() else self.row + 1
            self.column = self.width = 0
        elif self.root == "worksheet" and name == "c":
            self.column = max(self.column, _column(attributes.get("r", ""), self.column + 1))
            self.counting, self.characters = True, 0
            # a formula giving text says so (t="str"): an empty value is then the empty string it computed
            self.parts = {"v"} if attributes.get("t") == "str" else set()
        elif self.root == "worksheet" and name == "f":
            self.parts.add(name)
        elif self.root == "sst" and name == "si":
            self.strings += 1
            if self.strings > MAX_CELLS:
                raise self.tally.over(f"more than {MAX_CELLS:,} shared strings", 0, 0)
            self.counting, self.characters = True, 0

    def end(self, tag: str) -> None:
        name = tag.rpartition(":")[2]
        self.element = ""
        if name in ("c", "si"):
            self.counting = False
            if name == "c" and self.parts == {"f"}:
                self.uncomputed.add((self.row, self.column))
            if name == "c" and (self.parts or self.characters):
                self.width = self.column
                self.tally.column(self.row, self.column)
        elif name == "row" and self.root == "worksheet" and self.width:
            self.tally.row(self.row, self.width)

    def text(self, data: str) -> None:
        if self.element == "v" and data.strip():
            self.parts.add("v")
        if self.counting:
            self.characters += len(data)
            self.tally.text(self.characters, len(data), self.row, self.column)


def _column(reference: str, otherwise: int) -> int:
    """The column number of a cell reference such as 'C7' (A is 1); `otherwise` when it names none."""
    number = 0
    for letter in _CELL_REFERENCE.match(reference).group(1) or "":
        number = number * 26 + ord(letter.upper()) - ord("A") + 1
    return number or otherwise
