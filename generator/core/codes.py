"""Every finding code, declared once: its usual severity, what it means in one line, and its message template.

A finding's code is what users filter on and tests match (never the wording). Code that finds a problem names one
declared here, with the catalogue's constructors (MusterError.of, Finding.of) or as `code=` of MusterError and
Finding; `muster validate --codes` and docs/findings.md list them, and a test fails on a code used in the package
that is not declared (tests/core/test_codes.py). pyflakes' messages.py is the model: one entry per kind of message.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Code:
    """One kind of finding."""

    name: str
    severity: str  # "error" or "warning"
    meaning: str   # one line, for the list of codes
    template: str  # its message, with {fields} the finder fills in

    def message(self, **values) -> str:
        return self.template.format(**values)

    def __str__(self) -> str:
        return self.name


CODES: dict[str, Code] = {}
STRICT = False  # the tests turn it on: a finding with an undeclared code is then an error where it is made


def declare(name: str, severity: str, meaning: str, template: str = "{detail}") -> Code:
    if name in CODES:
        raise ValueError(f"finding code {name!r} declared twice")
    if severity not in ("error", "warning"):
        raise ValueError(f"finding code {name!r}: severity {severity!r}")
    CODES[name] = code = Code(name, severity, meaning, template)
    return code


def check(name: str) -> None:
    """Under STRICT, a ValueError for a code that is not declared ("" is a problem without a code)."""
    if STRICT and name and name not in CODES:
        raise ValueError(f"finding code {name!r} is not declared in generator/core/codes.py")


# Values: the wrong kind, a bad form, out of bounds
WRONG_TYPE = declare("wrong-type", "error", "A value of the wrong kind: text where a list belongs, say.",
                     "expected {expected}, got {got}")
BAD_CHOICE = declare("bad-choice", "error", "A value that is not one of the choices its key allows.",
                     "expected one of {choices}, got {got!r}")
BAD_VALUE = declare("bad-value", "error", "A value that cannot be read as what its field holds.")
BAD_LENGTH = declare("bad-length", "error", "A length without a unit, or not a length at all.",
                     "expected a length such as 3mm or 0.125in, got {got!r}")
BAD_SIZE = declare("bad-size", "error", "A size that is neither a named size nor 'W x H' with units.",
                   "expected one of {names} or a size such as '63mm x 88mm', got {got!r}")
BAD_PAPER = declare("bad-paper", "error", "A paper that is neither a named paper nor a size within bounds.",
                    "expected a paper: one of {papers}, or a size such as 300mm x 400mm, got {got!r}")
BAD_COLOUR = declare("bad-colour", "error", "A colour that is neither #rrggbb nor cmyk(c, m, y, k).",
                     "unknown colour {got!r}: use {examples}, none, black, white or a name of the game's colours")
BAD_ID = declare("bad-id", "error", "An id or file stem that is not lower case letters, digits and dashes.",
                 "{what} is lower case letters, digits and dashes{more}")
BAD_NAME = declare("bad-name", "error", "A name (of a font, a constant, a let:) that is not a plain name.")
BAD_VERSION = declare("bad-version", "error", "A format version this Muster does not read.",
                      "unsupported format version {got!r} (this Muster reads {expected})")
BAD_OPTION = declare("bad-option", "error", "Command-line options that cannot go together, or one the command "
                     "cannot use.")
BAD_DASH = declare("bad-dash", "error", "A dash pattern that is not up to 16 lengths of 0 to 100 mm, not all 0.",
                   "expected a dash pattern of up to {most} lengths in mm from 0 to {longest:g}, not all 0, such as "
                   "\"2 1\"; got {got!r}")
BAD_URL = declare("bad-url", "error", "An --base-url that is not an http(s) address with a host, without spaces.",
                   "--base-url must {rule}, got '{got}'")
BAD_DICE = declare("bad-dice", "error", "Dice that are not written NdS (1d6, 2d10) within bounds.",
                    "expected dice such as 2d6 (how many, d, their sides), got {got}")
OUT_OF_RANGE = declare("out-of-range", "error", "A number or size outside the bounds its key allows.",
                       "expected {what} from {low} to {high}, got {got}")
TOO_LARGE = declare("too-large", "error", "A file, image or text over the limit Muster reads (docs/limits.md).")
TOO_DEEP = declare("too-deep", "error", "YAML nested deeper than Muster reads.",
                    "nested more than {most} deep: refused")

# Keys
UNKNOWN_KEY = declare("unknown-key", "error", "A key Muster does not know here (a typo, usually: see the hint).",
                      "unknown {what} '{name}'{hint}")
MISSING_KEY = declare("missing-key", "error", "A key that must be given is missing.")
KEY_CONFLICT = declare("key-conflict", "error", "Keys that cannot be given together, or one that does not apply.")
DUPLICATE_KEY = declare("duplicate-key", "error", "The same key twice in one mapping, or two columns for one key.",
                        "duplicate {what} '{key}' (first at {first})")

# Files
MISSING_FILE = declare("missing-file", "error", "A file the game names is not there.", "no file '{name}' in {folder}/")
FILE_OUTSIDE_GAME = declare("file-outside-game", "error", "A file named outside the game folder (an absolute "
                            "path, or .. leading out).", "'{name}' {leads} {folder}/")
NOT_A_REGULAR_FILE = declare("not-a-regular-file", "error", "A name that is a link, a folder or a device, not a "
                             "regular file.", "{what}, not a regular file: refused{hint}")
UNREADABLE = declare("unreadable", "error", "A file that cannot be read at all.")
BAD_ENCODING = declare("bad-encoding", "error", "A text file that is not UTF-8.", "not UTF-8 text (byte {byte})")
NOT_UTF8 = declare("not-utf8", "error", "A rulebook that is not UTF-8 text.", "not UTF-8 text (byte {byte})")
UNSUPPORTED_FILE = declare("unsupported-file", "error", "A deck file of a kind Muster does not read.",
                            "expected a .csv, .tsv or .xlsx file, got '{name}' (save other formats as .xlsx or CSV)")
YAML_SYNTAX = declare("yaml-syntax", "error", "YAML that does not parse.", "YAML syntax: {problem}")
UNSUPPORTED_YAML = declare("unsupported-yaml", "error", "YAML Muster refuses: tags, recursive aliases, merge keys.")
UNSAFE_XML = declare("unsafe-xml", "error", "An .xlsx part that declares a DTD: refused.",
                      "{part} declares a DTD, which can define entities that expand without end: refused")
LINK_LOOP = declare("link-loop", "error", "A game file that is a loop of symbolic links.",
                     "'{name}' is a loop of symbolic links")
DAMAGED_FONT = declare("damaged-font", "error", "A font whose tables do not fit its file or its glyph count.",
                       "a damaged font: {problem}")
FONT_LIMIT = declare("font-limit", "error", "A font over what Muster reads: tables, faces, character maps, glyphs.",
                     "{what}: over the limit of {limit:,}")
UNKNOWN_FACE = declare("unknown-face", "error", "A face a font collection does not hold (by index or name).",
                       "the font file has no face {face} ({faces})")

# Spreadsheets
EMPTY_SHEET = declare("empty-sheet", "error", "A spreadsheet with no header row.")
UNKNOWN_SHEET = declare("unknown-sheet", "error", "A worksheet the workbook does not have, or --sheet for a CSV.")
UNNAMED_COLUMN = declare("unnamed-column", "error", "A spreadsheet column with values and no name in its header.",
                          "a column with values has no name in the header row")
UNKNOWN_COLUMN = declare("unknown-column", "warning", "Spreadsheet columns the game has no keys for: not read.",
                         "{count:,} column(s) not read, the game has no such keys: {names}{more} (map them to keys "
                         "under the deck's columns:, or list them under ignore:)")
MISSING_COLUMN = declare("missing-column", "warning", "A column named under columns: that the header lacks.",
                         "columns: no column '{name}' in the header row{hint}")
RESERVED_COLUMN = declare("reserved-column", "warning", "A column named like a reserved key, but not as it is "
                          "written.", "column '{name}' is not read: Muster's reserved '{key}' is written in lower "
                          "case; to print it, declare a trait and map the column to it (columns: {{{name}: <trait>}}), "
                          "or map it to the reserved key (columns: {{{name}: {key}}})")
FORMULA_WITHOUT_VALUE = declare("formula-without-value", "error", "A formula saved without its computed value.",
                                "a formula saved without its value (written by a program that does not compute "
                                "formulas): open the file in a spreadsheet program and save it")

# The game's vocabulary
UNKNOWN_TRAIT = declare("unknown-trait", "error", "A trait the game does not declare.",
                        "unknown trait '{name}'{hint}")
UNKNOWN_CODE = declare("unknown-code", "error", "A code its vocabulary does not have.",
                       "unknown {trait} {got}; expected {expected}")
UNKNOWN_VOCABULARY = declare("unknown-vocabulary", "error", "A vocabulary the game does not declare.",
                             "unknown vocabulary {name!r}{hint}")
UNKNOWN_ICON = declare("unknown-icon", "error", "An icon the game does not declare.", "unknown icon {name}{hint}")
UNKNOWN_DECK = declare("unknown-deck", "error", "A deck the game does not have.", "no deck '{name}' in {game}{hint}")
UNKNOWN_VARIANT = declare("unknown-variant", "error", "A variant the game does not have.",
                          "game has no variant '{name}'{hint}")
UNKNOWN_GAME = declare("unknown-game", "error", "Neither a game folder nor a bundled game.",
                        "no game folder or bundled game named '{name}'{hint}")
UNKNOWN_FONT = declare("unknown-font", "error", "A font neither the game nor Muster has.",
                       "unknown font '{name}'{hint}")
BAD_FONT = declare("bad-font", "error", "A font file Muster cannot read.", "not a font file Muster can read: {problem}")
CFF_FONT = declare("cff-font", "error", "An OpenType font with PostScript outlines, which cannot be embedded.")
BAD_IMAGE = declare("bad-image", "error", "An image file Muster cannot read.")

# Languages
UNKNOWN_LANGUAGE = declare("unknown-language", "error", "A `<key>:<lang>` key, column or --lang naming a language "
                           "the game does not declare (languages:).", "unknown language '{lang}'{hint}")
NOT_TRANSLATABLE = declare("not-translatable", "error", "A translation (`<key>:<lang>`) of a value that is never "
                           "translated: a number, a code, a count, a colour, art.",
                           "'{key}' is not translated (only text a player reads is)")
MISSING_TRANSLATION = declare("missing-translation", "warning", "A text with no translation into a language the "
                              "game declares: the source text prints.", "no {language} for '{key}' of {owner}")

# Boards
NOT_HEX_GRID = declare("not-hex-grid", "error", "Hexes or hexsides on a board without a hex grid.",
                       "hexes and hexsides need a hex grid (grid: {{shape: hex}})")
NOT_NEIGHBOURS = declare("not-neighbours", "error", "A hexside between two hexes that do not touch.",
                         "hexes {first} and {second} are not neighbours: no side lies between them")
UNKNOWN_TERRAIN = declare("unknown-terrain", "error", "A terrain the board does not declare.",
                          "unknown terrain {name!r}{hint} (the board's terrain: {terrain})")
TOO_FEW_CELLS = declare("too-few-cells", "error", "More pieces to place at random than a board has free cells.",
                        "board '{board}': {count} {name} do not fit in the {free} free cells")

# Checks of the cards
DECK_SIZE = declare("deck-size", "error", "A deck whose cards do not add up to the size it declares.",
                    "deck '{deck}' declares {size} cards, its cards add up to {total}")
DUPLICATE_TITLE = declare("duplicate-title", "error", "Two cards of one deck with the same title.",
                          "title '{title}' appears twice in deck '{deck}' (first at {first})")
# a rule's finding is its template framed by the rule: "[name] found" or, with the rule's message:, "[name] message
# (found)"
RULE_REQUIRE = declare("rule-require", "error", "A card the game's require: rule asks for is missing.",
                       "{card} in deck '{deck}' lacks {traits}")
RULE_FORBID = declare("rule-forbid", "error", "A card the game's forbid: rule excludes is there.",
                      "{card} in deck '{deck}' must not have {traits}")
RULE_MAX_COPIES = declare("rule-max-copies", "error", "More copies than the game's max_copies: rule allows.",
                          "{card} has {copies} copies in deck '{deck}'; at most {most} allowed")
_BOUND = "{what} deck(s) {decks} is {actual}, expected {bound}"  # what: "the total cost of"; bound: "at least 3"
RULE_TOTAL = declare("rule-total", "error", "A total of a trait outside the game's total: rule's bounds.", _BOUND)
RULE_COUNT = declare("rule-count", "error", "A number of cards outside the game's count: rule's bounds.", _BOUND)

# Sheets
DOES_NOT_FIT = declare("does-not-fit", "error", "A card, or a block of counters with its label, larger than the "
                       "paper it is printed on.", "{thing} does not fit on {paper}")

# Layouts and templates
LAYOUT_ERROR = declare("layout-error", "error", "A layout that cannot be used for this card.")
UNKNOWN_KIND = declare("unknown-kind", "error", "A layout element of a kind Muster does not draw.",
                       "elements[{index}].kind: expected one of {kinds}, got {got!r}")
MISSING_LAYOUT = declare("missing-layout", "error", "A deck without the layout it needs.")
TEMPLATE_ERROR = declare("template-error", "error", "A template that fails: a syntax error or an undefined name.")
TEMPLATE_BUDGET = declare("template-budget", "error", "A template over the limits on loops and output.")
TEMPLATE_FORBIDDEN = declare("template-forbidden", "error", "A template reaching for what the sandbox forbids.")
BAD_TEMPLATE = declare("bad-template", "error", "A template in game.yaml that fails or gives a value of the wrong "
                       "kind.")
TIME_LIMIT = declare("time-limit", "error", "Templates that ran too long.")
TEXT_OVERFLOW = declare("text-overflow", "error", "Text that does not fit its box even at its smallest size.",
                        "{kind} {text!r} does not fit {room} {w:.1f} x {h:.1f} mm at {size:g} pt")
TEXT_TOO_SMALL = declare("text-too-small", "warning", "Text shrunk below the smallest size that prints legibly.",
                         "text {text!r} is {size:g} pt, below the {least:g} pt that prints legibly (accept: "
                         "[text-too-small] on the element, if it is meant)")
OUTSIDE_SAFE_AREA = declare("outside-safe-area", "warning", "Text reaching outside the face's safe zone.",
                            "text {text!r} reaches outside the {safe:g} mm safe zone")
MISSING_GLYPH = declare("missing-glyph", "warning", "A character the font has no glyph for.",
                        "font '{font}' has no glyph for {characters}")
BLEED_GAP = declare("bleed-gap", "warning", "A layout whose background leaves the bleed uncovered.",
                    "deck '{deck}': the {which} layout {layout} leaves the {bleed:g} mm bleed uncovered on the {sides} "
                    "(drawn for another card size? size its background by face.w and face.h, with bleed: true)")
UNKNOWN_AFFILIATION = declare("unknown-affiliation", "error", "A unit symbol's affiliation Muster does not know.",
                              "affiliation: no affiliation '{name}' (expected {expected}){hint}")
UNKNOWN_ECHELON = declare("unknown-echelon", "error", "A unit symbol's echelon Muster does not know.",
                          "echelon: no echelon '{name}' (expected a name or a mark: {expected}){hint}")
UNKNOWN_UNIT_TYPE = declare("unknown-unit-type", "error", "A unit symbol's type Muster does not know.",
                            "type: no unit type '{name}' (expected {expected}){hint}")
BAD_ICON = declare("bad-icon", "error", "A unit symbol's text icon that is not written [[nato:TYPE]] or "
                   "[[nato:AFFILIATION:TYPE]].",
                   "text: icon '{name}': expected [[nato:TYPE]] or [[nato:AFFILIATION:TYPE]]")
SVG_REFUSED = declare("svg-refused", "error", "SVG Muster refuses: scripts, external references, entities.",
                      "SVG {what}: refused")
SVG_UNDRAWABLE = declare("svg-undrawable", "error", "An SVG file that cannot be drawn.",
                         "cannot be drawn{how}: {problem}")
SVG_UNSUPPORTED = declare("svg-unsupported", "error", "An SVG feature Muster cannot draw (as PDF/X forbids it).",
                          "SVG uses {feature}, which Muster cannot draw: {instead}")
SVG_NUMBER = declare("svg-number", "error", "An SVG number that is not finite, or too large to draw.")

# Sets, deck lists and construction formats
UNKNOWN_SET = declare("unknown-set", "error", "A set that game.yaml does not declare (sets:).",
                      "unknown set '{name}'{hint}")
WRONG_SET = declare("wrong-set", "error", "A card of a deck list from a set the list or its format does not draw on.",
                    "'{title}' is in the set '{set}', not '{listed}'")
UNKNOWN_TITLE = declare("unknown-title", "error", "A deck list's title that is no card of the game (or of that deck).",
                        "no card '{title}' in {scope}{hint}")
AMBIGUOUS_TITLE = declare("ambiguous-title", "error", "A deck list's title that names cards of several decks.",
                          "'{title}' is a card of several decks ({decks}): put it under a section naming its deck")
DUPLICATE_ENTRY = declare("duplicate-entry", "error", "A card named twice in one deck list.",
                          "'{title}' is listed twice (first at line {first}): give its copies on one line")
BAD_COUNT = declare("bad-count", "error", "A deck list's count that is not 1 to 100 copies.",
                    "expected a count of copies from 1 to {most}, got '{got}'")
BAD_LINE = declare("bad-line", "error", "A deck list's line that is neither a count and a title, a section nor a "
                   "comment, or one over the length a line may have.", "expected {expected}")
BINARY_FILE = declare("binary-file", "error", "A file that should be text and holds binary data.",
                      "not {what}: the file is binary")
UNKNOWN_FORMAT = declare("unknown-format", "error", "A construction format that game.yaml does not declare "
                         "(formats:).", "--deck-format: {game} has no format '{name}'{hint}")
FORMAT_SET = declare("format-set", "error", "A card of a set that the chosen construction format does not draw on.",
                     "'{title}' is of the set '{set}'; format '{format}' draws on {sets}")
FORMAT_DECK = declare("format-deck", "error", "A card of a deck that the chosen construction format does not draw "
                      "on.", "'{title}' is a card of deck '{deck}'; format '{format}' draws on {decks}")

# Rulebooks
RULEBOOK_TOO_BIG = declare("rulebook-too-big", "error", "A rulebook over the limits Muster typesets.")
RULEBOOK_LAYOUT = declare("rulebook-layout", "error", "A rulebook block that cannot be set on any page.")
CARD_NOT_LISTED = declare("card-not-listed", "error", "A card reference in the rulebook that lacks cards of its "
                          "deck.", "the card reference lacks {count} card(s) of deck '{deck}': {titles}")
_NO_FACE = ("{mark} in {setting}font '{font}': its family '{family}' has no {face} face, so that text prints "
            "{printed}")  # mark: *italic* or **bold**; setting: "" on a card, "a heading set in " in the rulebook
NO_ITALIC = declare("no-italic", "warning", "*Italic* in a font whose family has no italic face: printed upright.",
                    _NO_FACE)
NO_BOLD = declare("no-bold", "warning", "**Bold** in a font whose family has no bold face: printed regular.", _NO_FACE)
CARD_FIGURE = declare("card-figure", "error", "A card drawn in the rulebook (card:) that names no card, or asks "
                      "what its layout cannot show.", "figure '{source}': {problem}")

# Output and exports
OUTPUT_IN_GAME = declare("output-in-game", "error", "An output folder inside the game folder.",
                         "the output folder is inside the game folder '{game}', where its files would be read as the "
                         "game's; name one outside it with --out, such as --out ../output")
OUTPUT_IS_A_LINK = declare("output-is-a-link", "error", "An output folder that is a link.",
                           "{what} is a link; Muster writes only into a folder of its own (remove {it})")
OUTPUT_NOT_A_FOLDER = declare("output-not-a-folder", "error", "An output folder that is a file.",
                              "{which} output folder is {what}; {remedy}")
OUTPUT_LOCKED = declare("output-locked", "error", "An output folder another build is writing into.",
                        "another build{pid} is writing into this folder; run again when it has finished")
_CANNOT = "cannot {action}: {reason}"  # action: "write into this output folder"; reason: the system's word
OUTPUT_NOT_WRITABLE = declare("output-not-writable", "error", "An output folder or file Muster cannot write.",
                              _CANNOT)
CHANGED_INPUT = declare("changed-input", "error", "An input file changed while a build was copying it into a PDF: "
                        "build again.", "changed while the PDF was being written: build again")
DISK_FULL = declare("disk-full", "error", "A file that could not be written: the disk or its quota is full.", _CANNOT)
OUTPUT_TOO_LARGE = declare("output-too-large", "error", "A file over the size the system lets a process write.",
                           _CANNOT)
VASSAL_EMPTY = declare("vassal-empty", "error", "A game with neither boards nor decks: no VASSAL module to make.",
                       "{game}: no boards or decks to put in a VASSAL module")
RASTER_TOO_BIG = declare("raster-too-big", "error", "An exported image over the pixel limit.")
SHOP_SIZE = declare("shop-size", "error", "A card size the print shop does not print.",
                    "{shop} does not print deck '{deck}''s {w:g} x {h:g} mm cards; it prints {printed}")
VASSAL_NUMBERING = declare("vassal-numbering", "error", "A hex numbering VASSAL cannot name for a board this wide.",
                           "{board}: VASSAL names the columns after Z AA, BB, ..., the map AA, AB; use numbering "
                           "\"0101\" for a grid of {columns} columns")
NOTHING_TO_EXPORT = declare("nothing-to-export", "error", "An export with nothing to put in it: a deck without cards "
                            "to print, a game without decks.", "{subject}: {nothing}")
UNKNOWN_SHOP = declare("unknown-shop", "error", "A print shop Muster does not know.",
                       "no shop '{name}'{hint} (shops: {shops})")
NO_SHOP = declare("no-shop", "error", "An export for a print shop that names none (on the command line or as shop: in "
                  "game.yaml).", "name a shop ({shops}): muster export shop SHOP GAME, or shop: in game.yaml")
ALREADY_EXISTS = declare("already-exists", "error", "A game folder `muster new` would create is there already: it "
                         "is never overwritten.", "already exists; Muster does not overwrite a folder (choose another "
                         "name or --dir)")
READ_ONLY_GAME = declare("read-only-game", "error", "A bundled game asked to change: copy it first (muster new).",
                         "'{game}' is a bundled game and is read-only; to change it, copy it first: muster new "
                         "my-{game} --from {game}")
CANNOT_SERVE = declare("cannot-serve", "error", "The preview cannot listen on its port (taken by another program?).",
                       "cannot serve the preview: {reason}")

# Muster itself
BUILD_STOPPED = declare("build-stopped", "error", "The process reading the game stopped without a word (killed, or "
                        "out of memory): build again.", "the process reading the game stopped without finishing")
INTERNAL_ERROR = declare("internal-error", "error", "A fault in Muster, not in the game: please report it.",
                         "{detail}")
