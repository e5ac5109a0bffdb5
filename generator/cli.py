"""The `muster` command line: it parses options, calls the stages, and turns failures into one-line errors."""

from __future__ import annotations

import gc
import json
import os
import sys
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from . import console
from .authoring import export_csv, export_xlsx, import_cards, new_game, schema
from .errors import MusterError
from .exports import export_app

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,  # plain help: importing rich for it would double the start-up time
    pretty_exceptions_enable=False,
    help="Print-and-play kits for small war card games, from YAML game folders.\n\n"
         "Exit codes: 0 success, 1 validation errors, 2 unreadable input or bad options.",
)


class Paper(str, Enum):
    a4 = "a4"
    letter = "letter"
    a3 = "a3"
    tabloid = "tabloid"


class Duplex(str, Enum):
    long = "long"
    short = "short"
    fold = "fold"
    none = "none"


class Format(str, Enum):
    text = "text"
    json = "json"


@app.callback()
def _main(debug: bool = typer.Option(False, "--debug", help="Show Python tracebacks for errors.")) -> None:
    console.state["debug"] = debug


def _games(names: list[str] | None) -> list[str | Path]:
    from .resources import bundled_games

    if names:
        return list(names)
    games = bundled_games()
    if not games:
        raise MusterError("no bundled games found")
    return games


@app.command()
def build(
    games: Optional[List[str]] = typer.Argument(None, help="Game folders or bundled game names (default: every bundled game)."),
    out: Path = typer.Option(Path("output"), "--out", "-o", help="Output folder; each game gets a folder inside it."),
    paper: Paper = typer.Option(Paper.a4, help="Paper size."),
    bleed: str = typer.Option("3mm", help="Bleed around each face, with a unit (3mm, 0.125in)."),
    duplex: Duplex = typer.Option(Duplex.long, help="How backs are printed: long or short edge flip, gutter fold, or none (backs after fronts)."),
    crop_marks: bool = typer.Option(True, "--crop-marks/--no-crop-marks", help="Crop marks outside the bleed."),
    greyscale: bool = typer.Option(False, "--greyscale", help="Print in shades of grey (ink saver)."),
    variant: Optional[List[str]] = typer.Option(None, "--variant", help="Switch on a variant of the game (repeatable)."),
    seed: Optional[int] = typer.Option(None, "--seed", min=0, help="Seed for what boards place at random (default: each board's own); printed on the board."),
    booklet: bool = typer.Option(False, "--booklet", help="Also write rules-booklet.pdf: the rulebook two-up, in saddle-stitch order."),
    calibration: bool = typer.Option(True, "--calibration/--no-calibration", help="Write calibration.pdf: 100 mm rulers and a card at true size, to print first."),
    jobs: int = typer.Option(os.cpu_count() or 1, "--jobs", "-j", min=1, help="Processes to build with: games at once, or a big game read and laid out beside its drawing.  [default: the machine's cores]", show_default=False),
    force: bool = typer.Option(False, "--force", help="Rebuild games whose output is up to date."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing but errors."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Print every file written, with its pages and size."),
) -> None:
    """Build the print-and-play kit of each game into OUT/<game>/.

    A game whose inputs (its files, the bundled layouts and fonts, these options, Muster's version) have not
    changed since its last build, and whose output files are intact, is left as it is.
    """
    from .kit import build_all
    from .options import Options

    try:
        bleed_mm = console.bleed(bleed)
    except MusterError as exc:
        console.fail(exc)
    options = Options(paper.value, bleed_mm, duplex.value, crop_marks, greyscale, tuple(variant or ()), seed, booklet,
                      calibration)
    try:
        targets = _games(games)
    except MusterError as exc:
        console.fail(exc)
    outcomes = build_all(targets, out, options, jobs, force, console.state["debug"])
    if not quiet and sys.stderr.isatty() and len(targets) > 1:
        with typer.progressbar(outcomes, length=len(targets), label="Building", file=sys.stderr) as bar:
            outcomes = list(bar)
    failed = 0
    for outcome in outcomes:
        for line in outcome.errors:
            typer.echo(line, err=True)
        if outcome.summary and not quiet:
            typer.echo(outcome.summary)
        if verbose:
            for line in outcome.details:
                typer.echo(line)
        failed = max(failed, outcome.code)
    raise typer.Exit(failed)


