"""Booklets: a finished PDF's pages imposed two-up in saddle-stitch order, to print double-sided and fold."""

from __future__ import annotations

from pathlib import Path

from .units import PAPERS


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


def impose_booklet(source: Path, target: Path, paper: str) -> int:
    """Writes `target`: the pages of `source` two-up on landscape `paper`, scaled to fit, in booklet order."""
    from pypdf import PageObject, PdfReader, PdfWriter, Transformation

    reader = PdfReader(source)
    sheet_w, sheet_h = (max(PAPERS[paper]) / 25.4 * 72, min(PAPERS[paper]) / 25.4 * 72)
    writer = PdfWriter()
    for left, right in saddle_stitch_order(len(reader.pages)):
        sheet = PageObject.create_blank_page(width=sheet_w, height=sheet_h)
        for number, offset in ((left, 0.0), (right, sheet_w / 2)):
            if number is None:
                continue
            page = reader.pages[number - 1]
            width, height = float(page.mediabox.width), float(page.mediabox.height)
            scale = min(sheet_w / 2 / width, sheet_h / height)
            x = offset + (sheet_w / 2 - width * scale) / 2
            y = (sheet_h - height * scale) / 2
            sheet.merge_transformed_page(page, Transformation().scale(scale).translate(x, y))
        writer.add_page(sheet)
    writer.add_metadata({"/Title": f"{reader.metadata.title if reader.metadata else ''} (booklet)", "/Producer": "Muster"})
    with open(target, "wb") as handle:
        writer.write(handle)
    return len(writer.pages)
