"""Decks laid out: every card's face and back, in batches that drawing can take as they come, identical faces
stored once; and the fonts a game's layouts name, known before anything is laid out."""

from __future__ import annotations

import time
from functools import partial
from typing import Callable, Sequence

from ..core import codes, fonts
from ..core.display import DeckFaces, Face
from ..core.errors import Finding, MusterError
from ..core.model import Card, Deck, Game
from ..core import sandbox
from .context import card_context, deck_context
from .evaluation import Evaluator
from .files import find_layout, read_layout
from .roles import FONT
from .spec import ELEMENTS
from .findings import attempt, bleed_gaps, filed, text_findings

BATCH = 90  # cards laid out at a time: ten sheets of nine poker cards, drawn while the next batch is laid out


def layout_fonts(game: Game, layouts) -> set[str]:
    """The fonts the named layouts name outright, with the elements' default ones and the icons': most of what
    drawing with them will use, known before anything is laid out."""
    names = {field.default for kind in ELEMENTS.values() for field in kind.fields if field.role is FONT}
    names |= {icon.font for icon in game.icons.values() if icon.font}
    for name in filter(None, layouts):
        try:
            layout = read_layout(find_layout(game, name))
        except MusterError:  # reported when the deck is laid out
            continue
        names |= {str(e.fields["font"].raw) for e in layout.elements
                  if "font" in e.fields and not sandbox.is_template(e.fields["font"].raw)}
    return {name for name in names if fonts.known(name)}


def lay_out_cards(game: Game, deck: Deck, bleed: float, warnings: bool = True) -> DeckFaces:
    """Every card of `deck` laid out once (copies share the result); identical faces are stored once.

    Errors (templates that fail, text that cannot fit) and missing glyphs are always found; `warnings` adds the
    other printed-text checks (small text, the safe zone) and a background that stops short of the bleed, which
    `muster validate` reports and a build does not.
    """
    result = DeckFaces([], [], [], [])
    for batch in lay_out_batches(game, deck, bleed, warnings):
        result.extend(batch)
    return result


def lay_out_batches(game: Game, deck: Deck, bleed: float, warnings: bool = True, size: int | None = None,
                    evaluator: Callable[..., Evaluator] = Evaluator, cards: Sequence[Card] | None = None):
    """lay_out_cards, `size` cards at a time, so that drawing can begin before the deck is laid out. The deck's
    templates have TIME_LIMIT seconds in all, counted only while they run; an error in a layout ends the deck.
    `evaluator` makes each layout's Evaluator: the preview passes one that also notes where elements are drawn,
    and as `cards` only those of the deck's cards it has not laid out before."""
    subject = f"deck '{deck.id}'"
    evaluators, findings = {}, []
    for which in ("face", "back") if deck.back or deck.format.component == "cards" else ("face",):  # tokens: one-sided
        field = f"decks.{deck.id}.{which}"
        evaluators[which] = attempt(partial(_evaluator, game, deck, which, bleed, field, evaluator), findings, deck.where, field,
                                    subject)
    if findings:
        yield DeckFaces([], [], [], findings)
        return
    for evaluating in evaluators.values():
        evaluating.small_text = warnings
    index: dict[Face, int] = {}
    edged: set[str] = set()  # the layouts checked for a gap in the bleed: once per deck and layout
    shared = deck_context(game, deck, bleed)
    budget = float(sandbox.TIME_LIMIT)
    size = size or BATCH
    cards = deck.cards if cards is None else cards
    for start in range(0, len(cards), size):
        batch = DeckFaces([], [], [], [])
        began = time.monotonic()
        complete = attempt(partial(_lay_out, game, deck, cards[start:start + size], shared, warnings, evaluators,
                                   index, batch, budget, edged), batch.findings, deck.where, f"decks.{deck.id}", subject)
        budget -= time.monotonic() - began
        yield batch
        if not complete:
            return


def _evaluator(game: Game, deck: Deck, which: str, bleed: float, field: str,
               evaluator: Callable[..., Evaluator]) -> Evaluator:
    name = deck.face if which == "face" else deck.back
    if not name:
        raise MusterError(f"deck '{deck.id}' has no {which} layout"
                          f"{' (only a deck of tokens may go without a back)' if which == 'back' else ''}",
                          deck.where, code="missing-layout")
    return evaluator(game, read_layout(find_layout(game, name)), bleed, deck.format.face_size, field)


def _lay_out(game: Game, deck: Deck, cards: list[Card], shared: dict, warnings: bool, evaluators: dict[str, Evaluator],
             index: dict[Face, int], batch: DeckFaces, budget: float, edged: set[str]) -> bool:
    """Lays `cards` out into `batch` within `budget` seconds; an error in a layout stops it, with what was laid
    out so far kept."""
    with sandbox.time_limit(max(budget, 0.001)):
        for card in cards:
            _lay_out_card(card, game, shared, warnings, evaluators, index, batch, deck.format.safe_margin)
            if warnings and len(edged) < len(evaluators):
                _check_edges(deck, evaluators, index, batch, edged)
    return True


def _check_edges(deck: Deck, evaluators: dict[str, Evaluator], index: dict[Face, int], batch: DeckFaces,
                 edged: set[str]) -> None:
    """A warning, once per deck and layout, when the first card's face or back leaves part of the bleed
    uncovered: a layout drawn for another card size leaves a white strip along the cut."""
    faces = list(index)  # in the order of their numbers
    for which, drawn in (("face", batch.fronts), ("back", batch.backs)):
        if which in edged or which not in evaluators or not drawn:  # a piece without a back: none to check
            continue
        edged.add(which)
        bleed = evaluators[which].canvas.bleed
        sides = bleed_gaps(faces[drawn[-1]], bleed)
        if sides:
            name = deck.face if which == "face" else deck.back
            batch.findings.append(Finding.of(codes.BLEED_GAP, deck.where, f"decks.{deck.id}.{which}", deck=deck.id,
                                             which=which, layout=name, bleed=bleed, sides=" and ".join(sides)))


def _lay_out_card(card: Card, game: Game, shared: dict, warnings: bool, evaluators: dict[str, Evaluator],
                  index: dict[Face, int], batch: DeckFaces, safe: float) -> None:
    context = card_context(shared, card, game)
    field, label = f"cards[{card.index}]", card.label
    drawn = []
    for which, evaluator in evaluators.items():
        face, found = evaluator.face(context, partial(_drawing, which, card))
        if found:
            batch.findings.extend(filed(found, card.where, field, label))
        batch.findings.extend(text_findings(face, safe, card.where, field, f"{label} ({which})", warnings))
        number = index.get(face)
        if number is None:
            number = index[face] = len(index)
            batch.faces.append(face)
        drawn.append(number)
    batch.fronts.extend([drawn[0]] * card.count)
    batch.backs.extend([drawn[1] if len(drawn) > 1 else None] * card.count)


def _drawing(which: str, card: Card) -> str:
    return f"the {which} of {card.label}, {card.where}"
