"""Game folders on disk into the model: every key checked, every value parsed, every problem a finding."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterable

from ..layout import sandbox
from ..core.errors import Finding, Location, MusterError, did_you_mean
from ..core.files import confined
from ..core.geometry import cell_index, grid_extent
from ..core.model import (
    TRAIT_KINDS, Board, BoardGrid, Card, Deck, Game, Icon, Placement, Rule, Rulebook, Term, Trait, Variant, Vocabulary,
    frozen,
)
from .fonts import read_font_book
from .resources import find_game, image_problem
from .sourcemap import Map, Seq, load_yaml
from ..core.units import CARD_SIZES, parse_length, parse_size

FORMAT_VERSION = 1
RESERVED_CARD_KEYS = ("title", "count", "id", "designed", "note")
# The keys each mapping of a game may hold: the loader checks them, `muster schema` publishes them.
GAME_KEYS = ("muster", "title", "summary", "players", "card", "colours", "icons", "constants", "vocabularies",
             "traits", "decks", "rules", "variants", "tables", "boards", "rulebook")
CARD_KEYS = ("size",)
VOCABULARY_KEYS = ("values", "aliases")
TERM_KEYS = ("name", "short", "icon", "colour", "description", "symbol", "letter")
TRAIT_KEYS = ("kind", "vocabulary", "min", "max", "also", "label", "description")
ICON_KEYS = ("glyph", "font", "colour", "image")
FORMAT_KEYS = ("size", "shape", "packing", "safe")
DECK_KEYS = ("name", "file", "files", "size", "face", "back", "style", "component", "format")
DECK_FILE_KEYS = ("cards",)
RULE_KINDS = ("require", "forbid", "max_copies", "total", "count")
RULE_KEYS = RULE_KINDS + ("when", "decks", "name", "message")
BOUNDS = ("equals", "min", "max")
VARIANT_KEYS = ("description", "enabled", "when", "patch")
BOARD_KEYS = ("name", "file", "layout", "size", "grid", "place", "features", "seed")
GRID_KEYS = ("columns", "rows", "cell", "shape", "margin")
PLACE_KEYS = ("count", "rows", "columns")
RULEBOOK_KEYS = ("file", "paper", "booklet")
MAX_COUNT = 10_000
MAX_CARDS_PER_DECK = 20_000
DECK_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
NAME = re.compile(r"^[a-z][a-z0-9_]*$")
COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
YEAR_FROM = re.compile(r"^\s*(\d{1,4})\s*\+?\s*$")


def slug(text: str) -> str:
    """A file- and URL-safe id: 'Admiral Dönitz' -> 'admiral-donitz'."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-") or "card"


class Reader:
    """Collects findings while reading raw YAML; nothing it reads is trusted."""

    def __init__(self):
        self.findings: list[Finding] = []

    def error(self, where: Location | None, field: str, message: str) -> None:
        self.findings.append(Finding("error", where, field, message))

    def warning(self, where: Location | None, field: str, message: str) -> None:
        self.findings.append(Finding("warning", where, field, message))

    def mapping(self, value, where: Location, field: str) -> Map | None:
        if isinstance(value, Map):
            return value
        self.error(where, field, f"expected a mapping, got {describe(value)}")
        return None

    def entries(self, data: Map, section: str, what: str):
        """(id, body, field) for each entry of a section of ids (decks, boards), skipping the malformed ones."""
        raw = self.mapping(data.get(section, Map()), at(data, section), section) or Map()
        for entry_id, body in raw.items():
            field = join(section, entry_id)
            if not isinstance(entry_id, str) or not DECK_ID.match(entry_id):
                self.error(raw.key_where[entry_id], field, f"a {what} id is lower case letters, digits and dashes")
                continue
            body = self.mapping(body, raw.value_where[entry_id], field)
            if body is not None:
                yield entry_id, body, field, raw.key_where[entry_id]

    def keys(self, data: Map, field: str, allowed: Iterable[str], required: Iterable[str] = ()) -> None:
        allowed = list(allowed)
        for key in data:
            if key not in allowed:
                suffix = did_you_mean(key, allowed, f" (expected one of: {', '.join(allowed)})")
                self.error(data.key_where[key], join(field, key), f"unknown key '{key}'{suffix}")
        for key in required:
            if key not in data:
                self.error(data.where, field, f"missing required key '{key}'")

    def text(self, data: Map, key: str, field: str, default: str = "") -> str:
        value = data.get(key, default)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        if not isinstance(value, str):
            self.error(at(data, key), join(field, key), f"expected text, got {describe(value)}")
            return default
        return value

    def integer(self, data: Map, key: str, field: str, default=None, minimum=None, maximum=None):
        value = data.get(key, default)
        if value is default:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(at(data, key), join(field, key), f"expected an integer, got {describe(value)}")
            return default
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            self.error(at(data, key), join(field, key), f"expected an integer from {minimum} to {maximum}, got {value}")
            return default
        return value


