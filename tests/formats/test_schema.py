"""The JSON Schemas of `muster schema`: the bundled games conform, broken files do not, and every list of keys
in a schema is the list the loader accepts."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
import typer
import yaml
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from conftest import REPO
from generator.cli.authoring import schema as schema_command
from generator.core.errors import MusterError
from generator.layout.files import read_layout
from generator.reading.loading import load_game
from generator.reading.resources import bundled_games
from generator.formats.schema import LAYOUT_KEYS, codes_pattern, deck_schema, game_schema, layout_schema
from generator.reading.spec import (
    BOARD, COUNT, DECK, FORMAT, GAME, GAME_CARD, GRID, ICON, PLACE, RULE, RULEBOOK, TERM, TOTAL, TRAIT, VARIANT,
    VOCABULARY,
)

GAMES = bundled_games()


def plain(path: Path):
    """A YAML file as an editor's language server sees it: JSON values, keys as strings."""
    return json.loads(json.dumps(yaml.safe_load(path.read_text(encoding="utf-8")), default=str))


def problems(schema: dict, data) -> list[str]:
    return sorted(f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in Draft202012Validator(schema).iter_errors(data))


@pytest.fixture(scope="module")
def schemas():
    built = {"game": game_schema(), "deck": deck_schema(), "layout": layout_schema()}
    for schema in built.values():
        Draft202012Validator.check_schema(schema)
    return built


