"""What laying out finds, as Findings: the one boundary where an error that stops a deck or a board becomes one,
a face's problems filed under its card or board, and the warnings a printed face would show."""

from __future__ import annotations

from typing import Callable, Iterable, TypeVar

from ..core import codes, fonts
from ..core.display import Face, Picture, Rect, Run, Turned
from ..core.errors import Finding, Location, MusterError
from ..core.units import PT_PER_MM
from ..core import sandbox

MIN_TEXT_PT = 6.0
ACCEPTABLE = ("text-too-small",)  # warnings an element may accept for itself: `accept: [text-too-small]`
SIDES = ("top", "right", "bottom", "left")
GAP_MM = 0.05  # narrower uncovered strips are rounding, not white edges
Result = TypeVar("Result")


def attempt(work: Callable[[], Result], findings: list[Finding], where: Location, field: str,
            subject: str) -> Result | None:
    """work()'s result; or None, its error kept in `findings`, when it raised MusterError or its templates ran out
    of time. The one place where laying out's errors become findings: `where` and `field` stand for what the
    error does not say itself, and `subject` names what was being laid out ("deck 'reds'")."""
    try:
        return work()
    except MusterError as exc:
        findings.append(exc.finding("error", where, field, "layout-error"))
    except sandbox.TimeLimit:
        findings.append(Finding("error", where, field, f"templates ran for more than {sandbox.TIME_LIMIT:g} s "
                                                       f"laying out {subject}", "time-limit"))
    return None


def filed(found: Iterable[Finding], where: Location, field: str, label: str) -> list[Finding]:
    """A face's problems (located in its layout) filed under the card or board it was drawn for."""
    return [Finding(f.severity, where, field, f"{label}: {f.message} ({f.where})", f.code, f.where) for f in found]


def small_text(items: Iterable, where: Location, accepted: Iterable[str]) -> list[Finding]:
    """A warning at the element (`where`, in its layout) for each text of its `items` that prints too small to
    read, turned or not; none when the element accepts it (`accept: [text-too-small]`)."""
    if "text-too-small" in accepted:
        return []
    findings = []
    for item in items:
        inner = item.items if isinstance(item, Turned) else (item,)
        for run in inner:
            if isinstance(run, Run) and run.size < MIN_TEXT_PT - 1e-6:
                small = Finding.of(codes.TEXT_TOO_SMALL, where, text=run.text[:30], size=run.size, least=MIN_TEXT_PT)
                if small not in findings:
                    findings.append(small)
    return findings


def text_findings(face: Face, safe: float, where: Location, field: str, label: str,
                  everything: bool = True) -> list[Finding]:
    """Warnings a printed face would show: missing glyphs; with `everything`, also text outside the safe zone.
    (Text too small to read is its element's warning: small_text.)"""
    findings = []
    said = set()

    def warn(code: codes.Code, **values) -> None:
        message = code.message(**values)
        if message not in said:
            said.add(message)
            findings.append(Finding(code.severity, where, field, f"{label}: {message}", code.name))

    for item in face.items:
        if not isinstance(item, Run):
            continue
        missing = fonts.missing_glyphs(item.text, item.font)
        if missing:
            warn(codes.MISSING_GLYPH, font=item.font, characters=", ".join(repr(c) for c in missing))
        if not everything:
            continue
        width = fonts.unit_width(item.text, item.font) * item.size / PT_PER_MM
        top = item.y - fonts.cap_height(item.font) * item.size / PT_PER_MM
        if (item.x < safe - 0.05 or item.x + width > face.width - safe + 0.05
                or top < safe - 0.05 or item.y > face.height - safe + 0.05):
            warn(codes.OUTSIDE_SAFE_AREA, text=item.text[:30], safe=safe)
    return findings


def bleed_gaps(face: Face, bleed: float) -> list[str]:
    """The sides on which the face's background stops short of the bleed's edge: where the union of its filled
    boxes and images (each counted as its whole box) leaves more than a tenth of that side's bleed (the band
    between the trim and the bleed's edge, corners left out) uncovered. A face whose background reaches the
    bleed's edge nowhere is white by design: none."""
    if bleed <= 0:
        return []
    edges = (-bleed, -bleed, face.width + bleed, face.height + bleed)
    boxes = []
    for item in face.items:
        if (isinstance(item, Rect) and item.fill) or isinstance(item, Picture):
            box = (max(item.x, edges[0]), max(item.y, edges[1]),
                   min(item.x + item.w, edges[2]), min(item.y + item.h, edges[3]))
            if box[2] - box[0] > GAP_MM and box[3] - box[1] > GAP_MM:
                boxes.append(box)
    if not any(box[0] <= edges[0] + GAP_MM or box[1] <= edges[1] + GAP_MM or box[2] >= edges[2] - GAP_MM
               or box[3] >= edges[3] - GAP_MM for box in boxes):
        return []
    xs = sorted({edges[0], edges[2], *(box[i] for box in boxes for i in (0, 2))})
    ys = sorted({edges[1], edges[3], *(box[i] for box in boxes for i in (1, 3))})
    bands = ((0, -bleed, face.width, 0), (face.width, 0, edges[2], face.height),
             (0, face.height, face.width, edges[3]), (-bleed, 0, 0, face.height))
    uncovered = [0.0] * len(bands)
    for x0, x1 in zip(xs, xs[1:]):
        for y0, y1 in zip(ys, ys[1:]):
            middle = ((x0 + x1) / 2, (y0 + y1) / 2)
            if any(b[0] <= middle[0] <= b[2] and b[1] <= middle[1] <= b[3] for b in boxes):
                continue
            for number, band in enumerate(bands):
                uncovered[number] += (max(0.0, min(x1, band[2]) - max(x0, band[0]))
                                      * max(0.0, min(y1, band[3]) - max(y0, band[1])))
    return [side for side, band, area in zip(SIDES, bands, uncovered)
            if area > 0.1 * (band[2] - band[0]) * (band[3] - band[1])]
