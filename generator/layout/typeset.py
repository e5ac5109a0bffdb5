"""Text set in a box: markup, line breaking, shrink-to-fit and placing. Sizes in points, positions in millimetres."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter
from pathlib import Path
from typing import Mapping, NamedTuple

from ..core import fonts, linebreak
from ..core.display import Picture, Run
from ..core.inline import SYMBOL_PREFIX, Segment
from ..core.model import Icon
from ..core.units import MM_PER, PT_PER_MM
from . import symbols

MM_PER_PT = MM_PER["pt"]
STEP = 0.25  # points: the granularity of shrinking
EM_OVER_HEIGHT = 1.1  # how much taller than its box a one-line text's em may be
MAX_WORDS = 65536  # words measured and kept, per font and colour


@dataclass(frozen=True)
class Span:
    """A run of text in one face of a family (regular, bold, italic), or an icon, as markup splits it."""

    text: str
    font: str
    colour: str
    image: Path | None = None  # an inline image icon, one em square
    glued: bool = False  # an icon kept on the line of the number before it, a space apart
    symbol: tuple[str, str] | None = None  # a unit symbol's affiliation and types, one em high


def spans(segments: list[Segment], font: str, colour: str, icons: Mapping[str, Icon]) -> list[Span]:
    """Card text's segments (core/inline.py) as spans of one font and colour each: **bold** and *italic* in the
    faces of `font`'s family, added to the emphasis `font` already has."""
    if len(segments) == 1 and segments[0].token.icon is None and not segments[0].bold and not segments[0].italic:
        return _fallen_back([Span(segments[0].token.text, font, colour)])  # most text: no markup, one span
    family = fonts.font_book().family_of(font)
    role = next((r for r, member in family.items() if member == font), "regular")
    result: list[Span] = []
    for segment in segments:
        token = segment.token
        if token.icon is not None and token.icon.startswith(SYMBOL_PREFIX):
            result.append(Span("", font, colour, glued=token.glued, symbol=symbols.icon_name(token.icon, None)))
            continue
        if token.icon is not None:
            icon = icons[token.icon]
            result.append(Span(icon.glyph or "", icon.font, icon.colour or colour, icon.image, token.glued))
            continue
        bold, italic = segment.bold or "bold" in role, segment.italic or "italic" in role
        face = family["bold_italic" if bold and italic else "bold" if bold else "italic" if italic else "regular"]
        result.append(Span(token.text, face, colour))
    return _fallen_back(result)


def _fallen_back(parts: list[Span]) -> list[Span]:
    """Each span of text cut where its font has no glyph that a font of its family's fallback has (fonts.runs)."""
    result: list[Span] = []
    for span in parts:
        cut = fonts.runs(span.text, span.font) if span.image is None and span.symbol is None else ()
        if len(cut) > 1:
            result += [Span(text, font, span.colour, glued=span.glued and not n) for n, (text, font) in enumerate(cut)]
        else:
            result.append(span)
    return result


class Piece(NamedTuple):
    """A word or an icon measured at 1 pt, with the space before it: what lines are broken from."""

    text: str
    font: str
    colour: str
    width: float  # at 1 pt, in points
    image: Path | None = None
    symbol: tuple[str, str] | None = None  # a unit symbol's affiliation and types


class Word(NamedTuple):
    """A run of text between spaces, in one or more pieces; widths at 1 pt, in points, measured once."""

    pieces: tuple[Piece, ...]
    width: float
    space: float  # the width of a space after this word, in the font of its last piece (0 when joined)
    style: tuple[str, str] | None = None  # (font, colour) of a word that is one piece of text, else None
    joined: bool = False  # the next word follows without a space (a break inside CJK text): see core/linebreak.py


NEWLINE = Word((), 0.0, 0.0)
_STYLE, _JOINED = attrgetter("style"), attrgetter("joined")


def _word(pieces: list[Piece], joined: bool = False) -> Word:
    if len(pieces) == 1 and pieces[0].image is None and pieces[0].symbol is None:
        return _plain_word(pieces[0].text, pieces[0].font, pieces[0].colour, joined)
    space = 0.0 if joined else fonts.unit_width(" ", pieces[-1].font)
    return Word(tuple(pieces), sum(p.width for p in pieces), space, joined=joined)


