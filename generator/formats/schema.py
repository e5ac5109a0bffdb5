"""JSON Schemas (draft 2020-12) of game.yaml, deck files and layouts, for editors' YAML language servers.

The schemas are built from the code's own lists (the reserved card keys, the trait kinds, the rule kinds, the
layout elements and their fields, the card sizes, the fonts, the id patterns), so they follow the code. The
keys of each mapping of game.yaml are listed here (the loader spells them inline); the tests check every list
against the keys the loader accepts. A schema catches the shape of a file as you type: unknown keys, wrong
types, a missing title. It is not the validator: `muster validate` still checks what a schema cannot (codes
against vocabularies in the generic deck schema, rules, deck sizes, text that does not fit).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from ..layout.layout import COMMON, FIELDS, REQUIRED
from ..layout.layout import LAYOUT_KEYS
from ..reading.fonts import read_font_book
from ..reading.loading import (
    BOARD_KEYS, BOARD_SHAPES, BOUNDS, CARD_KEYS, COLOUR, COMPONENTS, DECK_FILE_KEYS, DECK_ID, DECK_KEYS,
    FORMAT_KEYS, FORMAT_VERSION, GAME_KEYS, GRID_KEYS, ICON_KEYS, MAX_CARDS_PER_DECK, MAX_COUNT, MAX_TABLE_ROWS,
    NAME, PACKINGS, PLACE_KEYS, RESERVED_CARD_KEYS, RULE_KEYS, RULE_KINDS, RULEBOOK_KEYS, RULEBOOK_PAPERS, SHAPES,
    TERM_KEYS, TRAIT_KEYS, VARIANT_KEYS, VOCABULARY_KEYS, YEAR_FROM,
)
from ..core.model import TRAIT_KINDS, Game, Trait, Vocabulary
from ..core.files import atomic_write
from ..core.units import CARD_SIZES, MM_PER

DRAFT = "https://json-schema.org/draft/2020-12/schema"

LET_NAME = r"^[a-z_][a-z0-9_]*$"
MAX_GRID_LINES = 200

_NUMBER = r"(-?\d+(?:\.\d+)?|-?\.\d+)"
_UNITS = "(" + "|".join(MM_PER) + ")"
LENGTH = rf"^\s*{_NUMBER}\s*{_UNITS}\s*$"             # game.yaml: a unit is required
LAYOUT_LENGTH = rf"^\s*{_NUMBER}\s*{_UNITS}?\s*$"     # layouts: a bare number is millimetres
SIZE = r"^\s*\S+?\s*[x×]\s*\S+\s*$"
TEMPLATE = r"\{\{|\{%"


def _pattern(regex: re.Pattern) -> str:
    return regex.pattern


def _object(properties: dict, required=(), description: str | None = None, **extra) -> dict:
    schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = list(required)
    if description:
        schema["description"] = description
    schema.update(extra)
    return schema


def _map_of(value: dict, names: str | None = None, description: str | None = None) -> dict:
    schema = {"type": "object", "additionalProperties": value}
    if names:
        schema["propertyNames"] = {"pattern": names}
    if description:
        schema["description"] = description
    return schema


def _keys(schema: dict, keys: tuple) -> dict:
    """Checks that a schema object lists exactly `keys` (the loader's), so the two are written once each."""
    assert tuple(schema["properties"]) == tuple(keys), (tuple(schema["properties"]), keys)
    return schema


def _ref(name: str) -> dict:
    return {"$ref": f"#/$defs/{name}"}


COMMON_DEFS = {
    "text": {"type": ["string", "number"], "description": "Text (a number is read as text)."},
    "scalar": {"type": ["string", "number", "boolean", "null"]},
    "scalars": {"anyOf": [{"$ref": "#/$defs/scalar"}, {"type": "array", "items": {"$ref": "#/$defs/scalar"}}]},
    "template": {"type": "string", "pattern": TEMPLATE, "description": "A Jinja template: {{ ... }}."},
    "length": {"type": "string", "pattern": LENGTH, "description": "A length with a unit: 63mm, 6.3cm, 2.5in, 9pt."},
    "colour": {"type": "string", "pattern": _pattern(COLOUR), "description": "A colour: \"#rrggbb\"."},
    "size": {"anyOf": [{"enum": list(CARD_SIZES)}, {"type": "string", "pattern": SIZE}],
             "description": f"{', '.join(CARD_SIZES)}, or a size such as \"63mm x 88mm\"."},
    "number": {"anyOf": [{"type": "number"}, {"$ref": "#/$defs/template"}],
               "description": "A number, or a Jinja expression over constants: \"{{ constants.x * 2 }}\"."},
    "when": _map_of({"$ref": "#/$defs/scalars"},
                    description="Matching cards: every key must match, a key matches one of the values listed."),
}


def game_schema() -> dict:
    """The schema of game.yaml."""
    term = {"anyOf": [
        {"$ref": "#/$defs/text"},
        _keys(_object({
            "name": {"$ref": "#/$defs/text"}, "short": {"$ref": "#/$defs/text"}, "icon": {"type": "string"},
            "colour": {"type": "string"}, "description": {"type": "string"}, "symbol": {"$ref": "#/$defs/text"},
            "letter": {"$ref": "#/$defs/text"},
        }, required=("name",)), TERM_KEYS),
    ]}
    terms = _map_of(_ref("term"))
    vocabulary = {
        "if": {"type": "object", "required": ["values"]},
        "then": _keys(_object({
            "values": terms,
            "aliases": _map_of({"type": "array", "items": {"type": ["string", "integer"]}},
                               description="Alias -> the codes it stands for: A: [E, W, M]."),
        }, required=("values",)), VOCABULARY_KEYS),
        "else": terms,
        "description": "Code -> name (or {name, short, icon, ...}); or {values: ..., aliases: ...}.",
    }
    trait = _keys(_object({
        "kind": {"enum": list(TRAIT_KINDS)},
        "vocabulary": {"type": "string", "description": "For code and codes traits: the vocabulary of their codes."},
        "min": {"type": "number"}, "max": {"type": "number"},
        "also": {"type": "array", "items": {"type": ["string", "integer"]},
                 "description": "Non-numeric tokens a number trait also allows: [\"PB\", \"--\"]."},
        "label": {"type": "string"}, "description": {"type": "string"},
    }, required=("kind",)), TRAIT_KEYS)
    trait["allOf"] = [{"if": {"properties": {"kind": {"enum": ["code", "codes"]}}},
                       "then": {"required": ["vocabulary"]}, "else": {"not": {"required": ["vocabulary"]}}}]
    deck = _keys(_object({
        "name": {"$ref": "#/$defs/text"},
        "file": {"type": "string", "description": "The deck file, in the game folder."},
        "files": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "size": {"type": "integer", "minimum": 0, "maximum": MAX_CARDS_PER_DECK,
                 "description": "Declared size: the sum of the counts must equal it."},
        "face": {"type": "string", "description": "Layout of the faces: in the game folder, else the bundled layouts/."},
        "back": {"type": "string", "description": "Layout of the backs."},
        "style": {"type": "object", "description": "Free data handed to the layouts as deck.<key>."},
        "component": {"enum": list(COMPONENTS)},
        "format": _keys(_object({
            "size": _ref("size"), "shape": {"enum": list(SHAPES)}, "packing": {"enum": list(PACKINGS)},
            "safe": _ref("length"),
        }), FORMAT_KEYS),
    }, required=("face", "back")), DECK_KEYS)
    deck["oneOf"] = [{"required": ["file"]}, {"required": ["files"]}]
    bounds = {key: _ref("number") for key in BOUNDS}
    rule = _keys(_object({
        "require": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}],
                    "description": "Traits every matching card must give."},
        "forbid": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}],
                   "description": "Traits no matching card may give."},
        "max_copies": _ref("number"),
        "total": _object({"trait": {"type": "string"}, **bounds}, required=("trait",),
                         anyOf=[{"required": [b]} for b in BOUNDS]),
        "count": _object(dict(bounds), anyOf=[{"required": [b]} for b in BOUNDS]),
        "when": _ref("when"),
        "decks": {"type": "array", "items": {"type": "string"}},
        "name": {"type": "string"}, "message": {"type": "string"},
    }), RULE_KEYS)
    rule["oneOf"] = [{"required": [kind]} for kind in RULE_KINDS]
    count = {"anyOf": [{"type": "integer", "minimum": 1, "maximum": MAX_GRID_LINES}, _ref("template")]}
    lines = {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 1}
    board = _keys(_object({
        "name": {"$ref": "#/$defs/text"},
        "file": {"type": "string", "pattern": _pattern(DECK_ID), "description": "Output file stem: map -> map.pdf."},
        "layout": {"type": "string"},
        "size": {"type": "string", "anyOf": [{"pattern": SIZE}, {"pattern": TEMPLATE}]},
        "grid": _keys(_object({
            "columns": count, "rows": count, "cell": _ref("length"), "shape": {"enum": list(BOARD_SHAPES)},
            "margin": _ref("length"),
        }, required=("columns", "rows", "cell")), GRID_KEYS),
        "place": _map_of(_keys(_object({
            "count": {"anyOf": [{"type": "integer", "minimum": 0}, _ref("template")]}, "rows": lines, "columns": lines,
        }, required=("count",)), PLACE_KEYS)),
        "features": _map_of({"type": "array", "items": {"type": "string"}}),
        "seed": {"type": "integer", "minimum": 0, "maximum": 2**31},
    }, required=("layout",)), BOARD_KEYS)
    board["anyOf"] = [{"required": ["size"]}, {"required": ["grid"]}]
    icon = _keys(_object({
        "glyph": _ref("text"), "font": {"enum": list(read_font_book().files)}, "colour": _ref("colour"),
        "image": {"type": "string", "description": "A PNG or JPEG in the game folder."},
    }), ICON_KEYS)
    icon["oneOf"] = [{"required": ["glyph"]}, {"required": ["image"]}]
    top = _keys(_object({
        "muster": {"const": FORMAT_VERSION, "description": "The format version."},
        "title": {"$ref": "#/$defs/text", "description": "Printed on backs and the rulebook."},
        "summary": {"$ref": "#/$defs/text"},
        "players": {"type": ["string", "integer"], "description": "A number or a range such as \"2-4\"."},
        "card": _keys(_object({"size": _ref("size")}), CARD_KEYS),
        "colours": _map_of(_ref("colour"), description="Named colours, for layouts: colours.<name>."),
        "icons": _map_of(icon, description="Inline icons for text: [[name]]."),
        "constants": _map_of({"type": ["string", "number", "boolean", "null"]}, _pattern(NAME),
                             "Numbers (and texts) the rules, layouts and rulebook use: constants.<name>."),
        "vocabularies": _map_of(vocabulary, description="The codes a code or codes trait may take."),
        "traits": {**_map_of(trait, description="Every key a card may carry besides the reserved ones."),
                   "propertyNames": {"pattern": _pattern(NAME), "not": {"enum": list(RESERVED_CARD_KEYS)}}},
        "decks": _map_of(deck, _pattern(DECK_ID), "Deck id (lower case, digits, dashes) -> the deck."),
        "rules": {"type": "array", "items": rule, "description": "The game's own checks."},
        "variants": _map_of(_keys(_object({
            "description": {"type": "string"}, "enabled": {"type": "boolean"}, "when": _ref("when"),
            "patch": {"type": "object", "description": "Traits set on matching cards that lack them."},
        }, required=("patch",)), VARIANT_KEYS)),
        "tables": _map_of({"type": "array", "maxItems": MAX_TABLE_ROWS,
                           "items": _map_of({"type": ["string", "number", "boolean", "null"]})},
                          _pattern(NAME), "Named lists of rows that layouts and the rulebook print from."),
        "boards": _map_of(board, _pattern(DECK_ID), "Maps and play mats, printed at 100 %."),
        "rulebook": _keys(_object({
            "file": {"type": "string"}, "paper": {"enum": list(RULEBOOK_PAPERS)}, "booklet": {"type": "boolean"},
        }, required=("file",)), RULEBOOK_KEYS),
    }, required=("muster", "title", "decks")), GAME_KEYS)
    return {
        "$schema": DRAFT,
        "title": "Muster game.yaml",
        "description": "A Muster game (docs/format.md). `muster validate` checks what a schema cannot.",
        **top,
        "$defs": {**COMMON_DEFS, "term": term},
    }


