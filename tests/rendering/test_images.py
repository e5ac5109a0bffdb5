"""Raster art in the PDF: PNG and JPEG data passed through as the files hold it, each image once, the pixels right."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from generator.core.display import Picture
from generator.core.errors import MusterError
from generator.core.units import PT_PER_MM
from generator.rendering.inks import Inks
from generator.rendering.render import Painter

SIZE = (40, 30)  # pixels: each picture stretched over a 40 x 30 mm box, one pixel a millimetre


def picture(mode: str) -> Image.Image:
    """Four coloured quarters and a half-transparent band (where the mode has alpha)."""
    image = Image.new("RGBA", SIZE, (250, 20, 20, 255))
    image.paste((20, 200, 40, 255), (20, 0, 40, 15))
    image.paste((30, 40, 220, 255), (0, 15, 20, 30))
    image.paste((240, 220, 30, 255), (20, 15, 40, 30))
    image.paste((20, 200, 40, 0), (0, 0, 10, 30))
    if mode == "1":
        return image.convert("L").convert("1", dither=Image.Dither.NONE)
    return image.convert(mode) if mode != "P" else image.convert("RGB").quantize(8)


def draw(tmp_path: Path, art: Path, copies: int = 1, inks: Inks | None = None) -> Path:
    pdf = tmp_path / "art.pdf"
    canvas = Canvas(str(pdf), invariant=1, pageCompression=1)
    painter = Painter(canvas, inks=inks)
    for copy in range(copies):
        painter.paint((Picture(art, 10.0 + 50 * copy, 10.0, 40.0, 30.0, "stretch"),), 100.0)
    canvas.showPage()
    canvas.save()
    return pdf


def images(pdf: Path) -> list:
    """The PDF's image objects, less those that are another's soft mask."""
    reader = PdfReader(pdf)
    found = [reader.get_object(number) for number in range(1, reader.trailer["/Size"])]
    found = [obj for obj in found if hasattr(obj, "get") and obj.get("/Subtype") == "/Image"]
    masks = {obj.raw_get("/SMask").idnum for obj in found if "/SMask" in obj}
    return [obj for obj in found if obj.indirect_reference.idnum not in masks]


def idat(path: Path) -> bytes:
    data, at, joined = path.read_bytes(), 8, []
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"IDAT":
            joined.append(data[at + 8:at + 8 + length])
        at += 12 + length
    return b"".join(joined)


def pixels(pdf: Path) -> Image.Image:
    """The 40 x 30 mm box, rendered on white, at one pixel a millimetre."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    page = document[0].render(scale=4 / PT_PER_MM).to_pil().convert("RGB")
    document.close()
    top = page.height - 4 * 90  # the box is drawn 60 to 90 mm above the page's foot, 10 to 50 mm from its left
    return page.crop((40, top, 200, top + 120)).resize(SIZE, Image.BOX)


def expected(image: Image.Image) -> Image.Image:
    white = Image.new("RGBA", SIZE, (255, 255, 255, 255))
    return Image.alpha_composite(white, image.convert("RGBA")).convert("RGB")


def close(a: Image.Image, b: Image.Image, tolerance: int = 24) -> bool:
    # the pixels inside each quarter, away from the edges the box filter blends
    points = [(x, y) for x in (3, 15, 25, 36) for y in (3, 11, 19, 27)]
    return all(max(abs(p - q) for p, q in zip(a.getpixel(pt), b.getpixel(pt))) <= tolerance for pt in points)


@pytest.mark.parametrize("mode", ["RGB", "L", "P", "1"])
def test_an_opaque_png_is_its_own_image_data(tmp_path, mode):
    """Non-interlaced grey (8 or 1 bit), RGB and palette PNGs reach the PDF as the file's IDAT data with the PNG
    predictors: the stream is the file's, not decoded and compressed again; and it draws the same pixels."""
    art = tmp_path / "a.png"
    picture(mode).save(art)
    pdf = draw(tmp_path, art)
    (image,) = images(pdf)
    assert image["/Filter"] == ["/FlateDecode"]
    assert image["/DecodeParms"][0]["/Predictor"] == 15
    assert image._data == idat(art)
    assert close(pixels(pdf), expected(picture(mode)))


@pytest.mark.parametrize("mode", ["RGB", "L"])
def test_a_jpeg_is_its_own_file(tmp_path, mode):
    art = tmp_path / "a.jpg"
    picture(mode).save(art, quality=95)
    pdf = draw(tmp_path, art)
    (image,) = images(pdf)
    assert image["/Filter"] == ["/DCTDecode"] and image._data == art.read_bytes()
    assert close(pixels(pdf), expected(picture(mode)))


@pytest.mark.parametrize("mode", ["RGBA", "LA"])
def test_a_png_with_alpha_draws_through_its_soft_mask(tmp_path, mode):
    art = tmp_path / "a.png"
    picture(mode).save(art)
    pdf = draw(tmp_path, art)
    (image,) = images(pdf)
    assert image["/SMask"].get_object()["/ColorSpace"] == "/DeviceGray"
    assert close(pixels(pdf), expected(picture(mode)))


