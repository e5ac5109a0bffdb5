"""The preview running: the game read and served, then refreshed after every save until Ctrl-C.

Changes are noticed by watchfiles (inotify where the system has it, so a save is seen within milliseconds and an
idle preview costs nothing); a burst of writes from one save is taken as one change.
"""

from __future__ import annotations

import threading
import time
import webbrowser
from pathlib import Path
from typing import Callable

from ..core.options import Options
from .server import PreviewServer
from .session import Preview

QUIET_MS = 30  # a save is taken as done when its folder has been quiet this long


def run(root: Path, options: Options, port: int, open_browser: bool, say: Callable[[str], None],
        stop: threading.Event | None = None) -> None:
    """Preview the game in `root`: serve it, open the browser unless told not to, refresh after each change
    until interrupted or `stop` is set; `say` is told the address and what each refresh found."""
    import watchfiles  # imported when a preview runs, not for --help

    preview = Preview(root, options)
    server = PreviewServer(preview, port)
    server.start()  # before the first refresh: the page opens at once, and shows the game when it is ready
    say(f"previewing {root} at {server.url} (Ctrl-C to stop)")
    if open_browser:
        webbrowser.open(server.url)
    try:
        preview.refresh()
        _report(preview, say)
        for changes in watchfiles.watch(root, step=QUIET_MS, stop_event=stop, raise_interrupt=False):
            preview.refresh([Path(path) for _, path in changes])
            _report(preview, say)
    finally:
        server.shutdown()
        server.server_close()


def _report(preview: Preview, say: Callable[[str], None]) -> None:
    findings = preview.findings
    errors = sum(f.severity == "error" for f in findings)
    stamp = time.strftime("%H:%M:%S")
    for finding in findings:
        if finding.severity == "error":
            say(f"[{stamp}] {finding}")
    say(f"[{stamp}] version {preview.version}: {errors} error(s), {len(findings) - errors} warning(s), "
        f"{preview.seconds * 1000:.0f} ms")
