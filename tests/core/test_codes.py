"""Finding codes are declared once (core/codes.py), listed by `muster validate --codes` and docs/findings.md, and
a code used in the package that the catalogue does not declare fails here (by reading the source) and wherever a
test makes it (codes.STRICT, set by conftest.py)."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from generator.cli import app
from generator.core import codes
from generator.core.errors import Finding, Location, MusterError
from generator.formats import reference
from conftest import REPO

PACKAGE = REPO / "generator"
CODE = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
# the calls that take a code as an argument of their own, besides `code=`: MusterError(message, where, field, code),
# Finding(severity, where, field, message, code), Reader.error/warning(where, field, message, code), and helpers
TAKING_A_CODE = {"MusterError", "Finding", "error", "warning", "warn", "_refusal", "failure", "_failure", "finding"}


def codes_in_source() -> dict[str, list[str]]:
    """Every code the package names where a finding is made: `code=` and the code arguments of TAKING_A_CODE, and
    every catalogue entry it names as `codes.CONSTANT` (by its code; by `codes.CONSTANT` when there is none)."""
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "codes"
                    and node.attr.isupper()):
                entry = getattr(codes, node.attr, None)
                name = entry.name if isinstance(entry, codes.Code) else f"codes.{node.attr}"
                found.setdefault(name, []).append(f"{path.name}:{node.lineno}")
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            given = [(k.value, "") for k in node.keywords if k.arg == "code"]
            if name in TAKING_A_CODE:  # a message or a field may look like a code too, but has no dash
                given += [(a, "-") for a in node.args[1:] if not isinstance(a, ast.JoinedStr)]
            for argument, mark in given:
                for constant in ast.walk(argument):
                    if (isinstance(constant, ast.Constant) and isinstance(constant.value, str)
                            and CODE.match(constant.value) and mark in constant.value):
                        found.setdefault(constant.value, []).append(f"{path.name}:{node.lineno}")
    return found


def test_every_code_the_package_names_is_declared():
    used = codes_in_source()
    assert len(used) > 60  # the scan sees the codes: it would pass on nothing otherwise
    undeclared = {code: where for code, where in used.items() if code not in codes.CODES}
    assert not undeclared


def test_a_finding_with_an_undeclared_code_fails_where_it_is_made():
    with pytest.raises(ValueError, match="no-such-code"):
        MusterError("broken", code="no-such-code")
    with pytest.raises(ValueError, match="no-such-code"):
        Finding("error", None, "", "broken", "no-such-code")
    assert MusterError("fine", code="wrong-type").code == "wrong-type"


def test_a_code_cannot_be_declared_twice():
    with pytest.raises(ValueError, match="declared twice"):
        codes.declare("wrong-type", "error", "again")
    assert len({code.name for code in codes.CODES.values()}) == len(codes.CODES)


def test_the_catalogue_constructors_fill_in_the_template_and_severity():
    where = Location(Path("game.yaml"), 3, 5)
    error = MusterError.of(codes.DECK_SIZE, where, "decks.a.size", deck="a", size=3, total=4)
    assert (error.code, error.field, error.where, error.message) == (
        "deck-size", "decks.a.size", where, "deck 'a' declares 3 cards, its cards add up to 4")
    finding = Finding.of(codes.MISSING_COLUMN, where, "", name="Cost", hint="")
    assert (finding.severity, finding.code) == ("warning", "missing-column")


def test_docs_list_every_code_as_the_catalogue_declares_it():
    """docs/findings.md is the catalogue's; `python -m generator.formats.reference` writes it again."""
    assert (PACKAGE.parent / "docs" / "findings.md").read_text(encoding="utf-8") == reference.findings_page()
    for code in codes.CODES.values():
        assert f"| `{code.name}` | {code.severity} |" in reference.findings_page()


def test_validate_codes_lists_every_code():
    result = CliRunner().invoke(app, ["validate", "--codes", "--format", "json"])
    assert result.exit_code == 0
    assert [entry["code"] for entry in json.loads(result.output)] == list(codes.CODES)
    text = CliRunner().invoke(app, ["validate", "--codes"]).output.splitlines()
    assert [line.split()[:2] for line in text] == [[c.name, c.severity] for c in codes.CODES.values()]
