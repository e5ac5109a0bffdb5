"""The notes and docs name files that exist: a path in backticks that points into the repository must be there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = sorted(ROOT.glob("decks/*/NOTES.md")) + sorted((ROOT / "docs").glob("*.md"))
# `decks/europe-1939`, `tests/fixtures/tank-duel/source-british/`, `generator/core/model.py:12`; not a pattern
# such as `tests/fixtures/<game>/` or `decks/*/NOTES.md`
NAMED_PATH = re.compile(r"`((?:tests|decks|layouts|docs|generator)/[^`\s<>*{}]*)`")


def named_paths(text: str) -> list[str]:
    return [re.sub(r":\d+$", "", match) for match in NAMED_PATH.findall(text)]


def test_named_paths_are_recognised():
    text = "see `tests/fixtures/a/b.yaml`, `decks/x/` and `generator/core/model.py:12`, not `tests/<game>/` or `decks/*/`"
    assert named_paths(text) == ["tests/fixtures/a/b.yaml", "decks/x/", "generator/core/model.py"]


@pytest.mark.parametrize("document", DOCUMENTS, ids=[str(d.relative_to(ROOT)) for d in DOCUMENTS])
def test_every_path_a_note_names_exists(document):
    missing = [path for path in named_paths(document.read_text()) if not (ROOT / path).exists()]
    assert missing == [], f"{document.relative_to(ROOT)} names files that do not exist: {missing}"


NOTES = sorted(ROOT.glob("decks/*/NOTES.md"))
UNFINISHED = re.compile(r"still to be written|to be written|will provide later|\bTODO\b|\bTBD\b", re.IGNORECASE)


@pytest.mark.parametrize("notes", NOTES, ids=[n.parent.name for n in NOTES])
def test_notes_speak_of_no_unfinished_work(notes):
    """The notes describe the game as bundled: a layout or a deck the folder already has is not 'to be written'."""
    stale = [line.strip() for line in notes.read_text().splitlines() if UNFINISHED.search(line)]
    assert stale == [], f"{notes.relative_to(ROOT)}: {stale}"
