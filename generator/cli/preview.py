"""`muster preview`: a live page of a game's cards in the browser, on 127.0.0.1."""

from __future__ import annotations

from typing import List, Optional

import typer

from . import console
from .app import BLEED, GAME, VARIANTS, app
from ..core.errors import MusterError


@app.command()
def preview(
    game: str = GAME,
    port: int = typer.Option(0, "--port", min=0, max=65535, metavar="N", help="Port on 127.0.0.1 to serve on.  [default: a free one]", show_default=False),
    open_browser: bool = typer.Option(True, "--open/--no-open", help="Open the page in the browser."),
    bleed: str = BLEED,
    variant: Optional[List[str]] = VARIANTS,
    seed: Optional[int] = typer.Option(None, "--seed", min=0, metavar="N", help="Seed for what boards place at random (default: each board's own)."),
) -> None:
    """Show a game's cards, backs, tokens, boards and findings in the browser, updated after every save.

    Click a card for its data and where each value comes from; hover over a card to see which layout element
    drew each part. Serves on 127.0.0.1 only; stop with Ctrl-C.
    """
    from ..core.options import Options
    from ..preview.live import run
    from ..reading.resources import find_game

    try:
        options = Options(bleed=console.bleed(bleed), variants=tuple(variant or ()), seed=seed)
        root = find_game(game).resolve()
    except MusterError as exc:
        console.fail(exc)
    try:
        run(root, options, port, open_browser, lambda line: typer.echo(line, err=line.startswith("[") and "error:" in line))
    except OSError as exc:  # the port is taken, say
        console.fail(MusterError(f"cannot serve the preview: {exc.strerror or exc}"))
    except KeyboardInterrupt:
        raise typer.Exit(0)
