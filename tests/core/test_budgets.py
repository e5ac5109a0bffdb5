"""Templates' budgets and the rulebook's escaping (issue 18).

Every template, wherever it runs (a layout, a rulebook, game.yaml), is refused in one finding located in its
file, with a stable code and the limit named, when it would build, write or do more than its budget allows, or
reads another template; and text that reaches the rulebook's paragraph markup is printed as written."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path

import pytest
from jinja2.sandbox import ImmutableSandboxedEnvironment
from pypdf import PdfReader

from conftest import GAME_YAML, patched
from generator.building.kit import build_game
from generator.core.options import Options
from generator.checking import check_game
from generator.core.errors import MusterError
from generator.core.model import Icon
from generator.core import budget, sandbox
from generator.layout.rulebook import render_text
from generator.reading.loading import load_game
from generator.rendering.markup import icons as icon_markup
from generator.rendering.rulebook_pdf import Book
from generator.core.units import PAPERS
from pdfcheck import page_text

# Each builds (or does) far more than a template may: refused at once, before anything big is made.
OVER = {
    "center filter": "{{ 'x' | center(10 ** 10) }}",
    "center method": "{{ 'x'.center(10 ** 10) }}",
    "ljust method": "{{ 'x'.ljust(10 ** 10, '-') }}",
    "zfill method": "{{ '1'.zfill(10 ** 10) }}",
    "expandtabs": "{{ ('\\t' * 1000).expandtabs(10 ** 6) }}",
    "str.format width": "{{ '{:>5000000000}'.format(1) }}",
    "str.format nested width": "{{ '{:>{}}'.format(1, 10 ** 10) }}",
    "str.format fan-out": "{{ ('{0}' * 1000).format('x' * 100000) }}",
    "format_map": "{{ '{a:>5000000000}'.format_map({'a': 1}) }}",
    "format filter": "{{ '%05000000000d' | format(1) }}",
    "% width": "{{ '%05000000000d' % 1 }}",
    "% star width": "{{ '%*d' % (10 ** 10, 1) }}",
    "% mapping fan-out": "{{ ('%(a)s' * 1000) % {'a': 'x' * 100000} }}",
    "join filter": "{{ (['x' * 100000] * 100000) | join }}",
    "join separator": "{{ range(1000) | join('x' * 100000) }}",
    "join method": "{{ ''.join(['x' * 100000] * 100000) }}",
    "replace filter": "{{ ('x' * 100000) | replace('x', 'x' * 100000) }}",
    "replace method": "{{ ('x' * 100000).replace('x', 'x' * 100000) }}",
    "translate": "{{ ('x' * 100000).translate({120: 'y' * 100000}) }}",
    "~ doubling": "{% set ns = namespace(s='x' * 100000) %}{% for i in range(30) %}{% set ns.s = ns.s ~ ns.s %}"
                  "{% endfor %}{{ ns.s | length }}",
    "+ doubling": "{% set ns = namespace(s=[1] * 100000) %}{% for i in range(30) %}{% set ns.s = ns.s + ns.s %}"
                  "{% endfor %}{{ ns.s | length }}",
    "* of text": "{{ 'x' * 1000000000 }}",
    "* of a list": "{{ [1, 2] * 1000000 }}",
    "batch": "{{ [1] | batch(10 ** 10, 0) | list | length }}",
    "slice": "{{ [1] | slice(10 ** 10) | list | length }}",
    "indent": "{{ 'a\\nb' | indent(10 ** 10) }}",
    "indent by text": "{{ ('a\\n' * 100000) | indent('x' * 100, true) }}",
    "wordwrap": "{{ ('x ' * 1000) | wordwrap(1, wrapstring='y' * 10000) }}",
    "lipsum": "{{ lipsum(10 ** 8) }}",
    "to_bytes": "{{ (1).to_bytes(10 ** 10, 'big') }}",
    "to_bytes by name": "{{ (1).to_bytes(length=10 ** 10) }}",
    "printing copies": "{% set l = ['x' * 100000] * 100 %}{{ [l, l, l, l, l, l, l, l, l, l] }}",
    "string of copies": "{{ (['x' * 100000] * 100) | string }}",
    "tojson of copies": "{{ (['x' * 100000] * 100) | tojson }}",
    "sum of lists": "{{ ([[1] * 100000] * 100000) | sum(start=[]) | length }}",
    "a huge number": "{{ 10 ** 5000 }}",
    "squaring a number": "{% set ns = namespace(n=2) %}{% for i in range(40) %}{% set ns.n = ns.n * ns.n %}{% endfor %}"
                         "{{ ns.n > 0 }}",
    "exponent": "{{ 9 ** 99999999 }}",
    "range": "{{ range(100000000) | length }}",
    "nested loops": "{% for a in range(1000) %}{% for b in range(1000) %}{% for c in range(1000) %}{% endfor %}"
                    "{% endfor %}{% endfor %}",
    "filtered loops": "{% for a in range(1000) %}{% for b in range(1000) %}{% for c in range(1000) if false %}"
                      "{% endfor %}{% endfor %}{% endfor %}",
    "macro fan-out": "{% macro f(n) %}{% if n < 40 %}{{ f(n + 1) }}{{ f(n + 1) }}{% endif %}{% endmacro %}{{ f(0) }}",
    "macro recursion": "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}",
    "recursive loop": "{% for x in [1] recursive %}{{ loop([1]) }}{% endfor %}",
    "writing": "{% for i in range(1000) %}{% for j in range(1000) %}## H\n\n{% endfor %}{% endfor %}",
    "deep brackets": "{{ " + "[" * 3000 + "]" * 3000 + " }}",
}

FORBIDDEN = {"include": "{% include 'face.yaml' %}1", "import": "{% import 'face.yaml' as f %}1",
             "extends": "{% extends 'face.yaml' %}1", "from import": "{% from 'face.yaml' import x %}1"}


@pytest.mark.parametrize("template", OVER.values(), ids=OVER.keys())
def test_a_template_over_its_budget_is_refused_at_once(template):
    started = time.monotonic()
    with pytest.raises(Exception) as failed:
        sandbox.render(template, {})
    message, code = sandbox.failure(failed.value)
    assert code == "template-budget", (message, failed.value)
    assert "limit" in message or "deep" in message
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("markdown", [False, True], ids=["layouts", "rulebooks"])
def test_templates_within_their_budget_print_as_before(markdown):
    """The hooks change nothing for what is within the limits: operators, formatting, loops, macros, filters."""
    source = ("{{ 'ab' ~ 'cd' }} {{ 3 + 4 }} {{ [1] + [2] }} {{ 'a%sb' % 5 }} {{ '%(n)03d' % {'n': 7} }} "
              "{{ '{}-{:>3}'.format(1, 2) }} {{ [1, 2] | join(',') }} {{ 'x' | center(5) }}|"
              "{% for i in range(3) %}{{ loop.index }}{% else %}none{% endfor %} "
              "{% for x in [1, 2, 3] if x > 1 %}{{ x }}{% endfor %} "
              "{% for x in [[1, [2]], [3]] recursive %}{{ x if x is number else loop(x) }}{% endfor %} "
              "{% macro m(n) %}<{{ n }}>{% endmacro %}{{ m(1) ~ m(2) }} {{ ('x' * 999999) | length }} "
              "{{ (range(1000) | map('string') | join(', ')) | length }} {{ 2 ** 10000 > 0 }} "
              "{{ 1.5 + 2 }} {{ 17 % 5 }} {{ -7 % 3 }} {{ 7.5 % 2 }} {{ True + 1 }} {{ (2 ** 4000 + 1) % 7 }}")
    plain = ImmutableSandboxedEnvironment(autoescape=markdown).from_string(source).render()
    assert sandbox.environment(markdown).from_string(source).render() == plain
    assert plain.startswith("abcd 7 [1, 2] a5b 007 1-  2 1,2   x  |123 23 123 ")


def test_the_limits_hold_at_their_edge():
    assert sandbox.render("{{ ('x' * 1000000) | length }}", {}) == "1000000"
    with pytest.raises(budget.TemplateBudget):
        sandbox.render("{{ ('x' * 1000001) | length }}", {})
    assert len(sandbox.render("{{ 'x' * 1000000 }}", {})) == budget.MAX_SIZE
    with pytest.raises(budget.TemplateBudget, match="write"):
        sandbox.render("{{ 'x' * 1000000 }}{{ 'x' }}", {})


# --- wherever a template runs: the finding names its file and line, its code and the limit ----------------------

PLACES = ["layout", "rulebook", "game.yaml"]


def game_with(make_game, place: str, template: str) -> Path:
    """The tiny game with `template` as a layout's text, the rulebook's body or a rule's number."""
    if place == "layout":
        return make_game({"face.yaml": "elements:\n  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: "
                                       + json.dumps(template) + "}\n"})
    if place == "rulebook":
        folder = make_game({"rules.md": "# Rules\n\n- Alpha\n- Bravo\n\n" + template + "\n"})
        (folder / "game.yaml").write_text(GAME_YAML + "rulebook: {file: rules.md}\n")
        return folder
    return make_game({"game.yaml": patched(GAME_YAML, {RULE: RULE + "  - count: {min: " + json.dumps(template) + "}\n"})})


