"""Cards drawn into the rulebook: a rules author's figure of a card's real face, with numbered callouts on the
elements that print the fields it names ("card anatomy"), and the cover's row of the game's own cards.

A figure is a Markdown image whose source names a card: `![A tank card](<card:german/Tiger II?width=50mm&callouts=
title,pen,defense>)`, the deck optional when the title is the game's only card of that name. Options: `width` (a
length, default 55 mm), `side` (`face` or `back`) and `callouts` (card fields: each callout is put on the first
element of the layout whose values name `card.FIELD`). checking/rulebook.py reports a figure that names no card;
building/sequence.py lays the figures out and rendering/rulebook_pdf.py draws them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs, unquote

from ..core.display import Face
from ..core import codes
from ..core.errors import MusterError, did_you_mean
from ..core.model import Card, Deck, Game
from ..core.units import parse_length
from .cards import lay_out_batches
from .evaluation import Evaluator

SCHEME = "card:"
WIDTH = 55.0                     # mm: a figure's width when its source gives none
WIDTHS = (15.0, 180.0)           # mm: the least and most a figure may be
MAX_CALLOUTS = 9
COVER_CARDS = 4                  # cards on the cover: one per card deck, or the first of the only one
OPTIONS = ("width", "side", "callouts")


@dataclass(frozen=True)
class FigureSpec:
    """What a figure's source asks for."""

    source: str
    deck: Deck
    card: Card
    side: str                     # "face" or "back"
    width: float                  # mm
    callouts: tuple[str, ...]


@dataclass(frozen=True)
class Figure:
    """A figure laid out: the face, its printed width, and its callouts as (number, x, y, label), in mm from the
    trim's top-left, at the left edge of the element each names."""

    face: Face
    width: float
    marks: tuple[tuple[int, float, float, str], ...]


def is_figure(source: str) -> bool:
    return source.startswith(SCHEME)


def figure_spec(game: Game, source: str) -> FigureSpec:
    """The card and options a figure's source names; a MusterError (code card-figure) saying what is wrong."""
    target, _, query = source.removeprefix(SCHEME).partition("?")
    target = unquote(target).strip()
    deck_id, _, title = target.rpartition("/")
    decks = [game.decks[deck_id]] if deck_id in game.decks else list(game.decks.values())
    if deck_id and deck_id not in game.decks:
        raise _refused(source, f"no deck '{deck_id}'{did_you_mean(deck_id, game.decks)}")
    cards = [(deck, card) for deck in decks for card in deck.cards if title in (card.title, card.id)]
    if not cards:
        every = [card.title for deck in decks for card in deck.cards]
        raise _refused(source, f"no card '{title}'{did_you_mean(title, every)}")
    if len({deck.id for deck, _ in cards}) > 1:
        raise _refused(source, f"'{title}' is a card of decks {', '.join(sorted({d.id for d, _ in cards}))}: "
                               "name one (card:DECK/TITLE)")
    deck, card = cards[0]
    options = {key: values[-1] for key, values in parse_qs(query, keep_blank_values=True).items()}
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise _refused(source, f"unknown option '{unknown[0]}' (options: {', '.join(OPTIONS)})")
    side = options.get("side", "face")
    if side not in ("face", "back") or (side == "back" and not deck.back):
        raise _refused(source, f"side: expected face{' or back' if deck.back else ''}, got '{side}'")
    try:
        width = parse_length(options["width"]) if "width" in options else WIDTH
    except MusterError as exc:
        raise _refused(source, f"width: {exc.message}") from None
    if not WIDTHS[0] <= width <= WIDTHS[1]:
        raise _refused(source, f"width: {width:g} mm is outside {WIDTHS[0]:g}..{WIDTHS[1]:g} mm")
    callouts = tuple(filter(None, (c.strip() for c in options.get("callouts", "").split(","))))
    if len(callouts) > MAX_CALLOUTS:
        raise _refused(source, f"callouts: {len(callouts)} named, at most {MAX_CALLOUTS}")
    fields = ("title", "id", *game.traits)
    for name in callouts:
        if name not in fields:
            raise _refused(source, f"callouts: no field '{name}'{did_you_mean(name, fields)}")
    return FigureSpec(source, deck, card, side, width, callouts)


