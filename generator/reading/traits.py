"""Vocabularies and traits from game.yaml, and a card's value parsed as its trait's kind wants it."""

from __future__ import annotations

from typing import Any

from ..core.codes import MISSING_TRANSLATION, UNKNOWN_CODE
from ..core.errors import Finding, MusterError, did_you_mean
from ..core.model import TRAIT_KINDS, Term, Trait, Vocabulary, frozen
from .kinds import BOOLEAN, NAME, NUMBER, TEXT, YEAR_FROM, describe
from .reader import Reader, at, join, known
from .sourcemap import Map
from .spec import GAME, RESERVED_CARD_KEYS, TERM, TRAIT, VOCABULARY
from .words import language_name


def read_vocabularies(reader: Reader, data: Map) -> dict[str, Vocabulary]:
    result = {}
    for name, body, field in reader.named(data, GAME["vocabularies"]):
        if "values" in body:
            reader.keys(body, field, VOCABULARY)
            values = reader.mapping(body["values"], at(body, "values"), join(field, "values")) or Map()
            aliases_raw = reader.section(body, VOCABULARY["aliases"], field)
            values_field = join(field, "values")
        else:
            values, aliases_raw, values_field = body, Map(), field
        terms = {}
        for code, term in values.items():
            code = str(code)
            term_field = join(values_field, code)
            if isinstance(term, str):
                terms[code] = Term(code, term, term)
                _plain_name(reader, values.value_where[code], term_field, code, term)
            elif isinstance(term, Map):
                reader.keys(term, term_field, TERM)
                name_text = reader.value(term, TERM["name"], term_field, default=code)
                extra = {k: v for k, v in term.items() if k not in ("name", "short", "icon")}
                terms[code] = Term(code, name_text, reader.value(term, TERM["short"], term_field, default=name_text),
                                   term.get("icon"), frozen(extra))
            else:
                reader.error(values.value_where[code], term_field,
                             f"expected a name or a mapping, got {describe(term)}", "wrong-type")
        aliases = {}
        for alias, codes in aliases_raw.items():
            codes_list = [str(c) for c in codes] if isinstance(codes, list) else None
            unknown = [c for c in codes_list or () if c not in terms]
            if codes_list is None or unknown:
                listed = f"; unknown: {', '.join(unknown)}" if unknown else ""
                reader.error(aliases_raw.value_where[alias], join(join(field, "aliases"), alias),
                             f"expected a list of codes of {name}{listed}", "unknown-code" if unknown else "wrong-type")
                continue
            aliases[str(alias)] = tuple(codes_list)
        result[str(name)] = Vocabulary(str(name), frozen(terms), frozen(aliases))
    return result


def _plain_name(reader: Reader, where, field: str, code: str, name: str) -> None:
    """A term written as a plain name (`E: East Front`) has no place for a translation: reading the source language
    of a game of several, a missing-translation warning for each other language, saying how to give one."""
    if reader.language is not None:
        return
    for language in reader.languages[1:]:
        reader.findings.append(Finding.of(
            MISSING_TRANSLATION, where, field, language=language_name(language), key="name",
            owner=f"term '{code}' (a plain name: write it as {{name: {name}, name:{language}: ...}} to translate it)"))


def read_traits(reader: Reader, data: Map, vocabularies: dict) -> dict[str, Trait]:
    raw = reader.section(data, GAME["traits"], "")
    result = {}
    for name, body in raw.items():
        field = join("traits", name)
        if name in RESERVED_CARD_KEYS or not isinstance(name, str) or not NAME.match(name):
            reader.error(raw.key_where[name], field,
                         f"'{name}' cannot be a trait name (reserved, or not lower case with _)", "bad-name")
            continue
        body = reader.mapping(body, raw.value_where[name], field)
        if body is None:
            continue
        reader.keys(body, field, TRAIT)
        kind = body.get("kind")
        if kind not in TRAIT_KINDS:
            reader.error(at(body, "kind"), join(field, "kind"),
                         f"expected one of: {', '.join(TRAIT_KINDS)}, got {kind!r}", "bad-choice")
            continue
        vocabulary = body.get("vocabulary")
        if kind in ("code", "codes"):
            if not known(vocabulary, vocabularies):
                reader.error(at(body, "vocabulary"), join(field, "vocabulary"),
                             f"unknown vocabulary {vocabulary!r}{did_you_mean(vocabulary, vocabularies)}",
                             "unknown-vocabulary")
                continue
        elif vocabulary is not None:
            reader.error(at(body, "vocabulary"), join(field, "vocabulary"), f"a {kind} trait has no vocabulary",
                         "key-conflict")
        minimum = reader.value(body, TRAIT["min"], field)
        maximum = reader.value(body, TRAIT["max"], field)
        also = reader.value(body, TRAIT["also"], field)
        result[name] = Trait(
            name=name, kind=kind,
            label=reader.value(body, TRAIT["label"], field, default=name.replace("_", " ").capitalize()),
            vocabulary=vocabulary, minimum=minimum, maximum=maximum, also=also,
            description=reader.value(body, TRAIT["description"], field),
        )
    return result


def parse_trait(trait: Trait, value: Any, vocabularies: dict) -> Any:
    """The card's value as the trait's kind wants it; a MusterError (with its code) saying what was expected."""
    kind = trait.kind
    if kind == "text":
        return TEXT.read(value)
    if kind == "boolean":
        return BOOLEAN.read(value)
    if kind in ("integer", "number"):
        if str(value) in trait.also:
            return str(value)
        numeric = (int,) if kind == "integer" else (int, float)
        if isinstance(value, bool) or not isinstance(value, numeric):
            tokens = f" or one of {', '.join(trait.also)}" if trait.also else ""
            raise MusterError(f"expected {'an integer' if kind == 'integer' else 'a number'}{tokens}, "
                              f"got {describe(value)}", code="wrong-type")
        return _bounded(trait, NUMBER.read(value))
    if kind == "year_from":
        match = YEAR_FROM.match(str(value)) if isinstance(value, (int, str)) and not isinstance(value, bool) else None
        if not match:
            raise MusterError(f"expected a year such as 1944+, got {describe(value)}", code="wrong-type")
        return _bounded(trait, int(match.group(1)))
    vocabulary: Vocabulary = vocabularies[trait.vocabulary]
    if kind == "code":
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value) in vocabulary.terms:
            return str(value)
        raise MusterError.of(UNKNOWN_CODE, trait=trait.label.lower(), got=describe(value),
                             expected=f"one of {', '.join(vocabulary.terms)}")
    return parse_codes(value, vocabulary, trait)


def parse_codes(value, vocabulary: Vocabulary, trait: Trait) -> tuple[str, ...]:
    """The codes a codes trait's value stands for, aliases expanded, in the vocabulary's order."""
    if isinstance(value, list):
        parts = [str(v) for v in value]
    elif isinstance(value, (str, int)) and not isinstance(value, bool):
        parts = vocabulary.split(str(value))
    else:
        raise MusterError(f"expected codes of {vocabulary.name}, got {describe(value)}", code="wrong-type")
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
        raise MusterError.of(UNKNOWN_CODE, trait=trait.label.lower(), got=", ".join(repr(u) for u in unknown),
                             expected=f"codes of {allowed}")
    order = list(vocabulary.terms)
    return tuple(sorted(codes, key=order.index))


def _bounded(trait: Trait, number):
    if trait.minimum is not None and number < trait.minimum or trait.maximum is not None and number > trait.maximum:
        raise MusterError(f"{number} is outside {trait.minimum}..{trait.maximum}", code="out-of-range")
    return number
