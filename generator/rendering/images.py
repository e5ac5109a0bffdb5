"""Raster images as PDF image objects made from their files' own compressed data, without decoding them.

A JPEG's data is what PDF's DCTDecode filter reads, and a PNG's image data (its IDAT chunks joined) is what
FlateDecode reads with the PNG predictors, for grey, RGB and palette images of 8 bits a sample (grey and palette ones of 1, 2 or 4 too) that are not interlaced and have
no transparency. Such an image costs the PDF its file's bytes, copied: no pixel is decoded, nothing compressed again.
A PNG with an alpha channel is decoded once, its colour and its alpha compressed apart (the alpha is the image's
soft mask, as PDF has no alpha channel). Any other image (GIF, 16-bit or interlaced PNG, a transparent colour, a
CMYK JPEG) is left to reportlab, which decodes it (render.py).

What is passed through is never held while pages are drawn. A sheet PDF (render.SheetWriter) is written with a
token in each such image's stream, and Splice copies the files' data in place of the tokens as it writes the file,
moving the cross-reference offsets after each: memory holds the PDF without its art, and one piece of a file at a
time, however much art a game has. Art that must be decoded (converted to CMYK or grey) is converted by threads a
few images ahead of drawing (art.py), and its compressed data spooled to a temporary file, spliced in the same way. Elsewhere (a rulebook's card
figures) the data is read as reportlab writes the PDF. The file's version (core/inputs) is taken when the image is
first drawn and checked when it is copied: a file changed between the two is an error, never a PDF whose image
data disagrees with its size.
"""

from __future__ import annotations

import os
import struct
import tempfile
import zlib
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Iterator

from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFObject, PDFStream

from ..core import codes
from ..core.errors import Location, MusterError
from ..core.inputs import IMAGE, opened, version_of


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNG_COLOURS = {0: "DeviceGray", 2: "DeviceRGB", 3: "Indexed"}  # PNG colour type: what PDF calls its colours
# The bits a sample of each PNG colour type may have for PDF to read it as it is: grey and palette samples of 1 to
# 8 bits mean in PDF what they mean in PNG; 16-bit samples would need their own predictor rows, and are decoded.
PNG_DEPTHS = {0: (1, 2, 4, 8), 2: (8,), 3: (1, 2, 4, 8), 4: (8,), 6: (8,)}
PNG_ALPHA = {4: "L", 6: "RGB"}  # PNG colour types with an alpha channel: the Pillow mode of their colour
JPEG_COLOURS = {1: "DeviceGray", 3: "DeviceRGB"}  # components of a JPEG PDF draws as the file has them
CHUNK = 1 << 20  # bytes copied at a time from an image file into the PDF
XREF_ENTRY = 20  # bytes of one entry of a PDF cross-reference table: "0000012345 00000 n \n"


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
        self.splice: Splice | None = None  # what copies the data in as the PDF is written, if anything does

    def format(self, document) -> bytes:
        entries = {"Type": PDFName("XObject"), "Subtype": PDFName("Image"), "Width": self.width,
                   "Height": self.height, "BitsPerComponent": self.depth, "ColorSpace": self.colours,
                   "Filter": PDFArray([PDFName(name) for name in self.filters])}
        if self.parameters:
            entries["DecodeParms"] = PDFArray([PDFDictionary(dict(self.parameters))])  # one per filter, as Filter
        if self.smask is not None:
            entries["SMask"] = self.smask
        if self.data is None and self.splice is not None:
            return PDFStream(PDFDictionary(entries), self.splice.token(self)).format(document)
        return PDFStream(PDFDictionary(entries), self.data if self.data is not None else self._read()).format(document)

    @property
    def length(self) -> int:
        return sum(length for _, length in self.spans)

    def _read(self) -> bytes:
        with _opened(self) as handle:
            return b"".join(handle.read(length) for length in _spans(handle, self.spans))

    def copy(self, target: BinaryIO) -> None:
        """The image's data from its file written to `target`, a piece at a time."""
        with _opened(self) as handle:
            for length in _spans(handle, self.spans):
                while length:
                    piece = handle.read(min(length, CHUNK))
                    if not piece:
                        raise MusterError.of(codes.CHANGED_INPUT, Location(self.path))
                    target.write(piece)
                    length -= len(piece)


class Spooled:
    """Compressed image data held in a Splice's spool file rather than in memory, until it is copied in."""

    def __init__(self, spool: BinaryIO, start: int, length: int):
        self.spool = spool
        self.start = start
        self.length = length

    def copy(self, target: BinaryIO) -> None:
        self.spool.seek(self.start)
        length = self.length
        while length:
            piece = self.spool.read(min(length, CHUNK))
            target.write(piece)
            length -= len(piece)


