"""Fonts as designers have them (issue 28): OpenType fonts with PostScript (CFF) outlines, converted to TrueType
outlines and embedded as subsets, and faces of collections chosen by index or name. The fonts are made here with
fontTools (tests/fontcraft.py), so that no test needs a font installed on the machine."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from pypdf import PdfReader

import fontcraft
from conftest import patched
from generator.building.kit import build_game
from generator.core.options import Options
from generator.reading.loading import load_game

from test_game_fonts import house_game, pdf_fonts, text_of

SERIF = ("HouseSerif-Regular", "HouseSerif-Bold")


def game_with(make_game, family: str, files: dict[str, bytes]) -> Path:
    folder = house_game(make_game, "fonts:\n  house:\n" + family)
    for name, data in files.items():
        (folder / "fonts" / name).write_bytes(data)
    return folder


def embedded(pdf: Path, name: str) -> TTFont:
    """The font file a PDF embeds for the font `name` (its subset prefix aside)."""
    for page in PdfReader(pdf).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            if font["/BaseFont"].split("+")[-1] == name:
                data = font["/FontDescriptor"]["/FontFile2"].get_data()
                return TTFont(io.BytesIO(data))
    raise AssertionError(f"{name} not embedded in {pdf.name}")


def test_a_cff_font_is_embedded_as_a_truetype_subset_of_its_converted_outlines(make_game, tmp_path):
    folder = game_with(make_game, "    regular: fonts/House-Regular.otf\n    bold: fonts/House-Bold.otf\n", {
        "House-Regular.otf": fontcraft.built("House Serif", postscript=True),
        "House-Bold.otf": fontcraft.built("House Serif", postscript=True, style="Bold")})
    for out in ("one", "two"):
        build_game(load_game(folder), tmp_path / out, Options())
    for pdf in ("cards-reds.pdf", "rules.pdf"):
        assert (tmp_path / "one" / "tiny" / pdf).read_bytes() == (tmp_path / "two" / "tiny" / pdf).read_bytes()
        table = pdf_fonts(tmp_path / "one" / "tiny" / pdf)
        for name in SERIF:
            assert table[name].split()[0] == "TrueType" and table[name].split()[-5:-3] == ["yes", "yes"], table
    cards = tmp_path / "one" / "tiny" / "cards-reds.pdf"
    assert "Quiet words, then loud and leaning." in " ".join(text_of(cards).split())
    rules = " ".join(text_of(tmp_path / "one" / "tiny" / "rules.pdf").split())
    assert "The rules in the house face, bold too." in rules
    font = embedded(cards, "HouseSerif-Regular")
    quiet = font["glyf"][font["cmap"].getcmap(1, 0).cmap[ord("Q")]]
    assert quiet.numberOfContours == 1
    assert not all(quiet.flags[n] & 1 for n in range(len(quiet.flags)))  # the cubic curve, now quadratic


def test_faces_of_a_collection_by_name_and_by_index(make_game, tmp_path):
    collection = fontcraft.collection(fontcraft.built("House Sans", postscript=False),
                                      fontcraft.built("House Serif", postscript=True))
    folder = game_with(make_game, '    regular: {file: fonts/house.ttc, face: "House Serif"}\n'
                                  "    bold: {file: fonts/house.ttc, face: 0}\n", {"house.ttc": collection})
    game = load_game(folder)
    assert not [f for f in game.findings if f.severity == "error"], game.findings
    build_game(game, tmp_path, Options())
    table = pdf_fonts(tmp_path / "tiny" / "cards-reds.pdf")
    assert {"HouseSerif-Regular", "HouseSans-Regular"} <= set(table), table


@pytest.mark.parametrize("value, code", [
    ("{file: fonts/house.ttc, face: 2}", "unknown-face"),
    ('{file: fonts/house.ttc, face: "House Mono"}', "unknown-face"),
    ("{file: fonts/house.ttc, face: -1}", "wrong-type"),
    ("{file: fonts/house.ttc, face: true}", "wrong-type"),
    ("{face: 1}", "missing-key"),
    ("{file: fonts/house.ttc, style: 1}", "unknown-key"),
    ("{file: fonts/single.otf, face: 1}", "unknown-face"),
])
def test_a_face_that_is_not_there_is_an_error_at_its_line(make_game, value, code):
    folder = game_with(make_game, f"    regular: {value}\n", {
        "house.ttc": fontcraft.collection(fontcraft.built("House Sans", postscript=False),
                                          fontcraft.built("House Serif", postscript=True)),
        "single.otf": fontcraft.built("House Serif", postscript=True)})
    found = [f for f in load_game(folder).findings if f.severity == "error" and f.field.startswith("fonts.")]
    assert [(f.code, f.where.path.name, f.where.line) for f in found] == [(code, "game.yaml", 7)], found
    assert found[0].field.startswith("fonts.house.regular"), found


def test_a_character_the_family_lacks_prints_in_its_first_fallback_that_has_it(make_game, tmp_path):
    """'東' is not in the house font, but in its fallback family 'marks' (after 'display', which lacks it too): it
    prints in marks, with no warning; 'ᚠ', in no font of the chain, stays in house and is reported there."""
    from generator.checking import check_game

    folder = game_with(make_game, "    regular: fonts/House.ttf\n    bold: fonts/House.ttf\n"
                                  "    fallback: [display, marks]\n"
                                  "  marks:\n    regular: fonts/Marks.otf\n", {
                                      "House.ttf": fontcraft.built("House Sans", postscript=False),
                                      "Marks.otf": fontcraft.built("House Marks", postscript=True,
                                                                   characters=[" ", "東"])})
    face = patched((folder / "face.yaml").read_text(), {"Quiet words": "Quiet 東東 wordsᚠ"})
    (folder / "face.yaml").write_text(face)
    game = load_game(folder)
    found = [f for f in check_game(game) if f.code == "missing-glyph"]
    assert not [f for f in found if "東" in f.message], found
    assert [f for f in found if "ᚠ" in f.message and "'house'" in f.message], found
    build_game(game, tmp_path, Options())
    cards = tmp_path / "tiny" / "cards-reds.pdf"
    assert {"HouseSans-Regular", "HouseMarks-Regular"} <= set(pdf_fonts(cards)), pdf_fonts(cards)
    assert "Quiet 東東 words" in " ".join(text_of(cards).split())


@pytest.mark.parametrize("fallback, code", [("[house]", "unknown-font"), ("[nope]", "unknown-font"),
                                            ("display", "wrong-type")])
def test_a_fallback_that_is_not_another_family_is_an_error_at_its_line(make_game, fallback, code):
    folder = game_with(make_game, f"    regular: fonts/House.ttf\n    fallback: {fallback}\n",
                       {"House.ttf": fontcraft.built("House Sans", postscript=False)})
    found = [f for f in load_game(folder).findings if f.severity == "error" and f.field.startswith("fonts.")]
    assert [(f.code, f.where.path.name, f.where.line) for f in found] == [(code, "game.yaml", 8)], found


def test_the_bundled_symbols_fill_in_for_a_family_that_names_them(make_game, tmp_path):
    """'⭐' (U+2B50) is in no other bundled font: the bundled Noto Sans Symbols 2 prints it, with no warning."""
    from generator.checking import check_game

    folder = game_with(make_game, "    regular: fonts/House.ttf\n    bold: fonts/House.ttf\n    fallback: [symbols]\n",
                       {"House.ttf": fontcraft.built("House Sans", postscript=False)})
    (folder / "face.yaml").write_text(patched((folder / "face.yaml").read_text(), {"Quiet words": "Quiet ⭐ words"}))
    game = load_game(folder)
    assert not [f for f in check_game(game) if f.code == "missing-glyph"]
    build_game(game, tmp_path, Options())
    cards = tmp_path / "tiny" / "cards-reds.pdf"
    assert "NotoSansSymbols2-Regular" in pdf_fonts(cards)
    assert "Quiet ⭐ words" in " ".join(text_of(cards).split())
