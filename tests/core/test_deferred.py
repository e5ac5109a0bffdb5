"""Modules deferred to their first use (core/deferred.py): a stand-in that the import system takes as the module,
that imports the real one at the first attribute asked of it, and passes on what is set through it; none for a
module that is not installed, whose import fails as it would have."""

from __future__ import annotations

import importlib
import sys

import pytest

from generator.core import deferred

PROBE = "muster_deferred_probe"


@pytest.fixture
def probe(tmp_path, monkeypatch):
    """A module of the test's own, deferred."""
    (tmp_path / f"{PROBE}.py").write_text("VALUE = 1\nIMPORTS = [1]\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(deferred, "DEFERRED", (PROBE,))
    deferred.defer()
    yield sys.modules[PROBE]
    sys.modules.pop(PROBE, None)


def test_a_stand_in_imports_its_module_at_the_first_attribute_asked(probe):
    module = importlib.import_module(PROBE)  # as reportlab's own `import uharfbuzz` takes it
    assert module is probe and not deferred.loaded(PROBE)
    assert bool(module) and module.__name__ == PROBE and not deferred.loaded(PROBE)
    assert module.VALUE == 1 and deferred.loaded(PROBE)
    real = sys.modules[PROBE]
    assert real is not probe and real.IMPORTS is module.IMPORTS
    module.VALUE = 2
    assert real.VALUE == 2 and module.VALUE == 2
    assert importlib.import_module(PROBE) is real


def test_a_module_not_installed_has_no_stand_in(monkeypatch):
    monkeypatch.setattr(deferred, "DEFERRED", ("muster_no_such_module",))
    deferred.defer()
    assert "muster_no_such_module" not in sys.modules
    with pytest.raises(ImportError):
        importlib.import_module("muster_no_such_module")
