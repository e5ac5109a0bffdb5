"""`muster export`: faces for print shops (png, pdf, and a shop's own files: shop), Tabletop Simulator sheets
and saved object (tts), a VASSAL module (vassal), decks as spreadsheets (csv, xlsx)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from . import console
from .app import (BLEED, COLOUR, DECK_LIST, GAME, INK_LIMIT, LANG, PDFX, QUIET, SETS, VARIANTS, Colour, export_app,
                  kit_options)
from ..core import codes
from ..core.errors import GameInvalid, MusterError, has_errors
from ..core.files import unwritable
from ..core.options import DEFAULT_DPI, read_bleed, set_names

MIN_DPI, MAX_DPI = 72, 1200  # --dpi's bounds

DECKS = typer.Option(None, "--deck", "-d", metavar="DECK",
                     help="A deck to export (repeatable; default: every card deck, or every deck of a game of counters).")
DECK = typer.Option(..., "--deck", "-d", metavar="DECK", show_default=False, help="The deck to export.")
EXPORT_OUT = typer.Option(Path("output"), "--out", "-o", metavar="DIR",
                          help="Output folder; files go to OUT/<game>/<format>/<deck>/.")


def _run(game: str, decks, variants, sets: str | None, deck_list: Path | None, out: Path, quiet: bool, kind: str,
         bleed_text: str | None, export, finish=None, lang: str | None = None) -> None:
    from ..formats.exports import run_export  # here, as each command's own: a build or --help needs no export
    from ..formats.tts import TTS_LAYOUT_BLEED

    def work() -> list[str]:
        bleed = read_bleed(bleed_text) if bleed_text is not None else TTS_LAYOUT_BLEED
        return [line for language in _languages(game, lang)
                for line in run_export(game, decks or None, variants or (), bleed, out, kind,
                                       lambda g, d, laid, staging: export(g, d, laid, staging, bleed),
                                       progress=None if quiet else console.progress, finish=finish,
                                       every=finish is not None, sets=set_names(sets), deck_list=deck_list,
                                       language=language)]

    _report(game, quiet, work)


def _languages(game: str, lang: str | None) -> list[str | None]:
    """The languages --lang asks an export in (None: the game's source one), as `muster build` reads it."""
    from ..building.kit import in_languages

    return [chosen.lang for chosen in in_languages(game, kit_options(lang=lang))]


def _report(game: str, quiet: bool, work) -> None:
    """Runs an export (`work()` gives its summary lines) and prints them; a bad game or option ends the command."""
    try:
        lines = work()
    except GameInvalid as exc:
        console.invalid(Path(str(game)).name, exc, "exported")
    except MusterError as exc:
        console.fail(exc)
    if not quiet:
        for line in lines:
            typer.echo(line)


@export_app.command()
def png(
    game: str = GAME,
    deck: Optional[List[str]] = DECKS,
    dpi: int = typer.Option(DEFAULT_DPI, "--dpi", min=MIN_DPI, max=MAX_DPI, metavar="DPI", help="Resolution of the PNGs."),
    bleed: str = BLEED,
    out: Path = EXPORT_OUT,
    variant: Optional[List[str]] = VARIANTS,
    sets: Optional[str] = SETS,
    lang: Optional[str] = LANG,
    deck_list: Optional[Path] = DECK_LIST,
    quiet: bool = QUIET,
) -> None:
    """One PNG per distinct card front and back, with bleed, at an exact pixel size; counts in cards.csv."""
    from ..formats.exports import export_png

    _run(game, deck, variant, sets, deck_list, out, quiet, "png", bleed,
         lambda g, d, laid, staging, b: export_png(g, d, laid, staging, dpi, b), lang=lang)


@export_app.command()
def pdf(
    game: str = GAME,
    deck: Optional[List[str]] = DECKS,
    bleed: str = BLEED,
    out: Path = EXPORT_OUT,
    variant: Optional[List[str]] = VARIANTS,
    sets: Optional[str] = SETS,
    lang: Optional[str] = LANG,
    deck_list: Optional[Path] = DECK_LIST,
    quiet: bool = QUIET,
    colour: Colour = COLOUR,
    pdfx: bool = PDFX,
    ink_limit: Optional[float] = INK_LIMIT,
) -> None:
    """One two-page PDF per distinct card (front, back) with TrimBox and BleedBox; counts in cards.csv."""
    from ..formats.exports import export_pdf

    printing = kit_options(colour=colour, pdfx=pdfx, ink_limit=ink_limit)
    _run(game, deck, variant, sets, deck_list, out, quiet, "pdf", bleed,
         lambda g, d, laid, staging, b: export_pdf(g, d, laid, staging, b, printing), lang=lang)


@export_app.command()
def tts(
    game: str = GAME,
    deck: Optional[List[str]] = DECKS,
    dpi: int = typer.Option(DEFAULT_DPI, "--dpi", min=MIN_DPI, max=MAX_DPI, metavar="DPI",
                            help="Highest resolution of a card on a sheet (sheets stay within 4096 x 4096 px)."),
    out: Path = EXPORT_OUT,
    base_url: Optional[str] = typer.Option(None, "--base-url", metavar="URL", show_default=False,
                                           help="Where you host OUT/<game>/tts/: the saved object names its images "
                                                "under it.  [default: file:/// paths]"),
    variant: Optional[List[str]] = VARIANTS,
    sets: Optional[str] = SETS,
    lang: Optional[str] = LANG,
    deck_list: Optional[Path] = DECK_LIST,
    quiet: bool = QUIET,
) -> None:
    """Tabletop Simulator: deck sheets (up to 10 x 7, 69 cards), counters as tile images, the Custom Deck dialog's
    numbers, and <game>.json, a saved object holding every deck, counter and board."""
    from ..formats.tabletop import export_saved_object
    from ..formats.tts import export_tts

    if base_url is not None:
        try:
            console.base_url(base_url)
        except MusterError as exc:
            console.fail(exc)
    folders = []  # where each saved object went: OUT/<game>/tts/, a language's or a deck list's folder

    def saved_object(g, exported, staging):
        folders.append(str(staging.folder))
        return export_saved_object(g, exported, staging, dpi, base_url)

    _run(game, deck, variant, sets, deck_list, out, quiet, "tts", None,
         lambda g, d, laid, staging, b: export_tts(g, d, laid, staging, dpi), saved_object, lang)
    if base_url is None:  # said even with --quiet: the file looks fine here and is blank for everyone else
        name = Path(str(game)).name
        folders = ("each of " if len(folders) > 1 else "") + ", ".join(folders)
        typer.echo(f"warning: {name}: the saved object names its images by file:/// paths on this "
                   f"computer: other players, and any other computer, see blank objects. Upload {folders} as it is "
                   "and export again with --base-url URL (docs/exports.md)", err=True)


@export_app.command()
def vassal(
    game: str = GAME,
    deck: Optional[List[str]] = DECKS,
    out: Path = EXPORT_OUT,
    variant: Optional[List[str]] = VARIANTS,
    sets: Optional[str] = SETS,
    lang: Optional[str] = LANG,
    deck_list: Optional[Path] = DECK_LIST,
    quiet: bool = QUIET,
) -> None:
    """A VASSAL module (.vmod): the boards as a map with its grid, counters in a piece palette that flip to their
    backs, card decks as draw piles, the rulebook under Help."""
    from ..formats.vassal import export_vassal

    _report(game, quiet, lambda: [export_vassal(game, deck or None, variant or (), out,
                                                progress=None if quiet else console.progress, sets=set_names(sets),
                                                deck_list=deck_list, language=language)
                                  for language in _languages(game, lang)])


@export_app.command()
def shop(
    name: str = typer.Argument(..., metavar="SHOP", show_default=False,
                               help="makeplayingcards, printerstudio, thegamecrafter or drivethrucards. Given alone, "
                                    "it is the GAME, and the shop is the one its game.yaml names (shop:)."),
    game: Optional[str] = typer.Argument(None, metavar="GAME", show_default=False,
                                         help="A game folder, or a bundled game's name."),
    deck: Optional[List[str]] = DECKS,
    out: Path = EXPORT_OUT,
    variant: Optional[List[str]] = VARIANTS,
    sets: Optional[str] = SETS,
    lang: Optional[str] = LANG,
    deck_list: Optional[Path] = DECK_LIST,
    quiet: bool = QUIET,
    strict: bool = typer.Option(False, "--strict", help="Refuse the upload (exit 1, nothing written) when text "
                                "leaves the shop's safe zone or art stops short of its bleed, instead of warning."),
) -> None:
    """A deck's files as a print shop asks for them: its card size, bleed, safe zone, pixels, file type, names
    and order (docs/exports.md); warns about text outside the shop's safe zone and backgrounds short of its bleed
    (with --strict, or the shop's strict: true, refuses them)."""
    from ..formats.exports import run_export
    from ..formats.shops import STRICT, export_shop, find_shop
    from ..reading.loading import load_game

    target, named = (name, None) if game is None else (game, name)

    def work() -> list[str]:
        loaded = load_game(target, tuple(variant or ()), set_names(sets)) if named is None else None
        if loaded is not None and has_errors(loaded.findings):  # a wrong shop: is reported with the rest
            raise GameInvalid(list(loaded.findings))
        profile = find_shop(named, loaded)
        return [line for language in _languages(target, lang)
                for line in run_export(target, deck or None, variant or (), profile.bleed, out, profile.id,
                                       lambda g, d, laid, staging: export_shop(profile, g, d, laid, staging),
                                       progress=None if quiet else console.progress, adapt=profile.fitted,
                                       warnings=True, refuse=STRICT if strict or profile.strict else (),
                                       sets=set_names(sets), deck_list=deck_list, language=language)]

    _report(target, quiet, work)


def _export(game: str, deck: str, output: Optional[Path], suffix: str) -> None:
    from ..reading.loading import load_game
    from ..formats.spreadsheets import deck_table, write_csv, write_xlsx

    try:
        header, rows = deck_table(load_game(game), deck)
        if suffix == ".csv":
            write_csv(header, rows, None if str(output) == "-" else output or Path(f"{deck}.csv"))
        else:
            if str(output) == "-":
                raise MusterError("an .xlsx file cannot go to standard output: give a file name", field="--output",
                                  code=codes.BAD_OPTION.name)
            write_xlsx(header, rows, output or Path(f"{deck}.xlsx"), deck)
    except MusterError as exc:
        console.fail(exc)
    except OSError as exc:
        console.fail(unwritable(f"write {output}", exc))
    if str(output) != "-":
        typer.echo(f"{output or Path(deck + suffix)}: {len(rows)} card(s) of deck '{deck}'", err=True)


@export_app.command("csv")
def export_csv(
    game: str = GAME,
    deck: str = DECK,
    output: Optional[Path] = typer.Option(None, "--out", "-o", "--output", metavar="FILE", show_default=False,
                                          help="File to write; - for standard output.  [default: DECK.csv]"),
) -> None:
    """Write a deck's cards as CSV (UTF-8): a header row of keys, one card a row, as `muster import` reads it."""
    _export(game, deck, output, ".csv")


@export_app.command("xlsx")
def export_xlsx(
    game: str = GAME,
    deck: str = DECK,
    output: Optional[Path] = typer.Option(None, "--out", "-o", "--output", metavar="FILE", show_default=False,
                                          help="File to write.  [default: DECK.xlsx]"),
) -> None:
    """Write a deck's cards as an .xlsx workbook: a header row of keys, one card a row, as `muster import` reads it."""
    _export(game, deck, output, ".xlsx")
