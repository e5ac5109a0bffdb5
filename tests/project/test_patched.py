"""The tests change fixture games by data: `patched` applies its edits, and a target that is no longer in the
fixture's text fails the test that asked for it instead of leaving the fixture silently unchanged."""

from __future__ import annotations

import pytest
from conftest import GAME_YAML, patched


def test_edits_apply_in_turn():
    text = patched(GAME_YAML, {"size: 3": "size: 4", "size: 4": "size: 5", "title: Tiny War": "title: Big War"})
    assert "    size: 5\n" in text and "title: Big War\n" in text
    assert text.count("\n") == GAME_YAML.count("\n")  # lines stay where they were: findings' lines still match


def test_count_limits_the_occurrences():
    assert patched("a a a", {"a": "b"}, count=1) == "b a a"
    assert patched("a a a", {"a": "b"}) == "b b b"


def test_a_missing_target_fails_naming_it():
    with pytest.raises(pytest.fail.Exception, match="'size: 33'"):
        patched(GAME_YAML, {"size: 3": "size: 4", "size: 33": "size: 34"})