def describe(value) -> str:
    if isinstance(value, Map) or isinstance(value, dict):
        return "a mapping"
    if isinstance(value, (Seq, list)):
        return "a list"
    if value is None:
        return "nothing"
    return repr(value)


def join(field: str, key) -> str:
    return f"{field}.{key}" if field else str(key)


def at(data: Map, key) -> Location:
    return data.value_where.get(key, data.where)


def load_game(name_or_path: str | Path, variants: Iterable[str] = ()) -> Game:
    """The game at `name_or_path`, with the named variants switched on besides the game's defaults."""
    read_font_book()  # the fonts its layouts will be measured with
    root = find_game(name_or_path).resolve()
    data = load_yaml(root / "game.yaml")
    where = Location(root / "game.yaml", 1, 1)
    if not isinstance(data, Map):
        raise MusterError(f"expected a mapping at the top of game.yaml, got {describe(data)}", where)
    reader = Reader()
    reader.keys(data, "", GAME_KEYS, required=("muster", "title", "decks"))
    version = data.get("muster", FORMAT_VERSION)
    if version != FORMAT_VERSION:
        reader.error(at(data, "muster"), "muster", f"unsupported format version {version!r} (this Muster reads {FORMAT_VERSION})")
    card_size = _card_size(reader, data)
    constants = _constants(reader, data)
    vocabularies = _vocabularies(reader, data)
    traits = _traits(reader, data, vocabularies)
    colours = _colours(reader, data)
    icons = _icons(reader, data, root, colours)
    decks = _decks(reader, data, root, traits, vocabularies, card_size)
    rules = _rules(reader, data, traits, decks, constants)
    game_variants = _variants(reader, data, traits, vocabularies)
    tables = _tables(reader, data)
    boards = _boards(reader, data, constants)
    rulebook = _rulebook(reader, data, root)
    for name in variants:
        if name not in game_variants:
            raise MusterError(f"game has no variant '{name}'{did_you_mean(name, game_variants)}", where)
    enabled = [v for v in game_variants.values() if v.enabled or v.name in variants]
    if enabled:
        decks = {deck_id: _patched(deck, enabled) for deck_id, deck in decks.items()}
    return Game(
        root=root,
        id=root.name,
        title=reader.text(data, "title", "title"),
        summary=reader.text(data, "summary", "summary"),
        players=reader.text(data, "players", "players"),
        card_size=card_size,
        colours=frozen(colours),
        icons=frozen(icons),
        constants=frozen(constants),
        vocabularies=frozen(vocabularies),
        traits=frozen(traits),
        decks=frozen(decks),
        rules=tuple(rules),
        variants=frozen(game_variants),
        where=where,
        findings=tuple(reader.findings),
        boards=frozen(boards),
        tables=frozen(tables),
        rulebook=rulebook,
    )


def _card_size(reader: Reader, data: Map) -> tuple[float, float]:
    card = data.get("card", Map())
    if not isinstance(card, Map):
        reader.error(at(data, "card"), "card", f"expected a mapping, got {describe(card)}")
        return CARD_SIZES["poker"]
    reader.keys(card, "card", CARD_KEYS)
    return face_size(reader, card.get("size", "poker"), at(card, "size"), "card.size") or CARD_SIZES["poker"]


MIN_FACE_MM, MAX_FACE_MM = 5.0, 600.0


def face_size(reader: Reader, value, where: Location, field: str) -> tuple[float, float] | None:
    """A card's or counter's size, within the bounds that can be printed on any paper Muster knows."""
    try:
        size = parse_size(value, CARD_SIZES)
    except ValueError as exc:
        reader.error(where, field, str(exc))
        return None
    if not all(MIN_FACE_MM <= side <= MAX_FACE_MM for side in size):
        reader.error(where, field, f"each side must be {MIN_FACE_MM:g} mm to {MAX_FACE_MM:g} mm, got {size[0]:g} x {size[1]:g} mm")
        return None
    return size


def _constants(reader: Reader, data: Map) -> dict:
    constants = reader.mapping(data.get("constants", Map()), at(data, "constants"), "constants") or {}
    for key, value in constants.items():
        if not isinstance(key, str) or not NAME.match(key):
            reader.error(constants.key_where[key], "constants", f"'{key}' is not a name (lower case, digits, _)")
        elif isinstance(value, (Map, Seq)):
            reader.error(constants.value_where[key], join("constants", key), "expected a number or text")
    return dict(constants)


