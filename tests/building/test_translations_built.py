"""`muster build --lang`: a game built in another of its languages into OUT/<game>/<lang>/, or in all of them;
the German read back from the PDFs, each language's kit up to date on its own."""

from __future__ import annotations

import json
import re
import shutil

from pdfcheck import page_text
from test_cli import muster

from conftest import TESTS

BILINGUAL = TESTS / "fixtures" / "bilingual"


def text_of(pdf) -> str:
    from pypdf import PdfReader

    return " ".join(" ".join(page_text(pdf, index).split()) for index in range(len(PdfReader(pdf).pages)))


def test_all_languages_build_each_into_its_folder(tmp_path):
    game = shutil.copytree(BILINGUAL, tmp_path / "bilingual")
    out = tmp_path / "out"
    result = muster("build", str(game), "--out", str(out), "--lang", "all", "-j", "1")
    assert result.returncode == 0, result.stderr
    source, german = out / "bilingual", out / "bilingual" / "de"
    units = text_of(german / "cards-units.pdf")
    assert "Schützengruppe" in units and "Bewegt sich und feuert im selben Zug." in units and "Alliierte" in units
    assert "Panzerzug" in units and "Ignores the first hit." in units  # no German text: the source prints
    assert "Brückenkopf" in units  # the backs: the game's title
    assert "Angriff" in units and "Attack" not in units  # the layout's own text:de
    orders = text_of(german / "cards-orders.pdf")  # the sheet's Title:de and Text:de columns
    assert "Vorrücken" in orders and "Jede Einheit zieht ein Feld." in orders and "Dig In" in orders
    rules = text_of(german / "rules.pdf")  # rules.de.md, the bundled fixed words and the game's own
    for words in ("Brückenkopf", "Mitspieler: 2", "Spielmaterial", "Einheiten: 2 Karten", "Befehle: 3 Karten",
                  "Inhalt", "1 Spielablauf", "Schützengruppe", "Vorrücken"):
        assert words in rules, words
    assert "Contents" not in rules and "Players" not in rules
    english = text_of(source / "rules.pdf")
    assert "Players: 2" in english and "Contents" in english and "1 Playing" in english
    assert "Attack" in text_of(source / "cards-units.pdf")
    assert "Rifle Squad" in text_of(source / "cards-units.pdf") and "Schützengruppe" not in text_of(
        source / "cards-units.pdf")
    assert json.loads((german / "manifest.json").read_text())["options"]["lang"] == "de"
    assert "lang" not in json.loads((source / "manifest.json").read_text())["options"]


def test_each_language_is_up_to_date_on_its_own(tmp_path):
    game = shutil.copytree(BILINGUAL, tmp_path / "bilingual")
    out = tmp_path / "out"
    assert muster("build", str(game), "--out", str(out), "--lang", "de", "-j", "1").returncode == 0
    assert not (out / "bilingual" / "cards-units.pdf").exists()  # only German was asked for
    again = muster("build", str(game), "--out", str(out), "--lang", "all", "-j", "1")
    assert again.returncode == 0
    lines = again.stdout.splitlines()
    assert "up to date" not in lines[0] and "up to date" in lines[1], lines  # the source built, German kept
    (game / "rules.de.md").write_text((game / "rules.de.md").read_text(encoding="utf-8") + "\nMehr.\n",
                                      encoding="utf-8")
    rebuilt = muster("build", str(game), "--out", str(out), "--lang", "de", "-j", "1")
    assert "up to date" not in rebuilt.stdout and "Mehr." in text_of(out / "bilingual" / "de" / "rules.pdf")
    assert (out / "bilingual" / "cards-units.pdf").exists()  # a source build leaves the language folders be
    source = muster("build", str(game), "--out", str(out), "--lang", "en", "-j", "1")  # the source language's
    assert source.stdout.rstrip().endswith(f"{out / 'bilingual'}")  # rules.de.md is an input of every language's
    assert "up to date" in muster("build", str(game), "--out", str(out), "-j", "1").stdout


