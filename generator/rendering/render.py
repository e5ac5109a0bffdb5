"""Drawing display lists and sheets with reportlab: the only module that speaks PDF."""

from __future__ import annotations

import hashlib
import io
import zlib
from itertools import groupby
from pathlib import Path
from types import SimpleNamespace
from typing import BinaryIO, Iterable, Mapping

from reportlab import rl_config
from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from ..core import fonts, shaping, svg
from ..core.options import Options
from ..core.display import Ellipse, Face, Line, Picture, Polygon, Polyline, Rect, Run, Turned
from ..core.registry import Registry
from ..imposition.sheets import Sheet
from ..core.units import PT_PER_MM
from .guard import drawable
from .art import Art
from .images import Splice
from .inks import LARGE_AREA, SMALL_TEXT, Inks, hex_of, inks_of
from .vectors import Forms


PAINT = {(1, 0): "S", (0, 1): "f", (1, 1): "B"}  # stroke, fill: the operator that paints a path
# The Painter's method for each kind of display item, given a run of consecutive items of that kind.
PAINTERS: Registry = Registry("painter of")
# What leaves the stroke colour, width and dash as lines set them: a text object changes only the fill colour.
KEEPS_LINES = (Line, Run)
MAX_PLACES = 4096  # places of text whose operator a Painter keeps

# Binary compressed streams: ASCII85 on top of Flate only served 7-bit mail and costs a quarter of the bytes.
rl_config.useA85 = 0


def _grey(r: float, g: float, b: float) -> float:
    return 0.299 * r + 0.587 * g + 0.114 * b


