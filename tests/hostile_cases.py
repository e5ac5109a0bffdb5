"""The hostile inputs of issue 18's second round and issue 23's third (by class: links in place of every kind of game
file, a full disk under every command that writes, control characters through every export), each with the check
of what Muster must say about it.

CASES maps a case's name to a Case: how to build its input in a folder of its own, the command to run on it, and the
check of the Result. The simple cases are files in tests/hostile/cases/, read by `spec_case`: the tiny game of
conftest with the file's changes, and beside them what the case must cause. The others build what a YAML file cannot
hold (images, spreadsheets, pipes, links) in functions registered with @generated. A case that fails today carries
its class as `fails`.
"""

from __future__ import annotations

import csv
import shutil
import json
import re
import struct
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import yaml

import fontcraft
from hostile_run import (FIFO, GOOD_ROWS, HANG, HEADER_ROW, LOCATED, RULES_BASE, TIMEOUT, blank_png, built_or_refused, cell, clean,
                         game_from_spec, images_in, located, make_fifo, mentions, number, outline_titles, output_refused,
                         pdf_text, refused, secret_image, small_png, succeeded, write_game, write_text, write_xlsx)
from conftest import patched



@dataclass
class Case:
    """One hostile input: `prepare(work)` builds it in the folder `work` and returns the command's arguments (or a
    list of commands, run in turn: each but the last must succeed) and the check of the last one's Result."""

    prepare: Callable[[Path], tuple[list, Callable]]
    timeout: float = TIMEOUT
    fails: str | None = None
    without_root: bool = False  # run as root without its power to write into read-only folders
    file_size: int = 0  # bytes a file the last command writes may grow to (0: no limit)


def build_args(game: Path, work: Path, *extra) -> list:
    return ["build", game, "--out", work / "out", "--jobs", "1", *extra]


# --- the simple cases: one file each in tests/hostile/cases/ -----------------------------------------------------

SPECS = Path(__file__).parent / "hostile" / "cases"


def spec_case(path: Path) -> Case:
    """A case from a file, its input and what it must cause side by side. The input: the game (see game_from_spec) and
    `command` (validate, the default, or build). The expectation: `names` (the file or files an error line names),
    `limit` (that line names the limit), `outcome: built-or-refused` (a build that works is fine too), `exit` (the exact
    exit status), `says` (words of the error line, which starts with the game's folder, as given or as Muster shows it,
    or is a bare `error:`), `code` (the code of that problem, met while reading or checking the game); and `timeout:
    hang` (HANG seconds), `fails` (the xfail reason while it fails)."""
    spec = yaml.safe_load(path.read_text(encoding="utf-8"))

    def prepare(work: Path):
        game = game_from_spec(spec, work / "tiny")
        args = build_args(game, work) if spec.get("command") == "build" else ["validate", game]

        def check(result):
            clean(result)
            if spec.get("outcome") == "built-or-refused":
                built_or_refused(result, spec["names"])
            elif "names" in spec:
                refused(result, spec["names"], limit=spec.get("limit", False))
            if "exit" in spec:
                assert result.code == spec["exit"], result
            if "says" in spec:
                lines = [line for line in result.output.splitlines() if spec["says"] in line]
                assert lines, result
                assert lines[0].startswith((str(game), str(game.relative_to(work)), "error:")), lines[0]
            if "code" in spec:
                assert found_code(game, spec["says"]) == spec["code"], result
        return args, check

    return Case(prepare, HANG if spec.get("timeout") == "hang" else TIMEOUT, spec.get("fails"))


def found_code(folder: Path, text: str) -> str:
    """The code of the problem, reported with `text`, that reading or checking the game at `folder` meets."""
    from generator.checking import check_game
    from generator.core.errors import MusterError
    from generator.reading.loading import load_game

    try:
        findings = check_game(load_game(folder))
    except MusterError as problem:
        return problem.code
    return next(f.code for f in findings if text in str(f))


class Cases(dict):
    """The cases by name: a name given twice (a file and a generated case, say) fails at once, not silently."""

    def __setitem__(self, name: str, case: Case) -> None:
        assert name not in self, f"two hostile cases named {name}"
        super().__setitem__(name, case)


CASES: dict[str, Case] = Cases()
for _path in sorted(SPECS.glob("*.yaml")):
    CASES[_path.stem] = spec_case(_path)


def generated(fails: str | None = None, timeout: float = TIMEOUT, without_root: bool = False):
    def register(prepare):
        CASES[prepare.__name__.replace("_", "-")] = Case(prepare, timeout, fails, without_root)
        return prepare
    return register


# --- escapes: text that reaches a markup language -------------------------------------------------------------

@generated()
def escape_icon_font_draws_an_image(work):
    """An icon's font pasted into the rulebook's paragraph markup draws any image of the machine."""
    font = f'text"><img src="{secret_image(work)}" width="200" height="200"/></font><font name="text'
    game = write_game(work / "tiny", rulebook="Look: [[evil]]\n",
                      game={"icons:\n": "icons:\n  evil: {glyph: x, font: %s}\n" % json.dumps(font)})

    def check(result):
        refused(result, "game.yaml")
        assert not [p for p in (work / "out").rglob("*.pdf") if images_in(p)]
    return build_args(game, work), check


@generated()
def escape_icon_image_path_with_a_quote(work):
    """Beyond the issue's list: an icon image whose path holds a quote adds a second src to the <img> tag."""
    source = f'q" src="{secret_image(work)}'
    game = write_game(work / "tiny", {source: small_png(11, 11, "green")}, rulebook="Look: [[evil]]\n",
                      game={"icons:\n": "icons:\n  evil: {image: %s}\n" % json.dumps(source)})

    def check(result):
        built_or_refused(result, "game.yaml")
        drawn = [size for pdf in (work / "out").rglob("*.pdf") for size in images_in(pdf)]
        assert (37, 23) not in drawn, drawn
    return build_args(game, work), check


@generated()
def escape_ampersand_in_a_heading(work):
    """Beyond the issue's list: '&' in a heading shows as '&amp;' in the contents and the bookmarks."""
    game = write_game(work / "tiny", rulebook="## Q & A <b>\n\nText.\n")

    def check(result):
        succeeded(result)
        rules = work / "out" / "tiny" / "rules.pdf"
        for title in outline_titles(rules):
            assert "&amp;" not in title, title
        assert "&amp;" not in pdf_text(rules)
    return build_args(game, work), check


TITLES = ['<img src="/etc/title.png"/>', '"><font name="title">', "Title & Co"]
TEXTS = ["Text & <b>text</b>", '=HYPERLINK("http://e.x","text")', "&amp; text"]
PRINTED = {"title": "War & <b>Peace</b>", "summary": '<img src="/etc/summary.png"/> =HYPERLINK("http://e.x","s")',
           "deck": 'Reds "><font name="deck">', "vocabulary": "Unit <i>unit</i>"}


