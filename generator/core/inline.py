"""Inline markup, read one way in card text and in rulebooks: **bold**, *italic*, [[icon]], the backslash that
prints the punctuation after it as written, the game's `embed:` words printed as icons, and a number kept on the
line of the icon after it.

Markdown-it reads emphasis and escapes by CommonMark's rules, with one change: `*` follows the rule CommonMark
gives `_`, so it never opens or closes emphasis inside a word or a number (`2*3*4` prints as written). Card text
knows no `_` emphasis, no links and no entities: only `*`, `**`, `\\` and `[[...]]` mean anything there. An
escaped character (or an entity) is kept apart from the text around it, so that it is never part of an icon or
an embedded word: `\\[[wood]]` prints as written.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable, Mapping, NamedTuple

SYMBOL_PREFIX = "nato:"  # an icon that names a unit symbol (layout/symbols.py): [[nato:armour]]
ICON = re.compile(r"\[\[(" + SYMBOL_PREFIX + r"[A-Za-z0-9_:+-]+|[A-Za-z0-9_-]+)\]\]")
_NUMBER_GAP = re.compile(r"\d( +)$")  # a number, then the spaces before an icon that stays on its line


class Token(NamedTuple):
    """Text as it prints, or an icon by name and as written (`[[wood]]`, or the embedded word); `glued`: the icon
    stays on the line of the number before it."""

    text: str
    icon: str | None = None
    glued: bool = False


class Segment(NamedTuple):
    """A token of card text and the emphasis it is in."""

    token: Token
    bold: bool = False
    italic: bool = False


def configured(parser, underscores: bool):
    """`parser` (a MarkdownIt) reading `*` as CommonMark reads `_`, `_` only if `underscores`, and keeping each
    escaped character a token of its own (text_special) rather than joined to the text around it."""
    from markdown_it.rules_inline.state_inline import Delimiter

    markers = ("*", "_") if underscores else ("*",)

    def emphasis(state, silent: bool) -> bool:
        marker = state.src[state.pos]
        if silent or marker not in markers:
            return False
        scanned = state.scanDelims(state.pos, False)  # False: never within a word, whichever the marker
        for _ in range(scanned.length):
            state.push("text", "", 0).content = marker
            state.delimiters.append(Delimiter(ord(marker), scanned.length, len(state.tokens) - 1, -1,
                                              scanned.can_open, scanned.can_close))
        state.pos += scanned.length
        return True

    parser.inline.ruler.at("emphasis", emphasis)
    return parser.disable("text_join")


RULES_NESTING = 40  # levels of a rulebook's Markdown blocks (a list and its items are two): beyond, markdown-it drops
# the text (rendering/rulebook_pdf.py refuses such a rulebook)


@lru_cache(maxsize=2)
def rules_tokens(markdown: str) -> tuple:
    """The tokens of a rendered rulebook, as it is typeset (CommonMark, tables, `_` and `*` as markup.py reads
    them). Parsed once per text: the checks (checking/rulebook.py) and each paper it is typeset on (the rules and
    the booklet) read the same tokens, and none changes them."""
    from markdown_it import MarkdownIt

    return tuple(configured(MarkdownIt("commonmark", {"maxNesting": RULES_NESTING}).enable("table"), underscores=True)
                 .parse(markdown))


@lru_cache(maxsize=2)
def rules_tree(markdown: str):
    """The tokens of rules_tokens(markdown) as a tree of blocks, built once for the rules and the booklet alike."""
    from markdown_it.tree import SyntaxTreeNode

    return SyntaxTreeNode(rules_tokens(markdown))


@lru_cache(maxsize=1)
def _card_parser():
    from markdown_it import MarkdownIt

    return configured(MarkdownIt("zero").enable(["emphasis", "escape"]), underscores=False)


@lru_cache(maxsize=64)
def _pattern(words: tuple[str, ...]) -> re.Pattern:
    """[[icon]], or one of the embedded `words` as a whole word (longest first, so that no shorter key wins)."""
    if not words:
        return ICON
    keys = "|".join(re.escape(word) for word in sorted(words, key=lambda w: (-len(w), w)))
    return re.compile(rf"{ICON.pattern}|(?<!\w)(?:{keys})(?!\w)")


def tokens(fragments: Iterable[tuple[str, bool]], embed: Mapping[str, str]) -> list[Token]:
    """The text and icons of a run of text in one style, from its `fragments` (text, whether escaped): an icon
    or an embedded word holds no escaped character."""
    text, escaped, position = "", [], 0
    for fragment, literal in fragments:
        if literal:
            escaped.append((position, position + len(fragment)))
        text += fragment
        position += len(fragment)
    result: list[Token] = []
    start = 0
    for match in _pattern(tuple(embed)).finditer(text):
        if any(low < match.end() and match.start() < high for low, high in escaped):
            continue
        before = text[start:match.start()]
        gap = _NUMBER_GAP.search(before)
        if gap:
            before = before[:gap.start(1)]
        if before:
            result.append(Token(before))
        result.append(Token(match.group(0), match.group(1) or embed[match.group(0)], gap is not None))
        start = match.end()
    if start < len(text):
        result.append(Token(text[start:]))
    return result


def marked(text: str, embed: Mapping[str, str]) -> str:
    """`text` with each of the `embed` words written as the icon it prints as (`Wood` -> `[[wood]]`): what
    `embed:` does to a card's text fields, the one place it applies on a card, so that a title never changes."""
    if not embed:
        return text
    return _pattern(tuple(embed)).sub(lambda match: match.group(1) and match.group(0) or f"[[{embed[match.group(0)]}]]",
                                      text)


