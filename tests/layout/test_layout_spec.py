"""The layout's spec (layout/spec.py) drives the key checks of layout files, the reading of every value, the layout
schema and the element tables of docs/layouts.md: a kind added to the spec appears in all of them, with its own
defaults."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from conftest import REPO
from generator.core.display import Run
from generator.core.errors import MusterError
from generator.formats import reference
from generator.formats.schema import layout_schema
from generator.layout import elements, spec
from generator.layout.cards import lay_out_cards
from generator.layout.files import read_layout
from generator.layout.roles import NUMBER, TEXT
from generator.reading.fonts import read_font_book
from generator.reading.loading import load_game
from generator.reading.spec import Derived


def test_docs_hold_the_element_tables_the_spec_makes():
    """docs/layouts.md's element tables are the spec's; `python -m generator.formats.reference` writes them again."""
    text = (REPO / "docs" / "layouts.md").read_text(encoding="utf-8")
    assert reference.with_element_tables(text) == text


def test_a_kind_and_a_field_are_declared_once():
    with pytest.raises(ValueError, match="element kind 'box' is declared twice"):
        spec.element("box", "Another box.", *spec.BOX)
    size = spec.Field("size", NUMBER, "A size.", default=1)
    with pytest.raises(ValueError, match="size declared twice"):
        spec.Kind("badge", "A badge.", elements.box, (size, size))
    with pytest.raises(ValueError, match="when declared twice"):
        spec.Kind("badge", "A badge.", elements.box, (spec.Field("when", TEXT, "A time."),))
    with pytest.raises(ValueError, match="a choice has choices"):
        spec.Field("align", spec.CHOICE, "Where.")


def test_every_default_reads_by_its_role_and_every_field_says_what_it_is():
    read_font_book()
    for kind in spec.ELEMENTS.values():
        assert kind.description.endswith("."), kind.name
        for field in (*spec.ELEMENT_FIELDS, *kind.fields):
            assert field.description.endswith("."), (kind.name, field.name)
            if field.default is not None and not isinstance(field.default, Derived) and hasattr(field.role, "read"):
                field.read(field.default, {})  # raises when a default is not a value of its role
        assert not set(kind.defaults) & set(kind.required), kind.name


def badge(values, element, canvas, found):
    return [Run(values["x"], values["y"], "B", "text", values["size"], "#000000")]


def test_a_kind_added_to_the_spec_is_read_drawn_with_its_own_defaults_published_and_documented(make_game, monkeypatch):
    """A `size` is the badge's own, with the badge's default: not a text's 9 pt."""
    face = "elements:\n  - {kind: badge, x: 4, y: 5}\n  - {kind: text, x: 4, y: 20, w: 50, h: 10, text: T}\n"
    folder = make_game({"face.yaml": face})
    with pytest.raises(MusterError) as caught:
        read_layout(folder / "face.yaml")
    assert caught.value.code == "unknown-kind"
    docs = (REPO / "docs" / "layouts.md").read_text(encoding="utf-8")

    monkeypatch.setattr(elements, "badge", badge, raising=False)
    monkeypatch.setitem(spec.ELEMENTS, "badge", spec.Kind("badge", "A badge.", elements.badge, (
        spec.Field("x", spec.LENGTH, "Its left.", required=True),
        spec.Field("y", spec.LENGTH, "Its top.", required=True),
        spec.Field("size", NUMBER, "Its size in points.", default=5))))
    (folder / "face.yaml").write_text(face + "\n")  # read again: the layout files are remembered by their version
    game = load_game(folder)
    laid = lay_out_cards(game, game.decks["reds"], 3.0)
    badge_run, text_run = (item for item in laid.faces[laid.fronts[0]].items if type(item) is Run)
    assert (badge_run.text, badge_run.size) == ("B", 5)
    assert text_run.size == 9
    with pytest.raises(MusterError) as caught:
        (folder / "face.yaml").write_text("elements:\n  - {kind: badge, x: 4, y: 5, sise: 2}\n")
        read_layout(folder / "face.yaml")
    assert caught.value.code == "unknown-key" and "did you mean 'size'" in caught.value.message

    schema = layout_schema()
    assert "badge" in schema["properties"]["elements"]["items"]["properties"]["kind"]["enum"]
    assert Draft202012Validator(schema).is_valid({"elements": [{"kind": "badge", "x": 1, "y": 2, "size": 4}]})
    assert not Draft202012Validator(schema).is_valid({"elements": [{"kind": "badge", "x": 1, "y": 2, "w": 4}]})
    assert "| `size` | number, -1000 to 1000 | `5` | Its size in points. |" in reference.element_tables()
    assert reference.with_element_tables(docs) != docs  # the docs check fails until the tables are written again


@pytest.mark.parametrize("element, valid", [
    ({"kind": "text", "x": 1, "y": 1, "w": 9, "h": 9, "text": "A", "size": 5000}, False),  # numbers have bounds
    ({"kind": "text", "x": 1, "y": 1, "w": 9, "h": 9, "text": "A", "size": "{{ 5000 }}"}, True),  # checked later
    ({"kind": "line", "x1": 1, "y1": 1, "x2": 9, "y2": 9, "rotate": 90}, False),  # a line does not turn
    ({"kind": "text", "x": 1, "y": 1, "w": 9, "h": 9, "text": "A", "rotate": 90}, True),
    ({"kind": "grid", "x": 1, "y": 1, "columns": 201, "rows": 2, "cell": 9}, False),
])
def test_the_schema_takes_bounds_and_turning_from_the_spec(element, valid):
    assert Draft202012Validator(layout_schema()).is_valid({"elements": [element]}) is valid
