"""The game's rules and variants from game.yaml, the cards a `when:` matches, and numbers written as templates."""

from __future__ import annotations

from dataclasses import replace

from ..core import codes, sandbox
from ..core.errors import MusterError, did_you_mean
from ..core.model import Card, Deck, PlayFormat, Rule, Variant, frozen
from .kinds import NUMBER
from .reader import Reader, at, join, known
from .sourcemap import Map
from .spec import BOUNDS, COUNT, GAME, PLAY_FORMAT, RULE, RULE_KINDS, TOTAL, VARIANT
from .traits import parse_trait

_BOUND_NAMES = tuple(key.name for key in BOUNDS)
CARD_FACTS = ("title", "id", "designed", "set")  # what a `when:` may test besides traits


def formula(value, constants: dict):
    """A number, or a Jinja expression over the constants that gives one: "{{ constants.width * 2 }}"."""
    if sandbox.is_template(value):
        try:
            value = sandbox.render(value, {"constants": dict(constants)}).strip()
            value = float(value) if "." in value else int(value)
        except Exception as exc:  # any failure of the template is the game's author's to fix
            message, code = sandbox.failure(exc, "bad-template")
            raise MusterError(f"cannot evaluate: {message}", code=code) from None
    return NUMBER.read(value)


def _condition(reader: Reader, data: Map, field: str, traits: dict) -> dict | None:
    """The cards a `when:` selects, as trait -> the values wanted; None after a problem, so that the rule or
    variant is not applied at all: a typo in a condition must never widen it to every card."""
    raw = data.get("when")
    if raw is None:
        return {}
    raw = reader.mapping(raw, at(data, "when"), join(field, "when"))
    if raw is None:
        return None
    result = {}
    for key, values in raw.items():
        if key not in traits and key not in CARD_FACTS:
            reader.error(raw.key_where[key], join(join(field, "when"), key),
                         f"unknown trait '{key}'{did_you_mean(key, traits)}", "unknown-trait")
            return None
        result[key] = tuple(str(v) for v in values) if isinstance(values, list) else (str(values),)
    return result


def read_rules(reader: Reader, data: Map, traits: dict, decks: dict, constants: dict,
               field: str = "rules") -> list[Rule]:
    """The rules listed under `rules` of `data` (game.yaml's, or a format's, at `field`)."""
    rules = []
    for field, body in reader.listed(data, "rules", field):
        kinds = [k for k in RULE_KINDS if k in body]
        reader.keys(body, field, RULE)
        if len(kinds) != 1:
            reader.error(body.where, field, f"a rule has exactly one of: {', '.join(RULE_KINDS)}",
                         "key-conflict" if kinds else "missing-key")
            continue
        kind = kinds[0]
        params = rule_params(reader, kind, body, field, traits, constants)
        if params is None:
            continue
        deck_ids = body.get("decks", list(decks))
        if not isinstance(deck_ids, list) or any(not known(d, decks) for d in deck_ids):
            reader.error(at(body, "decks"), join(field, "decks"),
                         f"expected a list of deck ids of this game ({', '.join(decks)})",
                         "unknown-deck" if isinstance(deck_ids, list) else "wrong-type")
            continue
        when = _condition(reader, body, field, traits)
        if when is None:
            continue
        rules.append(Rule(
            kind=kind, name=reader.value(body, RULE["name"], field, default=f"{kind} rule"), params=frozen(params),
            when=frozen(when), decks=tuple(deck_ids),
            message=reader.value(body, RULE["message"], field), where=body.where,
        ))
    return rules


def read_formats(reader: Reader, data: Map, traits: dict, decks: dict, constants: dict,
                 sets: dict) -> dict[str, PlayFormat]:
    """The construction formats of players' deck lists (formats: in game.yaml)."""
    result = {}
    for name, body, field in reader.named(data, GAME["formats"]):
        reader.keys(body, field, PLAY_FORMAT)
        chosen = tuple(reader.value(body, PLAY_FORMAT["sets"], field, default=()))
        for set_id in chosen:
            if set_id not in sets:
                hint = did_you_mean(set_id, sets, f" (the game's sets: {', '.join(sets) or 'none'})")
                reader.error(at(body, "sets"), join(field, "sets"), codes.UNKNOWN_SET.message(name=set_id, hint=hint),
                             codes.UNKNOWN_SET.name)
        deck_ids = body.get("decks", [])
        if not isinstance(deck_ids, list) or any(not known(d, decks) for d in deck_ids):
            reader.error(at(body, "decks"), join(field, "decks"),
                         f"expected a list of deck ids of this game ({', '.join(decks)})",
                         "unknown-deck" if isinstance(deck_ids, list) else "wrong-type")
            deck_ids = []
        result[str(name)] = PlayFormat(
            str(name), reader.value(body, PLAY_FORMAT["description"], field), chosen, tuple(deck_ids),
            tuple(read_rules(reader, body, traits, decks, constants, join(field, "rules"))), body.where)
    return result