def markup_game(work: Path) -> Path:
    """Markup-looking strings in every field that is printed: the game's title and summary, a deck name, a
    vocabulary name, card titles and text; the rulebook lists the titles through its template."""
    q = json.dumps
    cards = "cards:\n" + "".join(f"  - {{title: {q(t)}, type: U, force: 1, text: {q(x)}}}\n" for t, x in zip(TITLES, TEXTS))
    face = ('elements:\n  - {kind: text, x: 4, y: 4, w: 55, h: 12, text: "{{ card.title }}", size: 8, min_size: 3}\n'
            '  - {kind: text, x: 4, y: 30, w: 55, h: 40, text: "{{ card.text }} {{ vocab.card_type[card.type].name }}",'
            ' size: 6, min_size: 3}\n')
    back = 'elements:\n  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: "{{ card.title }}", size: 6, min_size: 3}\n'
    rulebook = "{% for card in decks.reds.cards %}- {{ card.title }}\n{% endfor %}"
    return write_game(work / "tiny", {"reds.yaml": cards, "face.yaml": face, "back.yaml": back}, rulebook, game={
        "title: Tiny War": f"title: {q(PRINTED['title'])}\nsummary: {q(PRINTED['summary'])}",
        "name: Red deck": f"name: {q(PRINTED['deck'])}", "U: Unit": f"U: {q(PRINTED['vocabulary'])}"})


@generated()
def escape_markup_on_cards_and_the_title_page(work):
    game = markup_game(work)

    def check(result):
        succeeded(result)
        cards, rules = pdf_text(work / "out" / "tiny" / "cards-reds.pdf"), pdf_text(work / "out" / "tiny" / "rules.pdf")
        for text in TITLES + TEXTS + [PRINTED["vocabulary"]]:
            assert text in cards, (text, cards)
        for field in ("title", "summary", "deck"):
            assert PRINTED[field] in rules, (PRINTED[field], rules)
        assert not images_in(work / "out" / "tiny" / "rules.pdf")
    return build_args(game, work), check


@generated()
def escape_markup_in_card_titles_listed_by_the_rulebook(work):
    """A card title that reaches the rulebook's Markdown through its template is read as Markdown (raw HTML, and
    dropped) today."""
    game = markup_game(work)

    def check(result):
        succeeded(result)
        body = pdf_text(work / "out" / "tiny" / "rules.pdf", first_page=2)  # after the title page and contents
        for title in TITLES:
            assert title in body, (title, body)
    return build_args(game, work), check


# --- CSV injection -----------------------------------------------------------------------------------------------

FORMULA_LIKE = [("=1+1", "@SUM(A1)"), ("+cmd", "-2+3"), ("@x", '=HYPERLINK("http://e.x","y")'), ("-y", "\tq")]


def formula_game(work: Path) -> Path:
    cards = "cards:\n" + "".join(f"  - {{title: {json.dumps(t)}, type: U, force: 1, text: {json.dumps(x)}}}\n"
                                 for t, x in FORMULA_LIKE)
    return write_game(work / "tiny", {"reds.yaml": cards}, game={"size: 3": "size: 4"})


@generated()
def csv_export_of_formula_like_text(work):
    """Titles and text starting with = + - @ (or a tab) are quoted or prefixed so that no spreadsheet runs them."""
    game = formula_game(work)

    def check(result):
        succeeded(result)
        with open(work / "cards.csv", newline="", encoding="utf-8") as source:
            rows = list(csv.DictReader(source))
        for row, (title, text) in zip(rows, FORMULA_LIKE):
            for written, original in ((row["title"], title), (row["text"], text)):
                assert original in written, (original, written)
                assert written[:1] not in ("=", "+", "-", "@", "\t", "\r"), written
    return ["export", "csv", game, "-d", "reds", "-o", work / "cards.csv"], check


@generated()
def csv_round_trip_of_formula_like_text(work):
    """Whatever export does against injection, importing its CSV gives the same cards back."""
    game = formula_game(work)

    def check(result):
        succeeded(result)
        again = yaml.safe_load((work / "again.yaml").read_text(encoding="utf-8"))["cards"]
        assert [(c["title"], c["text"]) for c in again] == FORMULA_LIKE
    return [["export", "csv", game, "-d", "reds", "-o", work / "cards.csv"],
            ["import", work / "cards.csv", "--game", game, "--deck", "reds", "-o", work / "again.yaml"]], check


@generated()
def csv_xlsx_export_holds_text_not_formulas(work):
    game = formula_game(work)

    def check(result):
        succeeded(result)
        sheet = zipfile.ZipFile(work / "cards.xlsx").read("xl/worksheets/sheet1.xml").decode()
        assert "<f>" not in sheet and "=HYPERLINK" in sheet
    return ["export", "xlsx", game, "-d", "reds", "-o", work / "cards.xlsx"], check


# --- the output folder ---------------------------------------------------------------------------------------------

@generated()
def output_game_folder_is_a_symlink(work):
    elsewhere = work / "elsewhere"
    elsewhere.mkdir()
    (work / "out").mkdir()
    (work / "out" / "tiny").symlink_to(elsewhere)
    game = write_game(work / "tiny")

    def check(result):
        output_refused(work, result, work / "out" / "tiny")
        assert not list(elsewhere.iterdir())
    return build_args(game, work), check


@generated()
def output_game_folder_is_a_file(work):
    (work / "out").mkdir()
    (work / "out" / "tiny").write_text("mine\n")
    game = write_game(work / "tiny")

    def check(result):
        output_refused(work, result, work / "out" / "tiny")
        assert (work / "out" / "tiny").read_text() == "mine\n"
    return build_args(game, work), check


@generated()
def output_out_is_a_file(work):
    (work / "out").write_text("mine\n")
    game = write_game(work / "tiny")

    def check(result):
        output_refused(work, result, work / "out")
        assert (work / "out").read_text() == "mine\n"
    return build_args(game, work), check


def read_only_output(work: Path, folder: Path):
    folder.mkdir(parents=True)
    folder.chmod(0o555)
    game = write_game(work / "tiny")

    def check(result):
        output_refused(work, result, folder)
        assert not list(folder.iterdir())
    return build_args(game, work), check


@generated(without_root=True)
def output_game_folder_is_read_only(work):
    return read_only_output(work, work / "out" / "tiny")


@generated(without_root=True)
def output_out_is_read_only(work):
    return read_only_output(work, work / "out")


@generated()
def output_export_out_is_a_file(work):
    (work / "out").write_text("mine\n")
    game = write_game(work / "tiny")

    def check(result):
        output_refused(work, result, work / "out")
    return ["export", "png", game, "--out", work / "out", "-d", "reds", "--dpi", "72"], check


