"""A game folder on disk into the model: load_game, and the small sections of game.yaml (card, constants,
colours, icons, tables, rulebook). Decks, traits, rules and boards are read by their own modules."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path, PurePosixPath
from typing import Iterable

from ..core import codes, fonts
from ..core.errors import Finding, Location, MusterError, did_you_mean
from ..core.files import confined
from ..core.model import CardSet, Deck, Game, Icon, Rulebook, frozen
from ..core import sandbox
from .boards import read_boards
from .decks import read_decks
from .kinds import HEX_COLOUR, LINE, NAME, NUMBER, describe, named_colour
from .reader import Reader, at, join, translation_of
from .rereading import DeckFiles
from .fonts import read_game_fonts
from .resources import find_game, image_problem
from .rules import patched, read_formats, read_rules, read_variants
from .sourcemap import Map, Seq, load_yaml
from .spec import CARD_SET, GAME, GAME_CARD, ICON, MAX_TABLE_ROWS, RULEBOOK
from .traits import read_traits, read_vocabularies
from .words import SOURCE, bundled, fixed_words, language_name


def load_game(name_or_path: str | Path, variants: Iterable[str] = (), sets: Iterable[str] = (),
              language: str | None = None, deck_files: DeckFiles | None = None) -> Game:
    """The game at `name_or_path`, with the named variants switched on besides the game's defaults, holding the
    cards of the named sets (none named: the game's default sets), its text in `language` (one of its languages:)
    where a translation gives it (None: the language its files are written in); with `deck_files`, its deck files
    read again only as far as they changed since they were last read with it (the preview's)."""
    root = find_game(name_or_path).resolve()
    where = Location(root / "game.yaml", 1, 1)
    try:  # the entry file is confined like every other: a link out of the folder is never read (nor quoted)
        entry = confined(root, "game.yaml")
    except MusterError as exc:
        raise MusterError(exc.message, Location(root / "game.yaml"), code=exc.code) from None
    data = load_yaml(entry)
    if not isinstance(data, Map):
        raise MusterError(f"expected a mapping at the top of game.yaml, got {describe(data)}", where, code="wrong-type")
    reader = Reader()
    reader.languages = reader.value(data, GAME["languages"], "") or ()
    reader.language = _language(reader.languages, language, where)
    reader.keys(data, "", GAME)
    reader.value(data, GAME["muster"], "")
    font_book = read_game_fonts(reader, data, root)
    card_size = _card_size(reader, data)
    constants = _constants(reader, data)
    vocabularies = read_vocabularies(reader, data)
    traits = read_traits(reader, data, vocabularies)
    colours = _colours(reader, data)
    icons = _icons(reader, data, root, colours)
    embed = _embed(reader, data, icons)
    card_sets = _sets(reader, data)
    decks = read_decks(reader, data, root, traits, vocabularies, card_size, tuple(card_sets), deck_files)
    if deck_files is not None:
        deck_files.keep({path for deck in decks.values() for path in deck.files})
    with sandbox.time_limit():  # the templates of game.yaml (rules' numbers, boards' sizes) share one time limit
        rules = read_rules(reader, data, traits, decks, constants)
        formats = read_formats(reader, data, traits, decks, constants, card_sets)
        game_variants = read_variants(reader, data, traits, vocabularies)
        tables = _tables(reader, data)
        boards = read_boards(reader, data, constants, colours)
    rulebook = _rulebook(reader, data, root)
    shop = reader.value(data, GAME["shop"], "") or ""
    words = fixed_words(reader.language or (reader.languages or (SOURCE,))[0], _words(reader, data))
    for name in variants:
        if name not in game_variants:
            raise MusterError.of(codes.UNKNOWN_VARIANT, where, name=name, hint=did_you_mean(name, game_variants))
    enabled = [v for v in game_variants.values() if v.enabled or v.name in variants]
    if enabled:
        kept = deck_files.patched if deck_files is not None else {}
        decks = {deck_id: patched(deck, enabled, kept.setdefault(deck_id, {})) for deck_id, deck in decks.items()}
    chosen = _chosen_sets(card_sets, tuple(sets), where)
    if chosen:
        decks = {deck_id: in_sets(deck, chosen, card_sets) for deck_id, deck in decks.items()}
    return Game(
        root=root,
        id=root.name,
        title=reader.value(data, GAME["title"], ""),
        summary=reader.value(data, GAME["summary"], ""),
        players=reader.value(data, GAME["players"], ""),
        dice=reader.value(data, GAME["dice"], ""),
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
        fonts=font_book,
        embed=frozen(embed),
        shop=shop,
        sets=frozen(card_sets),
        chosen_sets=chosen,
        formats=frozen(formats),
        languages=reader.languages,
        language=reader.language or "",
        words=frozen(words),
    )


def declared_languages(root: Path) -> tuple[str, ...]:
    """The languages the game at `root` declares (languages:), its source one first; () when it declares none or
    they cannot be read (the game's reading says why)."""
    try:
        data = load_yaml(confined(root, "game.yaml"))
        return GAME["languages"].read(data["languages"]) if isinstance(data, Map) and "languages" in data else ()
    except MusterError:
        return ()


def _translated_rulebook(reader: Reader, root: Path, name: str, path: Path, where: Location) -> Path | None:
    """The rulebook in the language being read: rules.de.md beside rules.md (`name`, found at `path`), when there
    is one, confined to the game folder as any file it names (None, the problem kept, when it is not); else the
    source rulebook, and (reading the source language) a missing-translation warning for each language it lacks."""
    def translation(language: str) -> str:
        written = PurePosixPath(name)
        return str(written.with_name(f"{written.stem}.{language}{written.suffix}"))

    if reader.language is not None:
        written = root / translation(reader.language)
        if not (written.exists() or written.is_symlink()):  # a link is confined wherever it leads, or if nowhere
            return path
        return reader.attempt(where, "rulebook.file", confined, root, translation(reader.language))
    for language in reader.languages[1:]:
        if not (root / translation(language)).exists():
            reader.findings.append(Finding.of(codes.MISSING_TRANSLATION, where, "rulebook.file",
                                              language=language_name(language), key="rulebook",
                                              owner=f"the game (no {PurePosixPath(translation(language)).name})"))
    return path


def _language(languages: tuple[str, ...], language: str | None, where: Location) -> str | None:
    """The language a game is read in, when not its source one; a MusterError when it is none of its languages."""
    if language is None or language == (languages or (None,))[0]:
        return None
    if language not in languages:
        known = f" (its languages: {', '.join(languages)})" if languages else " (it declares no languages:)"
        raise MusterError.of(codes.UNKNOWN_LANGUAGE, where, "--lang", lang=language,
                             hint=did_you_mean(language, languages, known))
    return language


def _words(reader: Reader, data: Map) -> dict[str, dict[str, str]]:
    """The game's own fixed words (words:), per language: each language one of the game's, each word one of
    Muster's (words.yaml), each value text."""
    raw = reader.section(data, GAME["words"], "")
    known = tuple(bundled()[SOURCE])
    result = {}
    for language, words in raw.items():
        field = join("words", language)
        if language not in (reader.languages or (SOURCE,)):
            reader.findings.append(Finding.of(codes.UNKNOWN_LANGUAGE, raw.key_where[language], field, lang=language,
                                              hint=f" (the game's languages: {', '.join(reader.languages or (SOURCE,))})"))
            continue
        words = reader.mapping(words, raw.value_where[language], field)
        if words is None:
            continue
        result[language] = {}
        for word, text in words.items():
            if word not in known:
                reader.error(words.key_where[word], join(field, word), f"unknown word '{word}'"
                             + did_you_mean(str(word), known, f" (the words: {', '.join(known)})"), "unknown-key")
            else:
                result[language][word] = reader.attempt(words.value_where[word], join(field, word), LINE.read, text)
    return result


def _sets(reader: Reader, data: Map) -> dict[str, CardSet]:
    """The game's sets of cards, in the order game.yaml declares them."""
    result = {}
    for set_id, body, field, where in reader.entries(data, GAME["sets"], "set"):
        reader.keys(body, field, CARD_SET)
        result[set_id] = CardSet(set_id, reader.value(body, CARD_SET["name"], field, default=set_id),
                                 reader.value(body, CARD_SET["designed"], field),
                                 reader.value(body, CARD_SET["default"], field), where)
    return result


def _chosen_sets(card_sets: dict[str, CardSet], names: tuple[str, ...], where: Location) -> tuple[str, ...]:
    """The sets whose cards the game is read with: those named (--sets), in the game's order, else its default
    sets; () when it declares none. A name that is no set of the game's is a MusterError."""
    for name in names:
        if name not in card_sets:
            known = f" (its sets: {', '.join(card_sets)})" if card_sets else " (it declares no sets:)"
            raise MusterError(f"--sets: game has no set '{name}'" + did_you_mean(name, card_sets, known), where,
                              field="--sets", code="unknown-set")
    return tuple(set_id for set_id, card_set in card_sets.items() if (set_id in names if names else card_set.default))


def in_sets(deck: Deck, chosen: tuple[str, ...], card_sets: dict[str, CardSet]) -> Deck:
    """The deck with only the cards of the chosen sets. Its declared size counts the cards of the default sets, so
    it is kept only when the chosen sets are those."""
    defaults = tuple(set_id for set_id, card_set in card_sets.items() if card_set.default)
    if chosen == defaults and all(card.set in chosen for card in deck.cards):
        return deck
    return replace(deck, cards=tuple(card for card in deck.cards if card.set in chosen),
                   size=deck.size if chosen == defaults else None)


def _card_size(reader: Reader, data: Map) -> tuple[float, float]:
    card = reader.section(data, GAME["card"], "")
    reader.keys(card, "card", GAME_CARD)
    return reader.value(card, GAME_CARD["size"], "card")


def _constants(reader: Reader, data: Map) -> dict:
    constants = reader.section(data, GAME["constants"], "")
    for key, value in constants.items():
        if not isinstance(key, str) or not NAME.match(key):
            reader.error(constants.key_where[key], "constants", f"'{key}' is not a name (lower case, digits, _)",
                         "bad-name")
        elif isinstance(value, (Map, Seq)):
            reader.error(constants.value_where[key], join("constants", key), "expected a number or text", "wrong-type")
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            reader.attempt(constants.value_where[key], join("constants", key), NUMBER.read, value)
    return dict(constants)


def _colours(reader: Reader, data: Map) -> dict[str, str]:
    raw = reader.section(data, GAME["colours"], "")
    colours = {}
    for name, value in raw.items():
        colour = reader.attempt(raw.value_where[name], join("colours", name), HEX_COLOUR.read, value)
        if colour is not None:
            colours[str(name)] = colour
    return colours


def _icons(reader: Reader, data: Map, root: Path, colours: dict[str, str]) -> dict[str, Icon]:
    result = {}
    for name, body, field in reader.named(data, GAME["icons"]):
        reader.keys(body, field, ICON)
        glyph, image = body.get("glyph"), body.get("image")
        if (glyph is None) == (image is None):
            reader.error(body.where, field, "give either glyph or image",
                         "missing-key" if glyph is None else "key-conflict")
            continue
        colour = reader.attempt(at(body, "colour"), join(field, "colour"), named_colour, body.get("colour"), colours)
        image_path = None
        if image is not None:
            image_path = reader.attempt(at(body, "image"), join(field, "image"), confined, root, str(image))
            if image_path is None:
                continue
            problem = image_problem(image_path)
            if problem:
                reader.error(at(body, "image"), join(field, "image"), f"'{image}': {problem.message}", problem.code)
                continue
        font = reader.value(body, ICON["font"], field)
        if not fonts.known(font):  # checked here, as the rulebook and every card that shows the icon need it
            reader.keep(fonts.font_book().unknown(font), at(body, "font"), join(field, "font"))
            continue
        result[str(name)] = Icon(str(name), None if glyph is None else str(glyph), font, colour, image_path)
    return result


def _embed(reader: Reader, data: Map, icons: dict[str, Icon]) -> dict[str, str]:
    """Words printed as icons: each a word (or words) of text, each naming an icon of icons:."""
    raw = reader.section(data, GAME["embed"], "")
    result = {}
    for word, name in raw.items():
        field = join("embed", word)
        if not isinstance(word, str) or not word or word != word.strip() or "\n" in word:
            reader.error(raw.key_where[word], field, f"expected a word to print as an icon, got {describe(word)}",
                         "bad-name")
        elif not isinstance(name, str) or name not in icons:
            reader.found(codes.UNKNOWN_ICON, raw.value_where[word], field, name=describe(name),
                         hint=did_you_mean(str(name), icons, f" (the game's icons: {', '.join(icons) or 'none'})"))
        else:
            result[word] = name
    return result


def _tables(reader: Reader, data: Map) -> dict[str, tuple]:
    """Named tables (lists of rows of plain values) that layouts and rulebooks print from."""
    raw = reader.section(data, GAME["tables"], "")
    result = {}
    for name, rows in raw.items():
        field = join("tables", name)
        if not isinstance(name, str) or not NAME.match(name):
            reader.error(raw.key_where[name], field, f"'{name}' is not a name (lower case, digits, _)", "bad-name")
            continue
        if not isinstance(rows, Seq) or len(rows) > MAX_TABLE_ROWS:
            reader.error(raw.value_where[name], field, f"expected a list of at most {MAX_TABLE_ROWS} rows",
                         "too-large" if isinstance(rows, Seq) else "wrong-type")
            continue
        good = []
        columns = {split[0] for row in rows if isinstance(row, Map) for split in map(translation_of, row) if split}
        for index, row in enumerate(rows):
            if not isinstance(row, Map) or any(isinstance(v, (Map, Seq)) for v in row.values()):
                reader.error(rows.item_where[index], f"{field}[{index}]", "expected a mapping of plain values",
                             "wrong-type")
                continue
            reader.free(row, f"{field}[{index}]", columns, owner=f"table '{name}'")
            good.append(frozen(row))
        result[name] = tuple(good)
    return result


def _rulebook(reader: Reader, data: Map, root: Path) -> Rulebook | None:
    if "rulebook" not in data:
        return None
    body = reader.mapping(data["rulebook"], at(data, "rulebook"), "rulebook")
    if body is None:
        return None
    reader.keys(body, "rulebook", RULEBOOK)
    if "file" not in body:  # reported by Reader.keys
        return None
    path = reader.attempt(at(body, "file"), "rulebook.file", confined, root, str(body.get("file")))
    if path is None:
        return None
    if not path.exists():  # a folder or a named pipe is refused when the rulebook is read (core/inputs.py)
        reader.error(at(body, "file"), "rulebook.file", codes.MISSING_FILE.message(name=body["file"], folder=root.name),
                     codes.MISSING_FILE.name)
        return None
    path = _translated_rulebook(reader, root, body["file"], path, at(body, "file"))
    if path is None:
        return None
    paper = reader.value(body, RULEBOOK["paper"], "rulebook", default=None)
    booklet = reader.value(body, RULEBOOK["booklet"], "rulebook")
    font = reader.value(body, RULEBOOK["font"], "rulebook")
    return Rulebook(path, paper, booklet, at(data, "rulebook"), font)
