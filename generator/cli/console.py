"""What every command shares: the --debug switch, one-line failures, the games named and progress shown."""

from __future__ import annotations

import math
from pathlib import Path
from typing import NoReturn

import typer

from ..core import codes
from ..core.errors import GameInvalid, MusterError, exit_status

state = {"debug": False, "ending": False}  # ending: the process ends with the command (cli.run), not a test's


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
    """A game with validation errors: every finding, then one line saying what was not done; exit 1 (2 when an
    input could not be read)."""
    for finding in exc.findings:
        typer.echo(str(finding), err=True)
    typer.echo(f"{name}: not {what} ({exc.message})", err=True)
    raise typer.Exit(exit_status(exc.findings))


def base_url(text: str) -> str:
    """An http(s) URL with a host, of printable characters without spaces: what TTS can fetch images from."""
    import unicodedata
    from urllib.parse import urlsplit

    shown = text.encode("unicode_escape").decode("ascii")[:80]
    if any(ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in text):
        raise MusterError.of(codes.BAD_URL, field="--base-url", rule="not hold spaces or control characters", got=shown)
    try:
        url = urlsplit(text)
        url.port  # noqa: B018 - read for its check: a port that is not a number is a ValueError
    except ValueError:
        url = None
    if url is None or url.scheme not in ("http", "https") or not url.hostname:
        raise MusterError.of(codes.BAD_URL, field="--base-url", rule="be an http:// or https:// URL with a host",
                             got=shown)
    return text


def games(names: list[str] | None) -> list[str | Path]:
    from ..reading.resources import bundled_games

    if names:
        return list(names)
    games = bundled_games()
    if not games:
        raise MusterError.of(codes.INTERNAL_ERROR, detail="no bundled games found")
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
