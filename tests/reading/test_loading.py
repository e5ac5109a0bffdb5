"""The loader: values parsed by kind, every problem a finding with file, line, column and field."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import patched
from generator.core import codes as catalogue
from generator.core.errors import MusterError
from generator.reading.loading import load_game
from generator.checking.data import check_data


def messages(folder) -> list[str]:
    return [str(f) for f in check_data(load_game(folder))]


def located(folder) -> list[tuple[str, str, str, str]]:
    """Each error of checking the game: its place, field, code and message (no other severity is there)."""
    findings = check_data(load_game(folder))
    assert {f.severity for f in findings} <= {"error"}
    return [(str(f.where), f.field, f.code, f.message) for f in findings]


def codes(folder) -> list[tuple[str, str]]:
    return [(f.field, f.code) for f in load_game(folder).findings]


def column(line: str, text: str) -> int:
    return line.index(text) + 1


def test_tiny_game_loads_with_parsed_values(make_game):
    game = load_game(make_game())
    cards = game.decks["reds"].cards
    assert [c.title for c in cards] == ["Alpha", "Bravo"]
    assert cards[0].traits["fronts"] == ("E", "W")  # the alias A expanded
    assert cards[1].count == 2 and game.decks["reds"].total == 3
    assert messages(make_game()) == []


def test_wrong_type_names_file_line_column_and_field(make_game):
    line = "  - {title: Alpha, type: L, force: two, fronts: A}"
    folder = make_game({"reds.yaml": f"cards:\n{line}\n  - {{title: Bravo, type: U, force: 3, fronts: E, count: 2}}\n"})
    assert located(folder) == [(f"{folder / 'reds.yaml'}:2:{column(line, 'two')}", "cards[0].force", "wrong-type",
                                catalogue.WRONG_TYPE.message(expected="an integer", got="'two'"))]


def test_unknown_code_lists_the_allowed_ones(make_game):
    line = "  - {title: Alpha, type: L, force: 2, fronts: EX}"
    folder = make_game({"reds.yaml": f"cards:\n{line}\n  - {{title: Bravo, type: U, force: 3, fronts: E, count: 2}}\n"})
    assert located(folder) == [(f"{folder / 'reds.yaml'}:2:{column(line, 'EX')}", "cards[0].fronts", "unknown-code",
                                catalogue.UNKNOWN_CODE.message(trait="fronts", got="'X'", expected="codes of E, W, A"))]


def test_unknown_key_gets_a_did_you_mean_hint(make_game):
    line = "  - {title: Alpha, type: L, forse: 2, fronts: A}"
    folder = make_game({"reds.yaml": f"cards:\n{line}\n  - {{title: Bravo, type: U, force: 3, fronts: E, count: 2}}\n"})
    found = located(folder)
    assert (f"{folder / 'reds.yaml'}:2:{column(line, 'forse')}", "cards[0].forse", "unknown-key",
            catalogue.UNKNOWN_KEY.message(what="key", name="forse", hint=" (did you mean 'force'?)")) in found


def test_duplicate_key_is_an_error_not_a_silent_overwrite(make_game):
    folder = make_game({"reds.yaml": "cards:\n  - title: Alpha\n    type: L\n    force: 2\n    force: 3\n"})
    (twice,) = load_game(folder).findings
    assert (str(twice.where), twice.field, twice.code) == (f"{folder / 'reds.yaml'}:5:5", "", "duplicate-key")
    assert "(first at line 4)" in twice.message  # on purpose: the first of the two is named in the text alone


def test_year_from_accepts_plus_and_checks_range(make_game):
    folder = make_game({"reds.yaml": "cards:\n  - {title: Alpha, type: L, force: 2, fronts: A, year: 1944+}\n  - {title: Bravo, type: U, force: 3, fronts: E, count: 2, year: 1950+}\n"})
    game = load_game(folder)
    assert game.decks["reds"].cards[0].traits["year"] == 1944
    assert ("cards[1].year", "out-of-range") in codes(folder)


def test_yaml_syntax_error_is_fatal_with_line(make_game):
    folder = make_game({"game.yaml": "muster: 1\ntitle: [oops\n"})
    with pytest.raises(MusterError) as caught:
        load_game(folder)
    assert str(caught.value).startswith(f"{folder / 'game.yaml'}:")
    assert "YAML syntax" in str(caught.value)
    assert caught.value.code == "yaml-syntax"


def test_paths_outside_the_game_folder_are_refused(make_game, tmp_path):
    (tmp_path / "elsewhere.yaml").write_text("cards: []\n")
    folder = make_game()
    text = patched((folder / "game.yaml").read_text(), {"file: reds.yaml": "file: ../elsewhere.yaml"})
    (folder / "game.yaml").write_text(text)
    assert codes(folder) == [("decks.reds", "file-outside-game")]
    line = next(n for n, text in enumerate(text.splitlines(), 1) if "../elsewhere.yaml" in text)
    assert [(f.where.path.name, f.where.line) for f in load_game(folder).findings] == [("game.yaml", line)]


def test_variant_patches_matching_cards_without_the_trait(make_game):
    folder = make_game()
    text = (folder / "game.yaml").read_text() + (
        "variants:\n  late_leaders:\n    description: Leaders arrive late.\n    when: {type: [L]}\n    patch: {year: 1942}\n")
    (folder / "game.yaml").write_text(text)
    assert "year" not in load_game(folder).decks["reds"].cards[0].traits
    patched = load_game(folder, variants=["late_leaders"]).decks["reds"].cards
    assert patched[0].traits["year"] == 1942 and "year" not in patched[1].traits
    with pytest.raises(MusterError) as caught:
        load_game(folder, variants=["late_leader"])
    assert (caught.value.code, caught.value.message) == (
        "unknown-variant", catalogue.UNKNOWN_VARIANT.message(name="late_leader", hint=" (did you mean 'late_leaders'?)"))


def test_icon_colours_may_name_the_games_colours(make_game):
    folder = make_game()
    text = patched((folder / "game.yaml").read_text(), {'star: {glyph: "★", font: text-bold}':
                                                            'star: {glyph: "★", font: text-bold, colour: dark}'})
    (folder / "game.yaml").write_text(text)
    assert load_game(folder).icons["star"].colour == "#222222"
    (folder / "game.yaml").write_text(patched(text, {"colour: dark}": "colour: darkish}"}))
    assert codes(folder) == [("icons.star.colour", "bad-colour")]
    line = next(n for n, text in enumerate(text.splitlines(), 1) if "star:" in text)
    assert [(f.where.path.name, f.where.line) for f in load_game(folder).findings] == [("game.yaml", line)]


def test_values_that_once_crashed_the_loader_are_findings(make_game):
    """A board without a layout, a rulebook without a file, a mapping where a name belongs, a template that
    fails in Python rather than in Jinja: each is a finding with its code."""
    folder = make_game({"rules.md": "# Rules\n"})
    text = (folder / "game.yaml").read_text()
    (folder / "game.yaml").write_text(
        patched(text, {"{kind: code, vocabulary: card_type}": "{kind: code, vocabulary: {a: 1}}"})
        + "  - count: {min: \"{{ constants.width * 2 }}\"}\n  - require: [{a: 1}]\n    decks: [{b: 2}]\n"
        + "constants: {width: [1]}\nboards:\n  map: {size: 100mm x 100mm}\nrulebook: {paper: a4}\n"
    )
    found = codes(folder)
    assert ("traits.type.vocabulary", "unknown-vocabulary") in found
    assert ("boards.map", "missing-key") in found and ("rulebook", "missing-key") in found
    assert ("rules[1].count.min", "bad-template") in found
    assert ("rules[2].require", "unknown-trait") in found


def test_every_reading_finding_has_a_code(make_game):
    folder = make_game({"reds.yaml": "cards:\n  - {title: Alpha, type: Q, force: 99, fronts: [E, Z], year: soon,"
                                     " count: -1, designed: 2, zz: 1}\n  - 5\n"})
    text = patched((folder / "game.yaml").read_text(), {"size: poker": "size: huge", "size: 3": "size: many"})
    text = patched(text, {'colours: {dark: "#222222"}': "colours: {dark: red}"})
    (folder / "game.yaml").write_text(text + "tables: {Bad: 1}\nvariants: {v: {patch: {zz: 1}}}\n")
    findings = load_game(folder).findings
    assert len(findings) > 10
    assert all(f.code for f in findings), [str(f) for f in findings if not f.code]


def test_yaml_values_keep_their_places_and_merge_keys_follow_yaml(tmp_path):
    """The loader builds values from parser events: every key and value knows its line and column, anchors and
    merge keys (<<) behave as YAML says, and a second document is refused."""
    from generator.reading.sourcemap import load_yaml

    path = tmp_path / "m.yaml"
    path.write_text("base: &b {a: 1, b: 2}\nother: &o {b: 9, c: 3}\n"
                    "m: {<<: [*b, *o], a: 5, '<<': 7}\nlist:\n  - x\n  - *b\n")
    data = load_yaml(path)
    assert dict(data["m"]) == {"a": 5, "<<": 7, "b": 2, "c": 3}
    assert data["m"].key_where["b"] == (path, 1, 17) and data["m"].value_where["a"] == (path, 3, 22)
    assert data["list"][1] is data["base"] and data["list"].item_where == [(path, 5, 5), (path, 6, 5)]
    path.write_text("a: 1\n---\nb: 2\n")
    with pytest.raises(MusterError) as refused:  # a second document
        load_yaml(path)
    assert (refused.value.code, refused.value.where) == ("yaml-syntax", (path, 2, 1))
    path.write_text("a: *nowhere\n")
    with pytest.raises(MusterError) as refused:  # an alias without its anchor
        load_yaml(path)
    assert (refused.value.code, refused.value.where) == ("yaml-syntax", (path, 1, 4))
    path.write_text("")
    assert load_yaml(path) is None


def _plain(value):
    """Map and Seq as the dict and list PyYAML makes."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


_SCALARS = (st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False, width=32)
            | st.text(max_size=12))
_KEYS = st.text(min_size=1, max_size=8) | st.integers(0, 99)
_DOCUMENTS = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4)
                          | st.dictionaries(_KEYS, inner, max_size=4), max_leaves=20)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=_DOCUMENTS, flow=st.booleans())
def test_the_loader_reads_what_pyyaml_reads(tmp_path, document, flow):
    """Built from parser events, the values are the ones PyYAML's safe loader builds from the same text."""
    import yaml

    from generator.reading.sourcemap import load_yaml

    text = yaml.safe_dump(document, default_flow_style=flow, allow_unicode=True)
    path = tmp_path / "doc.yaml"
    path.write_text(text, encoding="utf-8")
    assert _plain(load_yaml(path)) == yaml.safe_load(text)
