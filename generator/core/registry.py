"""Registries: tables whose every entry is declared once, keyed by a name (an element kind) or a type (a display
item's), so that a second declaration is a mistake found on import, never a silent replacement (WeasyPrint's
registry of CSS properties is the model)."""

from __future__ import annotations


class Registry(dict):
    """A dict that takes each key once; `what` names its entries in the error of a second declaration."""

    def __init__(self, what: str):
        super().__init__()
        self.what = what

    def __setitem__(self, key, value) -> None:
        if key in self:
            raise ValueError(f"{self.what} {getattr(key, '__name__', key)!r} is declared twice")
        super().__setitem__(key, value)

    def register(self, key):
        """A decorator that enters the function it decorates under `key`, and leaves the function as it is (so
        that one function may be entered under several keys)."""
        def enter(function):
            self[key] = function
            return function
        return enter
