"""The messages of a build: what the reading side (sequence.py) tells the drawing side (drawing.py), in order.

A build's sequence is: the bundled FontBook (core.fonts), the game's FontBook (the bundled fonts with the game's
own), the game's Plan (core.plan), each deck's Batch messages and then its DeckEnd (the decks of cards, then the
decks of tokens, each in the game's order), Boards, Rulebook.
They hold only core types, so the drawing side imports them without the stages that make them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from ..core.display import DeckFaces, pack, unpack
from ..core.errors import Finding
from ..core.fonts import FontBook
from ..core.plan import BoardPrint, Built, Plan


@dataclass(frozen=True)
class Batch:
    """Some cards of a deck laid out: drawn as soon as it arrives, while the next batch is laid out."""

    deck: str
    faces: DeckFaces

    def __reduce__(self):  # faces as plain tuples: pickled ten times faster (see display.pack)
        faces = self.faces
        return _unpacked, (self.deck, [pack(face) for face in faces.faces], faces.fronts, faces.backs, faces.findings)


def _unpacked(deck: str, faces: list[tuple], fronts: list[int], backs: list[int], findings: list[Finding]) -> Batch:
    return Batch(deck, DeckFaces([unpack(face) for face in faces], fronts, backs, findings))


@dataclass(frozen=True)
class DeckEnd:
    """A deck's last batch has been sent."""

    deck: str


@dataclass(frozen=True)
class Boards:
    """The boards and the calibration page laid out, ready to draw (none when the boards or the rulebook hold an
    error), with the boards' findings."""

    prints: list[BoardPrint]
    findings: list[Finding]


@dataclass(frozen=True)
class Typeset:
    """A file made whole on the reading side (the rulebook, its booklet): its bytes and its manifest entry."""

    built: Built
    data: bytes


@dataclass(frozen=True)
class Rulebook:
    """rules.pdf and perhaps rules-booklet.pdf (none without a rulebook, or when the boards or the rulebook hold an
    error), with the rulebook's findings."""

    files: list[Typeset]
    findings: list[Finding]


Message = Union[FontBook, Plan, Batch, DeckEnd, Boards, Rulebook]