RULE = "    require: [type, force]\n"
LINES = {"layout": ("face.yaml", 2), "rulebook": ("rules.md", 6),
         "game.yaml": ("game.yaml", GAME_YAML[:GAME_YAML.index(RULE)].count("\n") + 2)}


def findings_of(folder: Path) -> list:
    game = load_game(folder)
    return list(game.findings) or check_game(game)


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("name", ["center method", "join filter", "nested loops", "macro recursion", "a huge number",
                                  "deep brackets", "str.format width", "% width"])
def test_a_template_over_its_budget_is_one_located_finding(make_game, place, name):
    folder = game_with(make_game, place, OVER[name])
    started = time.monotonic()
    errors = [f for f in findings_of(folder) if f.severity == "error"]
    assert time.monotonic() - started < 10
    assert len(errors) == 1, errors
    error = errors[0]
    assert (error.where.path.name, error.where.line) == LINES[place], str(error)
    assert error.code == "template-budget", str(error)
    assert "limit" in error.message or "deep" in error.message


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("statement", FORBIDDEN.values(), ids=FORBIDDEN.keys())
def test_a_template_may_not_read_another(make_game, place, statement):
    errors = [f for f in findings_of(game_with(make_game, place, statement)) if f.severity == "error"]
    assert [f.code for f in errors] == ["template-forbidden"], errors
    assert "may not read another file" in errors[0].message


