"""muster stats: composition, distributions and draw chances of a deck; exact chances against a closed form,
simulated ones within their stated error; the PDF report; a 5,400-card game within 2 s."""

from __future__ import annotations

import json
import sys
import time
from math import comb

import pytest

from conftest import REPO
from test_cli import muster


@pytest.fixture(scope="module")
def eastern():
    from generator.reading.loading import load_game

    return load_game("eastern-front")


def test_composition_counts_titles_copies_and_shares(eastern):
    from generator.formats.statistics import composition, distribution

    deck = eastern.decks["conflict"]
    kinds = {row["value"]: row for row in composition(deck, eastern)["kind"]["rows"]}
    battles = [card for card in deck.cards if card.value("kind") == "battle"]
    assert kinds["battle"]["cards"] == len(battles) == 23
    assert kinds["battle"]["copies"] == sum(card.count for card in battles)
    assert kinds["battle"]["share"] == pytest.approx(kinds["battle"]["copies"] / 54)
    assert sum(row["copies"] for row in kinds.values()) == 54
    vp = distribution(deck, eastern)["vp"]
    assert sum(row["copies"] for row in vp["values"]) == 23 and vp["min"] == 2 and vp["max"] == 5
    assert vp["mean"] == pytest.approx(76 / 23)


def test_one_condition_is_exact_against_the_closed_form(eastern):
    from generator.formats.statistics import Draw, draw_chance, read_condition

    drawn = draw_chance(eastern.decks["conflict"], Draw(6, (read_condition("kind=battle", eastern),), 2))
    # P(X >= 2) = 1 - P(0) - P(1) for 23 battles among 54 cards, 6 drawn
    closed = 1 - (comb(31, 6) + 23 * comb(31, 5)) / comb(54, 6)
    assert drawn["method"] == "exact" and drawn["chance"] == pytest.approx(closed, abs=1e-12)


def test_several_conditions_are_simulated_within_their_stated_error(eastern):
    from generator.formats.statistics import Draw, draw_chance, read_condition

    deck = eastern.decks["soviet-arsenal"]
    ground = sum(card.count for card in deck.cards if card.value("unit") == "G")
    air = sum(card.count for card in deck.cards if card.value("unit") == "A")
    rest, total, hand = deck.total - ground - air, deck.total, 6
    # the two conditions are disjoint: the chance of at least one of each, summed over the hands
    exact = sum(comb(ground, g) * comb(air, a) * comb(rest, hand - g - a)
                for g in range(1, hand + 1) for a in range(1, hand + 1 - g)) / comb(total, hand)
    drawn = draw_chance(deck, Draw(hand, (read_condition("unit=G", eastern), read_condition("unit=A", eastern)),
                                   1, seed=7))
    assert drawn["method"] == "simulation"
    assert abs(drawn["chance"] - exact) < 4 * drawn["standard_error"]
    assert drawn["standard_error"] < 0.005
    again = draw_chance(deck, Draw(hand, (read_condition("unit=G", eastern), read_condition("unit=A", eastern)),
                                   1, seed=7))
    assert again == drawn  # seeded: the same every time


def test_stats_command_tables_json_and_bad_options(tmp_path):
    result = muster("stats", "eastern-front", "-d", "conflict", "--draw", "6", "--when", "kind=battle",
                    "--at-least", "2", "--json")
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert found["draw"]["chance"] == pytest.approx(1 - (comb(31, 6) + 23 * comb(31, 5)) / comb(54, 6))
    table = muster("stats", "eastern-front", "-d", "conflict").stdout
    assert "Conflict deck (conflict): 54 cards" in table and "Victory points (vp): 2 to 5" in table
    for args, code_word in ((["--draw", "6", "--when", "knd=battle"], "kind"), (["--draw", "600", "--when",
                            "kind=battle"], "54"), (["--when", "kind=battle"], "--draw")):
        bad = muster("stats", "eastern-front", "-d", "conflict", *args)
        assert bad.returncode == 2 and code_word in bad.stderr and "Traceback" not in bad.stderr, bad.stderr


def test_stats_of_a_list(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_text("Soviet arsenal:\n1 Zhukov\n3 T-34 Medium Tank\n", encoding="utf-8")
    found = json.loads(muster("stats", "eastern-front", "--list", str(path), "--json").stdout)
    assert [(deck["id"], deck["copies"], deck["titles"]) for deck in found["decks"]] == [("soviet-arsenal", 4, 2)]


def test_the_pdf_report_draws_a_bar_per_value(tmp_path):
    import pypdfium2 as pdfium

    report = tmp_path / "stats.pdf"
    result = muster("stats", "eastern-front", "-d", "conflict", "--pdf", str(report), "--draw", "6", "--when",
                    "kind=battle", "--when", "aggressor=german")
    assert result.returncode == 0, result.stderr
    document = pdfium.PdfDocument(report)
    text = "".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
    assert "Conflict deck: 54 cards" in text and "standard error" in text and "Victory points" in text
    from pdfcheck import rasterise

    image = rasterise(report, 0, dpi=40, mode="RGB")
    data = image.tobytes()
    blue = sum(1 for index in range(0, len(data), 3) if data[index + 2] > 120 and data[index] < 90)
    assert blue > 500  # the bars are drawn
    first = report.read_bytes()
    muster("stats", "eastern-front", "-d", "conflict", "--pdf", str(report), "--draw", "6", "--when",
           "kind=battle", "--when", "aggressor=german")
    assert report.read_bytes() == first  # deterministic


def test_a_5400_card_game_answers_within_2_seconds(tmp_path):
    from generator.formats.statistics import Draw, game_statistics, read_condition, table_lines
    from generator.reading.loading import load_game

    sys.path.insert(0, str(REPO / "bench"))
    from synthetic import write_game

    write_game(tmp_path / "big", 5400)
    start = time.perf_counter()
    game = load_game(tmp_path / "big")
    asked = Draw(7, (read_condition("value=1,2,3", game), read_condition("value=4,5", game)))
    lines = table_lines(game_statistics(game, None, asked))
    elapsed = time.perf_counter() - start
    assert "standard error" in lines[-1]
    assert elapsed < 2.0, elapsed  # read, counted and 20,000 draws simulated


def test_draw_deals_the_same_hand_for_the_same_seed(tmp_path, eastern):
    from generator.formats.statistics import deal

    deck = eastern.decks["soviet-arsenal"]
    hand = deal(deck, 6, 3)
    assert hand == deal(deck, 6, 3) and hand != deal(deck, 6, 4)
    titles = [card["title"] for card in hand]
    copies = {card.title: card.count for card in deck.cards}
    assert all(titles.count(title) <= copies[title] for title in titles)  # never more copies than the deck holds
    first = muster("draw", "eastern-front", "-d", "soviet-arsenal", "--hand", "6", "--seed", "3")
    assert first.returncode == 0 and first.stdout.splitlines()[1:] == [f"  {n}. {t}" for n, t in enumerate(titles, 1)]
    path = tmp_path / "mine.txt"
    path.write_text("Soviet arsenal:\n1 Zhukov\n3 T-34 Medium Tank\n", encoding="utf-8")
    dealt = json.loads(muster("draw", "eastern-front", "--list", str(path), "--hand", "4", "--json").stdout)
    assert sorted(card["title"] for card in dealt["hand"]) == ["T-34 Medium Tank"] * 3 + ["Zhukov"]
    for args in (["--list", str(path), "--hand", "5"], ["--hand", "6"]):  # more than the list; which deck?
        bad = muster("draw", "eastern-front", *args)
        assert bad.returncode == 2 and "Traceback" not in bad.stderr, bad.stderr
