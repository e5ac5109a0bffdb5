"""The Typer applications every command registers with, the global switches (--debug, --version), and the
options several commands share, with their choices."""

from __future__ import annotations

import inspect
from enum import Enum
from functools import wraps
from pathlib import Path
from typing import Callable, List, Optional

import typer

from . import console
from ..core.options import KIT, KIT_OPTIONS, KitOption, Options

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
DECK_LIST = typer.Option(None, "--list", metavar="FILE", show_default=False, help="A player's deck list (text, "
                         ".yaml or .csv: docs/decklists.md), read against the game's cards.")
QUIET = typer.Option(False, "--quiet", "-q", help="Print nothing but errors.")


def _choice(option: KitOption) -> type[Enum]:
    return Enum(option.name.capitalize(), [(choice, choice) for choice in option.choices], type=str)


CHOICES = {option.name: _choice(option) for option in KIT if option.choices}  # typer shows Enums as choices
Colour = CHOICES["colour"]


def kit_parameter(name: str) -> tuple[object, typer.models.OptionInfo]:
    """The annotation and the typer option of the kit option `name` (core/options.KIT)."""
    option = KIT_OPTIONS[name]
    bounds = {"min": option.low, "max": option.high} if option.low is not None or option.high is not None else {}
    if option.choices:
        kind = CHOICES[name]
        return kind, typer.Option(kind(option.default), option.flag, case_sensitive=False, help=option.help)
    kind = {list: Optional[List[str]]}.get(option.kind, option.kind)
    kind = Optional[kind] if option.default is None and option.kind is not list else kind
    finite = {"callback": console.finite} if option.kind is float else {}  # click's ranges let nan and inf through
    return kind, typer.Option(option.default, option.flag, metavar=option.metavar, help=option.help, **bounds,
                              **finite)


BLEED = kit_parameter("bleed")[1]
VARIANTS = kit_parameter("variants")[1]
COLOUR = kit_parameter("colour")[1]
PDFX = kit_parameter("pdfx")[1]
INK_LIMIT = kit_parameter("ink_limit")[1]
SETS = kit_parameter("sets")[1]
LANG = kit_parameter("lang")[1]


def kit_options(**values) -> Options:
    """The Options of the command line's kit options; a bad one is one line and exit 2."""
    from ..core.errors import MusterError

    try:
        return Options.chosen(**{name: value.value if isinstance(value, Enum) else value
                                 for name, value in values.items()})
    except MusterError as exc:
        console.fail(exc)


def with_kit_options(command: Callable) -> Callable:
    """`command`, whose parameter `options` is the Options of a kit, taking every option of KIT in its place:
    typer reads a command's options from its signature, which is made here from the one declaration."""
    signature = inspect.signature(command, eval_str=True)
    at = list(signature.parameters).index("options")
    kit = []
    for option in KIT:
        kind, default = kit_parameter(option.name)
        kit.append(inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=kind))
    parameters = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in signature.parameters.values()]
    parameters[at:at + 1] = kit

    @wraps(command)
    def run(**values):
        return command(options=kit_options(**{option.name: values.pop(option.name) for option in KIT}), **values)

    run.__signature__ = signature.replace(parameters=parameters)
    run.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": signature.return_annotation}
    return run
