"""`muster validate` of a game in several languages: each missing translation a located warning, and text fit
checked in every language."""

from __future__ import annotations

import json
import shutil

from conftest import TESTS, patched
from test_cli import muster

BILINGUAL = TESTS / "fixtures" / "bilingual"


def findings(folder) -> tuple[int, list[dict]]:
    result = muster("validate", str(folder), "--format", "json")
    return result.returncode, json.loads(result.stdout)


def test_every_missing_translation_is_reported_where_its_source_is():
    code, found = findings(BILINGUAL)
    assert code == 0
    assert sorted((f["code"], f["file"].rsplit("/", 1)[-1], f["line"], f["field"], f["severity"]) for f in found) == [
        ("missing-translation", "game.yaml", 17, "traits.side.label", "warning"),
        ("missing-translation", "game.yaml", 18, "traits.attack.label", "warning"),
        ("missing-translation", "orders.csv", 3, "title", "warning"),
        ("missing-translation", "units.yaml", 12, "cards[1].text", "warning"),
    ]


def test_a_missing_rulebook_translation_is_reported(tmp_path):
    folder = shutil.copytree(BILINGUAL, tmp_path / "bilingual")
    (folder / "rules.de.md").unlink()
    _, found = findings(folder)
    assert ("missing-translation", "rulebook.file", 38) in {(f["code"], f["field"], f["line"]) for f in found}


def test_text_that_fits_only_in_the_source_language_is_an_error_in_the_other(tmp_path):
    folder = shutil.copytree(BILINGUAL, tmp_path / "bilingual")
    units = folder / "units.yaml"
    units.write_text(patched(units.read_text(encoding="utf-8"), {
        "title:de: Panzerzug": "title:de: Panzerkampfwagenzugführerstellvertretergruppenabteilungskommando"}),
        encoding="utf-8")
    code, found = findings(folder)
    overflow = [f for f in found if f["code"] == "text-overflow"]
    assert code == 1 and len(overflow) == 1, found
    assert overflow[0]["file"].endswith("units.yaml") and overflow[0]["line"] == 8
    assert overflow[0]["message"].endswith("[de]")
    english = muster("validate", str(BILINGUAL), "--format", "json")
    assert "text-overflow" not in english.stdout


def test_a_style_and_a_table_are_translated_key_by_key_and_each_gap_is_reported(tmp_path):
    """A deck's style: and a table's rows are the author's own keys: a key given in another language there is a
    text, and a table's column translated in one row needs it in every row that has text."""
    folder = shutil.copytree(BILINGUAL, tmp_path / "bilingual")
    game = folder / "game.yaml"
    game.write_text(patched(game.read_text(encoding="utf-8"), {
        "    face: face.yaml\n    back: back.yaml\n  orders:":
            "    face: face.yaml\n    back: back.yaml\n    style: {side: North, side:de: Nord, band: red}\n  orders:",
        "words:": "tables:\n  turns:\n    - {step: Draw, step:de: Ziehen, cards: 2}\n    - {step: Fire, cards: 1}\n"
                  "    - {step: Move, step:xx: Bouger}\nwords:",
    }), encoding="utf-8")
    code, found = findings(folder)
    assert code == 1
    located = {(f["code"], f["line"], f["field"]) for f in found} - {
        (f["code"], f["line"], f["field"]) for f in findings(BILINGUAL)[1]}
    assert located == {
        ("missing-translation", 39, "tables.turns[1].step"),
        ("missing-translation", 40, "tables.turns[2].step"),
        ("unknown-language", 40, "tables.turns[2].step:xx"),
    }