@fonts.measuring
@lru_cache(maxsize=MAX_WORDS)
def _plain_word(text: str, font: str, colour: str, joined: bool = False) -> Word:
    """A word in one font and colour: card text repeats its words, so each is measured and built once."""
    width = fonts.unit_width(text, font)
    space = 0.0 if joined else fonts.unit_width(" ", font)
    return Word((Piece(text, font, colour, width),), width, space, (font, colour), joined)


class _Words(dict):
    """The words of one font and colour met so far, by their text (_plain_word's), in a dict looked up in C: a
    paragraph's words are most of what laying out a card's text does."""

    def __init__(self, font: str, colour: str):
        super().__init__()
        self.font, self.colour = font, colour

    def __missing__(self, text: str) -> Word:
        word = _plain_word(text, self.font, self.colour)
        if len(self) < MAX_WORDS:
            self[text] = word
        return word


class _Styles(dict):
    """The words met in each font and colour, forgotten with the fonts' measures (fonts.measuring)."""

    cache_clear = dict.clear


_STYLES = fonts.measuring(_Styles())


def words(parts: list[Span]) -> list[Word]:
    """Spans cut into words (runs without spaces, possibly in several fonts); NEWLINE marks a forced break. Text
    in a script written without spaces (CJK) is also cut where UAX #14 lets a line break (core/linebreak.py)."""
    if (len(parts) == 1 and parts[0].image is None and parts[0].symbol is None and "\n" not in parts[0].text
            and not linebreak.spaceless(parts[0].text)):
        span = parts[0]  # the common case: one font, one colour, no forced breaks, words between spaces
        known = _STYLES.get((span.font, span.colour))
        if known is None:
            known = _STYLES[span.font, span.colour] = _Words(span.font, span.colour)
        return [known[chunk] for chunk in span.text.split(" ") if chunk]
    text = "".join([span.text if span.image is None and span.symbol is None else linebreak.OBJECT for span in parts])
    breaks = linebreak.breaks(text)  # offsets where a line may break without a space
    result: list[Word] = []
    current: list[Piece] = []
    offset = 0
    for span in parts:
        if span.glued and current:  # a space inside the word, where the line may not break
            current.append(Piece(" ", current[-1].font, current[-1].colour, fonts.unit_width(" ", current[-1].font)))
        elif offset in breaks and current:
            result.append(_word(current, joined=True))
            current = []
        if span.image is not None or span.symbol is not None:
            width = 1.0 if span.image is not None else symbols.width(span.symbol[0])
            current.append(Piece("", span.font, span.colour, width, span.image, span.symbol))
            offset += 1
            continue
        for number, line in enumerate(span.text.split("\n")):
            if number:
                if current:
                    result.append(_word(current))
                    current = []
                result.append(NEWLINE)
                offset += 1
            chunks = line.split(" ")
            for index, chunk in enumerate(chunks):
                if index:
                    offset += 1
                    if current:  # a space ends the word before it
                        result.append(_word(current))
                        current = []
                start = 0
                for cut in sorted(c - offset for c in breaks if offset < c < offset + len(chunk)):
                    current.append(Piece(chunk[start:cut], span.font, span.colour,
                                         fonts.unit_width(chunk[start:cut], span.font)))
                    result.append(_word(current, joined=True))
                    current, start = [], cut
                if chunk[start:]:
                    current.append(Piece(chunk[start:], span.font, span.colour,
                                         fonts.unit_width(chunk[start:], span.font)))
                offset += len(chunk)
    if current:
        result.append(_word(current))
    return result


def break_lines(items: list[Word], width_pt: float, size: float) -> list[list[Word]] | None:
    """Greedy line breaking at `size`; None when a single word is wider than the line."""
    line: list[Word] = []
    lines = [line]
    limit = width_pt / size + 1e-6
    used = space = 0.0  # the width of the line so far, and of the space after its last word
    for word in items:
        if word is NEWLINE:
            line = []
            lines.append(line)
            used = 0.0
            continue
        width = word.width
        if width > limit:
            return None
        if line and used + space + width <= limit:
            line.append(word)
            used += space + width
        else:
            if line:
                line = [word]
                lines.append(line)
            else:
                line.append(word)
            used = width
        space = word.space
    return lines