def _vocabularies(reader: Reader, data: Map) -> dict[str, Vocabulary]:
    raw = reader.mapping(data.get("vocabularies", Map()), at(data, "vocabularies"), "vocabularies") or Map()
    result = {}
    for name, body in raw.items():
        field = join("vocabularies", name)
        body = reader.mapping(body, raw.value_where[name], field)
        if body is None:
            continue
        if "values" in body:
            reader.keys(body, field, VOCABULARY_KEYS)
            values = reader.mapping(body["values"], at(body, "values"), join(field, "values")) or Map()
            aliases_raw = reader.mapping(body.get("aliases", Map()), at(body, "aliases"), join(field, "aliases")) or Map()
            values_field = join(field, "values")
        else:
            values, aliases_raw, values_field = body, Map(), field
        terms = {}
        for code, term in values.items():
            code = str(code)
            term_field = join(values_field, code)
            if isinstance(term, str):
                terms[code] = Term(code, term, term)
            elif isinstance(term, Map):
                reader.keys(term, term_field, TERM_KEYS, ("name",))
                name_text = reader.text(term, "name", term_field, code)
                extra = {k: v for k, v in term.items() if k not in ("name", "short", "icon")}
                terms[code] = Term(code, name_text, reader.text(term, "short", term_field, name_text),
                                   term.get("icon"), frozen(extra))
            else:
                reader.error(values.value_where[code], term_field, f"expected a name or a mapping, got {describe(term)}")
        aliases = {}
        for alias, codes in aliases_raw.items():
            codes_list = [str(c) for c in codes] if isinstance(codes, list) else None
            unknown = [c for c in codes_list or () if c not in terms]
            if codes_list is None or unknown:
                reader.error(aliases_raw.value_where[alias], join(join(field, "aliases"), alias),
                             f"expected a list of codes of {name}" + (f"; unknown: {', '.join(unknown)}" if unknown else ""))
                continue
            aliases[str(alias)] = tuple(codes_list)
        result[str(name)] = Vocabulary(str(name), frozen(terms), frozen(aliases))
    return result


