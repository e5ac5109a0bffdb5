"""Where things come from, what is wrong with them, and the one exception type every stage raises.

A problem has one route: code that finds one raises MusterError (with the field and a stable code when it knows
them); the stage that can go on after it catches it at one boundary and keeps it as a Finding; the command line
prints findings, and turns a MusterError nobody caught into one line and exit 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from . import codes
from .geometry import column_name


class Location(NamedTuple):
    """A place in a source file; line and column count from 1 (0: the whole file). In an .xlsx workbook, the line
    is the row and the column is shown as the workbook shows it: cards.xlsx:7:C."""

    path: Path
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        shown = display_path(self.path)
        if self.line:
            column = self.column or 1
            if Path(self.path).suffix.lower() == ".xlsx":
                return f"{shown}:{self.line}:{column_name(column - 1)}"
            return f"{shown}:{self.line}:{column}"
        return shown


def display_path(path: Path) -> str:
    """A path relative to the working folder when it lies below it, else as given."""
    path = Path(path)
    full = path.parent.resolve() / path.name if path.is_symlink() else path.resolve()  # a link: itself, as named
    try:
        return str(full.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


@dataclass(frozen=True)
class Finding:
    """One validation result, printed in the compiler style editors turn into links."""

    severity: str  # "error" or "warning"
    where: Location | None
    field: str
    message: str
    code: str = ""  # stable and short ("unknown-key", "deck-size"): what tests and tools match, never the wording
    related: Location | None = None  # another place the finding concerns (the first of two duplicates, say)

    def __post_init__(self):
        codes.check(self.code)

    @classmethod
    def of(cls, code: codes.Code, where: Location | None, field: str = "", severity: str = "",
           related: Location | None = None, **values) -> Finding:
        """A finding of a declared code: its message from the code's template and `values`, its severity the
        code's unless given."""
        return cls(severity or code.severity, where, field, code.message(**values), code.name, related)

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
            "code": self.code,
            "message": self.message,
            **({"related": str(self.related)} if self.related else {}),
        }


class MusterError(Exception):
    """An input Muster cannot use at all; the CLI prints it as one line and exits 2."""

    def __init__(self, message: str, where: Location | None = None, field: str = "", code: str = ""):
        super().__init__(message)
        codes.check(code)
        self.where = where
        self.message = message
        self.field = field
        self.code = code

    @classmethod
    def of(cls, code: codes.Code, where: Location | None = None, field: str = "", **values) -> MusterError:
        """The problem of a declared code, its message from the code's template and `values`."""
        return cls(code.message(**values), where, field, code.name)

    def finding(self, severity: str = "error", where: Location | None = None, field: str = "",
                code: str = "") -> Finding:
        """This problem kept as a finding; `where`, `field` and `code` stand in for what the raiser did not know."""
        return Finding(severity, self.where or where, self.field or field, self.message, self.code or code)

    def __str__(self) -> str:
        return f"{self.where}: error: {self.message}" if self.where else f"error: {self.message}"


class GameInvalid(MusterError):
    """A game whose validation found errors; rendering refuses it."""

    def __init__(self, findings: list[Finding]):
        super().__init__(f"{sum(f.severity == 'error' for f in findings)} validation error(s)")
        self.findings = findings

    def __reduce__(self):  # pickled whole, so that a second process can report it
        return GameInvalid, (self.findings,)


def has_errors(findings) -> bool:
    return any(f.severity == "error" for f in findings)


# Findings about a file that could not be read at all (a deck file's YAML syntax, a sheet's missing worksheet or
# broken zip): reported with the run's other findings, but the exit status is that of unreadable input, as
# documented. A missing file named in game.yaml stays a validation error (exit 1), as it has been.
UNREADABLE = frozenset({"yaml-syntax", "unknown-sheet", "unreadable", "bad-encoding", "unsupported-file",
                        "empty-sheet"})


def exit_status(findings) -> int:
    """A command's exit status for its findings: 2 when an input could not be read, 1 with other errors, else 0."""
    errors = [f for f in findings if f.severity == "error"]
    return 2 if any(f.code in UNREADABLE for f in errors) else 1 if errors else 0


def did_you_mean(word, choices, otherwise: str = "") -> str:
    """" (did you mean 'x'?)" for the choice closest to `word`; `otherwise` when none is close."""
    import difflib  # a mistake's: a build without one never needs it

    hint = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1)
    return f" (did you mean '{hint[0]}'?)" if hint else otherwise
