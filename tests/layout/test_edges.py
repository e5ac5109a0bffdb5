"""The validator guards the edge: a background that stops short of the bleed is a warning (once per deck and
layout), and `muster new` writes layouts that follow the card size, so the 825 x 1125 px recipe leaves no white."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from conftest import patched
from generator.checking import check_game
from generator.core import codes as catalogue
from generator.core.display import Face, Picture, Rect
from generator.core.errors import Finding
from generator.formats.exports import export_png, run_export
from generator.formats.scaffold import new_game
from generator.layout.findings import bleed_gaps
from generator.reading.loading import load_game


def _resized(tmp_path: Path, size: str = '"2.5in x 3.5in"') -> Path:
    folder = new_game("edge-war", tmp_path)
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    assert "  size: poker " in text
    game_yaml.write_text(patched(text, {"  size: poker ": f"  size: {size} "}, count=1), encoding="utf-8")
    return folder


def test_the_gaps_of_a_face():
    full = Rect(-3, -3, 69, 94, fill="#ffffff")
    assert bleed_gaps(Face(63, 88, (full,)), 3) == []
    assert bleed_gaps(Face(63.5, 88.9, (Rect(-3, -3, 66, 91, fill="#000000"),)), 3) == ["right", "bottom"]
    # the white of a face without any background is the design: nothing reaches the bleed
    assert bleed_gaps(Face(63, 88, (Rect(4, 4, 20, 20, fill="#000000"),)), 3) == []
    # a box without a fill is no background; a picture covers its box
    assert bleed_gaps(Face(63, 88, (Rect(-3, -3, 69, 94, stroke="#000000"),)), 3) == []
    picture = Picture(Path("art.png"), -3, -3, 69, 50)
    assert bleed_gaps(Face(63, 88, (picture, Rect(-3, 47, 69, 44, fill="#000000"))), 3) == []
    assert bleed_gaps(Face(63, 88, (picture, Rect(-3, 47, 40, 44, fill="#000000"))), 3) == ["right", "bottom"]
    assert bleed_gaps(Face(63, 88, (full,)), 0) == []


def test_a_fixed_63_by_88_background_draws_the_warning(tmp_path):
    folder = _resized(tmp_path)
    for name in ("face.yaml", "back.yaml"):
        layout = folder / name
        layout.write_text(patched(layout.read_text(encoding="utf-8"), {'w: "{{ face.w }}", h: "{{ face.h }}"':
                                                                           "w: 63, h: 88"}), encoding="utf-8")
    findings = check_game(load_game(folder))
    gaps = [f for f in findings if f.code == "bleed-gap"]
    assert [(f.severity, f.field) for f in gaps] == [("warning", "decks.battle.face"),
                                                      ("warning", "decks.battle.back")]  # once, not per card
    assert gaps == [Finding.of(catalogue.BLEED_GAP, gaps[0].where, f"decks.battle.{which}", deck="battle", which=which,
                               layout=f"{which}.yaml", bleed=3, sides="right and bottom") for which in ("face", "back")]
    assert (gaps[0].where.path.name, gaps[1].where) == ("game.yaml", gaps[0].where)  # at the deck


def test_the_825_by_1125_recipe_leaves_no_white_edge(tmp_path):
    folder = _resized(tmp_path)
    assert check_game(load_game(folder)) == []
    bleed = 0.125 * 25.4
    run_export(folder, None, (), bleed, tmp_path / "out", "png",
               lambda g, d, laid, staging: export_png(g, d, laid, staging, 300, bleed))
    files = sorted((tmp_path / "out" / "edge-war" / "png" / "battle").glob("*.png"))
    assert len(files) == 10
    for file in files:
        with Image.open(file) as image:
            rgb = image.convert("RGB")
        assert rgb.size == (825, 1125)
        width, height = rgb.size
        right = [rgb.getpixel((width - 1, y)) for y in range(height)]
        bottom = [rgb.getpixel((x, height - 1)) for x in range(width)]
        assert (255, 255, 255) not in right + bottom, file.name
        # the edges are the background's colour, as the left and top are
        assert rgb.getpixel((width - 1, height // 2)) == rgb.getpixel((0, height // 2))
        assert rgb.getpixel((width // 2, height - 1)) == rgb.getpixel((width // 2, height - 40))
