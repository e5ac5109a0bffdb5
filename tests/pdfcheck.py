"""Reading rendered PDFs in tests: text, where it is, and pages as images."""

from __future__ import annotations

from pathlib import Path


def char_boxes(pdf: Path, page_index: int, needle: str) -> list[tuple[float, float, float, float]]:
    """Boxes (left, bottom, right, top in points) of each occurrence of `needle` on one page."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        text = document[page_index].get_textpage()
        searcher = text.search(needle, match_case=True, match_whole_word=False)
        boxes = []
        while (hit := searcher.get_next()) is not None:
            start, count = hit
            chars = [text.get_charbox(i) for i in range(start, start + count)]
            boxes.append((min(c[0] for c in chars), min(c[1] for c in chars),
                          max(c[2] for c in chars), max(c[3] for c in chars)))
        return boxes
    finally:
        document.close()


def lowest_text(pdf: Path, page_index: int, above: float) -> float | None:
    """The bottom (points from the page's foot) of the lowest character that lies above `above`, if any."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        text = document[page_index].get_textpage()
        bottoms = [box[1] for box in map(text.get_charbox, range(text.count_chars())) if box[1] > above]
        return min(bottoms, default=None)
    finally:
        document.close()


def page_text(pdf: Path, page_index: int) -> str:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        return document[page_index].get_textpage().get_text_range()
    finally:
        document.close()


def rasterise(pdf: Path, page_index: int, dpi: int = 40, mode: str = "L"):
    """One page as a PIL image, greyscale by default (mode "RGB" for colour)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        return document[page_index].render(scale=dpi / 72).to_pil().convert(mode)
    finally:
        document.close()
