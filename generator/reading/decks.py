"""Decks from game.yaml and their cards from the deck files (YAML, or spreadsheets read on every build): what
each deck prints as, every card's values."""

from __future__ import annotations

import re
import unicodedata
import dataclasses
from functools import cached_property
from pathlib import Path

from ..core import codes
from ..core.errors import Finding, Location, MusterError, did_you_mean
from ..core.model import Card, Deck, Grouping, PrintFormat, SheetMapping, frozen
from .kinds import describe
from .reader import Reader, at, join
from .rereading import DeckFiles
from ..core.files import confined
from ..core.inputs import SHEET_SUFFIXES
from .sourcemap import Map, Seq, load_yaml
from .spec import CARD, DECK, DECK_FILE, FORMAT, GAME, GROUP, RESERVED_CARD_KEYS
from .traits import parse_trait

_TITLE, _COUNT, _ID, _DESIGNED, _NOTE, _SET = (CARD[name] for name in ("title", "count", "id", "designed", "note",
                                                                     "set"))


def slug(text: str) -> str:
    """A file- and URL-safe id: 'Admiral Dönitz' -> 'admiral-donitz'."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-") or "card"


@dataclasses.dataclass
class _Source:
    """How a deck's files are read: its id and traits, whether its cards need titles, and for a spreadsheet its
    worksheet, the columns mapped to keys and the columns left unread."""

    deck_id: str
    traits: dict
    vocabularies: dict
    titled: bool = True
    sets: tuple[str, ...] = ()  # the game's sets; their first is a card's set when neither it nor its deck names one
    set: str = ""  # the deck's set
    mapping: SheetMapping = SheetMapping()

    @cached_property
    def texts(self) -> tuple[str, ...]:
        """The traits of kind text: translated, as a card's text keys are."""
        return tuple(name for name, trait in self.traits.items() if trait.kind == "text")


def read_decks(reader: Reader, data: Map, root: Path, traits: dict, vocabularies: dict,
               card_size: tuple[float, float], sets: tuple[str, ...] = (), deck_files: DeckFiles | None = None
               ) -> dict[str, Deck]:
    """The game's decks and their cards; with `deck_files`, the deck files as last read kept there, each read
    again only as far as it changed (rereading.py)."""
    result = {}
    for deck_id, body, field, where in reader.entries(data, GAME["decks"], "deck"):
        reader.keys(body, field, DECK)
        if ("file" in body) == ("files" in body):
            reader.error(body.where, field, "give either file or files",
                         "key-conflict" if "file" in body else "missing-key")
            continue
        names = [body["file"]] if "file" in body else body["files"]
        if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
            reader.error(at(body, "files"), join(field, "files"), "expected a list of file names", "wrong-type")
            continue
        printing = _print_format(reader, body, field, card_size)
        source = _source(reader, body, field, _Source(deck_id, traits, vocabularies, printing.component == "cards",
                                                      sets), names)
        source.set = _set(reader, body, DECK["set"], field, sets, sets[0] if sets else "")
        cards: list[Card] = []
        files = []
        complete = True
        for name in names:
            try:
                path = confined(root, name)
            except MusterError as problem:
                reader.keep(problem, at(body, "file" if "file" in body else "files"), field)
                complete = False
                continue
            files.append(path)
            read = _cards(reader, path, source, len(cards), deck_files)
            complete = complete and read is not None
            cards.extend(read or ())
        style = reader.section(body, DECK["style"], field)
        reader.free(style, join(field, "style"), owner=f"deck '{deck_id}'")
        result[deck_id] = Deck(
            id=deck_id,
            name=reader.value(body, DECK["name"], field, default=deck_id),
            files=tuple(files),
            size=reader.value(body, DECK["size"], field),
            face=body.get("face"),
            back=body.get("back"),
            style=frozen(style),
            cards=tuple(cards),
            where=where,
            size_where=at(body, "size"),
            format=dataclasses.replace(printing, paper=reader.value(body, DECK["paper"], field)),
            complete=complete,
            group=_grouping(reader, body, field, traits), mapping=source.mapping,
        )
    return result


def _set(reader: Reader, data: Map, key, field: str, sets: tuple[str, ...], default: str) -> str:
    """The set named under `key` of `data` (a deck's, a card's), `default` when it names none; an error when it
    is no set of the game's."""
    name = reader.value(data, key, field, default=None)
    if name is None:
        return default
    if name not in sets:
        known = f" (the game's sets: {', '.join(sets)})" if sets else " (the game declares no sets:)"
        reader.error(at(data, key.name), join(field, key.name),
                     codes.UNKNOWN_SET.message(name=name, hint=did_you_mean(name, sets, known)), codes.UNKNOWN_SET.name)
        return default
    return name


