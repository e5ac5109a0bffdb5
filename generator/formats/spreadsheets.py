"""Decks as spreadsheets: a sheet imported into a deck file, and a deck exported as a sheet.

Import reads the sheet (reading/worksheets.py: every cell typed and checked), writes the deck file when no cell has an
error, and validates the game with it; findings about the written file are placed at the sheet's rows and
columns, from their locations. Export writes the cards as their deck files give them (aliases and `1944+`
included), so that importing the export gives the same cards.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..core import codes
from ..core.errors import Finding, Location, MusterError, did_you_mean, display_path
from ..core.files import atomic_write
from ..core.model import Game
from ..core.written import xml_text, yaml_comment
from ..core.inputs import SHEET_SUFFIXES, YAML
from ..reading.reader import translation_of
from ..reading.sourcemap import Map, Seq, load_yaml
from ..reading.worksheets import (EMPTY_LIST, Cards, card_maps, cards_from_sheet, csv_cell,
                                  read_header, read_sheet)

FLOW_WIDTH = 118  # a card whose flow mapping fits on a line this long is written on one line, as the bundled decks are


# --- cards into a deck file ------------------------------------------------------------------------------------

class _Dumper(yaml.SafeDumper):
    pass


def _text(dumper, value: str):
    style = "|" if "\n" in value.rstrip("\n") else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)


def deck_yaml(cards: list[dict], comment: str = "") -> tuple[str, list[int]]:
    """A deck file holding `cards`, and the line each card starts on; a MusterError as soon as the file would be
    larger than Muster reads (core/inputs.py YAML), before the rest is written out."""
    lines = [f"# {yaml_comment(line)}".rstrip() for line in comment.splitlines()] + ["cards:"]
    starts = []
    size = sum(len(line) + 1 for line in lines)
    for card in cards:
        starts.append(len(lines) + 1)
        flow = yaml.dump(card, Dumper=_Dumper, default_flow_style=True, sort_keys=False, allow_unicode=True,
                         width=10**6).strip()
        if "\n" not in flow and len(flow) + 4 <= FLOW_WIDTH:
            lines.append(f"  - {flow}")
        else:
            block = yaml.dump([card], Dumper=_Dumper, default_flow_style=None, sort_keys=False, allow_unicode=True,
                              width=FLOW_WIDTH - 4)
            lines.extend("  " + line if line else line for line in block.rstrip("\n").split("\n"))
        size += sum(len(line.encode("utf-8")) + 1 for line in lines[starts[-1] - 1:])
        if size > YAML.limit:
            raise MusterError(f"the deck file would be more than {YAML.limit:,} bytes, the limit (reached at card "
                              f"{len(starts):,}): nothing written", code="too-large")
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


def write_deck(path: Path, text: str, source: Location) -> None:
    """Writes a deck file atomically once Muster reads it back as it will read the file; a MusterError at `source`,
    and the file as it was, when it would not."""
    with atomic_write(path) as temporary:
        temporary.write_text(text, encoding="utf-8", newline="\n")
        try:
            load_yaml(temporary)
        except MusterError as problem:
            raise MusterError(f"the deck file would not read back ({problem.message}): nothing written", source,
                              code=problem.code) from None


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
                              "name the one to write with --output", code="bad-option")
        output = deck.files[0]
    output = Path(output)
    if output.suffix.lower() not in (".yaml", ".yml"):
        raise MusterError(f"--output: a deck file ends in .yaml, got '{output.name}'", code="bad-option")
    read = cards_from_sheet(read_sheet(source, sheet), game, deck.format.component == "cards", deck.mapping)
    if read.errors:
        return Imported(None, len(read.cards), 0, read.findings)
    comment = (f"Deck '{deck_id}' of {game.title}, imported from {Path(source).name} by `muster import`.\n"
               "Edit the sheet and import it again, or edit this file (importing again replaces it).")
    try:
        text, starts = deck_yaml(read.cards, comment)
    except MusterError as problem:
        raise MusterError(problem.message, Location(Path(source)), code=problem.code) from None
    write_deck(output, text, Location(Path(source)))
    copies = sum(card.get("count", 1) for card in read.cards)
    note = ""
    if output.resolve() not in [p.resolve() for p in deck.files]:
        note = (f"deck '{deck_id}' is read from {', '.join(display_path(p) for p in deck.files)}, not from "
                f"{display_path(output)}: the validation does not see the imported cards")
    written = load_game(game.root)
    places = _SheetPlaces(Path(source), output.resolve(), starts, read, written.decks[deck_id])
    findings = [places.finding(f) for f in check_game(written)]
    return Imported(output, len(read.cards), copies, read.findings + findings, note)


def _deck(game: Game, deck_id: str):
    if deck_id not in game.decks:
        raise MusterError.of(codes.UNKNOWN_DECK, field="--deck", name=deck_id, game=game.id,
                             hint=did_you_mean(deck_id, game.decks, f" (its decks: {', '.join(game.decks)})"))
    return game.decks[deck_id]


class _SheetPlaces:
    """Places of the written deck file as the sheet's rows and columns: the sheet is what the user edits."""

    def __init__(self, source: Path, output: Path, starts: list[int], read: Cards, deck):
        self.source, self.output, self.starts, self.read = source, output, starts, read
        self.keys = {where: key for card in deck.cards for key, where in card.field_where.items()}

    def place(self, where: Location | None) -> tuple[Location, str] | None:
        """The sheet's cell of a place in the written file, and the card key written there ("" for a whole
        card); None for a place elsewhere."""
        if where is None or not where.line or Path(where.path).resolve() != self.output:
            return None
        index = max((i for i, start in enumerate(self.starts) if start <= where.line), default=None)
        if index is None:
            return None
        key = self.keys.get(where, "")
        return Location(self.source, self.read.rows[index], self.read.columns.get(key, 1)), key

    def finding(self, finding: Finding) -> Finding:
        """`finding` placed in the sheet when it is about the written file; as it is otherwise."""
        place = self.place(finding.where)
        if place is None:
            return finding
        where, key = place
        message, related = finding.message, finding.related
        related_place = self.place(related)
        if related_place is not None:  # the message names that place by its line in the file: in the sheet, its row
            message = message.replace(f"at line {related.line}", f"at row {related_place[0].line}")
            related = related_place[0]
        return Finding(finding.severity, where, key if key in self.read.columns else "", message, finding.code, related)