def test_a_language_the_game_lacks_is_one_line_and_exit_2(tmp_path):
    result = muster("build", str(BILINGUAL), "--out", str(tmp_path), "--lang", "fr")
    assert result.returncode == 2 and "unknown language 'fr'" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "bilingual").exists()
    bad = muster("build", str(BILINGUAL), "--out", str(tmp_path), "--lang", "de;rm")
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1


def test_exports_take_a_language(tmp_path):
    result = muster("export", "pdf", str(BILINGUAL), "--out", str(tmp_path), "--lang", "de", "--deck", "units")
    assert result.returncode == 0, result.stderr
    card = tmp_path / "bilingual" / "de" / "pdf" / "units" / "001-rifle-squad.pdf"
    assert "Schützengruppe" in page_text(card, 0)


def test_a_layout_translates_its_literal_text_only(tmp_path):
    game = shutil.copytree(BILINGUAL, tmp_path / "bilingual")
    face = game / "face.yaml"
    face.write_text(face.read_text(encoding="utf-8").replace('font: text, size: 8}', 'font: text, "size:de": 7}'),
                    encoding="utf-8")
    result = muster("validate", str(game), "--format", "json")
    found = [(f["code"], f["line"]) for f in json.loads(result.stdout) if f["severity"] == "error"]
    assert result.returncode == 1 and ("not-translatable", 7) in found, found


def test_a_deck_list_names_cards_by_their_source_titles_in_any_language(tmp_path):
    listed = tmp_path / "list.txt"
    listed.write_text("1 Rifle Squad\n2 Advance\n", encoding="utf-8")
    out = tmp_path / "out"
    result = muster("build", str(BILINGUAL), "--list", str(listed), "--lang", "de", "--out", str(out))
    assert result.returncode == 0, result.stderr
    german = out / "bilingual-list" / "de"
    assert "Schützengruppe" in text_of(german / "cards-units.pdf")
    assert "Vorrücken" in text_of(german / "cards-orders.pdf")
    refused = muster("build", str(BILINGUAL), "--list", str(listed), "--lang", "all", "--out", str(out))
    assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1


def test_exports_name_pieces_by_the_titles_they_print_and_keep_their_ids(tmp_path):
    """TTS cards and VASSAL pieces of the German export are named in German; their GUIDs, piece ids and image files
    are the source export's, so a saved game or module of one language matches the other's."""
    import zipfile

    from lxml import etree

    out = tmp_path / "out"
    tts = muster("export", "tts", str(BILINGUAL), "--out", str(out), "--lang", "all", "--dpi", "72")
    assert tts.returncode == 0, tts.stderr
    assert f"{out / 'bilingual' / 'de' / 'tts'}" in tts.stderr  # the folder to upload: each language's
    assert muster("export", "vassal", str(BILINGUAL), "--out", str(out), "--lang", "all").returncode == 0

    def cards(kit):
        saved = json.loads((kit / "tts" / "bilingual.json").read_text(encoding="utf-8"))["ObjectStates"]
        return [(card["Nickname"], card["GUID"], card["CustomDeck"]) for bag in saved
                for deck in bag["ContainedObjects"] for card in deck["ContainedObjects"]]

    def pieces(kit):
        with zipfile.ZipFile(kit / "vassal" / "bilingual.vmod") as module:
            build = etree.fromstring(module.read("buildFile.xml"))
        return [(slot.get("entryName"), slot.get("gpid"), re.findall(r"[\w-]+\.png", slot.text))  # its images
                for slot in build.iter("VASSAL.build.widget.CardSlot")]

    source, german = out / "bilingual", out / "bilingual" / "de"
    titles = ["Schützengruppe", "Panzerzug", "Vorrücken", "Vorrücken", "Dig In"]  # Dig In has no German title
    assert [name for name, *_ in cards(german)] == titles
    assert [name for name, *_ in pieces(german)] == titles
    assert [name for name, *_ in pieces(source)] == ["Rifle Squad", "Tank Platoon", "Advance", "Advance", "Dig In"]
    assert [ids for _, *ids in pieces(german)] == [ids for _, *ids in pieces(source)]
    assert [guid for _, guid, _ in cards(german)] == [guid for _, guid, _ in cards(source)]

    def commands(kit):  # each card's Discard and Return to Deck, by the names the module's menus show
        with zipfile.ZipFile(kit / "vassal" / "bilingual.vmod") as module:
            text = module.read("buildFile.xml").decode("utf-8")
        return {name for name in ("Discard", "Return to Units", "Ablegen", "Zurück zu Einheiten") if name in text}

    assert commands(german) == {"Ablegen", "Zurück zu Einheiten"}
    assert commands(source) == {"Discard", "Return to Units"}