class Splice:
    """The image data of one PDF, copied into it as it is written: a token stands in each stream until then, and
    the stream's /Length is the token's, so that the PDF stays valid in between (pdfx.py rewrites it with pypdf).

    `spool` is the folder of the temporary file that holds decoded art's compressed data (spool()); None for the
    system's temporary folder."""

    def __init__(self, spool: Path | None = None):
        # Random, so that no font or compressed page can hold it by chance; it never reaches the file, whose bytes
        # stay the same for the same inputs.
        self.nonce = os.urandom(16)
        self.images: list[Embedded | Spooled] = []
        self.folder = spool
        self.spool: BinaryIO | None = None

    def token(self, image: Embedded | Spooled) -> bytes:
        self.images.append(image)
        return self.nonce + struct.pack(">I", len(self.images) - 1)

    def spooled(self, data: bytes) -> bytes:
        """The token of `data`, written to the spool file: memory does not hold it until the PDF is written."""
        if self.spool is None:
            self.spool = tempfile.TemporaryFile(dir=self.folder)
        start = self.spool.seek(0, 2)
        self.spool.write(data)
        return self.token(Spooled(self.spool, start, len(data)))

    def close(self) -> None:
        if self.spool is not None:
            self.spool.close()
            self.spool = None

    def write(self, pdf: bytes, target: BinaryIO) -> None:
        """`pdf`, as reportlab (or pypdf after it) wrote it, to `target` with each token replaced by its image's data
        and its stream's /Length by the data's, and every offset of the cross-reference table and startxref moved
        by what grew before it."""
        cuts = []  # (where, end, what grows there, how much, the image whose data goes there or None)
        size = len(self.nonce) + 4
        at = pdf.find(self.nonce)
        while at >= 0:
            image = self.images[struct.unpack(">I", pdf[at + len(self.nonce):at + size])[0]]
            key = pdf.rindex(b"/Length", 0, at) + len(b"/Length")
            start = key + len(pdf[key:at]) - len(pdf[key:at].lstrip())
            end = start + len(pdf[start:at]) - len(pdf[start:at].lstrip(b"0123456789"))
            if int(pdf[start:end]) != size:
                raise ValueError("an image's stream /Length is not its token's")
            length = b"%d" % image.length
            cuts.append((start, end, length, len(length) - (end - start), None))
            cuts.append((at, at + size, b"", image.length - size, image))
            at = pdf.find(self.nonce, at + size)
        if not cuts:
            target.write(pdf)
            return

        def moved(offset: int) -> int:
            return offset + sum(grown for at, _, _, grown, _ in cuts if at < offset)

        mark = pdf.rindex(b"startxref")
        xref = int(pdf[mark + 9:].split()[0])
        first = pdf.index(b"\n", pdf.index(b"\n", xref) + 1) + 1  # past "xref" and "0 N"
        count = int(pdf[pdf.index(b"\n", xref) + 1:first].split()[1])
        entries = []
        for number in range(count):
            entry = pdf[first + number * XREF_ENTRY:first + (number + 1) * XREF_ENTRY]
            if entry[17:18] == b"n":
                entry = b"%010d" % moved(int(entry[:10])) + entry[10:]
            entries.append(entry)
        view = memoryview(pdf)
        done = 0
        for at, end, replacement, _, image in cuts:
            target.write(view[done:at])
            target.write(replacement)
            if image is not None:
                image.copy(target)
            done = end
        target.write(view[done:first])
        target.write(b"".join(entries))
        end = first + count * XREF_ENTRY
        target.write(view[end:mark])
        target.write(b"startxref\n%d\n%%%%EOF\n" % moved(xref))


@contextmanager
def _opened(image: Embedded) -> Iterator[BinaryIO]:
    """The image's file, open, once it is known to be the version measured when the image was first drawn."""
    with opened(image.path, IMAGE) as handle:
        if version_of(image.path) != image.version:
            raise MusterError.of(codes.CHANGED_INPUT, Location(image.path))
        yield handle


def _spans(handle: BinaryIO, spans: tuple[tuple[int, int], ...]):
    """Each span's length, with the file at its start."""
    for start, length in spans:
        handle.seek(start)
        yield length


def decoded(reader) -> tuple:
    """An image object of reportlab's for a decoded image (an ImageReader), and its soft mask if the image has
    alpha; a colour made transparent by the file is a colour-key mask of the object's own."""
    from reportlab.pdfbase.pdfdoc import PDFImageXObject

    image = PDFImageXObject("", reader, mask="auto")
    mask = getattr(image, "_smask", None)
    if mask is not None:
        del image._smask
    return image, mask


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
