"""JSON Schemas (draft 2020-12) of game.yaml, deck files and layouts, for editors' YAML language servers.

The schemas of game.yaml and deck files are made from the format's spec (reading/spec.py): one property per key,
its type from the key's kind, its bounds, choices and description from the key. What no single key says (either
file or files, one kind per rule) is added here, section by section. The layout schema is made from the layout's
spec (layout/spec.py): each field's fragment from its role, its description from the field and its role. A schema
catches the shape of a file as you type: unknown keys, wrong types, a missing title. It is not the validator:
`muster validate` still checks what a schema cannot (codes against vocabularies in the generic deck schema, rules,
deck sizes, text that does not fit).
"""

from __future__ import annotations

import re
from pathlib import Path

from ..reading.fonts import SUFFIXES, read_font_book
from ..layout import roles
from ..layout.files import TRANSLATED
from ..layout.spec import ELEMENT_FIELDS, ELEMENTS, KIND, LAYOUT_KEYS, Field
from ..reading.kinds import COLOUR, DECK_ID, DICE, LANGUAGE, MAX_LANGUAGES, NAME, YEAR_FROM
from ..reading.spec import (
    BOARD, CARD, COUNT, DECK, DECK_FILE, FONT_FACE, GAME, ICON, MAX_TABLE_ROWS, RESERVED_CARD_KEYS,
    RULE, RULE_KINDS, TERM, TOTAL, TRAIT, VOCABULARY, Key, Section,
)
from ..core.model import Game, Trait, Vocabulary
from ..core.files import atomic_write
from ..core.written import json_text
from ..core.units import CARD_SIZES, MM_PER, NUMBER, PAPER_NAMES

DRAFT = "https://json-schema.org/draft/2020-12/schema"

_UNITS = "(" + "|".join(MM_PER) + ")"
LENGTH = rf"^\s*{NUMBER}\s*{_UNITS}\s*$"             # game.yaml: a unit is required (layouts: layout/roles.py)
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
    "length": {"type": "string", "pattern": LENGTH, "description": "A length with a unit: 63mm, 6.3cm, 2.5in, 1/8in, 9pt."},
    "dash": {"type": ["string", "number"], "description": "A dash pattern, mm on and off: \"2 1\"; none when empty."},
    "colour": {"type": "string", "pattern": _pattern(COLOUR),
               "description": "A colour: \"#rrggbb\" or \"cmyk(c, m, y, k)\" (percent)."},
    "size": {"anyOf": [{"enum": list(CARD_SIZES)}, {"type": "string", "pattern": SIZE}],
             "description": f"{', '.join(CARD_SIZES)}, or a size such as \"63mm x 88mm\"."},
    "number": {"anyOf": [{"type": "number"}, {"$ref": "#/$defs/template"}],
               "description": "A number, or a Jinja expression over constants: \"{{ constants.x * 2 }}\"."},
    "when": _map_of({"$ref": "#/$defs/scalars"},
                    description="Matching cards: every key must match, a key matches one of the values listed."),
}


def _bounds(key: Key) -> dict:
    return {name: value for name, value in (("minimum", key.minimum), ("maximum", key.maximum)) if value is not None}


_SCALAR = {"type": ["string", "number", "boolean", "null"]}
_STRINGS = {"type": "array", "items": {"type": "string"}}

def _font() -> dict:
    """A bundled font, or a face of one of the game's own families (game.yaml `fonts:`)."""
    face = "|".join(suffix for suffix in SUFFIXES.values() if suffix)
    game_font = f"{NAME.pattern.rstrip('$')}({face})?$"  # a family's name, then its face
    return {"anyOf": [{"enum": list(read_font_book().files)}, {"type": "string", "pattern": game_font}],
            "description": "A bundled font, or a face of a family of the game's fonts:."}


