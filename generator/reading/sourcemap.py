"""Safe YAML loading that remembers where every value came from and refuses duplicate keys."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import yaml

from ..core import codes
from ..core.errors import Location, MusterError
from ..core.inputs import YAML, read_bytes

try:  # the C loader is several times faster; the pure one behaves the same
    _Base = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _Base = yaml.SafeLoader

MAX_ALIASES = 100
MAX_DEPTH = 64          # mappings and lists inside each other; a game's files need fewer than ten
MAX_NUMBER_CHARS = 100  # a number written longer is a mistake, and Python refuses integers of 4,300 digits


class Map(dict):
    """A mapping that knows the location of itself, of each key and of each value (none when made in code)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.where: Location | None = None
        self.key_where: dict = {}
        self.value_where: dict = {}

    def copy(self) -> Map:
        """A mapping of its own with the same items at the same places."""
        copy = Map(self)
        copy.where, copy.key_where, copy.value_where = self.where, dict(self.key_where), dict(self.value_where)
        return copy


class Seq(list):
    """A sequence that knows the location of itself, of each item and of its end (none when made in code): the end
    of a list in block style is where what follows it begins (reading/rereading.py reads its items one by one)."""

    def __init__(self, *args):
        super().__init__(*args)
        self.where: Location | None = None
        self.item_where: list = []
        self.end: Location | None = None


_STR, _MAP, _SEQ, _MERGE = ("tag:yaml.org,2002:str", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq",
                            "tag:yaml.org,2002:merge")
_NUMBERS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")
_BUILDING = object()


class _Builder:
    """Builds Map, Seq and scalars straight from libyaml's parsing events, noting every location.

    PyYAML composes a tree of nodes for the whole file first and then walks it with a generic constructor; for a
    big deck the tree was most of the memory of loading and the walk most of its time. Here each value is made as
    its events arrive. Strings are taken as they are, other scalars by PyYAML's safe constructors, merge keys
    (<<) as YAML 1.1 defines them; aliases are counted, and one inside its own anchor is refused. Nesting is
    counted too: the builder recurses once a level, and Python stops at a thousand.
    """

    def __init__(self, loader, path: Path, line: int = 0, depth: int = 0):
        self.loader = loader
        self.path = path
        self.line = line + 1  # the text's first line is this line of the file (a part of it read alone)
        self.anchors: dict = {}
        self.aliases = 0
        self.anchored = False  # whether an anchor or an alias was met: a part of the text then depends on another
        self.depth = depth
        self.constructors = loader.yaml_constructors
        self.resolved: dict[str, str] = {}  # the tag of each plain scalar met, by its text

    def at(self, event) -> Location:
        return Location(self.path, event.start_mark.line + self.line, event.start_mark.column + 1)

    def document(self):
        """The one document of the stream, or None for an empty one."""
        loader = self.loader
        loader.get_event()  # the stream's start
        if loader.check_event(yaml.StreamEndEvent):
            return None
        loader.get_event()  # the document's start
        value = self.value(loader.get_event())
        loader.get_event()  # the document's end
        if not loader.check_event(yaml.StreamEndEvent):
            raise MusterError.of(codes.YAML_SYNTAX, self.at(loader.get_event()),
                                 problem="expected one YAML document, found another")
        return value

    def value(self, event):
        kind = type(event)
        if event.anchor is not None:
            self.anchored = True
        if kind is yaml.ScalarEvent:
            tag = event.tag
            if tag is None or tag == "!":
                tag = self._resolved(event)
            value = event.value if tag == _STR else self._scalar(event, tag)
        elif kind is yaml.AliasEvent:
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise MusterError(f"more than {MAX_ALIASES} aliases: refused", self.at(event), code="too-large")
            if event.anchor not in self.anchors:
                raise MusterError.of(codes.YAML_SYNTAX, self.at(event), problem=f"alias *{event.anchor} has no anchor "
                                     "before it")
            value = self.anchors[event.anchor]
            if value is _BUILDING:
                raise MusterError("an alias refers to a node that contains it: refused", self.at(event),
                                  code="unsupported-yaml")
            return value
        else:
            tag = event.tag
            if kind is yaml.MappingStartEvent and (tag is None or tag == "!" or tag == _MAP):
                build = self._mapping
            elif kind is yaml.SequenceStartEvent and (tag is None or tag == "!" or tag == _SEQ):
                build = self._sequence
            else:
                raise MusterError(f"unsupported YAML tag {tag}", self.at(event), code="unsupported-yaml")
            if event.anchor is not None:
                self.anchors[event.anchor] = _BUILDING
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise MusterError.of(codes.TOO_DEEP, self.at(event), most=MAX_DEPTH)
            value = build(event)
            self.depth -= 1
        if event.anchor is not None:
            self.anchors[event.anchor] = value
        return value

    def _resolved(self, event) -> str:
        """The tag of a scalar written without one, as PyYAML's resolver gives it: a string when quoted, else by the
        patterns of YAML 1.1 (numbers, booleans, null...), each plain text matched once per file: a deck's keys and
        small numbers recur on every card."""
        if not event.implicit[0]:  # quoted: the resolver's patterns are for plain scalars only
            return _STR
        tag = self.resolved.get(event.value)
        if tag is None:
            tag = self.resolved[event.value] = self.loader.resolve(yaml.ScalarNode, event.value, event.implicit)
        return tag

    def _scalar(self, event, tag: str):
        """A scalar that is not a string, made by PyYAML's safe constructor for its tag."""
        if tag in _NUMBERS and len(event.value) > MAX_NUMBER_CHARS:
            raise MusterError(f"a number of {len(event.value):,} characters; the limit is {MAX_NUMBER_CHARS}",
                              self.at(event), code="too-large")
        node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)
        try:
            return self.constructors.get(tag, self.constructors[None])(self.loader, node)
        except (ValueError, OverflowError) as exc:  # a date such as 2024-13-45, which matches the pattern
            raise MusterError(f"cannot read {event.value!r}: {exc}", self.at(event), code="bad-value") from None

    def _sequence(self, start) -> Seq:
        loader = self.loader
        result, where = Seq(), []
        while not loader.check_event(yaml.SequenceEndEvent):
            event = loader.get_event()
            where.append(self.at(event))
            result.append(self.value(event))
        result.where, result.item_where, result.end = self.at(start), where, self.at(loader.get_event())
        return result

    def _mapping(self, start) -> Map:
        loader = self.loader
        result = Map()
        result.where = self.at(start)
        key_where, value_where = result.key_where, result.value_where
        merged = []
        while not loader.check_event(yaml.MappingEndEvent):
            key_event = loader.get_event()
            if (type(key_event) is yaml.ScalarEvent and key_event.tag is None and key_event.value == "<<"
                    and key_event.implicit[0]):
                merged.append((self.at(key_event), self.value(loader.get_event())))
                continue
            key = self.value(key_event)
            if not isinstance(key, (str, int, float, bool)) or key is None:
                raise MusterError(f"a key must be a plain word, got {key!r}", self.at(key_event),
                                  code="unsupported-yaml")
            if key in result:
                raise MusterError.of(codes.DUPLICATE_KEY, self.at(key_event), what="key", key=key,
                                     first=f"line {key_where[key].line}")
            value_event = loader.get_event()
            result[key] = self.value(value_event)
            key_where[key] = self.at(key_event)
            value_where[key] = self.at(value_event)
        loader.get_event()
        for where, value in merged:  # the mapping's own keys win over merged ones, the first merged over later
            for source in (value if isinstance(value, Seq) else [value]):
                if not isinstance(source, Map):
                    raise MusterError.of(codes.YAML_SYNTAX, where, problem="<< merges a mapping or a list of mappings")
                for key, item in source.items():
                    if key not in result:
                        result[key] = item
                        key_where[key], value_where[key] = source.key_where[key], source.value_where[key]
        return result


