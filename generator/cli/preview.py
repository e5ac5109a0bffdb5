"""`muster preview`: a live page of a game's cards in the browser, on 127.0.0.1."""

from __future__ import annotations

import typer

from . import console
from .app import GAME, app, with_kit_options
from ..core import codes
from ..core.errors import MusterError
from ..core.options import Options  # for the signature: see build.py


@app.command()
@with_kit_options
def preview(
    game: str = GAME,
    *,
    options: Options,  # the kit's: see app.with_kit_options
    port: int = typer.Option(0, "--port", min=0, max=65535, metavar="N", help="Port on 127.0.0.1 to serve on.  [default: a free one]", show_default=False),
    open_browser: bool = typer.Option(True, "--open/--no-open", help="Open the page in the browser."),
) -> None:
    """Show a game's cards, backs, tokens, boards and findings in the browser, updated after every save.

    Click a card for its data and where each value comes from; hover over a card to see which layout element
    drew each part. Takes the options of `muster build` (the page follows --bleed, --variant and --seed; the
    others shape only printed sheets). Serves on 127.0.0.1 only, writes no file; stop with Ctrl-C.
    """
    from ..preview.live import run
    from ..reading.resources import find_game

    try:
        root = find_game(game).resolve()
    except MusterError as exc:
        console.fail(exc)
    try:
        run(root, options, port, open_browser, lambda line: typer.echo(line, err=line.startswith("[") and "error:" in line))
    except OSError as exc:  # the port is taken, say
        console.fail(MusterError.of(codes.CANNOT_SERVE, reason=exc.strerror or exc))
    except KeyboardInterrupt:
        raise typer.Exit(0)
