"""The authoring commands: `muster import`, `muster schema` and `muster new`.

The work is done in formats/ (spreadsheets, schema, scaffold), imported when a command runs so that
`muster --help` stays quick.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from . import console
from .app import app
from ..core import codes
from ..core.errors import MusterError, exit_status
from ..core.files import unwritable


@app.command("new")
def new_game(
    name: str = typer.Argument(..., metavar="NAME", help="The game's name and folder: lower case letters, digits and dashes (my-game).", show_default=False),
    directory: Path = typer.Option(Path("."), "--dir", metavar="DIR", help="The folder to create the game's folder in.  [default: the current folder]", show_default=False),
    title: Optional[str] = typer.Option(None, "--title", metavar="TEXT", help="The game's title.  [default: the name, capitalised]", show_default=False),
    source: Optional[str] = typer.Option(None, "--from", metavar="GAME", show_default=False,
                                         help="Copy this game (a folder, or a bundled game's name) instead of the template."),
) -> None:
    """Create a small working game folder to start from: game.yaml, a deck of 6 cards, a face and a back
    layout, a rulebook and a README.md explaining each file; or, with --from, a copy of another game to change.
    An existing folder is never overwritten."""
    from ..core.errors import display_path
    from ..formats.scaffold import new_game as create
    from ..reading.resources import find_game

    try:
        folder = create(name, directory, title, None if source is None else find_game(source).resolve())
    except MusterError as exc:
        console.fail(exc)
    except OSError as exc:
        console.fail(unwritable(f"create {directory / name}", exc))
    shown = display_path(folder)
    made = "copied from " + source if source else "game.yaml, cards.yaml, face.yaml, back.yaml, rules.md, README.md"
    typer.echo(f"{shown}: created ({made})")
    typer.echo(f"next: muster validate {shown}   then: muster build {shown}")


@app.command("import")
def import_cards(
    source: Path = typer.Argument(..., metavar="SHEET", help="The sheet: .csv, .tsv or .xlsx; a header row naming the keys, one card a row.", show_default=False),
    game: str = typer.Option(..., "--game", "-g", metavar="GAME", help="The game folder (or bundled game) whose traits type the cells.", show_default=False),
    deck: str = typer.Option(..., "--deck", "-d", metavar="DECK", help="The deck of game.yaml the cards are for.", show_default=False),
    output: Optional[Path] = typer.Option(None, "--out", "-o", "--output", metavar="FILE", help="Deck file to write.  [default: the deck's file in game.yaml]", show_default=False),
    sheet: Optional[str] = typer.Option(None, "--sheet", metavar="WORKSHEET", help="The worksheet of an .xlsx file.  [default: the first]", show_default=False),
) -> None:
    """Turn a spreadsheet into a deck file, then validate the game.

    Empty cells leave the trait out; numbers are typed by the trait's kind; a codes cell holds codes as the
    deck file would ('EW', 'E W', an alias) or [] for none. Errors name the sheet's row and column, and a
    sheet with errors writes nothing. Exit 0 when the game is consistent, 1 with errors, 2 when unreadable.
    """
    from ..core.bundle import is_bundled
    from ..formats.spreadsheets import import_deck
    from ..reading.resources import find_game

    try:
        root = find_game(game).resolve()
        if is_bundled(root) and (output is None or is_bundled(output)):
            raise MusterError.of(codes.READ_ONLY_GAME, game=root.name)
        result = import_deck(source, game, deck, output, sheet)
    except MusterError as exc:
        console.fail(exc)
    except OSError as exc:
        console.fail(unwritable(f"write {output or 'the deck file'}", exc))
    for finding in result.findings:
        typer.echo(str(finding))
    sys.stdout.flush()
    errors = sum(f.severity == "error" for f in result.findings)
    warnings = len(result.findings) - errors
    if result.output is None:
        typer.echo(f"{source.name}: {errors} error(s); nothing written", err=True)
        raise typer.Exit(exit_status(result.findings))
    from ..core.errors import display_path

    if result.note:
        typer.echo(f"note: {result.note}", err=True)
    typer.echo(f"{display_path(result.output)}: {result.cards} card(s) ({result.copies} with copies) from "
               f"{source.name}; {errors} error(s), {warnings} warning(s)", err=True)
    raise typer.Exit(exit_status(result.findings))


@app.command("schema")
def schema(
    out: Path = typer.Option(Path("schemas"), "--out", "-o", metavar="DIR", help="Folder to write the schemas into."),
    game: Optional[str] = typer.Option(None, "--game", "-g", metavar="GAME", help="Also write deck-<game>.schema.json: that game's traits and codes.", show_default=False),
) -> None:
    """Write JSON Schemas (draft 2020-12) of game.yaml, deck files and layouts, for editors.

    game.schema.json, deck.schema.json (generic: any trait, as a value or a list) and layout.schema.json;
    docs/editors.md shows how to point an editor's YAML language server at them.
    """
    from ..core.errors import display_path
    from ..formats.schema import write_schemas

    try:
        loaded = None
        if game is not None:
            from ..reading.loading import load_game

            loaded = load_game(game)
        written = write_schemas(out, loaded)
    except MusterError as exc:
        console.fail(exc)
    except OSError as exc:
        console.fail(unwritable(f"write into {out}", exc))
    for path in written:
        typer.echo(display_path(path))