def unembedded(text: str, embed: Mapping[str, str]) -> str:
    """HTML-escaped `text` (as a rulebook prints a value) in which no `embed` word can become an icon: each one's
    first character written as a character reference, which Markdown reads back as an escaped character, and an
    embedded word holds none (tokens). What a template prints is data: a card titled "Gold Mine" stays so."""
    import html  # the rulebook's: html.entities is a large table to import

    escaped = html.escape(text)
    if not embed:
        return escaped
    return _pattern(tuple(embed)).sub(lambda match: match.group(1) and match.group(0)
                                      or f"&#{ord(match.group(0)[0])};{match.group(0)[1:]}", escaped)


_SPACE, _PUNCTUATION, _WORD = 1, 2, 3  # a character next to `**`, as CommonMark tells whether the run opens or closes


def _kind(character: str) -> int | None:
    """A space, ASCII punctuation or a letter or digit; None for any other character (Unicode punctuation, symbols,
    other spaces), which leaves the text to markdown-it."""
    if character in " \n":
        return _SPACE
    if character.isascii() and not character.isalnum() and character.isprintable():
        return _PUNCTUATION
    return _WORD if character.isalnum() else None


def _plain_bold(text: str) -> list[tuple[str, bool]] | None:
    """`text` as its runs and whether each is bold, when its only markup is `**` that plainly opens or closes
    (each `**` alone, either side of it a space, ASCII punctuation or a letter or digit, and by CommonMark's
    flanking rules, as configured reads `*`, either opening or closing, in turns): "**Attack:** 2 hits", the
    calibration page's label. Markdown-it reads such text the same (tests/core/test_plain_bold.py compares them), and
    importing it costs a build that has no other markup 10 ms. None for any other text."""
    if "\\" in text or "\r" in text or "\0" in text:
        return None
    parts = text.split("**")
    if len(parts) % 2 == 0 or any("*" in part for part in parts):
        return None
    for index in range(1, len(parts)):
        before = parts[index - 1][-1:] or (" " if index == 1 else "")
        after = parts[index][:1] or (" " if index == len(parts) - 1 else "")
        last, following = _kind(before) if before else None, _kind(after) if after else None
        if last is None or following is None:  # `****`, or a character outside the three kinds
            return None
        left = not (following == _SPACE or following == _PUNCTUATION and last == _WORD)
        right = not (last == _SPACE or last == _PUNCTUATION and following == _WORD)
        opens = left and (not right or last == _PUNCTUATION)
        closes = right and (not left or following == _PUNCTUATION)
        if (opens, closes) != ((True, False) if index % 2 else (False, True)):
            return None
    return [(part, index % 2 == 1) for index, part in enumerate(parts) if part]


def card_segments(text: str) -> list[Segment]:
    """Card text as its tokens, each with its emphasis; the game's `embed:` words are icons already where they
    apply (`marked`), in the text fields."""
    if "*" not in text and "\\" not in text:  # most text: no emphasis and no escapes, nothing for markdown-it
        if "[[" not in text:  # and no icon: one token of text, or none
            return [Segment(Token(text))] if text else []
        return [Segment(token) for token in tokens([(text, False)], {})]
    spans = _plain_bold(text)
    if spans is not None:
        return [Segment(token, bold) for span, bold in spans for token in tokens([(span, False)], {})]
    return _parsed(text)


def _parsed(text: str) -> list[Segment]:
    """card_segments by markdown-it."""
    result: list[Segment] = []
    bold = italic = 0
    fragments: list[tuple[str, bool]] = []

    def flush() -> None:
        if fragments:
            result.extend(Segment(token, bold > 0, italic > 0) for token in tokens(fragments, {}))
            fragments.clear()

    for node in _card_parser().parseInline(text)[0].children or []:
        kind = node.type
        if kind in ("text", "text_special", "hardbreak"):
            fragments.append(("\n" if kind == "hardbreak" else node.content, kind != "text"))
            continue
        flush()
        if kind in ("strong_open", "strong_close"):
            bold += 1 if kind == "strong_open" else -1
        elif kind in ("em_open", "em_close"):
            italic += 1 if kind == "em_open" else -1
    flush()
    return result

