"""A game's own fonts (game.yaml `fonts:`, issue 13): named in layouts and the rulebook, embedded as subsets in
one process and in two, and every bad font file refused at its line of game.yaml."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.building import pipeline
from generator.building.cache import inputs_of
from generator.building.kit import build_game
from generator.building.pipeline import build_forked
from generator.core import fonts
from generator.core.bundle import fonts_dir
from generator.core.options import Options
from generator.reading.loading import load_game

from conftest import GAME_YAML, patched
from hostile_run import muster, refused

FAMILY = """\
fonts:
  house:
    regular: fonts/House-Regular.ttf
    bold: fonts/House-Bold.ttf
"""
FACE = """\
elements:
  - {kind: box, x: 0, y: 0, w: 63, h: 88, fill: "#f4f0e6", bleed: true}
  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: "{{ card.title }}", font: house-bold, size: 14}
  - {kind: text, x: 4, y: 30, w: 55, h: 30, text: "Quiet words, then **loud** and *leaning*.", font: house, size: 9}
"""
RULES = "# Rules\n\nThe rules in the house face, **bold** too.\n\n- Alpha\n- Bravo\n"


def house_game(make_game, family: str = FAMILY, faces=("DejaVuSerifCondensed.ttf", "DejaVuSerifCondensed-Bold.ttf"),
               name: str = "tiny") -> Path:
    """The tiny game with a family 'house' of its own (copies of the bundled serif), used on its cards' faces and
    as its rulebook's font."""
    game_yaml = patched(GAME_YAML, {"icons:\n": family + "rulebook: {file: rules.md, font: house}\nicons:\n"}, count=1)
    folder = make_game({"game.yaml": game_yaml, "face.yaml": FACE, "rules.md": RULES}, name=name)
    (folder / "fonts").mkdir(exist_ok=True)
    for target, source in zip(("House-Regular.ttf", "House-Bold.ttf"), faces):
        shutil.copyfile(fonts_dir() / source, folder / "fonts" / target)
    return folder


def pdf_fonts(pdf: Path) -> dict[str, str]:
    """pdffonts' table: each font's name (its subset prefix cut off) -> its type, embedded and subset columns."""
    lines = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    table = {}
    for line in lines:
        name, *rest = line.split()
        assert "+" in name, f"not a subset: {line}"
        table[name.split("+", 1)[1]] = " ".join(rest)
    return table


def text_of(pdf: Path) -> str:
    return " ".join(page.extract_text() for page in PdfReader(pdf).pages)


# the game's copies of the bundled serif, embedded under their own names, as two subsets of one name would clash
HOUSE = {"DejaVuSerifCondensed-house", "DejaVuSerifCondensed-Bold-house-bold"}


def check_kit(folder: Path) -> None:
    cards = pdf_fonts(folder / "cards-reds.pdf")
    assert HOUSE | {"DejaVuSansCondensed"} == set(cards), cards
    assert all(row.split()[-5:-3] == ["yes", "yes"] for row in cards.values()), cards  # embedded, subset
    text = text_of(folder / "cards-reds.pdf")
    assert "Quiet words, then loud and leaning." in " ".join(text.split())
    rules = pdf_fonts(folder / "rules.pdf")
    assert HOUSE <= set(rules), rules
    assert "The rules in the house face, bold too." in " ".join(text_of(folder / "rules.pdf").split())


def test_a_game_font_is_embedded_as_a_subset_in_cards_and_rulebook_and_builds_are_identical(make_game, tmp_path):
    folder = house_game(make_game)
    game = load_game(folder)
    assert not game.findings
    assert game.fonts.family_of("house") == {"regular": "house", "bold": "house-bold", "italic": "house",
                                             "bold_italic": "house-bold"}
    assert game.fonts.has_face("house", "bold") and not game.fonts.has_face("house", "italic")
    build_game(game, tmp_path / "one", Options())
    build_game(load_game(folder), tmp_path / "two", Options())
    check_kit(tmp_path / "one" / "tiny")
    for name in ("cards-reds.pdf", "rules.pdf"):
        assert (tmp_path / "one" / "tiny" / name).read_bytes() == (tmp_path / "two" / "tiny" / name).read_bytes()


