"""`muster build` and `muster watch`: kits into the output folder."""

from __future__ import annotations

import os
import sys
from contextlib import suppress
from pathlib import Path
from typing import List, Optional

import typer

from . import console
from .app import DECK_LIST, GAME, GAMES, OUT, QUIET, app, with_kit_options
from ..core.errors import MusterError, has_errors
from ..core.options import ALL_LANGUAGES, Options  # for the signatures: dataclasses, which it needs, is loaded by then anyway

MAX_INTERVAL = 60.0  # seconds a save may take to settle: longer, and watch would seem to have stopped


@app.command()
@with_kit_options
def build(
    games: Optional[List[str]] = GAMES,
    out: Path = OUT,
    *,
    options: Options,  # the kit's: see app.with_kit_options
    jobs: int = typer.Option(os.cpu_count() or 1, "--jobs", "-j", min=1, metavar="N", help="Processes to build with: games at once, or a big game read and laid out beside its drawing.  [default: the machine's cores]", show_default=False),
    force: bool = typer.Option(False, "--force", help="Rebuild games whose output is up to date."),
    quiet: bool = QUIET,
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Print every file written, with its pages and size."),
    deck_list: Optional[Path] = DECK_LIST,
) -> None:
    """Build the print-and-play kit of each game into OUT/<game>/; with --list, the kit of a player's deck list
    (its cards at its counts) into OUT/<game>-<list>/.

    A game whose inputs (its files, the bundled layouts and fonts, these options, Muster's version) have not
    changed since its last build, and whose output files are intact, is left as it is. OUT/<game> may not lie
    inside the game's folder.
    """
    from ..building.kit import build_all

    try:
        targets = console.games(games)
    except MusterError as exc:
        console.fail(exc)
    if deck_list is not None:
        _build_list(targets, deck_list, out, options, quiet)
    if quiet or not sys.stderr.isatty():
        outcomes = list(build_all(targets, out, options, jobs, force, console.state["debug"],
                                  ending=console.state["ending"]))
    else:
        outcomes = console.building(len(targets), lambda done: build_all(targets, out, options, jobs, force,
                                                                         console.state["debug"], done,
                                                                         console.state["ending"]))
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


def _build_list(targets: list, path: Path, out: Path, options: Options, quiet: bool) -> None:
    """The kit of a deck list, built every time (a list is no game folder whose key says it is up to date); its
    findings and exit 1 when the list has mistakes."""
    from ..building.folders import apart
    from ..building.kit import build_game, without_cycle_collection
    from ..core.errors import GameInvalid
    from ..reading.decklists import load_listed

    try:
        if len(targets) != 1:
            raise MusterError("--list: name the one game the list is for", field="--list", code="bad-option")
        if options.lang == ALL_LANGUAGES:
            raise MusterError("--lang all: a deck list's kit is built in one language; name it (--lang de)",
                              field="--lang", code="bad-option")
        with without_cycle_collection():
            game = load_listed(targets[0], path, options.variants, options.sets, options.lang)
            apart(out, game.root)
            built = build_game(game, out, options)
    except GameInvalid as exc:
        console.invalid(path.name, exc, "built")
    except MusterError as exc:
        console.fail(exc)
    if not quiet:
        folder = out.joinpath(game.id, *filter(None, [game.language]))
        typer.echo(f"{game.id}: {', '.join(f'{b.file} ({b.pages} pages)' for b in built)} -> {folder}")
    raise typer.Exit(0)


@app.command()
@with_kit_options
def watch(
    game: str = GAME,
    out: Path = OUT,
    *,
    options: Options,  # the kit's: see app.with_kit_options
    interval: float = typer.Option(0.1, "--interval", min=0.01, max=MAX_INTERVAL, callback=console.finite, metavar="SECONDS", help="Seconds without a further change after which a save is built: the several writes of one save make one build."),
) -> None:
    """Build a game, then again after every save of one of its files, the bundled layouts or fonts, printing
    validation findings as they appear.

    Takes the options of `muster build`; a build that fails leaves the last good kit as it was. OUT/<game> may not
    lie inside the game's folder. Stop with Ctrl-C.
    """
    from ..building.folders import apart
    from ..building.watching import saves
    from ..reading.resources import find_game

    try:
        if options.lang == ALL_LANGUAGES:
            raise MusterError("--lang all: watch builds one language; name it (--lang de)", field="--lang",
                              code="bad-option")
        root = find_game(game).resolve()
        apart(out, root)
    except MusterError as exc:
        console.fail(exc)
    typer.echo(f"watching {root} (Ctrl-C to stop)")
    with suppress(KeyboardInterrupt):  # Ctrl-C is how watching stops: exit 0
        for _ in saves(root, out, interval):  # the first batch, empty, at once
            _rebuild(root, out, options)
    raise typer.Exit(0)


def _rebuild(root: Path, out: Path, options: Options) -> None:
    """The game's findings, then its kit built unless it has errors or is up to date, each line stamped."""
    import time

    from ..building.kit import Outcome, build_one, up_to_date
    from ..checking import check_game
    from ..reading.loading import load_game

    stamp = time.strftime("%H:%M:%S")
    inputs = up_to_date(root, out, options)  # before anything is read: see building/cache.py
    try:
        findings = check_game(load_game(root, options.variants, options.sets, options.lang))
    except MusterError as exc:
        findings = [exc.finding()]
    for finding in findings:
        typer.echo(f"[{stamp}] {finding}", err=finding.severity == "error")
    if has_errors(findings):
        typer.echo(f"[{stamp}] {root.name}: not built; {out / root.name} keeps the last kit built", err=True)
    else:
        outcome = inputs if isinstance(inputs, Outcome) else build_one(root, out, options, inputs=inputs)
        for line in outcome.errors:  # its warnings: among the findings above
            typer.echo(f"[{stamp}] {line}", err=True)
        typer.echo(f"[{stamp}] {outcome.summary or outcome.name + ': not built'}")
    sys.stdout.flush()
