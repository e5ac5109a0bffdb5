"""Big builds lay cards out in a second process while the first draws: same files, same errors, no process left."""

from __future__ import annotations

import os

import pytest

from generator import layout, pipeline
from generator.documents import Options, build_game
from generator.errors import GameInvalid, Location, MusterError
from generator.loading import load_game
from generator.resources import bundled_games

from conftest import GAME_YAML


@pytest.fixture
def forks(monkeypatch):
    """Every game is big enough to fork for, in small batches; counts the forks made."""
    made = []
    fork = os.fork

    def counted():
        made.append(1)
        return fork()

    monkeypatch.setattr(pipeline, "PARALLEL_FROM", 1)
    monkeypatch.setattr(layout, "BATCH", 4)
    monkeypatch.setattr(pipeline.os, "fork", counted)
    return made


def no_child_left() -> bool:
    """True when this process has no child, neither running nor finished and not yet waited for."""
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def files(folder):
    return {path.name: path.read_bytes() for path in folder.iterdir()}


@pytest.mark.parametrize("name", ["europe-1939", "modern-war"])
def test_bundled_games_are_byte_identical_with_a_second_process(forks, tmp_path, name):
    """Europe: two decks of cards and a sheet of tokens; Five Domains: three token decks sharing sheets."""
    root = next(root for root in bundled_games() if root.name == name)
    game = load_game(root)
    build_game(game, tmp_path / "one", Options())
    assert not forks
    build_game(game, tmp_path / "two", Options(), parallel=True)
    assert forks == [1] and no_child_left()
    assert files(tmp_path / "one" / name) == files(tmp_path / "two" / name)


def test_many_small_batches_draw_the_same_sheets(forks, make_game, tmp_path):
    """Copies and a shared back across batch boundaries: forms chosen from the batches so far, the same way."""
    cards = "".join(f"  - {{title: Card {i}, type: U, force: {i % 10}, count: {1 + i % 3}}}\n" for i in range(30))
    folder = make_game({"game.yaml": GAME_YAML.replace("size: 3", "size: 60"), "reds.yaml": "cards:\n" + cards,
                        "back.yaml": "elements:\n  - {kind: box, x: 0, y: 0, w: 63, h: 88, fill: dark, bleed: true}\n"})
    game = load_game(folder)
    build_game(game, tmp_path / "one", Options(duplex="short"))
    build_game(game, tmp_path / "two", Options(duplex="short"), parallel=True)
    assert forks == [1]
    assert files(tmp_path / "one" / "tiny") == files(tmp_path / "two" / "tiny")


def test_layout_errors_found_in_the_second_process_fail_the_build_and_write_nothing(forks, make_game, tmp_path):
    folder = make_game({"face.yaml": "elements:\n  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: '{{ card.titel }}'}\n"})
    game = load_game(folder)
    found = []
    for parallel in (False, True):
        with pytest.raises(GameInvalid) as failed:
            build_game(game, tmp_path / "out", Options(), parallel=parallel)
        found.append([str(f) for f in failed.value.findings])
        assert not (tmp_path / "out" / "tiny").exists()
    assert found[0] == found[1] and "has no attribute 'titel'" in found[0][0]
    assert forks == [1] and no_child_left()


def test_a_failure_in_the_second_process_is_one_error_here(forks, make_game, tmp_path, monkeypatch):
    game = load_game(make_game())
    where = Location(game.root / "face.yaml", 3, 5)

    def refused(*args, **kwargs):
        raise MusterError("font file unreadable", where)
        yield

    monkeypatch.setattr(pipeline, "lay_out_batches", refused)
    with pytest.raises(MusterError) as failed:
        build_game(game, tmp_path / "out", Options(), parallel=True)
    assert (failed.value.message, failed.value.where) == ("font file unreadable", where)

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")
        yield

    monkeypatch.setattr(pipeline, "lay_out_batches", broken)
    with pytest.raises(MusterError) as failed:
        build_game(game, tmp_path / "out", Options(), parallel=True)
    assert "laying out failed" in failed.value.message and "ZeroDivisionError: a bug" in failed.value.message
    assert not (tmp_path / "out" / "tiny").exists() and no_child_left()
