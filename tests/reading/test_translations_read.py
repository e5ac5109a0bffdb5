"""A game in several languages (languages:, `<key>:<lang>` keys and `Header:lang` columns): read in its source
language unchanged, in another with its translations, its mistakes located."""

from __future__ import annotations

import shutil

import pytest

from conftest import GAME_YAML, REDS_YAML, TESTS, patched
from generator.core.errors import MusterError
from generator.reading.loading import load_game

BILINGUAL = TESTS / "fixtures" / "bilingual"


def cards(game, deck_id):
    return {card.title: card for card in game.decks[deck_id].cards}


def test_the_source_language_reads_as_written():
    game = load_game(BILINGUAL)
    assert (game.languages, game.language, game.title) == (("en", "de"), "", "Bridgehead")
    units = cards(game, "units")
    assert units["Rifle Squad"].printed_title == "Rifle Squad"
    assert units["Rifle Squad"].traits["text"] == "Moves and fires in the same turn."
    assert game.vocabularies["side"].terms["A"].name == "Allies"
    assert game.words["contents"] == "Contents"


def test_german_prints_its_translations_and_keeps_the_source_identity():
    game = load_game(BILINGUAL, language="de")
    assert (game.language, game.title, game.summary) == ("de", "Brückenkopf", "Ein kleines Testspiel in zwei Sprachen.")
    units = cards(game, "units")  # still named by the source title: deck lists, figures, rules use it
    squad = units["Rifle Squad"]
    assert (squad.printed_title, squad.id) == ("Schützengruppe", "rifle-squad")
    assert squad.traits["text"] == "Bewegt sich und feuert im selben Zug."
    assert units["Tank Platoon"].traits["text"] == "Ignores the first hit."  # no German: the source prints
    assert game.decks["units"].name == "Einheiten"
    assert game.vocabularies["side"].terms["X"].name == "Achse"
    assert game.traits["text"].label == "Regeltext"
    assert (game.words["contents"], game.words["players"]) == ("Inhalt", "Mitspieler")  # bundled; the game's own
    orders = cards(game, "orders")  # a sheet's Title:de and Text:de columns
    assert orders["Advance"].printed_title == "Vorrücken"
    assert orders["Dig In"].printed_title == "Dig In"
    assert orders["Dig In"].traits["text"] == "Einheiten in Deckung ignorieren einen Treffer."
    assert not [f for f in game.findings if f.code == "missing-translation"]  # said once, of the source


def test_every_missing_translation_is_a_located_warning():
    game = load_game(BILINGUAL)
    missing = {(f.where.path.name, f.where.line, f.field) for f in game.findings if f.code == "missing-translation"}
    assert missing == {("game.yaml", 17, "traits.side.label"), ("game.yaml", 18, "traits.attack.label"),
                       ("units.yaml", 12, "cards[1].text"), ("orders.csv", 3, "title")}
    assert all(f.severity == "warning" for f in game.findings)


@pytest.mark.parametrize("edit, code, field, line", [
    ({"  - title: Tank Platoon\n": "  - title: Tank Platoon\n    title:fr: Peloton\n"}, "unknown-language",
     "cards[1].title:fr", 9),
    ({"    attack: 4\n": "    attack: 4\n    attack:de: 5\n"}, "not-translatable", "cards[1].attack:de", 12),
    ({"    text: Ignores the first hit.\n": "    text: Ignores the first hit.\n    text:en: Same\n"},
     "unknown-language", "cards[1].text:en", 13),
])
def test_a_wrong_translation_key_is_located(tmp_path, edit, code, field, line):
    folder = shutil.copytree(BILINGUAL, tmp_path / "bilingual")
    (folder / "units.yaml").write_text(patched((folder / "units.yaml").read_text(encoding="utf-8"), edit),
                                       encoding="utf-8")
    found = [f for f in load_game(folder).findings if f.code == code]
    assert [(f.where.path.name, f.where.line, f.field, f.severity) for f in found] == [("units.yaml", line, field,
                                                                                        "error")]


def test_game_yaml_and_sheet_translations_are_checked_too(tmp_path):
    folder = shutil.copytree(BILINGUAL, tmp_path / "bilingual")
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(patched(game_yaml.read_text(encoding="utf-8"), {
        "players: 2\n": "players: 2\nplayers:de: 2\n", "words:\n  de:": "words:\n  it: {contents: Indice}\n  de:"}),
        encoding="utf-8")
    sheet = folder / "orders.csv"
    sheet.write_text(patched(sheet.read_text(encoding="utf-8"), {"Title:de,Count": "Title:de,Count:de"}),
                     encoding="utf-8")
    found = {(f.code, f.where.path.name, f.where.line, f.field) for f in load_game(folder).findings
             if f.severity == "error"}
    assert found == {("not-translatable", "game.yaml", 7, "players:de"), ("unknown-language", "game.yaml", 37, "words.it"),
                     ("not-translatable", "orders.csv", 2, "count:de"), ("not-translatable", "orders.csv", 3, "count:de")}


def test_translations_need_declared_languages(make_game):
    folder = make_game({"game.yaml": patched(GAME_YAML, {"title: Tiny War\n": "title: Tiny War\ntitle:de: Kleiner Krieg\n"}),
                        "reds.yaml": REDS_YAML})
    found = [f for f in load_game(folder).findings if f.code == "unknown-language"]
    assert [(f.where.line, f.field) for f in found] == [(3, "title:de")]
    with pytest.raises(MusterError) as raised:
        load_game(BILINGUAL, language="fr")
    assert (raised.value.code, raised.value.field) == ("unknown-language", "--lang")


def test_a_game_of_one_language_reads_as_before(make_game):
    game = load_game(make_game())
    assert (game.languages, game.language) == ((), "")
    assert all(card.printed_title == card.title for card in game.decks["reds"].cards)


def test_a_header_with_a_colon_that_is_no_language_stays_an_unread_column(tmp_path):
    folder = shutil.copytree(BILINGUAL, tmp_path / "bilingual")
    sheet = folder / "orders.csv"
    sheet.write_text(patched(sheet.read_text(encoding="utf-8"), {",Text:de\n": ",Text:de,Side: Notes\n"}),
                     encoding="utf-8")
    found = [f for f in load_game(folder).findings if f.severity == "error" or f.code == "unknown-column"]
    assert [(f.code, f.where.line, f.where.column) for f in found] == [("unknown-column", 1, 7)]


def test_every_bundled_language_has_every_fixed_word():
    from generator.reading.words import SOURCE, bundled, fixed_words

    for language, words in bundled().items():
        assert set(words) == set(bundled()[SOURCE]), language
    assert fixed_words("de-CH", {"de": {"contents": "Inhaltsverzeichnis"}})["contents"] == "Inhaltsverzeichnis"
    assert fixed_words("pt", {})["contents"] == "Contents"  # no Portuguese words bundled: English
