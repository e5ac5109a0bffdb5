"""Grouped counter sheets: each group of a deck in a block of whole rows, on a zone of its colour under its label,
packed down the sheet as commercial counter sheets are; crop marks at the trim lines of the pieces only."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Iterator, Sequence

from ..core.display import Rect, Run
from ..core import codes
from ..core.errors import MusterError
from ..core.plan import SheetGroup
from .sheets import Arrangement, Sheet, Slot, sheet_marks

LABEL = 4.5         # mm: the strip above a block that holds its label
PAD = 1.5           # mm: how far a zone reaches round its block's pieces
GAP = 2.5           # mm between one zone and the next
LABEL_FONT, LABEL_SIZE = "text-bold", 7.0  # points
BASELINE = 1.4      # mm from the foot of the label strip to the label's baseline


class Page:
    """One page of blocks: which copy goes in which slot, and the zones and labels drawn under the pieces."""

    def __init__(self) -> None:
        self.slots: list[tuple[Slot, int]] = []
        self.zones: list[tuple[SheetGroup, tuple[float, float, float, float]]] = []  # x, y, w, h


def block_pages(groups: Sequence[SheetGroup], arrangement: Arrangement) -> list[Page]:
    """The groups' copies in blocks of whole rows of the arrangement's columns, each group starting a block
    under its label; a group too long for what is left of a page goes on over the next, labelled again."""
    first = arrangement.slots[0]
    row = [slot for slot in arrangement.slots if slot.y == first.y]
    rows = sorted({slot.y for slot in arrangement.slots})
    pitch = rows[1] - rows[0] if len(rows) > 1 else first.h
    top, bottom = first.y - first.top, arrangement.slots[-1].y + first.h + arrangement.slots[-1].bottom
    gutter = pitch - first.h
    left, right = row[0].x - PAD, row[-1].x + row[-1].w + PAD
    pages = [Page()]
    y = top
    for group in groups:
        copies = list(group.copies)
        while copies:
            room = math.floor((bottom - y - LABEL + gutter + 1e-9) / pitch)
            if room < 1:
                if not pages[-1].slots:
                    raise MusterError.of(codes.DOES_NOT_FIT, paper="the sheet",
                                         thing=f"a block of {first.w:g} x {first.h:g} mm counters with its label")
                pages.append(Page())
                y = top
                continue
            count = min(len(copies), room * len(row))
            block, copies = copies[:count], copies[count:]
            used_rows = math.ceil(count / len(row))
            height = LABEL + used_rows * pitch - gutter + PAD
            pages[-1].zones.append((group, (left, y, right - left, height)))
            for index, copy in enumerate(block):
                slot = row[index % len(row)]
                pages[-1].slots.append((Slot(slot.x, y + LABEL + (index // len(row)) * pitch, slot.w, slot.h,
                                             slot.left, slot.right, gutter / 2, gutter / 2), copy))
            y += height + GAP
    return pages


def _zone(group: SheetGroup, x: float, y: float, w: float, h: float, strip_at_top: bool = True) -> list:
    """A block's zone and its label in the strip at its top (at its foot on a back turned on the short edge),
    legible on the zone's colour."""
    red, green, blue = (int(group.colour[i:i + 2], 16) for i in (1, 3, 5))
    ink = "#000000" if 0.299 * red + 0.587 * green + 0.114 * blue > 140 else "#ffffff"
    baseline = y + LABEL - BASELINE if strip_at_top else y + h - BASELINE
    return [Rect(x, y, w, h, group.colour, None, 0.0),
            Run(round(x + PAD, 3), round(baseline, 3), group.label, LABEL_FONT, LABEL_SIZE, ink)]


def grouped_sheets(fronts: list[int], backs: list, groups: Sequence[SheetGroup], arrangement: Arrangement,
                   duplex: str) -> Iterator[Sheet]:
    """The pages of a grouped deck in print order, as sheets() gives them: each front page followed by its
    backs (long, short), fronts and backs on one folded page (fold), or every front page before the backs
    (none); a back page with nothing on it left out. The zones lie behind the backs too, mirrored."""
    width, height = arrangement.paper
    edge = "short" if duplex == "short" else "long"
    fold = arrangement.fold is not None
    printed = []
    for page in block_pages(groups, arrangement):
        front = tuple((slot, fronts[copy]) for slot, copy in page.slots)
        turned = duplex != "none"
        back = tuple((slot.mirrored((width, height), edge) if turned else slot, backs[copy])
                     for slot, copy in page.slots if backs[copy] is not None)
        zones = _zones(page, (width, height), None)
        back_zones = _zones(page, (width, height), edge if turned else None)
        marks = _marks(front, arrangement, fold, True)
        back_marks = _marks(back, arrangement, False, edge != "short") if not fold else ()
        cuts = arrangement.cut_guides(slot for slot, _ in front + (back if fold else ()))
        if fold:
            printed.append(Sheet("both", (width, height), front + back, tuple(cuts) + marks + (arrangement.fold,),
                                 underlay=zones + back_zones))
            continue
        printed.append(Sheet("front", (width, height), front, tuple(cuts) + marks, underlay=zones))
        if back:
            back_sheet = Sheet("back", (width, height), back,
                               tuple(arrangement.cut_guides(slot for slot, _ in back)) + back_marks,
                               underlay=back_zones)
            printed.append(back_sheet)
    if duplex == "none":
        printed = [s for s in printed if s.side == "front"] + [s for s in printed if s.side == "back"]
    yield from printed


def _marks(placements: tuple, arrangement: Arrangement, fold: bool, strip_at_top: bool) -> tuple:
    """Crop marks at the trim lines of the placed pieces; those along the columns clear of the label strips."""
    if not arrangement.crop_marks:
        return ()
    slots = [slot for slot, _ in placements]
    strip = LABEL + PAD
    clear = [replace(s, y=s.y - strip if strip_at_top else s.y, h=s.h + strip) for s in slots]
    columns = sheet_marks(clear, arrangement.paper, arrangement.bleed, fold)
    rows = sheet_marks(slots, arrangement.paper, arrangement.bleed, fold)
    return tuple(m for m in columns if m.x1 == m.x2) + tuple(m for m in rows if m.y1 == m.y2)


def _zones(page: Page, paper: tuple[float, float], edge: str | None) -> tuple:
    """The zones and labels of a page: as placed (`edge` None), or behind the backs turned on `edge`."""
    width, height = paper
    items = []
    for group, (x, y, w, h) in page.zones:
        if edge == "long":
            x = width - x - w
        elif edge == "short":
            y = height - y - h
        items += _zone(group, x, y, w, h, strip_at_top=edge != "short")
    return tuple(items)