def deck_schema(game: Game | None = None) -> dict:
    """The schema of a deck file: generic (any trait key, scalar or list), or the traits of `game`."""
    card = {
        "title": {"$ref": "#/$defs/text", "description": "Printed on the card."},
        "count": {"type": "integer", "minimum": 0, "maximum": MAX_COUNT, "description": "Copies in the deck (default 1)."},
        "id": {"type": "string", "description": "Stable identifier (default: the title as lower-case ASCII with dashes)."},
        "designed": {"type": "boolean", "description": "true for a card designed for Muster rather than taken from the source."},
        "note": {"$ref": "#/$defs/text", "description": "Provenance or resolution remarks; never printed."},
    }
    assert tuple(card) == RESERVED_CARD_KEYS
    card_schema = {"type": "object", "properties": card, "required": ["title"]}
    if game is None:
        card_schema["propertyNames"] = {"pattern": _pattern(NAME)}
        card_schema["additionalProperties"] = {"$ref": "#/$defs/scalars",
                                               "description": "A trait of the game: one value or a list."}
        title, description = "Muster deck file", (
            "A deck file (docs/format.md): the reserved card keys, and any trait as a value or a list. "
            "Generic: it does not know the game's traits (`muster schema --game DIR` writes one that does).")
    else:
        for name, trait in game.traits.items():
            card[name] = trait_schema(trait, game.vocabularies)
        card_schema["additionalProperties"] = False
        title, description = f"Muster deck file of {game.title}", (
            f"A deck file of {game.title} ({game.id}): the reserved card keys and this game's traits. "
            "Written by `muster schema --game`; write it again when the traits or vocabularies change.")
    return {
        "$schema": DRAFT,
        "title": title,
        "description": description,
        **_keys(_object({"cards": {"type": "array", "items": card_schema}}, required=("cards",)), DECK_FILE_KEYS),
        "$defs": COMMON_DEFS,
    }