@pytest.mark.parametrize("name, save", [
    ("interlaced.png", {"interlace": 1}),
    ("transparent-colour.png", {"transparency": (250, 20, 20)}),
    ("deep.png", {}),
    ("a.gif", {}),
])
def test_what_pdf_cannot_take_as_it_is_is_decoded(tmp_path, name, save):
    """Interlaced, 16-bit and colour-keyed PNGs and GIFs are decoded by reportlab: drawn all the same."""
    art = tmp_path / name
    image = picture("RGB")
    if name == "deep.png":
        image = image.convert("I;16")
    image.save(art, **save)
    pdf = draw(tmp_path, art)
    assert len(images(pdf)) == 1
    if "transparency" not in save:
        assert close(pixels(pdf), expected(Image.open(art).convert("RGB")))


def test_an_image_drawn_often_is_in_the_pdf_once(tmp_path):
    art = tmp_path / "a.png"
    picture("RGB").save(art)
    pdf = draw(tmp_path, art, copies=3)
    assert pdf.read_bytes().count(b"/Subtype /Image") == 1


def test_a_file_changed_before_the_pdf_is_written_is_an_error(tmp_path):
    """Passed-through data is read as the PDF is written: a file changed since it was drawn is refused, never
    copied with the size measured from its old version."""
    art = tmp_path / "a.png"
    picture("RGB").save(art)
    canvas = Canvas(str(tmp_path / "art.pdf"), invariant=1)
    Painter(canvas).paint((Picture(art, 10.0, 10.0, 40.0, 30.0, "stretch"),), 100.0)
    canvas.showPage()
    picture("L").save(art)
    with pytest.raises(MusterError) as caught:
        canvas.save()
    assert caught.value.code == "changed-input" and caught.value.where.path == art


def test_a_cmyk_build_still_converts_its_images(tmp_path):
    art = tmp_path / "a.png"
    picture("RGB").save(art)
    pdf = draw(tmp_path, art, inks=Inks("cmyk"))
    (image,) = images(pdf)
    assert image["/ColorSpace"] == "/DeviceCMYK"


def sheet_pdf(tmp_path: Path, arts: list[Path], options=None, name: str = "sheet.pdf", ahead: bool = False) -> Path:
    """A sheet PDF with one card per file, each file's picture stretched over 40 x 30 mm of its card, as a build
    writes it: the art spliced in as the file is written; `ahead`, the faces told first, as a build tells a batch's
    (their art converted ahead)."""
    from generator.core.display import Face
    from generator.core.options import Options
    from generator.imposition.sheets import Sheet, Slot
    from generator.rendering.render import SheetWriter

    pdf = tmp_path / name
    writer = SheetWriter(pdf, "art", options or Options())
    writer.start_section({})
    faces = [Face(63, 88, (Picture(art, 10.0, 10.0, 40.0, 30.0, "stretch"),)) for art in arts]
    slots = tuple((Slot(10 + 65 * index, 10, 63, 88, 0, 0, 0, 0), index) for index in range(len(arts)))
    if ahead:
        writer.expect(faces)
    writer.sheet(Sheet("front", (210, 297), slots), faces)
    writer.save()
    return pdf


@pytest.mark.usefixtures("font_book")
def test_a_sheet_pdf_has_its_art_spliced_in_with_every_offset_right(tmp_path):
    """The sheet writer copies each file's data in place of its token while it writes the PDF: the file is a valid
    PDF (every cross-reference offset moved by the art before it; pypdf reads it strictly), each image's stream
    is its file's data, and the pictures draw."""
    arts = []
    for index, mode in enumerate(("RGB", "L", "RGBA")):
        arts.append(tmp_path / f"a{index}.png")
        picture(mode).save(arts[-1])
    pdf = sheet_pdf(tmp_path, arts)
    reader = PdfReader(pdf, strict=True)
    for number in range(1, reader.trailer["/Size"]):
        assert reader.get_object(number) is not None  # at the offset the table gives, or pypdf raises
    found = images(pdf)
    assert sorted(image._data for image in found[:2]) == sorted(idat(art) for art in arts[:2])
    assert pdf.read_bytes().count(b"startxref") == 1


@pytest.mark.usefixtures("font_book")
def test_art_changed_before_the_sheet_pdf_is_written_is_an_error(tmp_path):
    from generator.core.display import Face
    from generator.imposition.sheets import Sheet, Slot
    from generator.rendering.render import SheetWriter

    art = tmp_path / "a.png"
    picture("RGB").save(art)
    writer = SheetWriter(tmp_path / "sheet.pdf", "art")
    writer.start_section({})
    writer.sheet(Sheet("front", (210, 297), ((Slot(10, 10, 63, 88, 0, 0, 0, 0), 0),)),
                 [Face(63, 88, (Picture(art, 10.0, 10.0, 40.0, 30.0, "stretch"),))])
    picture("L").save(art)
    with pytest.raises(MusterError) as caught:
        writer.save()
    assert caught.value.code == "changed-input" and caught.value.where.path == art


