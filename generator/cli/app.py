"""The Typer applications every command registers with, the global switches (--debug, --version), and the
options several commands share, with their choices."""

from __future__ import annotations

from enum import Enum
from pathlib import Path

import typer

from . import console

HELP = {"help_option_names": ["-h", "--help"]}

app = typer.Typer(
    context_settings=HELP,
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,  # plain help: importing rich for it would double the start-up time
    pretty_exceptions_enable=False,
    help="Print-and-play kits for small war card games, from YAML game folders.\n\n"
         "Exit codes: 0 success, 1 validation errors, 2 unreadable input or bad options.",
)

export_app = typer.Typer(
    context_settings=HELP,
    help="Export cards for print shops (one PNG or PDF per face, with bleed) and for Tabletop Simulator "
         "(deck sheets).\n\nFiles go to OUT/<game>/<png|pdf|tts>/<deck>/. Exit codes: 0 success, "
         "1 validation errors, 2 unreadable input or bad options.",
    no_args_is_help=True,
    rich_markup_mode=None,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class Paper(str, Enum):
    """The sheet sizes --paper takes."""

    a4 = "a4"
    letter = "letter"
    a3 = "a3"
    tabloid = "tabloid"


class Duplex(str, Enum):
    """How --duplex prints backs."""

    long = "long"
    short = "short"
    fold = "fold"
    none = "none"


class Format(str, Enum):
    """How validate prints its findings."""

    text = "text"
    json = "json"


def _version(value: bool) -> None:
    if value:
        from .. import __version__

        typer.echo(f"muster {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    debug: bool = typer.Option(False, "--debug", help="Show Python tracebacks for errors."),
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Show Muster's version and exit."),
) -> None:
    console.state["debug"] = debug


GAMES = typer.Argument(None, metavar="[GAME]...", show_default=False,
                       help="Game folders or bundled game names (default: every bundled game).")
GAME = typer.Argument(..., metavar="GAME", show_default=False,
                      help="A game folder or the name of a bundled game.")
OUT = typer.Option(Path("output"), "--out", "-o", metavar="DIR",
                   help="Output folder; each game gets a folder inside it.")
BLEED = typer.Option("3mm", "--bleed", metavar="LENGTH",
                     help="Bleed around each face, with a unit: 3mm, 0.125in, 1/8in.")
VARIANTS = typer.Option(None, "--variant", metavar="NAME", help="Switch on a variant of the game (repeatable).")
QUIET = typer.Option(False, "--quiet", "-q", help="Print nothing but errors.")