def _grouping(reader: Reader, body: Map, field: str, traits: dict) -> Grouping | None:
    """How the deck's counters are set in blocks (`group:`), its traits known; None when not grouped."""
    if "group" not in body:
        return None
    spec = reader.section(body, DECK["group"], field)
    field = join(field, "group")
    reader.keys(spec, field, GROUP)
    by = spec.get("by")
    if by is None:  # reported by Reader.keys
        return None
    by = [by] if isinstance(by, str) else by
    if not isinstance(by, list) or not by or not all(isinstance(name, str) for name in by):
        reader.error(at(spec, "by"), join(field, "by"), "expected a trait or a list of traits", "wrong-type")
        return None
    for name in by:
        if name not in traits:
            reader.error(at(spec, "by"), join(field, "by"),
                         f"unknown trait '{name}'{did_you_mean(name, list(traits))}", "unknown-trait")
            return None
    return Grouping(tuple(by), reader.value(spec, GROUP["label"], field, default=None), spec.where)


def _print_format(reader: Reader, body: Map, field: str, card_size: tuple[float, float]) -> PrintFormat:
    """What a deck prints as: its component and format: (defaults: the game's cards); its paper is read with the
    deck's other keys, after its cards (see read_decks)."""
    component = reader.value(body, DECK["component"], field)
    spec = reader.section(body, DECK["format"], field)
    field = join(field, "format")
    reader.keys(spec, field, FORMAT)
    safe = reader.value(spec, FORMAT["safe"], field, default=None)
    size = reader.value(spec, FORMAT["size"], field, default=card_size)
    shape, packing = reader.value(spec, FORMAT["shape"], field), reader.value(spec, FORMAT["packing"], field)
    return PrintFormat(component, size, shape, packing, safe,
                       orientation=reader.value(spec, FORMAT["orientation"], field))


def _source(reader: Reader, body: Map, field: str, source: _Source, names: list[str]) -> _Source:
    """The deck's spreadsheet keys (sheet, columns, ignore) read into `source`; an error when they are given for
    a deck that has no spreadsheet to apply them to."""
    columns = reader.section(body, DECK["columns"], field)
    keys = (*RESERVED_CARD_KEYS, *source.traits)
    mapped = {}
    for header, key in columns.items():
        if key in keys:
            mapped[str(header)] = key
        else:
            reader.error(columns.value_where[header], join(join(field, "columns"), header),
                         f"{describe(key)} is not a card key" + did_you_mean(key, keys, f" (the card keys: "
                                                                              f"{', '.join(keys)})"), "unknown-key")
    sheets = [suffix for suffix in (Path(name).suffix.lower() for name in names) if suffix in SHEET_SUFFIXES]
    for key, applies, what in (("sheet", ".xlsx" in sheets, "an .xlsx"), ("columns", sheets, "a spreadsheet"),
                               ("ignore", sheets, "a spreadsheet")):
        if key in body and not applies:
            reader.error(at(body, key), join(field, key), f"applies to {what} deck file; this deck has none",
                         "key-conflict")
    source.mapping = SheetMapping(reader.value(body, DECK["sheet"], field), frozen(mapped),
                                  reader.value(body, DECK["ignore"], field))
    return source


def _sheet_cards(reader: Reader, path: Path, source: _Source, files: DeckFiles | None
                 ) -> tuple[Seq, frozenset[str]] | None:
    """A spreadsheet's rows as card mappings, each value placed at its cell, and the keys a column's name is a
    typo for; None when it cannot be read. With `files`, a row as it was the last time is the mapping made then."""
    from .worksheets import card_maps, read_header, read_sheet, unknown_columns  # a game with sheets only

    try:
        sheet = read_sheet(path, source.mapping.sheet if path.suffix.lower() == ".xlsx" else None)
    except MusterError as problem:
        reader.keep(problem, Location(path), "")
        return None
    header = read_header(sheet, source.traits, source.mapping.columns, source.mapping.ignore)
    reader.findings.extend(header.findings)
    misspelt = header.misspelt((*RESERVED_CARD_KEYS, *source.traits))
    unknown = unknown_columns(sheet, header, misspelt)
    if unknown:
        reader.findings.append(unknown)
    named = {str(cell).strip() for cell in sheet.header if cell is not None}
    for name in source.mapping.columns:
        if name not in named:
            reader.findings.append(Finding.of(codes.MISSING_COLUMN, Location(path, sheet.header_row, 1), name=name,
                                              hint=did_you_mean(name, named)))
    if source.titled and "title" not in header.columns:
        reader.error(Location(path, sheet.header_row, 1), "title", "no title column: name one Title or Name, or "
                     "map one (columns: {Header: title}); only a deck of tokens may go without", "missing-key")
        return None
    known = files.rows(path, (tuple(header.keys.items()), source.traits)) if files is not None else None
    return card_maps(sheet, header, source.traits, reader.findings, known), frozenset(misspelt.values())


def _yaml_cards(reader: Reader, path: Path, files: DeckFiles | None) -> tuple[Seq, frozenset[str]] | None:
    """A deck file's list of card mappings (and no misspelt keys, which are a sheet's header's); None when the
    file cannot be read as one. With `files`, only the entries a save changed are parsed again."""
    try:
        data = load_yaml(path) if files is None else files.load(path)
    except MusterError as problem:
        reader.keep(problem, None, "")
        return None
    if not isinstance(data, Map) or not isinstance(data.get("cards"), Seq):
        reader.error(Location(path, 1, 1), "cards", "expected a mapping with a list under 'cards'", "wrong-type")
        return None
    reader.keys(data, "", DECK_FILE)
    return data["cards"], frozenset()


