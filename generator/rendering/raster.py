"""Faces as pages of their own and as pixels: each face drawn by the renderer onto a page of the card and its
bleed (for print shops' PDFs), and such pages rasterised by pdfium at an exact pixel size (for PNGs)."""

from __future__ import annotations

import io
import os
import tempfile
from collections import deque
from pathlib import Path
from typing import BinaryIO, Callable, Iterator, TypeVar

from ..core.display import Face
from ..core.errors import Location, MusterError
from ..core.options import Options

MAX_RASTER_PIXELS = 64_000_000  # an image written: about 190 MB a copy in RGB, and there are two while it is made
PAGES_OPEN = 8  # pages pdfium rasterises before their document is opened again (Raster)
ENCODING = 2  # images encoded at a time by threads while the next are drawn (encoded)
Key = TypeVar("Key")


def write_face_pages(target: Path | BinaryIO, title: str, faces: list[Face], indices: list[int], size: tuple[float, float],
                     bleed: float, reach: float | None = None, boxes: bool = False,
                     printing: Options = Options()) -> None:
    """A PDF with one page per face index: the trim and `bleed` mm around it, the face drawn by the renderer.

    `reach` is how far the face may show past the trim (default `bleed`); more than `bleed` lets backgrounds run
    past the page's edge, so that the edge pixels of a raster are fully covered. With `boxes` each page gets
    BleedBox = MediaBox and TrimBox = the card's trim, for print shops. `printing` gives the colour and PDF/X.
    """
    from ..imposition.sheets import Sheet, Slot  # reportlab: imported when an export runs, not for --help
    from .render import SheetWriter

    reach = bleed if reach is None else reach
    w, h = size
    paper = (w + 2 * bleed, h + 2 * bleed)
    slot = Slot(bleed, bleed, w, h, reach, reach, reach, reach)
    writer = SheetWriter(target, title, printing)
    writer.start_section({})
    trim = (bleed, bleed, w, h) if boxes else None
    for index in indices:
        writer.sheet(Sheet("front", paper, ((slot, index),), trim=trim), faces)
    writer.save()


class Raster:
    """The pages of a PDF (a file, or a buffer, open to read) rasterised by pdfium, each stretched to an exact pixel
    size. pdfium keeps every object of a document it has read, each image's data among them: the document is
    opened again after every PAGES_OPEN pages, so that it holds the art of those, not of every page so far."""

    def __init__(self, pdf: BinaryIO):
        self.pdf = pdf
        self.document = None
        self.pages = 0  # rasterised since the document was opened

    def image(self, page_index: int, width: int, height: int):
        """An RGB image of `width` x `height` pixels showing the whole page on white."""
        import pypdfium2 as pdfium
        import pypdfium2.raw as pdfium_c

        if self.document is None or self.pages == PAGES_OPEN:
            self.close()
            self.pdf.seek(0)
            self.document = pdfium.PdfDocument(self.pdf)
        self.pages += 1
        page = self.document[page_index]
        try:
            bitmap = pdfium.PdfBitmap.new_native(width, height, pdfium_c.FPDFBitmap_BGR, rev_byteorder=True)
            bitmap.fill_rect((255, 255, 255, 255), 0, 0, width, height)
            pdfium_c.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width, height, 0,
                                           pdfium_c.FPDF_ANNOT | pdfium_c.FPDF_REVERSE_BYTE_ORDER)
            return bitmap.to_pil().convert("RGB")  # a copy: the bitmap's buffer goes with the bitmap
        finally:
            page.close()

    def close(self) -> None:
        if self.document is not None:
            self.document.close()
            self.document, self.pages = None, 0