@generated()
def output_export_folder_is_a_symlink(work):
    """OUT/<game>/png planted as a link to another folder."""
    elsewhere = work / "elsewhere"
    elsewhere.mkdir()
    (work / "out" / "tiny").mkdir(parents=True)
    (work / "out" / "tiny" / "png").symlink_to(elsewhere)
    game = write_game(work / "tiny")

    def check(result):
        clean(result)
        assert not list(elsewhere.iterdir())
    return ["export", "png", game, "--out", work / "out", "-d", "reds", "--dpi", "72"], check


@generated()
def output_export_of_a_590_mm_card_at_1200_dpi(work):
    """The raster would be 28,000 pixels square: its pixel budget is checked before any memory is taken."""
    game = write_game(work / "tiny", game={"card: {size: poker}": "card: {size: 590mm x 590mm}"})

    def check(result):
        clean(result)
        assert result.code in (1, 2), result
        assert [line for line in result.output.splitlines() if "error:" in line], result
        assert not list((work / "out").rglob("*.png"))
    return ["export", "png", game, "--out", work / "out", "-d", "reds", "--dpi", "1200"], check


# --- rulebook images ---------------------------------------------------------------------------------------------

def rulebook_image(work: Path, data, name: str = "map.png") -> Path:
    return write_game(work / "tiny", {name: data}, rulebook=f"![map]({name})\n")


def image_case(data_of: Callable[[], bytes | object], fails: str | None = None, outcome=refused):
    def prepare(work):
        game = rulebook_image(work, data_of())
        return build_args(game, work), lambda result: outcome(result, ["rules.md", "map.png"])
    return Case(prepare, TIMEOUT, fails)


CASES["rulebook-image-over-40-megapixels"] = image_case(lambda: blank_png(6500, 6500))  # the issue had 64
CASES["rulebook-image-decompression-bomb"] = image_case(lambda: blank_png(20000, 20000))
CASES["rulebook-image-truncated"] = image_case(lambda: blank_png(500, 500)[:60])
CASES["rulebook-image-fake-png"] = image_case(lambda: b"\x89PNG\r\n\x1a\nthis is not a picture")
CASES["rulebook-image-fifo"] = image_case(lambda: FIFO)
CASES["rulebook-image-taller-than-a-page"] = image_case(lambda: small_png(50, 4000), outcome=built_or_refused)


# --- spreadsheets ---------------------------------------------------------------------------------------------

def import_case(make_sheet: Callable[[Path], Path], fails: str | None = None, timeout: float = HANG):
    """`muster import` of a hostile sheet: refused in a line naming the sheet, the deck file left as it was."""
    def prepare(work):
        game = write_game(work / "tiny")
        before = (game / "reds.yaml").read_bytes()
        sheet = make_sheet(work)

        def check(result):
            refused(result, sheet.name)
            assert (game / "reds.yaml").read_bytes() == before
        return ["import", sheet, "--game", game, "--deck", "reds"], check
    return Case(prepare, timeout, fails)


def rows_with(first_title_cell: list[bytes]):
    """The good rows, the first card's title cell made of these chunks."""
    return [HEADER_ROW, b'<row r="2"><c t="inlineStr"><is><t>', *first_title_cell,
            b"</t></is></c>" + cell(b"L") + number(2) + b"</row>", *GOOD_ROWS[2:]]


CASES["sheet-cell-of-16-mb"] = import_case(
    lambda work: write_xlsx(work / "cards.xlsx", rows_with([b"A" * (1 << 20)] * 16)))
CASES["sheet-of-8-million-cells"] = import_case(lambda work: write_xlsx(
    work / "cards.xlsx", [HEADER_ROW, *(b'<row r="%d">' % r + number(1) * 4000 + b"</row>" for r in range(2, 2002))]))
CASES["sheet-of-5-million-shared-strings"] = import_case(lambda work: write_xlsx(
    work / "cards.xlsx", GOOD_ROWS, shared=[b"<si><t>xyzzy</t></si>" * 10000] * 500))
CASES["sheet-billion-laughs"] = import_case(lambda work: write_xlsx(
    work / "cards.xlsx", rows_with([b"&a8;"]), prolog=b"<!DOCTYPE worksheet [<!ENTITY a0 'lol'>" + b"".join(
        b"<!ENTITY a%d '%s'>" % (i, b"&a%d;" % (i - 1) * 10) for i in range(1, 9)) + b"]>"), timeout=TIMEOUT)
CASES["sheet-5000-digit-number"] = import_case(
    lambda work: write_text(work / "cards.csv", "title,type,force\nAlpha,L," + "9" * 5000 + "\n"), timeout=TIMEOUT)
CASES["sheet-fifo"] = import_case(lambda work: make_fifo(work / "cards.csv"), timeout=TIMEOUT)


@generated()
def sheet_declaring_a_million_rows(work):
    """The dimension a sheet declares is not believed (passes today)."""
    game = write_game(work / "tiny")
    sheet = write_xlsx(work / "cards.xlsx", GOOD_ROWS, dimension=b'<dimension ref="A1:XFD1048576"/>')

    def check(result):
        succeeded(result)
    return ["import", sheet, "--game", game, "--deck", "reds"], check


@generated()
def sheet_import_writes_a_deck_muster_can_read(work):
    """Cells whose YAML is over the 4 MiB a deck file may have: refused, or written so that it reads back."""
    game = write_game(work / "tiny")
    before = (game / "reds.yaml").read_bytes()
    rows = ["title,type,force,text"] + [f"Card {i},U,1," + "\ufffe" * 120_000 for i in range(6)]
    sheet = write_text(work / "cards.csv", "\n".join(rows) + "\n")

    def check(result):
        clean(result)
        if (game / "reds.yaml").read_bytes() != before:
            assert not located(result.output, "reds.yaml"), result
        else:
            refused(result, "cards.csv")
    return ["import", sheet, "--game", game, "--deck", "reds"], check


# --- named pipes ----------------------------------------------------------------------------------------------------

@generated(timeout=HANG)
def pipe_as_deck_file_in_validate(work):
    game = write_game(work / "tiny", {"reds.yaml": FIFO})
    return ["validate", game], lambda result: refused(result, "reds.yaml")


@generated(timeout=HANG)
def pipe_as_deck_file_in_build(work):
    game = write_game(work / "tiny", {"reds.yaml": FIFO})
    return build_args(game, work), lambda result: refused(result, "reds.yaml")


# --- missing glyphs ---------------------------------------------------------------------------------------------

@generated()
def glyphs_missing_on_a_card_in_build(work):
    game = write_game(work / "tiny", {"reds.yaml": "cards:\n  - {title: Alpha 東, type: L, force: 2}\n"
                                                   "  - {title: Bravo, type: U, force: 3, count: 2}\n"})

    def check(result):
        clean(result)
        assert [line for line in located(result.output, "reds.yaml", "warning") if "東" in line], result
    return build_args(game, work), check


