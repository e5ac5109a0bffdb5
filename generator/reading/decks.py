"""Decks from game.yaml and their cards from the deck files: what each deck prints as, every card's values."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from ..core.errors import Location, MusterError
from ..core.model import Card, Deck, frozen
from .kinds import describe
from .reader import Reader, at, join
from ..core.files import confined
from .sourcemap import Map, Seq, load_yaml
from .spec import CARD, DECK, DECK_FILE, FORMAT, GAME
from .traits import parse_trait

_TITLE, _COUNT, _ID, _DESIGNED, _NOTE = (CARD[name] for name in ("title", "count", "id", "designed", "note"))


def slug(text: str) -> str:
    """A file- and URL-safe id: 'Admiral Dönitz' -> 'admiral-donitz'."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-") or "card"


def read_decks(reader: Reader, data: Map, root: Path, traits: dict, vocabularies: dict,
               card_size: tuple[float, float]) -> dict[str, Deck]:
    result = {}
    for deck_id, body, field, where in reader.entries(data, GAME["decks"], "deck"):
        reader.keys(body, field, DECK)
        if ("file" in body) == ("files" in body):
            reader.error(body.where, field, "give either file or files",
                         "key-conflict" if "file" in body else "missing-key")
            continue
        names = [body["file"]] if "file" in body else body["files"]
        if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
            reader.error(at(body, "files"), join(field, "files"), "expected a list of file names", "wrong-type")
            continue
        cards: list[Card] = []
        files = []
        complete = True
        for name in names:
            try:
                path = confined(root, name)
            except MusterError as problem:
                reader.keep(problem, at(body, "file" if "file" in body else "files"), field)
                complete = False
                continue
            files.append(path)
            read = _cards(reader, path, traits, vocabularies, start=len(cards))
            complete = complete and read is not None
            cards.extend(read or ())
        style = reader.section(body, DECK["style"], field)
        component, face_size, shape, packing, safe = _deck_format(reader, body, field, card_size)
        result[deck_id] = Deck(
            id=deck_id,
            name=reader.value(body, DECK["name"], field, default=deck_id),
            files=tuple(files),
            size=reader.value(body, DECK["size"], field),
            face=body.get("face"),
            back=body.get("back"),
            style=frozen(style),
            cards=tuple(cards),
            where=where,
            size_where=at(body, "size"),
            component=component, face_size=face_size, shape=shape, packing=packing, safe=safe, complete=complete,
        )
    return result


def _deck_format(reader: Reader, body: Map, field: str, card_size: tuple[float, float]):
    """What a deck prints as: its component, face size, shape and packing (defaults: the game's cards)."""
    component = reader.value(body, DECK["component"], field)
    spec = reader.section(body, DECK["format"], field)
    field = join(field, "format")
    reader.keys(spec, field, FORMAT)
    safe = reader.value(spec, FORMAT["safe"], field, default=None)
    size = reader.value(spec, FORMAT["size"], field, default=card_size)
    shape, packing = reader.value(spec, FORMAT["shape"], field), reader.value(spec, FORMAT["packing"], field)
    return component, size, shape, packing, safe


def _cards(reader: Reader, path: Path, traits: dict, vocabularies: dict, start: int) -> list[Card] | None:
    """The cards of one deck file; None when the file cannot be read as a list of cards at all."""
    try:
        data = load_yaml(path)
    except MusterError as problem:
        reader.keep(problem, None, "")
        return None
    if not isinstance(data, Map) or not isinstance(data.get("cards"), Seq):
        reader.error(Location(path, 1, 1), "cards", "expected a mapping with a list under 'cards'", "wrong-type")
        return None
    reader.keys(data, "", DECK_FILE)
    raw_cards: Seq = data["cards"]
    trait_names = tuple(traits)
    cards = []
    for index, raw in enumerate(raw_cards):
        field = f"cards[{index}]"
        where = raw_cards.item_where[index]
        if not isinstance(raw, Map):
            reader.error(where, field, f"expected a mapping, got {describe(raw)}", "wrong-type")
            continue
        reader.keys(raw, field, CARD, trait_names)
        title = reader.value(raw, _TITLE, field)
        count = reader.value(raw, _COUNT, field)
        designed = reader.value(raw, _DESIGNED, field)
        values = {}
        invalid = set()
        for name, trait in traits.items():
            if name in raw and raw[name] is not None:
                try:
                    values[name] = parse_trait(trait, raw[name], vocabularies)
                except MusterError as problem:
                    reader.keep(problem, at(raw, name), join(field, name))
                    invalid.add(name)
        field_where = {key: raw.value_where[key] for key in raw}
        cards.append(Card(
            title=title, id=reader.value(raw, _ID, field, default=slug(title)), count=count, traits=frozen(values),
            where=where, field_where=frozen(field_where), index=start + index, designed=designed,
            note=reader.value(raw, _NOTE, field), invalid=frozenset(invalid),
        ))
    return cards
