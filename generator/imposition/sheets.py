"""Placing faces on sheets: the grid of slots, bleed between neighbours, crop marks, and where backs go."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ..core.display import Ellipse, Line, Polygon, Rect
from ..core import codes
from ..core.errors import MusterError

MARGIN = 4.0        # mm from the paper's edge to the outer bleed: room for crop marks
MARK_OFFSET = 1.0   # mm between the outer bleed and the start of a crop mark
MARK_WIDTH = 0.2    # mm
FOLD_CLEARANCE = 3.0  # mm between the fold line and the nearest bleed edge
DUPLEX_MODES = ("long", "short", "fold", "none")


@dataclass(frozen=True)
class Slot:
    """Where one face goes: its trim box (top-left x, y and size, in mm on the sheet, y downwards)
    and how far its bleed may reach on each side before it would run into a neighbour."""

    x: float
    y: float
    w: float
    h: float
    left: float
    right: float
    top: float
    bottom: float

    def mirrored(self, paper: tuple[float, float], edge: str) -> "Slot":
        """The slot behind this one after turning the sheet over on its long edge (or the fold) or short edge."""
        if edge == "short":
            return replace(self, y=paper[1] - self.y - self.h, top=self.bottom, bottom=self.top)
        return replace(self, x=paper[0] - self.x - self.w, left=self.right, right=self.left)


CUT_COLOUR = "#9a9a9a"
CUT_WIDTH = 0.15  # mm


@dataclass(frozen=True)
class Arrangement:
    """A deck's slots on a sheet of paper: where each face goes, the crop marks, the fold line and cut lines."""

    paper: tuple[float, float]
    slots: tuple[Slot, ...]
    marks: tuple[Line, ...]
    fold: Line | None = None
    cut: str | None = None  # "outline" (edge-to-edge counters: shared cut lines), "circle", "pointy" or "flat" (hex)
    bleed: float = 0.0
    crop_marks: bool = True

    def marks_for(self, slots: list[Slot]) -> tuple[Line, ...]:
        """The crop marks of a sheet holding faces in `slots` only (on the left half when folded): at the trim
        lines of those slots, none along the empty rows and columns of a sheet not filled."""
        if not self.crop_marks or not slots:
            return ()
        if len(slots) == len(self.slots):
            return self.marks
        return sheet_marks(slots, self.paper, self.bleed, self.fold is not None)

    def cut_guides(self, slots) -> list:
        """Thin cut lines drawn over the placed faces, for packings whose faces have no bleed to cut in."""
        if self.cut == "outline":
            return [Rect(s.x, s.y, s.w, s.h, None, CUT_COLOUR, CUT_WIDTH) for s in slots]
        if self.cut == "circle":
            return [Ellipse(s.x + s.w / 2, s.y + s.h / 2, s.w / 2, s.h / 2, None, CUT_COLOUR, CUT_WIDTH) for s in slots]
        if self.cut in ("pointy", "flat"):
            return [Polygon(hexagon(s, self.cut), None, CUT_COLOUR, CUT_WIDTH) for s in slots]
        return []

    @property
    def per_sheet(self) -> int:
        return len(self.slots)


def hexagon(slot: Slot, orientation: str) -> tuple[tuple[float, float], ...]:
    """The corners of the hex filling a slot's trim box: a corner at the top (pointy) or a flat side (flat). The
    hex is symmetric about both of the box's axes, so a back mirrored behind its front is cut by the same line."""
    x, y, w, h = slot.x, slot.y, slot.w, slot.h
    if orientation == "pointy":
        corners = ((w / 2, 0), (w, h / 4), (w, 3 * h / 4), (w / 2, h), (0, 3 * h / 4), (0, h / 4))
    else:
        corners = ((0, h / 2), (w / 4, 0), (3 * w / 4, 0), (w, h / 2), (3 * w / 4, h), (w / 4, h))
    return tuple((round(x + dx, 4), round(y + dy, 4)) for dx, dy in corners)


def _axis(paper: float, card: float, bleed: float, start: float = 0.0) -> tuple[int, float, float]:
    """How many cards fit along one axis of `paper` mm, the gutter between trims, and the first trim edge."""
    count = math.floor((paper - 2 * MARGIN - 2 * bleed + 1e-9) / card)
    if count < 1:
        return 0, 0.0, 0.0
    spare = paper - 2 * MARGIN - 2 * bleed - count * card
    gutter = min(2 * bleed, spare / (count - 1)) if count > 1 else 0.0
    used = count * card + (count - 1) * gutter
    return count, gutter, start + (paper - used) / 2


