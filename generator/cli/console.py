"""What every command shares: the --debug switch, one-line failures, and the rules of --bleed and --back-offset."""

from __future__ import annotations

import math
from pathlib import Path
from typing import NoReturn

import typer

from ..core.errors import GameInvalid, MusterError
from ..core.units import paper_name, parse_length

MAX_BLEED = 10.0  # mm
MAX_BACK_OFFSET = 10.0  # mm: far beyond any duplex printer's shift; more is a typo

state = {"debug": False}


def finite(value: float | None) -> float | None:
    """The callback of every number option: click's ranges let nan and inf through (no comparison refuses them)."""
    if value is not None and not math.isfinite(value):
        raise typer.BadParameter(f"expected a finite number, got {value}")
    return value


def fail(exc: MusterError) -> NoReturn:
    """An input that cannot be used: one line on standard error and exit 2 (the traceback with --debug)."""
    if state["debug"]:
        raise exc
    typer.echo(str(exc), err=True)
    raise typer.Exit(2)


def invalid(name: str, exc: GameInvalid, what: str = "built") -> NoReturn:
    """A game with validation errors: every finding, then one line saying what was not done; exit 1."""
    for finding in exc.findings:
        typer.echo(str(finding), err=True)
    typer.echo(f"{name}: not {what} ({exc.message})", err=True)
    raise typer.Exit(1)


def paper(text: str) -> str:
    """A paper as --paper names it (units.paper_name); a MusterError listing the named papers when it is none."""
    try:
        return paper_name(text)
    except ValueError as exc:
        raise MusterError(f"--paper: {exc}") from None


def bleed(text: str) -> float:
    """Millimetres of bleed from an option such as 3mm or 0.125in, within 0 to MAX_BLEED."""
    try:
        value = parse_length(text)
    except ValueError as exc:
        raise MusterError(f"--bleed: {exc}") from None
    if not 0 <= value <= MAX_BLEED:
        raise MusterError(f"--bleed must be between 0mm and {MAX_BLEED:g}mm, got {text}")
    return value


def back_offset(text: str, duplex: str) -> tuple[float, float]:
    """Millimetres (x, y) from an option such as 1.5mm,-0.5mm or 0.5,0 (bare numbers in mm), each within
    MAX_BACK_OFFSET; refused with --duplex fold, where no page is a back."""
    parts = text.split(",")
    if len(parts) != 2:
        raise MusterError(f"--back-offset takes two lengths, X,Y (such as 1.5mm,-0.5mm), got {text!r}")
    try:
        offset = (parse_length(parts[0], bare_unit="mm"), parse_length(parts[1], bare_unit="mm"))
    except ValueError as exc:
        raise MusterError(f"--back-offset: {exc}") from None
    if any(abs(value) > MAX_BACK_OFFSET for value in offset):
        raise MusterError(f"--back-offset must be within ±{MAX_BACK_OFFSET:g}mm on each axis, got {text}")
    if duplex == "fold" and offset != (0.0, 0.0):
        raise MusterError("--back-offset moves back pages, and --duplex fold has none: its fronts and backs share "
                          "one side of the paper, printed single-sided and folded")
    return offset


def games(names: list[str] | None) -> list[str | Path]:
    from ..reading.resources import bundled_games

    if names:
        return list(names)
    games = bundled_games()
    if not games:
        raise MusterError("no bundled games found")
    return games


def progress(items: list, label: str):
    """A bar on standard error that counts `items` as they are done, when standard error is a terminal."""
    import sys
    from contextlib import nullcontext

    if not sys.stderr.isatty():
        return nullcontext(items)
    return typer.progressbar(items, label=label, file=sys.stderr)


def building(games: int, build) -> list:
    """Runs `build(done)`, which yields one outcome per game, with a line on standard error that tells only what
    is known: the documents finished so far and the last of them. No percentage and no time left: how much a game
    holds is not known before it is read."""
    import sys

    state = {"documents": 0, "last": ""}

    def show() -> None:
        line = f"Building {games} game(s): {state['documents']} document(s) done  {state['last']}"
        sys.stderr.write("\r" + line[:100].ljust(100))
        sys.stderr.flush()

    def done(document: str) -> None:
        state["documents"] += 1
        state["last"] = document
        show()

    show()
    outcomes = list(build(done))
    sys.stderr.write("\r" + " " * 100 + "\r")
    return outcomes
