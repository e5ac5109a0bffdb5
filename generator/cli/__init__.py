"""The `muster` command line: Typer only. Each command parses its options, calls the stages (imported when it
runs, so that `muster --help` stays quick), and turns failures into one-line errors.

app.py holds the applications and choices; build.py `build` and `watch`; inspect.py `validate` and `list`;
authoring.py `new`, `import` and `schema`; export.py `export png|pdf|tts|csv|xlsx`; preview.py `preview`; console.py what they share.
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
import threading

import typer

from . import build, inspect, authoring, export, preview  # noqa: F401  (each registers its commands, in the order of the help)
from . import console
from .app import app, export_app

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


def run() -> None:
    """The `muster` command (and `python -m generator`): main, then the process ends at once. Python would tear its
    modules down first, freeing every object one by one (fonts' tables, caches, a build's leftovers: 6-8 ms after a
    build) for memory the system takes back anyway. What ending normally does that matters still happens: the
    atexit functions run (multiprocessing's among them) and the output is flushed; with a thread still running, or
    output that cannot be flushed, the process ends the usual way. Knowing that the process ends with the command,
    a build leaves what it made to the system rather than to the cycle collector (building/kit.py)."""
    console.state["ending"] = True
    try:
        main()
        code = 0
    except SystemExit as exit:
        if not isinstance(exit.code, (int, type(None))) or threading.active_count() > 1:
            raise
        code = exit.code or 0
    atexit._run_exitfuncs()  # what the interpreter runs first as it ends; no public name does it
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe: the interpreter says so, as ever
        sys.exit(code)
    os._exit(code)
