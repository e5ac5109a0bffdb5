"""A deck file read again after a save (reading/rereading.py): the game is what reading it whole gives, whatever the
save, and a save within one card's entry parses that entry alone."""

from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, example, given, settings, strategies as st

from conftest import patched
from generator.reading.loading import load_game
from generator.reading.rereading import DeckFiles

_VALUES = ["force: 2", "force: 12", "force: x", "type: L", "type: Q", "fronts: A", "fronts: [E, W]", "count: 2",
           "count: -1", "text: 'said: \"so\"'", "year: 1941", "title: Zulu", "title: Alpha", "title:", "id: same",
           "note: a note", "set: core", "colour: red", "text: |\n      two\n      lines"]
_ENTRIES = st.lists(st.lists(st.sampled_from(_VALUES[:12]), min_size=1, max_size=4), min_size=1, max_size=6)
# what a save may put on a line: values, entries, structure, and what no YAML allows
_LINES = st.sampled_from([
    "  - {title: Echo, force: 4}", "  - title: Foxtrot", "    force: 5", "    force: 55", "      force: 5", "  -",
    "  - - a", "  # a comment", "# a comment", "", "cards:", "extra: 1", "...", "---", "  - &a {title: Golf}",
    "  - *a", "    <<: {force: 1}", "  - {title: 'Hotel", "    text: >\n      folded", "\t- {title: India}",
    "  - {title: Juliet}  # note", "  ? title", "  - [1, 2]", "%YAML 1.1", "- {title: Kilo}", "cards: []",
    "    force: !!str 3", "  - {title: Lima, force: 9999999999999999999999999999999999999999999999999999999999999}",
])
_EDITS = st.lists(st.tuples(st.integers(0, 60), st.sampled_from(["replace", "insert", "delete", "digit", "char"]),
                            _LINES, st.sampled_from(list("0123456789 -:{}[],#'\"xT"))), min_size=1, max_size=6)


def _deck_file(entries: list[list[str]], blocks: list[bool]) -> str:
    lines = ["cards:"]
    for number, (values, block) in enumerate(zip(entries, blocks)):
        title = f"title: Card {number}"
        if block:
            lines.append(f"  - {title}")
            lines += [f"    {value}" for value in values]
        else:
            lines.append(f"  - {{{title}, {', '.join(values)}}}")
        if number % 3 == 2:
            lines.append("  # between cards")
    return "\n".join(lines) + "\n"


def _edited(text: str, line: int, how: str, new: str, char: str) -> str:
    lines = text.split("\n")
    at = line % len(lines)
    if how == "replace":
        lines[at] = new
    elif how == "insert":
        lines.insert(at, new)
    elif how == "delete":
        del lines[at]
    elif how == "digit":
        lines[at] = "".join(str((int(c) + 1) % 10) if c.isdigit() else c for c in lines[at])
    else:
        place = line % (len(lines[at]) + 1)
        lines[at] = lines[at][:place] + char + lines[at][place:]
    return "\n".join(lines)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entries=_ENTRIES, blocks=st.lists(st.booleans(), min_size=6, max_size=6), edits=_EDITS)
# the end of the document at the end of an entry: read alone, the entry ends well; whole, the cards after it are lost
@example([["force: 2"], ["force: 3"]], [True] + [False] * 5, [(2, "replace", "...", "x")])
# aliases in two cards, each within the limit read alone, and over it together
@example([["force: 2"], ["force: 3"]], [False] * 6, [(line, "replace", "  - {title: A, fronts: [&e E" + ", *e" * 60 + "]}",
                                                      "x") for line in (1, 2)])
def test_a_deck_file_read_again_is_what_reading_it_whole_gives(make_game, entries, blocks, edits):
    """Every save, of any kind (a value changed, lines added or taken away, the structure broken and mended), read
    again from the last read gives the game, cards and findings (with their places) a whole read gives."""
    folder = make_game({"reds.yaml": _deck_file(entries, blocks)})
    deck_files = DeckFiles()
    load_game(folder, deck_files=deck_files)
    text = (folder / "reds.yaml").read_text()
    for line, how, new, char in edits:
        text = _edited(text, line, how, new, char)
        (folder / "reds.yaml").write_text(text)
        assert _read(folder, deck_files) == _read(folder, None)


def _read(folder, deck_files):
    from generator.core.errors import MusterError

    try:
        game = load_game(folder, deck_files=deck_files)
    except MusterError as problem:  # never for a deck file: its problems are findings
        return problem.finding()
    return game.decks, game.findings


