"""Drawing display lists and sheets with reportlab: the only module that speaks PDF."""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO, Iterable

from reportlab import rl_config
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from . import fonts
from .display import Ellipse, Face, Line, Picture, Polygon, Rect, Run, Turned
from .imposition import Sheet
from .units import PT_PER_MM

K = PT_PER_MM

# Binary compressed streams: ASCII85 on top of Flate only served 7-bit mail and costs a quarter of the bytes.
rl_config.useA85 = 0


def _rgb(hex_colour: str) -> tuple[float, float, float]:
    value = int(hex_colour[1:], 16)
    return ((value >> 16) & 255) / 255, ((value >> 8) & 255) / 255, (value & 255) / 255


class Painter:
    """Draws display-list items on a canvas whose origin is a face's trim bottom-left, y upwards, in points."""

    def __init__(self, canvas: Canvas, greyscale: bool = False):
        self.canvas = canvas
        self.greyscale = greyscale
        self.images: dict[Path, ImageReader] = {}
        self.colours: dict[str, tuple[float, float, float]] = {}

    def colour(self, hex_colour: str):
        rgb = self.colours.get(hex_colour)
        if rgb is None:
            r, g, b = _rgb(hex_colour)
            if self.greyscale:
                r = g = b = 0.299 * r + 0.587 * g + 0.114 * b
            rgb = self.colours[hex_colour] = (r, g, b)
        return rgb

    def paint(self, items: Iterable, height: float) -> None:
        c = self.canvas
        text = None  # consecutive runs share one text object: one BT/ET, fonts and colours set only on change
        for item in items:
            if type(item) is Run:
                if text is None:
                    text, font, colour = c.beginText(), None, None
                if (item.font, item.size) != font:
                    font = (item.font, item.size)
                    text.setFont(fonts.face(item.font).fontName, item.size)
                if item.colour != colour:
                    colour = item.colour
                    text.setFillColorRGB(*self.colour(colour))
                text.setTextOrigin(item.x * K, (height - item.y) * K)
                text.textOut(item.text)
                continue
            if text is not None:
                c.drawText(text)
                text = None
            if isinstance(item, Turned):
                c.saveState()
                c.translate(item.cx * K, (height - item.cy) * K)
                c.rotate(-item.angle)  # clockwise on the card; PDF turns counter-clockwise
                c.translate(-item.cx * K, -(height - item.cy) * K)
                self.paint(item.items, height)
                c.restoreState()
            elif isinstance(item, Rect):
                fill, stroke = self._paints(item.fill, item.stroke, item.stroke_width)
                if fill or stroke:
                    x, y, w, h = item.x * K, (height - item.y - item.h) * K, item.w * K, item.h * K
                    if item.radius > 0:
                        c.roundRect(x, y, w, h, item.radius * K, stroke=stroke, fill=fill)
                    else:
                        c.rect(x, y, w, h, stroke=stroke, fill=fill)
            elif isinstance(item, Line):
                c.setStrokeColorRGB(*self.colour(item.stroke))
                c.setLineWidth(item.width * K)
                c.setDash([d * K for d in item.dash] if item.dash else [])
                c.line(item.x1 * K, (height - item.y1) * K, item.x2 * K, (height - item.y2) * K)
                if item.dash:
                    c.setDash([])
            elif isinstance(item, Ellipse):
                fill, stroke = self._paints(item.fill, item.stroke, item.stroke_width)
                if fill or stroke:
                    c.ellipse((item.cx - item.rx) * K, (height - item.cy - item.ry) * K, (item.cx + item.rx) * K,
                              (height - item.cy + item.ry) * K, stroke=stroke, fill=fill)
            elif isinstance(item, Polygon):
                fill, stroke = self._paints(item.fill, item.stroke, item.stroke_width)
                if fill or stroke:
                    path = c.beginPath()
                    path.moveTo(item.points[0][0] * K, (height - item.points[0][1]) * K)
                    for px, py in item.points[1:]:
                        path.lineTo(px * K, (height - py) * K)
                    path.close()
                    c.drawPath(path, stroke=stroke, fill=fill)
            elif isinstance(item, Picture):
                reader = self.images.get(item.path)
                if reader is None:
                    reader = self.images[item.path] = self._image(item.path)
                c.drawImage(reader, item.x * K, (height - item.y - item.h) * K, item.w * K, item.h * K,
                            mask="auto", preserveAspectRatio=True, anchor="c")
        if text is not None:
            c.drawText(text)

    def _image(self, path: Path) -> ImageReader:
        """One reader per image file; in greyscale, the image's grey version (transparency kept)."""
        if not self.greyscale:
            return ImageReader(str(path))
        from PIL import Image

        with Image.open(path) as image:
            grey = image.convert("LA" if "A" in image.getbands() or "transparency" in image.info else "L")
        return ImageReader(grey)

    def _paints(self, fill: str | None, stroke: str | None, width: float) -> tuple[int, int]:
        if fill:
            self.canvas.setFillColorRGB(*self.colour(fill))
        if stroke:
            self.canvas.setStrokeColorRGB(*self.colour(stroke))
            self.canvas.setLineWidth(width * K)
        return int(bool(fill)), int(bool(stroke))


