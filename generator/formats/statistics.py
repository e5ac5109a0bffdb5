"""A game's decks (or a player's list) as numbers: composition by every trait, the distribution of every numeric
trait, and the chance of drawing cards that match a condition, exactly (hypergeometric) for one condition and by
a seeded simulation, with its standard error, for several. Plain data out: tables, JSON and the PDF report
(rendering/stats_pdf.py) are made from it."""

from __future__ import annotations

import math
import random
import statistics as stats
from collections import Counter
from dataclasses import dataclass

from ..core import codes
from ..core.errors import MusterError, did_you_mean
from ..core.model import Deck, Game
from ..reading.rules import CARD_FACTS, matches

COMPOSED = ("code", "codes", "boolean")  # traits counted value by value
NUMERIC = ("integer", "number", "year_from")  # traits whose distribution is given
MAX_VALUES = 60  # values of one trait shown; the rest are counted together
TRIALS = 20_000  # draws simulated for several conditions: a standard error of at most 0.35 %
MAX_TRIALS = 1_000_000


@dataclass(frozen=True)
class Condition:
    """One --when: the cards whose trait takes one of the values, as a rule's when: selects them."""

    text: str
    when: dict


@dataclass(frozen=True)
class Draw:
    """What --draw asks: the chance of at least `at_least` cards of each condition in the first `cards` drawn."""

    cards: int
    conditions: tuple[Condition, ...]
    at_least: int = 1
    seed: int = 1
    trials: int = TRIALS


def read_condition(text: str, game: Game) -> Condition:
    """`TRAIT=VALUE[,VALUE]` as a when: of the game's traits (or title, id, designed, set); a MusterError (exit 2)
    when it is no such thing."""
    name, equals, values = text.partition("=")
    name = name.strip()
    if not equals or not values.strip():
        raise MusterError(f"--when: expected TRAIT=VALUE[,VALUE], got {text!r}", field="--when", code="bad-option")
    if name not in game.traits and name not in CARD_FACTS:
        raise MusterError(f"--when: unknown trait '{name}'" + did_you_mean(name, [*game.traits, *CARD_FACTS]),
                          field="--when", code="unknown-trait")
    return Condition(text, {name: tuple(value.strip() for value in values.split(",") if value.strip())})


def _value_key(value) -> str:
    return "true" if value is True else "false" if value is False else str(value)


def composition(deck: Deck, game: Game) -> dict:
    """Every composed trait of the deck: each value with its titles, copies and share of the deck's copies."""
    total = deck.total or 1
    result = {}
    for name, trait in game.traits.items():
        if trait.kind not in COMPOSED:
            continue
        titles, copies = Counter(), Counter()
        for card in deck.cards:
            value = card.value(name)
            values = value if isinstance(value, tuple) else (() if value is None else (value,))
            for one in values or ("(none)",):
                titles[_value_key(one)] += 1
                copies[_value_key(one)] += card.count
        if set(copies) == {"(none)"}:
            continue  # no card of the deck gives the trait
        rows = [{"value": value, "cards": titles[value], "copies": number, "share": number / total}
                for value, number in copies.most_common(MAX_VALUES)]
        result[name] = {"label": trait.label, "kind": trait.kind, "rows": rows}
    return result


def distribution(deck: Deck, game: Game) -> dict:
    """Every numeric trait of the deck: copies by value, and the least, greatest, mean and median over copies."""
    result = {}
    for name, trait in game.traits.items():
        if trait.kind not in NUMERIC:
            continue
        copies = Counter()
        for card in deck.cards:
            value = card.value(name)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                copies[value] += card.count
        if not copies:
            continue
        weighted = sorted(copies.items())
        count = sum(copies.values())
        mean = sum(value * number for value, number in weighted) / count
        result[name] = {"label": trait.label, "values": [{"value": value, "copies": number} for value, number in
                                                         weighted],
                        "min": weighted[0][0], "max": weighted[-1][0], "mean": mean,
                        "median": stats.median(value for value, number in weighted for _ in range(number)),
                        "copies": count}
    return result


def at_least(total: int, matching: int, drawn: int, wanted: int) -> float:
    """The chance of at least `wanted` of `matching` cards among `drawn` cards drawn from `total` (hypergeometric)."""
    if drawn > total:
        raise MusterError(f"--draw {drawn}: the deck holds {total} cards", field="--draw", code="bad-option")
    ways = math.comb(total, drawn)
    hits = sum(math.comb(matching, k) * math.comb(total - matching, drawn - k)
               for k in range(wanted, min(matching, drawn) + 1))
    return hits / ways


