"""The one Jinja environment user templates run in: immutable sandbox, strict undefined, bounded output."""

from __future__ import annotations

from functools import lru_cache

from jinja2 import StrictUndefined, TemplateError
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError

MAX_RANGE = 1000


def _safe_range(*args):
    result = range(*args)
    if len(result) > MAX_RANGE:
        raise SecurityError(f"range() is limited to {MAX_RANGE} items")
    return result


@lru_cache(maxsize=1)
def environment() -> ImmutableSandboxedEnvironment:
    env = ImmutableSandboxedEnvironment(
        undefined=StrictUndefined, autoescape=False, keep_trailing_newline=False, cache_size=4096
    )
    env.globals.update(range=_safe_range)  # keeps Jinja's other globals: dict, namespace, cycler, joiner
    return env


@lru_cache(maxsize=8192)
def compile_template(source: str):
    """A compiled template for `source`; the same string is compiled once per process."""
    return environment().from_string(source)


def is_template(value) -> bool:
    return isinstance(value, str) and ("{{" in value or "{%" in value)


def render(source: str, context: dict) -> str:
    """`source` rendered with `context`; raises TemplateError (or SecurityError) on any problem."""
    return compile_template(source).render(context)


__all__ = ["TemplateError", "SecurityError", "compile_template", "environment", "is_template", "render"]
