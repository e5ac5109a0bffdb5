"""The preview running: the game read and served, then refreshed after every save until Ctrl-C.

Saves come as `muster watch` takes them (building/watching.py: the kernel tells, one batch per save, editors'
side files aside), only sooner: a save is taken as done after QUIET seconds without another write.
"""

from __future__ import annotations

import gc
import threading
import time
import webbrowser
from pathlib import Path
from typing import Callable

from ..core.options import Options
from .server import PreviewServer
from .session import Preview

QUIET = 0.03  # seconds: an editor writes a save in a few milliseconds, and a page should follow at once
OUT = Path("output")  # what builds write by default: their files are no changes of the game


def run(root: Path, options: Options, port: int, open_browser: bool, say: Callable[[str], None],
        stop: threading.Event | None = None) -> None:
    """Preview the game in `root`: serve it, open the browser unless told not to, refresh after each change
    until interrupted or `stop` is set; `say` is told the address and what each refresh found."""
    from ..building.watching import saves

    preview = Preview(root, options)
    server = PreviewServer(preview, port)
    server.start()  # before the first refresh: the page opens at once, and shows the game when it is ready
    say(f"previewing {root} at {server.url} (Ctrl-C to stop)")
    if open_browser:
        webbrowser.open(server.url)
    try:
        for number, changed in enumerate(saves(root, OUT, QUIET, stop)):  # the first batch, empty, at once
            preview.refresh(changed)
            _report(preview, say)
            _settle(whole=number % WHOLE_EVERY == 0)
    finally:
        server.shutdown()
        server.server_close()


WHOLE_EVERY = 8  # saves between the collector's passes over everything, frozen objects included


def _settle(whole: bool) -> None:
    """What a refresh left collected, and what it keeps set aside from the collector's later passes: the preview
    keeps hundreds of thousands of objects (a big game's cards, faces and their JSON), and a pass over them all,
    which Python makes every so often as a refresh allocates, cost a save of thousands of cards more than its
    work. A refresh's garbage is collected here, after it is published; what lives on is frozen (gc.freeze), and
    the collector's passes go over what later refreshes make, not over everything kept. A frozen object is never
    collected, so one that a later refresh drops inside a reference cycle would be kept for the whole session:
    every WHOLE_EVERY saves (`whole`) everything is thawed and collected first, after the page is told, so that
    memory over a long session follows the game, not the number of saves."""
    if whole:
        gc.unfreeze()
    gc.collect()
    gc.freeze()


def _report(preview: Preview, say: Callable[[str], None]) -> None:
    findings = preview.findings
    errors = sum(f.severity == "error" for f in findings)
    stamp = time.strftime("%H:%M:%S")
    for finding in findings:
        if finding.severity == "error":
            say(f"[{stamp}] {finding}")
    say(f"[{stamp}] version {preview.version}: {errors} error(s), {len(findings) - errors} warning(s), "
        f"{preview.seconds * 1000:.0f} ms")