def noise(tmp_path: Path, count: int) -> list[Path]:
    """`count` PNGs of noise, 300 x 300 pixels: art that compresses badly, each some 270 KB once converted."""
    arts = []
    for index in range(count):
        arts.append(tmp_path / f"n{index}.png")
        Image.merge("RGB", [Image.effect_noise((300, 300), 40 + index + band) for band in range(3)]).save(arts[-1])
    return arts


@pytest.mark.usefixtures("font_book")
@pytest.mark.parametrize("pdfx", [False, True])
def test_a_cmyk_sheet_holds_one_converted_image_at_a_time(tmp_path, pdfx):
    """Art converted to CMYK is spooled to a file as each image is made and spliced in as the PDF is written (with
    PDF/X, after pypdf has rewritten the rest): the memory a sheet of eight images takes is that of converting one
    (its pixels, compressed, then in ASCII85: about three times its data; with PDF/X, pypdf's objects besides), where
    it held every image's data two or three times over (seven or thirteen MB here)."""
    import tracemalloc

    from generator.core.options import Options

    arts = noise(tmp_path, 8)
    tracemalloc.start()
    try:
        pdf = sheet_pdf(tmp_path, arts, Options(colour="cmyk", pdfx=pdfx))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    reader = PdfReader(pdf, strict=True)
    for number in range(1, reader.trailer["/Size"]):
        assert reader.get_object(number) is not None
    found = images(pdf)
    assert len(found) == 8
    for image in found:
        assert image["/ColorSpace"] == "/DeviceCMYK"
        assert len(image.get_data()) == 300 * 300 * 4
    one = max(len(image._data) for image in found)
    assert peak < 5 * one


@pytest.fixture
def conversions(monkeypatch):
    """Where each image was converted (the thread's name); a second core, whatever the machine has."""
    import threading

    from generator.rendering import art as module

    made = []
    convert = module.Art._converted

    def converted(self, path):
        made.append(threading.current_thread().name)
        return convert(self, path)

    monkeypatch.setattr(module.Art, "_converted", converted)
    monkeypatch.setattr(module.os, "cpu_count", lambda: 2)
    return made


@pytest.mark.usefixtures("font_book")
@pytest.mark.parametrize("options", [{"colour": "cmyk"}, {"greyscale": True}, {"colour": "cmyk", "pdfx": True}])
def test_art_converted_ahead_by_threads_makes_the_same_pdf(tmp_path, conversions, options):
    """Told the faces of a batch first, the sheet writer converts their art on other threads, in order, AHEAD at a
    time: the same bytes as converted one by one as each is drawn."""
    from generator.core.options import Options

    arts = noise(tmp_path, 6)
    ahead = sheet_pdf(tmp_path, arts, Options(**options), "ahead.pdf", ahead=True)
    assert len(conversions) == 6 and all(name.startswith("muster-art") for name in conversions)
    conversions.clear()
    alone = sheet_pdf(tmp_path, arts, Options(**options), "alone.pdf")
    assert conversions == ["MainThread"] * 6
    assert ahead.read_bytes() == alone.read_bytes()


@pytest.mark.usefixtures("font_book")
def test_art_converted_ahead_holds_a_few_images_never_all(tmp_path, conversions, monkeypatch):
    """Twelve images told at once: no more than AHEAD are converted, or held converted, ahead of the one drawn, so
    that memory holds a few images whatever a batch holds, however slowly sheets are drawn."""
    import time

    from generator.core.options import Options
    from generator.rendering import art as module

    held = []
    start, draw = module.Art._start, module.Art.draw

    def started(self):
        start(self)
        held.append(len(self.converting))

    def slowly(self, *args):
        time.sleep(0.02)  # drawing slower than converting: what is converted waits for it
        draw(self, *args)

    monkeypatch.setattr(module.Art, "_start", started)
    monkeypatch.setattr(module.Art, "draw", slowly)
    pdf = sheet_pdf(tmp_path, noise(tmp_path, 12), Options(colour="cmyk"), ahead=True)
    assert len(images(pdf)) == 12 and len(conversions) == 12
    assert max(held) == module.AHEAD


@pytest.mark.usefixtures("font_book")
def test_a_pdfx_sheet_is_identified_by_the_digest_of_the_pdf_with_its_art(tmp_path):
    """PDF/X's /ID is the MD5 of the PDF reportlab wrote, art and all: the same sheet written in CMYK without PDF/X."""
    import hashlib

    from generator.core.options import Options

    arts = noise(tmp_path, 2)
    plain = sheet_pdf(tmp_path, arts, Options(colour="cmyk"), "plain.pdf")
    pdfx = sheet_pdf(tmp_path, arts, Options(colour="cmyk", pdfx=True), "pdfx.pdf")
    assert PdfReader(pdfx).trailer["/ID"][0].original_bytes == hashlib.md5(plain.read_bytes()).digest()
