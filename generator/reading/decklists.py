"""A player's deck list read against a game: plain text as players write it (`3 Panzer IV`, `3x Panzer IV`,
`Panzer IV x3`, comments, `Arsenal:` sections naming a deck, `[pack-1]` set codes), or the same as YAML or CSV.

A list is untrusted input like a game's files: every line that will not do is one located finding, never a
traceback, and the whole file is refused (a MusterError) only when it cannot be read as text at all.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path

from ..core import codes
from ..core.errors import Finding, GameInvalid, Location, MusterError, did_you_mean, has_errors
from ..core.inputs import Allowance, read_bytes
from ..core.model import Card, Game, frozen
from .kinds import describe
from .sourcemap import Map, load_yaml

LIST_FILE = Allowance("deck list", 256 * 1024)
MAX_LINE_CHARS = 300     # a title is a line of a card; a longer line is junk
MAX_LIST_COPIES = 100    # copies of one card a list may ask for: more is a typo, not a deck
MAX_LIST_LINES = 2_000   # entries of one list
SUFFIXES = (".txt", ".dek", ".yaml", ".yml", ".csv")

_COMMENT = re.compile(r"^\s*(#|//)")
_TRAILING_COMMENT = re.compile(r"\s+(#|//).*$")
_SET_CODE = re.compile(r"\s*\[([^\[\]]*)\]\s*$")
_COUNT_FIRST = re.compile(r"^(\d+)\s*[xX×]?\s+(\S.*)$")
_COUNT_LAST = re.compile(r"^(\S.*?)\s+[xX×]\s*(\d+)$")
_SECTION = re.compile(r"^([^:]+):$")
_DIGITS = 7  # a count written longer is refused before it is read as a number


@dataclass(frozen=True)
class Entry:
    """One card a list asks for: the game's card, its deck, the copies, and the list's line."""

    card: Card
    deck: str
    count: int
    where: Location


@dataclass(frozen=True)
class DeckList:
    """A deck list read against a game: its entries in the list's order, and the findings of reading it."""

    path: Path
    entries: tuple[Entry, ...]
    findings: tuple[Finding, ...]

    @property
    def total(self) -> int:
        return sum(entry.count for entry in self.entries)


@dataclass(frozen=True)
class _Line:
    """A line of a list in any of its forms, before it is matched against the game."""

    where: Location
    deck: str | None   # the section it is under (a deck's id or name), if any
    deck_where: Location | None  # where that section opens
    count: str         # as written
    title: str         # as written, without its set code
    set: str | None    # the set code written, if any


