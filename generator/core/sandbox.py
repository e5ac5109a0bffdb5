"""The one Jinja environment user templates run in: immutable sandbox, strict undefined, bounded work."""

from __future__ import annotations

import re
import signal
import threading
from contextlib import contextmanager
from functools import lru_cache

from jinja2 import StrictUndefined, TemplateError
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError

from .errors import did_you_mean

MAX_RANGE = 1000
MAX_SEQUENCE = 100_000   # items or characters a * may produce
MAX_POWER = 10_000       # the largest exponent ** accepts
TIME_LIMIT = 60          # seconds one stage's templates may run in all
MAX_LISTED = 12          # keys an error about a missing key lists


class Record(dict):
    """A mapping templates read that knows what it is ("card") and what its keys are ("trait"), so that a key it
    lacks is reported in Muster's words: "card has no trait 'hands'; it has: ...", not Jinja's "'dict object' has
    no attribute 'hands'". Its own attributes start with _ (which the sandbox hides) so no key is shadowed."""

    __slots__ = ("_what", "_noun")

    def __init__(self, what: str, noun: str, values=()):
        super().__init__(values)
        self._what = what
        self._noun = noun


class Missing(StrictUndefined):
    """Strict undefined names and keys, described in the words of the Record they are missing from."""

    __slots__ = ()

    @property
    def _undefined_message(self) -> str:
        record = self._undefined_obj
        if isinstance(record, Record) and isinstance(self._undefined_name, str):
            keys = sorted(map(str, record))
            listed = ", ".join(keys[:MAX_LISTED]) + (f" and {len(keys) - MAX_LISTED} more" if len(keys) > MAX_LISTED else "")
            name = self._undefined_name
            return f"{record._what} has no {record._noun} '{name}'{did_you_mean(name, keys)}; it has: {listed or 'nothing'}"
        return super()._undefined_message


def _safe_range(*args):
    result = range(*args)
    if len(result) > MAX_RANGE:
        raise SecurityError(f"range() is limited to {MAX_RANGE} items")
    return result


class Sandbox(ImmutableSandboxedEnvironment):
    """No attribute of Python's internals, no mutation, and no operator that can eat the machine's memory."""

    intercepted_binops = frozenset(["*", "**"])

    def call_binop(self, context, operator, left, right):
        if operator == "*":
            for sequence, times in ((left, right), (right, left)):
                if isinstance(sequence, (str, list, tuple)) and isinstance(times, int) and len(sequence) * times > MAX_SEQUENCE:
                    raise SecurityError(f"a repeated sequence is limited to {MAX_SEQUENCE} items")
        if operator == "**" and isinstance(right, (int, float)) and abs(right) > MAX_POWER:
            raise SecurityError(f"exponents are limited to {MAX_POWER}")
        return super().call_binop(context, operator, left, right)


@lru_cache(maxsize=1)
def environment() -> Sandbox:
    env = Sandbox(undefined=Missing, autoescape=False, keep_trailing_newline=False, cache_size=4096)
    env.globals.update(range=_safe_range)  # keeps Jinja's other globals: dict, namespace, cycler, joiner
    return env


@lru_cache(maxsize=8192)
def compile_template(source: str):
    """A compiled template for `source`; the same string is compiled once per process."""
    return environment().from_string(source)


def may_read(source: str, name: str) -> bool:
    """Whether a template may read `name`: true whenever the word appears at all, in a string too. Parsing the
    template to know for sure would cost as much again as compiling it."""
    return re.search(rf"\b{re.escape(name)}\b", source) is not None


def is_template(value) -> bool:
    return isinstance(value, str) and ("{{" in value or "{%" in value)


def render(source: str, context: dict) -> str:
    """`source` rendered with `context`; raises TemplateError (or SecurityError) on any problem."""
    return compile_template(source).render(context)


class TimeLimit(SecurityError):
    """Templates ran longer than TIME_LIMIT seconds: a loop without a useful end."""


@contextmanager
def time_limit(seconds: float | None = None):
    """Stops templates that run too long, by an alarm; where there is none (other threads, Windows), no limit."""
    seconds = seconds or TIME_LIMIT
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise TimeLimit(f"templates ran for more than {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


__all__ = ["TemplateError", "SecurityError", "TimeLimit", "compile_template", "environment", "is_template", "may_read",
           "render", "time_limit"]
