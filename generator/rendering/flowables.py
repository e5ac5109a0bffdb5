"""The rulebook's flowables of our own: tables that split a row only when it is taller than a page, contents
lines whose page numbers are filled in once the book is laid out, and paragraphs and images that draw SVG."""

from __future__ import annotations

import html
import re
from pathlib import Path

from reportlab import platypus
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.lib.enums import TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, Image, Table

from ..core import linebreak, shaping, svg
from ..core.units import PT_PER_MM
from . import bidi
from .markup import attribute, plain
from .vectors import PLACEHOLDER, VectorIcon

ROW_SPLIT = 36.0  # points: the least of a row taller than a page that is left at the foot of one


class SplitTable(Table):
    """A table (or an example's box) whose rows split across pages only when one is taller than a whole page,
    where platypus would give up; anywhere else it moves to the next page as a table does."""

    def __init__(self, *args, page_height: float = 0.0, **kwargs):
        super().__init__(*args, **kwargs)  # platypus makes the parts of a split table without page_height
        self.page_height = page_height

    def split(self, available_width, available_height):
        parts = super().split(available_width, available_height)
        if not parts and not self.splitInRow and available_height >= self.page_height - 1:
            self.splitInRow = ROW_SPLIT
            parts = super().split(available_width, available_height)
        for part in parts:
            part.page_height = self.page_height
        return parts


class ContentsLine(Flowable):
    """One line of the contents: the heading, dot leaders, and its page number, a form filled in at the end; a
    heading written right to left (Arabic, Hebrew) at the right, its page number at the left."""

    NUMBER_WIDTH = 24.0  # points

    def __init__(self, level: int, title: str, key: str, style):
        super().__init__()
        self.level, self.title, self.key, self.style = level, title, key, style
        self.rtl = shaping.right_to_left(title) and shaping.base_level(title) == 1

    def wrap(self, available_width, available_height):
        self.width = available_width
        return available_width, self.style.leading

    def draw(self):
        c, style = self.canv, self.style
        size = style.fontSize
        room = self.width - style.leftIndent - self.NUMBER_WIDTH - 6
        while c.stringWidth(shaping.shaped_line(self.title, style.fontName, size), style.fontName, size) > room \
                and size > 6:
            size -= 0.25
        title = shaping.shaped_line(self.title, style.fontName, size)  # Arabic joined, right to left
        baseline = (style.leading - size) / 2 + size * 0.22
        c.setFont(style.fontName, size)
        c.setFillColor(style.textColor)
        dot = c.stringWidth(" .", "text", size)
        if self.rtl:
            c.drawRightString(self.width - style.leftIndent, baseline, title)
            end = self.width - style.leftIndent - c.stringWidth(title, style.fontName, size) - 4
            c.setFont("text", size)
            c.drawString(self.NUMBER_WIDTH + 2, baseline, " ." * max(0, int((end - self.NUMBER_WIDTH - 2) / dot)))
        else:
            c.drawString(style.leftIndent, baseline, title)
            start = style.leftIndent + c.stringWidth(title, style.fontName, size) + 4
            c.setFont("text", size)
            c.drawRightString(self.width - self.NUMBER_WIDTH - 2, baseline, " ." * max(0, int((self.width - self.NUMBER_WIDTH - 2 - start) / dot)))
        c.saveState()
        c.translate(0 if self.rtl else self.width - self.NUMBER_WIDTH, baseline)
        c.doForm(f"contents-{self.key}")
        c.restoreState()
        c.linkRect("", self.key, (0, 0, self.width, style.leading), relative=1, thickness=0)

    def fill(self, canvas, page: int | None) -> None:
        canvas.beginForm(f"contents-{self.key}", 0, -self.style.fontSize, self.NUMBER_WIDTH, self.style.fontSize)
        canvas.setFont(self.style.fontName, self.style.fontSize)
        canvas.setFillColor(self.style.textColor)
        number = "" if page is None else str(page)
        if self.rtl:
            canvas.drawString(0, 0, number)
        else:
            canvas.drawRightString(self.NUMBER_WIDTH, 0, number)
        canvas.endForm()


_SOURCE = re.compile(r'<img src="([^"]*)"')  # as markup.icons writes an image icon's tag


