"""Templates' compiled code kept between runs (core/sandbox.py _compiled): compiled once at all, not once a run."""

from __future__ import annotations

import sys

import pytest
from jinja2 import FileSystemBytecodeCache

from generator.core import sandbox


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A cache of compiled templates of the test's own, written to, and no template remembered by the process."""
    monkeypatch.setattr(sandbox, "_compiled", lambda: (FileSystemBytecodeCache(str(tmp_path)), "generator"))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    sandbox.compile_template.cache_clear()
    sandbox.compile_expression.cache_clear()
    yield tmp_path
    sandbox.compile_template.cache_clear()
    sandbox.compile_expression.cache_clear()


def compiled_nothing(monkeypatch):
    """As if in a new process: nothing remembered, and Jinja's compiler refusing to run."""
    sandbox.compile_template.cache_clear()
    sandbox.compile_expression.cache_clear()

    def refuse(*args, **kwargs):
        raise AssertionError("compiled again")

    monkeypatch.setattr(sandbox.environment(), "compile", refuse)


def test_a_template_compiled_once_is_read_back_in_the_next_run(cache, monkeypatch):
    source = "{{ card.title | upper }} {% if card.value > 2 %}high{% endif %}"
    assert sandbox.compile_template(source).render(card={"title": "scout", "value": 3}) == "SCOUT high"
    assert len(list(cache.iterdir())) == 1
    compiled_nothing(monkeypatch)
    assert sandbox.compile_template(source).render(card={"title": "tank", "value": 1}) == "TANK "


def test_an_expression_compiled_once_is_read_back_in_the_next_run(cache, monkeypatch):
    assert sandbox.compile_expression("card.value * 2 + 1")(card={"value": 4}) == 9
    compiled_nothing(monkeypatch)
    assert sandbox.compile_expression("card.value * 2 + 1")(card={"value": 5}) == 11


def test_a_damaged_entry_is_compiled_again(cache):
    sandbox.compile_template("{{ 1 + 1 }}")
    (entry,) = cache.iterdir()
    entry.write_bytes(entry.read_bytes()[:40])  # cut short in its checksum
    sandbox.compile_template.cache_clear()
    assert sandbox.compile_template("{{ 1 + 1 }}").render() == "2"


def test_a_run_asked_to_write_no_bytecode_writes_no_compiled_template(cache, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert sandbox.compile_template("{{ 2 * 3 }}").render() == "6"
    assert not list(cache.iterdir())


def test_what_the_sandbox_refuses_is_refused_from_the_cache_too(cache, monkeypatch):
    """The code is the sandbox's: what it checks as the template runs, it checks when the code is read back."""
    source = "{{ ''.__class__ }}"
    with pytest.raises(sandbox.SecurityError):
        sandbox.compile_template(source).render()
    compiled_nothing(monkeypatch)
    with pytest.raises(sandbox.SecurityError):
        sandbox.compile_template(source).render()


def test_a_rulebook_template_is_filed_apart_from_a_layout_of_the_same_source(cache, monkeypatch):
    """A rulebook's environment escapes what it prints, a layout's does not: the same source compiles to different
    code in each, and each reads back its own."""
    source = "{{ name }}"
    rules = sandbox.environment(markdown=True)
    assert sandbox.compiled_in(rules, source, "rules").render(name="<b>") == "&lt;b&gt;"
    assert sandbox.compile_template(source).render(name="<b>") == "<b>"
    assert len(list(cache.iterdir())) == 2
    compiled_nothing(monkeypatch)
    monkeypatch.setattr(rules, "compile", lambda *args, **kwargs: pytest.fail("compiled again"))
    assert sandbox.compiled_in(rules, source, "rules").render(name="<b>") == "&lt;b&gt;"
    assert sandbox.compile_template(source).render(name="<b>") == "<b>"
