"""Modules reportlab imports as it is imported, loaded only when first used: Pillow's Image (reportlab.lib.utils
imports it for bitmaps) and HarfBuzz (reportlab.pdfbase.ttfonts, for shaping), some 10 ms of every start that a
game without images, or without text in a script that needs shaping, never uses.

`defer` puts a stand-in for each in sys.modules before reportlab is imported (core/__init__.py calls it). The
import system and reportlab's own tests (`if not uharfbuzz`) see a module, so reportlab behaves as if it were
there; the first attribute asked of the stand-in imports the real module, which then replaces it in sys.modules,
and answers every later question the stand-in is asked.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import threading
import types

DEFERRED = ("PIL.Image", "uharfbuzz")

_loading = threading.Lock()  # the preview's server threads may ask a stand-in at once


class _StandIn(types.ModuleType):
    """A module not imported yet: its attributes are the real module's, imported at the first one asked."""

    def __getattr__(self, attribute: str):  # called only for what the stand-in itself lacks: all but its name and spec
        return getattr(self._real(), attribute)

    def __setattr__(self, attribute: str, value) -> None:  # a setting made through it reaches the real module
        setattr(self._real(), attribute, value)

    def _real(self) -> types.ModuleType:
        with _loading:  # the stand-in taken out once; a thread that comes second waits for the first one's import
            if sys.modules.get(self.__name__) is self:
                del sys.modules[self.__name__]
        return importlib.import_module(self.__name__)


def defer() -> None:
    """A stand-in for each module of DEFERRED that is installed and not imported yet."""
    for name in DEFERRED:
        if name in sys.modules:
            continue
        spec = importlib.util.find_spec(name)  # None when not installed: reportlab then does without it, as ever
        if spec is None:
            continue
        stand_in = _StandIn(name)
        vars(stand_in)["__spec__"] = spec
        sys.modules[name] = stand_in
        parent, _, child = name.rpartition(".")
        if parent:
            setattr(sys.modules[parent], child, stand_in)


def loaded(name: str) -> bool:
    """Whether the module `name` has really been imported (not only stood in for)."""
    return name in sys.modules and not isinstance(sys.modules[name], _StandIn)
