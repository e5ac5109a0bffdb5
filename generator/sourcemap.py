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


class _Loader(_Base):
    path: Path = Path("<string>")
    aliases = 0

    def at(self, node) -> Location:
        return Location(self.path, node.start_mark.line + 1, node.start_mark.column + 1)

    def construct_object(self, node, deep=False):
        if node in self.constructed_objects or node in self.recursive_objects:
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise MusterError(f"more than {MAX_ALIASES} aliases: refused", self.at(node))
        return super().construct_object(node, deep=deep)


def _mapping(loader: _Loader, node) -> Map:
    loader.flatten_mapping(node)
    result = Map()
    result.where, result.key_where, result.value_where = loader.at(node), {}, {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, (str, int, float, bool)) or key is None:
            raise MusterError(f"a key must be a plain word, got {key!r}", loader.at(key_node))
        if key in result:
            raise MusterError(
                f"duplicate key '{key}' (first at line {result.key_where[key].line})", loader.at(key_node)
            )
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_where[key] = loader.at(key_node)
        result.value_where[key] = loader.at(value_node)
    return result


def _sequence(loader: _Loader, node) -> Seq:
    result = Seq(loader.construct_object(item, deep=True) for item in node.value)
    result.where = loader.at(node)
    result.item_where = [loader.at(item) for item in node.value]
    return result


_Loader.add_constructor("tag:yaml.org,2002:map", _mapping)
_Loader.add_constructor("tag:yaml.org,2002:seq", _sequence)


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
    loader = _Loader(text)
    loader.path = path
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = Location(path, mark.line + 1, mark.column + 1) if mark else Location(path)
        raise MusterError(f"YAML syntax: {exc.problem or exc.context}", where) from None
    except yaml.YAMLError as exc:
        raise MusterError(f"YAML: {exc}", Location(path)) from None
    finally:
        loader.dispose()