class SheetWriter:
    """Writes sheets of faces into one PDF; a face used more than once is drawn once as a form XObject."""

    def __init__(self, target: Path | BinaryIO, title: str, greyscale: bool = False):
        # The initial font must be a bundled one, or reportlab lists Helvetica among the PDF's fonts.
        initial = fonts.face("text").fontName
        where = str(target) if isinstance(target, Path) else target  # a file, or a buffer in memory
        self.canvas = Canvas(where, invariant=1, pageCompression=1, initialFontName=initial)
        self.canvas.setTitle(title)
        self.canvas.setCreator("Muster")
        self.painter = Painter(self.canvas, greyscale)
        self.forms: dict[tuple[int, int], str] = {}
        self.section = 0
        self.reused: set[int] = set()
        self.pages = 0

    def start_section(self, reused: set[int]) -> None:
        """Begin the sheets of another deck or board: its face indices are its own; `reused` are drawn as forms."""
        self.section += 1
        self.reused = reused

    def sheet(self, sheet: Sheet, faces: list[Face]) -> None:
        c = self.canvas
        width, height = sheet.paper
        c.setPageSize((width * K, height * K))
        if sheet.trim is None:  # reportlab keeps a box for every later page until it is cleared
            c.setTrimBox(None)
            c.setBleedBox(None)
        else:
            x, y, w, h = sheet.trim
            c.setBleedBox((0, 0, width * K, height * K))
            c.setTrimBox((x * K, (height - y - h) * K, (x + w) * K, (height - y) * K))
        for slot, index in sheet.placements:
            face = faces[index]
            c.saveState()
            path = c.beginPath()
            path.rect((slot.x - slot.left) * K, (height - slot.y - slot.h - slot.bottom) * K,
                      (slot.w + slot.left + slot.right) * K, (slot.h + slot.top + slot.bottom) * K)
            c.clipPath(path, stroke=0, fill=0)
            c.translate(slot.x * K, (height - slot.y - slot.h) * K)
            if index in self.reused:
                c.doForm(self._form(index, face))
            else:
                self.painter.paint(face.items, face.height)
            c.restoreState()
        self.painter.paint(sheet.overlay, height)
        c.showPage()
        self.pages += 1

    def _form(self, index: int, face: Face) -> str:
        name = self.forms.get((self.section, index))
        if name is None:
            name = self.forms[(self.section, index)] = f"s{self.section}f{index}"
            c = self.canvas
            reach = 20.0  # mm around the trim: the form's box; clipping at placement decides what shows
            c.beginForm(name, -reach * K, -reach * K, (face.width + reach) * K, (face.height + reach) * K)
            self.painter.paint(face.items, face.height)
            c.endForm()
        return name

    def save(self) -> None:
        self.canvas.save()
