"""The Reader: the one place where problems met while reading a game become findings.

Code that reads a value raises MusterError with a stable code when the value will not do (kinds.py, the trait
parser, resources.confined, sourcemap.load_yaml); the Reader keeps it as a finding with the place and field it
was read from, and the reading goes on with the key's default. Its own checks (keys against the spec, mappings
where mappings belong) add findings directly.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from ..core import codes
from ..core.errors import Finding, Location, MusterError, did_you_mean
from ..core.options import LANGUAGE
from .words import language_name
from .kinds import DECK_ID, describe
from .sourcemap import Map, Seq
from .spec import Key, Section

_WRITTEN = object()  # Reader.value's default when the caller gives none: the key's own


def join(field: str, key) -> str:
    return f"{field}.{key}" if field else str(key)


def known(value, names) -> bool:
    """Whether `value` is one of `names`; a mapping or a list, written where a name belongs, never is."""
    return isinstance(value, Hashable) and value in names


FREE_KEYS = Section("", ())  # a mapping whose keys are the author's own: each is allowed (Reader.free)


def translation_of(key) -> tuple[str, str] | None:
    """(key, language) of a translation's key, `title:de`; None for any other key (a sheet's `Cost: Gold`)."""
    if not isinstance(key, str) or ":" not in key:
        return None
    name, _, language = key.rpartition(":")
    return (name, language) if name and LANGUAGE.fullmatch(language) else None


def at(data: Map, key) -> Location:
    """Where the value of `key` is written, or where the mapping starts when it is not."""
    return data.value_where.get(key, data.where)


class Reader:
    """Collects findings while reading raw YAML; nothing it reads is trusted."""

    def __init__(self):
        self.findings: list[Finding] = []
        self.languages: tuple[str, ...] = ()  # the game's, its source language first (game.yaml's languages:)
        self.language: str | None = None  # the one read into the game, when not the source

    def error(self, where: Location | None, field: str, message: str, code: str) -> None:
        self.findings.append(Finding("error", where, field, message, code))

    def found(self, code: codes.Code, where: Location | None, field: str, **values) -> None:
        """A finding of a declared code, its message from the code's template and `values`."""
        self.findings.append(Finding.of(code, where, field, **values))

    def keep(self, problem: MusterError, where: Location | None, field: str) -> None:
        """A problem raised while reading the value at `where` (`field`), kept as an error finding."""
        self.findings.append(problem.finding("error", where, field))

    def attempt(self, where: Location | None, field: str, parse, *args):
        """parse(*args); None, after keeping the problem it raised, when it raised one."""
        try:
            return parse(*args)
        except MusterError as problem:
            self.keep(problem, where, field)
            return None

    def mapping(self, value, where: Location, field: str) -> Map | None:
        if isinstance(value, Map):
            return value
        self.error(where, field, f"expected a mapping, got {describe(value)}", "wrong-type")
        return None

    def section(self, data: Map, key: Key, field: str) -> Map:
        """The mapping under `key` of `data` (empty when absent or not a mapping)."""
        return self.mapping(data.get(key.name, Map()), at(data, key.name), join(field, key.name)) or Map()

    def named(self, data: Map, key: Key):
        """(name, body, field) for each entry of a map of named mappings (icons, variants, vocabularies), the ones
        that are no mapping reported and skipped."""
        raw = self.section(data, key, "")
        for name, body in raw.items():
            field = join(key.name, name)
            body = self.mapping(body, raw.value_where[name], field)
            if body is not None:
                yield name, body, field

    def listed(self, data: Map, name: str, field: str):
        """(field, body) for each mapping of the list under `name` of `data` (rules[0], ...): a list that is no
        list, and the items that are no mapping, reported and skipped."""
        raw = data.get(name, Seq())
        if not isinstance(raw, Seq):
            self.error(at(data, name), field, f"expected a list, got {describe(raw)}", "wrong-type")
            return
        for index, body in enumerate(raw):
            where = f"{field}[{index}]"
            body = self.mapping(body, raw.item_where[index], where)
            if body is not None:
                yield where, body

    def entries(self, data: Map, key: Key, what: str):
        """(id, body, field, where) for each entry of a map of ids (decks, boards), skipping the malformed ones."""
        raw = self.section(data, key, "")
        for entry_id, body in raw.items():
            field = join(key.name, entry_id)
            if not isinstance(entry_id, str) or not DECK_ID.match(entry_id):
                self.found(codes.BAD_ID, raw.key_where[entry_id], field, what=f"a {what} id", more="")
                continue
            body = self.mapping(body, raw.value_where[entry_id], field)
            if body is not None:
                yield entry_id, body, field, raw.key_where[entry_id]

    def keys(self, data: Map, field: str, section: Section, also: tuple[str, ...] = (), texts: tuple[str, ...] = (),
             owner: str = "") -> dict:
        """Every key of `data` is one of the section's (or of `also`), and every key it requires is there.

        The translations (`<key>:<lang>`) of its text keys (and of `texts`) are checked and taken out of `data`;
        in the language being read, each replaces its key's value, and the identity keys' (a card's title, which
        deck lists and figures name) are returned instead. Reading the source language of a game of several, each
        text without a translation is a missing-translation warning, naming `owner` (default: the field)."""
        allowed = section.names + also
        translated = section.translated + texts
        chosen, given = {}, {}  # the translations in the language read; the languages each text is given in
        for key in list(data):
            split = translation_of(key)
            if split is not None and split[0] in allowed:
                name, language = split
                value = self._translation(data, key, name, language, join(field, key), name in translated)
                if _given(value):
                    given.setdefault(name, set()).add(language)
                    if language == self.language:
                        chosen[name] = value
                continue
            if key not in allowed:
                suffix = did_you_mean(key, allowed, f" (expected one of: {', '.join(allowed)})")
                self.error(data.key_where[key], join(field, key),
                           codes.UNKNOWN_KEY.message(what="key", name=key, hint=suffix), codes.UNKNOWN_KEY.name)
        for key in section.required:
            if key not in data:
                self.error(data.where, field, f"missing required key '{key}'", "missing-key")
        if self.language is None and self.languages[1:]:
            self._missing(data, field, translated, owner or field or "the game", given)
        for name, value in chosen.items():
            if name not in section.identity:
                data[name] = value
        return {name: value for name, value in chosen.items() if name in section.identity}

    def free(self, data: Map, field: str, texts: Iterable[str] = (), owner: str = "") -> None:
        """A mapping of free keys (a deck's style:, a table's row) with its translations (`<key>:<lang>`) read as
        keys() reads a section's: each key that has one is a text, and so is each of `texts` (a table's columns
        translated in any of its rows), which then needs one in every language of the game's."""
        plain = tuple(key for key in data if translation_of(key) is None)
        translated = set(texts) | {split[0] for split in map(translation_of, data) if split is not None}
        self.keys(data, field, FREE_KEYS, also=plain, texts=tuple(sorted(translated, key=str)), owner=owner)

    def _translation(self, data: Map, key: str, name: str, language: str, field: str, translatable: bool):
        """A translation taken out of `data`: its value when it is one of a text into a language of the game's
        (its place then that of the key's value, should it be read), else None, with the problem kept."""
        where, value = data.key_where[key], data.pop(key)
        value_where = data.value_where.pop(key, where)
        if language not in self.languages[1:]:
            hint = (f" ('{language}' is the source language: its text is under '{name}')"
                    if self.languages[:1] == (language,) else
                    did_you_mean(language, self.languages[1:],
                                 f" (the game's languages: {', '.join(self.languages)})" if self.languages else
                                 " (the game declares no languages:)"))
            self.findings.append(Finding.of(codes.UNKNOWN_LANGUAGE, where, field, lang=language, hint=hint))
            return None
        if not translatable:
            self.findings.append(Finding.of(codes.NOT_TRANSLATABLE, where, field, key=name))
            return None
        if language == self.language and _given(value):
            data.value_where[name] = value_where
        return value

    def _missing(self, data: Map, field: str, translated: tuple[str, ...], owner: str,
                 given: dict[str, set[str]]) -> None:
        """A missing-translation warning for each text of `data` not `given` in a language of the game's."""
        for name in translated:
            if name in data and _given(data[name]):
                for language in self.languages[1:]:
                    if language not in given.get(name, ()):
                        self.findings.append(Finding.of(codes.MISSING_TRANSLATION, at(data, name), join(field, name),
                                                        language=language_name(language), key=name, owner=owner))

    def value(self, data: Map, key: Key, field: str, default=_WRITTEN):
        """The value of `key` in `data` read by its kind. The default (the key's own, unless given) when the key
        is absent, when it is written as its default (null, where the default is nothing), and after a problem,
        which is kept as a finding."""
        if default is _WRITTEN:
            written, default = key.default, key.fallback
        else:
            written = default
        value = data.get(key.name, written)
        if value is written:
            return default
        try:
            return key.kind.coerce(value, key)
        except MusterError as problem:
            self.keep(problem, at(data, key.name), join(field, key.name))
            return default


def _given(value) -> bool:
    """Whether a text is there: not nothing, not empty (an empty cell of a sheet is no translation)."""
    return value is not None and value != ""