class Paragraph(platypus.Paragraph):
    """A paragraph whose image icons may be SVG: each SVG's <img> names vectors.PLACEHOLDER while platypus parses
    it, then the placeholder's reader is replaced by the SVG's VectorIcon, which vectors.VectorCanvas draws."""

    def __init__(self, text, style, *args, **kwargs):
        if text and linebreak.spaceless(text):  # CJK: lines break between characters, as platypus's CJK mode
            style = _variant(style, wordWrap="CJK")  # does, with the kinsoku rules (no 。 at a line's start)
        if text and shaping.shaped(text):
            style = _variant(style, shaping=1)  # Indic and Arabic letters shaped by HarfBuzz (see core/shaping.py)
        if text and shaping.right_to_left(text):  # Hebrew, Arabic: each line put in the order it prints, as drawn
            level = shaping.base_level(plain(text))
            style = _variant(style, bidi_level=level, alignment=TA_RIGHT if level and style.alignment == TA_LEFT
                             else style.alignment)
        sources = [html.unescape(source) for source in _SOURCE.findall(text or "")]
        if any(svg.is_svg(source) for source in sources):
            text = _SOURCE.sub(_placeholder, text)
        super().__init__(text, style, *args, **kwargs)
        icons = iter(sources)
        for frag in self.frags if sources else ():
            definition = getattr(frag, "cbDefn", None)
            if definition is not None and definition.kind == "img":
                source = next(icons)
                if svg.is_svg(source):
                    definition.image = VectorIcon(Path(source))

    def wrap(self, availWidth, availHeight):
        """Platypus asks a paragraph its size again and again at one width (a table cell to size its row, then to
        draw it; a frame to try a block, then to place it): three asks in five in the bundled rulebooks. The lines
        are broken once for a width and kept while the paragraph's style, text and lines stay (splitting a
        paragraph that does not fit drops its lines)."""
        kept, lines = self.__dict__.get("_kept"), self.__dict__.get("blPara")
        if kept and kept[0] == availWidth and kept[1] is self.style and kept[2] is self.frags and kept[3] is lines:
            return kept[4]
        size = super().wrap(availWidth, availHeight)
        self._kept = (availWidth, self.style, self.frags, self.__dict__.get("blPara"), size)
        return size

    def draw(self):
        """Drawn with each line's words in the order they print (bidi.visual_line), then put back in logical order,
        which splitting a paragraph across pages reads again."""
        level = getattr(self.style, "bidi_level", None)
        if level is None or self.blPara.kind != 1:
            return super().draw()
        lines = self.blPara.lines
        logical = [line.words for line in lines]
        for line in lines:
            line.words = bidi.visual_line(line.words, level)
        try:
            super().draw()
        finally:
            for line, words in zip(lines, logical):
                line.words = words


def _variant(style: ParagraphStyle, **changes) -> ParagraphStyle:
    """`style` with `changes`: made for the paragraphs in other scripts only, so Latin ones keep theirs."""
    return ParagraphStyle(f"{style.name}-{'-'.join(map(str, changes.values()))}", parent=style, **changes)


def _placeholder(match: re.Match) -> str:
    """An SVG icon's tag made to name the placeholder; a raster image's left as it is."""
    return f'<img src="{attribute(str(PLACEHOLDER))}"' if svg.is_svg(html.unescape(match[1])) else match[0]


class VectorImage(Flowable):
    """An SVG image of the rulebook, `width` x `height` points, centred like platypus's images."""

    def __init__(self, path: Path, width: float, height: float):
        super().__init__()
        self.path, self.width, self.height = path, width, height
        self.hAlign = "CENTER"

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def draw(self):
        self.canv.vectors.draw(self.path, 0, 0, self.width, self.height)


def picture(path: Path, width: float, room: float) -> Flowable:
    """A rulebook image at its own size (a pixel a point; an SVG at the size its viewBox gives it), shrunk to fit
    `width` x `room` points; an SVG drawn as vectors."""
    if svg.is_svg(path):
        drawing = svg.load(path)
        w, h = drawing.width, drawing.height
    else:
        from PIL import Image as PILImage

        with PILImage.open(path) as image:
            w, h = image.size
    scale = min(1.0, width / w, room / h)
    if svg.is_svg(path):
        return VectorImage(path, w * scale, h * scale)
    return Image(str(path), width=w * scale, height=h * scale)


