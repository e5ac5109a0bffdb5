"""Where things come from, what is wrong with them, and the one exception type the CLI catches."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple


class Location(NamedTuple):
    """A place in a source file; line and column count from 1 (0: the whole file)."""

    path: Path
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        shown = display_path(self.path)
        if self.line:
            return f"{shown}:{self.line}:{self.column or 1}"
        return shown


def display_path(path: Path) -> str:
    """A path relative to the working folder when it lies below it, else as given."""
    path = Path(path)
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


@dataclass(frozen=True)
class Finding:
    """One validation result, printed in the compiler style editors turn into links."""

    severity: str  # "error" or "warning"
    where: Location | None
    field: str
    message: str

    def __str__(self) -> str:
        place = f"{self.where}: " if self.where else ""
        field = f"{self.field}: " if self.field else ""
        return f"{place}{self.severity}: {field}{self.message}"

    def as_dict(self) -> dict:
        return {
            "severity": self.severity,
            "file": display_path(self.where.path) if self.where else None,
            "line": self.where.line if self.where else None,
            "column": self.where.column if self.where else None,
            "field": self.field,
            "message": self.message,
        }


class MusterError(Exception):
    """An input Muster cannot use at all; the CLI prints it as one line and exits 2."""

    def __init__(self, message: str, where: Location | None = None):
        super().__init__(message)
        self.where = where
        self.message = message

    def __str__(self) -> str:
        return f"{self.where}: error: {self.message}" if self.where else f"error: {self.message}"


class GameInvalid(MusterError):
    """A game whose validation found errors; rendering refuses it."""

    def __init__(self, findings: list[Finding]):
        super().__init__(f"{sum(f.severity == 'error' for f in findings)} validation error(s)")
        self.findings = findings

    def __reduce__(self):  # pickled whole, so that a second process can report it
        return GameInvalid, (self.findings,)
