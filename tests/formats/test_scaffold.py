"""`muster new`: the game it creates validates clean and builds, and nothing that exists is ever overwritten."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
import yaml
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

import generator
from generator.cli.authoring import new_game as new_command
from generator.building.kit import build_game
from generator.core.options import Options
from generator.checking import check_game
from generator.core.errors import Location, MusterError
from generator.reading.loading import load_game
from generator.formats.scaffold import TEMPLATE, check_name, new_game, title_of
from generator.formats.schema import deck_schema, game_schema, layout_schema


def cli() -> typer.Typer:
    app = typer.Typer()
    app.command("new")(new_command)
    app.command("other")(lambda: None)  # two commands, so that the command is named as in muster
    return app


def test_new_game_validates_clean_and_builds(tmp_path):
    folder = new_game("desert-war", tmp_path)
    assert folder == tmp_path / "desert-war"
    assert sorted(p.name for p in folder.iterdir()) == ["README.md", "back.yaml", "cards.yaml", "face.yaml",
                                                         "game.yaml", "rules.md"]
    game = load_game(folder)
    assert (game.id, game.title) == ("desert-war", "Desert War")
    assert check_game(game) == []  # 0 errors and 0 warnings
    deck = game.decks["battle"]
    assert (deck.size, deck.total, len(game.traits), len(game.vocabularies), len(game.rules)) == (6, 6, 3, 1, 1)
    assert all(deck.face and not deck.face.startswith(("/", "..")) and (folder / deck.face).is_file()
               for deck in game.decks.values())
    built = build_game(game, tmp_path / "out", Options())
    files = {b.file: b.pages for b in built}
    assert files["cards-battle.pdf"] == 2 and files["rules.pdf"] >= 2
    manifest = json.loads((tmp_path / "out" / "desert-war" / "manifest.json").read_text())
    assert {f["file"] for f in manifest["files"]} >= {"cards-battle.pdf", "rules.pdf"}
    readme = (folder / "README.md").read_text()
    assert readme.startswith("# Desert War\n") and "__" not in readme
    for name in ("game.yaml", "cards.yaml", "face.yaml", "back.yaml", "rules.md"):
        assert f"`{name}`" in readme  # every file explained


def test_new_game_files_conform_to_the_schemas(tmp_path):
    folder = new_game("skirmish", tmp_path, title="Skirmish: a test, with \"quotes\" #1")
    assert load_game(folder).title == "Skirmish: a test, with \"quotes\" #1"
    plain = lambda name: json.loads(json.dumps(yaml.safe_load((folder / name).read_text())))
    assert list(Draft202012Validator(game_schema()).iter_errors(plain("game.yaml"))) == []
    assert list(Draft202012Validator(deck_schema(load_game(folder))).iter_errors(plain("cards.yaml"))) == []
    for layout in ("face.yaml", "back.yaml"):
        assert list(Draft202012Validator(layout_schema()).iter_errors(plain(layout))) == []


def test_names_and_titles():
    assert title_of("desert-war-2") == "Desert War 2"
    for good in ("a", "my-game", "war1939", "1939"):
        assert check_name(good) == good
    for bad in ("My-Game", "my_game", "-game", "game-", "my--game", "my game", "../game", "", "a" * 65, "spiel-ü"):
        with pytest.raises(MusterError) as refused:
            check_name(bad)
        assert (refused.value.code, refused.value.field) == ("bad-id", "NAME")


def test_refuses_an_existing_folder(tmp_path):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine")
    with pytest.raises(MusterError) as refused:
        new_game("taken", tmp_path)
    assert (refused.value.code, refused.value.where) == ("already-exists", Location(tmp_path / "taken"))
    assert [p.name for p in (tmp_path / "taken").iterdir()] == ["notes.txt"]
    (tmp_path / "empty").mkdir()
    with pytest.raises(MusterError) as refused:
        new_game("empty", tmp_path)
    assert refused.value.code == "already-exists"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty", "taken"]  # no staging folder left behind


def test_command(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    made = runner.invoke(cli(), ["new", "my-game"])
    assert made.exit_code == 0, made.output
    assert made.stdout.startswith("my-game: created")
    assert (tmp_path / "my-game" / "game.yaml").is_file()
    again = runner.invoke(cli(), ["new", "my-game"])
    assert again.exit_code == 2
    assert again.stderr == "my-game: error: already exists; Muster does not overwrite a folder (choose another name or --dir)\n"
    bad = runner.invoke(cli(), ["new", "My_Game"])
    assert bad.exit_code == 2 and len(bad.stderr.splitlines()) == 1 and "got 'My_Game'" in bad.stderr
    elsewhere = runner.invoke(cli(), ["new", "other-game", "--dir", str(tmp_path / "sub" / "deeper")])
    assert elsewhere.exit_code == 0, elsewhere.output  # the parent folders are made as needed
    assert (tmp_path / "sub" / "deeper" / "other-game" / "rules.md").is_file()
    (tmp_path / "file").write_text("")
    blocked = runner.invoke(cli(), ["new", "third-game", "--dir", str(tmp_path / "file")])
    assert blocked.exit_code == 2 and "cannot create the folder" in blocked.stderr


def test_templates_ship_inside_the_package():
    assert TEMPLATE.relative_to(Path(generator.__file__).parent).parts[0] == "formats"
    assert {p.name for p in TEMPLATE.iterdir()} == {"README.md", "back.yaml", "cards.yaml", "face.yaml", "game.yaml",
                                                    "rules.md"}
