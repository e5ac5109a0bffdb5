"""The format's spec (reading/spec.py) drives the loader's key checks, `muster schema` and the key tables of
docs/format.md: a key added to the spec appears in all three."""

from __future__ import annotations

import pytest

from conftest import REPO, patched
from generator.reading.fonts import read_font_book
from generator.formats import reference
from generator.formats.schema import KIND_SCHEMAS, deck_schema, game_schema
from generator.reading import kinds
from generator.reading.loading import load_game
from generator.reading.spec import CARD, DECK, SECTIONS, Derived, Key


def test_docs_hold_the_tables_the_spec_makes():
    """docs/format.md's key tables are the spec's; `python -m generator.formats.reference` writes them again."""
    text = (REPO / "docs" / "format.md").read_text(encoding="utf-8")
    assert reference.with_tables(text) == text


def test_every_kind_has_a_schema_and_every_default_reads():
    read_font_book()  # a default font reads as a font of the book
    keys = [key for section in SECTIONS for key in section.keys]
    used = {key.kind for key in keys} | {key.of for key in keys if isinstance(key.of, kinds.Kind)}
    assert {kind.name for kind in used} <= set(KIND_SCHEMAS)
    assert {kind for kind in vars(kinds).values() if isinstance(kind, kinds.Kind)} == used
    for section in SECTIONS:
        for key in section.keys:
            if key.default is not None and not isinstance(key.default, Derived) and key.kind.coerce:
                assert key.fallback is not None, (section.path, key.name)
            assert key.description.endswith("."), (section.path, key.name)


def test_a_key_added_to_the_spec_is_read_published_and_documented(make_game, monkeypatch):
    folder = make_game()
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(patched(game_yaml.read_text(), {"    style: {side: Red}":
                                                             "    style: {side: Red}\n    sleeve: blue"}))
    (folder / "reds.yaml").write_text("cards:\n  - {title: Alpha, type: L, force: 2, fronts: A, artist: Ann}\n"
                                      "  - {title: Bravo, type: U, force: 3, fronts: E, count: 2}\n")
    codes = [(f.field, f.code) for f in load_game(folder).findings]
    assert codes == [("decks.reds.sleeve", "unknown-key"), ("cards[0].artist", "unknown-key")]
    docs = (REPO / "docs" / "format.md").read_text(encoding="utf-8")

    monkeypatch.setattr(DECK, "keys", DECK.keys + (Key("sleeve", kinds.TEXT, "The sleeves' colour."),))
    monkeypatch.setattr(CARD, "keys", CARD.keys + (Key("artist", kinds.TEXT, "Who drew it.", default=""),))
    assert load_game(folder).findings == ()
    deck = game_schema()["properties"]["decks"]["additionalProperties"]
    assert deck["properties"]["sleeve"] == {"$ref": "#/$defs/text", "description": "The sleeves' colour."}
    assert "artist" in deck_schema()["properties"]["cards"]["items"]["properties"]
    assert "| `sleeve` | text |  | The sleeves' colour. |" in reference.key_tables()
    assert reference.with_tables(docs) != docs  # the docs check fails until the tables are written again


def test_schema_properties_are_the_spec_keys():
    """Every mapping of the spec is an object of the schema with exactly its keys, required ones included."""
    schema = game_schema()
    objects = []

    def walk(node):
        if isinstance(node, dict):
            if node.get("type") == "object" and "properties" in node:
                objects.append(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    walk(deck_schema())
    found = {tuple(node["properties"]): node.get("required", []) for node in objects}
    for section in SECTIONS:
        assert section.names in found, section.path
        assert found[section.names] == [key.name for key in section.keys if key.required], section.path


@pytest.mark.parametrize("section", SECTIONS, ids=[s.path for s in SECTIONS])
def test_sections_have_distinct_keys(section):
    assert len(set(section.names)) == len(section.names)
