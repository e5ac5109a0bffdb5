"""One game being previewed: read, checked and laid out again after each save, its faces rasterised only when
new, and the result published as a numbered state the page asks for.

A save that breaks the game (a file that cannot be read, a layout that stops, a game.yaml cut short in its decks)
does not blank the page: what was last drawn well stays, marked stale, under the errors; the next good save replaces it. Data with errors (a value
out of range) is still laid out, as far as its layouts can: the preview shows what the data would print.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from functools import partial
from typing import Iterable, NamedTuple

from ..checking.data import check_data
from ..core.display import Face
from ..core.errors import Finding, MusterError, has_errors
from ..core.model import Card, Deck, Game
from ..core.options import ALL_LANGUAGES, Options
from ..formats.statistics import deal, game_statistics
from ..layout.boards import lay_out_board
from ..reading.loading import load_game
from ..reading.rereading import DeckFiles
from .images import FaceImages
from .tracing import TracingEvaluator
from .cards import CardLayouts, DeckLayout, Laid, aligned, same_card
from .view import card_entry, card_findings, deck_entry, encoded, finding_entry, outline_entries, with_line

# Files a face names by path (its pictures, its fonts): a change to one is not seen in the face's items.
DRAWN_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".svg", ".ttf", ".otf", ".ttc", ".woff", ".woff2"}


class Shown(NamedTuple):
    """A deck as last shown: its entry but for its cards, each card's entry as JSON but for its line (view.card_entry)
    and its line, the keys of its faces, its cards, what each card's entry was made of (a _Made), and the entries of
    the deck shown before with the place among them of each card that is one of those cards, or one of them moved."""

    entry: dict
    cards: list[str]
    lines: list[int]
    faces: list[str]
    shown: tuple[Card, ...]
    made: list[_Made]
    before: list[str]
    places: list[int | None]


class _Made(NamedTuple):
    """What a card's entry was made of, but for the card: its Laid, its findings as JSON, and its faces' keys."""

    laid: Laid
    findings: str
    front: str | None
    back: str | None


class Preview:
    """The preview of the game in folder `root` built with `options`: `refresh` after each change, `state` for
    the page (JSON bytes, waiting for a newer version when asked), `images` for the PNGs.

    The state is put together from pieces of JSON kept between refreshes (each card's entry, each face's
    outlines), so that a refresh after a one-card edit encodes that card, not the deck."""

    def __init__(self, root: Path, options: Options):
        self.root = root
        self.options = options
        self.language = None if options.lang == ALL_LANGUAGES else options.lang  # None: the game's source one
        self.refreshing = threading.Lock()  # a save and the page's language switch refresh one at a time
        self.images = FaceImages(told=self._republish)
        self.layouts = CardLayouts()
        self.deck_files = DeckFiles()  # the deck files as last read: a save is read as far as it changed them
        self.outlines: dict[str, str] = {}  # per face key, its outlines as JSON
        self.cards: dict[tuple, str] = {}  # per card key, image keys and findings, the card's entry as JSON
        self.version = 0
        self.whole: bytes | None = encoded({"version": 0, "title": root.name, "stale": False, "findings": [],
                                            "boards": [], "decks": [], "outlines": {}}).encode()  # nothing yet
        # what the whole state is made of: its head, each deck's head and cards, the faces shown, the outlines
        self.parts: tuple[str, list[tuple[str, list[str]]], list[list[str]], dict[str, str]] = ("", [], [], {})
        self.updated = threading.Condition()
        self.decks: dict[str, Shown] = {}  # per deck, as last laid out in full
        self.boards: dict[str, dict] = {}  # per board, its last good entry
        self.seconds = 0.0  # how long the last refresh took
        self.findings: list[Finding] = []  # the last refresh's
        self.published: tuple[str, list[Finding], bool] = (root.name, [], False)  # what _publish last had
        self.delta = self.whole  # what changed since the version before (see _publish)
        self.sent: dict[str, list[str]] = {}  # per deck, its cards as last published
        self.touched: list[str] = []  # the faces of the cards and boards shown anew since the last version
        self.game: Game | None = None  # the last game read well: test draws deal from it
        self.languages: tuple[list[str], str] = ([], "")  # its languages, and the one shown
        self.statistics: list[dict] = []  # each deck of it counted (formats/statistics.py)

    def refresh(self, changed: Iterable[Path] = ()) -> None:
        """Read, check and lay the game out again, rasterise new faces, and publish the result."""
        with self.refreshing:
            self._refresh(changed)

    def choose(self, language: str) -> bool:
        """The game shown in `language`, one of its languages (read again at once); False when it is none."""
        if self.game is None or language not in self.game.languages:
            return False
        with self.refreshing:
            self.language = None if language == self.game.languages[0] else language
            self.deck_files = DeckFiles()  # the cards kept were read in the language shown before
            self._refresh(())
        return True

    def _refresh(self, changed: Iterable[Path]) -> None:
        began = time.perf_counter()
        if any(Path(path).suffix.lower() in DRAWN_SUFFIXES for path in changed):
            self.images.forget()
            self.layouts.forget()
            with self.updated:
                self.sent = {}  # every card sent whole again: the page asks for every image again, stand-ins too
        try:
            game = load_game(self.root, self.options.variants, self.options.sets, self.language, self.deck_files)
            findings = check_data(game)
        except MusterError as exc:
            game, findings = None, [exc.finding()]
        if game is None:
            self._publish(self.root.name, findings, stale=True)
        else:
            findings += self._lay_out(game, findings)
            self.game, self.statistics = game, game_statistics(game)["decks"]
            self.languages = list(game.languages), game.printed_language
            self._publish(game.title, findings, stale=False)
            faces = sum(len(deck.faces) for deck in self.decks.values()) + len(self.boards)
            if len(self.outlines) > 2 * faces + 64 or len(self.images.keys) > self.images.limit:  # seldom
                shown = set(self._shown_faces())
                self.images.trim(shown)
                self.outlines = {key: text for key, text in self.outlines.items() if key in shown}
            self.layouts.trim()
        self.findings = findings
        self.seconds = time.perf_counter() - began

    def _lay_out(self, game: Game, findings: list[Finding]) -> list[Finding]:
        """Every deck and board laid out again; their findings. A deck or board that cannot be read or laid out
        whole keeps its last good entry, marked stale. `findings` so far, and those laid out, go on their cards."""
        laid_out: list[Finding] = []
        decks, fresh = {}, []
        for deck in game.decks.values():
            laid = self.layouts.lay_out(game, deck, self.options.bleed)
            laid_out += laid.findings + [f for card in laid.cards for f in card.findings]
            if (not deck.complete or not laid.complete) and deck.id in self.decks:
                old = self.decks[deck.id]
                decks[deck.id] = old._replace(entry={**old.entry, "stale": True})
            else:
                fresh.append((deck, laid))
        found = card_findings(findings + laid_out, [deck for deck, _ in fresh], self.root)
        cards: dict[tuple, str] = {}
        for deck, laid in fresh:
            decks[deck.id] = self._shown(deck, laid, found, cards)
        if has_errors(game.findings):  # a deck gone from a game.yaml that reads with errors (a save cut short)
            decks |= {deck_id: old._replace(entry={**old.entry, "stale": True})
                      for deck_id, old in self.decks.items() if deck_id not in decks}
        self.decks, self.cards = decks, cards
        return laid_out + self._lay_out_boards(game)

    def _shown(self, deck: Deck, laid: DeckLayout, found: dict[tuple[str, int], list[dict]],
               cards: dict[tuple, str]) -> Shown:
        """The deck as the page shows it, laid out as `laid`, its cards' findings in `found`. A card whose entry
        is made of what it was made of the last time (the same card, or that card moved: cards.aligned) keeps it as
        it was; the others' entries are made, or found in `self.cards` (by their key and what is shown of them), and
        kept in `cards`."""
        old = self.decks.get(deck.id)
        before = old.made if old is not None else []
        done = laid.cards + _unlaid(deck, laid)
        texts = [encoded(found[(deck.id, number)]) if (deck.id, number) in found else "[]"
                 for number in range(len(deck.cards))]
        places = ([None] * len(deck.cards) if old is None else laid.places if laid.before is old.shown
                  else aligned(old.shown, deck.cards, same_card))  # as the layouts found them, mostly
        kept = [None if was is None or before[was].laid is not laid_card or before[was].findings != text else was
                for was, laid_card, text in zip(places, done, texts)]
        faces = list(dict.fromkeys(face for laid_card, was in zip(done, kept) if was is None
                                   for face in (laid_card.front, laid_card.back) if face))
        keys = dict(zip(faces, self.images.keys_of(faces, self.options.bleed)))
        for face, key in keys.items():
            self._outline(face, key)
        made, entries = [], []
        for number, (card, key, laid_card, text, was) in enumerate(zip(deck.cards, laid.keys, done, texts, kept)):
            if was is not None:
                made.append(before[was])
                entries.append(old.cards[was])
                continue
            front, back = keys.get(laid_card.front), keys.get(laid_card.back)
            line = card.where.line  # the entry names places within the card (view.within), and its file and column
            shown = (key, card.where.path, card.where.column,
                     tuple((name, where.line - line, where.column) for name, where in card.field_where.items()),
                     front, back, text)
            entry = cards[shown] = self.cards.get(shown) or encoded(
                card_entry(card, front, back, found.get((deck.id, number), []), self.root))
            made.append(_Made(laid_card, text, front, back))
            entries.append(entry)
        faces_shown = list(dict.fromkeys(key for m in made for key in (m.front, m.back) if key))
        return Shown({**deck_entry(deck, self.options.bleed), "stale": False}, entries,
                     [card.where.line for card in deck.cards], faces_shown, deck.cards, made,
                     old.cards if old is not None else [], places)

    def _lay_out_boards(self, game: Game) -> list[Finding]:
        findings: list[Finding] = []
        boards = {}
        for board in game.boards.values():
            face, found = lay_out_board(game, board, self.options.seed, warnings=True,
                                        evaluator=partial(TracingEvaluator, traces=self.layouts.traces))
            findings += found
            if face is None:
                if board.id in self.boards:
                    boards[board.id] = {**self.boards[board.id], "stale": True}
                continue
            key = self.images.board_key(face)
            self._outline(face, key)
            boards[board.id] = {"id": board.id, "name": board.name, "width": face.width, "height": face.height,
                                "image": key, "stale": False}
        self.boards = boards
        return findings

    def _outline(self, face: Face, key: str) -> None:
        """The outlines of a face as JSON, made once per face; the face noted as shown anew (once its outlines are
        there: a page may be sent them at any moment, by a refresh the server asks for)."""
        if key not in self.outlines:
            self.outlines[key] = encoded(outline_entries(self.layouts.traces.get(face, ()), self.root))
        self.touched.append(key)

    def _shown_faces(self) -> list[str]:
        """The keys of every face shown: the decks' and the boards'."""
        return [key for deck in self.decks.values() for key in deck.faces] + [b["image"] for b in self.boards.values()]

    def _republish(self) -> None:
        """The state published again: a face could not be drawn when the page asked for it."""
        self._publish(*self.published)

    def _publish(self, title: str, findings: list[Finding], stale: bool) -> None:
        """The next version of the state, with the faces that could not be drawn, and every page waiting for it
        woken. Besides the whole state, what changed since the version before (`delta`): a page showing that
        version is sent only the cards and outlines that changed, not thousands of cards again for each save."""
        self.published = (title, findings, stale)
        findings = findings + list(self.images.problems.values())
        boards = [{**entry, "stale": entry["stale"] or stale} for entry in self.boards.values()]
        decks = {deck_id: (deck, deck.entry["stale"] or stale) for deck_id, deck in self.decks.items()}
        stale = any(old for _, old in decks.values()) or any(entry["stale"] for entry in boards)  # said on top
        heads = {deck_id: encoded({**deck.entry, "stale": old})[:-1] for deck_id, (deck, old) in decks.items()}
        faces = [deck.faces for deck in self.decks.values()] + [[board["image"] for board in self.boards.values()]]
        outlines = dict(self.outlines)
        with self.updated:
            changes = [heads[deck_id] + _changes(self.sent.get(deck_id), deck) for deck_id, (deck, _) in decks.items()]
            self.version += 1
            head = encoded({"version": self.version, "title": title, "stale": stale,
                            "findings": [finding_entry(f, self.root) for f in findings], "boards": boards,
                            "statistics": self.statistics, "languages": self.languages[0],
                            "language": self.languages[1]})[:-1]
            self.whole = None
            self.parts = (head, [(heads[deck_id], deck.cards, deck.lines) for deck_id, (deck, _) in decks.items()],
                          faces, outlines)
            added = ",".join(f'"{key}":{outlines[key]}' for key in dict.fromkeys(self.touched) if key in outlines)
            self.delta = (head + f',"after":{self.version - 1},"decks":[' + ",".join(changes) + '],"outlines":{'
                          + added + "}}").encode()
            self.sent = {deck_id: (deck.cards, deck.lines) for deck_id, (deck, _) in decks.items()}
            self.touched = []
            self.updated.notify_all()

    def deal(self, deck_id: str, hand: int, seed: int) -> bytes:
        """A test draw from a deck of the last game read well, as JSON: the cards by id and title, or the problem."""
        game = self.game
        try:
            if game is None or deck_id not in game.decks:
                raise MusterError(f"no deck '{deck_id}' to draw from", code="unknown-deck")
            dealt = {"deck": deck_id, "seed": seed, "hand": deal(game.decks[deck_id], hand, seed)}
        except MusterError as exc:
            dealt = {"deck": deck_id, "seed": seed, "error": exc.message}
        return encoded(dealt).encode()

    @property
    def state(self) -> bytes:
        """The whole state as JSON, made when first asked for after each refresh: a page that follows every save
        is sent what changed, and at thousands of cards making the whole cost more than the rest of a refresh."""
        with self.updated:
            if self.whole is None:
                head, decks, faces, outlines = self.parts
                shown = dict.fromkeys(key for keys in faces for key in keys)
                self.whole = (head + ',"decks":['
                              + ",".join(text + _cards(cards, lines) for text, cards, lines in decks) + '],"outlines":{'
                              + ",".join(f'"{key}":{outlines[key]}' for key in shown if key in outlines) + "}}").encode()
            return self.whole

    def wait(self, after: int, timeout: float) -> bytes:
        """The state once its version is past `after`, or as it is after `timeout` seconds: what changed since
        `after` when that is the version just before, else the whole state."""
        with self.updated:
            self.updated.wait_for(lambda: self.version > after, timeout)
            return self.delta if after and after == self.version - 1 else self.state


def _cards(cards: list[str], lines: list[int]) -> str:
    """The end of a deck's entry: its cards, each at its line."""
    return ',"cards":[' + ",".join(map(with_line, cards, lines)) + "]}"