def load_yaml(path: Path):
    """The document in `path` as Map/Seq/scalars; any problem is a MusterError naming file and line."""
    path = Path(path)
    return parse_yaml(yaml_text(path), path).value


def yaml_text(path: Path) -> str:
    """The text of the YAML file `path`, read within its limits; a MusterError when it cannot be."""
    try:
        return read_bytes(path, YAML).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MusterError.of(codes.BAD_ENCODING, Location(path), byte=exc.start) from None


class Parsed(NamedTuple):
    """A YAML document read: its value, and whether it holds an anchor or an alias."""

    value: Any
    anchored: bool


def parse_yaml(text: str, path: Path, line: int = 0, depth: int = 0) -> Parsed:
    """The document `text` as Map/Seq/scalars, placed in `path` as if it began at its line `line` (from 0) inside
    `depth` levels of nesting; any problem is a MusterError naming file and line."""
    loader = _Base(text)
    try:
        builder = _Builder(loader, path, line, depth)
        return Parsed(builder.document(), builder.anchored)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = Location(path, mark.line + line + 1, mark.column + 1) if mark else Location(path)
        opened = ""
        if exc.problem and exc.context and exc.context_mark and exc.context_mark is not mark:
            construct = exc.context.removeprefix("while parsing ").removeprefix("while scanning ")
            opened = (f" (inside {construct} opened at line {exc.context_mark.line + line + 1}, column "
                      f"{exc.context_mark.column + 1})")
        problem = exc.problem or exc.context
        if mark and text[mark.index:mark.index + 1] == "\t":  # PyYAML: "found character '\t' that cannot start ..."
            problem, opened = "a tab, which YAML does not allow here: indent and separate with spaces", ""
        raise MusterError.of(codes.YAML_SYNTAX, where, problem=f"{problem}{opened}") from None
    except yaml.YAMLError as exc:
        raise MusterError.of(codes.YAML_SYNTAX, Location(path), problem=exc) from None
    finally:
        loader.dispose()