def rulebook_glyphs(command: str):
    def prepare(work):
        game = write_game(work / "tiny", rulebook="Text with a 東 glyph.\n")

        def check(result):
            clean(result)
            assert [line for line in located(result.output, "rules.md", "warning") if "東" in line], result
        return (build_args(game, work) if command == "build" else ["validate", game]), check
    return Case(prepare, TIMEOUT)


CASES["glyphs-missing-in-the-rulebook-in-validate"] = rulebook_glyphs("validate")
CASES["glyphs-missing-in-the-rulebook-in-build"] = rulebook_glyphs("build")


# --- SVG art (issue 13): untrusted XML, refused before svglib sees it ---------------------------------------------

SVG_OPEN = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">'


def svg_case(svg: bytes, where: str, limit: bool = False) -> Case:
    """The SVG as a card's image element, an icon or a rulebook image (`where`): refused in a line naming the file
    that uses it and the SVG, and no PDF written."""
    def prepare(work):
        if where == "layout":
            files, names, rulebook, game_text = {"face.yaml": FACE_WITH_ART}, ["face.yaml"], None, {}
        elif where == "icon":
            files, names, rulebook = {}, ["game.yaml"], None
            game_text = {"icons:\n": "icons:\n  wood: {image: art/x.svg}\n"}
        else:
            files, names, rulebook, game_text = {}, ["rules.md"], "![art](art/x.svg)\n", {}
        files["art/x.svg"] = svg
        game = write_game(work / "tiny", files, rulebook=rulebook, game=game_text)

        def check(result):
            lines = refused(result, names, limit=limit)
            assert any("art/x.svg" in line for line in lines), result
            assert not list((work / "out").rglob("*.pdf")), result
        return build_args(game, work), check
    return Case(prepare)


FACE_WITH_ART = "elements:\n  - {kind: image, x: 4, y: 4, w: 20, h: 20, src: art/x.svg}\n"
CASES["svg-external-url-in-an-image-element"] = svg_case(
    (SVG_OPEN + '<image width="10" height="10" xlink:href="http://example.invalid/x.png"/></svg>').encode(), "layout")
CASES["svg-entity-in-an-icon"] = svg_case(
    b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
    + (SVG_OPEN + "<title>&x;</title></svg>").encode(), "icon")
CASES["svg-script-in-the-rulebook"] = svg_case((SVG_OPEN + "<script>alert(1)</script></svg>").encode(), "rulebook")
CASES["svg-malformed"] = svg_case((SVG_OPEN + "<path d='M0 0'></svg>").encode(), "layout")
CASES["svg-huge-file"] = svg_case((SVG_OPEN + "<path d='M0 0L1 1'/>" * 300_000 + "</svg>").encode(), "layout",
                                  limit=True)
CASES["svg-use-bomb"] = svg_case((SVG_OPEN + '<g id="a0"><path d="M0 0L1 1"/></g>' + "".join(
    f'<g id="a{n}"><use xlink:href="#a{n - 1}"/><use xlink:href="#a{n - 1}"/></g>' for n in range(1, 40))
    + "</svg>").encode(), "icon", limit=True)
CASES["svg-text-cannot-be-drawn"] = svg_case((SVG_OPEN + "<text x='1' y='5'>Hi</text></svg>").encode(), "layout")
CASES["svg-css-import"] = svg_case((SVG_OPEN + "<style>@import url(http://example.invalid/a.css);</style>"
                                    "</svg>").encode(), "rulebook")


# --- numbers (issue 23, third round): every number finite and within its bounds before it is drawn ---------------

def number_case(error: str, field: str, files: dict | None = None, game: dict | None = None,
                command: str = "validate", svg: str | None = None) -> Case:
    """The tiny game with `files` and `game`'s replacements (and `svg`, the body of art/x.svg, drawn by the face):
    `command` refused with an error line naming the file `error` and holding `field`, and no PDF written."""
    def prepare(work):
        extra = {"art/x.svg": SVG_OPEN + svg + "</svg>", "face.yaml": FACE_WITH_ART} if svg is not None else {}
        game_folder = write_game(work / "tiny", {**extra, **(files or {})}, game=game)

        def check(result):
            lines = refused(result, error)
            assert any(field in line for line in lines), result
            assert not list((work / "out").rglob("*.pdf")), result
        return (build_args(game_folder, work) if command == "build" else [command, game_folder]), check
    return Case(prepare)


def option_case(command: str, *option: str) -> Case:
    """The tiny game built (or watched) with a bad number option: exit 2 naming the option, nothing written."""
    def prepare(work):
        game_folder = write_game(work / "tiny")

        def check(result):
            clean(result)
            assert result.code == 2 and option[0] in result.output, result
            assert not (work / "out").exists(), result
        return [command, game_folder, "--out", work / "out", *option], check
    return Case(prepare, timeout=HANG)


HEX_BOARD = """boards:
  map:
    layout: map.yaml
    grid: {columns: 4, rows: 3, cell: 20mm, shape: hex, numbering: "0101", margin: MARGIN}
    terrain:
      river: {stroke: "#3060c0", width: WIDTH, dash: DASH}
    hexsides:
      - {between: ["0101", "0102"], terrain: river}
rules:
"""
MAP_LAYOUT = ("elements:\n  - {kind: line, repeat: board.hexsides, as: side, x1: '{{ side.x1 }}', y1: '{{ side.y1 }}', "
              "x2: '{{ side.x2 }}', y2: '{{ side.y2 }}', stroke: '{{ side.stroke }}', width: '{{ side.width }}', "
              "dash: '{{ side.dash }}'}\n")


def board_case(field: str, margin: str = "10mm", width: str = "1mm", dash: str = '"2 1"',
               command: str = "validate") -> Case:
    """A hex board whose grid's margin, or whose river's width or dash, is given: refused in game.yaml at `field`."""
    board = patched(HEX_BOARD, {"MARGIN": margin, "WIDTH": width, "DASH": dash})
    return number_case("game.yaml", field, {"map.yaml": MAP_LAYOUT}, {"rules:\n": board}, command)


def face_line(extra: str) -> dict:
    """The face as one line element with `extra` fields."""
    return {"face.yaml": "elements:\n  - {kind: line, x1: 4, y1: 4, x2: 50, y2: 4, " + extra + "}\n"}


NINETY_NINE_DIGITS = "9" * 99  # a number YAML reads (the limit is 100 characters) far beyond any length