def test_csv_export_writes_each_translation_beside_its_source(tmp_path):
    units = muster("export", "csv", str(BILINGUAL), "-d", "units", "-o", "-")
    orders = muster("export", "csv", str(BILINGUAL), "-d", "orders", "-o", "-")
    assert units.stdout.splitlines()[0] == "title,title:de,side,attack,text,text:de"
    assert orders.stdout.splitlines()[0] == "title,title:de,count,side,text,text:de"
    assert orders.stdout.splitlines()[2] == "Dig In,,1,X,Units in cover ignore one hit.,Einheiten in Deckung ignorieren einen Treffer."


def test_stats_and_draw_read_the_game_in_a_language(tmp_path):
    draw = muster("draw", str(BILINGUAL), "-d", "units", "--hand", "2", "--lang", "de", "--json")
    assert draw.returncode == 0, draw.stderr
    assert [(card["title"], card["id"]) for card in json.loads(draw.stdout)["hand"]] == [
        ("Schützengruppe", "rifle-squad"), ("Panzerzug", "tank-platoon")]  # the ids stay the source's
    stats = muster("stats", str(BILINGUAL), "--lang", "de", "--json", "-d", "units", "--draw", "1", "--when",
                   "title=Rifle Squad")  # cards named by their source titles, as in a rule's when:
    assert stats.returncode == 0, stats.stderr
    counted = json.loads(stats.stdout)
    assert (counted["title"], counted["decks"][0]["name"]) == ("Brückenkopf", "Einheiten")
    for command in (["draw", "-d", "units"], ["stats"]):
        every = muster(command[0], str(BILINGUAL), *command[1:], "--lang", "all")
        assert every.returncode == 2 and len(every.stderr.splitlines()) == 1 and "--lang" in every.stderr


def test_the_calibration_page_prints_in_the_language_built(tmp_path):
    game = shutil.copytree(BILINGUAL, tmp_path / "bilingual")
    (game / "game.yaml").write_text((game / "game.yaml").read_text(encoding="utf-8").replace(
        "de: {players: Mitspieler}", "de: {players: Mitspieler, card_outline: Genau so groß.}"), encoding="utf-8")
    out = tmp_path / "out"
    assert muster("build", str(game), "--out", str(out), "--lang", "all", "-j", "1").returncode == 0
    german = text_of(out / "bilingual" / "de" / "calibration.pdf")
    for words in ("Brückenkopf · Kalibrierung", "Diese Seite mit 100 % drucken", "Eine Karte in Originalgröße: 63.0",
                  "Genau so groß."):
        assert words in german, (words, german)
    assert "Print this page at 100 %" in text_of(out / "bilingual" / "calibration.pdf")


def test_the_bundled_german_edition_prints_its_styles_tables_and_layout_words_in_german(tmp_path):
    """Europe 1939-45 in German: the backs' side names (a deck's style:), the mat's table rows (tables:) and the
    layouts' own words (text:de) print in German; the English kit keeps its English."""
    out = tmp_path / "out"
    result = muster("build", "europe-1939", "--out", str(out), "--lang", "all", "-j", "1", "--no-calibration")
    assert result.returncode == 0, result.stderr
    german, english = out / "europe-1939" / "de", out / "europe-1939"
    backs = text_of(german / "cards-germans.pdf")
    assert "DEUTSCHLAND" in backs and "GERMANY" not in backs and "STÄRKE" in backs
    mat = text_of(german / "mat.pdf")
    for words in ("Entfällt, solange die Deutschen alle 4 halten", "Nur Westfront", "SIEG", "ZUG 1", "JAHR"):
        assert words in mat, words
    assert "Skipped" not in mat and "VICTORY" not in mat
    assert "Skipped while the Germans hold all 4" in text_of(english / "mat.pdf")
    assert "GERMANY" in text_of(english / "cards-germans.pdf")