def draw_chance(deck: Deck, draw: Draw) -> dict:
    """The chance the draw asks for: exact for one condition, simulated (with its standard error) for several."""
    cards = list(deck.cards)
    total = deck.total
    if not 1 <= draw.cards <= total:
        raise MusterError(f"--draw {draw.cards}: deck '{deck.id}' holds {total} cards", field="--draw",
                          code="bad-option")
    matching = [sum(card.count for card in cards if matches(card, c.when)) for c in draw.conditions]
    whens = " and ".join(f"{c.text} ({m} cards)" for c, m in zip(draw.conditions, matching))
    result = {"deck": deck.id, "drawn": draw.cards, "at_least": draw.at_least,
              "conditions": [{"when": c.text, "matching": m} for c, m in zip(draw.conditions, matching)],
              "asked": f"Draw {draw.cards} from {deck.id}: at least {draw.at_least} of {whens}"}
    if len(draw.conditions) == 1:
        chance = at_least(total, matching[0], draw.cards, draw.at_least)
        return result | {"method": "exact", "chance": chance, "said": f"{100 * chance:.2f} % (exact)"}
    masks = [sum(1 << i for i, c in enumerate(draw.conditions) if matches(card, c.when))
             for card in cards for _ in range(card.count)]
    rng = random.Random(draw.seed)
    needed = draw.at_least
    hits = 0
    for _ in range(draw.trials):
        counts = [0] * len(draw.conditions)
        for mask in rng.sample(masks, draw.cards):
            for i in range(len(counts)):
                counts[i] += mask >> i & 1
        hits += all(number >= needed for number in counts)
    chance = hits / draw.trials
    error = math.sqrt(max(chance * (1 - chance), 1 / draw.trials) / draw.trials)
    said = (f"{100 * chance:.2f} % ± {100 * error:.2f} % (standard error; {draw.trials:,} simulated draws, seed "
            f"{draw.seed})")
    return result | {"method": "simulation", "chance": chance, "standard_error": error, "trials": draw.trials,
                     "seed": draw.seed, "said": said}


def deal(deck: Deck, hand: int, seed: int) -> list[dict]:
    """A hand of `hand` cards dealt from the deck shuffled from `seed`: the same seed, the same hand. Each card as
    its title, id and set."""
    if not 1 <= hand <= deck.total:
        raise MusterError(f"--hand {hand}: deck '{deck.id}' holds {deck.total} cards", field="--hand",
                          code="bad-option")
    copies = [card for card in deck.cards for _ in range(card.count)]
    return [{"title": card.printed_title or card.id, "id": card.id, "set": card.set}
            for card in random.Random(seed).sample(copies, hand)]


def one_deck(game: Game, deck_ids: list[str] | None, what: str) -> Deck:
    """The one deck named, or the game's only deck; a MusterError asking for --deck when there are several."""
    decks = _decks(game, deck_ids)
    if len(decks) != 1:
        raise MusterError(f"{what}: name the deck to draw from with --deck ({', '.join(d.id for d in decks)})",
                          field="--deck", code="bad-option")
    return decks[0]


def game_statistics(game: Game, deck_ids: list[str] | None = None, draw: Draw | None = None) -> dict:
    """The statistics of the decks named (default: every deck), and the draw from the one deck asked for."""
    decks = _decks(game, deck_ids)
    result = {"game": game.id, "title": game.title, "decks": [
        {"id": deck.id, "name": deck.name, "copies": deck.total, "titles": len(deck.cards),
         "composition": composition(deck, game), "distribution": distribution(deck, game)} for deck in decks]}
    if draw is not None:
        result["draw"] = draw_chance(one_deck(game, deck_ids, "--draw"), draw)
    return result


def _decks(game: Game, deck_ids: list[str] | None) -> list[Deck]:
    for deck_id in deck_ids or ():
        if deck_id not in game.decks:
            raise MusterError.of(codes.UNKNOWN_DECK, field="--deck", name=deck_id, game=game.id,
                                 hint=did_you_mean(deck_id, game.decks))
    return [game.decks[d] for d in dict.fromkeys(deck_ids)] if deck_ids else list(game.decks.values())


def table_lines(result: dict) -> list[str]:
    """The statistics as terminal tables."""
    lines = [f"{result['title']} ({result['game']})"]
    for deck in result["decks"]:
        lines += ["", f"{deck['name']} ({deck['id']}): {deck['copies']} cards, {deck['titles']} titles"]
        for name, trait in deck["composition"].items():
            lines.append(f"  {trait['label']} ({name})")
            width = max(len(row["value"]) for row in trait["rows"])
            for row in trait["rows"]:
                lines.append(f"    {row['value']:<{width}}  {row['cards']:>5} titles  {row['copies']:>6} copies  "
                             f"{100 * row['share']:5.1f} %")
        for name, trait in deck["distribution"].items():
            lines.append(f"  {trait['label']} ({name}): {trait['min']:g} to {trait['max']:g}, mean "
                         f"{trait['mean']:.2f}, median {trait['median']:g}")
            most = max(row["copies"] for row in trait["values"])
            for row in trait["values"]:
                bar = "#" * max(1, round(30 * row["copies"] / most))
                lines.append(f"    {row['value']:>6g}  {row['copies']:>6}  {bar}")
    if "draw" in result:
        lines += ["", f"{result['draw']['asked']}: {result['draw']['said']}"]
    return lines

