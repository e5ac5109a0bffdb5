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
from ..core.options import Options

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


class Duplex(str, Enum):
    """How --duplex prints backs."""

    long = "long"
    short = "short"
    fold = "fold"
    none = "none"


class Colour(str, Enum):
    """How --colour prints colours and images."""

    rgb = "rgb"
    cmyk = "cmyk"


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
SETS = typer.Option(None, "--sets", metavar="SET,SET", help="Print only the cards of these sets of the game "
                    "(sets: in game.yaml), such as base,pack-1 (default: its default sets).")
DECK_LIST = typer.Option(None, "--list", metavar="FILE", show_default=False, help="A player's deck list (text, "
                         ".yaml or .csv: docs/decklists.md), read against the game's cards.")
QUIET = typer.Option(False, "--quiet", "-q", help="Print nothing but errors.")

# what a kit is built with: declared once, for `muster build` and `muster watch` (with_kit_options)
PAPER = typer.Option("a4", "--paper", metavar="PAPER",
                     help="Paper: a4, letter, a3, tabloid, a5, each also -landscape (a4-landscape), or a size such "
                          "as 300mmx400mm or \"11in x 17in\". A deck's or board's paper: in game.yaml wins.")
DUPLEX = typer.Option(Duplex.long, "--duplex", case_sensitive=False,
                      help="How backs are printed: long or short edge flip, gutter fold, or none (backs after fronts).")
COLOUR = typer.Option(Colour.rgb, "--colour", case_sensitive=False, help="rgb, or cmyk: colours and images "
                      "converted to the inks of the bundled FOGRA39 profile, black text on the black plate alone.")
PDFX = typer.Option(False, "--pdfx", help="Write PDF/X-1a:2003 (implies --colour cmyk): the profile as output "
                    "intent, trim and bleed boxes, no transparency.")
INK_LIMIT = typer.Option(None, "--ink-limit", min=100, max=400, metavar="PERCENT", callback=console.finite,
                         help="Total ink at most, when lower than the profile's 300 %.")
KIT = (
    ("paper", str, PAPER),
    ("bleed", str, BLEED),
    ("duplex", Duplex, DUPLEX),
    ("crop_marks", bool, typer.Option(True, "--crop-marks/--no-crop-marks", help="Crop marks outside the bleed.")),
    ("greyscale", bool, typer.Option(False, "--greyscale", help="Print in shades of grey (ink saver).")),
    ("variant", Optional[List[str]], VARIANTS),
    ("seed", Optional[int], typer.Option(None, "--seed", min=0, metavar="N", help="Seed for what boards place at "
                                         "random (default: each board's own); printed on the board.")),
    ("booklet", bool, typer.Option(False, "--booklet", help="Write rules-booklet.pdf (the rulebook two-up, in "
                                   "saddle-stitch order) for every game with a rulebook; games may also ask for one "
                                   "in game.yaml.")),
    ("calibration", bool, typer.Option(True, "--calibration/--no-calibration", help="Write calibration.pdf: 100 mm "
                                       "rulers and a card at true size, to print first.")),
    ("back_offset", str, typer.Option("0,0", "--back-offset", metavar="X,Y", help="Move every back page by X to "
                                      "the right and Y down, as seen on the back (mm, or with a unit: 1.5mm,-0.5mm), "
                                      "to make up for a duplex printer's shift; calibration.pdf measures it.")),
    ("colour", Colour, COLOUR),
    ("pdfx", bool, PDFX),
    ("ink_limit", Optional[float], INK_LIMIT),
    ("sets", Optional[str], SETS),
)


def with_kit_options(command: Callable) -> Callable:
    """`command`, whose parameter `options` is the Options of a kit, taking the options of KIT in its place."""
    signature = inspect.signature(command, eval_str=True)
    names = list(signature.parameters)
    at = names.index("options")
    kit = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=kind)
           for name, kind, default in KIT]
    parameters = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in signature.parameters.values()]
    parameters[at:at + 1] = kit

    @wraps(command)
    def run(**values):
        return command(options=kit_options(*(values.pop(name) for name, _, _ in KIT)), **values)

    run.__signature__ = signature.replace(parameters=parameters)
    run.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": signature.return_annotation}
    return run


def kit_options(paper: str, bleed: str, duplex: Duplex, crop_marks: bool, greyscale: bool,
                variant: Optional[List[str]], seed: Optional[int], booklet: bool, calibration: bool,
                back_offset: str, colour: Colour = Colour.rgb, pdfx: bool = False,
                ink_limit: Optional[float] = None, sets: Optional[str] = None) -> Options:
    """The Options of a kit from the options of KIT; a bad --paper, --bleed or --back-offset is one line and exit 2."""
    from ..core.errors import MusterError

    try:
        paper_name = console.paper(paper)
        bleed_mm = console.bleed(bleed)
        offset = console.back_offset(back_offset, duplex.value)
    except MusterError as exc:
        console.fail(exc)
    return Options(paper_name, bleed_mm, duplex.value, crop_marks, greyscale, tuple(variant or ()), seed, booklet,
                   calibration, offset, "cmyk" if pdfx else colour.value, pdfx, ink_limit, set_names(sets))


def set_names(text: Optional[str]) -> tuple[str, ...]:
    """The sets --sets names, comma-separated: base,pack-1."""
    return tuple(dict.fromkeys(name.strip() for name in (text or "").split(",") if name.strip()))