CASES.update({
    # non-finite and huge numbers in YAML: game.yaml's keys, constants, card values, layout fields
    "number-trait-bound-nan": number_case("game.yaml", "traits.force.min", game={"min: 0, max: 9": "min: .nan, max: 9"}),
    "number-trait-bound-inf": number_case("game.yaml", "traits.force.max", game={"min: 0, max: 9": "min: 0, max: .inf"}),
    "number-constant-nan": number_case("game.yaml", "constants.x", game={"rules:\n": "constants: {x: .nan}\nrules:\n"}),
    "number-constant-huge": number_case("game.yaml", "constants.x", game={"rules:\n": "constants: {x: 1.0e+300}\nrules:\n"}),
    "number-length-huge": number_case("game.yaml", "decks.reds.format.safe", game={
        "    style: {side: Red}\n": f"    style: {{side: Red}}\n    format: {{safe: {NINETY_NINE_DIGITS}mm}}\n"}),
    "number-layout-length-nan": number_case("face.yaml", "decks.reds.face", face_line("width: .nan"),
                                            command="build"),
    "number-layout-length-inf": number_case("face.yaml", "decks.reds.face", {
        "face.yaml": "elements:\n  - {kind: box, x: .inf, y: 0, w: 10, h: 10, fill: black}\n"}, command="build"),
    # the results of templates
    "number-template-length-huge": number_case("face.yaml", "decks.reds.face", face_line(
        "width: '{{ \"" + NINETY_NINE_DIGITS + "\" }}'"), command="build"),
    "number-template-rule-huge": number_case("game.yaml", "rules[1].count.min", game={
        "    require: [type, force]\n": "    require: [type, force]\n  - count: {min: \"{{ '1' ~ '0' * 90 ~ '.0' }}\"}\n"}),
    # SVG: attributes, path data, transforms, styles, the viewBox
    "number-svg-path-nan": number_case("face.yaml", "art/x.svg", svg='<path d="M0 0 L nan 5 L 5 5 Z"/>',
                                       command="build"),
    "number-svg-path-huge": number_case("face.yaml", "art/x.svg", svg='<path d="M0 0 L 1e308 5 L 5 5 Z"/>',
                                        command="build"),
    "number-svg-transform-inf": number_case("face.yaml", "art/x.svg", svg='<g transform="scale(inf)"><rect width="5" '
                                            'height="5"/></g>', command="build"),
    "number-svg-style-nan": number_case("face.yaml", "art/x.svg", svg='<rect width="5" height="5" '
                                        'style="stroke:#000;stroke-width:nan"/>', command="build"),
    "number-svg-dash-nan": number_case("face.yaml", "art/x.svg", svg='<rect width="5" height="5" stroke="#000" '
                                       'stroke-dasharray="nan 1"/>', command="build"),
    "number-svg-viewbox-tiny": number_case("face.yaml", "art/x.svg", {"art/x.svg": '<svg xmlns="http://www.w3.org/2000/'
                                           'svg" viewBox="0 0 1e-300 1e-300"><rect width="5" height="5"/></svg>'},
                                           svg="", command="build"),
    # bad dashes: hexsides and layout lines, written or made by a template
    "number-hexside-dash-zeros": board_case("boards.map.terrain.river.dash", dash='"0 0"'),
    "number-hexside-dash-negative": board_case("boards.map.terrain.river.dash", dash='"-1 2"'),
    "number-hexside-dash-nan": board_case("boards.map.terrain.river.dash", dash='"nan nan"', command="build"),
    "number-layout-dash-zeros": number_case("face.yaml", "decks.reds.face", face_line("dash: '0 0'"), command="build"),
    "number-layout-dash-template-nan": number_case("face.yaml", "decks.reds.face", face_line("dash: \"{{ 'nan 1' }}\""),
                                                   command="build"),
    # negative sizes and margins
    "number-grid-margin-negative": board_case("boards.map.grid.margin", margin="-5mm"),
    "number-hexside-width-negative": board_case("boards.map.terrain.river.width", width="-1mm"),
    "number-format-safe-negative": number_case("game.yaml", "decks.reds.format.safe", game={
        "    style: {side: Red}\n": "    style: {side: Red}\n    format: {safe: -2mm}\n"}),
    # command-line options
    "number-option-ink-limit-nan": option_case("build", "--ink-limit", "nan"),
    "number-option-ink-limit-inf": option_case("build", "--ink-limit", "inf"),
    "number-option-bleed-huge": option_case("build", "--bleed", f"{NINETY_NINE_DIGITS}mm"),
    "number-option-back-offset-huge": option_case("build", "--back-offset", f"{NINETY_NINE_DIGITS},0"),
    "number-option-interval-inf": option_case("watch", "--interval", "inf"),
})


def grouped_case(old: str, new: str) -> Case:
    """The counter-sheet fixture (a grouped deck) with its counter layout broken: build refused in counter.yaml."""
    def prepare(work):
        game_folder = work / "counter-sheet"
        shutil.copytree(Path(__file__).parent / "fixtures" / "counter-sheet", game_folder)
        layout = game_folder / "counter.yaml"
        layout.write_text(patched(layout.read_text(), {old: new}, count=1))

        def check(result):
            refused(result, "counter.yaml")
            assert not list((work / "out").rglob("*.pdf")), result
        return build_args(game_folder, work), check
    return Case(prepare)


CASES["grouped-deck-layout-error-on-every-face"] = grouped_case("- {kind: box, x: 0,", "- {kind: nosuch, x: 0,")
CASES["grouped-deck-layout-error-on-some-faces"] = grouped_case(
    "x: 3.35, y: 2.2, w: 6,", "x: 3.35, y: 2.2, w: \"{{ 6 if card.strength != 3 else 'wide' }}\",")
CASES["grouped-deck-length-nan"] = grouped_case("x: 3.35, y: 2.2, w: 6,", "x: 3.35, y: 2.2, w: .nan,")


# --- links (issue 23): every kind of game file replaced by a link out of the folder, a loop, a dangling link, a --
# link to a named pipe or to a device. Refused in a line naming the file or the one that names it; a file outside the
# game is never quoted.

SECRET = "root:x:0:0:SECRET-OF-THE-MACHINE:/root:/bin/bash\n"
GAME_FILES = {  # the file in the tiny game, and what the game needs besides to read it
    "game.yaml": {},
    "reds.yaml": {},
    "face.yaml": {},
    "rules.md": {"rulebook": ""},
    "art.png": {"files": {"face.yaml": "elements:\n  - {kind: image, x: 4, y: 4, w: 20, h: 20, src: art.png}\n"}},
    "art/x.svg": {"files": {"face.yaml": FACE_WITH_ART}},
    "fonts/House.ttf": {"game": {"icons:\n": "fonts:\n  house: {regular: fonts/House.ttf}\nicons:\n"}},
}