def test_a_game_font_is_drawn_in_a_second_process_the_same(make_game, tmp_path, monkeypatch):
    folder = house_game(make_game)
    build_game(load_game(folder), tmp_path / "one", Options())
    made = []
    fork = os.fork
    monkeypatch.setattr(pipeline.os, "fork", lambda: made.append(1) or fork())
    build_forked(folder, tmp_path / "two", Options())
    assert made == [1]
    check_kit(tmp_path / "two" / "tiny")
    for name in ("cards-reds.pdf", "rules.pdf"):
        assert (tmp_path / "one" / "tiny" / name).read_bytes() == (tmp_path / "two" / "tiny" / name).read_bytes()


def test_two_games_with_a_family_of_one_name_each_print_their_own(make_game, tmp_path):
    """The font caches are by name: a second game whose 'house' is another file must not print the first's."""
    first = house_game(make_game, name="first")
    second = house_game(make_game, faces=("DejaVuSansCondensed.ttf", "DejaVuSansCondensed-Bold.ttf"), name="second")
    build_game(load_game(first), tmp_path / "out", Options())
    build_game(load_game(second), tmp_path / "out", Options())
    assert "DejaVuSansCondensed-house" in pdf_fonts(tmp_path / "out" / "second" / "cards-reds.pdf")
    assert "DejaVuSansCondensed-house" in pdf_fonts(tmp_path / "out" / "second" / "rules.pdf")
    build_game(load_game(first), tmp_path / "again", Options())
    assert (tmp_path / "again" / "first" / "cards-reds.pdf").read_bytes() == \
        (tmp_path / "out" / "first" / "cards-reds.pdf").read_bytes()
    # its words measured in its own 'house', not the first game's: as a process of its own lays them out
    assert muster("build", second, "--out", tmp_path / "alone", cwd=tmp_path).code == 0
    assert (tmp_path / "alone" / "second" / "cards-reds.pdf").read_bytes() == \
        (tmp_path / "out" / "second" / "cards-reds.pdf").read_bytes()


def test_the_bold_and_italic_faces_a_family_lacks_fall_back(make_game):
    family = "fonts:\n  house: {regular: fonts/House-Regular.ttf, italic: fonts/House-Bold.ttf}\n"
    game = load_game(house_game(make_game, family))
    assert game.fonts.family_of("house") == {"regular": "house", "bold": "house", "italic": "house-italic",
                                             "bold_italic": "house-italic"}
    book = fonts.font_book()
    assert book.files["house-bold"] == book.files["house"]  # named, as layouts may: the face that stands in
    assert book.files["house-bold-italic"] == book.files["house-italic"]
    assert book.has_face("house-italic", "italic") and not book.has_face("house", "bold")


def test_editing_a_game_font_changes_the_input_key(make_game):
    folder = house_game(make_game)
    before = inputs_of(folder, {}).key
    with open(folder / "fonts" / "House-Bold.ttf", "ab") as handle:
        handle.write(b"\0")
    assert inputs_of(folder, {}).key != before


def test_the_bundled_serif_has_four_faces():
    from generator.reading.fonts import read_font_book

    book = read_font_book()
    assert book.family_of("serif") == {"regular": "serif", "bold": "serif-bold", "italic": "serif-italic",
                                       "bold_italic": "serif-bold-italic"}
    assert all(book.has_face("serif", style) for style in ("bold", "italic"))
    assert fonts.face("serif-italic").face.name == b"DejaVuSerifCondensed-Italic"


def test_validate_and_export_know_a_game_font(make_game, tmp_path):
    folder = house_game(make_game)
    assert muster("validate", folder, cwd=tmp_path).code == 0
    done = muster("export", "pdf", folder, "--out", tmp_path / "out", cwd=tmp_path)
    assert done.code == 0, done
    exported = sorted((tmp_path / "out").rglob("*.pdf"))
    assert exported and HOUSE <= set(pdf_fonts(exported[0])), exported
    done = muster("export", "png", folder, "--out", tmp_path / "out", cwd=tmp_path)
    assert done.code == 0 and list((tmp_path / "out").rglob("*.png")), done


# --- bad font files: one line naming game.yaml's line and the field, nothing in output/ touched -------------------

def _write(folder: Path, name: str, data: bytes) -> str:
    (folder / "fonts" / name).write_bytes(data)
    return f"fonts/{name}"


def _truncated(folder):
    return _write(folder, "cut.ttf", (fonts_dir() / "DejaVuSerifCondensed.ttf").read_bytes()[:3000])


def _link(folder):
    os.symlink(folder / "fonts" / "House-Regular.ttf", folder / "fonts" / "link.ttf")
    return "fonts/link.ttf"


