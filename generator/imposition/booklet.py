"""Booklets: a finished PDF's pages imposed two-up in saddle-stitch order, to print double-sided and fold."""

from __future__ import annotations

import io

from ..core.units import PAPERS, PT_PER_MM


def saddle_stitch_order(pages: int) -> list[tuple[int | None, int | None]]:
    """Page pairs (left, right), sheet sides in print order; None is a blank page padding to a multiple of four.

    For 8 pages: (8, 1), (2, 7), (6, 3), (4, 5), counting from 1: the outer sheet's front holds the last and
    the first page, its back the second and the second-to-last, and so on inwards.
    """
    padded = -(-max(pages, 1) // 4) * 4

    def page(number: int) -> int | None:
        return number if number <= pages else None

    order = []
    for sheet in range(padded // 4):
        order.append((page(padded - 2 * sheet), page(2 * sheet + 1)))
        order.append((page(2 * sheet + 2), page(padded - 2 * sheet - 1)))
    return order


def impose_booklet(source: bytes, paper: str) -> tuple[bytes, int]:
    """A PDF of the pages of the PDF `source` two-up on landscape `paper`, scaled to fit, in booklet order; and
    its number of sheet sides.

    Each source page becomes a form XObject that both of its placements share: its content stream is copied as
    it is, never parsed, which keeps imposing a rulebook to a fraction of a second.
    """
    from pypdf import PageObject, PdfReader, PdfWriter
    from pypdf.generic import (ArrayObject, DecodedStreamObject, DictionaryObject, FloatObject, NameObject,
                               StreamObject)

    reader = PdfReader(io.BytesIO(source))
    width, height = (max(PAPERS[paper]) * PT_PER_MM, min(PAPERS[paper]) * PT_PER_MM)
    writer = PdfWriter()
    forms = {}

    def form(number: int):
        if number not in forms:
            page = reader.pages[number - 1]
            box = page.mediabox
            xobject = StreamObject.initialize_from_dictionary({
                NameObject("/Type"): NameObject("/XObject"),
                NameObject("/Subtype"): NameObject("/Form"),
                NameObject("/BBox"): ArrayObject(FloatObject(v) for v in (box.left, box.bottom, box.right, box.top)),
                NameObject("/Resources"): page["/Resources"].clone(writer),
                "__streamdata__": page.get_contents().get_data(),
            })
            forms[number] = (writer._add_object(xobject.flate_encode()), float(box.width), float(box.height))
        return forms[number]

    for left, right in saddle_stitch_order(len(reader.pages)):
        sheet = PageObject.create_blank_page(writer, width=width, height=height)
        names, operators = DictionaryObject(), []
        for number, offset in ((left, 0.0), (right, width / 2)):
            if number is None:
                continue
            reference, page_width, page_height = form(number)
            scale = min(width / 2 / page_width, height / page_height)
            x = offset + (width / 2 - page_width * scale) / 2
            y = (height - page_height * scale) / 2
            names[NameObject(f"/P{number}")] = reference
            operators.append(f"q {scale:.6f} 0 0 {scale:.6f} {x:.4f} {y:.4f} cm /P{number} Do Q")
        contents = DecodedStreamObject()
        contents.set_data("\n".join(operators).encode())
        sheet[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): names})
        sheet[NameObject("/Contents")] = writer._add_object(contents)
        writer.add_page(sheet)
    title = reader.metadata.title if reader.metadata and reader.metadata.title else ""
    writer.add_metadata({"/Title": f"{title} (booklet)", "/Producer": "Muster"})
    target = io.BytesIO()
    writer.write(target)
    return target.getvalue(), len(writer.pages)
