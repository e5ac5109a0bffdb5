"""Building kits: each game in a process of its own when there are several, reported in the order asked."""

from __future__ import annotations

import gc
import os
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from . import pipeline
from .cache import Inputs, inputs_of, is_fresh
from .folders import apart
from ..core.errors import GameInvalid, MusterError, exit_status
from ..core.model import Game
from ..reading.resources import find_game
from ..core.options import ALL_LANGUAGES, Options
from ..core.plan import Built


@dataclass
class Outcome:
    """What building one game came to: its exit code, the line saying what was built, and its errors."""

    name: str
    code: int  # 0 built or up to date, 1 validation errors, 2 unreadable input
    summary: str = ""
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # of a game built all the same: missing glyphs
    details: list[str] = field(default_factory=list)  # one line per file, for --verbose


def up_to_date(target: str | Path, out: Path, options: Options) -> Outcome | Inputs:
    """An Outcome when the game's output is up to date (or the game cannot be found); else the key of its
    inputs, which the build records in its manifest."""
    try:
        root = find_game(target).resolve()
        apart(out, root)
    except MusterError as exc:
        return Outcome(Path(str(target)).name, 2, errors=[str(exc)])
    inputs = inputs_of(root, options.as_dict())
    folder = out.joinpath(root.name, *([options.lang] if options.lang else []))
    if is_fresh(folder, inputs.key):
        return Outcome(root.name, 0, f"{root.name}: up to date in {folder}")
    return inputs


def in_languages(target: str | Path, options: Options) -> list[Options]:
    """The options of each build --lang asks of the game: one, or with `all` the source language's (lang None)
    and each other's; a language that is the game's source one is built as the source (into out/<game>/)."""
    if options.lang is None:
        return [options]
    from ..reading.loading import declared_languages  # YAML: only when a language is asked for

    try:
        declared = declared_languages(find_game(target).resolve())
    except MusterError:  # the build says what is wrong with it
        declared = ()
    if options.lang == ALL_LANGUAGES:
        return [replace(options, lang=None)] + [replace(options, lang=language) for language in declared[1:]]
    return [replace(options, lang=None if declared[:1] == (options.lang,) else options.lang)]