def trait_schema(trait: Trait, vocabularies) -> dict:
    """What a card may write for `trait` (nothing, null, counts as leaving it out)."""
    note = {"description": trait.label + (f": {trait.description}" if trait.description else "") + f" ({trait.kind})"}
    bounds = {k: v for k, v in (("minimum", trait.minimum), ("maximum", trait.maximum)) if v is not None}
    kind = trait.kind
    if kind == "text":
        options = [{"type": ["string", "number"]}]
    elif kind == "boolean":
        options = [{"type": "boolean"}]
    elif kind in ("integer", "number"):
        options = [{"type": kind, **bounds}]
        if trait.also:
            options.append({"enum": _tokens(trait.also)})
    elif kind == "year_from":
        options = [{"type": "integer", **bounds}, {"type": "string", "pattern": _pattern(YEAR_FROM)}]
    elif kind == "code":
        options = [{"enum": _tokens(vocabularies[trait.vocabulary].terms)}]
    elif kind == "codes":
        vocabulary = vocabularies[trait.vocabulary]
        words = _tokens(list(vocabulary.terms) + list(vocabulary.aliases))
        options = [{"type": "array", "items": {"enum": words}}, {"type": "string", "pattern": codes_pattern(vocabulary)}]
    else:  # a kind added to TRAIT_KINDS without a schema here: fail loudly, in the tests
        raise ValueError(f"no schema for trait kind {kind!r}")
    return {"anyOf": options + [{"type": "null"}], **note}