def test_game_yaml_templates_have_a_time_limit(make_game, monkeypatch):
    monkeypatch.setattr(sandbox, "TIME_LIMIT", 1)
    slow = ("{% for a in range(1000) %}{% for b in range(1000) %}{{ ('x' * 100000) | replace('x', 'yy') | length }}"
            "{% endfor %}{% endfor %}1")  # within the steps, each slow: only the time limit stops it
    started = time.monotonic()
    errors = load_game(game_with(make_game, "game.yaml", slow)).findings
    assert time.monotonic() - started < 10
    assert [(f.code, f.where.path.name) for f in errors] == [("time-limit", "game.yaml")]


def test_a_rulebook_is_limited_before_it_is_typeset(make_game):
    cases = {"headings": "{% for i in range(11) %}{% for j in range(100) %}## Part {{ i }}.{{ j }}\n\n{% endfor %}"
                         "{% endfor %}",
             "table rows": "| a | b |\n|---|---|\n{% for i in range(6) %}{% for j in range(1000) %}| x | y |\n"
                           "{% endfor %}{% endfor %}",
             "lines": "{% for i in range(21) %}{% for j in range(1000) %}word\n{% endfor %}{% endfor %}"}
    for what, body in cases.items():
        folder = game_with(make_game, "rulebook", body)
        rules = render_text(load_game(folder))
        assert rules.markdown == "" and [f.code for f in rules.findings] == ["rulebook-too-big"], what
        assert what in rules.findings[0].message and "limit" in rules.findings[0].message


