"""What a build knows of a game without its cards (a Plan), and what it reports of each file it writes."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import Location

if TYPE_CHECKING:
    from .display import Face
    from .model import Board, Game, PrintFormat


@dataclass(frozen=True)
class SheetGroup:
    """One block of a grouped deck of counters: its label, the colour of its zone, and its copies (indices in
    the deck's order of copies)."""

    label: str
    colour: str
    copies: tuple[int, ...]


@dataclass(frozen=True)
class DeckPlan:
    """What drawing a deck's sheets and listing it in the manifest need to know of it."""

    id: str
    format: PrintFormat
    size: int | None
    total: int
    where: Location
    single_sided: bool = False  # a deck of tokens with no back layout: no back pages
    groups: tuple[SheetGroup, ...] = ()  # its blocks, when its counters are grouped (layout/groups.py)


@dataclass(frozen=True)
class Plan:
    """A game as the sheets and the manifest see it: small enough to send between processes."""

    id: str
    title: str
    root: Path
    decks: dict[str, DeckPlan]
    fonts: tuple[str, ...] = ()  # the fonts its layouts name: the drawing process loads them while the child lays out
    language: str = ""  # the language it prints in, when not its source one: its kit is then out/<id>/<language>/

    @property
    def folder(self) -> tuple[str, ...]:
        """Its kit's folder below the output folder: <id>, or <id>/<language>."""
        return (self.id, self.language) if self.language else (self.id,)

    @property
    def cards(self) -> list[str]:
        return [deck_id for deck_id, deck in self.decks.items() if deck.format.component == "cards"]

    @property
    def tokens(self) -> list[str]:
        return [deck_id for deck_id, deck in self.decks.items() if deck.format.component == "tokens"]


def plan_of(game: Game, fonts: tuple[str, ...] = (), groups: dict[str, tuple[SheetGroup, ...]] | None = None) -> Plan:
    groups = groups or {}
    return Plan(game.id, game.title, game.root, {
        deck.id: DeckPlan(deck.id, deck.format, deck.size, deck.total, deck.where, deck.back is None,
                          groups.get(deck.id, ())) for deck in game.decks.values()}, fonts, game.language)


@dataclass
class Built:
    """One file of a kit as manifest.json lists it: its name, kind, pages and sha256, and what its kind adds."""

    file: str
    kind: str
    pages: int
    sha256: str
    extra: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"file": self.file, "kind": self.kind, "pages": self.pages, **self.extra, "sha256": self.sha256}


@dataclass(frozen=True)
class BoardPlan:
    """What drawing a board and listing it need to know of it."""

    id: str
    name: str
    size: tuple[float, float]
    seed: int | None  # the board's own seed, when it places things at random
    paper: str | None = None  # None: the build's


@dataclass(frozen=True)
class BoardPrint:
    """One PDF of boards, laid out and ready to draw: a map or mats of the game, or Muster's calibration page."""

    file: str
    kind: str | None  # None: the game's boards ("map" or "board" in the manifest); "calibration"
    boards: tuple[BoardPlan, ...]
    faces: dict[str, Face]
    backs: tuple[str, ...] = ()  # boards printed on the other side of the page before: back pages (calibration's)


def board_plan(board: Board) -> BoardPlan:
    return BoardPlan(board.id, board.name, board.size, board.seed if board.place else None, board.paper)

