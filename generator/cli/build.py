"""`muster build` and `muster watch`: kits into the output folder."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import List, Optional

import typer

from . import console
from .app import BLEED, GAME, GAMES, OUT, QUIET, VARIANTS, Duplex, Paper, app
from ..core.errors import MusterError, has_errors


@app.command()
def build(
    games: Optional[List[str]] = GAMES,
    out: Path = OUT,
    paper: Paper = typer.Option(Paper.a4, case_sensitive=False, help="Paper size."),
    bleed: str = BLEED,
    duplex: Duplex = typer.Option(Duplex.long, case_sensitive=False, help="How backs are printed: long or short edge flip, gutter fold, or none (backs after fronts)."),
    crop_marks: bool = typer.Option(True, "--crop-marks/--no-crop-marks", help="Crop marks outside the bleed."),
    greyscale: bool = typer.Option(False, "--greyscale", help="Print in shades of grey (ink saver)."),
    variant: Optional[List[str]] = VARIANTS,
    seed: Optional[int] = typer.Option(None, "--seed", min=0, metavar="N", help="Seed for what boards place at random (default: each board's own); printed on the board."),
    booklet: bool = typer.Option(False, "--booklet", help="Write rules-booklet.pdf (the rulebook two-up, in saddle-stitch order) for every game with a rulebook; games may also ask for one in game.yaml."),
    calibration: bool = typer.Option(True, "--calibration/--no-calibration", help="Write calibration.pdf: 100 mm rulers and a card at true size, to print first."),
    jobs: int = typer.Option(os.cpu_count() or 1, "--jobs", "-j", min=1, metavar="N", help="Processes to build with: games at once, or a big game read and laid out beside its drawing.  [default: the machine's cores]", show_default=False),
    force: bool = typer.Option(False, "--force", help="Rebuild games whose output is up to date."),
    quiet: bool = QUIET,
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Print every file written, with its pages and size."),
) -> None:
    """Build the print-and-play kit of each game into OUT/<game>/.

    A game whose inputs (its files, the bundled layouts and fonts, these options, Muster's version) have not
    changed since its last build, and whose output files are intact, is left as it is.
    """
    from ..building.kit import build_all
    from ..core.options import Options

    try:
        bleed_mm = console.bleed(bleed)
    except MusterError as exc:
        console.fail(exc)
    options = Options(paper.value, bleed_mm, duplex.value, crop_marks, greyscale, tuple(variant or ()), seed, booklet,
                      calibration)
    try:
        targets = console.games(games)
    except MusterError as exc:
        console.fail(exc)
    if quiet or not sys.stderr.isatty():
        outcomes = list(build_all(targets, out, options, jobs, force, console.state["debug"]))
    else:
        outcomes = console.building(len(targets), lambda done: build_all(targets, out, options, jobs, force,
                                                                         console.state["debug"], done))
    failed = 0
    for outcome in outcomes:
        for line in outcome.errors + outcome.warnings:
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
    game: str = GAME,
    out: Path = OUT,
    interval: float = typer.Option(0.5, "--interval", min=0.1, metavar="SECONDS", help="Seconds between looks for changes."),
) -> None:
    """Rebuild a game whenever one of its files or layouts changes, printing validation findings as they appear.

    Builds with the default options; stop with Ctrl-C.
    """
    import time

    from ..checking import check_game
    from ..building.kit import build_one, snapshot
    from ..reading.loading import load_game
    from ..core.options import Options
    from ..reading.resources import find_game

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
                    findings = check_game(load_game(root))
                except MusterError as exc:
                    typer.echo(f"[{stamp}] {exc}", err=True)
                    time.sleep(interval)
                    continue
                for finding in findings:
                    typer.echo(f"[{stamp}] {finding}")
                if not has_errors(findings):
                    outcome = build_one(root, out, Options())  # its warnings: among the findings above
                    for line in outcome.errors:
                        typer.echo(f"[{stamp}] {line}", err=True)
                    typer.echo(f"[{stamp}] {outcome.summary or outcome.name + ': not built'}")
                sys.stdout.flush()
            time.sleep(interval)
    except KeyboardInterrupt:
        raise typer.Exit(0)
