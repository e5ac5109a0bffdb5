"""What laying out finds, as Findings: the one boundary where an error that stops a deck or a board becomes one,
a face's problems filed under its card or board, and the warnings a printed face would show."""

from __future__ import annotations

from typing import Callable, Iterable, TypeVar

from ..core import fonts
from ..core.display import Face, Run
from ..core.errors import Finding, Location, MusterError
from ..core.units import PT_PER_MM
from ..core import sandbox

MIN_TEXT_PT = 6.0
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


def text_findings(face: Face, safe: float, where: Location, field: str, label: str,
                  everything: bool = True) -> list[Finding]:
    """Warnings a printed face would show: missing glyphs; with `everything`, also text too small to read and text
    outside the safe zone."""
    findings = []
    said = set()

    def warn(code: str, message: str) -> None:
        if message not in said:
            said.add(message)
            findings.append(Finding("warning", where, field, f"{label}: {message}", code))

    for item in face.items:
        if not isinstance(item, Run):
            continue
        missing = fonts.missing_glyphs(item.text, item.font)
        if missing:
            warn("missing-glyph", f"font '{item.font}' has no glyph for {', '.join(repr(c) for c in missing)}")
        if not everything:
            continue
        if item.size < MIN_TEXT_PT - 1e-6:
            warn("text-too-small",
                 f"text {item.text[:30]!r} is {item.size:g} pt, below the {MIN_TEXT_PT:g} pt that prints legibly")
        width = fonts.unit_width(item.text, item.font) * item.size / PT_PER_MM
        top = item.y - fonts.cap_height(item.font) * item.size / PT_PER_MM
        if (item.x < safe - 0.05 or item.x + width > face.width - safe + 0.05
                or top < safe - 0.05 or item.y > face.height - safe + 0.05):
            warn("outside-safe-area", f"text {item.text[:30]!r} reaches outside the {safe:g} mm safe zone")
    return findings
