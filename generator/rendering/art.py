"""The raster images drawn on one canvas (Art): each file made an image object once (images.py), placed by name."""

from __future__ import annotations

import os
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator

from reportlab.pdfgen.canvas import Canvas

from ..core.display import Fit, Picture, Turned
from .images import Embedded, Splice, decoded, embedded
from .inks import Inks
from .vectors import scales

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

AHEAD = 2  # images converted at a time ahead of drawing: the threads' work, and what memory holds of it


class Art:
    """The raster images drawn on one canvas, each made an image object the first time it is drawn, and placed by
    name every time: in RGB, of its file's own data where PDF can take that (embedded); else of the image decoded
    by reportlab, in greyscale its grey version (transparency kept), in CMYK in the output profile's inks. The
    decoded image is not kept: the object holds its compressed data, so memory does not hold every image decoded.

    Converting an image (decoding it, turning it into the profile's inks, compressing it again) takes a CMYK build
    some 140 ms an image, mostly in Pillow, littlecms and zlib, which let other threads run meanwhile. The images a
    batch of faces will draw are told (expect) as it arrives, and converted in that order by threads, AHEAD at a
    time beyond the one drawn: the same objects, made on the machine's other cores, and memory holds a few images,
    never all.
    """

    def __init__(self, canvas: Canvas, greyscale: bool, inks: Inks, splice: Splice | None = None):
        self.canvas = canvas
        self.greyscale = greyscale
        self.inks = inks
        self.splice = splice  # what copies art into the PDF as it is written; else reportlab reads it
        self.names: dict[Path, str] = {}  # the name of each image file's image object
        self.sizes: dict[str, tuple[int, int]] = {}  # each image object's size in pixels
        self.coming: deque[Path] = deque()  # images expected, not yet being converted
        self.converting: dict[Path, Future] = {}  # images being converted ahead, or converted and not yet drawn
        self.threads: ThreadPoolExecutor | None = None

    @property
    def decodes(self) -> bool:
        """Whether every image is decoded and converted (greyscale, CMYK); else most are passed through."""
        return self.greyscale or self.inks.mode != "rgb"

    def expect(self, items: Iterable) -> None:
        """The pictures among display `items` will be drawn, in this order: converted ahead, where images are."""
        if not self.decodes or (os.cpu_count() or 1) < 2:
            return
        known = set(self.names) | set(self.converting) | set(self.coming)
        for path in dict.fromkeys(pictures(items)):
            if path not in known:
                self.coming.append(path)
        self._start()

    def close(self) -> None:
        """No more images to convert: the threads end (any conversion still running is waited for)."""
        self.coming.clear()
        if self.threads is not None:
            self.threads.shutdown(cancel_futures=True)
            self.threads = None
        self.converting.clear()

    def draw(self, path: Path, x: float, y: float, w: float, h: float, fit: Fit) -> None:
        """The image fitted into the box at (x, y), w x h points, centred, as `fit` says."""
        name = self.names.get(path)
        if name is None:
            name = self.names[path] = self._image(path)
        c = self.canvas
        size = self.sizes[name]
        across, up = scales(size, (w, h), fit)
        c.saveState()
        c.translate(x + (w - size[0] * across) / 2, y + (h - size[1] * up) / 2)
        c.scale(size[0] * across, size[1] * up)
        c._code.append(f"/{c._doc.getXObjectName(name)} Do")
        c.restoreState()
        c._formsinuse.append(name)  # what reportlab's drawImage records: the page's or form's resources name it
        c._currentPageHasImages = 1

    def _image(self, path: Path) -> str:
        from reportlab.lib.utils import ImageReader

        if not self.decodes:
            made = embedded(path)
            return self._register(*(made or decoded(ImageReader(str(path)))))
        converting = self.converting.pop(path, None)
        image, mask = converting.result() if converting is not None else self._converted(path)
        self._start()
        if self.splice is not None:  # held in the spool file, not in memory, until the PDF is written
            image.streamContent = self.splice.spooled(image.streamContent)
        return self._register(image, mask)

    def _converted(self, path: Path) -> tuple:
        """The image object of `path` decoded and converted (greyscale, CMYK), and its soft mask: in any thread."""
        from PIL import Image
        from reportlab.lib.utils import ImageReader

        with Image.open(path) as image:
            image.load()
            if self.greyscale:
                image = image.convert("LA" if "A" in image.getbands() or "transparency" in image.info else "L")
            return decoded(ImageReader(self.inks.image(image)))

    def _start(self) -> None:
        """Conversions begun of the images expected next, up to AHEAD at a time."""
        while self.coming and len(self.converting) < AHEAD:
            path = self.coming.popleft()
            if path in self.names or path in self.converting:
                continue
            if self.threads is None:
                from concurrent.futures import ThreadPoolExecutor  # a build with art to convert: 4 ms to import

                self.threads = ThreadPoolExecutor(max_workers=min(AHEAD, os.cpu_count() or 1),
                                                  thread_name_prefix="muster-art")
            self.converting[path] = self.threads.submit(self._converted, path)

    def _register(self, image, mask) -> str:
        """The image object (and its soft mask) added to the document, named in the order images are first drawn."""
        doc = self.canvas._doc
        name = f"art{len(self.names)}"
        if isinstance(image, Embedded):
            image.splice = self.splice
        if mask is not None:
            image.smask = doc.Reference(mask, doc.getXObjectName(f"{name}mask"))
        doc.Reference(image, doc.getXObjectName(name))
        doc.addForm(name, image)
        self.sizes[name] = image.width, image.height
        return name


def pictures(items: Iterable) -> Iterator[Path]:
    """The image files display `items` draw, in order, turned ones among them."""
    for item in items:
        if isinstance(item, Picture):
            yield item.path
        elif isinstance(item, Turned):
            yield from pictures(item.items)
