"""What one template may spend, and the checks that keep it within: the steps it takes (turns of loops, calls), the
size of every text or list it builds and of all it writes, how deeply its macros call one another, and how many
digits its numbers have.

Each check is made before the operation it guards, from the sizes of the operands (a width, a count, the lengths
of what is to be joined or printed), so that nothing over a limit is built; the result is measured again after.
The sandbox (sandbox.py) calls these from its hooks: operators, calls, filters, str.format, `~`, loops and its
output. The size of a text is its length; of a list, its number of items; printing a list prints its items, so
what is printed is weighed (`weigh`): a list of one long text repeated weighs as much as all the copies.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Collection, Mapping

from jinja2.sandbox import SecurityError
from jinja2.utils import Namespace, generate_lorem_ipsum

MAX_STEPS = 2_000_000   # per run of a template: a turn of a loop is one step, a call CALL_STEPS
CALL_STEPS = 20         # a call (of a macro, a method, a function) costs about twenty turns of a loop
MAX_SIZE = 1_000_000    # characters or items: any text or list a template builds, and all that it writes
MAX_DEPTH = 50          # macros (and recursive loops) calling one another
MAX_DIGITS = 4_000      # of a number: Python prints no more than 4,300
MAX_POWER = 10_000      # the largest exponent ** accepts
MAX_RANGE = 1_000       # items range() gives
MAX_INDENT = 16         # spaces tojson may indent by
_MAX_BITS = MAX_DIGITS * math.log2(10)
SEQUENCES = (str, bytes, list, tuple)


class TemplateBudget(SecurityError):
    """A template went over one of its limits; the message names the limit and what would have passed it."""


class _Spent(threading.local):
    """What the template running in this thread may still spend."""

    steps = MAX_STEPS
    depth = 0


spent = _Spent()


def start() -> None:
    """A template starts to run: its steps are counted afresh."""
    spent.steps = MAX_STEPS
    spent.depth = 0


def step(cost: int = 1) -> None:
    spent.steps -= cost
    if spent.steps < 0:
        raise TemplateBudget(f"over the limit of {MAX_STEPS:,} steps a template may take (a turn of a loop is one "
                             f"step, a call {CALL_STEPS})")


def counted(iterable):
    """`iterable`, one step taken per item: what every loop of a template runs over."""
    for item in iterable:
        spent.steps -= 1
        if spent.steps < 0:
            step(0)
        yield item


def need(size: int, what: str) -> None:
    """Refuses to build `what` when it would be `size` characters or items."""
    if size > MAX_SIZE:
        raise TemplateBudget(f"{what}: over the limit of {MAX_SIZE:,} characters or items a template may build "
                             f"(it would make {size:,} or more)")


def weigh(value, limit: int = MAX_SIZE) -> int:
    """About how many characters `value` takes when printed (never fewer than a tenth), counted until `limit` is
    passed: then some number over it."""
    if type(value) is str:
        return len(value)
    total, pending = 0, [value]
    while pending and total <= limit:
        value = pending.pop()
        if isinstance(value, (str, bytes)):
            total += len(value) + 2
        elif isinstance(value, int):
            total += value.bit_length() // 3 + 1
        elif isinstance(value, Mapping):
            total += 2 + 4 * len(value)
            pending.extend(value.keys())
            pending.extend(value.values())
        elif isinstance(value, Namespace):
            pending.append(value._Namespace__attrs)
        elif isinstance(value, Collection) and not hasattr(value, "_undefined_name"):  # undefined: fails to print
            total += 2 + 2 * len(value)
            pending.extend(value)
        else:
            total += 24
    return total


_SCALARS = frozenset([str, int, float, bool, type(None)])  # printed in what their size already bounds


def printable(value):
    """What a template writes, weighed before it is made text (jinja's `finalize`)."""
    if type(value) not in _SCALARS:
        need(weigh(value), "printing a value")
    return value


def concat(chunks) -> str:
    """What a template (or a macro, or a {% set %} block) wrote, joined; refused once it passes MAX_SIZE."""
    parts, size = [], 0
    for chunk in chunks:
        size += len(chunk)
        if size > MAX_SIZE:
            raise TemplateBudget(f"over the limit of {MAX_SIZE:,} characters a template may write")
        parts.append(chunk)
    return "".join(parts)


def joined(parts: tuple) -> None:
    """Checks `a ~ b ~ ...` before it is joined."""
    need(sum(weigh(part) for part in parts), "~")


def _whole(value, what: str) -> int:
    """A count or width, which must be an integer (True is not one)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what}: expected an integer, got {value!r}")
    return value


def check_operator(operator: str, left, right) -> None:
    """Checks `left OPERATOR right` (*, +, % or **) before it is computed."""
    if operator == "*":
        for sequence, times in ((left, right), (right, left)):
            if isinstance(sequence, SEQUENCES) and isinstance(times, int) and len(sequence) * times > MAX_SIZE:
                raise TemplateBudget(f"a repeated sequence is limited to {MAX_SIZE:,} items (a limit on templates)")
        if isinstance(left, int) and isinstance(right, int) and left.bit_length() + right.bit_length() > _MAX_BITS:
            raise TemplateBudget(f"numbers are limited to {MAX_DIGITS:,} digits (a limit on templates)")
    elif operator == "+":
        if isinstance(left, SEQUENCES) and isinstance(right, SEQUENCES):
            need(len(left) + len(right), "+")
    elif operator == "%":
        if isinstance(left, (str, bytes)):
            percent(left, right)
    elif operator == "**" and isinstance(right, (int, float)):
        if abs(right) > MAX_POWER:
            raise TemplateBudget(f"exponents are limited to {MAX_POWER} (a limit on templates)")
        if isinstance(left, int) and abs(left) > 1 and right > 0 and right * math.log2(abs(left)) > _MAX_BITS:
            raise TemplateBudget(f"numbers are limited to {MAX_DIGITS:,} digits (a limit on templates)")


_CONVERSION = re.compile(r"%(?:\((?P<key>[^)]*)\))?[-#0 +]*(?P<width>\*|\d+)?(?:\.(?P<precision>\*|\d+))?[hlL]?"
                         r"(?P<type>.)", re.S)


def percent(template: str | bytes, values) -> None:
    """Checks `template % values` (and the `format` filter): each conversion's width, precision and value."""
    if isinstance(template, bytes):
        template = template.decode("latin-1")
    positional = iter(values if isinstance(values, tuple) else (values,))
    size = len(template)
    for match in _CONVERSION.finditer(template):
        if match["type"] == "%":
            continue
        widths = [next(positional, 0) if part == "*" else _count(part)
                  for part in (match["width"], match["precision"]) if part]
        if match["key"] is not None and isinstance(values, Mapping):
            value = values.get(match["key"])
        else:
            value = next(positional, None)
        size += max([weigh(value, MAX_SIZE - size)] + [_whole(width, "%") for width in widths])
        need(size, "%")


_DIGITS = re.compile(r"\d+")


def _count(digits: str) -> int:
    """A width or precision written in digits (a huge one as 10**18: enough to be refused)."""
    return int(digits) if len(digits) <= 18 else 10 ** 18


def format_spec(spec: str) -> None:
    """Checks a str.format field's width and precision."""
    for digits in _DIGITS.findall(spec):
        need(_count(digits), "format()")


def _joining(separator, items, what: str) -> list:
    items = list(items)
    need(len(items), what)
    size = len(separator) * max(len(items) - 1, 0)
    for item in items:
        size += weigh(item, MAX_SIZE - size)
        need(size, what)
    return items


def _replacing(text, old, new, count) -> None:
    text, old, new = str(text), str(old), str(new)
    times = text.count(old) if old else len(text) + 1
    if isinstance(count, int) and count >= 0:
        times = min(times, count)
    need(len(text) + times * (len(new) - len(old)), "replace()")


# --- methods of text, bytes and numbers: each check takes the method's own arguments and gives None, or the
# arguments to call it with instead (a list, when it had to read an iterator to measure it) -------------------

def _widened(name, text, width, fillchar=" "):
    need(_whole(width, name), f"{name}()")


def _expanded(name, text, tabsize=8):
    tab = "\t" if isinstance(text, str) else b"\t"
    need(len(text) + text.count(tab) * _whole(tabsize, name), f"{name}()")


def _replaced(name, text, old, new, count=-1):
    _replacing(text, old, new, count)


def _joined(name, separator, items):
    return (_joining(separator, items, f"{name}()"),)


def _translated(name, text, table):
    widest = max((weigh(value) for value in (table.values() if isinstance(table, Mapping) else table)), default=1)
    need(len(text) * widest, f"{name}()")


def _as_bytes(name, number, length=1, byteorder="big", *, signed=False):
    need(_whole(length, name), f"{name}()")


METHODS = {"center": _widened, "ljust": _widened, "rjust": _widened, "zfill": _widened, "expandtabs": _expanded,
           "replace": _replaced, "join": _joined, "translate": _translated, "to_bytes": _as_bytes}


def method_arguments(method, args: tuple, kwargs: dict) -> tuple:
    """The positional arguments to call `method` with, once checked (see METHODS) when it is a method of text,
    bytes or a number."""
    owner, name = getattr(method, "__self__", None), getattr(method, "__name__", "")
    check = METHODS.get(name)
    if check is None or not isinstance(owner, (str, bytes, int)):
        return args
    return check(name, owner, *args, **kwargs) or args


def measured(result, what: str):
    """`result`, once it is known to be within MAX_SIZE."""
    if isinstance(result, (str, bytes, list, tuple, dict)):
        need(len(result), what)
    return result


# --- filters: each check takes the filter's own arguments and gives the value to filter (a list, if it had to
# read an iterator to measure it) --------------------------------------------------------------------------------

def _printed(value, *args, **kwargs):
    need(weigh(value), "the text to filter")
    return value


def _center(value, width=80):
    need(max(weigh(value), _whole(width, "width")), "center")
    return value


def _indent(value, width=4, first=False, blank=False):
    size = weigh(value)
    need(size, "indent")
    each = len(width) if isinstance(width, str) else _whole(width, "width")
    need(size + (str(value).count("\n") + 1) * each, "indent")
    return value


def _wordwrap(value, width=79, break_long_words=True, wrapstring=None, break_on_hyphens=True):
    size = weigh(value)
    need(size + (size // max(_whole(width, "width"), 1) + 1) * len(wrapstring or "\n"), "wordwrap")
    return value


def _replace(value, old, new, count=None):
    need(weigh(value), "replace")
    _replacing(value, old, new, count)
    return value


def _join(value, d="", attribute=None):
    return _joining(str(d), value, "join")


def _format(value, *args, **kwargs):
    percent(str(value), kwargs or args)
    return value


def _batch(value, linecount, fill_with=None):
    need(_whole(linecount, "batch"), "batch")
    return value


def _slice(value, slices, fill_with=None):
    need(_whole(slices, "slice"), "slice")
    return value


def _sum(value, attribute=None, start=0):
    if not isinstance(start, SEQUENCES):
        return value
    items = list(value)
    size = len(start)
    for item in items:
        part = item[attribute] if attribute is not None and isinstance(item, Mapping) and attribute in item else item
        size += len(part) if isinstance(part, SEQUENCES) else weigh(part)
        need(size, "sum")
    return items


def _tojson(value, indent=None):
    need(weigh(value), "tojson")
    if indent is not None and (len(indent) if isinstance(indent, str) else _whole(indent, "indent")) > MAX_INDENT:
        raise TemplateBudget(f"tojson: indent is limited to {MAX_INDENT} (a limit on templates)")
    return value


def _urlize(value, trim_url_limit=None, nofollow=False, target=None, rel=None, extra_schemes=None):
    size = weigh(value)
    need(size + (size // 4 + 1) * (len(str(target or "")) + len(str(rel or "")) + 64), "urlize")
    return value


FILTERS = {"center": _center, "indent": _indent, "wordwrap": _wordwrap, "replace": _replace, "join": _join,
           "format": _format, "batch": _batch, "slice": _slice, "sum": _sum, "tojson": _tojson, "urlize": _urlize,
           **{name: _printed for name in ("capitalize", "e", "escape", "forceescape", "lower", "upper", "title", "trim",
                                          "striptags", "string", "safe", "urlencode", "wordcount", "xmlattr",
                                          "pprint", "truncate", "filesizeformat", "int", "float")}}


# --- the functions templates may call besides their macros ------------------------------------------------------

def bounded_range(*args) -> range:
    result = range(*args)
    if len(result) > MAX_RANGE:
        raise TemplateBudget(f"range() is limited to {MAX_RANGE} items (a limit on templates)")
    return result


def lipsum(n=5, html=True, min=20, max=100) -> str:
    """Jinja's lorem ipsum, of at most MAX_SIZE characters (a word is at most 12 with its space)."""
    need(_whole(n, "lipsum") * _whole(max, "lipsum") * 12, "lipsum()")
    return generate_lorem_ipsum(n, html, min, max)
