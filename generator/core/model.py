"""The game as plain frozen objects: what the loader produces and every later stage reads."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from .errors import Finding, Location
from .fonts import FontBook

TRAIT_KINDS = ("text", "integer", "number", "boolean", "code", "codes", "year_from")


@dataclass(frozen=True)
class Term:
    """One code of a vocabulary: `E` -> East Front."""

    code: str
    name: str
    short: str
    icon: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Vocabulary:
    """The codes a code or codes trait may take (`terms`), and the aliases that stand for several codes."""

    name: str
    terms: Mapping[str, Term]
    aliases: Mapping[str, tuple[str, ...]]

    def expand(self, code: str) -> tuple[str, ...] | None:
        """The codes a code or alias stands for; None when it is neither."""
        if code in self.terms:
            return (code,)
        return self.aliases.get(code)

    @property
    def single_letters(self) -> bool:
        return all(len(code) == 1 for code in self.terms)

    def split(self, text: str) -> list[str]:
        """The codes and aliases a codes string is written with: 'E W', 'E,W', or 'EW' when every code is one
        letter; a whole alias or code stays whole."""
        text = text.strip()
        if self.expand(text) is not None:
            return [text]
        if self.single_letters and not re.search(r"[\s,]", text):
            return list(text)
        return [part for part in re.split(r"[\s,]+", text) if part]


@dataclass(frozen=True)
class Trait:
    """A card value the game declares: its kind (text, integer, code, ...), vocabulary, bounds, label."""

    name: str
    kind: str
    label: str
    vocabulary: str | None = None
    minimum: float | None = None
    maximum: float | None = None
    also: tuple[str, ...] = ()
    description: str = ""


@dataclass(frozen=True)
class Card:
    """One card of a deck as its deck file gives it: title, id, copies, traits, and where each value came from."""

    title: str
    id: str
    count: int
    traits: Mapping[str, Any]
    where: Location
    field_where: Mapping[str, Location]
    index: int
    designed: bool = False
    note: str = ""
    invalid: frozenset[str] = frozenset()  # traits given with a value the loader could not accept
    set: str = ""  # the set (sets: in game.yaml) the card comes in; "" when the game declares none
    translated_title: str = ""  # its title in the language the game was read in, when given: what prints

    @property
    def printed_title(self) -> str:
        """The title as it prints: its translation, else the title (which names the card, in every language)."""
        return self.translated_title or self.title

    def has(self, name: str) -> bool:
        """Whether the card gives the trait at all, even with a value that failed to parse."""
        return self.value(name) is not None or name in self.invalid

    def value(self, name: str, default=None):
        if name == "title":
            return self.title
        if name == "designed":
            return self.designed
        if name == "id":
            return self.id
        if name == "set":
            return self.set
        return self.traits.get(name, default)

    def located(self, name: str) -> Location:
        return self.field_where.get(name, self.where)

    @property
    def label(self) -> str:
        """How messages name the card: its title in quotes, or its id when it has none (a token, say)."""
        return f"'{self.title}'" if self.title else self.id


@dataclass(frozen=True)
class CardSet:
    """A set of the game's cards, a base set or an expansion: printed by default, or only when chosen (--sets)."""

    id: str
    name: str
    designed: bool
    default: bool
    where: Location


@dataclass(frozen=True)
class Grouping:
    """How a deck of counters is set in blocks on its sheets: by the values of traits `by`, each block labelled
    by the template `label` (None: the values' names)."""

    by: tuple[str, ...]
    label: str | None
    where: Location


@dataclass(frozen=True)
class SheetMapping:
    """How a deck's spreadsheet files are read, and its cards written back as a sheet: the worksheet of an .xlsx,
    the headers mapped to card keys (`columns:`) and the headers left unread (`ignore:`)."""

    sheet: str | None = None
    columns: Mapping[str, str] = field(default_factory=dict)  # header -> card key
    ignore: tuple[str, ...] = ()


@dataclass(frozen=True)
class PrintFormat:
    """How a deck's faces are printed: made once by the reader, carried whole to imposition and rendering."""

    component: str = "cards"          # "cards": its own cards-<id>.pdf; "tokens": a section of tokens.pdf
    face_size: tuple[float, float] = (63.0, 88.0)
    shape: str = "rect"               # "rect", "round" or "hex" (a circular or hexagonal cut line round each)
    packing: str = "spaced"           # "spaced": bleed and crop marks; "sheet": edge to edge, shared cut lines
    safe: float | None = None         # mm kept free of text inside the trim; None: 3 mm, less on small faces
    paper: str | None = None          # its sheets' paper (units.paper_size); None: the build's
    orientation: str = "pointy"       # a hex counter's: "pointy" (a corner at the top) or "flat"

    @property
    def safe_margin(self) -> float:
        return self.safe if self.safe is not None else min(3.0, round(0.06 * min(self.face_size), 2))

    @property
    def sheets(self) -> PrintFormat:
        """What its sheets depend on: consecutive decks alike in it may share sheets."""
        return replace(self, component="", safe=None)


@dataclass(frozen=True)
class Deck:
    """A deck of cards or a set of counters: its cards, layouts, print format and declared size."""

    id: str
    name: str
    files: tuple[Path, ...]
    size: int | None
    face: str | None
    back: str | None
    style: Mapping[str, Any]
    cards: tuple[Card, ...]
    where: Location
    size_where: Location | None = None
    format: PrintFormat = PrintFormat()
    complete: bool = True             # False when a file of the deck could not be read: its size is then unknown
    group: Grouping | None = None     # its counters set in blocks by traits; None: in deck order
    mapping: SheetMapping = SheetMapping()  # its spreadsheet's worksheet, columns and ignored columns

    @property
    def total(self) -> int:
        return sum(card.count for card in self.cards)


