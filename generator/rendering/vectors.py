"""SVG art drawn as vector paths: each file once per PDF, as a form XObject that every use of it places.

A drawing is made from the file by core/svg.py (vetted, then converted by svglib) the first time a PDF draws it;
each later use is a `Do` of that form, so 500 cards with the same icon hold its paths once. Forms are named in the
order files are first drawn, so the same inputs give the same bytes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from reportlab.pdfgen.canvas import Canvas

from ..core import fonts, svg
from ..core.display import Fit
from .inks import Inks, hex_of

PLACEHOLDER = Path(__file__).with_name("placeholder.png")  # a transparent pixel: see VectorCanvas


def scales(size: tuple[float, float], box: tuple[float, float], fit: Fit) -> tuple[float, float]:
    """How much an image of `size` is scaled across and up to fit `box` as `fit` says (display.Picture)."""
    across, up = box[0] / size[0], box[1] / size[1]
    if fit == "stretch":
        return across, up
    scale = max(across, up) if fit == "cover" else min(across, up)
    return scale, scale


class Forms:
    """The SVG files drawn on one canvas, each made a form the first time it is drawn."""

    def __init__(self, canvas: Canvas, recolour: Callable[[float, float, float], tuple] | None = None):
        self.canvas = canvas
        self.recolour = recolour
        self.known: dict[Path, tuple[str, float, float]] = {}  # file -> form name, width, height in points

    def draw(self, path: Path, x: float, y: float, w: float, h: float, fit: Fit = "contain") -> None:
        """The SVG fitted into the box at (x, y), w x h points as `fit` says, centred, as raster images are."""
        name, width, height = self._form(path)
        across, up = scales((width, height), (w, h), fit)
        c = self.canvas
        c.saveState()
        c.translate(x + (w - width * across) / 2, y + (h - height * up) / 2)
        c.scale(across, up)
        c.doForm(name)
        c.restoreState()

    def _form(self, path: Path) -> tuple[str, float, float]:
        known = self.known.get(path)
        if known is None:
            from reportlab.graphics import renderPDF

            drawing = svg.load(path)
            # renderPDF sets the drawing's font before anything else: the canvas's own font, or it would name
            # Helvetica, a font no PDF of ours lists
            drawing.initialFontName = fonts.face("text").fontName
            known = self.known[path] = (f"svg{len(self.known)}", drawing.width, drawing.height)
            self.canvas.beginForm(known[0], 0, 0, drawing.width, drawing.height)
            _renderer(self.recolour).draw(renderPDF.renderScaledDrawing(drawing), self.canvas, 0, 0)
            self.canvas.endForm()
        return known


def _renderer(recolour: Callable[[float, float, float], tuple] | None):
    """reportlab's PDF renderer; with `recolour`, every colour it sets, the defaults it starts from included, turned
    into `recolour`'s (grey, or the inks of a CMYK build): recolouring the drawing's shapes would leave the
    renderer's own starting black in RGB."""
    from reportlab.graphics.renderPDF import _PDFRenderer
    from reportlab.lib.colors import CMYKColor, Color

    def converted(colour):
        if recolour is None or not isinstance(colour, Color) or isinstance(colour, CMYKColor):
            return colour
        values = recolour(colour.red, colour.green, colour.blue)
        return (CMYKColor if len(values) == 4 else Color)(*values, alpha=colour.alpha)

    class _Recoloured(_PDFRenderer):
        def setFillColor(self, colour):
            super().setFillColor(converted(colour))

        def setStrokeColor(self, colour):
            super().setStrokeColor(converted(colour))

    return _Recoloured()


class VectorIcon:
    """An SVG icon in a rulebook paragraph, where platypus expects a raster image: see VectorCanvas."""

    def __init__(self, path: Path):
        self.path = path


class VectorCanvas(Canvas):
    """The rulebook's canvas: it draws SVG as forms, and an icon's SVG where platypus draws an inline image.

    Platypus reads every <img> of a paragraph as a raster image, so an SVG icon's tag names PLACEHOLDER while the
    paragraph is parsed, and flowables.Paragraph then puts a VectorIcon where the placeholder's reader was; platypus
    hands that to drawImage with the icon's box, and the SVG is drawn there. The placeholder never reaches the PDF.
    """

    def __init__(self, *args, inks: Inks | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.inks = inks or Inks()
        cmyk = self.inks.mode == "cmyk"
        self.vectors = Forms(self, (lambda r, g, b: self.inks.of(hex_of(r, g, b))) if cmyk else None)

    def drawImage(self, image, x, y, width=None, height=None, *args, **kwargs):
        if isinstance(image, VectorIcon):
            self.vectors.draw(image.path, x, y, width, height)
            return width, height
        if self.inks.mode == "cmyk" and isinstance(image, str):  # a raster image's file, as platypus names it
            from PIL import Image
            from reportlab.lib.utils import ImageReader

            with Image.open(image) as opened:
                opened.load()
                image = ImageReader(self.inks.image(opened))
        return super().drawImage(image, x, y, width, height, *args, **kwargs)
