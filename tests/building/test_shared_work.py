"""Work a build shares rather than does again: a rulebook parsed once for its checks, its rules and its booklet,
and the cards it draws laid out once for the checks and the typesetter."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from generator.building.kit import build_game
from generator.checking import rulebook
from generator.layout import figures
from generator.layout.rulebook import render_text
from generator.core.options import Options
from generator.reading.loading import load_game
from generator.reading.resources import bundled_games


@pytest.fixture
def game():
    return load_game(next(p for p in bundled_games() if p.name == "europe-1939"))


def test_a_rulebook_is_parsed_once_for_its_checks_its_rules_and_its_booklet(game, tmp_path, monkeypatch):
    from generator.core import inline

    inline.rules_tokens.cache_clear()  # parsed by a test before, in this process: kept
    inline.rules_tree.cache_clear()
    parsed = []
    parse = MarkdownIt.parse
    monkeypatch.setattr(MarkdownIt, "parse",
                        lambda self, text, env=None: parsed.append(len(text)) or parse(self, text, env))
    built = build_game(game, tmp_path, Options(booklet=True))
    assert {b.file for b in built} >= {"rules.pdf", "rules-booklet.pdf"}
    rules = render_text(game).markdown
    assert parsed.count(len(rules)) == 1


def test_a_rulebook_figure_is_laid_out_once_for_the_checks_and_the_typesetter(game, tmp_path, monkeypatch):
    laid = []
    for module in (figures, rulebook):  # the build's (imported when it has a rulebook), the checks'
        original = module.lay_out_figure
        monkeypatch.setattr(module, "lay_out_figure",
                            lambda game, spec, original=original: laid.append(spec.source) or original(game, spec))
    built = build_game(game, tmp_path, Options(booklet=True))
    assert "rules.pdf" in {b.file for b in built}
    drawn = [source for source in laid if source != "cover"]  # the cover's row lays out each of its cards
    assert drawn and len(drawn) == len(set(drawn))