def link_to(kind: str, work: Path, link: Path) -> None:
    """`link` made a symbolic link of this kind."""
    import os

    if kind == "outside":
        (work / "secret.txt").write_text(SECRET, encoding="utf-8")
        target = work / "secret.txt"
    elif kind == "loop":
        target = link
    elif kind == "dangling":
        target = link.parent / "nowhere"
    elif kind == "fifo":
        target = make_fifo(link.parent / "pipe")
    else:
        target = Path("/dev/zero")
    os.symlink(target, link)


def link_case(name: str, kind: str) -> Case:
    def prepare(work):
        needs = GAME_FILES[name]
        game = write_game(work / "tiny", needs.get("files"), needs.get("rulebook"), needs.get("game"))
        path = game / name
        if path.exists() or path.is_symlink():
            path.unlink()
        path.parent.mkdir(parents=True, exist_ok=True)
        link_to(kind, work, path)

        def check(result):
            refused(result, [name, "game.yaml", "face.yaml", "rules.md", "nowhere", "pipe"])  # or the link's target
            assert "SECRET-OF-THE-MACHINE" not in result.output, result
            assert not list((work / "out").rglob("*.pdf")), result
        return build_args(game, work), check
    return Case(prepare)


for _name in GAME_FILES:
    for _kind in ("outside", "loop", "dangling", "fifo", "device"):
        CASES[f"link-{_kind}-as-{_name.replace('/', '-')}"] = link_case(_name, _kind)


# --- a full disk (issue 23): every command that writes, its files held to a few bytes (RLIMIT_FSIZE, as a full disk
# fails a write: EFBIG for ENOSPC). Run once without the limit first: the limited run must fail in a line naming what
# it was writing (a file in the output folder, or the output file), leave what the first wrote as it was, and leave
# no temporary behind.

def writes(game: Path, work: Path) -> dict[str, tuple[list, Path]]:
    """Each command that writes: its arguments, and the folder or file it writes."""
    out = work / "out"
    sheet = write_text(work / "cards.csv", "title,type,force,fronts,count\nAlpha,L,2,A,1\nBravo,U,3,E,2\n")
    export = {kind: (["export", kind, game, "--out", out, "-d", "reds", *extra], out) for kind, extra in (
        ("png", ["--dpi", "72"]), ("pdf", []), ("tts", ["--dpi", "72"]), ("vassal", []))}
    return {
        "build": (["build", game, "--out", out, "--jobs", "1", "--force"], out),
        **{f"export-{kind}": args for kind, args in export.items()},
        "export-shop": (["export", "shop", "thegamecrafter", game, "--out", out, "-d", "reds"], out),
        "export-csv": (["export", "csv", game, "-d", "reds", "-o", out / "cards.csv"], out),
        "export-xlsx": (["export", "xlsx", game, "-d", "reds", "-o", out / "cards.xlsx"], out),
        "import": (["import", sheet, "--game", game, "--deck", "reds"], game / "reds.yaml"),
        "new": (["new", "other", "--dir", out], out),
        "schema": (["schema", "--out", out / "schemas"], out),
    }


def tree_of(path: Path) -> dict[str, str]:
    """Every file under `path` (or `path` itself), hidden ones too, by its sha256."""
    import hashlib

    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file()) if path.exists() else []
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


def disk_full_case(command: str, file_size: int) -> Case:
    def prepare(work):
        from hostile_run import muster

        game = write_game(work / "tiny")
        args, written = writes(game, work)[command]
        if command != "new":  # a first run that works: what it wrote must stay as it is
            first = muster(*args, cwd=work)
            assert first.code == 0, first
        before = tree_of(written)

        def check(result):
            clean(result)
            if result.code == 0:  # everything it wrote fitted: fine too
                return
            assert result.code == 2, result
            lines = [line for line in result.output.splitlines() if (m := LOCATED.match(line))
                     and m["severity"] == "error" and (mentions(m["path"], written, work)
                                                      or m["path"].startswith(("out/", "out", "tiny/reds.yaml")))]
            assert lines, f"no error line naming what was written: {result}"
            assert tree_of(written) == before, result
        return args, check
    return Case(prepare, file_size=file_size)


for _command in ("build", "export-png", "export-pdf", "export-tts", "export-vassal", "export-shop", "export-csv",
                 "export-xlsx", "import", "new", "schema"):
    for _size in (1, 6000):
        CASES[f"disk-full-{_command}-at-{_size}-bytes"] = disk_full_case(_command, _size)


# --- control characters (issue 23): in every text of the game, through every export: each file written is valid for
# its format (JSON parses, an .xlsx's XML parses, a CSV holds no control character but line breaks and tabs).

ODD = "\x00\x07\x1b[31m\ufffe\uffff\u2028"


def odd_game(work: Path) -> Path:
    q = json.dumps
    cards = (f"cards:\n  - {{title: {q('A' + ODD)}, type: L, force: 2, fronts: A, text: {q('=1+1' + ODD)}}}\n"
             f"  - {{title: {q('@B' + ODD)}, type: U, force: 3, fronts: E, count: 2}}\n")
    return write_game(work / "tiny", {"reds.yaml": cards}, game={
        "title: Tiny War": f"title: {q('Tiny' + ODD)}", "name: Red deck": f"name: {q('Red' + ODD)}"})


def formats_valid(folder: Path) -> None:
    """Every JSON, CSV and .xlsx file under `folder` (or `folder` itself) valid for its format."""
    from lxml import etree

    files = [folder] if folder.is_file() else [p for p in folder.rglob("*") if p.is_file()]
    for path in files:
        if path.suffix == ".json":
            json.loads(path.read_text(encoding="utf-8"))
        elif path.suffix == ".csv":
            text = path.read_text(encoding="utf-8")
            assert not [c for c in text if ord(c) < 32 and c not in "\t\n\r"], (path, text)
            assert "\ufffe" not in text and "\uffff" not in text, (path, text)
            list(csv.reader(text.splitlines()))
        elif path.suffix == ".xlsx":
            with zipfile.ZipFile(path) as archive:
                for name in archive.namelist():
                    if name.endswith(".xml"):
                        etree.fromstring(archive.read(name))


def odd_text_case(kind: str) -> Case:
    def prepare(work):
        game = odd_game(work)
        out = work / "out"
        args = {"validate": ["validate", game, "--format", "json"],
                "export-csv": ["export", "csv", game, "-d", "reds", "-o", out / "cards.csv"],
                "export-xlsx": ["export", "xlsx", game, "-d", "reds", "-o", out / "cards.xlsx"],
                "import": ["import", out / "cards.csv", "--game", game, "--deck", "reds"]}.get(kind)
        if kind == "import":
            args = [["export", "csv", game, "-d", "reds", "-o", out / "cards.csv"], args]
        if args is None:
            args = ["export", kind.removeprefix("export-"), game, "--out", out, "-d", "reds",
                    *(["--dpi", "72"] if kind in ("export-png", "export-tts") else [])]

        def check(result):
            succeeded(result)
            if kind == "validate":
                json.loads(result.output[result.output.index("["):])
            formats_valid(out)
        return args, check
    return Case(prepare)


