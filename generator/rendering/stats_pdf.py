"""The statistics of formats/statistics.py (plain data) drawn as a PDF report: each deck's composition as
horizontal bars, each numeric trait's distribution as columns, and the draw asked for."""

from __future__ import annotations

import os
from pathlib import Path

from ..core.files import unwritable
from ..core.fonts import face
from ..core.units import PT_PER_MM

PAGE_W, PAGE_H = 210.0, 297.0  # mm: A4
MARGIN = 18.0
ROW = 5.0  # mm: one bar of a composition
COLUMNS_H = 38.0  # mm: the height of a distribution's columns
INK, BAR, PALE = (0.11, 0.11, 0.11), (0.23, 0.38, 0.56), (0.85, 0.87, 0.9)


class _Report:
    """A canvas written down the page in mm from the top, a new page when a block will not fit."""

    def __init__(self, path: str, title: str):
        from reportlab.pdfgen.canvas import Canvas

        face("text")
        face("text-bold")
        self.canvas = Canvas(path, pagesize=(PAGE_W * PT_PER_MM, PAGE_H * PT_PER_MM), invariant=1,
                             pageCompression=1)
        self.canvas.setTitle(title)
        self.y = MARGIN

    def room(self, height: float) -> None:
        if self.y + height > PAGE_H - MARGIN:
            self.canvas.showPage()
            self.y = MARGIN

    def text(self, x: float, y: float, text: str, size: float, bold: bool = False, align: str = "left") -> None:
        canvas = self.canvas
        canvas.setFillColorRGB(*INK)
        canvas.setFont("text-bold" if bold else "text", size)
        draw = {"left": canvas.drawString, "right": canvas.drawRightString, "centre": canvas.drawCentredString}
        draw[align](x * PT_PER_MM, (PAGE_H - y) * PT_PER_MM, text)

    def bar(self, x: float, y: float, w: float, h: float, colour) -> None:
        self.canvas.setFillColorRGB(*colour)
        self.canvas.rect(x * PT_PER_MM, (PAGE_H - y - h) * PT_PER_MM, w * PT_PER_MM, h * PT_PER_MM, stroke=0,
                         fill=1)

    def heading(self, text: str, size: float) -> None:
        self.room(size * 0.35 + 12)
        self.y += size * 0.35 + 2
        self.text(MARGIN, self.y, text, size, bold=True)
        self.y += 4

    def composition(self, label: str, rows: list[dict]) -> None:
        self.room(8 + ROW * min(len(rows), 3))
        self.text(MARGIN, self.y + 3, label, 9, bold=True)
        self.y += 5
        labels_w, width = 45.0, PAGE_W - 2 * MARGIN - 45.0 - 32.0
        most = max(row["copies"] for row in rows) or 1
        for row in rows:
            self.room(ROW)
            self.text(MARGIN + labels_w - 2, self.y + 3.4, row["value"][:40], 7.5, align="right")
            self.bar(MARGIN + labels_w, self.y + 0.8, width, ROW - 1.6, PALE)
            self.bar(MARGIN + labels_w, self.y + 0.8, max(0.3, width * row["copies"] / most), ROW - 1.6, BAR)
            self.text(MARGIN + labels_w + width + 2, self.y + 3.4,
                      f"{row['copies']}  ({100 * row['share']:.1f} %)", 7.5)
            self.y += ROW
        self.y += 3

    def columns(self, label: str, trait: dict) -> None:
        self.room(COLUMNS_H + 16)
        self.text(MARGIN, self.y + 3, f"{label}: {trait['min']:g} to {trait['max']:g}, mean {trait['mean']:.2f}, "
                  f"median {trait['median']:g}", 9, bold=True)
        self.y += 6
        values = trait["values"]
        width = PAGE_W - 2 * MARGIN
        step = width / len(values)
        most = max(row["copies"] for row in values) or 1
        for index, row in enumerate(values):
            x = MARGIN + index * step
            height = COLUMNS_H * row["copies"] / most
            self.bar(x + step * 0.15, self.y + COLUMNS_H - height, step * 0.7, height, BAR)
            self.text(x + step / 2, self.y + COLUMNS_H - height - 1, str(row["copies"]), 6.5, align="centre")
            self.text(x + step / 2, self.y + COLUMNS_H + 3.5, f"{row['value']:g}", 7, align="centre")
        self.y += COLUMNS_H + 8


def write_report(result: dict, path: Path) -> None:
    """The report of `result` (formats.statistics.game_statistics) written to `path`, whole or not at all."""
    temporary = path.with_name(f".{path.name}.part")
    try:
        report = _Report(str(temporary), f"{result['title']}: statistics")
        report.heading(f"{result['title']}: statistics", 16)
        if "draw" in result:
            report.text(MARGIN, report.y + 4, f"{result['draw']['asked']}:", 9)
            report.text(MARGIN, report.y + 9, result["draw"]["said"], 9, bold=True)
            report.y += 13
        for deck in result["decks"]:
            report.heading(f"{deck['name']}: {deck['copies']} cards, {deck['titles']} titles", 12)
            for trait in deck["composition"].values():
                report.composition(trait["label"], trait["rows"])
            for trait in deck["distribution"].values():
                report.columns(trait["label"], trait)
        report.canvas.save()
        os.replace(temporary, path)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise unwritable(f"write {path}", exc) from None