def lay_out_figure(game: Game, spec: FigureSpec) -> Figure:
    """The figure's face laid out at the trim (no bleed), and where its callouts go; a callout whose field no
    element names is a MusterError."""
    marking: list[_Marking] = []

    def evaluator(*args, **kwargs) -> Evaluator:
        made = _Marking(*args, fields=spec.callouts, **kwargs)
        marking.append(made)
        return made

    batches = list(lay_out_batches(game, spec.deck, 0.0, warnings=False, evaluator=evaluator, cards=[spec.card]))
    errors = [f for batch in batches for f in batch.findings if f.severity == "error"]
    if errors:  # the layout's own error, where it is
        raise MusterError(f"figure '{spec.source}': {errors[0].message}", errors[0].where, errors[0].field,
                          errors[0].code)
    faces = [face for batch in batches for face in batch.faces]
    which = 0 if spec.side == "face" else 1
    face = faces[min(which, len(faces) - 1)]
    places = marking[which].places if which < len(marking) else {}
    marks = []
    for number, name in enumerate(spec.callouts, start=1):
        if name not in places:
            raise _refused(spec.source, f"callouts: no element of the {spec.side} layout prints card.{name}")
        trait = game.traits.get(name)
        marks.append((number, *places[name], trait.label if trait and trait.label else name.capitalize()))
    return Figure(face, spec.width, tuple(marks))


def cover_figures(game: Game) -> list[Figure]:
    """The cover's cards: the first card of each card deck (or of each deck, for a game of counters), or the first
    cards of the only deck, up to COVER_CARDS; laid out without callouts. None when one cannot be laid out."""
    decks = [d for d in game.decks.values() if d.format.component == "cards" and d.cards] or \
        [d for d in game.decks.values() if d.cards]
    picks = [(d, d.cards[0]) for d in decks][:COVER_CARDS] if len(decks) > 1 else \
        [(decks[0], card) for card in decks[0].cards[:COVER_CARDS]] if decks else []
    try:
        return [lay_out_figure(game, FigureSpec("cover", deck, card, "face", WIDTH, ())) for deck, card in picks]
    except MusterError:  # a deck that cannot be laid out: its own error is the deck's to report; no cards on the cover
        return []


class _Marking(Evaluator):
    """An Evaluator that notes, for each of `fields`, where the first drawn element that prints card.FIELD (in its
    text or source), else the first that names it in any value (a colour, a condition), was placed: the left edge
    of its box, half way down (x, y in mm)."""

    PRINTED = ("text", "src")

    def __init__(self, *args, fields: tuple[str, ...], **kwargs):
        super().__init__(*args, **kwargs)
        self.named = {name: re.compile(rf"\bcard(\.{re.escape(name)}\b|\[['\"]{re.escape(name)}['\"]\])")
                      for name in fields}
        self.printed: dict[str, tuple[float, float]] = {}
        self.named_in: dict[str, tuple[float, float]] = {}

    @property
    def places(self) -> dict[str, tuple[float, float]]:
        return {**self.named_in, **self.printed}

    def _draw(self, element, values, context, found) -> list:
        drawn = super()._draw(element, values, context, found)
        for name, pattern in self.named.items() if drawn else ():
            for key, value in element.fields.items():
                if pattern.search(str(value.raw)):
                    (self.printed if key in self.PRINTED else self.named_in).setdefault(name, _anchor(values))
        return drawn


def _anchor(values: dict) -> tuple[float, float]:
    if "cx" in values:
        return values["cx"] - values.get("r", 0.0), values["cy"]
    if "x1" in values:
        return min(values["x1"], values["x2"]), (values["y1"] + values["y2"]) / 2
    return values.get("x", 0.0), values.get("y", 0.0) + values.get("h", 0.0) / 2


def _refused(source: str, problem: str) -> MusterError:
    return MusterError.of(codes.CARD_FIGURE, field="rulebook", source=source, problem=problem)


_FIGURE = re.compile(r"^ {0,3}!\[[^\]\n]*\]\(\s*(<card:[^>\n]*>|card:\S*)(?:\s+\"[^\"\n]*\")?\s*\)\s*$", re.MULTILINE)


def figure_sources(markdown: str) -> list[tuple[str, int]]:
    """The sources of the figures the rendered rulebook draws (a line of one image whose source is a card:), as
    Markdown gives them to the typesetter, with the line each is on, in order, once each. A line scan, not a parse:
    a rulebook is parsed once, to be typeset."""
    from markdown_it.common.normalize_url import normalizeLink

    found: dict[str, int] = {}
    for match in _FIGURE.finditer(markdown):
        source = normalizeLink(unquote(match[1].strip("<>")))
        found.setdefault(source, markdown.count("\n", 0, match.start()) + 1)
    return list(found.items())
