"""Building kits: each game in a process of its own when there are several, reported in the order asked."""

from __future__ import annotations

import gc
import os
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .cache import input_key, is_fresh
from ..core.errors import GameInvalid, MusterError
from ..reading.resources import find_game
from ..core.options import Options


@dataclass
class Outcome:
    name: str
    code: int  # 0 built or up to date, 1 validation errors, 2 unreadable input
    summary: str = ""
    errors: list[str] = field(default_factory=list)
    details: list[str] = field(default_factory=list)  # one line per file, for --verbose


def up_to_date(target: str | Path, out: Path, options: Options) -> Outcome | None:
    """An Outcome when the game's output is up to date (or the game cannot be found), else None."""
    try:
        root = find_game(target).resolve()
    except MusterError as exc:
        return Outcome(Path(str(target)).name, 2, errors=[str(exc)])
    if is_fresh(out / root.name, input_key(root, options.as_dict())):
        return Outcome(root.name, 0, f"{root.name}: up to date in {out / root.name}")
    return None


@contextmanager
def without_cycle_collection():
    """Python's cycle collector off while one game is loaded and built.

    A big deck makes hundreds of thousands of small objects that live until the build ends, and the collector
    walked all of them again and again as they were made: a third of the time of a 5,400-card build. What a
    build makes is freed by reference counting; the few cycles it leaves (platypus flowables, template
    contexts) wait for the collector's next run, as collecting at once would walk the whole game again.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# Bytes of a game's YAML from which building it in two processes pays: about 200 cards with a few lines of text
# each. Measured on two cores, alternating the two ways 15 to 31 times: 21 % faster at 5,400 cards, 10 % at 540,
# 3-9 % at 300, 4 % at 150, 5 % slower at 54, even for the bundled Europe game. For a small game the second
# process's start-up, and the two slowing each other, cost what drawing alongside saves.
FORK_FROM = 50_000


def build_one(target: str | Path, out: Path, options: Options, debug: bool = False, parallel: bool = False) -> Outcome:
    """Builds one game; failures become an Outcome, never an exception. With `parallel` (and fork), a big game
    is built in two processes: see pipeline.py."""
    name = Path(str(target)).name
    try:
        root = find_game(target)
        name = root.resolve().name
        with without_cycle_collection():
            if parallel and hasattr(os, "fork") and _weight(root, "*.yaml") >= FORK_FROM:
                from .pipeline import build_forked

                plan, built = build_forked(root, out, options)
                game_id = plan.id
            else:
                from .documents import build_game
                from ..reading.loading import load_game

                game = load_game(root, options.variants)
                built = build_game(game, out, options)
                game_id = game.id
    except GameInvalid as exc:
        return Outcome(name, 1, errors=[str(f) for f in exc.findings] + [f"{name}: not built ({exc.message})"])
    except MusterError as exc:
        if debug:
            raise
        return Outcome(name, 2, errors=[str(exc)])
    files = ", ".join(f"{b.file} ({b.pages} pages)" for b in built)
    details = [f"  {b.file:<28} {b.kind:<11} {b.pages:>4} pages {(out / game_id / b.file).stat().st_size:>10,} bytes"
               for b in built]
    return Outcome(name, 0, f"{game_id}: {files} -> {out / game_id}", details=details)


def build_all(targets: list, out: Path, options: Options, jobs: int, force: bool = False, debug: bool = False):
    """Outcomes in the order of `targets`; with jobs > 1 the games to build are built in parallel processes."""
    known = {index: None if force else up_to_date(target, out, options) for index, target in enumerate(targets)}
    stale = [index for index, outcome in known.items() if outcome is None]
    if jobs <= 1 or len(stale) <= 1:  # one game at a time, each using a second core for its cards if it may
        for index, target in enumerate(targets):
            yield known[index] or build_one(target, out, options, debug, parallel=jobs > 1)
        return
    import multiprocessing  # 15 ms, with concurrent.futures: only when games are built in parallel
    from concurrent.futures import ProcessPoolExecutor

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    if method == "fork":  # what every worker needs, done once: forked workers inherit the imports and fonts
        from . import documents
        from ..rendering import rulebook_pdf, sheets  # noqa: F401  (reportlab, platypus and the stages)
        from ..core.fonts import font_book, face

        for name in font_book().files:
            face(name)
    # the biggest games first, so that the last to finish is a small one
    stale.sort(key=lambda index: -_weight(targets[index]))
    with ProcessPoolExecutor(max_workers=min(jobs, len(stale)), mp_context=multiprocessing.get_context(method)) as pool:
        futures = {index: pool.submit(build_one, targets[index], out, options, debug) for index in stale}
        for index in range(len(targets)):
            yield known[index] or futures[index].result()


def snapshot(game_root: Path) -> dict:
    """What watch compares: every file of the game and of the bundled layouts, with its size and time."""
    from ..core.bundle import layouts_dir

    state = {}
    for root in (game_root, layouts_dir()):
        for path in root.rglob("*"):
            if path.is_file() and not path.name.startswith("."):
                stat = path.stat()
                state[path] = (stat.st_mtime_ns, stat.st_size)
    return state


def _weight(target, pattern: str = "*") -> int:
    """A rough cost of building a game: the bytes of its folder's files (those matching `pattern`)."""
    try:
        return sum(p.stat().st_size for p in find_game(target).rglob(pattern) if p.is_file())
    except (MusterError, OSError):
        return 0
