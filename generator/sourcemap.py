"""Safe YAML loading that remembers where every value came from and refuses duplicate keys."""

from __future__ import annotations

from pathlib import Path

import yaml

from .errors import Location, MusterError

try:  # the C loader is several times faster; the pure one behaves the same
    _Base = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _Base = yaml.SafeLoader

MAX_YAML_BYTES = 4 * 1024 * 1024
MAX_ALIASES = 100


class Map(dict):
    """A mapping that knows the location of itself, of each key and of each value (none when made in code)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.where: Location | None = None
        self.key_where: dict = {}
        self.value_where: dict = {}


class Seq(list):
    """A sequence that knows the location of itself and of each item (none when made in code)."""

    def __init__(self, *args):
        super().__init__(*args)
        self.where: Location | None = None
        self.item_where: list = []


_STR, _MAP, _SEQ = "tag:yaml.org,2002:str", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
_BUILDING = object()


class _Builder:
    """Builds Map, Seq and scalars from the nodes the C parser composed, noting every location.

    PyYAML's own constructor is generic (generators, deep construction, a state per node) and was most of the
    time of loading a big deck; this walk does only what a game file needs. Scalars other than strings, and
    merge keys, are left to PyYAML's safe constructors; aliases are counted, and one that refers to a node
    containing it is refused.
    """

    def __init__(self, loader, path: Path):
        self.loader = loader
        self.path = path
        self.built: dict = {}
        self.aliases = 0
        self.constructors = loader.yaml_constructors

    def at(self, node) -> Location:
        return Location(self.path, node.start_mark.line + 1, node.start_mark.column + 1)

    def build(self, node):
        value = self.built.get(node, self)
        if value is not self:
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise MusterError(f"more than {MAX_ALIASES} aliases: refused", self.at(node))
            if value is _BUILDING:
                raise MusterError("an alias refers to a node that contains it: refused", self.at(node))
            return value
        kind = type(node)
        if kind is yaml.ScalarNode:
            value = node.value if node.tag == _STR else self.constructors.get(node.tag, self.constructors[None])(
                self.loader, node)
        elif kind is yaml.MappingNode and node.tag == _MAP:
            self.built[node] = _BUILDING
            value = self._mapping(node)
        elif kind is yaml.SequenceNode and node.tag == _SEQ:
            self.built[node] = _BUILDING
            value = Seq([self.build(item) for item in node.value])
            value.where = self.at(node)
            value.item_where = [self.at(item) for item in node.value]
        else:
            raise MusterError(f"unsupported YAML tag {node.tag}", self.at(node))
        self.built[node] = value
        return value

    def _mapping(self, node) -> Map:
        self.loader.flatten_mapping(node)
        result = Map()
        result.where = self.at(node)
        key_where, value_where = result.key_where, result.value_where
        for key_node, value_node in node.value:
            key = self.build(key_node)
            if not isinstance(key, (str, int, float, bool)) or key is None:
                raise MusterError(f"a key must be a plain word, got {key!r}", self.at(key_node))
            if key in result:
                raise MusterError(f"duplicate key '{key}' (first at line {key_where[key].line})", self.at(key_node))
            result[key] = self.build(value_node)
            key_where[key] = self.at(key_node)
            value_where[key] = self.at(value_node)
        return result


def load_yaml(path: Path):
    """The document in `path` as Map/Seq/scalars; any problem is a MusterError naming file and line."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_YAML_BYTES:
            raise MusterError(f"file is {size} bytes; the limit is {MAX_YAML_BYTES}", Location(path))
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise MusterError("file not found", Location(path)) from None
    except IsADirectoryError:
        raise MusterError("expected a file, found a folder", Location(path)) from None
    except UnicodeDecodeError as exc:
        raise MusterError(f"not UTF-8 text (byte {exc.start})", Location(path)) from None
    except OSError as exc:
        raise MusterError(f"cannot read: {exc.strerror}", Location(path)) from None
    loader = _Base(text)
    try:
        node = loader.get_single_node()
        return None if node is None else _Builder(loader, path).build(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = Location(path, mark.line + 1, mark.column + 1) if mark else Location(path)
        raise MusterError(f"YAML syntax: {exc.problem or exc.context}", where) from None
    except yaml.YAMLError as exc:
        raise MusterError(f"YAML: {exc}", Location(path)) from None
    finally:
        loader.dispose()
