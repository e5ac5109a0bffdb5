"""Players' deck lists (reading/decklists.py): the forms players write, titles matched exactly then without case
and accents, and every mistake one finding at the list's line; a list is untrusted input."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from conftest import REPO, patched
from test_cli import muster

MISTAKES = """\
# my Soviet deck
// another comment

Soviet arsenal:
3 T-34 Medium Tank
2x rifle division   # matched without case
Zhukov x1
1 zhukov
0 Konev
1000000 Yak-1 Fighter
1 Tiger I Heavy Tank
1 Timoshenko [pack-1]
1 Katyusha Rocket Battery [pack-2]
1 Konev [pack-1]
Navy:
1 Battleship Marat
German arsenal:
asdf qwer
1 Pikachu
1 admiral donitz
2 X  Panzer IV
"""


@pytest.fixture(scope="module")
def eastern():
    from generator.reading.decklists import game_for_list

    return game_for_list("eastern-front")


def _read(tmp_path, text: str, game, name: str = "deck.txt"):
    from generator.reading.decklists import read_list

    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return read_list(path, game)


def test_every_mistake_is_one_finding_at_its_line(tmp_path, eastern):
    read = _read(tmp_path, MISTAKES, eastern)
    assert [(f.where.line, f.code) for f in read.findings] == [
        (8, "duplicate-entry"), (9, "bad-count"), (10, "bad-count"), (11, "unknown-title"), (13, "unknown-set"),
        (14, "wrong-set"), (15, "unknown-deck"), (18, "bad-line"), (19, "unknown-title")]
    assert all(f.where.path.name == "deck.txt" and f.severity == "error" for f in read.findings)
    tiger = read.findings[3]
    assert "German arsenal" in tiger.message  # a card of another deck says which
    assert [(e.deck, e.count, e.card.title, e.where.line) for e in read.entries] == [
        ("soviet-arsenal", 3, "T-34 Medium Tank", 5), ("soviet-arsenal", 2, "Rifle Division", 6),
        ("soviet-arsenal", 1, "Zhukov", 7), ("soviet-arsenal", 1, "Timoshenko", 12),
        ("german-arsenal", 1, "Admiral Dönitz", 20), ("german-arsenal", 2, "Panzer IV", 21)]


def test_a_miss_suggests_the_nearest_title(tmp_path, eastern):
    finding, = _read(tmp_path, "Soviet arsenal:\n2 T-43 Medium Tank\n", eastern).findings
    assert finding.code == "unknown-title" and "T-34 Medium Tank" in finding.message


def test_a_list_without_sections_finds_each_card_in_its_deck(tmp_path, eastern):
    read = _read(tmp_path, "3 Panzer IV\n1 Battle for Kiev\nsoviet-arsenal:\n1 Stalin\n", eastern)
    assert read.findings == ()
    assert [(e.deck, e.card.title) for e in read.entries] == [
        ("german-arsenal", "Panzer IV"), ("conflict", "Battle for Kiev"), ("soviet-arsenal", "Stalin")]
    assert read.total == 5


def test_yaml_and_csv_lists(tmp_path, eastern):
    yaml_list = _read(tmp_path, "Soviet arsenal:\n  T-34 Medium Tank: 3\n  Timoshenko [pack-1]: 1\n"
                                "german-arsenal:\n  Panzer IV: 0\n", eastern, "deck.yaml")
    assert [(e.card.title, e.count) for e in yaml_list.entries] == [("T-34 Medium Tank", 3), ("Timoshenko", 1)]
    assert [(f.where.line, f.code) for f in yaml_list.findings] == [(5, "bad-count")]
    csv_list = _read(tmp_path, "Qty,Name,Deck,Set\n3,T-34 Medium Tank,Soviet arsenal,\n1,Timoshenko,,pack-2\n",
                     eastern, "deck.csv")
    assert [(e.card.title, e.count) for e in csv_list.entries] == [("T-34 Medium Tank", 3)]
    assert [(f.where.line, f.code) for f in csv_list.findings] == [(3, "unknown-set")]


@pytest.mark.parametrize("data, code", [
    (b"\x00\x01\x02PK", "binary-file"),
    (b"3 Panzer IV\n\xff\xfe junk\n", "bad-encoding"),
    (b"1 Panzer IV\n" * 30_000, "too-large"),
])
def test_a_file_that_is_no_list_is_refused_whole(tmp_path, eastern, data, code):
    from generator.core.errors import MusterError
    from generator.reading.decklists import read_list

    path = tmp_path / "deck.txt"
    path.write_bytes(data)
    with pytest.raises(MusterError) as refused:
        read_list(path, eastern)
    assert refused.value.code == code


def test_a_long_line_and_control_characters_are_junk(tmp_path, eastern):
    read = _read(tmp_path, "3 " + "Panzer " * 100 + "\n2 Panzer\x07 IV\n", eastern)
    assert [(f.where.line, f.code) for f in read.findings] == [(1, "bad-line"), (2, "bad-line")]


def test_validate_list_reports_at_the_lists_lines_and_exits_1(tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text(MISTAKES, encoding="utf-8")
    result = muster("validate", "eastern-front", "--list", str(path), "--format", "json")
    assert result.returncode == 1, result.stderr
    found = json.loads(result.stdout)
    assert [(f["line"], f["code"]) for f in found if f["line"]][:3] == [
        (8, "duplicate-entry"), (9, "bad-count"), (10, "bad-count")]
    assert "Traceback" not in result.stderr
    soviet = (REPO / "decks" / "eastern-front" / "soviet-arsenal.yaml").read_text(encoding="utf-8")
    titles = re.findall(r"^  - title: (.+)\n(?:    count: (\d+))?", soviet, re.M)
    path.write_text("Soviet arsenal:\n" + "".join(f"{count or 1}x {title}\n" for title, count in reversed(titles)))
    result = muster("validate", "eastern-front", "--list", str(path))
    assert result.returncode == 0, result.stdout
    path.write_bytes(b"\x00binary")
    result = muster("validate", "eastern-front", "--list", str(path), "--format", "json")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert [(f["code"], f["file"]) for f in json.loads(result.stdout)] == [("binary-file", str(path))]


BREACHES = """\
Soviet arsenal:
2 Zhukov
1 Stalin
1 Timoshenko [pack-1]
5 T-34 Medium Tank
Conflict deck:
2 Battle of Kursk
"""


def _checked(tmp_path, eastern, text: str, name: str | None):
    from generator.checking.decklist import check_list, chosen_format

    return check_list(eastern, _read(tmp_path, text, eastern), chosen_format(eastern, name))


def test_the_standard_format_reports_each_breach_at_the_lists_line(tmp_path, eastern):
    found = _checked(tmp_path, eastern, BREACHES, None)  # the first format: standard
    assert [(f.where.line, f.code, f.field) for f in found] == [
        (0, "rule-count", "formats.standard.rules[3]"),  # 9 Soviet arsenal cards, 40 at least: the whole list
        (2, "rule-max-copies", "title"), (4, "format-set", "set"), (7, "rule-max-copies", "title")]
    assert all(f.where.path.name == "deck.txt" for f in found)
    assert found[0].related.path.name == "game.yaml"  # the rule that was broken
    assert "soviet-arsenal-size" in found[0].message and "one-of-each-commander" in found[1].message


def test_the_combined_format_takes_the_pack_and_asks_for_the_combined_victory_total(tmp_path, eastern):
    found = _checked(tmp_path, eastern, BREACHES, "combined")
    assert [(f.where.line, f.code) for f in found] == [(0, "rule-count"), (0, "rule-total"), (2, "rule-max-copies"),
                                                       (7, "rule-max-copies")]
    assert "combined-victory-reachable" in found[1].message and "78" in found[1].message


def test_a_list_that_meets_its_format_has_no_findings(tmp_path, eastern):
    soviet = next(deck for deck in eastern.decks.values() if deck.id == "soviet-arsenal")
    text = "Soviet arsenal:\n" + "".join(f"{card.count} {card.title}\n" for card in soviet.cards if card.set == "base")
    assert _checked(tmp_path, eastern, text, "standard") == []
    assert [f.code for f in _checked(tmp_path, eastern, patched(text, {"1 Zhukov": "2 Zhukov"}), "standard")] == [
        "rule-max-copies"]


def test_an_unknown_format_is_one_line_and_exit_2(tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text(BREACHES, encoding="utf-8")
    result = muster("validate", "eastern-front", "--list", str(path), "--deck-format", "standart", "--format", "json")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    (found,) = json.loads(result.stdout)
    assert (found["code"], found["field"], Path(found["file"]).name) == ("unknown-format", "--deck-format", "game.yaml")
    assert "(did you mean 'standard'?)" in found["message"]


def test_a_format_naming_an_unknown_set_or_deck_is_located(make_game):
    from generator.reading.loading import load_game

    folder = make_game()
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text() + "formats:\n  open:\n    sets: [base]\n    decks: [blues]\n")
    found = sorted((f.code, f.field) for f in load_game(folder).findings)
    assert found == [("unknown-deck", "formats.open.decks"), ("unknown-set", "formats.open.sets")]


KIT_LIST = """\
# A short Soviet deck
Soviet arsenal:
1 Zhukov
3 T-34 Medium Tank
2 Timoshenko [pack-1]
Conflict deck:
1 Battle for Moscow
"""


def test_build_list_prints_the_listed_cards_at_their_counts_the_same_in_any_order(tmp_path):
    from pdfcheck import page_text

    first, second = tmp_path / "mine.txt", tmp_path / "other" / "mine.txt"
    second.parent.mkdir()
    first.write_text(KIT_LIST, encoding="utf-8")
    second.write_text("Conflict deck:\n1 Battle for Moscow\nSoviet arsenal:\n2x Timoshenko\nT-34 Medium Tank x3\n"
                      "1 zhukov\n", encoding="utf-8")
    kits = []
    for path, out in ((first, tmp_path / "a"), (second, tmp_path / "b")):
        result = muster("build", "eastern-front", "--list", str(path), "-o", str(out), "--no-calibration")
        assert result.returncode == 0, result.stderr
        kits.append(out / "eastern-front-mine")
    assert sorted(p.name for p in kits[0].iterdir()) == ["cards-conflict.pdf", "cards-soviet-arsenal.pdf",
                                                         "manifest.json"]
    for name in ("cards-conflict.pdf", "cards-soviet-arsenal.pdf"):
        assert (kits[0] / name).read_bytes() == (kits[1] / name).read_bytes()
    text = page_text(kits[0] / "cards-soviet-arsenal.pdf", 0)
    assert text.count("T-34 Medium Tank") == 3 and text.count("Timoshenko") == 2 and "Stalin" not in text
    assert "SOVIET" in page_text(kits[0] / "cards-soviet-arsenal.pdf", 1)  # the backs follow, duplex as usual


def test_build_list_with_mistakes_builds_nothing(tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text(MISTAKES, encoding="utf-8")
    result = muster("build", "eastern-front", "--list", str(path), "-o", str(tmp_path / "out"))
    assert result.returncode == 1 and "deck.txt:8:1:" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_exports_of_a_list(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_text(KIT_LIST, encoding="utf-8")
    out = tmp_path / "out"
    result = muster("export", "png", "eastern-front", "--list", str(path), "-o", str(out), "--dpi", "72")
    assert result.returncode == 0, result.stderr
    with open(out / "eastern-front-mine" / "png" / "soviet-arsenal" / "cards.csv", newline="") as rows:
        counts = {row["title"]: row["count"] for row in csv.DictReader(rows)}
    assert counts == {"Zhukov": "1", "T-34 Medium Tank": "3", "Timoshenko": "2"}
    result = muster("export", "tts", "eastern-front", "--list", str(path), "-o", str(out), "--dpi", "72")
    assert result.returncode == 0, result.stderr
    saved = json.loads((out / "eastern-front-mine" / "tts" / "eastern-front-mine.json").read_text())
    assert f"Upload {out / 'eastern-front-mine' / 'tts'} as it is" in result.stderr  # the list's folder, not the game's
    piles = {}

    def walk(item):  # every deck of the saved object: its name and how many cards it holds
        if isinstance(item, dict):
            if "DeckIDs" in item:
                piles[item["Nickname"]] = len(item["DeckIDs"])
            for value in item.values():
                walk(value)
        elif isinstance(item, list):
            for value in item:
                walk(value)
    walk(saved)
    assert piles == {"Soviet arsenal": 6}  # the one conflict card is a card, not a deck