def test_the_schemas_in_the_repository_are_the_ones_muster_schema_writes(schemas):
    # editors point at schemas/ in a checkout (docs/editors.md): a key added to the spec must reach them
    for name, schema in schemas.items():
        committed = json.loads((REPO / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8"))
        assert committed == schema, f"schemas/{name}.schema.json is out of date: run muster schema"


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_bundled_games_conform(game, schemas):
    assert problems(schemas["game"], plain(game / "game.yaml")) == []
    loaded = load_game(game)
    specific = deck_schema(loaded)
    Draft202012Validator.check_schema(specific)
    for deck in loaded.decks.values():
        for path in deck.files:
            assert problems(schemas["deck"], plain(path)) == [], path
            assert problems(specific, plain(path)) == [], path


def test_bundled_layouts_conform(schemas):
    layouts = sorted((REPO / "layouts").rglob("*.yaml"))
    assert len(layouts) > 20
    for path in layouts:
        assert problems(schemas["layout"], plain(path)) == [], path


def test_broken_files_are_rejected(schemas):
    game = plain(REPO / "decks" / "europe-1939" / "game.yaml")
    for change, expected in (
        (lambda g: g.update(titel="x"), "'titel' does not match any of the regexes"),
        (lambda g: g["decks"]["germans"].update(size="56"), "decks/germans/size: '56' is not of type 'integer'"),
        (lambda g: g["decks"]["germans"].update(fiel="x.yaml"), "'fiel' does not match any of the regexes"),
        (lambda g: g["traits"]["force"].update(kind="int"), "traits/force/kind: 'int' is not one of"),
        (lambda g: g["traits"].update(count={"kind": "integer"}), "traits: 'count' should not be valid"),
        (lambda g: g["rules"][0].update(forbid=["text"]), "rules/0: "),          # two kinds in one rule
        (lambda g: g["colours"].update(red="red"), "colours/red: 'red' does not match"),
        (lambda g: g.pop("muster"), "'muster' is a required property"),
    ):
        broken = copy.deepcopy(game)
        change(broken)
        found = problems(schemas["game"], broken)
        assert any(expected in p for p in found), (expected, found)

    deck = {"cards": [{"title": "A", "count": "two"}, {"count": 1}, {"title": "C", "force": {"a": 1}}]}
    found = problems(schemas["deck"], deck)
    assert any("cards/0/count: 'two' is not of type 'integer'" in p for p in found), found
    assert not any(p.startswith("cards/1") for p in found), found  # a token needs no title: the loader asks cards
    assert any(p.startswith("cards/2/force:") for p in found), found
    assert problems(schemas["deck"], {"cards": [], "extra": 1}) != []

    layout = {"elements": [{"kind": "text", "x": 1, "y": 2, "w": 3, "text": "a", "sise": 9},
                           {"kind": "blob"}, {"kind": "box", "x": "3 mm", "y": "3furlongs", "w": 1, "h": 1}]}
    found = problems(schemas["layout"], layout)
    assert any("elements/0: 'h' is a required property" in p for p in found), found
    assert any("'sise' does not match any of the regexes" in p for p in found), found
    assert any(p.startswith("elements/1/kind:") for p in found), found
    assert any(p.startswith("elements/2/y:") for p in found) and not any(p.startswith("elements/2/x:") for p in found), found


def test_game_deck_schema_knows_traits_and_codes():
    game = load_game(REPO / "decks" / "europe-1939")
    schema = deck_schema(game)
    good = {"cards": [{"title": "A", "type": "L", "force": 2, "fronts": "EW", "year": "1944+"},
                      {"title": "B", "fronts": ["A"], "year": 1942}, {"title": "C", "fronts": "E, M"},
                      {"title": "D", "fronts": []}]}
    assert problems(schema, good) == []
    bad = {"cards": [{"title": "A", "type": "X", "force": 10, "fronts": "EQ", "year": 1950, "forse": 1}]}
    found = problems(schema, bad)
    for key in ("type", "force", "fronts", "year"):
        assert any(p.startswith(f"cards/0/{key}:") for p in found), (key, found)
    assert any("'forse' does not match any of the regexes" in p for p in found), found
    tank = load_game(REPO / "decks" / "tank-duel")
    assert problems(deck_schema(tank), {"cards": [{"title": "A", "range": "PB"}, {"title": "B", "range": 2000}]}) == []
    assert problems(deck_schema(tank), {"cards": [{"title": "A", "range": "far"}]}) != []


def test_codes_pattern_agrees_with_the_loader():
    game = load_game(REPO / "decks" / "europe-1939")
    pattern = re.compile(codes_pattern(game.vocabularies["front"]))
    for text, ok in (("E", True), ("EWM", True), ("A", True), ("E W", True), ("E,W", True), ("", True),
                     ("EQ", False), ("E X", False), ("AE", True), ("e", False)):
        assert bool(pattern.match(text)) is ok, text


# --- the lists of keys: the schema's against the loader's -------------------------------------------------------

PROBE = "zzqqxx"
PROBE_GAME = {
    "muster": 1, "title": "Probe", "card": {"size": "poker"},
    "icons": {"star": {"glyph": "*"}},
    "vocabularies": {"kind": {"L": {"name": "Leader"}}, "front": {"values": {"E": {"name": "East"}}, "aliases": {"A": ["E"]}}},
    "traits": {"force": {"kind": "integer"}, "type": {"kind": "code", "vocabulary": "kind"}},
    "decks": {"reds": {"file": "reds.yaml", "face": "f.yaml", "back": "b.yaml", "format": {"size": "poker"}}},
    "rules": [{"require": ["force"]}, {"total": {"trait": "force", "min": 0}}, {"count": {"min": 0}}],
    "variants": {"v": {"patch": {"force": 1}}},
    "boards": {"map": {"layout": "m.yaml", "grid": {"columns": 2, "rows": 2, "cell": "10mm"},
                       "place": {"town": {"count": 1}}}},
    "rulebook": {"file": "rules.md"},
}
LEVELS = [
    ((), GAME), (("card",), GAME_CARD), (("icons", "star"), ICON),
    (("vocabularies", "front"), VOCABULARY), (("vocabularies", "front", "values", "E"), TERM),
    (("traits", "force"), TRAIT), (("decks", "reds"), DECK), (("decks", "reds", "format"), FORMAT),
    (("rules", 0), RULE), (("rules", 1, "total"), TOTAL), (("rules", 2, "count"), COUNT),
    (("variants", "v"), VARIANT), (("boards", "map"), BOARD), (("boards", "map", "grid"), GRID),
    (("boards", "map", "place", "town"), PLACE), (("rulebook",), RULEBOOK),
]


def accepted(message: str) -> set[str]:
    match = re.search(r"expected(?: one of:)? ([a-z_, ]+)\)$", message)
    assert match, message
    return set(match.group(1).split(", "))


def schema_at(schema: dict, path: tuple) -> dict:
    """The schema object describing the mapping at `path` of a game.yaml."""
    node = schema
    for step in path:
        if isinstance(step, int):
            node = node["items"]
        elif "properties" in node and step in node["properties"]:
            node = node["properties"][step]
        else:
            node = node["additionalProperties"]
        while "properties" not in node and ("$ref" in node or "anyOf" in node or "then" in node):
            if "$ref" in node:
                node = schema["$defs"][node["$ref"].rsplit("/", 1)[1]]
            elif "then" in node:
                node = node["then"]
            else:
                node = next(o for o in node["anyOf"] if o.get("type") == "object")
    return node


@pytest.mark.parametrize("path, section", LEVELS, ids=["/".join(map(str, p)) or "top" for p, _ in LEVELS])
def test_schema_keys_are_the_loaders(tmp_path, path, section):
    game = copy.deepcopy(PROBE_GAME)
    node = game
    for step in path:
        node = node[step]
    node[PROBE] = 1
    (tmp_path / "game.yaml").write_text(yaml.safe_dump(game), encoding="utf-8")
    (tmp_path / "reds.yaml").write_text("cards: [{title: A}]\n", encoding="utf-8")
    (tmp_path / "rules.md").write_text("", encoding="utf-8")
    messages = [f.message for f in load_game(tmp_path).findings if f"unknown key '{PROBE}'" in f.message]
    assert len(messages) == 1, [f.message for f in load_game(tmp_path).findings]
    assert accepted(messages[0]) == set(section.names)
    assert list(schema_at(game_schema(), path)["properties"]) == list(section.names)


def test_card_and_layout_keys_are_the_loaders(tmp_path):
    (tmp_path / "game.yaml").write_text(yaml.safe_dump(copy.deepcopy(PROBE_GAME)), encoding="utf-8")
    (tmp_path / "reds.yaml").write_text(f"cards: [{{title: A, {PROBE}: 1}}]\n{PROBE}: 1\n", encoding="utf-8")
    (tmp_path / "rules.md").write_text("", encoding="utf-8")
    game = load_game(tmp_path)
    card_message, file_message = sorted((f.message for f in game.findings if PROBE in f.message), key=len, reverse=True)
    card_schema = deck_schema(game)["properties"]["cards"]["items"]
    assert accepted(card_message) == set(card_schema["properties"])
    assert accepted(file_message) == set(deck_schema()["properties"])
    (tmp_path / "layout.yaml").write_text(f"elements: []\n{PROBE}: 1\n", encoding="utf-8")
    with pytest.raises(MusterError) as caught:
        read_layout(tmp_path / "layout.yaml")
    assert caught.value.code == "unknown-key"
    assert set(re.search(r"expected ([a-z, ]+)\)", caught.value.message).group(1).split(", ")) == set(LAYOUT_KEYS)


def test_schema_command_writes_the_files(tmp_path):
    app = typer.Typer()
    app.command("schema")(schema_command)
    app.command("other")(lambda: None)  # two commands, so that the command is named as in muster
    result = CliRunner().invoke(app, ["schema", "--out", str(tmp_path / "s"), "--game", str(REPO / "decks" / "tank-duel")])
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "s").iterdir())
    assert names == ["deck-tank-duel.schema.json", "deck.schema.json", "game.schema.json", "layout.schema.json"]
    for path in (tmp_path / "s").iterdir():
        written = json.loads(path.read_text(encoding="utf-8"))
        assert written["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    missing = CliRunner().invoke(app, ["schema", "--out", str(tmp_path / "t"), "--game", str(tmp_path / "nowhere")])
    assert missing.exit_code == 2 and "error:" in missing.stderr and len(missing.stderr.splitlines()) == 1


DRAFT7_AND_2020 = {  # keywords both drafts read the same way: editors whose language server knows only draft-07
    "$schema", "$ref", "$defs", "title", "description", "type", "properties", "additionalProperties", "required",
    "propertyNames", "items", "enum", "const", "pattern", "minimum", "maximum", "minItems", "maxItems",
    "anyOf", "oneOf", "allOf", "not", "if", "then", "else", "patternProperties", "uniqueItems",
}


def keywords(node, inside_properties=False):
    if isinstance(node, dict):
        for key, value in node.items():
            if not inside_properties:
                yield key
            yield from keywords(value, key in ("properties", "patternProperties", "$defs")
                                and not inside_properties)
    elif isinstance(node, list):
        for item in node:
            yield from keywords(item)


def test_schemas_read_the_same_in_draft_7(schemas):
    """VS Code's YAML extension validates with draft-07: the schemas use no keyword that means something else
    there, and the bundled games pass a draft-07 validator too."""
    from jsonschema import Draft7Validator

    specific = deck_schema(load_game(REPO / "decks" / "tank-duel"))
    for schema in (*schemas.values(), specific):
        assert set(keywords(schema)) <= DRAFT7_AND_2020, set(keywords(schema)) - DRAFT7_AND_2020
    assert list(Draft7Validator(schemas["game"]).iter_errors(plain(REPO / "decks" / "tank-duel" / "game.yaml"))) == []
    assert list(Draft7Validator(specific).iter_errors(plain(REPO / "decks" / "tank-duel" / "british.yaml"))) == []
    assert list(Draft7Validator(specific).iter_errors({"cards": [{"title": "A", "range": "far"}]})) != []
