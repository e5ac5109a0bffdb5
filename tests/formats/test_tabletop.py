"""The Tabletop Simulator saved object of `muster export tts`: it validates against the schema of the parts Muster
writes, names only images that exist at the pixel sizes it declares, uses only field names seen in TTS's own
knowledge base or real saves, keeps the printed proportions of cards, counters and boards, lays them out without
overlapping, and is the same every time. Tabletop Simulator itself does not run here."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from jsonschema import Draft202012Validator
from PIL import Image
from typer.testing import CliRunner

from conftest import REPO, GAME_YAML, patched
from generator.cli.app import export_app
from generator.formats.scaffold import new_game
from generator.formats.tabletop import CARD_UNITS, TILE_UNITS, UNIT_MM, shelf
from generator.reading.loading import load_game

SCHEMA = json.loads((REPO / "tests" / "schemas" / "tts-saved-object.schema.json").read_text(encoding="utf-8"))

KB = "Berserk-Games/Tabletop-Simulator-Knowledge-Base"
SAVE_FORMAT = f"{KB} docs/custom-content/save-file-format.md (SaveState, ObjectState, TransformState classes)"
REAL_SAVE = "w1nterl0ng/swd-converter data/upgrades.js (cards saved by TTS, each with its CustomDeck)"
DECK_TEMPLATE = "ZONT3/tts-deck-generator tts_deckgen/save_data.py (a DeckCustom and its Card copied from a save)"
SAVED = ("objects as TTS saves them, copied whole into public exporters' templates (a DeckCustom and its Cards "
         "with GMNotes, AltLookAngle, LayoutGroupSortIndex, Value, IgnoreFoW, MeasureMovement, DragSelectable, "
         "GridProjection, HideWhenFaceDown, Hands; a deck false for Hands, its cards true)")
TILE_DATA = "typed-tabletop-simulator TileData (Custom_Tile: CustomImage, CustomTile Type 0-3, Thickness, Stackable, Stretch)"

# Every field name the saved object uses, with where it was seen.
FIELDS = {
    "SaveName": SAVE_FORMAT, "GameMode": SAVE_FORMAT, "Date": SAVE_FORMAT, "Table": SAVE_FORMAT,
    "Sky": SAVE_FORMAT, "Note": SAVE_FORMAT, "Rules": SAVE_FORMAT, "ObjectStates": SAVE_FORMAT,
    "XmlUI": DECK_TEMPLATE, "LuaScript": REAL_SAVE, "LuaScriptState": REAL_SAVE,
    "GUID": REAL_SAVE, "Name": SAVE_FORMAT, "Transform": SAVE_FORMAT, "Nickname": SAVE_FORMAT,
    "Description": SAVE_FORMAT, "ColorDiffuse": SAVE_FORMAT, "Locked": SAVE_FORMAT, "Grid": SAVE_FORMAT,
    "Snap": REAL_SAVE, "Autoraise": REAL_SAVE, "Sticky": REAL_SAVE, "Tooltip": REAL_SAVE,
    "posX": SAVE_FORMAT, "posY": SAVE_FORMAT, "posZ": SAVE_FORMAT, "rotX": SAVE_FORMAT, "rotY": SAVE_FORMAT,
    "rotZ": SAVE_FORMAT, "scaleX": SAVE_FORMAT, "scaleY": SAVE_FORMAT, "scaleZ": SAVE_FORMAT,
    "r": SAVE_FORMAT, "g": SAVE_FORMAT, "b": SAVE_FORMAT,
    "CardID": SAVE_FORMAT, "SidewaysCard": SAVE_FORMAT, "DeckIDs": SAVE_FORMAT, "CustomDeck": SAVE_FORMAT,
    "ContainedObjects": SAVE_FORMAT, "MaterialIndex": SAVE_FORMAT,
    "FaceURL": SAVE_FORMAT, "BackURL": SAVE_FORMAT, "NumWidth": REAL_SAVE, "NumHeight": REAL_SAVE,
    "BackIsHidden": REAL_SAVE, "UniqueBack": REAL_SAVE, "Type": DECK_TEMPLATE,
    "CustomImage": SAVE_FORMAT, "ImageURL": SAVE_FORMAT, "WidthScale": SAVE_FORMAT,
    "ImageSecondaryURL": TILE_DATA, "CustomTile": TILE_DATA, "Thickness": TILE_DATA, "Stackable": TILE_DATA,
    "Stretch": TILE_DATA,
    "GMNotes": SAVED, "AltLookAngle": SAVED, "x": SAVED, "y": SAVED, "z": SAVED, "LayoutGroupSortIndex": SAVED,
    "Value": SAVED, "IgnoreFoW": SAVED, "MeasureMovement": SAVED, "DragSelectable": SAVED, "GridProjection": SAVED,
    "HideWhenFaceDown": SAVED, "Hands": SAVED,
}
NAMES = {"Bag": SAVE_FORMAT, "Card": SAVE_FORMAT, "Deck": SAVE_FORMAT, "DeckCustom": SAVE_FORMAT,
         "Custom_Tile": TILE_DATA}


def export(game, out: Path, *extra: str) -> dict:
    result = CliRunner().invoke(export_app, ["tts", str(game), "--out", str(out), "--quiet", *extra])
    assert result.exit_code == 0, result.output
    folder = out / Path(str(game)).name / "tts"
    return json.loads((folder / f"{Path(str(game)).name}.json").read_text(encoding="utf-8"))


def objects(items):
    for item in items:
        yield item
        yield from objects(item.get("ContainedObjects", []))


def keys(value):
    if isinstance(value, dict):
        for key, inner in value.items():
            if not key.isdigit():  # CustomDeck's keys are sheet numbers
                yield key
            yield from keys(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from keys(inner)


def local(url: str) -> Path:
    assert url.startswith("file:///"), url
    return Path(unquote(urlparse(url).path))


def check_saved_object(document: dict, game) -> None:
    """Schema, field names, images and their sizes, true scale, no overlaps."""
    assert list(Draft202012Validator(SCHEMA).iter_errors(document)) == []
    assert set(keys(document)) <= set(FIELDS)
    everything = list(objects(document["ObjectStates"]))
    assert {item["Name"] for item in everything} <= set(NAMES)
    assert len({item["GUID"] for item in everything}) == len(everything)  # each object its own
    for item in everything:
        for key, sheet in item.get("CustomDeck", {}).items():
            with Image.open(local(sheet["FaceURL"])) as face, Image.open(local(sheet["BackURL"])) as back:
                columns, rows = sheet["NumWidth"], sheet["NumHeight"]
                assert face.size[0] % columns == 0 and face.size[1] % rows == 0  # whole slots
                slot = (face.size[0] // columns, face.size[1] // rows)
                assert max(face.size) <= 4096 and columns <= 10 and rows <= 7
                assert back.size == (face.size if sheet["UniqueBack"] else slot)
        if item["Name"] == "Card":
            sheet = item["CustomDeck"][str(item["CardID"] // 100)]
            assert item["CardID"] % 100 < sheet["NumWidth"] * sheet["NumHeight"] - 1  # never the hidden slot
        if item["Name"] == "Custom_Tile":
            image = item["CustomImage"]
            with Image.open(local(image["ImageURL"])) as front, Image.open(local(image["ImageSecondaryURL"])) as back:
                assert front.size == back.size and max(front.size) <= 4096
                scale = item["Transform"]
                # the picture's proportions are the tile's
                assert front.size[0] / front.size[1] == pytest.approx(scale["scaleX"] / scale["scaleZ"], rel=0.02)
    decks = {deck.name: deck for deck in game.decks.values()}
    for bag in document["ObjectStates"]:
        if bag["Name"] != "Bag":
            continue
        deck = decks[bag["Nickname"]]
        inner = bag["ContainedObjects"][0]
        units = CARD_UNITS if inner["Name"] != "Custom_Tile" else (TILE_UNITS, TILE_UNITS)
        size = (inner["Transform"]["scaleX"] * units[0] * UNIT_MM, inner["Transform"]["scaleZ"] * units[1] * UNIT_MM)
        assert size == pytest.approx(deck.format.face_size, abs=0.01)  # true size, in the units TTS is taken to have
        if inner["Name"] in ("Deck", "DeckCustom"):
            assert len(inner["ContainedObjects"]) == deck.total
            assert [card["Nickname"] for card in inner["ContainedObjects"]] == [
                card.title or card.id for card in deck.cards for _ in range(card.count)]
    for board in game.boards.values():
        placed = next(item for item in document["ObjectStates"] if item["Nickname"] == board.name)
        scale = placed["Transform"]
        assert (scale["scaleX"] * TILE_UNITS * UNIT_MM, scale["scaleZ"] * TILE_UNITS * UNIT_MM) == pytest.approx(
            board.size, abs=0.01)
        with Image.open(local(placed["CustomImage"]["ImageURL"])) as image:
            assert image.size[0] / image.size[1] == pytest.approx(board.size[0] / board.size[1], rel=0.01)
    footprints = []
    for item in document["ObjectStates"]:
        t = item["Transform"]
        w, d = (t["scaleX"] * TILE_UNITS, t["scaleZ"] * TILE_UNITS) if item["Name"] == "Custom_Tile" else (3.0, 3.0)
        footprints.append((t["posX"] - w / 2, t["posZ"] - d / 2, t["posX"] + w / 2, t["posZ"] + d / 2))
    for i, a in enumerate(footprints):
        for b in footprints[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


@pytest.mark.parametrize("name", ["europe-1939", "grid-battle", "company-commander"])
def test_bundled_games_saved_objects(name, tmp_path):
    document = export(REPO / "decks" / name, tmp_path)
    game = load_game(REPO / "decks" / name)
    check_saved_object(document, game)
    bags = [item["Nickname"] for item in document["ObjectStates"] if item["Name"] == "Bag"]
    assert bags == [deck.name for deck in game.decks.values()]  # every deck and counter set, cards and tokens
    with Image.open(tmp_path / name / "tts" / f"{name}.png") as thumbnail:
        assert thumbnail.size == (256, 256)


def test_counters_are_double_sided_tiles_and_boards_are_locked(tmp_path):
    document = export(REPO / "decks" / "europe-1939", tmp_path)
    board = document["ObjectStates"][0]
    assert (board["Name"], board["Nickname"], board["Locked"]) == ("Custom_Tile", "Play mat", True)
    tokens = next(item for item in document["ObjectStates"] if item["Nickname"] == "Front tokens and year marker")
    tiles = tokens["ContainedObjects"]
    game = load_game(REPO / "decks" / "europe-1939")
    assert len(tiles) == game.decks["counters"].total
    first = tiles[0]["CustomImage"]
    assert first["ImageURL"].endswith("-front.png") and first["ImageSecondaryURL"].endswith("-back.png")
    with Image.open(local(first["ImageURL"])) as front, Image.open(local(first["ImageSecondaryURL"])) as back:
        assert front.tobytes() != back.tobytes()  # two sides


def test_new_game_and_base_url_and_determinism(tmp_path):
    folder = new_game("desert-war", tmp_path / "games")
    document = export(folder, tmp_path / "a")
    check_saved_object(document, load_game(folder))
    again = export(folder, tmp_path / "a")
    assert again == document
    hosted = export(folder, tmp_path / "b", "--base-url", "https://example.org/games/desert-war/")
    urls = [sheet[key] for item in objects(hosted["ObjectStates"]) for sheet in item.get("CustomDeck", {}).values()
            for key in ("FaceURL", "BackURL")]
    assert urls and all(url.startswith("https://example.org/games/desert-war/battle/") for url in urls)
    relative = [url.removeprefix("https://example.org/games/desert-war/") for url in urls]
    assert all((tmp_path / "b" / "desert-war" / "tts" / path).is_file() for path in relative)
    written = tmp_path / "a" / "desert-war" / "tts"
    first = (written / "desert-war.json").read_bytes()
    export(folder, tmp_path / "a")
    assert (written / "desert-war.json").read_bytes() == first  # GUIDs from content: the same bytes again


def test_a_deck_of_one_card_is_a_card(make_game, tmp_path):
    folder = make_game({"reds.yaml": "cards:\n  - {title: Alpha, type: L, force: 2, fronts: A}\n",
                        "game.yaml": patched(GAME_YAML, {"size: 3": "size: 1"})})
    document = export(folder, tmp_path)
    bag = document["ObjectStates"][0]
    assert [item["Name"] for item in bag["ContainedObjects"]] == ["Card"]
    check_saved_object(document, load_game(folder))


def test_shelf_never_overlaps_and_wraps():
    sizes = [(10.0, 7.0), (3.0, 3.0), (3.0, 3.0), (3.0, 3.0)]
    centres = shelf(sizes, 14.0)
    assert centres[0] == (5.0, -3.5) and centres[1] == (12.5, -1.5)
    assert centres[2][1] < -7.0  # the next row starts below the tallest of the first


@pytest.mark.parametrize("url", [" ", " https://example.org/", "https://example.org/a b/", "https://example.org/\x01",
                                 "https://example.org/\u200b", "ftp://example.org/", "example.org/tts", "https://",
                                 "http://[::1", "http://example.org:port/", "javascript:alert(1)"])
def test_base_url_that_is_no_web_address_is_refused(make_game, tmp_path, url):
    folder = make_game()
    result = CliRunner().invoke(export_app, ["tts", str(folder), "--out", str(tmp_path / "out"), "--base-url", url])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: --base-url"), result.output
    assert not (tmp_path / "out").exists()


def peak_rss_of_export(game: Path, out: Path) -> int:
    """Peak RSS (KiB) of `muster export tts` of `game` at 100 dpi, in a process of its own."""
    import os
    import subprocess
    import sys

    repo = REPO
    process = subprocess.Popen([sys.executable, "-m", "generator", "export", "tts", str(game), "--out", str(out),
                                "--dpi", "100", "--quiet"], cwd=repo, stderr=subprocess.PIPE,
                               env={**os.environ, "PYTHONPATH": str(repo)})
    _, status, usage = os.wait4(process.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, process.stderr.read().decode()
    return usage.ru_maxrss


def test_tts_export_holds_a_sheet_not_the_deck(tmp_path):
    """Issue 23: every distinct card's image was held at once (1 MB a card at 300 dpi: 10,000 cards ran out of
    memory). 180 distinct cards more (two sheets) may take the pixels of about a sheet more, not 180 cards'."""
    import sys

    sys.path.insert(0, str(REPO / "bench"))
    from synthetic import write_game

    write_game(tmp_path / "few", 20)
    write_game(tmp_path / "many", 200)
    few = peak_rss_of_export(tmp_path / "few", tmp_path / "out")
    many = peak_rss_of_export(tmp_path / "many", tmp_path / "out")
    card = 248 * 347 * 3 / 1024  # KiB of one card's pixels at 100 dpi
    assert many - few < 80 * card, (few, many)


