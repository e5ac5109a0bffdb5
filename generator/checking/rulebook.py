"""The rulebook checked against the game: its text renders, its fonts can print it, and its card reference lists
every card."""

from __future__ import annotations

import html
import re
from urllib.parse import unquote

from ..core import codes, fonts
from ..core.errors import Finding, Location, MusterError, has_errors
from ..core.model import Game
from ..core.inputs import RULEBOOK, YAML, read_bytes
from ..core.files import confined
from ..core.inline import rules_tokens
from ..reading.resources import image_problem
from ..layout.figures import Figure, figure_spec, is_figure, lay_out_figure
from ..layout.rulebook import RulesText, render_text

_CELL_MARKUP = re.compile(r"[*_`†‡§]+")
_LIST_ITEM = re.compile(r"^([-*+]|\d+[.)])\s+")


def check_rulebook(game: Game, cards: bool = True) -> list[Finding]:
    """The rulebook's findings: errors rendering its text, else the cards its card reference lacks. Without
    `cards` (the game's data has errors, so its cards are not all there), only what its text alone shows."""
    return [] if game.rulebook is None else rendered_findings(game, render_text(game), cards)


def rendered_findings(game: Game, rules: RulesText, cards: bool = True,
                      figures: dict[str, Figure] | None = None) -> list[Finding]:
    """The findings of rendering the rulebook's text, else its images', its missing glyphs' and (with `cards`)
    the faces it shows and the cards its card reference lacks. The figures laid out to check them are added to
    `figures`, when given, for the typesetter to draw."""
    if has_errors(rules.findings):
        return rules.findings
    text = rules.findings + image_findings(game, rules.markdown, figures) + glyph_findings(game, rules.markdown)
    return text + face_findings(game, rules.markdown) + coverage(game, rules.markdown) if cards else text


HEADING_FONTS = {"# ": fonts.RULEBOOK_DISPLAY, "## ": fonts.RULEBOOK_DISPLAY}  # as rendering/rulebook_pdf.py sets them


def glyph_findings(game: Game, text: str) -> list[Finding]:
    """A warning for each character the rulebook prints in a font that has no glyph for it: the rendered `text`
    (in the rulebook's font; chapter headings the display face, and in the running heads and the contents too),
    at the first source line that holds it; the cover and the running heads (the game's title and summary, its
    decks' and boards' names), at the first line of game.yaml that holds it."""
    family = fonts.font_book().family_of(game.rulebook.font)
    printed: list[tuple[str, str, object]] = []  # (text, font, its file)
    for line in text.splitlines():
        mark = next((mark for mark in HEADING_FONTS if line.startswith(mark)), None)
        printed.append((line, HEADING_FONTS[mark] if mark else game.rulebook.font, game.rulebook.path))
        if mark == "# ":
            printed += [(line, fonts.RULEBOOK_HEADS, game.rulebook.path), (line, family["bold"], game.rulebook.path)]
    names = " ".join([deck.name for deck in game.decks.values()] + [board.name for board in game.boards.values()])
    printed += [(game.title, fonts.RULEBOOK_DISPLAY, game.where.path), (game.title, fonts.RULEBOOK_HEADS,
                                                                         game.where.path),
                (game.summary, family["italic"], game.where.path), (names, family["regular"], game.where.path)]
    missing: dict[str, tuple[str, object]] = {}
    for line, font, path in printed:
        for character in fonts.missing_glyphs(line, font):
            missing.setdefault(character, (font, path))
    return [Finding.of(codes.MISSING_GLYPH, _line_of(path, character), "rulebook", font=font,
                       characters=repr(character))
            for character, (font, path) in missing.items()]


def face_findings(game: Game, text: str) -> list[Finding]:
    """A warning for each heading whose *italic* its font's family cannot print (chapters and sections are set in
    the display family, which has no italic face): it would print upright."""
    findings = []
    tokens = rules_tokens(text)
    for before, token in zip(tokens, tokens[1:]):
        if before.type != "heading_open" or not any(c.type == "em_open" for c in token.children or []):
            continue
        font = HEADING_FONTS.get("#" * int(before.tag[1]) + " ", "text-bold")
        family = fonts.font_book().lacking(font, "italic")
        if family:
            findings.append(Finding.of(codes.NO_ITALIC, _line_of(game.rulebook.path, token.content), "rulebook",
                                       mark="*italic*", setting="a heading set in ", font=font, family=family,
                                       face="italic", printed="upright"))
    return findings


def image_findings(game: Game, text: str, figures: dict[str, Figure] | None = None) -> list[Finding]:
    """Every image the rulebook draws (a paragraph of one image, as rendering/rulebook_pdf.py draws them) checked
    as layouts' and icons' images are, before anything typesets it; the cards it draws laid out, and added to
    `figures` when given."""
    findings = []
    tokens = rules_tokens(text)
    for before, token in zip(tokens, tokens[1:]):
        if before.type != "paragraph_open" or len(token.children or []) != 1 or token.children[0].type != "image":
            continue
        source = token.children[0].attrs.get("src", "")
        try:
            if is_figure(source):  # a card drawn in the rules: it names a card, and the fields its callouts do
                figure = lay_out_figure(game, figure_spec(game, source))
                if figures is not None:
                    figures[source] = figure
                continue
            path = confined(game.root, source)
            problem = image_problem(path) if path.exists() else MusterError(
                f"no image '{source}' in {game.root.name}/", code="missing-file")
        except MusterError as refused:
            problem = refused
        if problem:
            needle = unquote(source) if is_figure(source) else f"]({source}"
            findings.append(Finding("error", _line_of(game.rulebook.path, needle), "rulebook",
                                    problem.message if problem.code == "card-figure" else
                                    f"image '{source}': {problem.message}", problem.code))
    return findings


def _line_of(path, text: str) -> Location:
    """The place of the first line of the rulebook's source (or game.yaml) that holds `text`; the whole file when
    none does (the text came from a template)."""
    lines = read_bytes(path, RULEBOOK if path.suffix == ".md" else YAML).decode("utf-8", "replace").splitlines()
    line = next((number for number, content in enumerate(lines, 1) if text in content), 0)
    return Location(path, line, 1 if line else 0)


def coverage(game: Game, text: str) -> list[Finding]:
    """Every card of every card deck must be listed in the rendered rulebook `text` (its card reference): in a
    table cell or a list item of its own, not just mentioned somewhere in the prose."""
    findings = []
    listed = listed_titles(text)
    for deck in game.decks.values():
        if deck.format.component != "cards":
            continue
        missing = sorted({card.printed_title for card in deck.cards if card.printed_title not in listed})
        if missing:
            shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
            findings.append(Finding.of(codes.CARD_NOT_LISTED, game.rulebook.where, "rulebook", count=len(missing),
                                       deck=deck.id, titles=shown))
    return findings


def listed_titles(text: str) -> set[str]:
    """What the rendered Markdown lists: every table cell and every list item (up to its first colon, bracket or
    dash), each whole and each of its comma-separated titles (`Alpha, Bravo`), markup stripped and the entities
    its template escaped the printed values with read back."""
    entries = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("|"):
            entries.extend(stripped.strip("|").split("|"))
        elif _LIST_ITEM.match(stripped):
            entries.append(re.split(r"[:(—–]| - ", _LIST_ITEM.sub("", stripped))[0])
    listed = set()
    for entry in entries:
        entry = html.unescape(_CELL_MARKUP.sub("", entry))  # unescaped first: an entity may stand for a comma
        listed.add(entry.strip())
        listed.update(part.strip() for part in entry.split(","))
    return listed
