"""Paper: every named paper upright or landscape, custom sizes, on the command line and per deck or board."""

from __future__ import annotations

import json

import pypdfium2 as pdfium
import pytest
from typer.testing import CliRunner

from generator.building.kit import build_one
from generator.cli import app
from generator.core.errors import MusterError
from generator.core.options import Options
from generator.core.units import PAPER_NAMES, PT_PER_MM, paper_size
from generator.imposition.sheets import arrange

from conftest import GAME_YAML, patched


def page_sizes(pdf) -> list[tuple[float, float]]:
    document = pdfium.PdfDocument(str(pdf))
    try:
        return [tuple(round(side / PT_PER_MM, 1) for side in page.get_size()) for page in document]
    finally:
        document.close()


@pytest.mark.parametrize("value, size", [
    ("a4", (210.0, 297.0)), ("A4-Landscape", (297.0, 210.0)), ("letter-landscape", (279.4, 215.9)),
    ("a3-landscape", (420.0, 297.0)), ("300mmx400mm", (300.0, 400.0)), ("11in x 17in", (279.4, 431.8)),
    (" tabloid ", (279.4, 431.8)),
])
def test_papers_by_name_and_size(value, size):
    assert paper_size(value) == pytest.approx(size)


@pytest.mark.parametrize("value", ["a4-portrait", "b5", "300mm", "10mm x 10mm", "0in x 3in", ""])
def test_a_paper_that_is_none_names_the_papers(value):
    with pytest.raises(MusterError) as caught:
        paper_size(value)
    assert caught.value.code == "bad-paper"
    assert "a4-landscape" in str(caught.value) or "must be" in str(caught.value)  # names the papers or the bounds


def test_every_paper_is_named_upright_and_landscape():
    for name in PAPER_NAMES:
        width, height = paper_size(name)
        assert (width > height) == name.endswith("-landscape")


def test_landscape_a4_holds_poker_cards_four_by_two():
    layout = arrange(paper_size("a4-landscape"), (63.0, 88.0), 3.0)
    assert layout.paper == (297.0, 210.0)
    assert len(layout.slots) == 8 and len({s.y for s in layout.slots}) == 2
    assert all(s.x >= 0 and s.x + s.w <= 297 and s.y + s.h <= 210 for s in layout.slots)


def test_the_command_line_takes_landscape_and_custom_paper(make_game, tmp_path):
    runner = CliRunner()
    game = make_game()
    result = runner.invoke(app, ["build", str(game), "--paper", "Letter-Landscape", "--no-calibration",
                                 "-o", str(tmp_path / "a")])
    assert result.exit_code == 0, result.output
    kit = tmp_path / "a" / "tiny"
    assert json.loads((kit / "manifest.json").read_text())["options"]["paper"] == "letter-landscape"
    assert set(page_sizes(kit / "cards-reds.pdf")) == {(279.4, 215.9)}
    result = runner.invoke(app, ["build", str(game), "--paper", "300mm x 400mm", "--no-calibration",
                                 "-o", str(tmp_path / "b")])
    assert result.exit_code == 0, result.output
    assert set(page_sizes(tmp_path / "b" / "tiny" / "cards-reds.pdf")) == {(300.0, 400.0)}


def test_an_unknown_paper_is_one_line_listing_the_papers(make_game, tmp_path):
    result = CliRunner().invoke(app, ["build", str(make_game()), "--paper", "a4-portrait", "-o", str(tmp_path)])
    assert result.exit_code == 2
    assert "a4-landscape" in result.output and "letter" in result.output and "Traceback" not in result.output


BOARD = """\
  map: {layout: board.yaml, size: 250mm x 180mm, paper: a4-landscape}
"""


def test_a_deck_and_a_board_print_on_their_own_paper(make_game, tmp_path):
    game = patched(GAME_YAML, {"    style: {side: Red}\n": "    style: {side: Red}\n    paper: a3-landscape\n"})
    game += "boards:\n" + BOARD
    folder = make_game({"game.yaml": game, "board.yaml": "elements:\n  - {kind: box, x: 0, y: 0, w: 250, h: 180, "
                                                           "fill: \"#ccddee\"}\n"})
    outcome = build_one(folder, tmp_path / "out", Options(paper="letter", calibration=False))
    assert outcome.code == 0, outcome.errors
    kit = tmp_path / "out" / "tiny"
    assert set(page_sizes(kit / "cards-reds.pdf")) == {(420.0, 297.0)}
    assert page_sizes(kit / "map.pdf") == [(297.0, 210.0)]  # one page: it would tile on upright letter


def test_a_bad_paper_in_game_yaml_is_a_finding(make_game, tmp_path):
    game = patched(GAME_YAML, {"    style: {side: Red}\n": "    style: {side: Red}\n    paper: a4-sideways\n"})
    outcome = build_one(make_game({"game.yaml": game}), tmp_path / "out", Options(calibration=False))
    assert outcome.code == 1
    assert any("decks.reds.paper" in line and "a4-landscape" in line for line in outcome.errors), outcome.errors
