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


def lowest_text(pdf: Path, page_index: int, above: float,
                between: tuple[float, float] = (float("-inf"), float("inf"))) -> float | None:
    """The bottom (points from the page's foot) of the lowest character that lies above `above`, and whose centre
    lies `between` two abscissae (a column), if any."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        text = document[page_index].get_textpage()
        bottoms = [box[1] for box in map(text.get_charbox, range(text.count_chars()))
                   if box[1] > above and between[0] <= (box[0] + box[2]) / 2 <= between[1]]
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


ICON_AT = "\ufffc"  # a picture in the text read_back reads


def read_back(pdf, page_index: int) -> str:
    """The text of a PDF's page, line by line and left to right, every picture (an image, or an SVG's form) one
    ICON_AT; spaces left out (the gap between a picture and its words is no character)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    document = pdfium.PdfDocument(pdf)
    try:
        page = document[page_index]
        text = page.get_textpage()
        marks = []  # (middle of its line, left, character)
        for index in range(text.count_chars()):
            # pdfium reads a hyphen that ends a line as U+FFFE, its mark of a word broken there: it is the hyphen
            character = text.get_text_range(index, 1).replace("\ufffe", "-")
            if character.strip():
                left, bottom, right, top = text.get_charbox(index, loose=True)
                marks.append(((bottom + top) / 2, left, character))
        for picture in page.get_objects(filter=[raw.FPDF_PAGEOBJ_IMAGE, raw.FPDF_PAGEOBJ_FORM]):
            left, bottom, right, top = picture.get_bounds()
            marks.append(((bottom + top) / 2, left, ICON_AT))
    finally:
        document.close()
    lines: list[list] = []
    for middle, left, character in sorted(marks, key=lambda m: -m[0]):
        if lines and abs(lines[-1][0][0] - middle) < 2.5:  # points: within one line of text
            lines[-1].append((middle, left, character))
        else:
            lines.append([(middle, left, character)])
    return "".join(c for line in lines for _, _, c in sorted(line, key=lambda m: m[1]))


def text_lines(pdf: Path, page_index: int) -> list[tuple[float, float, str]]:
    """The page's lines of text as (left, baseline, text), a line being the characters of one baseline within one
    column: a run broken by a gap wider than 12 points starts another."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        text = document[page_index].get_textpage()
        chars = sorted(((text.get_charbox(i, loose=True), text.get_text_range(i, 1))
                        for i in range(text.count_chars())), key=lambda c: (-round(c[0][1], 1), c[0][0]))
    finally:
        document.close()
    lines: list[list] = []
    for box, char in chars:
        if char in "\r\n":
            continue
        last = lines[-1] if lines else None
        if last and abs(last[1] - box[1]) < 0.5 and box[0] - last[3] < 12:
            last[2] += char
            last[3] = box[2]
        else:
            lines.append([box[0], box[1], char, box[2]])
    return [(left, bottom, line) for left, bottom, line, _ in lines]


def page_fill(pdf: Path, page_index: int, margin: float) -> float:
    """How full a page's text frame is (`margin` mm all round, running heads and page numbers outside it): the
    share of its height down to its lowest character, averaged over its two columns when no character crosses its
    middle."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        page = document[page_index]
        width, height = page.get_size()
        text = page.get_textpage()
        boxes = [text.get_charbox(i, loose=True) for i in range(text.count_chars())]
    finally:
        document.close()
    top, bottom = height - margin / 25.4 * 72, margin / 25.4 * 72
    inside = [b for b in boxes if b[1] > bottom and b[3] < top + 2]
    if not inside:
        return 0.0
    halves = [[b for b in inside if (b[0] + b[2]) / 2 < width / 2], [b for b in inside if (b[0] + b[2]) / 2 >= width / 2]]
    two = all(halves) and not any(b[0] < width / 2 + 4 and b[2] > width / 2 - 4 for b in inside)
    columns = halves if two else [inside]
    return sum((top - min(b[1] for b in column)) / (top - bottom) for column in columns) / len(columns)