@app.command()
def watch(
    game: str = typer.Argument(..., help="The game folder (or bundled game name) to watch."),
    out: Path = typer.Option(Path("output"), "--out", "-o", help="Output folder."),
    interval: float = typer.Option(0.5, "--interval", min=0.1, help="Seconds between looks for changes."),
) -> None:
    """Rebuild a game whenever one of its files or layouts changes, printing validation findings as they appear.

    Builds with the default options; stop with Ctrl-C.
    """
    import time

    from .documents import validate as check
    from .kit import build_one, snapshot
    from .loading import load_game
    from .options import Options
    from .resources import find_game

    try:
        root = find_game(game).resolve()
    except MusterError as exc:
        console.fail(exc)
    typer.echo(f"watching {root} (Ctrl-C to stop)")
    seen: dict = {}
    try:
        while True:
            state = snapshot(root)
            if state != seen:
                seen = state
                stamp = time.strftime("%H:%M:%S")
                try:
                    findings = check(load_game(root))
                except MusterError as exc:
                    typer.echo(f"[{stamp}] {exc}", err=True)
                    time.sleep(interval)
                    continue
                for finding in findings:
                    typer.echo(f"[{stamp}] {finding}")
                if not any(f.severity == "error" for f in findings):
                    outcome = build_one(root, out, Options())
                    for line in outcome.errors:
                        typer.echo(f"[{stamp}] {line}", err=True)
                    typer.echo(f"[{stamp}] {outcome.summary or outcome.name + ': not built'}")
                sys.stdout.flush()
            time.sleep(interval)
    except KeyboardInterrupt:
        raise typer.Exit(0)


@app.command()
def validate(
    games: Optional[List[str]] = typer.Argument(None, help="Game folders or bundled game names (default: every bundled game)."),
    format: Format = typer.Option(Format.text, "--format", help="text: one line per finding; json: a list of findings."),
    variant: Optional[List[str]] = typer.Option(None, "--variant", help="Switch on a variant of the game (repeatable)."),
) -> None:
    """Check games: exit 0 when consistent, 1 with errors, 2 when the input cannot be read."""
    from .documents import validate as check
    from .kit import without_cycle_collection
    from .loading import load_game

    try:
        targets = _games(games)
    except MusterError as exc:
        console.fail(exc)
    findings = []
    unreadable = 0  # games that could not be read: one error each, already printed
    for target in targets:
        try:
            with without_cycle_collection():
                findings.extend(check(load_game(target, tuple(variant or ()))))
        except MusterError as exc:
            if console.state["debug"]:
                raise
            typer.echo(str(exc), err=True)
            unreadable += 1
    if format is Format.json:
        typer.echo(json.dumps([f.as_dict() for f in findings], indent=2, ensure_ascii=False))
    else:
        for finding in findings:
            typer.echo(str(finding))
        sys.stdout.flush()  # the findings first, then the count on stderr, also when both go to one pipe
        errors = sum(f.severity == "error" for f in findings)
        warnings = len(findings) - errors
        errors += unreadable
        typer.echo(f"{len(targets)} game(s): {errors} error(s), {warnings} warning(s)", err=True)
    raise typer.Exit(2 if unreadable else 1 if any(f.severity == "error" for f in findings) else 0)


@app.command("list")
def list_games(
    games: Optional[List[str]] = typer.Argument(None, help="Game folders or bundled game names (default: every bundled game)."),
) -> None:
    """Show games: each deck with its declared and actual number of cards, each board, and the rulebook."""
    from .loading import load_game

    try:
        targets = _games(games)
    except MusterError as exc:
        console.fail(exc)
    for target in targets:
        try:
            game = load_game(target)
        except MusterError as exc:
            console.fail(exc)
        typer.echo(f"{game.id}  {game.title}  ({game.players} players)")
        for deck in game.decks.values():
            declared = "-" if deck.size is None else str(deck.size)
            flag = "" if deck.size in (None, deck.total) else "  MISMATCH"
            typer.echo(f"  {deck.id:<24} {deck.component:<7} declared {declared:>5}  actual {deck.total:>5}{flag}")
        for board in game.boards.values():
            typer.echo(f"  {board.id:<24} {board.file:<7} {board.size[0]:.0f} x {board.size[1]:.0f} mm")
        if game.rulebook is not None:
            typer.echo(f"  {'rulebook':<24} {game.rulebook.path.name}")


app.command("new")(new_game)
app.command("import")(import_cards)
app.command("schema")(schema)
export_app.command("csv")(export_csv)
export_app.command("xlsx")(export_xlsx)
app.add_typer(export_app, name="export")


def main() -> None:
    try:
        app()  # typer turns Ctrl-C into exit status 130
    except Exception as exc:  # a bug in Muster: say so in one line; --debug shows the traceback
        if "--debug" in sys.argv:
            raise
        typer.echo(f"internal error: {type(exc).__name__}: {exc} (please report it; --debug shows where)", err=True)
        sys.exit(2)
    finally:
        # The process ends here: the interpreter's last cycle collection would walk everything the command made
        # (15-20 ms after a build) to free memory the system takes back anyway.
        gc.freeze()