def plain(text: str) -> str:
    """A title as matched when not exactly: without accents, case or repeated spaces ('Dönitz' -> 'donitz')."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(text.casefold().split())


def read_list(path: Path, game: Game) -> DeckList:
    """The deck list at `path` read against `game`; a MusterError when the file cannot be read as text."""
    data = read_bytes(path, LIST_FILE)
    suffix = path.suffix.lower()
    findings: list[Finding] = []
    if suffix in (".yaml", ".yml"):
        lines = _yaml_lines(path, findings)
    else:
        text = _text(path, data)
        lines = _csv_lines(path, text, findings) if suffix == ".csv" else _text_lines(path, text, findings)
    if len(lines) > MAX_LIST_LINES:
        raise MusterError(f"a deck list holds at most {MAX_LIST_LINES} cards, this one {len(lines)}",
                          Location(path), code="too-large")
    entries = tuple(_Matcher(game, findings).entries(lines))
    return DeckList(path, entries, tuple(sorted(findings, key=lambda finding: finding.where.line)))


def game_for_list(target, variants=(), sets=(), language: str | None = None) -> Game:
    """The game a list is read against: with the sets named, else with every set of the game (a list chooses its
    own cards: a format's rules say which sets it may draw on); in `language`, its cards still named by their
    source titles."""
    from .loading import load_game

    game = load_game(target, tuple(variants), tuple(sets), language)
    if sets or tuple(game.sets) == game.chosen_sets:
        return game
    return load_game(target, tuple(variants), tuple(game.sets), language)


def listed_game(game: Game, deck_list: DeckList) -> Game:
    """The game holding just the listed cards at the list's counts, each (and each of its values) placed at its
    line of the list; each
    deck's cards in the game's order, so that the order of the list's lines changes nothing. Decks the list takes
    no card from are left out, and so are the game's rules (they are about the whole game), its boards and its
    rulebook: the kit of a list is its cards. Its id is the game's and the list's name: eastern-front-my-deck."""
    listed = {(entry.deck, entry.card.id): entry for entry in deck_list.entries}
    decks = {}
    for deck in game.decks.values():
        cards = tuple(replace(card, count=listed[deck.id, card.id].count, where=listed[deck.id, card.id].where,
                              field_where=frozen({}))
                      for card in deck.cards if (deck.id, card.id) in listed)
        if cards:
            decks[deck.id] = replace(deck, cards=cards, size=None)
    stem = re.sub(r"[^a-z0-9]+", "-", plain(deck_list.path.stem)).strip("-") or "list"
    return replace(game, id=f"{game.id}-{stem}", decks=frozen(decks), rules=(), boards=frozen({}), rulebook=None)


def load_listed(target, path: Path, variants=(), sets=(), language: str | None = None) -> Game:
    """The game made of the deck list at `path` (listed_game), to build or export, in `language`; GameInvalid with
    the game's or the list's findings when either has errors."""
    game = game_for_list(target, variants, sets, language)
    deck_list = read_list(path, game) if not has_errors(game.findings) else None
    findings = list(game.findings) if deck_list is None else list(deck_list.findings)
    if has_errors(findings):
        raise GameInvalid(findings)
    return listed_game(game, deck_list)


def _text(path: Path, data: bytes) -> str:
    """The file as text: UTF-8 (with or without a byte-order mark), never binary."""
    if b"\0" in data:
        raise MusterError.of(codes.BINARY_FILE, Location(path), what="a deck list")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise MusterError("not UTF-8 text", Location(path, line, 1), code="bad-encoding") from None


def _error(findings: list[Finding], where: Location, field: str, code: codes.Code, **values) -> None:
    findings.append(Finding.of(code, where, field, **values))


def _text_lines(path: Path, text: str, findings: list[Finding]) -> list[_Line]:
    """The entries of a plain-text list: `COUNT TITLE`, `COUNTx TITLE` or `TITLE xCOUNT`, each with an optional
    `[set]` at its end; `Deck:` lines open a section; `#` and `//` start comments; blank lines are skipped."""
    lines, deck, deck_where = [], None, None
    for number, raw in enumerate(text.splitlines(), 1):
        where = Location(path, number, 1)
        if len(raw) > MAX_LINE_CHARS:
            _error(findings, where, "", codes.BAD_LINE, expected=f"a line of at most {MAX_LINE_CHARS} characters")
            continue
        if _COMMENT.match(raw) or not raw.strip():
            continue
        line = _TRAILING_COMMENT.sub("", raw).strip()
        section = _SECTION.match(line)
        if section:
            deck, deck_where = section.group(1).strip(), where
            continue
        code = _SET_CODE.search(line)
        set_code = code.group(1).strip() if code else None
        line = line[:code.start()].strip() if code else line
        match = _COUNT_FIRST.match(line)
        count, title = (match.group(1), match.group(2)) if match else (None, None)
        if match is None and (match := _COUNT_LAST.match(line)):
            title, count = match.group(1), match.group(2)
        if title is None or not all(ch.isprintable() or ch == "\t" for ch in line):
            _error(findings, where, "", codes.BAD_LINE, expected="COUNT TITLE (3 Panzer IV, 3x Panzer IV or Panzer IV "
                   "x3), a section such as Arsenal:, or a comment")
            continue
        lines.append(_Line(where, deck, deck_where, count, title.strip(), set_code))
    return lines


def _yaml_lines(path: Path, findings: list[Finding]) -> list[_Line]:
    """The entries of a YAML list: each deck (its id or name) -> a mapping of title -> count; a title may end with
    its [set]."""
    data = load_yaml(path)
    if not isinstance(data, Map):
        raise MusterError("expected a mapping of decks, each a mapping of title -> count", Location(path, 1, 1),
                          code="wrong-type")
    lines = []
    for deck, cards in data.items():
        if not isinstance(cards, Map):
            _error(findings, data.value_where[deck], str(deck), codes.WRONG_TYPE, expected="a mapping of title -> count",
                   got=describe(cards))
            continue
        for title, count in cards.items():
            where = cards.key_where[title]
            title = str(title)
            code = _SET_CODE.search(title)
            lines.append(_Line(where, str(deck), data.key_where[deck], "" if isinstance(count, bool) else str(count),
                               (title[:code.start()] if code else title).strip(),
                               code.group(1).strip() if code else None))
    return lines


def _csv_lines(path: Path, text: str, findings: list[Finding]) -> list[_Line]:
    """The entries of a CSV list: a header naming count and title (also qty, quantity, copies, name), and deck
    and set when given; one card a row."""
    rows = list(csv.reader(io.StringIO(text)))
    names = {"qty": "count", "quantity": "count", "copies": "count", "name": "title"}
    header = [names.get(cell.strip().lower(), cell.strip().lower()) for cell in (rows[0] if rows else [])]
    if "count" not in header or "title" not in header:
        raise MusterError("a CSV deck list needs a header row naming count and title", Location(path, 1, 1),
                          code="missing-column")
    lines = []
    for number, row in enumerate(rows[1:], 2):
        if not any(cell.strip() for cell in row):
            continue
        cells = dict(zip(header, (cell.strip() for cell in row)))
        where = Location(path, number, 1)
        if len(",".join(row)) > MAX_LINE_CHARS:
            _error(findings, where, "", codes.BAD_LINE, expected=f"a row of at most {MAX_LINE_CHARS} characters")
            continue
        lines.append(_Line(where, cells.get("deck") or None, where, cells.get("count", ""), cells.get("title", ""),
                           cells.get("set") or None))
    return lines


class _Matcher:
    """Lines matched against the game's cards: titles exactly, then without case and accents; each mistake one
    finding at its line."""

    def __init__(self, game: Game, findings: list[Finding]):
        self.game = game
        self.findings = findings
        self.decks = {deck.id: deck for deck in game.decks.values() if deck.format.component == "cards"} or dict(game.decks)
        self.deck_names = {plain(name): deck_id for deck_id, deck in self.decks.items()
                           for name in (deck_id, deck.name)}
        self.seen: dict[tuple[str, str], Location] = {}
        self.unknown_decks: set[Location] = set()  # sections already reported: their entries are skipped

    def entries(self, lines: list[_Line]):
        for line in lines:
            entry = self._entry(line)
            if entry is not None:
                yield entry

    def _entry(self, line: _Line) -> Entry | None:
        deck_id = None
        if line.deck is not None:
            deck_id = self.deck_names.get(plain(line.deck))
            if deck_id is None:
                if line.deck_where not in self.unknown_decks:
                    self.unknown_decks.add(line.deck_where)
                    names = [deck.name for deck in self.decks.values()]
                    _error(self.findings, line.deck_where, "deck", codes.UNKNOWN_DECK, name=line.deck,
                           game=self.game.id,
                           hint=did_you_mean(line.deck, names + list(self.decks), f" (its decks: {', '.join(names)})"))
                return None
        count = self._count(line)
        if line.set is not None and line.set not in self.game.sets:
            known = ", ".join(self.game.sets) or "none"
            self._error(line, "set", codes.UNKNOWN_SET, name=line.set,
                        hint=did_you_mean(line.set, self.game.sets, f" (its sets: {known})"))
            return None
        card, deck = self._card(line, deck_id)
        if card is None or count is None:
            return None
        if line.set is not None and card.set != line.set:
            self._error(line, "set", codes.WRONG_SET, title=card.title, set=card.set, listed=line.set)
            return None
        key = (deck, card.id)
        if key in self.seen:
            self._error(line, "title", codes.DUPLICATE_ENTRY, title=card.title, first=self.seen[key].line)
            return None
        self.seen[key] = line.where
        return Entry(card, deck, count, line.where)

    def _count(self, line: _Line) -> int | None:
        text = line.count.strip()
        if not text.isdigit() or len(text) > _DIGITS or not 1 <= int(text) <= MAX_LIST_COPIES:
            self._error(line, "count", codes.BAD_COUNT, most=MAX_LIST_COPIES, got=line.count[:20])
            return None
        return int(text)

    def _card(self, line: _Line, deck_id: str | None) -> tuple[Card | None, str]:
        decks = [self.decks[deck_id]] if deck_id else list(self.decks.values())
        for same in (lambda card: card.title == line.title, lambda card: plain(card.title) == plain(line.title)):
            found = [(card, deck.id) for deck in decks for card in deck.cards if same(card)]
            if len(found) > 1:
                shown = ", ".join(self.decks[deck].name for _, deck in found)
                self._error(line, "title", codes.AMBIGUOUS_TITLE, title=line.title, decks=shown)
                return None, ""
            if found:
                return found[0]
        titles = [card.title for deck in decks for card in deck.cards]
        elsewhere = [deck.name for deck in self.decks.values() if deck.id != deck_id
                     and any(plain(card.title) == plain(line.title) for card in deck.cards)]
        hint = f" (it is a card of {elsewhere[0]})" if elsewhere else did_you_mean(line.title, titles)
        where = f"deck '{self.decks[deck_id].name}'" if deck_id else self.game.id
        self._error(line, "title", codes.UNKNOWN_TITLE, title=line.title, scope=where, hint=hint)
        return None, ""

    def _error(self, line: _Line, field: str, code: codes.Code, **values) -> None:
        _error(self.findings, line.where, field, code, **values)
