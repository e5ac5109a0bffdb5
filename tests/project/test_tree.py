"""The package reads as a table of contents: one sub-package per stage, each saying what it takes and gives,
no module or class too long to read in one sitting."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import REPO

PACKAGE = REPO / "generator"
MODULES = sorted(p for p in PACKAGE.rglob("*.py") if "templates" not in p.parts)
MAX_MODULE_LINES = 450
MAX_CLASS_LINES = 250
STAGES = ("core", "reading", "checking", "layout", "imposition", "rendering", "building", "formats", "preview", "cli")


def _name(path: Path) -> str:
    return path.relative_to(PACKAGE.parent).as_posix()


def test_the_package_is_its_stages():
    packages = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())
    assert packages == sorted(STAGES)
    loose = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert loose == ["__init__.py", "__main__.py"]


@pytest.mark.parametrize("stage", STAGES)
def test_each_stage_says_what_it_takes_and_gives(stage):
    doc = ast.get_docstring(ast.parse((PACKAGE / stage / "__init__.py").read_text(encoding="utf-8")))
    assert doc and len(doc.split()) >= 12, f"{stage}/__init__.py needs a docstring saying what it takes and gives"


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_modules_are_short_and_say_what_they_own(path):
    text = path.read_text(encoding="utf-8")
    assert text.count("\n") <= MAX_MODULE_LINES, f"{_name(path)}: {text.count(chr(10))} lines"
    tree = ast.parse(text)
    if path.name != "__main__.py":
        assert ast.get_docstring(tree), f"{_name(path)} has no docstring"
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            length = node.end_lineno - node.lineno + 1
            assert length <= MAX_CLASS_LINES, f"{_name(path)}: class {node.name} is {length} lines"
            assert node.name.startswith("_") or ast.get_docstring(node), f"{_name(path)}: class {node.name} says nothing"


def test_no_two_letter_aliases_for_units():
    for path in MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        assert len(target.id) > 2, f"{_name(path)}: {target.id} = {node.value.id}"
