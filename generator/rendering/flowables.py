"""The rulebook's flowables of our own: tables that split a row only when it is taller than a page, contents
lines whose page numbers are filled in once the book is laid out, and paragraphs and images that draw SVG."""

from __future__ import annotations

import html
import re
from pathlib import Path

from reportlab import platypus
from reportlab.platypus import Flowable, Image, Table

from ..core import svg
from .markup import attribute
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
    """One line of the contents: the heading, dot leaders, and its page number, a form filled in at the end."""

    NUMBER_WIDTH = 24.0  # points

    def __init__(self, level: int, title: str, key: str, style):
        super().__init__()
        self.level, self.title, self.key, self.style = level, title, key, style

    def wrap(self, available_width, available_height):
        self.width = available_width
        return available_width, self.style.leading

    def draw(self):
        c, style = self.canv, self.style
        size = style.fontSize
        room = self.width - style.leftIndent - self.NUMBER_WIDTH - 6
        while c.stringWidth(self.title, style.fontName, size) > room and size > 6:
            size -= 0.25
        baseline = (style.leading - size) / 2 + size * 0.22
        c.setFont(style.fontName, size)
        c.setFillColor(style.textColor)
        c.drawString(style.leftIndent, baseline, self.title)
        start = style.leftIndent + c.stringWidth(self.title, style.fontName, size) + 4
        dot = c.stringWidth(" .", "text", size)
        c.setFont("text", size)
        c.drawRightString(self.width - self.NUMBER_WIDTH - 2, baseline, " ." * max(0, int((self.width - self.NUMBER_WIDTH - 2 - start) / dot)))
        c.saveState()
        c.translate(self.width - self.NUMBER_WIDTH, baseline)
        c.doForm(f"contents-{self.key}")
        c.restoreState()
        c.linkRect("", self.key, (0, 0, self.width, style.leading), relative=1, thickness=0)

    def fill(self, canvas, page: int | None) -> None:
        canvas.beginForm(f"contents-{self.key}", 0, -self.style.fontSize, self.NUMBER_WIDTH, self.style.fontSize)
        canvas.setFont(self.style.fontName, self.style.fontSize)
        canvas.setFillColor(self.style.textColor)
        canvas.drawRightString(self.NUMBER_WIDTH, 0, "" if page is None else str(page))
        canvas.endForm()


_SOURCE = re.compile(r'<img src="([^"]*)"')  # as markup.icons writes an image icon's tag


class Paragraph(platypus.Paragraph):
    """A paragraph whose image icons may be SVG: each SVG's <img> names vectors.PLACEHOLDER while platypus parses
    it, then the placeholder's reader is replaced by the SVG's VectorIcon, which vectors.VectorCanvas draws."""

    def __init__(self, text, style, *args, **kwargs):
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