def _tokens(values) -> list:
    """Codes as a card may write them: 'E', and 1 as well as '1' (the loader compares them as text)."""
    result = []
    for value in values:
        result.append(str(value))
        if re.fullmatch(r"-?\d+", str(value)):
            result.append(int(value))
    return result


def codes_pattern(vocabulary: Vocabulary) -> str:
    """A regular expression for the string forms of a codes value: a code or alias, several separated by spaces
    or commas, or (when every code is one letter) the letters run together: 'EW'."""
    words = sorted({*map(str, vocabulary.terms), *map(str, vocabulary.aliases)}, key=lambda w: (-len(w), w))
    token = "(?:" + "|".join(re.escape(w) for w in words) + ")" if words else "(?!)"
    forms = [rf"\s*{token}(?:[\s,]+{token})*\s*", ""]
    if vocabulary.single_letters:
        letters = "".join(re.escape(w) for w in words if len(w) == 1)
        if letters:
            forms.append(f"[{letters}]+")
    return "^(?:" + "|".join(forms) + ")$"


def layout_schema() -> dict:
    """The schema of a layout file (card faces, backs, boards), from layout.FIELDS."""
    field_types = {
        "length": {"anyOf": [{"type": "number"}, {"type": "string", "pattern": LAYOUT_LENGTH}, _ref("template")],
                   "description": "Millimetres (a bare number), or with a unit: 2pt, 0.1in."},
        "number": {"anyOf": [{"type": "number"}, _ref("template")]},
        "bool": {"anyOf": [{"type": "boolean"}, _ref("template")]},
        "colour": {"type": "string", "description": "#rrggbb, none, black, white, or a name of the game's colours."},
        "font": {"anyOf": [{"enum": list(read_font_book().files)}, _ref("template")]},
        "align": {"anyOf": [{"enum": ["left", "center", "right", "justify"]}, _ref("template")]},
        "valign": {"anyOf": [{"enum": ["top", "middle", "bottom"]}, _ref("template")]},
        "shape": {"anyOf": [{"enum": list(BOARD_SHAPES)}, _ref("template")]},
        "count": {"anyOf": [{"type": "integer", "minimum": 1, "maximum": MAX_GRID_LINES}, _ref("template")]},
        "text": {"type": ["string", "number"]},
    }
    common_types = {
        "choice": {"enum": list(FIELDS)},
        "condition": {"type": ["string", "boolean"],
                      "description": "A Jinja expression, without braces: card.year is defined."},
        "name": {"type": "string", "pattern": LET_NAME},
        "angle": {"anyOf": [{"enum": [0, 90, 180, 270]}, _ref("template")],
                  "description": "Degrees clockwise about the centre of the element's box."},
    }
    kinds = []
    for kind, fields in FIELDS.items():
        properties = {key: common_types[role] for key, role in COMMON.items()}
        properties.update({key: field_types[role] for key, role in fields.items()})  # KeyError: a new role
        kinds.append({"if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]},
                      "then": _object(properties, required=REQUIRED[kind])})
    element = {"type": "object", "required": ["kind"], "properties": {"kind": common_types["choice"]},
               "allOf": kinds, "description": "One drawing element: " + ", ".join(FIELDS) + "."}
    return {
        "$schema": DRAFT,
        "title": "Muster layout",
        "description": "A layout (docs/layouts.md): the elements drawn on a card face, back or board, in order.",
        **_keys(_object({
            "elements": {"type": "array", "items": element},
            "let": _map_of({"type": ["string", "number"]}, LET_NAME, "Names computed once per face, in order."),
            "description": {"type": "string"},
        }, required=("elements",)), LAYOUT_KEYS),
        "$defs": {"template": COMMON_DEFS["template"]},
    }


SCHEMA_FILES = {"game.schema.json": game_schema, "deck.schema.json": deck_schema, "layout.schema.json": layout_schema}


def game_deck_file(game: Game) -> str:
    return f"deck-{game.id}.schema.json"


def write_schemas(out: Path, game: Game | None = None) -> list[Path]:
    """Writes the schemas into `out` (atomically, each file), and the game's deck schema when a game is given."""
    out.mkdir(parents=True, exist_ok=True)
    schemas = {name: build() for name, build in SCHEMA_FILES.items()}
    if game is not None:
        schemas[game_deck_file(game)] = deck_schema(game)
    written = []
    for name, schema in schemas.items():
        target = out / name
        with atomic_write(target) as temporary:
            temporary.write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(target)
    return written