@contextmanager
def without_cycle_collection(ending: bool = False):
    """Python's cycle collector off while one game is loaded and built.

    A big deck makes hundreds of thousands of small objects that live until the build ends, and the collector
    walked all of them again and again as they were made: a third of the time of a 5,400-card build. What a
    build makes is freed by reference counting; the few cycles it leaves (platypus flowables, template
    contexts) wait for the collector's next run, as collecting at once would walk the whole game again.

    That next run, the first young collection after the build, walks everything the build made all the same
    (10 ms after a 54-card build, 5 ms in a 540-card build's drawing process). When the process ends after this
    build (`ending`), what the build left is frozen instead, never walked, and the collector stays off.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if ending:
            gc.freeze()
        elif enabled:
            gc.enable()


def build_game(game: Game, out: Path, options: Options) -> list[Built]:
    """Every document of a loaded `game` into out/<game id>/, then its manifest, in this process (as the tests
    build); nothing is written if it is invalid. The game was read before: the manifest records no key of its
    inputs, and the next `muster build` builds it again."""
    from .drawing import draw
    from .sequence import messages

    return draw(messages(game, options), out, options).built


def build_one(target: str | Path, out: Path, options: Options, debug: bool = False, parallel: bool = False,
              inputs: Inputs | None = None, done: Callable[[str], None] | None = None,
              ending: bool = False) -> Outcome:
    """Builds one game; failures become an Outcome, never an exception. With `parallel` (and fork), it is built
    in two processes: see pipeline.py. `inputs` is the key of its inputs, when up_to_date has made it;
    `done` is told "<game>/<file>" as each document is finished; `ending`, the process ends after this build
    (without_cycle_collection)."""
    name = Path(str(target)).name
    try:
        root = find_game(target)
        name = root.resolve().name
        apart(out, root)
        finished = (lambda file: done(f"{name}/{file}")) if done else None
        inputs = inputs or inputs_of(root.resolve(), options.as_dict())
        with without_cycle_collection(ending):
            if parallel and hasattr(os, "fork"):
                plan, built, warnings = pipeline.build_forked(root, out, options, inputs, finished)
            else:
                from .drawing import draw
                from .sequence import messages

                plan, built, warnings = draw(messages(root, options), out, options, inputs, finished)
            folder = out.joinpath(*plan.folder)
    except GameInvalid as exc:
        return Outcome(name, exit_status(exc.findings),
                       errors=[str(f) for f in exc.findings] + [f"{name}: not built ({exc.message})"])
    except MusterError as exc:
        if debug:
            raise
        return Outcome(name, 2, errors=[str(exc)])
    files = ", ".join(f"{b.file} ({b.pages} pages)" for b in built)
    details = [f"  {b.file:<28} {b.kind:<11} {b.pages:>4} pages {(folder / b.file).stat().st_size:>10,} bytes"
               for b in built]
    return Outcome(name, 0, f"{plan.id}: {files} -> {folder}", warnings=[str(f) for f in warnings],
                   details=details)


def build_all(targets: list, out: Path, options: Options, jobs: int, force: bool = False, debug: bool = False,
              done: Callable[[str], None] | None = None, ending: bool = False):
    """Outcomes in the order of `targets` (a game's languages in turn, with --lang all); with jobs > 1 the games to
    build are built in parallel processes. `done` is told "<game>/<file>" as each document is finished, whichever
    process finished it; `ending`, this process ends once they are built."""
    builds = [(target, chosen) for target in targets for chosen in in_languages(target, options)]
    targets, choices = [target for target, _ in builds], [chosen for _, chosen in builds]
    known = {index: None if force else up_to_date(target, out, choices[index]) for index, target in enumerate(targets)}
    stale = [index for index, outcome in known.items() if not isinstance(outcome, Outcome)]
    if jobs <= 1 or len(stale) <= 1:  # one game at a time, each using a second core for its cards if it may
        for index, target in enumerate(targets):
            outcome = known[index]
            yield outcome if isinstance(outcome, Outcome) else build_one(target, out, choices[index], debug, jobs > 1,
                                                                          outcome, done, ending and index == stale[-1])
        return
    pipeline.release()  # its pipes are no worker's
    import multiprocessing  # 15 ms, with concurrent.futures: only when games are built in parallel
    from concurrent.futures import ProcessPoolExecutor

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    if method == "fork":  # what every worker needs, done once: forked workers inherit the imports and fonts
        from . import drawing, sequence  # noqa: F401  (reportlab and the stages)
        from ..core.fonts import face
        from ..reading.fonts import read_font_book
        from ..rendering import rulebook_pdf  # noqa: F401  (platypus)

        for name in read_font_book().files:
            face(name)
    # the biggest games first, so that the last to finish is a small one
    stale.sort(key=lambda index: -_weight(targets[index]))
    context = multiprocessing.get_context(method)
    reports = context.Queue() if done else None  # the workers' finished documents, told to `done` here
    with ProcessPoolExecutor(max_workers=min(jobs, len(stale)), mp_context=context, initializer=_report_to,
                             initargs=(reports,)) as pool:
        futures = {index: pool.submit(build_one, targets[index], out, choices[index], debug, False, known[index],
                                      _report if done else None)
                   for index in stale}
        for index in range(len(targets)):
            if index in futures and reports is not None:
                _relay(reports, futures[index], done)
            yield futures[index].result() if index in futures else known[index]


_reports = None  # in a worker of build_all: where it reports its finished documents


def _report_to(reports) -> None:
    global _reports
    _reports = reports


def _report(file: str) -> None:
    _reports.put(file)


def _relay(reports, future, done: Callable[[str], None]) -> None:
    """Tells `done` of every document the workers report until `future` has finished."""
    from queue import Empty

    while True:
        try:
            done(reports.get(timeout=0.05))
        except Empty:
            if future.done():
                return


def _weight(target) -> int:
    """A rough cost of building a game: the bytes of its folder's files."""
    try:
        return sum(p.stat().st_size for p in find_game(target).rglob("*") if p.is_file())
    except (MusterError, OSError):
        return 0