# --- what a rulebook cannot typeset is typeset, or an error in rules.md -------------------------------------------

def rulebook_build(make_game, tmp_path, body: str) -> Path:
    build_game(load_game(game_with(make_game, "rulebook", body)), tmp_path, Options())
    return tmp_path / "tiny" / "rules.pdf"


def test_deep_lists_and_blocks_taller_than_a_page_are_typeset(make_game, tmp_path):
    nested = "".join("  " * depth + f"- level {depth}\n" for depth in range(19))
    tall_box = "> " + "word " * 8000 + "\n"
    tall_cell = "| a | b |\n|---|---|\n| " + "word " * 6000 + "| x |\n"
    pdf = rulebook_build(make_game, tmp_path, "\n".join([nested, tall_box, tall_cell]))
    text = "".join(page_text(pdf, i) for i in range(len(PdfReader(pdf).pages)))
    assert "level 18" in text and text.count("word") == 14000


def test_lists_nested_deeper_than_markdown_reads_are_an_error_in_the_rulebook(make_game, tmp_path):
    with pytest.raises(MusterError) as refused:
        rulebook_build(make_game, tmp_path, "".join("  " * depth + f"- level {depth}\n" for depth in range(20)))
    assert refused.value.where.path.name == "rules.md" and refused.value.code == "rulebook-layout"


def test_a_table_too_wide_for_the_page_is_an_error_in_the_rulebook(make_game, tmp_path):
    with pytest.raises(MusterError) as refused:
        rulebook_build(make_game, tmp_path, "|" + "heading|" * 60 + "\n|" + "---|" * 60 + "\n")
    assert refused.value.where.path.name == "rules.md" and refused.value.code == "rulebook-layout"


# --- no text reaches the rulebook's markup unescaped --------------------------------------------------------------

MARKUP = ['<img src="/etc/secret.png" width="99"/>', '"><font name="text-bold">', "Q & A", "&amp; &lt;b&gt;",
          "<b>bold</b>", "x < y > z, 'quoted'"]


def images_in(pdf: Path) -> int:
    count = 0
    for page in PdfReader(pdf).pages:
        objects = page.get("/Resources", {}).get("/XObject")
        count += sum(1 for ref in (objects.get_object().values() if objects else [])
                     if ref.get_object().get("/Subtype") == "/Image")
    return count


def test_markup_in_every_printed_field_is_printed_as_written(make_game, tmp_path):
    """The game's title and summary, a deck's name, cards' titles and text, a vocabulary's names: in the card
    sheets and in the rulebook (its title page, its contents and its body, through its template)."""
    q = json.dumps
    cards = "cards:\n" + "".join(f"  - {{title: {q(f'{n} {t}')}, type: U, force: 1, text: {q(t)}}}\n"
                                 for n, t in enumerate(MARKUP))
    face = ('elements:\n  - {kind: text, x: 4, y: 4, w: 55, h: 20, text: "{{ card.title }}", size: 7, min_size: 3}\n'
            '  - {kind: text, x: 4, y: 30, w: 55, h: 40, text: "{{ card.text }} {{ vocab.card_type[card.type].name }}",'
            ' size: 6, min_size: 3}\n')
    rules = ("# Cards\n\n{% for card in decks.reds.cards %}- {{ card.title }}\n{% endfor %}\n"
             "## Q & A <b>\n\n{{ game.title }}: {{ vocab.card_type.U.name }}\n")
    game = (patched(GAME_YAML, {"title: Tiny War": f"title: {q(MARKUP[0])}\nsummary: {q(MARKUP[1])}",
                                "name: Red deck": f"name: {q(MARKUP[3])}",
                                "U: Unit": f"U: {q(MARKUP[4])}",
                                "size: 3": f"size: {len(MARKUP)}"}) + "rulebook: {file: rules.md}\n")
    back = "elements:\n  - {kind: box, x: 0, y: 0, w: 63, h: 88, fill: dark, bleed: true}\n"
    folder = make_game({"game.yaml": game, "reds.yaml": cards, "face.yaml": face, "back.yaml": back, "rules.md": rules})
    assert not [str(f) for f in check_game(load_game(folder)) if f.severity == "error"]
    build_game(load_game(folder), tmp_path, Options())
    kit = tmp_path / folder.name
    for pdf in kit.glob("*.pdf"):
        assert images_in(pdf) == 0, pdf.name
    cards_text = "".join(page_text(kit / "cards-reds.pdf", i) for i in range(len(PdfReader(kit / "cards-reds.pdf").pages)))
    for text in MARKUP:
        assert text in cards_text.replace("\r\n", " ").replace("\n", " "), text
    rules_pdf = kit / "rules.pdf"
    rules_text = "\n".join(page_text(rules_pdf, i) for i in range(len(PdfReader(rules_pdf).pages)))
    for text in [f"{n} {t}" for n, t in enumerate(MARKUP)] + MARKUP[:2] + [MARKUP[3], f"{MARKUP[0]}: {MARKUP[4]}"]:
        assert text in rules_text.replace("\r\n", " ").replace("\n", " "), (text, rules_text)  # lines wrap
    assert outline_titles(rules_pdf) == ["1  Cards", "1.1  Q & A"]