# A deck of one sheet as TTS itself saves it (fields and values of objects TTS saved, SAVED): a 1 x 1 sheet, tags,
# and fields Muster never writes.
TTS_SAVE = {"SaveName": "", "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "",
            "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "VersionNumber": "v13.2.2", "TabStates": {},
            "ObjectStates": [{
                "GUID": "f7c5d6", "Name": "Bag", "Transform": {"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0,
                                                                 "rotY": 180.0, "rotZ": 0.0, "scaleX": 1.0,
                                                                 "scaleY": 1.0, "scaleZ": 1.0},
                "Nickname": "", "Description": "", "GMNotes": "", "AltLookAngle": {"x": 0.0, "y": 0.0, "z": 0.0},
                "ColorDiffuse": {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259}, "Tags": ["map"],
                "LayoutGroupSortIndex": 0, "Value": 0, "Locked": False, "Grid": True, "Snap": True,
                "IgnoreFoW": False, "MeasureMovement": False, "DragSelectable": True, "Autoraise": True,
                "Sticky": True, "Tooltip": True, "GridProjection": False, "HideWhenFaceDown": True, "Hands": False,
                "MaterialIndex": -1, "LuaScript": "", "LuaScriptState": "", "XmlUI": "",
                "ContainedObjects": [{
                    "GUID": "748460", "Name": "Card", "Transform": {"posX": 0.0, "posY": 1.0, "posZ": 0.0,
                                                                    "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
                                                                    "scaleX": 1.5, "scaleY": 1.0, "scaleZ": 1.5},
                    "Nickname": "Power", "Description": "", "GMNotes": "", "Memo": "15",
                    "ColorDiffuse": {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259}, "Locked": False,
                    "Grid": True, "Snap": True, "IgnoreFoW": False, "MeasureMovement": False, "DragSelectable": True,
                    "Autoraise": True, "Sticky": True, "Tooltip": True, "GridProjection": False,
                    "HideWhenFaceDown": True, "Hands": True, "CardID": 100, "SidewaysCard": False,
                    "CustomDeck": {"1": {"FaceURL": "https://example.org/face.png",
                                         "BackURL": "https://example.org/back.png", "NumWidth": 1, "NumHeight": 1,
                                         "BackIsHidden": True, "UniqueBack": False, "Type": 0}},
                    "LuaScript": "", "LuaScriptState": "", "XmlUI": "", "States": {}}]}]}


