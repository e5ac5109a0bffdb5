"""A chart of the bundled NATO-style unit symbols: every unit type in every affiliation's frame, every echelon's
mark, and the symbols in a line of text, on one A4 page, drawn by the same code as a layout's `kind: unit`.

    python bench/symbol_chart.py /tmp/symbols.pdf      then   pdftoppm -r 150 -png /tmp/symbols.pdf /tmp/symbols

It also writes symbols as SVG icons (friend frames), for text that cannot draw them from the data, such as a
rulebook's: `python bench/symbol_chart.py icons FOLDER INK TYPE...` writes FOLDER/nato-TYPE.svg for each TYPE
(Grid Battle's icons/ are made so: see its NOTES.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from generator.core.display import Run
from generator.core.units import PT_PER_MM
from generator.layout import symbols
from generator.reading.fonts import read_font_book
from generator.rendering.render import Painter

PAGE = (210.0, 297.0)
CELL = (34.0, 12.6)  # mm per symbol, its name under it


def chart_items() -> list:
    """The chart's display items, in page millimetres."""
    symbol_set = symbols.symbol_set()
    items: list = [_label("NATO-style unit symbols (Muster, layout/symbols.yaml)", 12, 10, 11, "display-bold")]
    left, top = 38.0, 16.0
    for column, affiliation in enumerate(symbol_set.frames):
        items.append(_label(affiliation, left + column * CELL[0] + 10, top + 3, 8, "text-bold"))
    for row, name in enumerate(symbol_set.types):
        y = top + 5 + row * CELL[1]
        items.append(_label(name, 12, y + 7, 7, "text"))
        for column, affiliation in enumerate(symbol_set.frames):
            box = (left + column * CELL[0], y, 24.0, 11.0)
            items += symbols.draw(affiliation, name, "", box, symbols.STANDARD, "#000000", {})
    y = top + 8 + len(symbol_set.types) * CELL[1]
    for index, (mark, echelon) in enumerate(symbol_set.marks.items()):
        x = 12 + (index % 6) * 32
        row_y = y + (index // 6) * 22
        items += symbols.draw("friend", "infantry", echelon, (x, row_y, 24.0, 14.0), symbols.STANDARD, "#000000", {})
        items.append(_label(f"{echelon} ({mark})", x, row_y + 17, 7, "text"))
    return items


def _label(text: str, x: float, baseline: float, size: float, font: str) -> Run:
    return Run(x, baseline, text, font, size, "#000000")


def main(target: str) -> None:
    read_font_book()
    canvas = Canvas(target, pagesize=(PAGE[0] * PT_PER_MM, PAGE[1] * PT_PER_MM), invariant=1)
    Painter(canvas).paint(chart_items(), PAGE[1])
    canvas.showPage()
    canvas.save()
    print(f"wrote {Path(target)}")


def write_icons(folder: Path, ink: str, types: list[str]) -> None:
    for name in types:
        target = folder / f"nato-{name}.svg"
        target.write_text(symbols.svg("friend", name, ink), encoding="utf-8")
        print(f"wrote {target}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["icons"]:
        write_icons(Path(sys.argv[2]), sys.argv[3], sys.argv[4:])
    else:
        main(sys.argv[1] if len(sys.argv) > 1 else "symbols.pdf")
