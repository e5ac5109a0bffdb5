"""One game being previewed: read, checked and laid out again after each save, its faces rasterised only when
new, and the result published as a numbered state the page asks for.

A save that breaks the game (a file that cannot be read, a layout that stops) does not blank the page: what was
last drawn well stays, marked stale, under the errors; the next good save replaces it. Data with errors (a value
out of range) is still laid out, as far as its layouts can: the preview shows what the data would print.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Iterable

from ..checking.data import check_data
from ..core.display import Face
from ..core.errors import Finding, MusterError
from ..core.model import Game
from ..core.options import Options
from ..layout.boards import lay_out_board
from ..reading.loading import load_game
from .images import FaceImages
from .cards import CardLayouts
from .view import attach_findings, deck_cards, deck_entry, finding_entry, outline_entries

# Files a face names by path (its pictures, its fonts): a change to one is not seen in the face's items.
DRAWN_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".svg", ".ttf", ".otf", ".ttc", ".woff", ".woff2"}


class Preview:
    """The preview of the game in folder `root` built with `options`: `refresh` after each change, `state` for
    the page (JSON bytes, waiting for a newer version when asked), `images` for the PNGs."""

    def __init__(self, root: Path, options: Options):
        self.root = root
        self.options = options
        self.images = FaceImages()
        self.layouts = CardLayouts()
        self.outlines: dict[str, list[list]] = {}  # per face key, its outlines as the page takes them
        self.version = 0
        self.state = b"{}"
        self.updated = threading.Condition()
        self.decks: dict[str, tuple[dict, dict]] = {}  # per deck, its last good entry and outlines
        self.boards: dict[str, dict] = {}  # per board, its last good entry
        self.seconds = 0.0  # how long the last refresh took
        self.findings: list[Finding] = []  # the last refresh's

    def refresh(self, changed: Iterable[Path] = ()) -> None:
        """Read, check and lay the game out again, rasterise new faces, and publish the result."""
        began = time.perf_counter()
        if any(Path(path).suffix.lower() in DRAWN_SUFFIXES for path in changed):
            self.images.forget()
            self.layouts.forget()
        try:
            game = load_game(self.root, self.options.variants)
            findings = check_data(game)
        except MusterError as exc:
            game, findings = None, [exc.finding()]
        if game is None:
            self._publish(self.root.name, findings, stale=True)
        else:
            findings += self._lay_out(game)
            attach_findings(findings, [(deck, self.decks[deck.id][0]) for deck in game.decks.values()
                                       if deck.id in self.decks and not self.decks[deck.id][0]["stale"]], self.root)
            self._publish(game.title, findings, stale=False)
            self.images.trim()
            self.layouts.trim()
            shown = {key for _, outlines in self.decks.values() for key in outlines}
            self.outlines = {key: found for key, found in self.outlines.items() if key in shown}
        self.findings = findings
        self.seconds = time.perf_counter() - began

    def _lay_out(self, game: Game) -> list[Finding]:
        """Every deck and board laid out again; the findings. A deck or board that cannot be read or laid out
        whole keeps its last good entry, marked stale."""
        findings: list[Finding] = []
        decks = {}
        for deck in game.decks.values():
            laid = self.layouts.lay_out(game, deck, self.options.bleed)
            findings += laid.findings + [f for card in laid.cards for f in card.findings]
            if (not deck.complete or not laid.complete) and deck.id in self.decks:
                entry, outlines = self.decks[deck.id]
                decks[deck.id] = ({**entry, "stale": True}, outlines)
                continue
            faces = list(dict.fromkeys(face for card in laid.cards for face in (card.front, card.back) if face))
            keys = dict(zip(faces, self.images.keys_of(faces, self.options.bleed)))
            entry = deck_entry(deck, deck_cards(deck, laid.cards, keys, self.root), self.options.bleed)
            decks[deck.id] = (entry, {keys[face]: self._outlines(face, keys[face]) for face in faces})
        self.decks = decks
        boards = {}
        for board in game.boards.values():
            face, found = lay_out_board(game, board, self.options.seed, warnings=True)
            findings += found
            if face is None:
                if board.id in self.boards:
                    boards[board.id] = {**self.boards[board.id], "stale": True}
                continue
            boards[board.id] = {"id": board.id, "name": board.name, "width": face.width, "height": face.height,
                                "image": self.images.board_key(face), "stale": False}
        self.boards = boards
        return findings

    def _outlines(self, face: Face, key: str) -> list[list]:
        """The outlines of a face as the page takes them, worked out once per face."""
        known = self.outlines.get(key)
        if known is None:
            known = self.outlines[key] = outline_entries(self.layouts.traces.get(face, ()), self.root)
        return known

    def _publish(self, title: str, findings: list[Finding], stale: bool) -> None:
        """The next version of the state, and every page waiting for it woken."""
        decks = [{**entry, "stale": entry["stale"] or stale} for entry, _ in self.decks.values()]
        boards = [{**entry, "stale": entry["stale"] or stale} for entry in self.boards.values()]
        stale = any(entry["stale"] for entry in decks + boards)  # the page says so when anything shown is old
        outlines = {key: found for _, traced_faces in self.decks.values() for key, found in traced_faces.items()}
        with self.updated:
            self.version += 1
            self.state = json.dumps({
                "version": self.version, "title": title, "stale": stale,
                "findings": [finding_entry(f, self.root) for f in findings], "decks": decks,
                "boards": boards,
                "outlines": outlines,
            }, ensure_ascii=True, separators=(",", ":")).encode()
            self.updated.notify_all()

    def wait(self, after: int, timeout: float) -> bytes:
        """The state once its version is past `after`, or as it is after `timeout` seconds."""
        with self.updated:
            self.updated.wait_for(lambda: self.version > after, timeout)
            return self.state
