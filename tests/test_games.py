"""The bundled games: each validates clean, and each source contradiction is caught by the validator.

A case under tests/fixtures/<game>/<case>/ holds files that replace the game's own files of the same name (the
source's own list, or a deliberately broken deck) and expected.yaml, the findings the validator must report:
exactly these, each once.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from generator.checking import check_game
from generator.reading.loading import load_game
from generator.reading.resources import bundled_games
from generator.checking.data import check_data

FIXTURES = Path(__file__).parent / "fixtures"
CASES = sorted(p for p in FIXTURES.glob("*/*") if (p / "expected.yaml").is_file())


@pytest.mark.parametrize("game", [p.name for p in bundled_games()])
def test_bundled_game_validates_clean(game):
    findings = check_game(load_game(game))
    assert [str(f) for f in findings] == []


@pytest.mark.parametrize("case", CASES, ids=[f"{c.parent.name}/{c.name}" for c in CASES])
def test_source_contradictions_are_reported(case, tmp_path):
    expected = yaml.safe_load((case / "expected.yaml").read_text())
    game = tmp_path / expected["game"]
    shutil.copytree(load_game(expected["game"]).root, game)
    for replacement in case.iterdir():
        if replacement.name != "expected.yaml":
            shutil.copy(replacement, game / replacement.name)
    findings = check_data(load_game(game))
    unmatched = list(findings)
    for want in expected["findings"]:
        rule = want.get("rule")
        matching = [f for f in unmatched
                    if f.severity == want["severity"] and f.field == want["field"] and want["contains"] in f.message
                    and (f.message.startswith(f"[{rule}] ") if rule else not re.match(r"\[[\w-]+\] ", f.message))]
        assert len(matching) == 1, f"expected one finding like {want}, found {[str(f) for f in matching]}"
        unmatched.remove(matching[0])
    assert unmatched == [], f"unexpected findings: {[str(f) for f in unmatched]}"


def test_free_action_and_field_artillery_are_never_confused():
    game = load_game("tank-duel")
    assert game.vocabularies["effect"].terms["free_action"].name == "Free Action"
    assert game.vocabularies["unit_type"].terms["FA"].name == "Field Artillery"
    assert "FA" not in game.vocabularies["effect"].terms and "free_action" not in game.vocabularies["unit_type"].terms
    tactics = game.decks["tactics"].cards
    assert sum(c.traits.get("effect") == "free_action" for c in tactics) > 20
    assert all("unit_type" not in c.traits for c in tactics)
