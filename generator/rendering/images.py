"""Raster images as PDF image objects made from their files' own compressed data, without decoding them.

A JPEG's data is what PDF's DCTDecode filter reads, and a PNG's image data (its IDAT chunks joined) is what
FlateDecode reads with the PNG predictors, for grey, RGB and palette images of 8 bits a sample (grey and palette ones of 1, 2 or 4 too) that are not interlaced and have
no transparency. Such an image costs the PDF its file's bytes, copied: no pixel is decoded, nothing compressed again.
A PNG with an alpha channel is decoded once, its colour and its alpha compressed apart (the alpha is the image's
soft mask, as PDF has no alpha channel). Any other image (GIF, 16-bit or interlaced PNG, a transparent colour, a
CMYK JPEG) is left to reportlab, which decodes it (render.py).

What is passed through is read from its file when the PDF is written, not held while pages are drawn, so a game
with large art on every card needs memory for one image at a time while it draws. The file's version (core/inputs)
is taken when the image is first drawn and checked when it is copied: a file changed between the two is an error,
never a PDF whose image data disagrees with its size.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFObject, PDFStream

from ..core.errors import Location, MusterError
from ..core.inputs import IMAGE, opened, version_of

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNG_COLOURS = {0: "DeviceGray", 2: "DeviceRGB", 3: "Indexed"}  # PNG colour type: what PDF calls its colours
# The bits a sample of each PNG colour type may have for PDF to read it as it is: grey and palette samples of 1 to
# 8 bits mean in PDF what they mean in PNG; 16-bit samples would need their own predictor rows, and are decoded.
PNG_DEPTHS = {0: (1, 2, 4, 8), 2: (8,), 3: (1, 2, 4, 8), 4: (8,), 6: (8,)}
PNG_ALPHA = {4: "L", 6: "RGB"}  # PNG colour types with an alpha channel: the Pillow mode of their colour
JPEG_COLOURS = {1: "DeviceGray", 3: "DeviceRGB"}  # components of a JPEG PDF draws as the file has them


class Embedded(PDFObject):
    """An image XObject whose stream is given already compressed (`filters` names how), or read from `path`'s byte
    `spans` as the PDF is written, once the file is known to be the version it was when measured."""

    def __init__(self, size: tuple[int, int], colours, filters: tuple[str, ...], parameters: dict | None = None,
                 data: bytes | None = None, path: Path | None = None, spans: tuple[tuple[int, int], ...] = (),
                 version: tuple | None = None, depth: int = 8):
        self.width, self.height = size
        self.depth = depth
        self.colours = colours
        self.filters = filters
        self.parameters = parameters
        self.data = data
        self.path = path
        self.spans = spans
        self.version = version
        self.smask = None  # a reference to the image's soft mask, if it has one

    def format(self, document) -> bytes:
        entries = {"Type": PDFName("XObject"), "Subtype": PDFName("Image"), "Width": self.width,
                   "Height": self.height, "BitsPerComponent": self.depth, "ColorSpace": self.colours,
                   "Filter": PDFArray([PDFName(name) for name in self.filters])}
        if self.parameters:
            entries["DecodeParms"] = PDFArray([PDFDictionary(dict(self.parameters))])  # one per filter, as Filter
        if self.smask is not None:
            entries["SMask"] = self.smask
        return PDFStream(PDFDictionary(entries), self.data if self.data is not None else self._read()).format(document)

    def _read(self) -> bytes:
        with opened(self.path, IMAGE) as handle:
            if version_of(self.path) != self.version:
                raise MusterError("changed while the PDF was being written: build again", Location(self.path),
                                  code="changed-input")
            pieces = []
            for start, length in self.spans:
                handle.seek(start)
                pieces.append(handle.read(length))
        return b"".join(pieces)


def embedded(path: Path) -> tuple[Embedded, Embedded | None] | None:
    """The image object of `path` and its soft mask (or None), or None when reportlab must decode the image. The
    file has passed resources.image_problem: it is a readable PNG, JPEG or GIF within the limits."""
    version = version_of(path)
    with opened(path, IMAGE) as handle:
        head = handle.read(8)
        handle.seek(0)
        if head == PNG_SIGNATURE:
            return _png(path, handle, version)
        if head[:2] == b"\xff\xd8":
            return _jpeg(path, handle, version)
    return None


def _jpeg(path: Path, handle, version: tuple | None) -> tuple[Embedded, None] | None:
    from reportlab.pdfbase.pdfdoc import PDFError
    from reportlab.pdfbase.pdfutils import readJPEGInfo

    try:
        width, height, components, _ = readJPEGInfo(handle)
    except (PDFError, struct.error):  # a kind of JPEG that reportlab leaves to Pillow (lossless, 12-bit)
        return None
    colours = JPEG_COLOURS.get(components)
    if colours is None:
        return None
    size = handle.seek(0, 2)
    return Embedded((width, height), PDFName(colours), ("DCTDecode",), path=path, spans=((0, size),),
                    version=version), None


def _png(path: Path, handle, version: tuple | None) -> tuple[Embedded, Embedded | None] | None:
    """The chunks of a PNG walked without reading its image data: where its IDAT chunks lie, its palette, and
    whether anything (transparency, interlacing, a depth other than 8) keeps it from being passed through."""
    at = 8
    handle.seek(at)
    header = palette = None
    spans: list[tuple[int, int]] = []
    while True:
        prefix = handle.read(8)
        if len(prefix) < 8:
            return None
        length, kind = struct.unpack(">I4s", prefix)
        if kind == b"IDAT":
            spans.append((at + 8, length))
            handle.seek(length + 4, 1)
        elif kind == b"IEND":
            break
        elif kind == b"tRNS":
            return None  # a transparent colour: reportlab's colour-key mask
        elif kind in (b"IHDR", b"PLTE"):
            body = handle.read(length)
            handle.seek(4, 1)
            if kind == b"IHDR":
                header = struct.unpack(">IIBBBBB", body) if length == 13 else None
            else:
                palette = body
        else:
            handle.seek(length + 4, 1)
        at += 12 + length
    if header is None or not spans:
        return None
    width, height, depth, colour_type, _, _, interlaced = header
    if interlaced or depth not in PNG_DEPTHS.get(colour_type, ()):
        return None
    if colour_type in PNG_ALPHA:
        return _alpha(path, handle, colour_type)
    if colour_type == 3 and palette is None:
        return None
    colours = (PDFArray([PDFName("Indexed"), PDFName("DeviceRGB"), len(palette) // 3 - 1, _Hex(palette)])
               if colour_type == 3 else PDFName(PNG_COLOURS[colour_type]))
    parameters = {"Predictor": 15, "Colors": 3 if colour_type == 2 else 1, "BitsPerComponent": depth,
                  "Columns": width}
    return Embedded((width, height), colours, ("FlateDecode",), parameters, path=path, spans=tuple(spans),
                    version=version, depth=depth), None


def _alpha(path: Path, handle, colour_type: int) -> tuple[Embedded, Embedded]:
    """A grey or RGB PNG with alpha, decoded once: its colour and its alpha compressed apart, the alpha as the
    image's soft mask."""
    from PIL import Image

    handle.seek(0)
    with Image.open(handle, formats=("PNG",)) as image:
        image.load()
        mode = PNG_ALPHA[colour_type]
        colour = zlib.compress(image.convert(mode).tobytes())
        alpha = zlib.compress(image.getchannel("A").tobytes())
        size = image.size
    mask = Embedded(size, PDFName("DeviceGray"), ("FlateDecode",), data=alpha)
    return Embedded(size, PDFName("DeviceGray" if mode == "L" else "DeviceRGB"), ("FlateDecode",), data=colour), mask


class _Hex(PDFObject):
    """A PDF hexadecimal string, as an Indexed colour space holds its palette."""

    def __init__(self, data: bytes):
        self.data = data

    def format(self, document) -> bytes:
        return b"<" + self.data.hex().encode("ascii") + b">"