# The schema of a value of each kind (reading/kinds.py); a kind missing here fails the tests with a KeyError.
KIND_SCHEMAS = {
    "text": lambda key: _ref("text"),
    "string": lambda key: {"type": "string"},
    "players": lambda key: {"type": ["string", "integer"]},
    "version": lambda key: {"const": key.default},
    "integer": lambda key: {"type": "integer", **_bounds(key)},
    "number": lambda key: {"type": "number"},
    "boolean": lambda key: {"type": "boolean"},
    "choice": lambda key: {"enum": list(key.choices)},
    "font": lambda key: _font(),
    "length": lambda key: _ref("length"),
    "dash": lambda key: _ref("dash"),
    "size": lambda key: _ref("size"),
    "paper": lambda key: {"anyOf": [{"enum": list(PAPER_NAMES)}, {"type": "string", "pattern": SIZE}]},
    "colour": lambda key: _ref("colour"),
    "named-colour": lambda key: {"type": "string", "description": "A colour (\"#rrggbb\", cmyk(c, m, y, k)), none, "
                                 "black, white, or a name of the game's colours:."},
    "tokens": lambda key: {"type": "array", "items": {"type": ["string", "integer"]}},
    "dice": lambda key: {"type": "array", "items": {"type": "string", "pattern": DICE.pattern}},
    "languages": lambda key: {"type": "array", "items": {"type": "string", "pattern": LANGUAGE.pattern},
                              "minItems": 1, "maxItems": MAX_LANGUAGES, "uniqueItems": True},
    "words": lambda key: _map_of(_map_of({"type": "string"})),
    "scalar": lambda key: dict(_SCALAR),
    "file": lambda key: {"type": "string"},
    "font-file": lambda key: {"anyOf": [{"type": "string"}, _section(FONT_FACE)]},
    "face": lambda key: {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "string"}]},
    "families": lambda key: dict(_STRINGS),
    "files": lambda key: {**_STRINGS, "minItems": 1},
    "stem": lambda key: {"type": "string", "pattern": _pattern(DECK_ID)},
    "board-size": lambda key: {"type": "string", "anyOf": [{"pattern": SIZE}, {"pattern": TEMPLATE}]},
    "free": lambda key: {"type": "object"},
    "mapping": lambda key: _section(key.of),
    "map": lambda key: _map_of(_entry(key), _pattern(key.names) if key.names else None),
    "list": lambda key: {"type": "array", "items": _section(key.of)},
    "rows": lambda key: {"type": "array", "maxItems": MAX_TABLE_ROWS, "items": _map_of(dict(_SCALAR))},
    "formula": lambda key: _ref("number"),
    "whole-formula": lambda key: {"anyOf": [{"type": "integer", **_bounds(key)}, _ref("template")]},
    "trait-names": lambda key: {"anyOf": [{"type": "string"}, dict(_STRINGS)]},
    "deck-ids": lambda key: dict(_STRINGS),
    "lines": lambda key: {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 1},
    "cells": lambda key: dict(_STRINGS),
    "when": lambda key: _ref("when"),
}


def _property(key: Key) -> dict:
    return {**KIND_SCHEMAS[key.kind.name](key), "description": key.description}


def _entry(key: Key) -> dict:
    """The schema of each entry of a map."""
    if key.of is TERM:
        return _ref("term")
    if key.of is VOCABULARY:
        return {
            "if": {"type": "object", "required": ["values"]}, "then": _section(VOCABULARY),
            "else": _map_of(_ref("term")),
            "description": "Code -> name (or {name, short, icon, ...}); or {values: ..., aliases: ...}.",
        }
    if isinstance(key.of, Section):
        return _section(key.of)
    return KIND_SCHEMAS[key.of.name](key)


def translation_pattern(name: str) -> str:
    """The pattern of the keys that translate the key `name`: title:de, title:pt-BR."""
    return f"^{re.escape(name)}:{LANGUAGE.pattern.removeprefix('^')}"


def _one_of_keys(*names) -> list[dict]:
    return [{"required": [name]} for name in names]


# What no single key of a section says: the cross-field checks of the loader, as a schema writes them.
SECTION_RULES = {
    ICON: lambda: {"oneOf": _one_of_keys("glyph", "image")},
    TRAIT: lambda: {"allOf": [{"if": {"properties": {"kind": {"enum": ["code", "codes"]}}},
                               "then": {"required": ["vocabulary"]}, "else": {"not": {"required": ["vocabulary"]}}}]},
    DECK: lambda: {"oneOf": _one_of_keys("file", "files"),
                   "if": {"properties": {"component": {"const": "tokens"}}, "required": ["component"]},
                   "else": {"required": ["back"]}},  # cards need a back: tokens may print on one side
    RULE: lambda: {"oneOf": _one_of_keys(*RULE_KINDS)},
    TOTAL: lambda: {"anyOf": _one_of_keys(*COUNT.names)},
    COUNT: lambda: {"anyOf": _one_of_keys(*COUNT.names)},
    BOARD: lambda: {"anyOf": _one_of_keys("size", "grid")},
}


