"""The notes and docs name files that exist: a path in backticks that points into the repository must be there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import REPO

ROOT = REPO
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


RULEBOOK_LIST = "**Designed for this edition:**"  # the paragraph in a rulebook's "Notes on this edition"
NOTES_SECTION = "## Designed for this edition"
NAME = re.compile(r"^- \*\*(.+?)\*\*")


def designed_names(lines: list[str]) -> list[str]:
    """The bold names that open the top-level items of the list at the head of `lines`, up to the next block
    that is not part of the list (a heading, a page break or a paragraph of its own)."""
    names, started = [], False
    for line in lines:
        if line.startswith("- "):
            match = NAME.match(line)
            assert match, f"a designed addition opens with its name in bold: {line!r}"
            names.append(match.group(1).rstrip(".:").casefold())
            started = True
        elif started and line and not line.startswith(" "):
            break
    return names


def rulebook_designed(text: str) -> list[str]:
    lines = text.splitlines()
    return designed_names(lines[lines.index(RULEBOOK_LIST) + 1:])


def notes_designed(text: str) -> list[str]:
    lines = text.splitlines()
    return designed_names(lines[lines.index(NOTES_SECTION) + 1:])


def test_designed_lists_are_read_item_by_item():
    text = "x\n**Designed for this edition:**\n\n- **One.** a\n  more\n- **Two**: b\n  - **Not** a name\n\nAfter.\n- **Three.**\n"
    assert rulebook_designed(text) == ["one", "two"]


GAMES = sorted(p.parent for p in ROOT.glob("decks/*/rules.md"))


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_rulebook_and_notes_list_the_same_designed_additions(game):
    """Every rule or component the source lacks is listed where the rulebook says what was designed for this
    edition, and under the same name in the game's NOTES.md."""
    in_rulebook = rulebook_designed((game / "rules.md").read_text())
    in_notes = notes_designed((game / "NOTES.md").read_text())
    assert in_rulebook, f"{game.name}: the rulebook lists nothing as designed"
    assert len(set(in_rulebook)) == len(in_rulebook)
    assert sorted(in_rulebook) == sorted(in_notes)
