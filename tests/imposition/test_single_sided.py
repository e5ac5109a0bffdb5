"""Counters printed on one side: a deck of tokens without a back prints no back pages, in every duplex mode."""

from __future__ import annotations

import json

import pypdfium2 as pdfium
import pytest

from generator.building.kit import build_one
from generator.checking import check_game
from generator.core.options import Options
from generator.core.units import PAPERS
from generator.formats.exports import export_pdf, export_png, run_export
from generator.formats.tts import export_tts
from generator.imposition.sheets import arrange, sheets
from generator.reading.loading import load_game

from conftest import GAME_YAML, patched

TOKENS = patched(GAME_YAML, {"    require: [type, force]\n": "    require: [type, force]\n    decks: [reds]\n", """    style: {side: Red}
""": """    style: {side: Red}
  markers:
    component: tokens
    file: markers.yaml
    face: marker.yaml
    format: {size: counter-1/2in, packing: sheet}
"""})
MARKERS = "cards:\n" + "".join(f"  - {{title: M{n}, count: 50}}\n" for n in range(1, 5))  # 200: 2 A4 sheets
MARKER = "elements:\n  - {kind: box, x: 0, y: 0, w: 12.7, h: 12.7, fill: \"#c8d8a0\", bleed: true}\n"


def page_count(pdf) -> int:
    document = pdfium.PdfDocument(str(pdf))
    try:
        return len(document)
    finally:
        document.close()


def test_no_backs_no_back_sheets_in_any_mode():
    layout = arrange(PAPERS["a4"], (12.7, 12.7), 3.0, packing="sheet")
    fronts = list(range(layout.per_sheet + 5))
    for duplex in ("long", "short", "fold", "none"):
        pages = list(sheets(fronts, [None] * len(fronts), layout, duplex))
        assert [p.side for p in pages] == (["both"] * 2 if duplex == "fold" else ["front"] * 2)
        assert sum(len(p.placements) for p in pages) == len(fronts)
    mixed = list(sheets([0, 1, 2], [5, None, 5], layout, "long"))  # a blank back leaves its slot empty
    assert [len(p.placements) for p in mixed] == [3, 2]


@pytest.mark.parametrize("duplex", ["long", "short", "fold", "none"])
def test_a_deck_of_tokens_without_a_back_prints_its_fronts_alone(make_game, tmp_path, duplex):
    folder = make_game({"game.yaml": TOKENS, "markers.yaml": MARKERS, "marker.yaml": MARKER})
    outcome = build_one(folder, tmp_path / "out", Options(duplex=duplex, calibration=False))
    assert outcome.code == 0, outcome.errors
    kit = tmp_path / "out" / "tiny"
    per_sheet = arrange(PAPERS["a4"], (12.7, 12.7), 3.0, packing="sheet").per_sheet
    assert page_count(kit / "tokens.pdf") == -(-200 // per_sheet)  # fronts only, on unfolded sheets
    cards = {"long": 2, "short": 2, "fold": 1, "none": 2}[duplex]  # the red cards keep their backs
    assert page_count(kit / "cards-reds.pdf") == cards
    manifest = json.loads((kit / "manifest.json").read_text())
    assert manifest["decks"]["markers"]["cards"] == 200


def test_a_deck_of_cards_still_needs_a_back(make_game, tmp_path):
    folder = make_game({"game.yaml": patched(GAME_YAML, {"    back: back.yaml\n": ""})})
    outcome = build_one(folder, tmp_path / "out", Options(calibration=False))
    assert outcome.code == 1
    found = [(f.code, f.field, f.where.path.name) for f in check_game(load_game(folder)) if f.severity == "error"]
    assert found == [("missing-layout", "decks.reds.back", "game.yaml")]  # the back, of the deck of cards


def test_exports_of_one_sided_counters(make_game, tmp_path):
    folder = make_game({"game.yaml": TOKENS, "markers.yaml": MARKERS, "marker.yaml": MARKER})
    run_export(folder, ["markers"], (), 1.0, tmp_path, "png", lambda g, d, laid, s: export_png(g, d, laid, s, 100, 1.0))
    pngs = sorted(p.name for p in (tmp_path / "tiny" / "png" / "markers").glob("*.png"))
    assert pngs == [f"00{n}-m{n}-front.png" for n in range(1, 5)]
    run_export(folder, ["markers"], (), 1.0, tmp_path, "pdf", lambda g, d, laid, s: export_pdf(g, d, laid, s, 1.0))
    assert page_count(tmp_path / "tiny" / "pdf" / "markers" / "001-m1.pdf") == 1
    run_export(folder, ["markers"], (), 0.0, tmp_path, "tts", lambda g, d, laid, s: export_tts(g, d, laid, s, 100))
    deck = tmp_path / "tiny" / "tts" / "markers"
    assert (deck / "markers-faces-1.png").is_file() and (deck / "markers-tts.txt").is_file()


def test_the_schema_asks_a_back_of_cards_only():
    import jsonschema
    import yaml

    from generator.formats.schema import game_schema

    schema = game_schema()
    game = yaml.safe_load(TOKENS)
    game["decks"]["markers"]["paper"] = "a4-landscape"
    jsonschema.validate(game, schema)  # tokens without a back, on their own paper
    del game["decks"]["reds"]["back"]
    with pytest.raises(jsonschema.ValidationError, match="'back' is a required property"):
        jsonschema.validate(game, schema)