for _kind in ("validate", "export-png", "export-pdf", "export-tts", "export-csv", "export-xlsx", "import"):
    CASES[f"control-characters-through-{_kind}"] = odd_text_case(_kind)


# --- game fonts (issue 23, items 1 and 8): checked from their bytes before any parser reads them ----------------

FONT_GAME = {"icons:\n": "fonts:\n  house: {regular: fonts/House.ttf}\nicons:\n"}
FONT_FACE = ('elements:\n  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: "{{ card.title }} é à ç", font: house, '
             'size: 12}\n')
FONT_LINE = re.compile(r"game\.yaml:\d+:\d+: error: fonts\.house\.regular: 'fonts/House\.ttf': ")


def font_case(font: Callable[[], bytes], command: str, limit: bool = False) -> Case:
    """A game whose font 'house' (used on its cards, 'é' a composite glyph) is `font`: refused at once by
    `command` in one line at the font's line of game.yaml, and no PDF written."""
    def prepare(work):
        game = write_game(work / "tiny", {"fonts/House.ttf": font(), "face.yaml": FONT_FACE}, game=FONT_GAME)

        def check(result):
            lines = refused(result, "game.yaml", limit=limit)
            assert [line for line in lines if FONT_LINE.search(line)], result
            assert not list((work / "out").rglob("*.pdf")), result
        return (build_args(game, work) if command == "build" else ["validate", game]), check
    return Case(prepare, HANG)


def cmap_case(subtable: Callable[[], bytes], encoding: int = 10) -> Case:
    """Item 1: a character map that enumerates far more characters than any font has, in a few kilobytes."""
    return font_case(lambda: fontcraft.patched({"cmap": lambda _: fontcraft.cmap_of(subtable(), 3, encoding)}),
                     "validate", limit=True)


WHOLE_UNICODE = (0, 0x10FFFF, 1)
CASES["font-cmap-300-groups-of-all-unicode"] = cmap_case(lambda: fontcraft.format_12([WHOLE_UNICODE] * 300))
CASES["font-cmap-format-13-all-unicode"] = cmap_case(lambda: fontcraft.format_12([WHOLE_UNICODE] * 20, form=13))
CASES["font-cmap-format-4-overlapping-segments"] = cmap_case(
    lambda: fontcraft.format_4([(0, 0xFFFE, 0)] * 4000), encoding=1)
CASES["font-cmap-format-2-full-subheaders"] = cmap_case(lambda: fontcraft.format_2(0xFFFF), encoding=1)
CASES["font-cmap-200000-groups"] = cmap_case(lambda: fontcraft.format_12([(0x41, 0x41, 36)] * 200_000))


def glyphs_case(changes: dict, declared: dict | None = None) -> Case:
    """Item 8: a glyph count that the tables depending on it do not agree with, found before the build draws."""
    return font_case(lambda: fontcraft.patched({tag: change() for tag, change in changes.items()}, declared),
                     "build")


CASES["font-glyphs-none"] = glyphs_case({"maxp": lambda: fontcraft.glyph_count(0)})
CASES["font-glyphs-more-than-hmtx-and-loca-hold"] = glyphs_case({"maxp": lambda: fontcraft.glyph_count(65535)})
CASES["font-glyphs-fewer-than-cmap-gives"] = glyphs_case(
    {"maxp": lambda: fontcraft.glyph_count(10), "hhea": lambda: lambda hhea: fontcraft.put(hhea, 34, "H", 10)})
CASES["font-glyphs-more-metrics-than-glyphs"] = glyphs_case(
    {"hhea": lambda: lambda hhea: fontcraft.put(hhea, 34, "H", 7000)})
CASES["font-glyphs-composite-of-a-glyph-past-the-end"] = glyphs_case(
    {"glyf": lambda: fontcraft.components_of_e_acute_at(60000)})
CASES["font-glyphs-loca-going-backwards"] = glyphs_case(
    {"loca": lambda: lambda loca: fontcraft.put(loca, 4 * 100, "L", 0xFFFFFF)})
CASES["font-glyphs-hmtx-shorter-than-its-glyphs"] = glyphs_case({}, declared={"hmtx": 8})
CASES["font-glyphs-loca-shorter-than-its-glyphs"] = glyphs_case({}, declared={"loca": 400})


def table_case(font: Callable[[], bytes], limit: bool = False) -> Case:
    """Tables against the file: where the directory says a table is, what it holds, how many there are."""
    return font_case(font, "build", limit=limit)


CASES["font-table-past-the-end-of-the-file"] = table_case(lambda: fontcraft.patched({}, declared={"glyf": 10 ** 8}))
CASES["font-table-directory-of-65535-tables"] = table_case(
    lambda: fontcraft.put(fontcraft.base(), 4, "H", 0xFFFF) + bytes(16 * 0xFFFF), limit=True)
CASES["font-table-cmap-of-65535-character-maps"] = table_case(
    lambda: fontcraft.patched({"cmap": lambda cmap: fontcraft.put(cmap, 2, "H", 0xFFFF)}), limit=True)
CASES["font-table-collection-of-a-billion-fonts"] = table_case(
    lambda: b"ttcf\0\1\0\0" + struct.pack(">LL", 10 ** 9, 16) + fontcraft.base(), limit=True)
CASES["font-table-head-cut-short"] = table_case(lambda: fontcraft.patched({}, declared={"head": 20}))


def outline_case(font: Callable[[], bytes], limit: bool = False) -> Case:
    """PostScript outlines are read only when a PDF embeds them: the build stops at once, naming the font file."""
    def prepare(work):
        game = write_game(work / "tiny", {"fonts/House.otf": font(), "face.yaml": FONT_FACE},
                          game={"icons:\n": "fonts:\n  house: {regular: fonts/House.otf}\nicons:\n"})
        return build_args(game, work), lambda result: refused(result, "House.otf", limit=limit)
    return Case(prepare, HANG)


def scribbled_charstrings() -> bytes:
    data = bytearray(fontcraft.built("House Serif", postscript=True))
    table = fontcraft.tables(bytes(data))["CFF "]
    start = bytes(data).index(table)
    data[start + len(table) - 300:start + len(table) - 10] = b"\x1c\xff\xff" * 96 + b"\x1c\xff"
    return bytes(data)


CASES["font-outlines-subroutines-calling-twice-40-deep"] = outline_case(fontcraft.subroutine_bomb, limit=True)
CASES["font-outlines-scribbled-charstrings"] = outline_case(scribbled_charstrings)


