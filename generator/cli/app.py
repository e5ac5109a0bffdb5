"""The Typer applications every command registers with, the --debug switch, and the options' choices."""

from __future__ import annotations

from enum import Enum

import typer

from . import console

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,  # plain help: importing rich for it would double the start-up time
    pretty_exceptions_enable=False,
    help="Print-and-play kits for small war card games, from YAML game folders.\n\n"
         "Exit codes: 0 success, 1 validation errors, 2 unreadable input or bad options.",
)

export_app = typer.Typer(
    help="Export cards for print shops (one PNG or PDF per face, with bleed) and for Tabletop Simulator "
         "(deck sheets).\n\nFiles go to OUT/<game>/<png|pdf|tts>/<deck>/. Exit codes: 0 success, "
         "1 validation errors, 2 unreadable input or bad options.",
    no_args_is_help=True,
    rich_markup_mode=None,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class Paper(str, Enum):
    a4 = "a4"
    letter = "letter"
    a3 = "a3"
    tabloid = "tabloid"


class Duplex(str, Enum):
    long = "long"
    short = "short"
    fold = "fold"
    none = "none"


class Format(str, Enum):
    text = "text"
    json = "json"


@app.callback()
def _main(debug: bool = typer.Option(False, "--debug", help="Show Python tracebacks for errors.")) -> None:
    console.state["debug"] = debug