def arrange(paper: tuple[float, float], card: tuple[float, float], bleed: float, crop_marks: bool = True,
         fold: bool = False, packing: str = "spaced", shape: str = "rect", orientation: str = "pointy") -> Arrangement:
    """The slots of one sheet. With `fold`, fronts fill the left half of a landscape sheet.

    `packing="sheet"` sets faces edge to edge with no bleed between them (a counter sheet: one cut serves two
    counters); round faces get a circular cut line, hex faces (`orientation` pointy or flat) a hexagonal one
    inside their box: each counter cut on its own, the box round the hex its bleed.
    """
    if packing == "sheet":
        bleed = 0.0
    width, height = (max(paper), min(paper)) if fold else paper
    area_width = (width / 2 - FOLD_CLEARANCE + MARGIN) if fold else width
    cols, gutter_x, first_x = _axis(area_width, card[0], bleed)
    rows, gutter_y, first_y = _axis(height, card[1], bleed)
    if fold:
        first_x = width / 2 - FOLD_CLEARANCE - bleed - (cols * card[0] + (cols - 1) * gutter_x)
    if cols < 1 or rows < 1:
        raise MusterError.of(codes.DOES_NOT_FIT, thing=f"a {card[0]:g} x {card[1]:g} mm card with {bleed:g} mm bleed",
                             paper=f"{width:g} x {height:g} mm paper{' folded in half' if fold else ''}")
    slots = []
    for row in range(rows):
        for col in range(cols):
            slots.append(Slot(
                x=first_x + col * (card[0] + gutter_x), y=first_y + row * (card[1] + gutter_y), w=card[0], h=card[1],
                left=bleed if col == 0 else gutter_x / 2, right=bleed if col == cols - 1 else gutter_x / 2,
                top=bleed if row == 0 else gutter_y / 2, bottom=bleed if row == rows - 1 else gutter_y / 2,
            ))
    marks = sheet_marks(slots, (width, height), bleed, fold) if crop_marks else ()
    fold_line = Line(width / 2, 0, width / 2, height, "#808080", MARK_WIDTH, (2.0, 2.0)) if fold else None
    cut = "circle" if shape == "round" else orientation if shape == "hex" else "outline" if packing == "sheet" else None
    return Arrangement((width, height), tuple(slots), marks, fold_line, cut, bleed, crop_marks)


def sheet_marks(slots: list[Slot], paper: tuple[float, float], bleed: float, fold: bool) -> tuple[Line, ...]:
    """The crop marks of `slots`; on a folded sheet, of the left half and mirrored on the right."""
    width, height = paper
    marks = _crop_marks(slots, (width / 2 if fold else width, height), bleed)
    if fold:
        marks += tuple(m._replace(x1=width - m.x1, x2=width - m.x2) for m in marks)
    return marks


def _crop_marks(slots: list[Slot], area: tuple[float, float], bleed: float) -> tuple[Line, ...]:
    """Short lines on the extension of the trim edges of `slots`, outside the bleed and within `area`: each trim
    line marked just beyond the outermost of the slots it bounds, so a sheet not filled is marked along its
    pieces only (on a full grid: in the margin). A mark stops MARK_OFFSET short of any piece's bleed as drawn (its
    slot's reach), and is left out when that leaves it no length: past the last piece of a row not filled, the trim
    line of the next column would otherwise run down beside that piece, touching it where the pieces stand closer
    than twice the bleed (round counters set almost edge to edge)."""
    xs: dict[float, list[Slot]] = {}
    ys: dict[float, list[Slot]] = {}
    for s in slots:
        for x in (s.x, s.x + s.w):
            xs.setdefault(round(x, 4), []).append(s)
        for y in (s.y, s.y + s.h):
            ys.setdefault(round(y, 4), []).append(s)
    boxes = [(s.x - s.left - MARK_OFFSET, s.y - s.top - MARK_OFFSET, s.x + s.w + s.right + MARK_OFFSET,
              s.y + s.h + s.bottom + MARK_OFFSET) for s in slots]
    marks = []

    def mark(x: float, y: float, dx: int, dy: int, reach: float) -> None:
        """A mark from (x, y) in the direction (dx, dy), up to 5 mm long and 0.5 mm short of `reach`."""
        length = _room(x, y, dx, dy, min(reach - 0.5, 5), boxes)
        if reach > 1 and length > 0.5:
            end = (x + dx * length, y + dy * length)
            start, end = ((x, y), end) if dx + dy > 0 else (end, (x, y))  # drawn left to right, top to bottom
            marks.append(Line(*start, *end, "#000000", MARK_WIDTH))

    for x in sorted(xs):
        top = min(s.y for s in xs[x]) - bleed
        bottom = max(s.y + s.h for s in xs[x]) + bleed
        mark(x, top - MARK_OFFSET, 0, -1, top - MARK_OFFSET)
        mark(x, bottom + MARK_OFFSET, 0, 1, area[1] - bottom - MARK_OFFSET)
    for y in sorted(ys):
        left = min(s.x for s in ys[y]) - bleed
        right = max(s.x + s.w for s in ys[y]) + bleed
        mark(left - MARK_OFFSET, y, -1, 0, left - MARK_OFFSET)
        mark(right + MARK_OFFSET, y, 1, 0, area[0] - right - MARK_OFFSET)
    return tuple(marks)