def outline_titles(pdf: Path) -> list[str]:
    def walk(items):
        for item in items:
            yield from walk(item) if isinstance(item, list) else [str(item.title).strip()]
    return list(walk(PdfReader(pdf).outline))


def test_an_icon_font_must_be_a_bundled_font(make_game):
    font = 'text"><img src="/etc/secret.png" width="200" height="200"/></font><font name="text'
    folder = make_game({"game.yaml": patched(GAME_YAML, {"font: text-bold}": f"font: {json.dumps(font)}}}"})})
    findings = load_game(folder).findings
    assert [(f.code, f.where.path.name, f.where.line, f.field) for f in findings] == [
        ("unknown-font", "game.yaml", 6, "icons.star.font")]


def test_icon_markup_escapes_its_attributes(make_game):
    """Whatever an icon holds, the rulebook's markup for it has no tag but the one it makes."""
    game = load_game(make_game())
    hostile = '"><img src="/etc/secret.png"/><font name="'
    icons = {"evil": Icon("evil", "x", hostile, hostile, None), "pic": Icon("pic", None, "text", None, Path(f"/{hostile}"))}
    book = Book(replace(game, icons=icons), PAPERS["a4"])
    for markup in (icon_markup(book.game, [("[[evil]]", False)]), icon_markup(book.game, [("[[pic]]", False)])):
        assert markup.count("<") == 1 + markup.startswith("<font") and '"><' not in markup, markup


@pytest.mark.parametrize("source", ["{{ card.title }}", "{{ card.items }}", "{{ card.get('title') }}", "{{ card.nope }}",
                                    "{{ card._what }}", "{{ card.__class__ }}", "{{ plain.a }}{{ plain.keys }}",
                                    "{{ plain.b }}", "{{ rows[0].a }}", "{{ 'text'.upper() }}"])
def test_a_template_reads_a_mapping_s_keys_and_attributes_as_jinja_s_sandbox_does(source):
    """Reading `card.title` takes the key at once when the name is no attribute of a mapping's type; anything
    else, a method's name, a name hidden by the sandbox, a missing key, is read as Jinja's own sandbox reads it."""
    card = sandbox.Record("card", "trait", {"title": "Alpha", "items": 3, "__class__": 4})
    context = {"card": card, "plain": {"a": 1, "keys": 2}, "rows": [{"a": 5}]}

    def outcome(render):
        try:
            return render(context).replace(hex(id(card)), "").replace(hex(id(context["plain"])), "")
        except Exception as exc:
            return type(exc).__name__

    jinja = ImmutableSandboxedEnvironment(undefined=sandbox.Missing).from_string(source).render
    assert outcome(sandbox.compile_template(source).render) == outcome(jinja)