def _changes(sent: tuple[list[str], list[int]] | None, deck: Shown) -> str:
    """The end of a deck's entry in a delta: its cards, when they were not sent before; else how the page makes them
    of those it has (page.js, merged): `splices`, each [at, how many to take away there, the cards to put there],
    done in turn, then `lines`, each [from, to, lines]: the cards [from, to) moved that many lines down. A card kept
    is the same text as sent, at its line or another (the place of its card among those shown before, when those
    are the ones sent: a card that moved with a finding, whose text changed, does not hide the cards beyond it): a
    card added near the top of thousands is sent as one splice and one move."""
    cards, lines = deck.cards, deck.lines
    if sent is None:
        return _cards(cards, lines)
    old, old_lines = sent
    if old is deck.before:
        places = [was if was is not None and _same_text(old[was], text) else None
                  for was, text in zip(deck.places, cards)]
    else:
        places = aligned(old, cards, _same_text)
    kept = [(number, was) for number, was in enumerate(places) if was is not None]
    splices, moves = [], []
    last, last_was = -1, -1
    for number, was in kept + [(len(cards), len(old))]:
        if number - last > 1 or was - last_was > 1:
            put = ",".join(map(with_line, cards[last + 1:number], lines[last + 1:number]))
            splices.append(f"[{last + 1},{was - last_was - 1},[{put}]]")
        last, last_was = number, was
    for number, was in kept:
        down = lines[number] - old_lines[was]
        if moves and moves[-1][1] == number and moves[-1][2] == down:
            moves[-1][1] = number + 1
        elif down:
            moves.append([number, number + 1, down])
    return f',"splices":[{",".join(splices)}],"lines":{encoded(moves)}}}'


def _same_text(text: str, other: str) -> bool:
    """Whether two entries as JSON are the same: told by identity, mostly."""
    return text is other or text == other


def _unlaid(deck: Deck, laid: DeckLayout) -> list[Laid]:
    """Stand-ins for the cards a layout stopped before: shown without faces."""
    return [Laid(None, None, ())] * (len(deck.cards) - len(laid.cards))