class Painter:
    """Draws display-list items on a canvas whose origin is a face's trim bottom-left, y upwards, in points."""

    def __init__(self, canvas: Canvas, greyscale: bool = False, inks: Inks | None = None, splice: Splice | None = None):
        self.canvas = canvas
        self.greyscale = greyscale
        self.inks = inks or Inks()
        self.art = Art(canvas, greyscale, self.inks, splice)
        recolour = greyscale or self.inks.mode == "cmyk"  # else SVG colours are drawn exactly as the file has them
        self.vectors = Forms(canvas, self._svg_colour if recolour else None)
        self.colours: dict[tuple[str, bool, bool], tuple[float, ...]] = {}
        self.paths: dict[tuple, str] = {}
        self.codes: dict[str, tuple[set[str], dict[int, int]]] = {}  # per font: characters of subset 0, their codes
        self.subsets: dict[tuple[str, int], str] = {}  # per font and subset: its name in the document
        self.text_colours: dict[tuple[str, bool], str] = {}  # the operator setting text's colour, by colour
        # The text matrices of the first MAX_PLACES places text was set at (x, y, face height): a layout sets each
        # card's lines at the same places.
        self.places: dict[tuple[float, float, float], str] = {}
        self.line: tuple | None = None  # the stroke colour, width and dash of the lines being drawn, while they are

    def colour(self, colour: str, small_text: bool = False, large_area: bool = False) -> tuple[float, ...]:
        """The red, green, blue, or cyan, magenta, yellow, black that `colour` is drawn in (0 to 1 each), in text
        under SMALL_TEXT points, filling an area of LARGE_AREA mm each way, or else (inks.py)."""
        key = (colour, small_text, large_area)
        values = self.colours.get(key)
        if values is None:
            if self.greyscale:
                grey = _grey(*self.inks.seen(colour))
                values = ((grey,) * 3 if self.inks.mode == "rgb"
                          else self.inks.of(hex_of(grey, grey, grey), small_text, large_area))
            else:
                values = self.inks.of(colour, small_text, large_area)
            self.colours[key] = values
        return values

    def _svg_colour(self, r: float, g: float, b: float) -> tuple[float, ...]:
        if self.inks.mode == "rgb":  # greyscale
            grey = _grey(r, g, b)
            return grey, grey, grey
        return self.colour(hex_of(r, g, b))

    def _fill(self, colour: str, size: tuple[float, float]) -> None:
        values = self.colour(colour, large_area=min(size) >= LARGE_AREA)
        (self.canvas.setFillColorRGB if len(values) == 3 else self.canvas.setFillColorCMYK)(*values)

    def _stroke(self, colour: str) -> None:
        values = self.colour(colour)
        (self.canvas.setStrokeColorRGB if len(values) == 3 else self.canvas.setStrokeColorCMYK)(*values)

    def paint(self, items: tuple, height: float) -> None:
        """Draws `items`, each run of consecutive items of one kind by the painter of that kind (PAINTERS), once
        every number in them is known to be one PDF can carry."""
        drawable(items)
        self._paint(items, height)

    def _paint(self, items: Iterable, height: float) -> None:
        for kind, run in groupby(items, type):
            if self.line is not None and kind not in KEEPS_LINES:
                self._end_lines()
            PAINTERS[kind](self, run, height)
        if self.line is not None:
            self._end_lines()

    def _end_lines(self) -> None:
        """Lines are over, for now: the next one sets its stroke again, and no dash outlives them."""
        if self.line[2]:
            self.canvas.setDash([])
        self.line = None

    @PAINTERS.register(Run)
    def _runs(self, runs: Iterable[Run], height: float) -> None:
        self.canvas.addLiteral(self._text(runs, height))  # consecutive runs share one text object

    @PAINTERS.register(Line)
    def _lines(self, lines: Iterable[Line], height: float) -> None:
        c = self.canvas
        for item in lines:
            if (item.stroke, item.width, item.dash) != self.line:  # consecutive lines share their stroke
                self.line = (item.stroke, item.width, item.dash)
                self._stroke(item.stroke)
                c.setLineWidth(item.width * PT_PER_MM)
                c.setDash([d * PT_PER_MM for d in item.dash] if item.dash else [])
            c.line(item.x1 * PT_PER_MM, (height - item.y1) * PT_PER_MM,
                   item.x2 * PT_PER_MM, (height - item.y2) * PT_PER_MM)

    @PAINTERS.register(Turned)
    def _turned(self, turned: Iterable[Turned], height: float) -> None:
        c = self.canvas
        for item in turned:
            c.saveState()
            c.translate(item.cx * PT_PER_MM, (height - item.cy) * PT_PER_MM)
            c.rotate(-item.angle)  # clockwise on the card; PDF turns counter-clockwise
            c.translate(-item.cx * PT_PER_MM, -(height - item.cy) * PT_PER_MM)
            self._paint(item.items, height)
            c.restoreState()

    @PAINTERS.register(Rect)
    def _rects(self, rects: Iterable[Rect], height: float) -> None:
        for item in rects:
            fill, stroke = self._paints(item.fill, item.stroke, item.stroke_width, (item.w, item.h))
            if fill or stroke:
                x, y = item.x * PT_PER_MM, (height - item.y - item.h) * PT_PER_MM
                w, h = item.w * PT_PER_MM, item.h * PT_PER_MM
                radius = item.radius * PT_PER_MM
                shape = ("roundRect", x, y, w, h, radius) if item.radius > 0 else ("rect", x, y, w, h)
                self.canvas.addLiteral(f"{self._path(shape)} {PAINT[stroke, fill]}")

    @PAINTERS.register(Ellipse)
    def _ellipses(self, ellipses: Iterable[Ellipse], height: float) -> None:
        for item in ellipses:
            fill, stroke = self._paints(item.fill, item.stroke, item.stroke_width, (2 * item.rx, 2 * item.ry))
            if fill or stroke:
                shape = ("ellipse", (item.cx - item.rx) * PT_PER_MM, (height - item.cy - item.ry) * PT_PER_MM,
                         2 * item.rx * PT_PER_MM, 2 * item.ry * PT_PER_MM)
                self.canvas.addLiteral(f"{self._path(shape)} {PAINT[stroke, fill]}")

    @PAINTERS.register(Polygon)
    def _polygons(self, polygons: Iterable[Polygon], height: float) -> None:
        for item in polygons:
            xs, ys = zip(*item.points)
            fill, stroke = self._paints(item.fill, item.stroke, item.stroke_width,
                                        (max(xs) - min(xs), max(ys) - min(ys)))
            if fill or stroke:
                path = self._trace(item.points, height)
                path.close()
                self.canvas.drawPath(path, stroke=stroke, fill=fill)

    @PAINTERS.register(Polyline)
    def _polylines(self, polylines: Iterable[Polyline], height: float) -> None:
        for item in polylines:
            self._paints(None, item.stroke, item.width)
            self.canvas.drawPath(self._trace(item.points, height), stroke=1, fill=0)

    @PAINTERS.register(Picture)
    def _pictures(self, pictures: Iterable[Picture], height: float) -> None:
        for item in pictures:
            self._picture(item, height)

    def _picture(self, item: Picture, height: float) -> None:
        """An image or SVG fitted to its box as item.fit says; cut to the box when it covers it."""
        c = self.canvas
        x, y, w, h = item.x * PT_PER_MM, (height - item.y - item.h) * PT_PER_MM, item.w * PT_PER_MM, item.h * PT_PER_MM
        if item.fit == "cover":
            c.saveState()
            box = c.beginPath()
            box.rect(x, y, w, h)
            c.clipPath(box, stroke=0, fill=0)
        if svg.is_svg(item.path):
            self.vectors.draw(item.path, x, y, w, h, item.fit)
        else:
            self.art.draw(item.path, x, y, w, h, item.fit)
        if item.fit == "cover":
            c.restoreState()

    def _trace(self, points: tuple[tuple[float, float], ...], height: float):
        """A path through `points` (mm, y downwards), left open."""
        path = self.canvas.beginPath()
        path.moveTo(points[0][0] * PT_PER_MM, (height - points[0][1]) * PT_PER_MM)
        for px, py in points[1:]:
            path.lineTo(px * PT_PER_MM, (height - py) * PT_PER_MM)
        return path

    def _path(self, shape: tuple) -> str:
        """The path operators of a rectangle, rounded rectangle or ellipse, made by reportlab once per shape: the
        same box and badge recur at the same place on every card."""
        code = self.paths.get(shape)
        if code is None:
            path = PDFPathObject()
            getattr(path, shape[0])(*shape[1:])
            code = self.paths[shape] = path.getCode()
        return code

    def _text(self, runs: Iterable[Run], height: float) -> str:
        """One PDF text object for `runs`: each placed by its own text matrix, font and colour set on change."""
        doc = self.canvas._doc
        cmyk = self.inks.mode == "cmyk"  # in RGB, text of any size is alike
        code = ["BT"]
        font = colour = None
        for run in runs:
            face = fonts.face(run.font)
            small = cmyk and run.size < SMALL_TEXT
            if (run.colour, small) != colour:
                colour = (run.colour, small)
                code.append(self._text_colour(colour))
            place = self.places.get((run.x, run.y, height))
            if place is None:
                place = f"1 0 0 1 {fp_str(run.x * PT_PER_MM, (height - run.y) * PT_PER_MM)} Tm"
                if len(self.places) < MAX_PLACES:
                    self.places[run.x, run.y, height] = place
            code.append(place)
            if shaping.shaped(run.text):
                code.append(_shaped(self.canvas, face, run))
                font = None  # the shaped text set its own
                continue
            for subset, data in self._encoded(face, run.text, doc):
                name = self.subsets.get((face.fontName, subset)) or self._subset(face, subset, doc)
                if (name, run.size) != font:
                    font = (name, run.size)
                    code.append(f"{name} {fp_str(run.size)} Tf")
                code.append(f"({escapePDF(data)}) Tj")
        code.append("ET")
        return "\n".join(code)

    def _text_colour(self, colour: tuple[str, bool]) -> str:
        """The operator that sets text's fill to `colour` (and whether the text is small), made once per colour."""
        operator = self.text_colours.get(colour)
        if operator is None:
            values = self.colour(*colour)
            operator = self.text_colours[colour] = f"{fp_str(*values)} {'rg' if len(values) == 3 else 'k'}"
        return operator

    def _subset(self, face, subset: int, doc) -> str:
        """The name of a subset of `face` in the document, asked of reportlab once (which then embeds the font)."""
        name = self.subsets[face.fontName, subset] = face.getSubsetInternalName(subset, doc)
        return name

    def _encoded(self, face, text: str, doc) -> list[tuple[int, bytes]]:
        """`text` in the codes of the font's embedded subsets, as (subset, bytes) pieces.

        reportlab gives each character a code the first time it is drawn; the codes of the first subset (the first
        200-odd characters a document draws in a font) are remembered here, so that most text is encoded in one
        str.translate instead of reportlab's loop over its characters.
        """
        codes = self.codes.get(face.fontName)
        if codes is None:
            codes = self.codes[face.fontName] = (set(), {})
        known, table = codes
        if known.issuperset(text):
            return [(0, text.translate(table).encode("latin-1"))]
        pieces = face.splitString(text, doc)
        at = 0
        for subset, data in pieces:
            if subset == 0:
                for character, code in zip(text[at:at + len(data)], data):
                    known.add(character)
                    table[ord(character)] = code
            at += len(data)
        return pieces

    def _paints(self, fill: str | None, stroke: str | None, width: float,
                size: tuple[float, float] = (0.0, 0.0)) -> tuple[int, int]:
        """Sets the fill (of a shape `size` mm across) and the stroke; which of the two are painted."""
        if fill:
            self._fill(fill, size)
        if stroke:
            self._stroke(stroke)
            self.canvas.setLineWidth(width * PT_PER_MM)
        return int(bool(fill)), int(bool(stroke))


