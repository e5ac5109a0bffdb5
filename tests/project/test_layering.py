"""The packages import one way: each only those before it in the stages' order, and the drawing side nothing
that reads or lays out a game, which the drawing process of a two-process build shows by never loading them."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

PACKAGE = REPO / "generator"

# The order of the packages: each may import only packages before it. The drawing side (imposition, rendering)
# may import only core and each other: the process that draws a big game never loads YAML or Jinja.
ORDER = ["core", "reading", "layout", "checking", "imposition", "rendering", "building", "formats", "preview", "cli"]
DRAWING = {"imposition", "rendering"}


def allowed(importer: str, imported: str) -> bool:
    if importer in DRAWING:
        return imported == "core" or imported in DRAWING and ORDER.index(imported) < ORDER.index(importer)
    return ORDER.index(imported) < ORDER.index(importer)


def imported_packages(path: Path) -> dict[str, list[str]]:
    """The other packages of generator/ that a module imports, anywhere in it (at the top, in functions, for
    type checking only), each with the lines that import it."""
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    module = ["generator", *parts[:-1]] if parts[-1] == "__init__" else ["generator", *parts]
    package = ["generator", *parts[:-1]]  # what a relative import of level 1 starts from
    found: dict[str, list[str]] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name.split(".") for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            base += node.module.split(".") if node.module else []
            names = [base] if node.module else [base + [alias.name] for alias in node.names]
        else:
            continue
        for name in names:
            if name[0] == "generator" and len(name) > 1 and (PACKAGE / name[1]).is_dir() and name[1] != module[1]:
                found.setdefault(name[1], []).append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    return found


def package_graph() -> dict[tuple[str, str], list[str]]:
    """(importer, imported) for every import between packages, with where it is."""
    edges: dict[tuple[str, str], list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).parts
        if len(parts) > 1:  # generator/__init__.py and __main__.py are no package's
            for imported, lines in imported_packages(path).items():
                edges.setdefault((parts[0], imported), []).extend(lines)
    return edges


def test_every_package_is_in_the_order():
    packages = {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    assert packages == set(ORDER) and DRAWING <= packages


def test_packages_import_only_those_before_them():
    edges = package_graph()
    wrong = {edge: lines for edge, lines in edges.items() if not allowed(*edge)}
    assert not wrong, "\n".join(f"{a} imports {b}: {', '.join(lines)}" for (a, b), lines in wrong.items())


def test_no_import_cycles_between_packages():
    graph: dict[str, set[str]] = {}
    for importer, imported in package_graph():
        graph.setdefault(importer, set()).add(imported)
    done: set[str] = set()

    def visit(package: str, path: list[str]) -> None:
        assert package not in path, "import cycle: " + " -> ".join(path[path.index(package):] + [package])
        if package not in done:
            for imported in sorted(graph.get(package, ())):
                visit(imported, path + [package])
            done.add(package)

    for package in sorted(graph):
        visit(package, [])


def test_the_checks_see_imports_inside_functions_and_relative_ones(tmp_path, monkeypatch):
    folder = tmp_path / "generator"
    (folder / "rendering").mkdir(parents=True)
    for name in ("core", "reading", "layout"):
        (folder / name).mkdir()
    module = folder / "rendering" / "page.py"
    module.write_text("from ..core import units\nfrom . import render\n\ndef draw():\n"
                      "    from ..reading.sourcemap import load_yaml\n    import generator.layout.sandbox\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", folder)
    assert imported_packages(module) == {"core": ["generator/rendering/page.py:1"],
                                         "reading": ["generator/rendering/page.py:5"],
                                         "layout": ["generator/rendering/page.py:6"]}
    assert [allowed("rendering", name) for name in ("core", "reading", "layout")] == [True, False, False]


DRAWING_PROCESS = """
import json, sys
from pathlib import Path
from generator.building import kit
from generator.core.options import Options

outcome = kit.build_one("europe-1939", Path(sys.argv[1]), Options(booklet=True), parallel=True)
print(json.dumps({"code": outcome.code, "errors": outcome.errors, "modules": sorted(sys.modules)}))
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="two-process builds need fork")
def test_the_drawing_process_loads_neither_yaml_nor_jinja(tmp_path):
    """Europe (cards, tokens, a mat, a rulebook and its booklet) built in two processes, in a fresh interpreter:
    the process that drew it has loaded nothing that reads or lays out a game."""
    run = subprocess.run([sys.executable, "-c", DRAWING_PROCESS, str(tmp_path)], capture_output=True, text=True,
                         check=True)
    report = json.loads(run.stdout.splitlines()[-1])
    assert report["code"] == 0, report["errors"]
    assert {"rules.pdf", "rules-booklet.pdf", "tokens.pdf"} <= {p.name for p in (tmp_path / "europe-1939").iterdir()}
    loaded = set(report["modules"])
    assert sorted(loaded & {"yaml", "jinja2", "markdown_it"}) == []
    reading = ("generator.layout", "generator.checking", "generator.reading.sourcemap", "generator.reading.loading")
    assert [name for name in loaded if name.startswith(reading)] == []