def _section(section: Section) -> dict:
    """The schema of one mapping of the format: its keys, those it requires, and its cross-field rules."""
    schema = _object({key.name: _property(key) for key in section.keys},
                     [key.name for key in section.keys if key.required])
    if section.translated:  # title:de beside title
        schema["patternProperties"] = {translation_pattern(name): _property(section[name])
                                       for name in section.translated}
    schema.update(SECTION_RULES[section]() if section in SECTION_RULES else {})
    return schema


def game_schema() -> dict:
    """The schema of game.yaml."""
    top = _section(GAME)
    top["properties"]["traits"]["propertyNames"]["not"] = {"enum": list(RESERVED_CARD_KEYS)}
    return {
        "$schema": DRAFT,
        "title": "Muster game.yaml",
        "description": "A Muster game (docs/format.md). `muster validate` checks what a schema cannot.",
        **top,
        "$defs": {**COMMON_DEFS, "term": {"anyOf": [_ref("text"), _section(TERM)]}},
    }


def deck_schema(game: Game | None = None) -> dict:
    """The schema of a deck file: generic (any trait key, scalar or list), or the traits of `game`."""
    card = {key.name: _property(key) for key in CARD.keys}
    card_schema = {"type": "object", "properties": card, "required": [key.name for key in CARD.keys if key.required],
                   "patternProperties": {translation_pattern(name): _property(CARD[name]) for name in CARD.translated}}
    if game is None:  # a trait, or a translation of one (text:de)
        card_schema["propertyNames"] = {"pattern": _pattern(NAME).removesuffix("$") + "(:" +
                                        LANGUAGE.pattern.removeprefix("^").removesuffix("$") + ")?$"}
        card_schema["additionalProperties"] = {"$ref": "#/$defs/scalars",
                                               "description": "A trait of the game: one value or a list."}
        title, description = "Muster deck file", (
            "A deck file (docs/format.md): the reserved card keys, and any trait as a value or a list. "
            "Generic: it does not know the game's traits (`muster schema --game DIR` writes one that does).")
    else:
        for name, trait in game.traits.items():
            card[name] = trait_schema(trait, game.vocabularies)
            if trait.kind == "text":
                card_schema["patternProperties"][translation_pattern(name)] = card[name]
        card_schema["additionalProperties"] = False
        title, description = f"Muster deck file of {game.title}", (
            f"A deck file of {game.title} ({game.id}): the reserved card keys and this game's traits. "
            "Written by `muster schema --game`; write it again when the traits or vocabularies change.")
    top = _section(DECK_FILE)
    top["properties"]["cards"]["items"] = card_schema
    return {"$schema": DRAFT, "title": title, "description": description, **top, "$defs": COMMON_DEFS}


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


def _field(field: Field) -> dict:
    """A field's schema: its role's, described by the field and then by how its role's values are written."""
    return {**field.role.schema(field), "description": f"{field.description} {field.role.description}".rstrip()}


def layout_schema() -> dict:
    """The schema of a layout file (card faces, backs, boards), from the layout's spec: per kind of element, its
    fields and those every element has (`rotate` only where it turns)."""
    kinds = []
    for kind in ELEMENTS.values():
        common = (KIND, *(f for f in ELEMENT_FIELDS if f.name != "rotate" or kind.rotates))
        properties = {field.name: _field(field) for field in (*common, *kind.fields)}
        translated = ({"patternProperties": {translation_pattern(TRANSLATED): properties[TRANSLATED]}}
                      if TRANSLATED in properties else {})
        kinds.append({"if": {"properties": {"kind": {"const": kind.name}}, "required": ["kind"]},
                      "then": _object(properties, required=kind.required, description=kind.description,
                                      **translated)})
    element = {"type": "object", "required": ["kind"], "properties": {"kind": _field(KIND)},
               "allOf": kinds, "description": "One drawing element: " + ", ".join(ELEMENTS) + "."}
    return {
        "$schema": DRAFT,
        "title": "Muster layout",
        "description": "A layout (docs/layouts.md): the elements drawn on a card face, back or board, in order.",
        **_keys(_object({
            "elements": {"type": "array", "items": element},
            "let": _map_of({"type": ["string", "number"]}, roles.NAME.schema()["pattern"],
                           "Names computed once per face, in order."),
            "description": {"type": "string"},
        }, required=("elements",)), LAYOUT_KEYS),
        "$defs": {"template": COMMON_DEFS["template"], "font": _font()},
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
            temporary.write_text(json_text(schema, indent=2) + "\n", encoding="utf-8")
        written.append(target)
    return written
