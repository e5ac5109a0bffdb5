"""The game format, declared once: every mapping of game.yaml and of deck files, and every key each may hold.

One entry per key: its kind (kinds.py), whether it must be given, its default, its bounds or choices, and one
line saying what it is for. The loader checks keys and reads the plain values from here (Reader.keys and
Reader.value), `muster schema` publishes it (formats/schema.py), and the key tables of docs/format.md are made
from it (formats/reference.py; a test keeps them equal). Adding a key is one entry here, and the code that uses
its value. What no single key can say (either file or files, one kind per rule, a board sized by its grid)
stays in the small named checks of the loader and of the schema.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..core.geometry import NUMBERINGS, OFFSETS, ORIENTATIONS
from ..core.model import TRAIT_KINDS
from .kinds import (
    BOARD_SIZE, BOOLEAN, CELLS, CHOICE, DASH, DECK_ID, DECK_IDS, DICE_LIST, FACE_OF_FILE, FACE_SIZE, FAMILIES, FILE,
    FILES, FONT, FONT_FILE, FORMULA, FREE, HEX_COLOUR, INTEGER, LANGUAGES, LENGTH, LINES, LIST, MAP, MAPPING, NAME, NAMED_COLOUR,
    NUMBER, PAPER, PLAYERS, ROWS, SCALAR, STEM, STRING, TEXT, TOKENS, TRAIT_NAMES, VERSION, WHEN, WHOLE_FORMULA, WORDS, Kind,
)

FORMAT_VERSION = 1
MAX_COUNT = 10_000
MAX_CARDS_PER_DECK = 20_000
MAX_TABLE_ROWS = 500
MIN_FACE_MM, MAX_FACE_MM = 5.0, 600.0
MIN_BOARD_MM, MAX_BOARD_MM = 10.0, 2000.0
MAX_GRID_LINES = 200
MAX_FIRST = 9_999  # the first column's or row's number: a published map's 1701 is 17
MIN_CELL_MM = 1.0  # a board's cell: smaller is not a space a piece can stand on
MAX_LINE_MM = 50.0  # a hexside's width
COMPONENTS = ("cards", "tokens")
SHAPES = ("rect", "round", "hex")
PACKINGS = ("spaced", "sheet")
BOARD_SHAPES = ("square", "hex")
RULEBOOK_PAPERS = ("a4", "letter", "a5")
RULE_KINDS = ("require", "forbid", "max_copies", "total", "count")
SHOPS = ("makeplayingcards", "printerstudio", "thegamecrafter", "drivethrucards")  # formats/shops.yaml


class Derived(str):
    """A default made from other values (the deck's id, the title), in the words docs/format.md shows."""


@dataclass(frozen=True, eq=False)
class Key:
    """One key of a mapping: the kind of value it holds, whether it must be given, its default (as a game would
    write it), its bounds or choices, what a mapping, map or list of it holds, and one line of description."""

    name: str
    kind: Kind
    description: str
    required: bool = False
    default: Any = None
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple = ()
    of: Section | Kind | None = None  # MAPPING, LIST: the Section of their mappings; MAP: what each entry is
    names: re.Pattern | None = None  # MAP: the pattern its entries' names match
    reported_by: str = ""  # a required key whose absence a check of its own reports, not the Reader
    translated: bool = False  # text a player reads: given per language as `<name>:<lang>` beside it

    def read(self, value):
        """`value` read by the key's kind; a MusterError when it will not do."""
        return self.kind.read(value, self)

    @cached_property
    def fallback(self):
        """The default as the loader keeps it: '12mm' as 12.0 mm; None when derived or when there is none."""
        if self.default is None or isinstance(self.default, Derived) or self.kind.coerce is None:
            return None
        return self.read(self.default)


class Section:
    """One mapping of game.yaml or a deck file: where it sits, as docs/format.md writes it, and its keys."""

    def __init__(self, path: str, keys: tuple[Key, ...], identity: tuple[str, ...] = ()):
        self.path = path
        self.keys = keys
        self.identity = identity  # translated keys whose source text names the thing: printed, never replaced

    @property
    def keys(self) -> tuple[Key, ...]:
        return self._keys

    @keys.setter
    def keys(self, keys: tuple[Key, ...]) -> None:
        # names and required are read for every card: made once here, not on each read
        self._keys = keys
        self._by_name = {key.name: key for key in keys}
        self.names = tuple(self._by_name)
        self.required = tuple(key.name for key in keys if key.required and not key.reported_by)  # the Reader's
        self.translated = tuple(key.name for key in keys if key.translated)

    def __getitem__(self, name: str) -> Key:
        return self._by_name[name]

    def __repr__(self) -> str:
        return f"Section({self.path!r})"


FACE = {"minimum": MIN_FACE_MM, "maximum": MAX_FACE_MM}

GAME_CARD = Section("card", (
    Key("size", FACE_SIZE, "The cards' size: poker, bridge, mini, tarot, square, or \"63mm x 88mm\".",
        default="poker", **FACE),
))

FONT_FAMILY = Section("fonts.<name>", (
    Key("regular", FONT_FILE, "The regular face: a font file in the game folder, TrueType or OpenType (.ttf, .otf, "
        "with TrueType or PostScript outlines), or a face of a collection (.ttc, .otc) as {file, face}.",
        required=True),
    Key("bold", FONT_FILE, "The bold face (default: the regular one)."),
    Key("italic", FONT_FILE, "The italic face (default: the regular one)."),
    Key("bold_italic", FONT_FILE, "The bold italic face (default: the bold one, else the italic, else the regular)."),
    Key("fallback", FAMILIES, "Other families (bundled or the game's), in order: a character this family has no "
        "glyph for prints in the same face of the first that has one."),
))

FONT_FACE = Section("fonts.<name>.<style>", (
    Key("file", FILE, "The font file, in the game folder.", required=True),
    Key("face", FACE_OF_FILE, "Which font of a collection: its index from 0, or a name of it (family, full or "
        "PostScript name, as \"Noto Sans CJK JP\").", default=0, minimum=0),
))

ICON = Section("icons.<name>", (
    Key("glyph", TEXT, "A character of a bundled font; give glyph or image."),
    Key("font", FONT, "The glyph's font.", default="text"),
    Key("colour", NAMED_COLOUR, "The glyph's colour: \"#rrggbb\", cmyk(...), black, white or a name of colours:."),
    Key("image", FILE, "A PNG, JPEG, GIF or SVG in the game folder; SVG is drawn as vectors."),
))

TERM = Section("vocabularies.<name>.<code>", (
    Key("name", TEXT, "The code's name.", required=True, translated=True),
    Key("short", TEXT, "A shorter name, where room is tight.", default=Derived("the name"), translated=True),
    Key("icon", STRING, "An icon of icons: that stands for the code."),
    Key("colour", STRING, "A colour, handed to layouts."),
    Key("description", STRING, "What the code means, handed to layouts.", translated=True),
    Key("symbol", TEXT, "A symbol, handed to layouts."),
    Key("letter", TEXT, "A letter, handed to layouts."),
))

VOCABULARY = Section("vocabularies.<name>", (
    Key("values", MAP, "Code -> its name, or a mapping of the keys of vocabularies.<name>.<code>.", required=True,
        of=TERM),
    Key("aliases", MAP, "Alias -> the codes it stands for: A: [E, W, M].", of=TOKENS),
))

TRAIT = Section("traits.<name>", (
    Key("kind", CHOICE, "What a card writes for it (see Trait kinds).", required=True, choices=TRAIT_KINDS),
    Key("vocabulary", STRING, "For code and codes traits: the vocabulary of their codes."),
    Key("min", NUMBER, "The smallest value a card may give."),
    Key("max", NUMBER, "The largest value a card may give."),
    Key("also", TOKENS, "Non-numeric tokens a number trait also allows: [\"PB\", \"--\"].", default=[]),
    Key("label", STRING, "A human name, used in messages and rulebooks.", default=Derived("the name, capitalised"), translated=True),
    Key("description", STRING, "What the trait means, for rulebooks and schemas.", default="", translated=True),
))

FORMAT = Section("decks.<id>.format", (
    Key("size", FACE_SIZE, "The faces' size: a card size, counter-1/2in to counter-1in, or \"20mm x 20mm\".",
        default=Derived("the game's card size"), **FACE),
    Key("shape", CHOICE, "rect; round or hex: a thin circular or hexagonal cut line is printed round each face.",
        default="rect", choices=SHAPES),
    Key("orientation", CHOICE, "A hex counter's: pointy (a corner at the top) or flat (a flat side at the top).",
        default="pointy", choices=ORIENTATIONS),
    Key("packing", CHOICE, "spaced: bleed and crop marks; sheet: edge to edge, shared cut lines.",
        default="spaced", choices=PACKINGS),
    Key("safe", LENGTH, "Text is kept this far inside the edge.",
        default=Derived("3 mm, 6 % of the side on small faces"), minimum=0, maximum=MAX_FACE_MM / 2),
))

GROUP = Section("decks.<id>.group", (
    Key("by", TRAIT_NAMES, "The trait, or traits, whose values set the counters in blocks: side, [side, formation].",
        required=True),
    Key("label", STRING, "Each block's label: a template over group.<trait> (the value's name) and group.codes.",
        default=Derived("the values' names, joined by \" · \""), translated=True),
))

CARD_SET = Section("sets.<id>", (
    Key("name", TEXT, "The set's name, for the rulebook and messages.", default=Derived("the set's id"), translated=True),
    Key("designed", BOOLEAN, "true for a set designed for Muster rather than taken from the source.", default=False),
    Key("default", BOOLEAN, "Printed when no --sets is given; false for an expansion printed only when chosen.",
        default=True),
))

DECK = Section("decks.<id>", (
    Key("name", TEXT, "The deck's name, in messages and the rulebook.", default=Derived("the deck's id"), translated=True),
    Key("set", STRING, "The set, a key of sets:, of its cards that name none.", default=Derived("the first set")),
    Key("file", FILE, "The deck file, in the game folder: YAML, or a .csv, .tsv or .xlsx sheet."),
    Key("files", FILES, "Deck files instead of file: the cards of all of them, in order."),
    Key("size", INTEGER, "Declared size: the sum of the counts must equal it.", minimum=0, maximum=MAX_CARDS_PER_DECK),
    Key("face", FILE, "Layout of the faces: in the game folder, else the bundled layouts/.", required=True,
        reported_by="layout.lay_out_batches"),
    Key("back", FILE, "Layout of the backs; required of cards; tokens without one print on one side, no back pages.",
        default=Derived("none for tokens")),
    Key("style", FREE, "Free data handed to the layouts as deck.<key>."),
    Key("component", CHOICE, "cards, or tokens: printed into the game's tokens.pdf.", default="cards",
        choices=COMPONENTS),
    Key("format", MAPPING, "What each face prints as, when not one of the game's cards.", of=FORMAT),
    Key("sheet", STRING, "The worksheet of an .xlsx deck file.", default=Derived("the first")),
    Key("columns", MAP, "A spreadsheet deck's header -> the card key it holds: {Name: title, Qty: count}.",
        of=STRING),
    Key("ignore", TOKENS, "A spreadsheet deck's columns left unread: [Notes, TGC code].", default=[]),
    Key("paper", PAPER, "The paper its sheets print on: a4, a4-landscape, ... or \"300mm x 400mm\".",
        default=Derived("the build's paper")),
    Key("group", MAPPING, "Counters set in blocks by a trait, each on a zone of its colour with a label.", of=GROUP),
))

BOUNDS = (
    Key("equals", FORMULA, "Exactly this number."),
    Key("min", FORMULA, "At least this number."),
    Key("max", FORMULA, "At most this number."),
)
COUNT = Section("rules[].count", BOUNDS)
TOTAL = Section("rules[].total", BOUNDS + (
    Key("trait", STRING, "The numeric trait added up, times each card's count.", required=True,
        reported_by="rules.rule_params"),
))

RULE = Section("rules[]", (
    Key("require", TRAIT_NAMES, "Traits every matching card must give."),
    Key("forbid", TRAIT_NAMES, "Traits no matching card may give."),
    Key("max_copies", FORMULA, "At most this many copies of each matching card."),
    Key("total", MAPPING, "The sum of a trait over the matching cards: equals, min or max.", of=TOTAL),
    Key("count", MAPPING, "The number of matching cards, copies included: equals, min or max.", of=COUNT),
    Key("when", WHEN, "Only the cards that match: every key must match one of the values listed."),
    Key("decks", DECK_IDS, "Only the cards of these decks.", default=Derived("every deck")),
    Key("name", STRING, "Shown in brackets at the start of the rule's findings.", default=Derived("\"<kind> rule\"")),
    Key("message", STRING, "Shown before what was found.", default=""),
))

PLAY_FORMAT = Section("formats.<name>", (
    Key("description", STRING, "What the format is for, shown by muster validate --list.", default=""),
    Key("sets", TOKENS, "The sets a list in this format may draw on.", default=Derived("every set")),
    Key("decks", DECK_IDS, "The decks a list in this format may draw on.", default=Derived("every deck")),
    Key("rules", LIST, "The rules a list must meet, in the language of rules: (size, copies, totals).", of=RULE),
))

VARIANT = Section("variants.<name>", (
    Key("description", STRING, "What the variant changes.", default=""),
    Key("enabled", BOOLEAN, "On in every build when true; `muster build --variant NAME` switches it on.",
        default=False),
    Key("when", WHEN, "The cards it patches: every key must match one of the values listed."),
    Key("patch", FREE, "Traits set on matching cards that lack them.", required=True),
))

GRID = Section("boards.<id>.grid", (
    Key("columns", WHOLE_FORMULA, "Columns of cells.", required=True, minimum=1, maximum=MAX_GRID_LINES),
    Key("rows", WHOLE_FORMULA, "Rows of cells.", required=True, minimum=1, maximum=MAX_GRID_LINES),
    Key("cell", LENGTH, "A square's side, or a hex's width across the flats.", required=True, minimum=MIN_CELL_MM,
        maximum=MAX_BOARD_MM),
    Key("shape", CHOICE, "square, or hex: flat-topped, odd columns half a cell lower.", default="square",
        choices=BOARD_SHAPES),
    Key("margin", LENGTH, "Room around the grid, for coordinates.", default="12mm", minimum=0,
        maximum=MAX_BOARD_MM / 2),
    Key("orientation", CHOICE, "Hexes flat-topped (columns interlock) or pointy-topped (rows interlock).",
        default="flat", choices=ORIENTATIONS),
    Key("offset", CHOICE, "Which hex columns (flat) or rows (pointy) are pushed half a hex: odd (the 2nd, 4th, ...) "
        "or even (the 1st, 3rd, ...).", default="odd", choices=OFFSETS),
    Key("numbering", CHOICE, "How cells are named in the data and printed: letter (C4), \"0101\" (column then row, "
        "0304), or none (named 0304, nothing printed).", default="letter", choices=NUMBERINGS),
    Key("first_column", INTEGER, "The number of the first column (1 is A for letter numbering): 17 for a map "
        "numbered from 1701.", default=1, minimum=0, maximum=MAX_FIRST),
    Key("first_row", INTEGER, "The number of the first row.", default=1, minimum=0, maximum=MAX_FIRST),
))

TERRAIN = Section("boards.<id>.terrain.<name>", (
    Key("name", TEXT, "The terrain's name, for a legend.", default=Derived("the terrain's key"), translated=True),
    Key("fill", NAMED_COLOUR, "A hex's fill: \"#rrggbb\", cmyk(...), black, white or a name of colours:."),
    Key("symbol", TEXT, "A character printed in each of its hexes, so it reads in greyscale too.", default=""),
    Key("colour", NAMED_COLOUR, "The symbol's colour."),
    Key("stroke", NAMED_COLOUR, "A hexside's line colour (river, road, border)."),
    Key("width", LENGTH, "A hexside's line width.", default="1mm", minimum=0, maximum=MAX_LINE_MM),
    Key("dash", DASH, "A hexside's dash pattern in mm, on and off: \"2 1\"; none when empty.", default=""),
))

HEXSIDE = Section("boards.<id>.hexsides[]", (
    Key("between", TOKENS, "The two neighbouring hexes whose shared side it runs along: [\"0304\", \"0305\"].",
        required=True),
    Key("terrain", STRING, "Its kind, a key of the board's terrain: river, road, border.", required=True),
))

PLACE = Section("boards.<id>.place.<name>", (
    Key("count", WHOLE_FORMULA, "How many cells are chosen.", required=True, minimum=0),
    Key("rows", LINES, "Only cells of these rows, from 1.", default=Derived("every row")),
    Key("columns", LINES, "Only cells of these columns, from 1.", default=Derived("every column")),
))

BOARD = Section("boards.<id>", (
    Key("name", TEXT, "The board's name.", default=Derived("the board's id"), translated=True),
    Key("file", STEM, "Output file stem: map -> map.pdf.", default=Derived("the board's id")),
    Key("layout", FILE, "The layout that draws the board.", required=True),
    Key("size", BOARD_SIZE, "\"277mm x 190mm\", or a template over constants; give size or grid.",
        default=Derived("the grid's, with its margin")),
    Key("grid", MAPPING, "The board's cells; the board is sized to fit them.", of=GRID),
    Key("place", MAP, "Cells chosen at random from the seed, never two on one cell.", of=PLACE),
    Key("features", MAP, "Cells named by the data: difficult: [B4, G5].", of=CELLS),
    Key("terrain", MAP, "Kinds of terrain of a hex map, for its hexes and hexsides.", of=TERRAIN, names=NAME),
    Key("hexes", MAP, "A hex's name -> its terrain: {\"0304\": forest}.", of=STRING),
    Key("hexsides", LIST, "Terrain along the side two hexes share: rivers, roads, borders.", of=HEXSIDE),
    Key("seed", INTEGER, "The seed of place; `muster build --seed N` overrides it.", default=1, minimum=0,
        maximum=2**31),
    Key("paper", PAPER, "The paper it prints (or tiles) on: a4, a3-landscape, ... or \"300mm x 400mm\".",
        default=Derived("the build's paper")),
))

RULEBOOK = Section("rulebook", (
    Key("file", FILE, "The rules: Markdown with Jinja, in the game folder.", required=True),
    Key("paper", CHOICE, "The rulebook's paper.", default=Derived("the build's paper"), choices=RULEBOOK_PAPERS),
    Key("booklet", BOOLEAN, "Also write rules-booklet.pdf.", default=False),
    Key("font", FONT, "The body text's font family, bundled or the game's own: its bold and italic faces set "
        "**bold** and *italic*.", default="text"),
))

GAME = Section("game.yaml", (
    Key("muster", VERSION, "The format version.", required=True, default=FORMAT_VERSION),
    Key("title", TEXT, "Printed on backs and the rulebook.", required=True, default="", translated=True),
    Key("summary", TEXT, "One line about the game.", default="", translated=True),
    Key("languages", LANGUAGES, "The languages the game is published in, the one its files are written in first: "
        "[en, de]. Text a player reads is then given per language as `<key>:<lang>` beside its key."),
    Key("words", WORDS, "The rulebook's fixed words, per language, over Muster's own: {de: {contents: Inhalt}}.",
        of=FREE),
    Key("players", PLAYERS, "A number or a range such as \"2-4\".", default=""),
    Key("dice", DICE_LIST, "The rolls the rules make, for online tables' dice buttons: [2d6], [1d6, 2d6].",
        default=[]),
    Key("card", MAPPING, "The game's cards.", of=GAME_CARD),
    Key("colours", MAP, "Named colours, for layouts: colours.<name>.", of=HEX_COLOUR),
    Key("icons", MAP, "Inline icons for text: [[name]].", of=ICON),
    Key("fonts", MAP, "The game's own font families, named for layouts and the rulebook as the bundled ones are.",
        of=FONT_FAMILY, names=NAME),
    Key("embed", MAP, "Words printed as icons in cards' text fields and the rulebook, whole words only: {Wood: wood}.", of=STRING),
    Key("constants", MAP, "Numbers (and texts) the rules, layouts and rulebook use: constants.<name>.", of=SCALAR,
        names=NAME),
    Key("vocabularies", MAP, "The codes a code or codes trait may take.", of=VOCABULARY),
    Key("traits", MAP, "Every key a card may carry besides the reserved ones.", of=TRAIT, names=NAME),
    Key("sets", MAP, "Set id -> the set: the base set and expansions, chosen by --sets.", of=CARD_SET,
        names=DECK_ID),
    Key("decks", MAP, "Deck id (lower case, digits, dashes) -> the deck.", required=True, of=DECK, names=DECK_ID),
    Key("rules", LIST, "The game's own checks.", of=RULE),
    Key("variants", MAP, "Named changes to the cards, switched on by default or by --variant.", of=VARIANT),
    Key("formats", MAP, "Named construction rules for players' deck lists (muster validate --list).",
        of=PLAY_FORMAT, names=DECK_ID),
    Key("tables", MAP, "Named lists of rows that layouts and the rulebook print from.", of=ROWS, names=NAME),
    Key("boards", MAP, "Maps and play mats, printed at 100 %.", of=BOARD, names=DECK_ID),
    Key("rulebook", MAPPING, "The rules, typeset into rules.pdf.", of=RULEBOOK),
    Key("shop", CHOICE, "The print shop whose profile `muster export shop GAME` uses (docs/exports.md).",
        choices=SHOPS),
))

CARD = Section("cards[]", (
    Key("title", TEXT, "Printed on the card; a deck of tokens may leave it out.", default="", translated=True),
    Key("count", INTEGER, "Copies in the deck (default 1).", default=1, minimum=0, maximum=MAX_COUNT),
    Key("id", STRING, "Stable identifier (default: the title as lower-case ASCII with dashes).",
        default=Derived("the title in lower case ASCII with dashes; with no title, <deck>-<n>")),
    Key("designed", BOOLEAN, "true for a card designed for Muster rather than taken from the source.", default=False),
    Key("note", TEXT, "Provenance or resolution remarks; never printed.", default=""),
    Key("set", STRING, "The set the card comes in, a key of sets:.", default=Derived("the deck's set")),
), identity=("title",))

DECK_FILE = Section("<deck>.yaml", (
    Key("cards", LIST, "The deck's cards: the reserved keys below and the game's traits.", required=True, of=CARD),
))

RESERVED_CARD_KEYS = CARD.names

# Every mapping, in the order docs/format.md lists them.
SECTIONS = (GAME, GAME_CARD, FONT_FAMILY, FONT_FACE, ICON, VOCABULARY, TERM, TRAIT, CARD_SET, DECK, FORMAT, GROUP, RULE,
            COUNT, TOTAL, PLAY_FORMAT, VARIANT, BOARD, GRID, PLACE, TERRAIN, HEXSIDE, RULEBOOK, DECK_FILE, CARD)