def _cards(reader: Reader, path: Path, source: _Source, start: int, files: DeckFiles | None) -> list[Card] | None:
    """The cards of one deck file; None when the file cannot be read as a list of cards at all. With `files`, the
    card of an entry that is the same object as when its file was last read (a sheet's row: the same values in the
    same cells), at the same place, as the same source says, is the one made then, with the findings made then; the
    card of an entry that only moved (lines added or taken away above it) is the one made then, at its new place,
    when its title names it and it had no findings (whose fields and messages name its place)."""
    sheet = path.suffix.lower() in SHEET_SUFFIXES
    read = _sheet_cards(reader, path, source, files) if sheet else _yaml_cards(reader, path, files)
    if read is None:
        return None
    # a key whose column's name has a typo is reported once, at the header: not again as missing on every card
    raw_cards, misspelt = read
    made, fresh, moved = files.cards(path, (source, misspelt), start) if files is not None else ([], [], 0)
    cards = []
    for index, raw in enumerate(raw_cards):
        kept = made[index] if index < len(made) else None
        if kept is not None and index < moved and (kept[0] is raw or sheet and _same_row(kept[0], raw)):
            reader.findings.extend(kept[2])
        elif kept is not None and index >= moved and kept[1] is not None and kept[1].title and not kept[2]:
            kept = (raw, _moved(kept[1], raw_cards.item_where[index], start + index), ())
        else:
            raw = files.placed(path, raw_cards, index) if files is not None and not sheet else raw
            # the reader takes translations out of the mapping it reads: kept, the entry is read whole again later
            read = raw.copy() if files is not None and isinstance(raw, Map) else raw
            mark = len(reader.findings)
            kept = (raw, _card(reader, read, raw_cards.item_where[index], "" if sheet else f"cards[{index}]", source,
                               misspelt, start + index), tuple(reader.findings[mark:]))
        fresh.append(kept)
        if kept[1] is not None:
            cards.append(kept[1])
    return cards


def _moved(card: Card, where: Location, index: int) -> Card:
    """`card` at `where`, the `index`th of its deck, the places of its values moved as far as it moved (all in its
    entry, whose lines moved together). A save above thousands of cards moves them all."""
    lines = where.line - card.where.line
    moved = object.__new__(Card)  # a copy with three fields new: dataclasses.replace, by __init__, costs twice as much
    moved.__dict__.update(card.__dict__, where=where, index=index, field_where=frozen({
        key: Location(place.path, place.line + lines, place.column) for key, place in card.field_where.items()}))
    return moved


def _same_row(old, new) -> bool:
    """Whether two rows of one sheet, read as card mappings, hold the same values (of the same types: 1 == True in
    Python, not on a card) in the same cells."""
    return (isinstance(old, Map) and isinstance(new, Map) and old.where.line == new.where.line
            and list(old) == list(new) and all(type(a) is type(b) and a == b for a, b in zip(old.values(), new.values()))
            and [w.column for w in old.value_where.values()] == [w.column for w in new.value_where.values()]
            and [w.column for w in old.key_where.values()] == [w.column for w in new.key_where.values()])


def _card(reader: Reader, raw, where: Location, field: str, source: _Source, misspelt: frozenset[str],
          index: int) -> Card | None:
    """The card of one entry of a deck file (`field`: where in the file, "" for a sheet's row, whose findings are
    placed at their cell); None when the entry is no mapping."""
    if not isinstance(raw, Map):
        reader.error(where, field, f"expected a mapping, got {describe(raw)}", "wrong-type")
        return None
    traits = source.traits
    title = reader.value(raw, _TITLE, field)
    printed = reader.keys(raw, field, CARD, tuple(traits), source.texts, f"card {title!r}" if title else field)
    translated = (reader.attempt(at(raw, "title"), join(field, "title"), _TITLE.read, printed["title"])
                  if "title" in printed else None)  # in the language read: what prints; the title names it
    if not title and source.titled:
        reader.error(at(raw, "title"), join(field, "title"), "every card needs a title (a deck of tokens may "
                     "go without: component: tokens)", "missing-key")
    count = reader.value(raw, _COUNT, field)
    designed = reader.value(raw, _DESIGNED, field)
    values = {}
    invalid = {key for key in misspelt if key not in raw}
    for name, trait in traits.items():
        if name in raw and raw[name] is not None:
            try:
                values[name] = parse_trait(trait, raw[name], source.vocabularies)
            except MusterError as problem:
                reader.keep(problem, at(raw, name), join(field, name))
                invalid.add(name)
    field_where = {key: raw.value_where[key] for key in raw}
    identifier = slug(title) if title else f"{source.deck_id}-{index + 1}"
    return Card(
        title=title, id=reader.value(raw, _ID, field, default=identifier), count=count, traits=frozen(values),
        where=where, field_where=frozen(field_where), index=index, designed=designed,
        note=reader.value(raw, _NOTE, field), invalid=frozenset(invalid),
        set=_set(reader, raw, _SET, field, source.sets, source.set),
        translated_title=translated or "",
    )
