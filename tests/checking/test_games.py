"""The bundled games: each validates clean, each source contradiction is caught by the validator, and every
finding it reports carries a code.

A case under tests/fixtures/<game>/<case>/ holds files that replace the game's own files of the same name (the
source's own list, or a deliberately broken deck) and expected.yaml, the findings the validator must report:
exactly these, each once (matched by code where one is given).
"""

from __future__ import annotations

import importlib
import re
import shutil
from pathlib import Path

import pytest
import yaml
from conftest import TESTS, GAME_YAML, patched

from generator.checking import check_game
from generator.core import codes
from generator.core.errors import Finding
from generator.reading.loading import load_game
from generator.reading.resources import bundled_games
from generator.checking.data import check_data

FIXTURES = TESTS / "fixtures"
CASES = sorted(p for p in FIXTURES.glob("*/*") if (p / "expected.yaml").is_file())


@pytest.mark.parametrize("game", [p.name for p in bundled_games()])
def test_bundled_game_validates_clean(game):
    findings = check_game(load_game(game))
    assert [str(f) for f in findings] == []


@pytest.mark.parametrize("case", CASES, ids=[f"{c.parent.name}/{c.name}" for c in CASES])
def test_source_contradictions_are_reported(case, tmp_path):
    game, expected = case_game(case, tmp_path)
    findings = check_data(load_game(game))
    unmatched = list(findings)
    for want in expected["findings"]:
        rule = want.get("rule")
        matching = [f for f in unmatched
                    if f.severity == want["severity"] and f.field == want["field"] and said(f, want)
                    and f.code == want.get("code", f.code)
                    and (f.message.startswith(f"[{rule}] ") if rule else not re.match(r"\[[\w-]+\] ", f.message))]
        assert len(matching) == 1, f"expected one finding like {want}, found {[str(f) for f in matching]}"
        unmatched.remove(matching[0])
    assert unmatched == [], f"unexpected findings: {[str(f) for f in unmatched]}"


def said(finding: Finding, want: dict) -> bool:
    """The finding says what the case wants: its code's template filled with the case's `values`, or, for a
    finding whose words are the game's own (a rule's), the case's words within it."""
    if "values" in want:
        return finding.message == codes.CODES[want["code"]].message(**want["values"])
    return want["contains"] in finding.message


def case_game(case: Path, tmp_path: Path) -> tuple[Path, dict]:
    """The case's game copied to tmp_path with the case's files in it, and what the case expects."""
    expected = yaml.safe_load((case / "expected.yaml").read_text())
    game = tmp_path / expected["game"]
    shutil.copytree(load_game(expected["game"]).root, game)
    for replacement in case.iterdir():
        if replacement.name != "expected.yaml":
            shutil.copy(replacement, game / replacement.name)
    return game, expected


# The modules whose findings must carry a code. Each stage's modules join once their findings have codes; in the
# end every module that makes findings is here.
CODED = ["generator.checking.data"]

# Small games (conftest's make_game) broken in ways each stage reports.
EVERY_RULE_KIND = """\
rules:
  - {name: no-year-on-leaders, forbid: [year], when: {type: L}}
  - {name: one-leader, max_copies: 1, when: {type: L}}
  - {name: force-total, total: {trait: force, equals: 9}}
  - {name: two-units, count: {min: 2}, when: {type: U}}
"""
BROKEN = {
    "every-rule-kind": {"game.yaml": patched(GAME_YAML, {"rules:\n": EVERY_RULE_KIND}),
                        "reds.yaml": "cards:\n  - {title: Alpha, type: L, year: 1940, count: 2}\n"
                                     "  - {title: alpha, type: U, force: 3}\n  - {title: Bravo, type: U, force: 3}\n"},
    "text-overflow": {"reds.yaml": "cards:\n  - {title: Alpha, type: L, force: 2, text: " + "word " * 200 + "}\n"
                                   "  - {title: B, type: U, force: 3, count: 2, text: short}\n",
                      "face.yaml": "elements:\n  - {kind: paragraph, x: 4, y: 60, w: 55, h: 20, text: '{{ card.text }}',"
                                   " size: 9, min_size: 6}\n  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: 'x'}\n"},
}


def made_in(modules: list[str], monkeypatch) -> list[Finding]:
    """Every Finding the named modules make from now on: each module's name `Finding` records what it makes."""
    made = []

    class Recording(Finding):
        """A Finding that is recorded as it is made, whether by Finding(...) or by Finding.of(...)."""

        def __post_init__(self):
            getattr(super(), "__post_init__", lambda: None)()
            made.append(self)

    for name in modules:
        monkeypatch.setattr(importlib.import_module(name), "Finding", Recording)
    return made


@pytest.mark.parametrize("case", CASES + list(BROKEN), ids=[f"{c.parent.name}/{c.name}" for c in CASES] + list(BROKEN))
def test_every_finding_has_a_code(case, make_game, tmp_path, monkeypatch):
    game = case_game(case, tmp_path)[0] if isinstance(case, Path) else make_game(BROKEN[case])
    made = made_in(CODED, monkeypatch)
    findings = check_game(load_game(game))
    assert findings
    assert [str(f) for f in made if not f.code] == []
    assert all(any(f is g for g in findings) for f in made)


def test_free_action_and_field_artillery_are_never_confused():
    game = load_game("tank-duel")
    assert game.vocabularies["effect"].terms["free_action"].name == "Free Action"
    assert game.vocabularies["unit_type"].terms["FA"].name == "Field Artillery"
    assert "FA" not in game.vocabularies["effect"].terms and "free_action" not in game.vocabularies["unit_type"].terms
    tactics = game.decks["tactics"].cards
    assert sum(c.traits.get("effect") == "free_action" for c in tactics) > 20
    assert all("unit_type" not in c.traits for c in tactics)
