"""Issue 13 as a designer meets it: one game folder (tests/fixtures/workshop) with a font family of its own, SVG art
and SVG icons, a spreadsheet deck with helper columns and a column mapping, `embed:` keywords, and rules text with
icons next to punctuation and escaped asterisks validates, builds, and prints exactly what its files say."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from generator.core.bundle import fonts_dir
from hostile_run import images_in, muster, succeeded
from pdfcheck import ICON_AT, page_text, rasterise, read_back
from conftest import TESTS

WORKSHOP = TESTS / "fixtures" / "workshop"
FACES = {"Regular": "", "Bold": "-Bold", "Italic": "-Italic"}  # the bundled serif's files stand in for the game's

# Each card as its PDF reads back: title, cost, the art (one picture), then the rules text with every icon (the
# embedded words Wood and Steel, and [[...]]) one picture, the markup gone and the escapes printed as written.
CARDS = {
    "001-sawmill.pdf": f"Sawmill3{ICON_AT}Gain2{ICON_AT},then1{ICON_AT}.Costs2*3*less*torun.",
    "002-forge.pdf": f"Forge4{ICON_AT}Turn2{ICON_AT}into1{ICON_AT};onceperturn.",
    "003-yard.pdf": f"Yard1{ICON_AT}Storeupto5{ICON_AT}(keep1{ICON_AT},1{ICON_AT}).",
}


@pytest.fixture(scope="module")
def workshop(tmp_path_factory) -> Path:
    """The workshop game copied into a folder of its own, with its fonts, validated, built and exported."""
    work = tmp_path_factory.mktemp("workshop")
    game = work / "sawmill"
    shutil.copytree(WORKSHOP, game)
    (game / "fonts").mkdir()
    for face, suffix in FACES.items():
        shutil.copyfile(fonts_dir() / f"DejaVuSerifCondensed{suffix}.ttf", game / "fonts" / f"Workshop-{face}.ttf")
    validated = muster("validate", "sawmill", cwd=work)
    succeeded(validated)
    assert "0 error(s), 0 warning(s)" in validated.output, validated
    succeeded(muster("build", "sawmill", "--out", "out", cwd=work))
    succeeded(muster("export", "pdf", "sawmill", "-o", "cards", cwd=work))
    return work


def test_each_card_prints_its_spreadsheet_row_exactly(workshop):
    folder = workshop / "cards" / "sawmill" / "pdf" / "buildings"
    assert {name: read_back(folder / name, 0) for name in CARDS} == CARDS


def test_the_helper_columns_are_left_out_and_the_copies_counted(workshop):
    sheet = page_text(workshop / "out" / "sawmill" / "cards-buildings.pdf", 0)  # the fronts; page 2: the backs
    assert sheet.count("Sawmill") == 2 and sheet.count("Forge") == 1 and sheet.count("Yard") == 3
    assert "TGC" not in sheet and "draft" not in sheet


def test_the_rulebook_prints_its_text_and_the_cards_exactly(workshop):
    pdf = workshop / "out" / "sawmill" / "rules.pdf"
    joined = "".join("".join(page_text(pdf, index).split()) for index in range(3))
    assert "Eachturn,gain1.Pay2,1:buildonecard.Ascoreof2*3issix,and*stars*printaswritten." in joined, joined
    assert "Gain2,then1.Costs2*3*less*torun." in joined and "Wood" not in joined and "Steel" not in joined


def test_the_svgs_are_vector_paths_and_the_game_font_is_embedded(workshop):
    for name in ("cards-buildings.pdf", "rules.pdf"):
        pdf = workshop / "out" / "sawmill" / name
        assert images_in(pdf) == [], name
        table = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
        ours = [line.split() for line in table.splitlines() if "-workshop" in line]
        # name, type, encoding, embedded, subset: every face of the game's family in use is an embedded subset
        assert ours and all("+" in row[0] and row[-5:-3] == ["yes", "yes"] for row in ours), table


def test_the_art_reaches_the_bleed(workshop):
    # the art's sand colour (#e9dcc0) at the page's top-left card, 1.5 mm outside its trim
    pdf = workshop / "cards" / "sawmill" / "pdf" / "buildings" / "001-sawmill.pdf"
    page = rasterise(pdf, 0, dpi=100, mode="RGB")
    corner = page.getpixel((round(1.5 / 25.4 * 100), round(1.5 / 25.4 * 100)))
    assert max(abs(a - b) for a, b in zip(corner, (0xE9, 0xDC, 0xC0))) < 8, corner
