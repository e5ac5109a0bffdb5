"""The key of a game's inputs (building/cache.py) with Muster's own files hashed once per version: the digests
kept between runs give the very key that hashing every file gives; a file of another version is hashed again;
a damaged entry, or a run that writes no bytecode, hashes everything."""

from __future__ import annotations

import marshal
import shutil
import sys

import pytest

from generator.building import cache
from generator.core.bundle import layouts_dir


@pytest.fixture
def kept(tmp_path, monkeypatch):
    """The user's cache folder in tmp_path, written to; the bundled layouts a copy that a test may edit."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    layouts = tmp_path / "layouts"
    shutil.copytree(layouts_dir(), layouts)
    monkeypatch.setattr(cache, "layouts_dir", lambda: layouts)
    return tmp_path / "cache" / "muster" / "inputs"


def hashed(monkeypatch) -> list:
    """The files whose content is read for the key from now on."""
    read = []
    content_key = cache._content_key
    monkeypatch.setattr(cache, "_content_key", lambda path: read.append(path) or content_key(path))
    return read


def every_file_hashed(game, monkeypatch) -> str:
    with monkeypatch.context() as patched:
        patched.setattr(sys, "dont_write_bytecode", True)
        return cache.inputs_of(game, {}).key


def test_muster_s_own_files_are_hashed_once_and_give_the_same_key(make_game, kept, monkeypatch):
    game = make_game()
    first = cache.inputs_of(game, {})
    assert len(list(kept.iterdir())) == 1
    read = hashed(monkeypatch)
    again = cache.inputs_of(game, {})
    assert again == first
    assert again.key == every_file_hashed(game, monkeypatch)
    assert read and all(path.is_relative_to(game) for path in read)  # the game's own files, each time


def test_a_file_of_another_version_is_hashed_again(make_game, kept, monkeypatch, tmp_path):
    game = make_game()
    cache.inputs_of(game, {})
    layout = next((tmp_path / "layouts").rglob("*.yaml"))
    layout.write_text(layout.read_text() + "\n")
    read = hashed(monkeypatch)
    changed = cache.inputs_of(game, {})
    assert layout in read
    assert changed.key == every_file_hashed(game, monkeypatch)


def test_a_damaged_entry_hashes_everything(make_game, kept, monkeypatch):
    game = make_game()
    key = cache.inputs_of(game, {}).key
    for damage in (b"\x00garbage", b"", marshal.dumps({"x": 1, str(layouts_dir()): ("a", "b")})):
        next(kept.iterdir()).write_bytes(damage)
        assert cache.inputs_of(game, {}).key == key


def test_nothing_is_kept_by_a_run_that_writes_no_bytecode(make_game, kept, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    cache.inputs_of(make_game(), {})
    assert not kept.exists() or not list(kept.iterdir())