def _room(x: float, y: float, dx: int, dy: int, length: float, boxes) -> float:
    """How far a line from (x, y) in the direction (dx, dy) runs, up to `length`, before it enters a box."""
    for left, top, right, bottom in boxes:
        across, along, near, far = (x, y, top, bottom) if dx == 0 else (y, x, left, right)
        low, high = (left, right) if dx == 0 else (top, bottom)
        if not low < across < high:
            continue
        step = dy or dx
        if step < 0:
            along, near, far = -along, -far, -near
        if far > along + 1e-9:  # a box behind the start (the piece the mark is for) is no obstacle
            length = min(length, near - along)
    return length


@dataclass(frozen=True)
class Sheet:
    """One page: which face (by index into the document's faces) goes in which slot, and what is drawn over them
    (crop marks, cut lines, the fold line, tile labels), all in page millimetres."""

    side: str  # "front", "back", "both" (fold) or "tile"
    paper: tuple[float, float]
    placements: tuple[tuple[Slot, int], ...]
    overlay: tuple = ()
    trim: tuple[float, float, float, float] | None = None  # x, y, w, h: the page's TrimBox (BleedBox: the page)
    underlay: tuple = ()  # drawn under the faces: the zones and labels of grouped counters (groups.py)


def _sheet(side: str, arrangement: Arrangement, placements: tuple, marked: tuple | None = None) -> Sheet:
    """A page of `placements`, crop marks at the trim lines of the `marked` ones (default: all of them)."""
    marks = arrangement.marks_for([slot for slot, _ in (placements if marked is None else marked)])
    overlay = tuple(arrangement.cut_guides(slot for slot, _ in placements)) + marks
    if arrangement.fold is not None:
        overlay += (arrangement.fold,)
    return Sheet(side, arrangement.paper, placements, overlay)


def sheets(fronts: list[int], backs: list[int], arrangement: Arrangement, duplex: str):
    """Pages in print order. `fronts[i]` and `backs[i]` are the faces of the i-th card copy; a back of None is
    left blank, and a back page with nothing on it is left out.

    long/short: front page k is followed by its back page, each back behind its front.
    fold: each page carries fronts on the left half and their backs mirrored across the fold.
    none: all front pages, then all back pages, unmirrored.
    """
    if duplex not in DUPLEX_MODES:
        raise MusterError.of(codes.BAD_CHOICE, field="duplex", choices=", ".join(DUPLEX_MODES), got=duplex)
    per = arrangement.per_sheet
    chunks = [range(i, min(i + per, len(fronts))) for i in range(0, len(fronts), per)]
    edge = "short" if duplex == "short" else "long"
    if duplex == "none":
        for chunk in chunks:
            yield _sheet("front", arrangement, tuple((arrangement.slots[j], fronts[i]) for j, i in enumerate(chunk)))
        for chunk in chunks:
            back = tuple((arrangement.slots[j], backs[i]) for j, i in enumerate(chunk) if backs[i] is not None)
            if back:
                yield _sheet("back", arrangement, back)
        return
    for chunk in chunks:
        front = tuple((arrangement.slots[j], fronts[i]) for j, i in enumerate(chunk))
        back = tuple((arrangement.slots[j].mirrored(arrangement.paper, edge), backs[i]) for j, i in enumerate(chunk)
                     if backs[i] is not None)
        if duplex == "fold":
            yield _sheet("both", arrangement, front + back, front)
        else:
            yield _sheet("front", arrangement, front)
            if back:
                yield _sheet("back", arrangement, back)