# --- translations (issue 28): a game's German, hostile. Its rulebook's translation is a game file like any other, and
# what a translator writes prints as written: on cards, in the rulebook's cover, contents and headings, and in every
# export.

GERMAN = {"title: Tiny War": "title: Tiny War\nlanguages: [en, de]"}


def german_rulebook(kind: str):
    """rules.de.md a link out of the folder (to a rulebook that would build, and print the secret), a named pipe, or
    a folder: `build --lang de` refused in a line naming it (or game.yaml, which names the rulebook), no PDF written."""
    def prepare(work):
        game = write_game(work / "tiny", rulebook="Text.\n", game=GERMAN)
        german = game / "rules.de.md"
        if kind == "outside":
            (work / "secret.md").write_text(RULES_BASE + SECRET, encoding="utf-8")
            german.symlink_to(work / "secret.md")
        elif kind == "fifo":
            make_fifo(german)
        else:
            german.mkdir()

        def check(result):
            refused(result, ["rules.de.md", "game.yaml"])
            assert "SECRET-OF-THE-MACHINE" not in result.output, result
            assert not list((work / "out").rglob("*.pdf")), result
        return build_args(game, work, "--lang", "de"), check
    return Case(prepare, HANG if kind == "fifo" else TIMEOUT)


for _kind in ("outside", "fifo", "folder"):
    CASES[f"translation-rulebook-{_kind}"] = german_rulebook(_kind)
CASES["translation-lang-a-path"] = option_case("build", "--lang", "../../etc")
CASES["translation-lang-with-a-line-break"] = option_case("build", "--lang", "de\n")

GERMAN_TITLES = ["Alpha & <b>Eins</b>", 'Bravo <font name="x" size="40">Zwei</font>']
GERMAN_TEXTS = ['Text & <b>fett</b> &amp; <font color="red">rot</font>', "<img src=\"/etc/x.png\"/> & Co"]
GERMAN_PRINTED = {"title": "Kleiner & <b>Krieg</b>", "summary": 'Kurz <font size="40">&amp;</font> gut',
                  "deck": 'Rote "><font name="x">', "vocabulary": "Einheit <i>Eins</i>", "contents": "Inhalt & <u>"}


def german_markup_game(work: Path) -> Path:
    """The tiny game in English and German, markup-looking German in every text that prints: the game's title and
    summary, a deck's name, a vocabulary name, a fixed word, card titles and text; the German rulebook makes a
    heading of each card's title."""
    q, p = json.dumps, GERMAN_PRINTED
    cards = "cards:\n" + "".join(f"  - {{title: {t}, title:de: {q(d)}, type: {k}, force: 1, text: Text, text:de: {q(x)}"
                                 f"{c}}}\n" for t, d, k, x, c in zip(("Alpha", "Bravo"), GERMAN_TITLES, "LU",
                                                                     GERMAN_TEXTS, ("", ", count: 2")))
    face = ('elements:\n  - {kind: text, x: 4, y: 4, w: 55, h: 12, text: "{{ card.title }}", size: 8, min_size: 2}\n'
            '  - {kind: paragraph, x: 4, y: 30, w: 55, h: 50, text: "{{ card.text }} {{ vocab.card_type[card.type].name }}",'
            ' size: 6, min_size: 3}\n')
    back = 'elements:\n  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: "{{ card.title }}", size: 6, min_size: 2}\n'
    german = ("# Fragen & Antworten\n\n{% for card in decks.reds.cards %}- {{ card.title }}\n{% endfor %}\n"
              "{% for card in decks.reds.cards %}## {{ card.title }}\n\n{% endfor %}")
    return write_game(work / "tiny", {"reds.yaml": cards, "face.yaml": face, "back.yaml": back, "rules.de.md": german},
                      "", game={
        "title: Tiny War": f"title: Tiny War\ntitle:de: {q(p['title'])}\nsummary: War.\nsummary:de: {q(p['summary'])}\n"
                           f"languages: [en, de]\nwords:\n  de: {{contents: {q(p['contents'])}}}",
        "name: Red deck": f"name: Red deck\n    name:de: {q(p['deck'])}",
        "U: Unit": f"U: {{name: Unit, name:de: {q(p['vocabulary'])}}}"})


def flat(text: str) -> str:
    """Text with its runs of white space made one space, as lines wrap it."""
    return " ".join(text.split())


@generated()
def translation_markup_prints_as_written(work):
    """Built in German, then exported (CSV, Tabletop Simulator, VASSAL): every German text as written, never read as
    markup, and the exports' pieces named by the German titles."""
    from lxml import etree

    game, out = german_markup_game(work), work / "out"

    def check(result):
        succeeded(result)
        kit, p = out / "tiny" / "de", GERMAN_PRINTED
        cards, rules = flat(pdf_text(kit / "cards-reds.pdf")), flat(pdf_text(kit / "rules.pdf"))
        for text in GERMAN_TITLES + GERMAN_TEXTS + [p["vocabulary"]]:
            assert flat(text) in cards, (text, cards)
        for text in GERMAN_TITLES + [p["title"], p["summary"], p["deck"], p["contents"], "Fragen & Antworten"]:
            assert flat(text) in rules, (text, rules)
        assert [title.split("  ", 1)[1] for title in outline_titles(kit / "rules.pdf")] == ["Fragen & Antworten",
                                                                                            *GERMAN_TITLES]
        assert p["title"] in flat(pdf_text(kit / "calibration.pdf"))
        assert not [pdf for pdf in kit.glob("*.pdf") if images_in(pdf)]
        with open(work / "cards.csv", newline="", encoding="utf-8") as source:
            assert [row["title:de"] for row in csv.DictReader(source)] == GERMAN_TITLES
        saved = json.loads((kit / "tts" / "tiny.json").read_text(encoding="utf-8"))["ObjectStates"]
        deck = saved[0]["ContainedObjects"][0]
        assert deck["Nickname"] == p["deck"]
        assert [c["Nickname"] for c in deck["ContainedObjects"]] == [GERMAN_TITLES[0]] + [GERMAN_TITLES[1]] * 2
        with zipfile.ZipFile(kit / "vassal" / "tiny.vmod") as module:
            build = etree.fromstring(module.read("buildFile.xml"))
        assert [pile.get("name") for pile in build.iter("VASSAL.build.module.map.DrawPile")] == [p["deck"]]
        assert [slot.get("entryName") for slot in build.iter("VASSAL.build.widget.CardSlot")] == [
            GERMAN_TITLES[0]] + [GERMAN_TITLES[1]] * 2
    return [build_args(game, work, "--lang", "de"), ["export", "csv", game, "-d", "reds", "-o", work / "cards.csv"],
            ["export", "tts", game, "--out", out, "--lang", "de", "--dpi", "72"],
            ["export", "vassal", game, "--out", out, "--lang", "de"]], check