def _shaped(canvas: Canvas, face, run: Run) -> str:
    """A run of Arabic, Hebrew or Indic text shaped by HarfBuzz, its runs of one direction in the order they
    print, as reportlab's text object writes shaped text: glyph codes of the font's subsets, placed by HarfBuzz's
    offsets and advances."""
    text = canvas.beginText()
    text.setFont(face.fontName, run.size)
    text._curSubset = -1  # a fresh text object: name the font's subset before the first glyph
    code = []
    for shaped, part, rtl in shaping.shaped_runs(run.text, face.fontName, run.size):
        glyphs = text._formatText(shaped)
        if rtl or not shaping.shaped(part):  # joined Arabic letters are presentation forms, read back as such
            code.append(glyphs)
        else:  # Indic conjuncts and reordered vowel signs have no character of their own: the run's text is given
            code.append(f"/Span <</ActualText <FEFF{part.encode('utf-16-be').hex().upper()}>>> BDC {glyphs} EMC")
    return " ".join(code)


class SheetWriter:
    """Writes sheets of faces into one PDF; a face used more than once is drawn once as a form XObject."""

    def __init__(self, target: Path | BinaryIO, title: str, options: Options = Options()):
        # The initial font must be a bundled one, or reportlab lists Helvetica among the PDF's fonts.
        initial = fonts.face("text").fontName
        self.target = target  # a file, or a buffer in memory
        # What reportlab writes, its art still to be spliced in (images.py), or for PDF/X finished by pdfx.py
        self.unfinished = io.BytesIO()
        self.pdfx = options.pdfx
        self.splice = Splice(target.parent if isinstance(target, Path) else None)
        self.canvas = Canvas(self.unfinished, invariant=1, pageCompression=1, initialFontName=initial)
        self.canvas.setTitle(title)
        self.canvas.setCreator("Muster")
        self.painter = Painter(self.canvas, options.greyscale, inks_of(options), self.splice)
        self.forms: dict[tuple, str] = {}  # repeated faces by (section, index); overlays by what they hold
        self.section = 0
        self.uses: Mapping[int, int] = {}
        self.pages = 0
        self.back_offset = options.back_offset  # mm, x right and y down: where everything on a back page moves

    def start_section(self, uses: Mapping[int, int]) -> None:
        """Begin the sheets of another deck or board, whose face indices are its own. `uses` says how often each
        face has been used so far (it may grow between sheets); a face used more than once is drawn as a form."""
        self.section += 1
        self.uses = uses

    def expect(self, faces: list[Face]) -> None:
        """These faces will be drawn on the sheets to come: their art is converted ahead where it must be (Art)."""
        self.painter.art.expect(item for face in faces for item in face.items)

    def sheet(self, sheet: Sheet, faces: list[Face]) -> None:
        c = self.canvas
        width, height = sheet.paper
        c.setPageSize((width * PT_PER_MM, height * PT_PER_MM))
        if sheet.trim is None:  # reportlab keeps a box for every later page until it is cleared
            c.setTrimBox(None)
            c.setBleedBox(None)
        else:
            x, y, w, h = sheet.trim
            c.setBleedBox((0, 0, width * PT_PER_MM, height * PT_PER_MM))
            c.setTrimBox((x * PT_PER_MM, (height - y - h) * PT_PER_MM, (x + w) * PT_PER_MM, (height - y) * PT_PER_MM))
        # A duplex printer shifts the whole back, crop marks with the faces: the back moves the other way, whole,
        # so that its marks stay with its faces and both land on the front's.
        shift = sheet.side == "back" and self.back_offset != (0.0, 0.0)
        if shift:
            c.saveState()
            c.translate(self.back_offset[0] * PT_PER_MM, -self.back_offset[1] * PT_PER_MM)
        if sheet.underlay:
            self.painter.paint(sheet.underlay, height)
        for slot, index in sheet.placements:
            face = faces[index]
            c.saveState()
            path = c.beginPath()
            path.rect((slot.x - slot.left) * PT_PER_MM, (height - slot.y - slot.h - slot.bottom) * PT_PER_MM,
                      (slot.w + slot.left + slot.right) * PT_PER_MM, (slot.h + slot.top + slot.bottom) * PT_PER_MM)
            c.clipPath(path, stroke=0, fill=0)
            c.translate(slot.x * PT_PER_MM, (height - slot.y - slot.h) * PT_PER_MM)
            if self.uses.get(index, 0) > 1:
                reach = 20.0  # mm around the trim: the form's box; clipping at placement decides what shows
                c.doForm(self._form((self.section, index), f"s{self.section}f{index}", face.items, face.height,
                                    (-reach * PT_PER_MM, -reach * PT_PER_MM,
                                     (face.width + reach) * PT_PER_MM, (face.height + reach) * PT_PER_MM)))
            else:
                self.painter.paint(face.items, face.height)
            c.restoreState()
        if sheet.overlay:  # crop marks and cut lines: every full sheet of a deck has the same
            c.doForm(self._form((sheet.overlay, width, height), f"o{len(self.forms)}", sheet.overlay, height,
                                (0, 0, width * PT_PER_MM, height * PT_PER_MM)))
        if shift:
            c.restoreState()
        c.showPage()
        self._compress_page()
        self.pages += 1

    def _compress_page(self) -> None:
        """The page just shown, compressed now: reportlab would compress every page's stream when the document is
        saved, after the last sheet, when in a build in two processes the drawing process has nothing else to
        wait for; while sheets come it waits for the next batch. The stream it writes is the same: Flate at zlib's
        default level over the same text, the filter named in its dictionary, where reportlab puts it."""
        page = self.canvas._doc.Pages.pages[-1]
        page.Contents = PDFStream(PDFDictionary({"Filter": PDFArray([PDFName("FlateDecode")])}),
                                  zlib.compress(page.stream.encode("utf8")))
        page.stream = None  # memory holds each page compressed

    def _form(self, key: tuple, name: str, items: tuple, height: float, box: tuple[float, float, float, float]) -> str:
        """The form holding `items` (painted on a face `height` mm high, within `box` in points): drawn under
        `name` the first time `key` is asked for, and that form's name every time."""
        known = self.forms.get(key)
        if known is not None:
            return known
        self.forms[key] = name
        self.canvas.beginForm(name, *box)
        self.painter.paint(items, height)
        self.canvas.endForm()
        return name

    def save(self) -> None:
        self.painter.art.close()
        self.canvas.save()
        data = self.unfinished.getvalue()
        self.unfinished = None
        try:
            if self.pdfx:
                from .pdfx import pdfx

                # PDF/X names the PDF by the digest of what reportlab wrote, its art spliced in
                digest = hashlib.md5()
                self.splice.write(data, SimpleNamespace(write=digest.update))
                data = pdfx(data, self.painter.inks.profile, digest.digest())
            if isinstance(self.target, Path):
                with self.target.open("wb") as target:
                    self.splice.write(data, target)
            else:
                self.splice.write(data, self.target)
        finally:
            self.splice.close()