def test_a_save_within_one_card_parses_that_card_alone(make_game):
    """A value changed in the middle of a 300-card file: one entry parsed, and every other card the same object as
    before, found again at its line."""
    entries = "".join(f"  - title: Card {n}\n    force: {n % 9}\n" for n in range(300))
    folder = make_game({"reds.yaml": "cards:\n" + entries})
    deck_files = DeckFiles()
    before = load_game(folder, deck_files=deck_files).decks["reds"].cards
    assert deck_files.parsed == 300
    (folder / "reds.yaml").write_text("cards:\n" + entries.replace("Card 150\n    force: 6", "Card 150\n    force: 12"))
    game = load_game(folder, deck_files=deck_files)
    after = game.decks["reds"].cards
    assert deck_files.parsed == 1
    assert [n for n, (old, new) in enumerate(zip(before, after)) if old is not new] == [150]
    assert [(f.code, f.where.line, f.field) for f in game.findings] == [("out-of-range", 303, "cards[150].force")]
    assert game == load_game(folder)


def test_a_save_that_adds_lines_parses_what_it_added_and_moves_the_cards_below(make_game):
    """A card added between two: that entry parsed alone, the card above the same object, the card below the one
    made before, at its new line and place in the list."""
    folder = make_game()
    deck_files = DeckFiles()
    alpha, bravo = load_game(folder, deck_files=deck_files).decks["reds"].cards
    (folder / "reds.yaml").write_text("cards:\n  - {title: Alpha, type: L, force: 2, fronts: A}\n  - title: New\n"
                                      "    type: U\n  - {title: Bravo, type: U, force: 3, fronts: E, count: 2}\n")
    game = load_game(folder, deck_files=deck_files)
    assert deck_files.parsed == 1
    cards = game.decks["reds"].cards
    assert [(card.where.line, card.index) for card in cards] == [(2, 0), (3, 1), (5, 2)]
    assert cards[0] is alpha and cards[2] == dataclasses.replace(bravo, where=cards[2].where, index=2,
                                                                 field_where=cards[2].field_where)
    assert {name: where.line for name, where in cards[2].field_where.items()} == {
        "title": 5, "type": 5, "force": 5, "fronts": 5, "count": 5}
    assert game == load_game(folder)


_BLOCK = st.lists(st.sampled_from(["force: 2", "force: 3", "type: L", "fronts: [E, W]", "year: 1941", "# said"]),
                  min_size=0, max_size=3, unique_by=lambda value: value.split(":")[0])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cards=st.lists(_BLOCK, min_size=2, max_size=8),
       edits=st.lists(st.tuples(st.integers(0, 20), st.sampled_from(["card", "block card", "drop", "line", "unline"]),
                                _BLOCK), min_size=1, max_size=5))
def test_cards_added_and_taken_away_are_read_as_far_as_they_go(make_game, cards, edits):
    """Cards added (one line or several), cards taken away, lines added to a card and taken from it: the game is
    what a whole read gives, and no more entries are parsed than the save touched (the one changed, the one
    before it)."""
    entries = [[f"  - title: Card {n}", *(f"    {value}" for value in values)] for n, values in enumerate(cards)]
    folder = make_game({"reds.yaml": "cards:\n" + "".join(line + "\n" for entry in entries for line in entry)})
    deck_files = DeckFiles()
    load_game(folder, deck_files=deck_files)
    for number, (at, how, values) in enumerate(edits):
        place = at % (len(entries) + 1)
        if how == "card":
            entries.insert(place, [f"  - {{title: New {number}, force: 4}}"])
        elif how == "block card":
            entries.insert(place, [f"  - title: New {number}", *(f"    {value}" for value in values)])
        elif how == "drop" and len(entries) > 1:
            del entries[place % len(entries)]
        elif how == "line":
            entry = entries[place % len(entries)]
            if entry[0].startswith("  - title:"):
                added = "    note: added" if "    note: added" not in entry else f"    # added {number}"
                entry.insert(1 + at % len(entry), added)
        elif how == "unline":
            entry = entries[place % len(entries)]
            if len(entry) > 1:
                del entry[1 + at % (len(entry) - 1)]
        (folder / "reds.yaml").write_text("cards:\n" + "".join(line + "\n" for entry in entries for line in entry))
        assert _read(folder, deck_files) == _read(folder, None)
        assert deck_files.parsed <= 2