def _traits(reader: Reader, data: Map, vocabularies: dict) -> dict[str, Trait]:
    raw = reader.mapping(data.get("traits", Map()), at(data, "traits"), "traits") or Map()
    result = {}
    for name, body in raw.items():
        field = join("traits", name)
        if name in RESERVED_CARD_KEYS or not isinstance(name, str) or not NAME.match(name):
            reader.error(raw.key_where[name], field, f"'{name}' cannot be a trait name (reserved, or not lower case with _)")
            continue
        body = reader.mapping(body, raw.value_where[name], field)
        if body is None:
            continue
        reader.keys(body, field, TRAIT_KEYS, ("kind",))
        kind = body.get("kind")
        if kind not in TRAIT_KINDS:
            reader.error(at(body, "kind"), join(field, "kind"), f"expected one of: {', '.join(TRAIT_KINDS)}, got {kind!r}")
            continue
        vocabulary = body.get("vocabulary")
        if kind in ("code", "codes"):
            if vocabulary not in vocabularies:
                reader.error(at(body, "vocabulary"), join(field, "vocabulary"),
                             f"unknown vocabulary {vocabulary!r}{did_you_mean(vocabulary, vocabularies)}")
                continue
        elif vocabulary is not None:
            reader.error(at(body, "vocabulary"), join(field, "vocabulary"), f"a {kind} trait has no vocabulary")
        bounds = []
        for key in ("min", "max"):
            value = body.get(key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
                reader.error(at(body, key), join(field, key), f"expected a number, got {describe(value)}")
                value = None
            bounds.append(value)
        also = body.get("also", [])
        if not isinstance(also, list) or not all(isinstance(a, (str, int)) for a in also):
            reader.error(at(body, "also"), join(field, "also"), "expected a list of tokens")
            also = []
        result[name] = Trait(
            name=name, kind=kind, label=reader.text(body, "label", field, name.replace("_", " ").capitalize()),
            vocabulary=vocabulary, minimum=bounds[0], maximum=bounds[1], also=tuple(str(a) for a in also),
            description=reader.text(body, "description", field),
        )
    return result


def _colours(reader: Reader, data: Map) -> dict[str, str]:
    raw = reader.mapping(data.get("colours", Map()), at(data, "colours"), "colours") or Map()
    for name, value in raw.items():
        if not isinstance(value, str) or not COLOUR.match(value):
            reader.error(raw.value_where[name], join("colours", name), f"expected a colour such as \"#3b3b3b\", got {describe(value)}")
    return {str(k): v for k, v in raw.items() if isinstance(v, str) and COLOUR.match(v)}


def _icons(reader: Reader, data: Map, root: Path, colours: dict[str, str]) -> dict[str, Icon]:
    raw = reader.mapping(data.get("icons", Map()), at(data, "icons"), "icons") or Map()
    result = {}
    for name, body in raw.items():
        field = join("icons", name)
        body = reader.mapping(body, raw.value_where[name], field)
        if body is None:
            continue
        reader.keys(body, field, ICON_KEYS)
        glyph, image = body.get("glyph"), body.get("image")
        if (glyph is None) == (image is None):
            reader.error(body.where, field, "give either glyph or image")
            continue
        colour = body.get("colour")
        if isinstance(colour, str) and colour in colours:
            colour = colours[colour]  # a name of the game's colours, as layouts allow
        if colour is not None and not (isinstance(colour, str) and COLOUR.match(colour)):
            reader.error(at(body, "colour"), join(field, "colour"),
                         f"expected a colour such as \"#8a2a1c\" or a name of colours:, got {describe(colour)}")
            colour = None
        image_path = None
        if image is not None:
            try:
                image_path = confined(root, str(image))
            except MusterError as exc:
                reader.error(at(body, "image"), join(field, "image"), exc.message)
                continue
            problem = image_problem(image_path)
            if problem:
                reader.error(at(body, "image"), join(field, "image"), f"'{image}': {problem}")
                continue
        result[str(name)] = Icon(str(name), None if glyph is None else str(glyph), reader.text(body, "font", field, "text"), colour, image_path)
    return result


COMPONENTS = ("cards", "tokens")
SHAPES = ("rect", "round")
PACKINGS = ("spaced", "sheet")


def _deck_format(reader: Reader, body: Map, field: str, card_size: tuple[float, float]):
    """What a deck prints as: its component, face size, shape and packing (defaults: the game's cards)."""
    component = body.get("component", "cards")
    if component not in COMPONENTS:
        reader.error(at(body, "component"), join(field, "component"), f"expected one of {', '.join(COMPONENTS)}, got {component!r}")
        component = "cards"
    spec = reader.mapping(body.get("format", Map()), at(body, "format"), join(field, "format")) or Map()
    reader.keys(spec, join(field, "format"), FORMAT_KEYS)
    safe = None
    if "safe" in spec:
        try:
            safe = parse_length(spec["safe"])
        except ValueError as exc:
            reader.error(at(spec, "safe"), join(field, "format.safe"), str(exc))
    size = card_size
    if "size" in spec:
        size = face_size(reader, spec["size"], at(spec, "size"), join(field, "format.size")) or card_size
    choices = []
    for key, allowed, default in (("shape", SHAPES, "rect"), ("packing", PACKINGS, "spaced")):
        value = spec.get(key, default)
        if value not in allowed:
            reader.error(at(spec, key), join(field, f"format.{key}"), f"expected one of {', '.join(allowed)}, got {value!r}")
            value = default
        choices.append(value)
    return component, size, choices[0], choices[1], safe


def _decks(reader: Reader, data: Map, root: Path, traits: dict, vocabularies: dict,
           card_size: tuple[float, float]) -> dict[str, Deck]:
    result = {}
    for deck_id, body, field, where in reader.entries(data, "decks", "deck"):
        reader.keys(body, field, DECK_KEYS)
        if ("file" in body) == ("files" in body):
            reader.error(body.where, field, "give either file or files")
            continue
        names = [body["file"]] if "file" in body else body["files"]
        if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
            reader.error(at(body, "files"), join(field, "files"), "expected a list of file names")
            continue
        cards: list[Card] = []
        files = []
        for name in names:
            try:
                path = confined(root, name)
            except MusterError as exc:
                reader.error(at(body, "file" if "file" in body else "files"), field, exc.message)
                continue
            files.append(path)
            cards.extend(_cards(reader, path, traits, vocabularies, start=len(cards)))
        style = body.get("style", Map())
        if not isinstance(style, Map):
            reader.error(at(body, "style"), join(field, "style"), f"expected a mapping, got {describe(style)}")
            style = Map()
        component, face_size, shape, packing, safe = _deck_format(reader, body, field, card_size)
        result[deck_id] = Deck(
            id=deck_id,
            name=reader.text(body, "name", field, deck_id),
            files=tuple(files),
            size=reader.integer(body, "size", field, None, 0, MAX_CARDS_PER_DECK),
            face=body.get("face"),
            back=body.get("back"),
            style=frozen(style),
            cards=tuple(cards),
            where=where,
            size_where=at(body, "size"),
            component=component, face_size=face_size, shape=shape, packing=packing, safe=safe,
        )
    return result


def _cards(reader: Reader, path: Path, traits: dict, vocabularies: dict, start: int) -> list[Card]:
    try:
        data = load_yaml(path)
    except MusterError as exc:
        reader.error(exc.where, "", exc.message)
        return []
    if not isinstance(data, Map) or not isinstance(data.get("cards"), Seq):
        reader.error(Location(path, 1, 1), "cards", "expected a mapping with a list under 'cards'")
        return []
    if isinstance(data, Map):
        reader.keys(data, "", DECK_FILE_KEYS)
    raw_cards: Seq = data["cards"]
    allowed = list(RESERVED_CARD_KEYS) + list(traits)
    cards = []
    for index, raw in enumerate(raw_cards):
        field = f"cards[{index}]"
        where = raw_cards.item_where[index]
        if not isinstance(raw, Map):
            reader.error(where, field, f"expected a mapping, got {describe(raw)}")
            continue
        reader.keys(raw, field, allowed, required=("title",))
        title = reader.text(raw, "title", field, "")
        count = reader.integer(raw, "count", field, 1, 0, MAX_COUNT)
        designed = raw.get("designed", False)
        if not isinstance(designed, bool):
            reader.error(at(raw, "designed"), join(field, "designed"), f"expected true or false, got {describe(designed)}")
            designed = False
        values = {}
        invalid = set()
        for name, trait in traits.items():
            if name in raw and raw[name] is not None:
                parsed = parse_trait(trait, raw[name], vocabularies)
                if isinstance(parsed, ValueError):
                    reader.error(at(raw, name), join(field, name), str(parsed))
                    invalid.add(name)
                else:
                    values[name] = parsed
        field_where = {key: raw.value_where[key] for key in raw}
        cards.append(Card(
            title=title, id=reader.text(raw, "id", field, slug(title)), count=count, traits=frozen(values),
            where=where, field_where=frozen(field_where), index=start + index, designed=designed,
            note=reader.text(raw, "note", field), invalid=frozenset(invalid),
        ))
    return cards


def parse_trait(trait: Trait, value: Any, vocabularies: dict) -> Any:
    """The card's value as the trait's kind wants it, or a ValueError saying what was expected."""
    kind = trait.kind
    if kind == "text":
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            return str(value)
        return ValueError(f"expected text, got {describe(value)}")
    if kind == "boolean":
        return value if isinstance(value, bool) else ValueError(f"expected true or false, got {describe(value)}")
    if kind in ("integer", "number"):
        if str(value) in trait.also:
            return str(value)
        numeric = (int,) if kind == "integer" else (int, float)
        if isinstance(value, bool) or not isinstance(value, numeric):
            tokens = f" or one of {', '.join(trait.also)}" if trait.also else ""
            return ValueError(f"expected {'an integer' if kind == 'integer' else 'a number'}{tokens}, got {describe(value)}")
        return _bounded(trait, value)
    if kind == "year_from":
        match = YEAR_FROM.match(str(value)) if isinstance(value, (int, str)) and not isinstance(value, bool) else None
        if not match:
            return ValueError(f"expected a year such as 1944+, got {describe(value)}")
        return _bounded(trait, int(match.group(1)))
    vocabulary: Vocabulary = vocabularies[trait.vocabulary]
    if kind == "code":
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value) in vocabulary.terms:
            return str(value)
        return ValueError(f"unknown {trait.label.lower()} {describe(value)}; expected one of {', '.join(vocabulary.terms)}")
    return parse_codes(value, vocabulary, trait)