def png_bytes(image, dpi: int) -> bytes:
    """PNG with the resolution recorded (pHYs); the same pixels always give the same bytes."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", dpi=(dpi, dpi), compress_level=6)
    return buffer.getvalue()


def jpeg_bytes(image, dpi: int) -> bytes:
    """JPEG at quality 95 without chroma subsampling (text keeps its edges), the resolution recorded; the same
    pixels always give the same bytes."""
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, format="JPEG", dpi=(dpi, dpi), quality=95, subsampling=0)
    return buffer.getvalue()


def check_pixels(sizes, where: Location | None = None) -> None:
    """Every pixel size held to MAX_RASTER_PIXELS, a MusterError at `where` (what sets the faces' size) when one is
    over it: refused before pdfium takes 3 bytes a pixel, and Pillow as many."""
    for width, height in sizes:
        if width * height > MAX_RASTER_PIXELS:
            raise MusterError(f"an image of {width:,} x {height:,} pixels is over the limit of {MAX_RASTER_PIXELS:,} "
                              "(a lower --dpi makes it smaller)", where, code="raster-too-big")


class FaceRaster:
    """Faces drawn into one PDF, then rasterised by pdfium one at a time, in any order, when asked for: an export
    holds one face's pixels at a time, whatever the number of faces. With `spool` (an export's output folder) the
    PDF is a temporary file there, its art copied in from the art's files, which pdfium reads as it needs them;
    else it is in memory (the preview's few faces). A context manager: the document is closed at its end."""

    def __init__(self, faces: list[Face], indices, size: tuple[float, float], bleed: float, reach: float, title: str,
                 spool: Path | None = None):
        order = sorted(indices)
        self.pages = {index: page for page, index in enumerate(order)}
        self.file = io.BytesIO() if spool is None else tempfile.TemporaryFile(dir=spool)
        write_face_pages(self.file, title, faces, order, size, bleed, reach)
        self.raster = Raster(self.file)

    def image(self, index: int, pixels: tuple[int, int]):
        """The face of index `index` as an RGB image of `pixels`."""
        return self.raster.image(self.pages[index], *pixels)

    def __enter__(self) -> FaceRaster:
        return self

    def __exit__(self, *exc) -> None:
        self.raster.close()
        self.file.close()


def rasterise_faces(faces: list[Face], wanted: dict[int, list[tuple[int, int]]], size: tuple[float, float],
                    bleed: float, reach: float, title: str, where: Location | None = None, spool: Path | None = None
                    ) -> Iterator[tuple[tuple[int, tuple[int, int]], object]]:
    """((face index, pixel size), image) for each face index at each pixel size asked for, one at a time (a
    deck at 1200 dpi does not fit in memory as images), by face index; every size checked first (check_pixels).
    `spool`: where the faces' PDF is written meanwhile (FaceRaster)."""
    check_pixels({px for sizes in wanted.values() for px in sizes}, where)
    with FaceRaster(faces, wanted, size, bleed, reach, title, spool) as raster:
        for index in sorted(wanted):
            for px in dict.fromkeys(wanted[index]):
                yield (index, px), raster.image(index, px)


def encoded(images: Iterator[tuple[Key, object]], encode: Callable, dpi: int) -> Iterator[tuple[Key, bytes]]:
    """(key, encode(image, dpi)) for each (key, image) of `images`, in their order: each image encoded (zlib,
    which lets other threads run) by a thread while the next images are drawn here, ENCODING at a time, so that an
    export uses two cores and holds a few images. pdfium, which must be called from one thread, draws them all in
    this one."""
    if (os.cpu_count() or 1) < 2:
        yield from ((key, encode(image, dpi)) for key, image in images)
        return
    from concurrent.futures import ThreadPoolExecutor

    pending: deque = deque()
    with ThreadPoolExecutor(max_workers=ENCODING, thread_name_prefix="muster-encode") as threads:
        for key, image in images:
            pending.append((key, threads.submit(encode, image, dpi)))
            if len(pending) == ENCODING:
                key, done = pending.popleft()
                yield key, done.result()
        while pending:
            key, done = pending.popleft()
            yield key, done.result()