@dataclass(frozen=True)
class Rule:
    """One of the game's own rules (require, forbid, max_copies, total, count) over the cards it selects."""

    kind: str  # require | forbid | max_copies | total | count
    name: str
    params: Mapping[str, Any]
    when: Mapping[str, tuple]
    decks: tuple[str, ...]
    message: str
    where: Location


@dataclass(frozen=True)
class PlayFormat:
    """A construction format of players' deck lists: the sets and decks a list may draw on, and its rules."""

    name: str
    description: str
    sets: tuple[str, ...]   # () : every set
    decks: tuple[str, ...]  # () : every deck
    rules: tuple[Rule, ...]
    where: Location


@dataclass(frozen=True)
class Variant:
    """A variant of the game: the trait values it patches into the cards it selects, on when asked for."""

    name: str
    description: str
    enabled: bool
    when: Mapping[str, tuple]
    patch: Mapping[str, Any]
    where: Location


@dataclass(frozen=True)
class Icon:
    """An inline icon for text: a glyph in one of the bundled fonts, or an image in the game folder."""

    name: str
    glyph: str | None
    font: str
    colour: str | None
    image: Path | None


@dataclass(frozen=True)
class BoardGrid:
    """The cells of a board: `columns` x `rows` squares or hexes `cell` mm across, `margin` mm from its edges;
    hexes flat- or pointy-topped, odd or even lines pushed along (core/geometry.py); cells named by `numbering`."""

    columns: int
    rows: int
    cell: float
    shape: str
    margin: float
    orientation: str = "flat"
    offset: str = "odd"
    numbering: str = "letter"
    first: tuple[int, int] = (1, 1)  # the numbers of the first column and row


@dataclass(frozen=True)
class Terrain:
    """A kind of terrain of a hex map: a hex's fill and symbol, or a hexside's line (river, road, border)."""

    name: str
    fill: str | None
    symbol: str
    colour: str | None
    stroke: str | None
    width: float
    dash: str


@dataclass(frozen=True)
class Hexside:
    """A terrain along the side two neighbouring hexes share, the hexes named as the grid names them."""

    between: tuple[str, str]
    terrain: str


@dataclass(frozen=True)
class Placement:
    """Cells chosen at random from a seed: `count` distinct cells among the given rows and columns (1-based)."""

    count: int
    rows: tuple[int, ...] | None
    columns: tuple[int, ...] | None


@dataclass(frozen=True)
class Board:
    """A map or play mat: one large face, drawn by its layout, tiled over pages when larger than the paper."""

    id: str
    file: str  # the output file's stem: map, mat, ...
    name: str
    layout: str
    size: tuple[float, float]
    grid: BoardGrid | None
    place: Mapping[str, Placement]
    features: Mapping[str, tuple[str, ...]]
    seed: int
    where: Location
    paper: str | None = None  # the paper it prints or tiles on (units.paper_size); None: the build's
    terrain: Mapping[str, Terrain] = field(default_factory=dict)
    hexes: Mapping[str, str] = field(default_factory=dict)  # a hex's name -> its terrain
    hexsides: tuple[Hexside, ...] = ()


@dataclass(frozen=True)
class Rulebook:
    """The rules: Markdown with Jinja in the game folder, typeset into rules.pdf (and a booklet if asked)."""

    path: Path
    paper: str | None  # a4, letter, a5; None: the build's paper
    booklet: bool
    where: Location
    font: str = "text"  # the body text's font: its family sets **bold** and *italic*


@dataclass(frozen=True)
class Game:
    """A game folder read: its decks, boards, rulebook and vocabulary, and the findings of reading it."""

    root: Path
    id: str
    title: str
    summary: str
    players: str
    card_size: tuple[float, float]
    colours: Mapping[str, str]
    icons: Mapping[str, Icon]
    constants: Mapping[str, Any]
    vocabularies: Mapping[str, Vocabulary]
    traits: Mapping[str, Trait]
    decks: Mapping[str, Deck]
    rules: tuple[Rule, ...]
    variants: Mapping[str, Variant]
    where: Location
    findings: tuple[Finding, ...] = ()
    boards: Mapping[str, Board] = field(default_factory=dict)
    tables: Mapping[str, tuple] = field(default_factory=dict)
    rulebook: Rulebook | None = None
    fonts: FontBook | None = None  # the bundled fonts with the game's own; None: the bundled ones
    embed: Mapping[str, str] = field(default_factory=dict)  # words printed as the icon named, in text fields
    shop: str = ""  # the print shop whose profile `muster export shop` uses when none is named
    dice: tuple[tuple[int, int], ...] = ()  # the rolls the rules make: (number of dice, their sides)
    sets: Mapping[str, CardSet] = field(default_factory=dict)  # the sets declared, in order
    chosen_sets: tuple[str, ...] = ()  # the sets whose cards the game holds; () when it declares none
    formats: Mapping[str, PlayFormat] = field(default_factory=dict)  # construction formats of deck lists
    languages: tuple[str, ...] = ()  # the languages it is published in, its source language first; (): one
    language: str = ""  # the language it was read in, when not its source one: its translations print
    words: Mapping[str, str] = field(default_factory=dict)  # the rulebook's fixed words, in the language it prints

    @property
    def printed_language(self) -> str:
        """The language its text prints in: the one it was read in, else its source one; "" for a game of one."""
        return self.language or next(iter(self.languages), "")


def frozen(mapping: Mapping) -> Mapping:
    """A read-only view, so that no stage can change what the loader made."""
    return MappingProxyType(dict(mapping))