def parse_codes(value, vocabulary: Vocabulary, trait: Trait):
    if isinstance(value, list):
        parts = [str(v) for v in value]
    elif isinstance(value, (str, int)) and not isinstance(value, bool):
        parts = vocabulary.split(str(value))
    else:
        return ValueError(f"expected codes of {vocabulary.name}, got {describe(value)}")
    codes: list[str] = []
    unknown = []
    for part in parts:
        expanded = vocabulary.expand(part)
        if expanded is None:
            unknown.append(part)
        else:
            codes.extend(c for c in expanded if c not in codes)
    if unknown:
        allowed = ", ".join(list(vocabulary.terms) + list(vocabulary.aliases))
        return ValueError(f"unknown {trait.label.lower()} {', '.join(repr(u) for u in unknown)}; expected codes of {allowed}")
    order = list(vocabulary.terms)
    return tuple(sorted(codes, key=order.index))


def _bounded(trait: Trait, number):
    if trait.minimum is not None and number < trait.minimum or trait.maximum is not None and number > trait.maximum:
        return ValueError(f"{number} is outside {trait.minimum}..{trait.maximum}")
    return number


def _condition(reader: Reader, data: Map, field: str, traits: dict) -> dict:
    raw = data.get("when")
    if raw is None:
        return {}
    raw = reader.mapping(raw, at(data, "when"), join(field, "when"))
    if raw is None:
        return {}
    result = {}
    for key, values in raw.items():
        if key not in traits and key not in ("title", "id", "designed"):
            reader.error(raw.key_where[key], join(join(field, "when"), key),
                         f"unknown trait '{key}'{did_you_mean(key, traits)}")
            continue
        result[key] = tuple(str(v) for v in values) if isinstance(values, list) else (str(values),)
    return result