_CELLS = st.sampled_from(["", "Alpha", "Bravo", "1", "1.0", "2", "true", "x", "L", "U", "Q", "E", "E, W", "1941", "1.5",
                          "-3", '"a, b"', "Card 0"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.lists(_CELLS, min_size=6, max_size=6), min_size=1, max_size=8),
       edits=st.lists(st.tuples(st.integers(0, 9), st.integers(0, 5), _CELLS, st.sampled_from(["cell", "row", "drop"])),
                      min_size=1, max_size=6))
# a cell of the same value as a number of another type: 1 == 1.0 in Python, but not on a card
@example([["Alpha", "1", "1", "U", "E", "1"]], [(0, 5, "1.0", "cell")])
def test_a_sheet_read_again_is_what_reading_it_whole_gives(make_game, rows, edits):
    """A CSV deck saved again (a cell changed, a row added or taken away, rows that merge as copies of one card):
    its cards and findings are those a whole read gives, its rows unchanged kept as the cards made before."""
    rows = [[f"Card {n}" if not row[0] else row[0], *row[1:]] for n, row in enumerate(rows)]
    folder = _sheet_game(make_game, rows)
    deck_files = DeckFiles()
    load_game(folder, deck_files=deck_files)
    for row, column, cell, how in edits:
        if how == "cell":
            rows[row % len(rows)][column] = cell
        elif how == "row":
            rows.insert(row % (len(rows) + 1), [f"New {row}", cell, cell, "U", "E", cell])
        elif len(rows) > 1:
            del rows[row % len(rows)]
        (folder / "reds.csv").write_text(_csv(rows))
        assert _read(folder, deck_files) == _read(folder, None)


def _sheet_game(make_game, rows: list[list[str]]):
    """The tiny game with its deck in reds.csv, of `rows`, and a trait of numbers (weight) in place of text."""
    game_yaml = patched((make_game() / "game.yaml").read_text(), {"file: reds.yaml": "file: reds.csv",
                                                                  "  text:   {kind: text}": "  weight: {kind: number}"})
    return make_game({"game.yaml": game_yaml, "reds.csv": _csv(rows)})


def _csv(rows: list[list[str]]) -> str:
    return "Title,Count,Force,Type,Fronts,Weight\n" + "".join(",".join(row) + "\n" for row in rows)


def test_a_sheet_saved_with_one_cell_changed_keeps_the_other_rows_cards(make_game):
    rows = [[f"Card {n}", "1", str(n % 9), "U", "E", "2"] for n in range(50)]
    folder = _sheet_game(make_game, rows)
    deck_files = DeckFiles()
    before = load_game(folder, deck_files=deck_files).decks["reds"].cards
    rows[20][2] = "12"
    (folder / "reds.csv").write_text(_csv(rows))
    game = load_game(folder, deck_files=deck_files)
    assert [n for n, (old, new) in enumerate(zip(before, game.decks["reds"].cards)) if old is not new] == [20]
    assert [(f.code, f.where.line, f.where.column) for f in game.findings if f.code != "deck-size"] == [
        ("out-of-range", 22, 3)]
    assert game == load_game(folder)


def test_with_variants_on_a_save_keeps_the_cards_it_did_not_change(make_game):
    """A variant that patches some cards: a one-card save patches that card again, every other card is the one
    patched (or left alone) the time before, the same object."""
    entries = "".join(f"  - title: Card {n}\n    type: {'L' if n % 2 else 'U'}\n    force: {n % 9}\n" for n in range(20))
    variants = "variants:\n  veterans: {enabled: true, when: {type: L}, patch: {year: 1941}}\n"
    folder = make_game({"reds.yaml": "cards:\n" + entries,
                        "game.yaml": patched((make_game() / "game.yaml").read_text(), {"decks:\n": variants + "decks:\n"})})
    deck_files = DeckFiles()
    before = load_game(folder, deck_files=deck_files).decks["reds"].cards
    assert [card.value("year") for card in before[:2]] == [None, 1941]
    (folder / "reds.yaml").write_text("cards:\n" + entries.replace("Card 5\n    type: L\n    force: 5",
                                                                    "Card 5\n    type: L\n    force: 6"))
    game = load_game(folder, deck_files=deck_files)
    after = game.decks["reds"].cards
    assert [n for n, (old, new) in enumerate(zip(before, after)) if old is not new] == [5]
    assert after[5].value("year") == 1941 and after[5].value("force") == 6
    assert game == load_game(folder)