def line_width(line: list[Word], size: float) -> float:
    if not line:
        return 0.0
    return (sum([w.width + w.space for w in line]) - line[-1].space) * size


def sizes(size: float, min_size: float):
    """Font sizes from `size` down to `min_size` in STEP decrements."""
    current = size
    while current >= min_size - 1e-9:
        yield round(current, 2)
        current -= STEP


@dataclass(frozen=True)
class Fitted:
    """Text fitted into its box: its lines and the size at which they fit."""

    size: float
    lines: list[list[Word]]


def fit_block(items: list[Word], width: float, height: float, size: float, min_size: float, leading: float) -> Fitted | None:
    """The largest size (<= size, >= min_size) at which the words fill at most `height` mm; None if none does."""
    width_pt = width / MM_PER_PT
    for candidate in sizes(size, min_size):
        lines = break_lines(items, width_pt, candidate)
        if lines is not None and len(lines) * candidate * leading * MM_PER_PT <= height + 1e-6:
            return Fitted(candidate, lines)
    return None


def fit_line(items: list[Word], width: float, height: float, size: float, min_size: float) -> Fitted | None:
    """The largest size at which the words stand on one line within `width` mm and whose em is at most
    10 % taller than `height` mm (capitals and digits take about 0.7 em, so they still sit well inside)."""
    line = [w for w in items if w is not NEWLINE]
    natural = line_width(line, 1.0)
    best = min(size, height * EM_OVER_HEIGHT / MM_PER_PT)
    if natural > 0:
        best = min(best, width / MM_PER_PT / natural)
    for candidate in sizes(size, min_size):
        if candidate <= best + 1e-9:
            return Fitted(candidate, [line])
    return None


def place_line(line: list[Word], size: float, x: float, w: float, baseline: float, align: str,
               justify: bool = False) -> list:
    """Runs (and inline pictures) for one line from `x` in a width of `w`: pieces of one font and colour joined
    by plain spaces become one run."""
    em = size / PT_PER_MM
    extra = 0.0
    if align == "center" or align == "right" or (align == "justify" and justify and len(line) > 1):
        natural = line_width(line, size) / PT_PER_MM  # text set to the left needs no measure of its line
        if align == "center":
            x += (w - natural) / 2
        elif align == "right":
            x += w - natural
        else:
            extra = (w - natural) / (len(line) - 1)
    style = line[0].style if line else None
    if style is not None and extra == 0.0 and len(set(map(_STYLE, line))) == 1:  # the common case: one font, one colour
        if any(map(_JOINED, line)):
            text = "".join([word.pieces[0].text + ("" if word.joined else " ") for word in line[:-1]])
            text += line[-1].pieces[0].text
        else:  # and words between spaces
            text = " ".join([word.pieces[0].text for word in line])
        return [Run(round(x, 3), round(baseline, 3), text, style[0], size, style[1])]
    runs: list[list] = []  # [x, text, font, colour]
    pictures = []
    cursor = x
    last = None  # the run the next piece may join: none after a picture, which stands between them
    for index, word in enumerate(line):
        for number, piece in enumerate(word.pieces):
            if piece.image is not None or piece.symbol is not None:
                middle = baseline - fonts.cap_height(piece.font) * em / 2
                if piece.symbol is not None:
                    pictures += symbols.inline(*piece.symbol, cursor, middle, em, piece.colour)
                else:
                    pictures.append(Picture(piece.image, round(cursor, 3), round(middle - em / 2, 3), em, em))
                last = None
            elif last and last[2] == piece.font and last[3] == piece.colour and (number > 0 or extra == 0.0):
                last[1] += piece.text if number > 0 or line[index - 1].joined else " " + piece.text
            else:
                last = [cursor, piece.text, piece.font, piece.colour]
                runs.append(last)
            cursor += piece.width * em
        if index < len(line) - 1:
            cursor += word.space * em + extra
    return [Run(round(left, 3), round(baseline, 3), text, font, size, colour)
            for left, text, font, colour in runs] + pictures