def _rules(reader: Reader, data: Map, traits: dict, decks: dict, constants: dict) -> list[Rule]:
    raw = data.get("rules", Seq())
    if not isinstance(raw, Seq):
        reader.error(at(data, "rules"), "rules", f"expected a list, got {describe(raw)}")
        return []
    rules = []
    for index, body in enumerate(raw):
        field = f"rules[{index}]"
        body = reader.mapping(body, raw.item_where[index], field)
        if body is None:
            continue
        kinds = [k for k in RULE_KINDS if k in body]
        reader.keys(body, field, RULE_KEYS)
        if len(kinds) != 1:
            reader.error(body.where, field, f"a rule has exactly one of: {', '.join(RULE_KINDS)}")
            continue
        kind = kinds[0]
        params = _rule_params(reader, kind, body, field, traits, constants)
        if params is None:
            continue
        deck_ids = body.get("decks", list(decks))
        if not isinstance(deck_ids, list) or any(d not in decks for d in deck_ids):
            reader.error(at(body, "decks"), join(field, "decks"), f"expected a list of deck ids of this game ({', '.join(decks)})")
            continue
        rules.append(Rule(
            kind=kind, name=reader.text(body, "name", field, f"{kind} rule"), params=frozen(params),
            when=frozen(_condition(reader, body, field, traits)), decks=tuple(deck_ids),
            message=reader.text(body, "message", field), where=body.where,
        ))
    return rules


def _rule_params(reader: Reader, kind: str, body: Map, field: str, traits: dict, constants: dict) -> dict | None:
    value = body[kind]
    where = at(body, kind)
    if kind in ("require", "forbid"):
        names = value if isinstance(value, list) else [value]
        unknown = [n for n in names if n not in traits]
        if unknown:
            reader.error(where, join(field, kind), f"unknown trait(s): {', '.join(map(str, unknown))}")
            return None
        return {"traits": tuple(names)}
    if kind == "max_copies":
        number = _number(reader, value, where, join(field, kind), constants)
        return None if number is None else {"max": number}
    spec = reader.mapping(value, where, join(field, kind))
    if spec is None:
        return None
    reader.keys(spec, join(field, kind), BOUNDS + (("trait",) if kind == "total" else ()))
    params = {}
    if kind == "total":
        trait = spec.get("trait")
        if trait not in traits or traits[trait].kind not in ("integer", "number"):
            reader.error(at(spec, "trait"), join(join(field, kind), "trait"), f"expected a numeric trait, got {trait!r}")
            return None
        params["trait"] = trait
    for key in BOUNDS:
        if key in spec:
            number = _number(reader, spec[key], at(spec, key), join(join(field, kind), key), constants)
            if number is None:
                return None
            params[key] = number
    if not any(key in params for key in BOUNDS):
        reader.error(spec.where, join(field, kind), "give equals, min or max")
        return None
    return params


def _number(reader: Reader, value, where: Location, field: str, constants: dict):
    if sandbox.is_template(value):
        try:
            value = sandbox.render(value, {"constants": dict(constants)}).strip()
            value = float(value) if "." in value else int(value)
        except (sandbox.TemplateError, ValueError) as exc:
            reader.error(where, field, f"cannot evaluate: {exc}")
            return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        reader.error(where, field, f"expected a number, got {describe(value)}")
        return None
    return value


