"""Shared fixtures: tiny games written to tmp_path, and helpers to read rendered PDFs."""

from __future__ import annotations

import fcntl
import os
import textwrap
from pathlib import Path

import pytest

from generator.core import codes

codes.STRICT = True  # a finding made with a code core/codes.py does not declare fails where it is made

REPO = Path(__file__).resolve().parent.parent
TESTS = REPO / "tests"  # the tests' own files: fixtures, corpora, references; tests sit a folder below, by stage

GAME_YAML = """\
muster: 1
title: Tiny War
card: {size: poker}
colours: {dark: "#222222"}
icons:
  star: {glyph: "★", font: text-bold}
vocabularies:
  card_type:
    L: {name: Leader, icon: star}
    U: Unit
  front:
    values:
      E: East Front
      W: West Front
    aliases:
      A: [E, W]
traits:
  type:   {kind: code, vocabulary: card_type}
  force:  {kind: integer, min: 0, max: 9}
  fronts: {kind: codes, vocabulary: front}
  year:   {kind: year_from, min: 1939, max: 1945}
  text:   {kind: text}
decks:
  reds:
    name: Red deck
    file: reds.yaml
    size: 3
    face: face.yaml
    back: back.yaml
    style: {side: Red}
rules:
  - name: typed
    require: [type, force]
"""

REDS_YAML = """\
cards:
  - {title: Alpha, type: L, force: 2, fronts: A}
  - {title: Bravo, type: U, force: 3, fronts: E, count: 2}
"""

FACE_YAML = """\
elements:
  - {kind: box, x: 0, y: 0, w: 63, h: 88, fill: "#f4f0e6", bleed: true}
  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: "{{ card.title }}", font: display-bold, size: 16, min_size: 8, align: center}
  - {kind: text, x: 4, y: 40, w: 55, h: 12, text: "{{ card.force }}", font: display-bold, size: 30, align: center}
"""

BACK_YAML = """\
elements:
  - {kind: box, x: 0, y: 0, w: 63, h: 88, fill: dark, bleed: true}
  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: "back of {{ card.title }}", size: 12, align: center, colour: white}
"""


def patched(text: str, edits: dict[str, str], count: int = -1) -> str:
    """`text` with each `old: new` of `edits` applied in turn (every occurrence, or the first `count`); a target
    no longer in the text fails the test naming it, where str.replace would silently change nothing."""
    for old, new in edits.items():
        if old not in text:
            pytest.fail(f"patched: the target {old!r} is not in the text", pytrace=False)
        text = text.replace(old, new, count)
    return text


def hex_board_game(make_game, extra: str = "") -> Path:
    """A small game with a 14 x 10 board of 25 mm hexes, 10 mm from its edges, drawn by a grid element;
    `extra` is added to the board's keys."""
    folder = make_game({"hexmap.yaml": "elements:\n  - {kind: grid, x: '{{ board.grid.x }}', y: '{{ board.grid.y }}', "
                                       "columns: '{{ board.grid.columns }}', rows: '{{ board.grid.rows }}', "
                                       "cell: '{{ board.grid.cell }}', shape: hex, labels: true, size: 8}\n"})
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text() + (
        "boards:\n  hexes:\n    file: map\n    layout: hexmap.yaml\n"
        "    grid: {columns: 14, rows: 10, cell: 25mm, shape: hex, margin: 10mm}\n" + extra))
    return folder


@pytest.fixture
def make_game(tmp_path):
    """Writes a small game folder; `files` overrides or adds files by name. Returns the folder."""

    def make(files: dict[str, str] | None = None, name: str = "tiny") -> Path:
        folder = tmp_path / name
        folder.mkdir(parents=True, exist_ok=True)
        contents = {"game.yaml": GAME_YAML, "reds.yaml": REDS_YAML, "face.yaml": FACE_YAML, "back.yaml": BACK_YAML}
        contents.update(files or {})
        for file_name, text in contents.items():
            path = folder / file_name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(text), encoding="utf-8")
        return folder

    return make


@pytest.fixture
def font_book():
    """The bundled font book read, as loading a game does: for a test that measures or draws without a game."""
    from generator.reading.fonts import read_font_book

    return read_font_book()


@pytest.fixture(scope="session")
def bundled_kit(tmp_path_factory):
    """`bundled_kit(name, **options)`: the folder of the kit of bundled game `name` built with Options(**options),
    built once per test run and shared by every test that reads the same build (pytest-xdist's workers too, through
    their common base folder and a lock). A test reads it and never writes to it."""
    from generator.building.kit import build_game
    from generator.core.options import Options
    from generator.reading.loading import load_game

    base = tmp_path_factory.getbasetemp()
    kits = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "bundled-kits"
    kits.mkdir(exist_ok=True)

    def kit(name: str, **options) -> Path:
        key = name + "".join(f"-{field}={value}" for field, value in sorted(options.items()))
        out = kits / key
        with open(kits / f"{key}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not (out / "built").exists():
                build_game(load_game(name), out, Options(**options))
                (out / "built").touch()
        return out / name

    return kit