def test_the_schema_takes_what_tts_saves_and_muster_writes_the_keys_tts_writes(tmp_path):
    """The schema describes a save as TTS writes it (a 1 x 1 sheet, fields Muster leaves out), not only Muster's
    own; and Muster's objects carry the keys TTS writes: a card goes into a hand and hides its face face down, a
    deck hides its cards' faces but is not held, a tile or a bag neither."""
    assert list(Draft202012Validator(SCHEMA).iter_errors(TTS_SAVE)) == []
    document = export(REPO / "decks" / "europe-1939", tmp_path)
    kinds = {}
    for item in objects(document["ObjectStates"]):
        kinds.setdefault(item["Name"], set()).add((item["Hands"], item["HideWhenFaceDown"]))
        assert set(TTS_SAVE["ObjectStates"][0]) - {"Tags", "MaterialIndex", "ContainedObjects"} <= set(item)
    expected = {"Bag": (False, False), "DeckCustom": (False, True), "Deck": (False, True), "Card": (True, True),
                "Custom_Tile": (False, False)}
    assert {"Bag", "Card", "Custom_Tile"} <= kinds.keys() <= expected.keys()
    assert all(kinds[name] == {expected[name]} for name in kinds), kinds


def test_file_paths_are_warned_of_even_quietly(tmp_path):
    """Without --base-url the saved object works on this computer alone: said on stderr, even with --quiet; with
    it, nothing is said."""
    from generator.formats.scaffold import new_game

    folder = new_game("desert-war", tmp_path / "games")
    alone = CliRunner().invoke(export_app, ["tts", str(folder), "--out", str(tmp_path / "a"), "--quiet"])
    assert alone.exit_code == 0
    line, = alone.output.strip().splitlines()
    assert line.startswith("warning: desert-war:") and "file:///" in line and "--base-url" in line
    hosted = CliRunner().invoke(export_app, ["tts", str(folder), "--out", str(tmp_path / "b"), "--quiet",
                                             "--base-url", "https://example.org/desert-war/"])
    assert hosted.exit_code == 0 and hosted.output == ""