def _folder(folder):
    (folder / "fonts" / "dir.ttf").mkdir()
    return "fonts/dir.ttf"


def _outside(folder):
    shutil.copyfile(fonts_dir() / "DejaVuSerifCondensed.ttf", folder.parent / "outside.ttf")
    return "../outside.ttf"


BAD_FILES = {
    "corrupt": (lambda folder: _write(folder, "noise.ttf", bytes(range(256)) * 40), "bad-font"),
    "truncated": (_truncated, "damaged-font"),
    "text": (lambda folder: _write(folder, "notes.ttf", b"these are not the glyphs you seek\n"), "bad-font"),
    "tableless-otf": (lambda folder: _write(folder, "post.otf", b"OTTO" + bytes(2000)), "damaged-font"),
    "link": (_link, "not-a-regular-file"),
    "folder": (_folder, "missing-file"),
    "outside": (_outside, "file-outside-game"),
    "missing": (lambda folder: "fonts/none.ttf", "missing-file"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_a_bad_font_file_is_an_error_at_its_line(make_game, case):
    folder = house_game(make_game)
    make, code = BAD_FILES[case]
    written = make(folder)
    (folder / "game.yaml").write_text(patched((folder / "game.yaml").read_text(), {"fonts/House-Bold.ttf": written}))
    found = [f for f in load_game(folder).findings if f.severity == "error"]
    assert len(found) == 1, found
    assert (found[0].field, found[0].code, found[0].where.line) == ("fonts.house.bold", code, 8), found
    assert found[0].where.path.name == "game.yaml" and written in found[0].message


@pytest.mark.parametrize("family, code", [
    ("fonts:\n  text-bold: {regular: fonts/House-Regular.ttf}\n", "bad-name"),
    ("fonts:\n  house: {bold: fonts/House-Bold.ttf}\n", "missing-key"),
    ("fonts:\n  house: {regular: fonts/House-Regular.ttf, heavy: fonts/House-Bold.ttf}\n", "unknown-key"),
])
def test_a_bad_family_is_an_error(make_game, family, code):
    found = load_game(house_game(make_game, family)).findings
    assert code in {f.code for f in found if f.severity == "error"}, found


def test_a_family_named_as_a_bundled_one_replaces_it_in_that_game(make_game, tmp_path):
    family = "fonts:\n  serif:\n    regular: fonts/House-Regular.ttf\n"
    folder = house_game(make_game, family, faces=("DejaVuSansCondensed.ttf",))
    (folder / "face.yaml").write_text(patched(FACE, {"house-bold": "serif", "font: house": "font: serif"}))
    (folder / "game.yaml").write_text(patched((folder / "game.yaml").read_text(), {"font: house": "font: serif"}))
    book = load_game(folder).fonts
    assert book.families["serif"] == dict.fromkeys(fonts.STYLES, "serif")
    # the bundled faces of the family are gone with it: its names are the game's regular face
    assert {book.files[f"serif{suffix}"] for suffix in ("", "-bold", "-italic", "-bold-italic")} == {
        folder / "fonts" / "House-Regular.ttf"}
    build_game(load_game(folder), tmp_path, Options())
    embedded = pdf_fonts(tmp_path / "tiny" / "cards-reds.pdf")
    assert "DejaVuSansCondensed" in embedded and not any("Serif" in name for name in embedded), embedded


@pytest.mark.parametrize("case", ["corrupt", "tableless-otf", "link", "outside"])
def test_a_build_with_a_bad_font_is_refused_and_leaves_output_alone(make_game, tmp_path, case):
    folder = house_game(make_game)
    assert muster("build", folder, "--out", tmp_path / "out", "--jobs", "1", cwd=tmp_path).code == 0
    kept = {path: path.read_bytes() for path in (tmp_path / "out" / "tiny").iterdir()}
    written = BAD_FILES[case][0](folder)
    (folder / "game.yaml").write_text(patched((folder / "game.yaml").read_text(), {"fonts/House-Bold.ttf": written}))
    for jobs in ("1", "2"):
        lines = refused(muster("build", folder, "--out", tmp_path / "out", "--jobs", jobs, cwd=tmp_path),
                        ["game.yaml"])
        assert any(":8:" in line and "fonts.house.bold" in line for line in lines), lines
    assert {path: path.read_bytes() for path in (tmp_path / "out" / "tiny").iterdir()} == kept


def test_the_schema_knows_the_fonts_key_and_game_fonts(tmp_path):
    import json
    import re

    from generator.formats.schema import write_schemas

    write_schemas(tmp_path)
    game = json.loads((tmp_path / "game.schema.json").read_text())
    family = game["properties"]["fonts"]["additionalProperties"]
    assert family["required"] == ["regular"] and set(family["properties"]) == {"regular", "bold", "italic",
                                                                              "bold_italic", "fallback"}
    font = game["properties"]["rulebook"]["properties"]["font"]["anyOf"]
    assert "serif-bold-italic" in font[0]["enum"]
    assert re.match(font[1]["pattern"], "house-bold") and not re.match(font[1]["pattern"], "House")


def test_characters_a_game_font_lacks_are_reported(make_game):
    """A copy of Roboto Condensed has no Georgian: on a card and in the rulebook, as for the bundled fonts."""
    from generator.checking import check_game

    folder = house_game(make_game, faces=("RobotoCondensed-Regular.ttf", "RobotoCondensed-Bold.ttf"))
    (folder / "face.yaml").write_text(patched(FACE, {"Quiet words": "ჰა words"}))
    (folder / "rules.md").write_text(patched(RULES, {"The rules": "ჰა rules"}))
    found = [f for f in check_game(load_game(folder)) if f.code == "missing-glyph"]
    assert any("'house'" in f.message and "ჰ" in f.message and f.where.path.name == "reds.yaml" for f in found), found
    assert any("'house'" in f.message and f.where.path.name == "rules.md" for f in found), found


def test_a_bad_font_found_in_the_second_process_writes_nothing(make_game, tmp_path):
    from generator.core.errors import GameInvalid

    folder = house_game(make_game)
    (folder / "fonts" / "House-Bold.ttf").write_bytes(b"OTTO" + bytes(100))
    with pytest.raises(GameInvalid) as raised:
        build_forked(folder, tmp_path / "out", Options())
    assert [(f.field, f.code) for f in raised.value.findings if f.severity == "error"] == [
        ("fonts.house.bold", "damaged-font")]
    assert not (tmp_path / "out" / "tiny").exists()


def test_a_display_family_without_bold_stands_in_for_display_bold(make_game, tmp_path):
    """The game's own `display` with a regular face only: display-bold, which layouts, the rulebook's headings and
    the calibration page name, is that face (the documented default of `bold:`), not an unknown font with no line."""
    family = "fonts:\n  house: {regular: fonts/House-Regular.ttf}\n  display: {regular: fonts/House-Regular.ttf}\n"
    folder = house_game(make_game, family)
    (folder / "face.yaml").write_text(patched(FACE, {"house-bold": "display-bold"}))
    (folder / "rules.md").write_text("# Rules\n\n## Setup\n\nThe rules.\n\n- Alpha\n- Bravo\n")
    result = muster("build", folder, "--out", tmp_path / "out", "--jobs", "1", cwd=tmp_path)
    assert result.code == 0, result
    for pdf in ("cards-reds.pdf", "rules.pdf", "calibration.pdf"):
        embedded = pdf_fonts(tmp_path / "out" / "tiny" / pdf)
        assert any(name.startswith("DejaVuSerifCondensed") for name in embedded), (pdf, embedded)
        assert not any(name.startswith("RobotoCondensed") for name in embedded), (pdf, embedded)  # bundled display


def test_the_cover_and_running_heads_are_glyph_checked(make_game):
    """The game's title (the cover, in the display face, and every running head) and its summary (the cover, in
    the rulebook's italic) are printed text too: a character their fonts lack is reported at game.yaml's line."""
    from generator.checking import check_game

    folder = house_game(make_game)
    (folder / "game.yaml").write_text(patched((folder / "game.yaml").read_text(), {"title: Tiny War":
                                                                                       "title: Tiny War 東\nsummary: A war ᚠ"}))
    found = [f for f in check_game(load_game(folder)) if f.code == "missing-glyph"]
    for character, line in (("東", 2), ("ᚠ", 3)):
        assert [(f.where.path.name, f.where.line) for f in found if character in f.message] == [("game.yaml", line)], \
            found


def test_every_bundled_font_passes_the_check_game_fonts_get():
    """The bundled fonts are read without the check of a game's fonts (core/sfnt.py), at every start: they pass it."""
    from generator.core import sfnt
    from generator.core.bundle import fonts_dir

    bundled = sorted(p for p in fonts_dir().iterdir() if p.suffix.lower() in (".ttf", ".otf"))
    assert len(bundled) >= 9
    for path in bundled:
        sfnt.check(path.read_bytes())