def rule_params(reader: Reader, kind: str, body: Map, field: str, traits: dict, constants: dict) -> dict | None:
    """What a rule of `kind` checks: its traits, or its numbers; None after a problem."""
    value = body[kind]
    where = at(body, kind)
    field = join(field, kind)
    if kind in ("require", "forbid"):
        names = value if isinstance(value, list) else [value]
        unknown = [n for n in names if not known(n, traits)]
        if unknown:
            reader.error(where, field, f"unknown trait(s): {', '.join(map(str, unknown))}", "unknown-trait")
            return None
        return {"traits": tuple(names)}
    if kind == "max_copies":
        number = reader.attempt(where, field, formula, value, constants)
        return None if number is None else {"max": number}
    spec = reader.mapping(value, where, field)
    if spec is None:
        return None
    reader.keys(spec, field, TOTAL if kind == "total" else COUNT)
    params = {}
    if kind == "total":
        trait = spec.get("trait")
        if not known(trait, traits) or traits[trait].kind not in ("integer", "number"):
            reader.error(at(spec, "trait"), join(field, "trait"), f"expected a numeric trait, got {trait!r}",
                         "wrong-type" if known(trait, traits) else "unknown-trait")
            return None
        params["trait"] = trait
    for key in _BOUND_NAMES:
        if key in spec:
            number = reader.attempt(at(spec, key), join(field, key), formula, spec[key], constants)
            if number is None:
                return None
            params[key] = number
    if not any(key in params for key in _BOUND_NAMES):
        reader.error(spec.where, field, "give equals, min or max", "missing-key")
        return None
    return params


def read_variants(reader: Reader, data: Map, traits: dict, vocabularies: dict) -> dict[str, Variant]:
    result = {}
    for name, body, field in reader.named(data, GAME["variants"]):
        reader.keys(body, field, VARIANT)
        patch_raw = reader.section(body, VARIANT["patch"], field)
        patch_field = join(field, "patch")
        patch = {}
        for key, value in patch_raw.items():
            if key not in traits:
                reader.error(patch_raw.key_where[key], join(patch_field, key), f"unknown trait '{key}'",
                             "unknown-trait")
                continue
            parsed = reader.attempt(patch_raw.value_where[key], join(patch_field, key), parse_trait, traits[key],
                                    value, vocabularies)
            if parsed is not None:
                patch[key] = parsed
        when = _condition(reader, body, field, traits)
        if when is None:  # still a variant --variant may name, but one that patches no card
            when, patch = {}, {}
        result[str(name)] = Variant(
            name=str(name), description=reader.value(body, VARIANT["description"], field),
            enabled=body.get("enabled", False) is True,  # anything but true leaves it off, as it always has
            when=frozen(when), patch=frozen(patch), where=body.where,
        )
    return result


def matches(card: Card, when) -> bool:
    """Whether `card` meets every condition of a rule's or variant's `when`."""
    for key, wanted in when.items():
        value = card.value(key)
        if value is None:
            return False
        values = value if isinstance(value, tuple) else (value,)
        if not any(str(v) in wanted for v in values):
            return False
    return True


def patched(deck: Deck, variants: list[Variant], kept: dict | None = None) -> Deck:
    """The deck with the variants' patches set on the matching cards that lack the traits; a card no patch changes
    is itself. With `kept` (the deck's cards as last patched, kept between reads: the preview's), a card that is the
    same object as then is patched as then, without its key being made again downstream (preview/cards.py)."""
    before = kept.pop("made", {}) if kept is not None and kept.get("variants") == variants else {}
    made = {}
    cards = []
    for card in deck.cards:
        done = before.get(id(card))
        if done is not None and done[0] is card:
            cards.append(done[1])
            made[id(card)] = done
            continue
        traits = dict(card.traits)
        for variant in variants:
            if matches(card, variant.when):
                for key, value in variant.patch.items():
                    traits.setdefault(key, value)
        result = card if traits == card.traits else replace(card, traits=frozen(traits))
        made[id(card)] = (card, result)  # the card held: its id names no other while it is kept
        cards.append(result)
    if kept is not None:
        kept.update(variants=variants, made=made)
    return replace(deck, cards=tuple(cards))