def _variants(reader: Reader, data: Map, traits: dict, vocabularies: dict) -> dict[str, Variant]:
    raw = reader.mapping(data.get("variants", Map()), at(data, "variants"), "variants") or Map()
    result = {}
    for name, body in raw.items():
        field = join("variants", name)
        body = reader.mapping(body, raw.value_where[name], field)
        if body is None:
            continue
        reader.keys(body, field, VARIANT_KEYS, ("patch",))
        patch_raw = reader.mapping(body.get("patch", Map()), at(body, "patch"), join(field, "patch")) or Map()
        patch = {}
        for key, value in patch_raw.items():
            if key not in traits:
                reader.error(patch_raw.key_where[key], join(join(field, "patch"), key), f"unknown trait '{key}'")
                continue
            parsed = parse_trait(traits[key], value, vocabularies)
            if isinstance(parsed, ValueError):
                reader.error(patch_raw.value_where[key], join(join(field, "patch"), key), str(parsed))
            else:
                patch[key] = parsed
        enabled = body.get("enabled", False)
        result[str(name)] = Variant(
            name=str(name), description=reader.text(body, "description", field), enabled=enabled is True,
            when=frozen(_condition(reader, body, field, traits)), patch=frozen(patch), where=body.where,
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


def _patched(deck: Deck, variants: list[Variant]) -> Deck:
    cards = []
    for card in deck.cards:
        traits = dict(card.traits)
        for variant in variants:
            if matches(card, variant.when):
                for key, value in variant.patch.items():
                    traits.setdefault(key, value)
        cards.append(replace(card, traits=frozen(traits)))
    return replace(deck, cards=tuple(cards))


MAX_TABLE_ROWS = 500


def _tables(reader: Reader, data: Map) -> dict[str, tuple]:
    """Named tables (lists of rows of plain values) that layouts and rulebooks print from."""
    raw = reader.mapping(data.get("tables", Map()), at(data, "tables"), "tables") or Map()
    result = {}
    for name, rows in raw.items():
        field = join("tables", name)
        if not isinstance(name, str) or not NAME.match(name):
            reader.error(raw.key_where[name], field, f"'{name}' is not a name (lower case, digits, _)")
            continue
        if not isinstance(rows, Seq) or len(rows) > MAX_TABLE_ROWS:
            reader.error(raw.value_where[name], field, f"expected a list of at most {MAX_TABLE_ROWS} rows")
            continue
        good = []
        for index, row in enumerate(rows):
            if not isinstance(row, Map) or any(isinstance(v, (Map, Seq)) for v in row.values()):
                reader.error(rows.item_where[index], f"{field}[{index}]", "expected a mapping of plain values")
                continue
            good.append(frozen(row))
        result[name] = tuple(good)
    return result


BOARD_SHAPES = ("square", "hex")


def _boards(reader: Reader, data: Map, constants: dict) -> dict[str, Board]:
    result = {}
    for board_id, body, field, where in reader.entries(data, "boards", "board"):
        reader.keys(body, field, BOARD_KEYS, ("layout",))
        grid = _board_grid(reader, body, field, constants)
        size = None
        if "size" in body:
            try:
                text = body["size"]
                if sandbox.is_template(text):
                    text = sandbox.render(text, {"constants": dict(constants)})
                size = parse_size(text, {})
            except (ValueError, sandbox.TemplateError) as exc:
                reader.error(at(body, "size"), join(field, "size"), str(exc))
                continue
        elif grid is not None:
            extent = grid_extent(grid.shape, grid.columns, grid.rows, grid.cell)
            size = (extent[0] + 2 * grid.margin, extent[1] + 2 * grid.margin)
        else:
            reader.error(body.where, field, "give size, or a grid to size the board by")
            continue
        if not (10 <= size[0] <= MAX_BOARD_MM and 10 <= size[1] <= MAX_BOARD_MM):
            reader.error(at(body, "size"), join(field, "size"), f"a board is 10 mm to {MAX_BOARD_MM:g} mm on each side")
            continue
        file = reader.text(body, "file", field, board_id)
        if not DECK_ID.match(file):
            reader.error(at(body, "file"), join(field, "file"), "a file stem is lower case letters, digits and dashes")
            continue
        result[board_id] = Board(
            id=board_id, file=file, name=reader.text(body, "name", field, board_id), layout=body["layout"],
            size=size, grid=grid, place=frozen(_placements(reader, body, field, constants, grid)),
            features=frozen(_features(reader, body, field, grid)),
            seed=reader.integer(body, "seed", field, 1, 0, 2**31), where=where,
        )
    return result


MAX_BOARD_MM = 2000.0


def _board_grid(reader: Reader, body: Map, field: str, constants: dict) -> BoardGrid | None:
    if "grid" not in body:
        return None
    spec = reader.mapping(body["grid"], at(body, "grid"), join(field, "grid"))
    if spec is None:
        return None
    field = join(field, "grid")
    reader.keys(spec, field, GRID_KEYS, ("columns", "rows", "cell"))
    numbers = {}
    for key in ("columns", "rows"):
        value = _number(reader, spec.get(key), at(spec, key), join(field, key), constants)
        if not isinstance(value, int) or not 1 <= value <= 200:
            reader.error(at(spec, key), join(field, key), "expected a whole number from 1 to 200")
            return None
        numbers[key] = value
    try:
        cell = parse_length(spec.get("cell"))
        margin = parse_length(spec.get("margin", "12mm"))
    except ValueError as exc:
        reader.error(spec.where, field, str(exc))
        return None
    shape = spec.get("shape", "square")
    if shape not in BOARD_SHAPES or cell <= 0:
        reader.error(spec.where, field, f"expected shape square or hex and a positive cell, got {shape!r}, {cell:g} mm")
        return None
    return BoardGrid(numbers["columns"], numbers["rows"], cell, shape, margin)


def _placements(reader: Reader, body: Map, field: str, constants: dict, grid: BoardGrid | None) -> dict:
    raw = reader.mapping(body.get("place", Map()), at(body, "place"), join(field, "place")) or Map()
    result = {}
    for name, spec in raw.items():
        where = join(join(field, "place"), name)
        spec = reader.mapping(spec, raw.value_where[name], where)
        if spec is None:
            continue
        if grid is None:
            reader.error(spec.where, where, "placing cells needs the board's grid")
            continue
        reader.keys(spec, where, PLACE_KEYS, ("count",))
        lines = {}
        for key, limit in (("rows", grid.rows), ("columns", grid.columns)):
            value = spec.get(key)
            if value is None:
                lines[key] = None
            elif isinstance(value, list) and value and all(isinstance(v, int) and 1 <= v <= limit for v in value):
                lines[key] = tuple(value)
            else:
                reader.error(at(spec, key), join(where, key), f"expected a list of {key} from 1 to {limit}")
                lines[key] = ()
        count = _number(reader, spec.get("count"), at(spec, "count"), join(where, "count"), constants)
        cells = len(lines["rows"] or range(grid.rows)) * len(lines["columns"] or range(grid.columns))
        if not isinstance(count, int) or not 0 <= count <= cells:
            reader.error(at(spec, "count"), join(where, "count"), f"expected a whole number from 0 to {cells} (the cells available)")
            continue
        result[str(name)] = Placement(count, lines["rows"], lines["columns"])
    return result


def _features(reader: Reader, body: Map, field: str, grid: BoardGrid | None) -> dict:
    raw = reader.mapping(body.get("features", Map()), at(body, "features"), join(field, "features")) or Map()
    result = {}
    for name, cells in raw.items():
        where = join(join(field, "features"), name)
        if grid is None or not isinstance(cells, list):
            reader.error(raw.value_where[name], where, "expected a list of cells such as C4 on a board with a grid")
            continue
        bad = [c for c in cells if (index := cell_index(c)) is None or index[0] >= grid.columns or index[1] >= grid.rows]
        if bad:
            reader.error(raw.value_where[name], where, f"not cells of this {grid.columns} x {grid.rows} grid: {', '.join(map(str, bad))}")
            continue
        result[str(name)] = tuple(str(c).upper() for c in cells)
    return result


RULEBOOK_PAPERS = ("a4", "letter", "a5")


def _rulebook(reader: Reader, data: Map, root: Path) -> Rulebook | None:
    if "rulebook" not in data:
        return None
    body = reader.mapping(data["rulebook"], at(data, "rulebook"), "rulebook")
    if body is None:
        return None
    reader.keys(body, "rulebook", RULEBOOK_KEYS, ("file",))
    try:
        path = confined(root, str(body.get("file")))
    except MusterError as exc:
        reader.error(at(body, "file"), "rulebook.file", exc.message)
        return None
    if not path.is_file():
        reader.error(at(body, "file"), "rulebook.file", f"no file '{body['file']}' in {root.name}/")
        return None
    paper = body.get("paper")
    if paper is not None and paper not in RULEBOOK_PAPERS:
        reader.error(at(body, "paper"), "rulebook.paper", f"expected one of {', '.join(RULEBOOK_PAPERS)}, got {paper!r}")
        paper = None
    booklet = body.get("booklet", False)
    if not isinstance(booklet, bool):
        reader.error(at(body, "booklet"), "rulebook.booklet", f"expected true or false, got {describe(booklet)}")
        booklet = False
    return Rulebook(path, paper, booklet, at(data, "rulebook"))