# --- decks into sheets -----------------------------------------------------------------------------------------

def deck_table(game: Game, deck_id: str) -> tuple[list[str], list[list[Any]]]:
    """The header and rows of a deck's cards as its files give them, YAML or spreadsheets: title, count, the
    traits in the game's order, then set, designed, id and note; only the columns some card uses. A key the deck's
    `columns:` maps a header to is written under that header, so that the sheet reads back as the deck does."""
    deck = _deck(game, deck_id)
    raw_cards = []
    for path in deck.files:
        raw_cards.extend(card for card in _raw_cards(game, deck, path) if isinstance(card, Map))
    used = {key for card in raw_cards for key in card}
    order = ["title", "count", *game.traits, "set", "designed", "id", "note"]
    keys = [key for key in order if key in used]
    keys += [key for card in raw_cards for key in card if key not in order]  # keys the game does not know
    keys = _translations_beside(list(dict.fromkeys(keys)))
    names = {key: header for header, key in deck.mapping.columns.items()}
    rows = [[_export_value(card.get(key)) for key in keys] for card in raw_cards]
    return [names.get(key, key) for key in keys], rows


def _translations_beside(keys: list[str]) -> list[str]:
    """The keys with each translation (`title:de`) right after its source key (`title`), as localisers keep a
    column per language beside the text it translates."""
    beside: dict[str, list[str]] = {}
    for key in keys:
        split = translation_of(key)
        if split is not None and split[0] in keys:
            beside.setdefault(split[0], []).append(key)
    moved = {key for translations in beside.values() for key in translations}
    return [each for key in keys if key not in moved for each in (key, *beside.get(key, ()))]


def _raw_cards(game: Game, deck, path: Path) -> Seq:
    """The card mappings of one of the deck's files, as the loader reads them; a MusterError at the first error."""
    if path.suffix.lower() not in SHEET_SUFFIXES:
        data = load_yaml(path)
        if not isinstance(data, Map) or not isinstance(data.get("cards"), Seq):
            raise MusterError("expected a mapping with a list under 'cards'", Location(path, 1, 1), code="wrong-type")
        return data["cards"]
    sheet = read_sheet(path, deck.mapping.sheet if path.suffix.lower() == ".xlsx" else None)
    findings: list[Finding] = []
    header = read_header(sheet, game.traits, deck.mapping.columns, deck.mapping.ignore)
    cards = card_maps(sheet, header, game.traits, findings)
    for finding in header.findings + findings:
        if finding.severity == "error":
            raise MusterError(finding.message, finding.where, finding.field, finding.code)
    return cards


def _export_value(value):
    """A deck file's value as a cell: lists of codes joined with spaces, an empty list as []."""
    if isinstance(value, list):
        return " ".join(str(v) for v in value) if value else EMPTY_LIST
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def write_csv(header: list[str], rows: list[list[Any]], output: Path | None) -> None:
    """The table as CSV (UTF-8, comma-separated) to `output`, atomically, or to standard output when None; text as
    every CSV Muster writes holds it (worksheets.csv_cell)."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([csv_cell(v) if isinstance(v, str) else "" if v is None else
                         "true" if v is True else "false" if v is False else v for v in row])
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
    sheet.title = re.sub(r"[\[\]:*?/\\]", "-", xml_text(title))[:31] or "cards"
    for column, name in enumerate(header, 1):
        sheet.cell(1, column, xml_text(name)).font = Font(bold=True)
    for number, row in enumerate(rows, 2):
        for column, value in enumerate(row, 1):
            if value is None:
                continue
            cell = sheet.cell(number, column)
            cell.value = xml_text(value) if isinstance(value, str) else value  # a workbook is XML
            if isinstance(value, str):
                cell.data_type = "s"  # text that starts with '=' stays text, never a formula
    sheet.freeze_panes = "B2"
    for column, name in enumerate(header, 1):
        widest = max([len(name)] + [len(str(row[column - 1])) for row in rows if row[column - 1] is not None])
        sheet.column_dimensions[get_column_letter(column)].width = min(60, max(6, widest + 2))
    packed = io.BytesIO()  # openpyxl's own file, left to the garbage collector, would fail there on a full disk
    book.save(packed)
    with atomic_write(Path(output)) as temporary:
        temporary.write_bytes(packed.getvalue())
