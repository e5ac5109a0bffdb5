"""A deck laid out for the preview card by card, each card's faces remembered by its data and its deck's inputs,
so that after a one-card edit only that card is laid out again.

A card's front and back depend on its own values and on what every card of its deck shares: the deck's context
(the game's constants, colours, tables and vocabularies, the deck's name, size and style), its layout files, its
face size and safe margin. Those make the deck's signature; when it changes, every card of the deck is laid out
again.
"""

from __future__ import annotations

import dataclasses
from functools import cache, partial
from typing import Callable, NamedTuple, Sequence, TypeVar

from ..core.display import Face
from ..core.errors import Finding, MusterError
from ..core.model import Card, Deck, Game
from ..layout.cards import lay_out_batches
from ..layout.context import deck_context
from ..layout.files import find_layout
from .tracing import Outline, TracingEvaluator


PLACES = ("where", "field_where", "index")  # the fields of Card that say where it is, not what it shows
T = TypeVar("T")


class Laid(NamedTuple):
    """One card laid out: its front and back (None for a card of no copies, and the back of a one-sided counter)
    and what its layouts found."""

    front: Face | None
    back: Face | None
    findings: tuple[Finding, ...]


class DeckLayout(NamedTuple):
    """A deck laid out: each card's Laid, in order, and its key (card_key); the findings that stopped it; whether
    every card was laid out; the cards of the deck as laid out the time before, and the place among them of each
    card that is one of them, or one of them moved (`aligned`)."""

    cards: list[Laid]
    keys: list[object]
    findings: list[Finding]
    complete: bool
    before: tuple[Card, ...]
    places: list[int | None]


class _Remembered(NamedTuple):
    """A deck as last laid out: the signature it was laid out under (None: lay every card out again), its cards,
    each card's key and Laid (None for one not laid out), and the Laid of each key."""

    signature: str | None
    cards: tuple[Card, ...]
    keys: list[object]
    laid: list[Laid | None]
    known: dict[object, Laid]


_NOTHING = _Remembered(None, (), [], [], {})


class CardLayouts:
    """Every deck's cards laid out, remembered per deck by signature and per card by its values and places;
    `traces` holds the outlines of every face remembered; `laid_out` counts the cards laid out.

    A card that is the same object as the last time, or that card moved (`same_card`), is taken as it was without
    making its key: at thousands of cards, making and comparing every card's key cost more than the edit's own
    layout."""

    def __init__(self):
        self.decks: dict[str, _Remembered] = {}
        self.traces: dict[Face, tuple[Outline, ...]] = {}
        self.laid_out = 0

    def lay_out(self, game: Game, deck: Deck, bleed: float) -> DeckLayout:
        """The deck's cards, those not remembered laid out in one pass, one batch per card."""
        signature = _signature(game, deck, bleed)
        old = self.decks.get(deck.id, _NOTHING)
        if signature is None or signature != old.signature:
            old = _NOTHING
        before = old.cards
        keys: list[object] = []
        laid: list[Laid | None] = []
        places = aligned(before, deck.cards, same_card)
        for card, was in zip(deck.cards, places):
            if was is None:
                key = card_key(card)
                keys.append(key)
                laid.append(_found(old.known.get(key)))
            else:
                keys.append(old.keys[was])
                laid.append(old.laid[was] if before[was] is card else _found(old.laid[was]))
        missing = [number for number, done in enumerate(laid) if done is None]  # each at its place: see _found
        known = old.known
        findings: list[Finding] = []
        complete = True
        if missing:
            made, findings, complete = self._lay_out(game, deck, bleed, [deck.cards[number] for number in missing])
            for number, result in zip(missing, made):
                laid[number] = result
            known = {**known, **{keys[number]: result for number, result in zip(missing, made)}}
        if len(known) > 2 * len(keys) + 64:  # the keys of cards edited away: no more than those shown
            known = {key: done for key, done in zip(keys, laid) if done is not None}
        self.laid_out += len(missing)
        self.decks[deck.id] = _Remembered(signature if complete else None, deck.cards, keys, laid, known)
        return DeckLayout([done for done in laid if done is not None], keys, findings,
                          complete and all(done is not None for done in laid), before, places)

    def _lay_out(self, game: Game, deck: Deck, bleed: float, cards: list[Card]
                 ) -> tuple[list[Laid], list[Finding], bool]:
        """`cards` laid out, one batch each (a batch's findings are its card's); what stopped the deck, if
        anything stopped it."""
        faces: list[Face] = []
        laid: list[Laid] = []
        for card, batch in zip(cards, lay_out_batches(game, deck, bleed, warnings=True, size=1, cards=cards,
                                                      evaluator=partial(TracingEvaluator, traces=self.traces))):
            faces += batch.faces
            if card.count > 0 and not batch.fronts:  # its layout stopped: the batch's findings say why
                return laid, batch.findings, False
            front, back = (faces[batch.fronts[0]], batch.backs[0]) if batch.fronts else (None, None)
            back = None if back is None else faces[back]  # None too for a counter printed on one side
            laid.append(Laid(front, back, tuple(batch.findings)))
        if len(laid) < len(cards):  # a layout could not be read: said in the one batch there was
            return laid, [f for card in laid for f in card.findings], False
        return laid, [], True

    def forget(self) -> None:
        """Forget every card: a file faces name by path (an image, a font) changed."""
        self.decks.clear()
        self.traces.clear()

    def trim(self) -> None:
        """Keep the outlines of the faces of the remembered cards only, once there are twice as many as those
        cards have faces: a face's hash is made from all it draws, and a refresh should cost what its edit does."""
        if len(self.traces) <= 4 * sum(len(deck.laid) for deck in self.decks.values()) + 64:
            return
        used = {face for deck in self.decks.values() for laid in deck.laid if laid is not None
                for face in (laid.front, laid.back) if face is not None}
        self.traces = {face: outlines for face, outlines in self.traces.items() if face in used}