def draw_face(c, face, left: float, bottom: float, scale: float, painter, paint) -> None:
    """A card's face drawn on the canvas `c` with its trim's bottom-left at (left, bottom) points, `scale` times its
    size: clipped to its rounded trim, and outlined."""
    radius = 2.5 * PT_PER_MM
    c.saveState()
    c.translate(left, bottom)
    c.scale(scale, scale)
    outline = c.beginPath()
    outline.roundRect(0, 0, face.width * PT_PER_MM, face.height * PT_PER_MM, radius)
    c.clipPath(outline, stroke=0, fill=0)
    painter(c).paint(face.items, face.height)
    c.restoreState()
    c.saveState()
    c.setStrokeColor(paint("#5a574f"))
    c.setLineWidth(0.4)
    c.roundRect(left, bottom, face.width * PT_PER_MM * scale, face.height * PT_PER_MM * scale, radius * scale)
    c.restoreState()


class CardFigure(Flowable):
    """A card's real face in the rulebook, `figure.width` mm wide or the column's width (layout/figures.py), with
    numbered callouts on the elements it names, and beneath, a legend of those numbers and a caption."""

    CALLOUT = 4.2  # mm: a callout's diameter

    def __init__(self, figure, caption: str, style, painter, paint):
        """`painter(canvas)` makes the Painter that draws the face; `paint(colour)` gives a colour in the book's
        inks."""
        super().__init__()
        self.figure, self.caption, self.style, self.painter, self.paint = figure, caption, style, painter, paint
        self.hAlign = "CENTER"
        legend = "   ".join(f"{number} {label}" for number, _, _, label in figure.marks)
        self.lines = [text for text in (legend, caption) if text]

    def wrap(self, available_width, available_height):
        face = self.figure.face
        self.scale = min(self.figure.width, available_width / PT_PER_MM) / face.width
        widths = [stringWidth(t, self.style.fontName, self.style.fontSize) for t in self.lines]
        self.width = min(available_width, max(face.width * self.scale * PT_PER_MM, *widths))
        self.height = face.height * self.scale * PT_PER_MM + len(self.lines) * self.style.leading + 4
        return self.width, self.height

    def draw(self):
        c, face, style = self.canv, self.figure.face, self.style
        shown = face.width * self.scale * PT_PER_MM
        left, bottom = (self.width - shown) / 2, len(self.lines) * style.leading + 4
        draw_face(c, face, left, bottom, self.scale, self.painter, self.paint)
        c.saveState()
        radius = self.CALLOUT / 2 * PT_PER_MM
        for number, x, y, _ in self.figure.marks:
            cx = left + max(x * self.scale * PT_PER_MM, radius)
            cy = bottom + (face.height - y) * self.scale * PT_PER_MM
            c.setFillColor(self.paint("#1d1d1b"))
            c.setStrokeColor(self.paint("#ffffff"))
            c.setLineWidth(0.8)
            c.circle(cx, cy, radius, stroke=1, fill=1)
            c.setFillColor(self.paint("#ffffff"))
            c.setFont("text-bold", radius * 1.3)
            c.drawCentredString(cx, cy - radius * 0.45, str(number))
        c.setFillColor(style.textColor)
        c.setFont(style.fontName, style.fontSize)
        for row, text in enumerate(self.lines):
            c.drawCentredString(self.width / 2, bottom - 4 - (row + 1) * style.leading + (style.leading - style.fontSize),
                                shaping.shaped_line(text, style.fontName, style.fontSize))
        c.restoreState()


class CardRow(Flowable):
    """The cover's cards side by side, as large as fits `height` points and the width, centred."""

    GAP = 5 * PT_PER_MM

    def __init__(self, figures, height: float, painter, paint):
        super().__init__()
        self.figures, self.room, self.painter, self.paint = figures, height, painter, paint

    def wrap(self, available_width, available_height):
        faces = [f.face for f in self.figures]
        tallest = max(face.height for face in faces) * PT_PER_MM
        across = sum(face.width for face in faces) * PT_PER_MM
        self.scale = min(self.room / tallest, (available_width - self.GAP * (len(faces) - 1)) / across)
        self.width, self.height = available_width, tallest * self.scale
        return self.width, self.height

    def draw(self):
        faces = [f.face for f in self.figures]
        row = sum(face.width for face in faces) * PT_PER_MM * self.scale + self.GAP * (len(faces) - 1)
        left = (self.width - row) / 2
        for face in faces:
            draw_face(self.canv, face, left, (self.height - face.height * PT_PER_MM * self.scale) / 2, self.scale,
                      self.painter, self.paint)
            left += face.width * PT_PER_MM * self.scale + self.GAP