def test_a_sheet_saved_with_one_cell_changed_types_that_row_alone(make_game):
    """A one-cell save of a 50-row sheet: that row is typed into a card mapping again, every other row's mapping is
    the one made before; rows that merge as copies of one card are merged anew, leaving the mappings kept as they
    were."""
    rows = [[f"Card {n}", "1", str(n % 9), "U", "E", "2"] for n in range(50)] + [["Card 7", "1", "7", "U", "E", "2"]]
    folder = _sheet_game(make_game, rows)
    deck_files = DeckFiles()
    load_game(folder, deck_files=deck_files)
    before = dict(deck_files.sheets[folder / "reds.csv"][1])
    rows[20][2] = "12"
    (folder / "reds.csv").write_text(_csv(rows))
    game = load_game(folder, deck_files=deck_files)
    after = deck_files.sheets[folder / "reds.csv"][1]
    assert [number for number, cells in after if after[(number, cells)] is not before.get((number, cells))] == [22]
    assert [card.count for card in game.decks["reds"].cards if card.title == "Card 7"] == [2]
    assert game == load_game(folder)
    (folder / "reds.csv").write_text(_csv(rows))  # saved again as it is: the copies merge to two again, not three
    assert load_game(folder, deck_files=deck_files) == load_game(folder)


def test_a_translated_deck_read_again_after_game_yaml_changed_is_what_a_whole_read_gives(make_game):
    """A change to game.yaml that every card is read again under (a vocabulary): each entry is read whole again,
    its translations with it, not as the last read left it (a reader takes the translations out of what it reads)."""
    game_yaml = patched((make_game() / "game.yaml").read_text(),
                        {"title: Tiny War\n": "title: Tiny War\nlanguages: [en, de]\n"})
    folder = make_game({"game.yaml": game_yaml,
                        "reds.yaml": "cards:\n  - {title: Alpha, title:de: Alfa, type: L, force: 2}\n"
                                     "  - {title: Bravo, title:de: Bravo, type: U, force: 3}\n"})
    deck_files = DeckFiles()
    load_game(folder, deck_files=deck_files)
    (folder / "game.yaml").write_text(patched(game_yaml, {"U: Unit": "U: Unit\n    Q: Quartermaster"}))
    game = load_game(folder, deck_files=deck_files)
    assert [f.field for f in game.findings if f.code == "missing-translation"] == [
        f.field for f in load_game(folder).findings if f.code == "missing-translation"]
    assert game == load_game(folder)


def test_cards_moved_and_then_read_again_whole_are_read_at_their_lines(make_game):
    """A card added at the top moves the cards below without reading them; a change to game.yaml then reads every
    card again: each at its new lines, as a whole read places it."""
    entries = "".join(f"  - title: Card {n}\n    force: {n % 9}\n" for n in range(20))
    folder = make_game({"reds.yaml": "cards:\n" + entries})
    deck_files = DeckFiles()
    load_game(folder, deck_files=deck_files)
    (folder / "reds.yaml").write_text("cards:\n  - {title: New, force: 1}\n" + entries)
    load_game(folder, deck_files=deck_files)
    assert deck_files.parsed == 1
    (folder / "game.yaml").write_text(patched((folder / "game.yaml").read_text(),
                                              {"U: Unit": "U: Unit\n    Q: Quartermaster"}))
    game = load_game(folder, deck_files=deck_files)
    assert [card.field_where["force"].line for card in game.decks["reds"].cards[:3]] == [2, 4, 6]
    assert game == load_game(folder)


def test_a_card_added_to_a_decks_first_file_moves_the_cards_of_the_next(make_game):
    """A deck of two files: a card added to the first moves every card of the second one place on in the deck, each
    the card made before, moved, not read again."""
    game_yaml = patched((make_game() / "game.yaml").read_text(), {"file: reds.yaml": "files: [reds.yaml, more.yaml]"})
    more = "cards:\n" + "".join(f"  - {{title: More {n}, type: U, force: {n % 9}}}\n" for n in range(5))
    folder = make_game({"game.yaml": game_yaml, "more.yaml": more})
    deck_files = DeckFiles()
    before = load_game(folder, deck_files=deck_files).decks["reds"].cards
    (folder / "reds.yaml").write_text((folder / "reds.yaml").read_text() + "  - {title: Charlie, type: U, force: 1}\n")
    game = load_game(folder, deck_files=deck_files)
    after = game.decks["reds"].cards
    assert [card.index for card in after[-5:]] == [3, 4, 5, 6, 7]
    assert all(new.traits is old.traits for old, new in zip(before[-5:], after[-5:]))
    assert game == load_game(folder)