def _found(laid: Laid | None) -> Laid | None:
    """A card's Laid found by its key, for a card at another place: none when it has findings, which name the place
    of the card it was made for."""
    return None if laid is None or laid.findings else laid


def _signature(game: Game, deck: Deck, bleed: float) -> str | None:
    """What every card of the deck shares, as text; None when a layout file cannot be found or read. The deck's
    values (its size: a card added or taken away changes it) only when a layout names the deck at all."""
    try:
        layouts = [find_layout(game, name).read_bytes() if name else b"" for name in (deck.face, deck.back)]
    except (MusterError, OSError):
        return None
    shared = deck_context(game, deck, bleed)
    if not any(b"deck" in layout for layout in layouts):
        del shared["deck"]
    return repr((sorted(shared.items(), key=lambda item: item[0]), layouts, deck.format.face_size,
                 deck.format.safe_margin, dict(game.colours), dict(game.icons), game.root))


def aligned(before: Sequence[T], now: Sequence[T], same: Callable[[T, T], bool]) -> list[int | None]:
    """For each item of `now`, its place in `before` where it is the `same` as an item there, else None: place by
    place when there are as many items as before, else matched from either end. What a save leaves of a deck's
    cards (a few changed, added or taken away, the others kept or moved), found in time that grows with the deck
    only by a comparison of each item, and of the items kept only by identity; the places found rise with the
    items."""
    forward = [item is other or same(item, other) for item, other in zip(before, now)]
    if len(before) == len(now):
        return [number if match else None for number, match in enumerate(forward)]
    head = forward.index(False) if False in forward else len(forward)
    backward = [item is other or same(item, other)
                for item, other in zip(reversed(before[head:]), reversed(now[head:]))]
    tail = backward.index(False) if False in backward else len(backward)
    return [*range(head), *[None] * (len(now) - head - tail), *range(len(before) - tail, len(before))]


def _same_of(kind: type) -> Callable[[object, object], bool]:
    """Whether two instances of the dataclass `kind` hold the very same objects in every field but their places:
    one is the other, or the other moved. Written out as one expression (see _key_of)."""
    parts = [f"a.{f.name} is b.{f.name}" for f in dataclasses.fields(kind) if f.name not in PLACES]
    return eval(f"lambda a, b: a is b or ({' and '.join(parts)})", {})


# Whether one card is the other, or the other moved: where a save added or took away lines or cards above a card, the
# reader moves the card it made (reading/decks.py), every value of it the very same object, only its places new.
same_card = _same_of(Card)


def card_key(card: Card) -> object:
    """A card's values, every field of Card but its places (where, field_where, index), which its faces do not
    show: its key among its deck's, the same for a card moved by lines added above it. (Its layouts' findings name
    its place: a Laid with findings is found by key only for the same card, see _found.)"""
    key = _key_of(type(card))(card)
    try:
        hash(key)
    except TypeError:  # a value of a kind that cannot be hashed (a table's rows): compared by its text instead
        return repr(key)
    return key


@cache
def _key_of(kind: type) -> Callable[[object], tuple]:
    """What makes the key of an instance of the dataclass `kind` from every one of its fields, each by its
    declared type: a Location as (path, line, column), a Mapping as its items (of Locations: each so), the others
    as they are. Written out as one expression, as namedtuple does: a key is made for every card on every
    refresh, and a loop over the fields costs three times as much."""
    parts = []
    for f in dataclasses.fields(kind):
        declared, value = str(f.type), f"card.{f.name}"
        if f.name in PLACES:
            continue
        if declared.startswith("Mapping"):
            parts.append(f"tuple({value}.items())")
        else:
            parts.append(value)
    return eval(f"lambda card: ({', '.join(parts)},)", {})
