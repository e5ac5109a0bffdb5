"""`muster export`: faces for print shops (png, pdf), Tabletop Simulator sheets (tts), decks as spreadsheets
(csv, xlsx)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from . import console
from .app import BLEED, COLOUR, GAME, INK_LIMIT, PDFX, QUIET, VARIANTS, Colour, export_app
from ..core.errors import GameInvalid, MusterError
from ..formats.exports import DEFAULT_DPI, MAX_DPI, MIN_DPI, export_pdf, export_png, run_export
from ..formats.tts import TTS_LAYOUT_BLEED, export_tts


DECKS = typer.Option(None, "--deck", "-d", metavar="DECK",
                     help="A deck to export (repeatable; default: every card deck, or every deck of a game of counters).")
DECK = typer.Option(..., "--deck", "-d", metavar="DECK", show_default=False, help="The deck to export.")
EXPORT_OUT = typer.Option(Path("output"), "--out", "-o", metavar="DIR",
                          help="Output folder; files go to OUT/<game>/<format>/<deck>/.")


def _run(game: str, decks, variants, out: Path, quiet: bool, kind: str, bleed_text: str | None, export) -> None:
    try:
        bleed = console.bleed(bleed_text) if bleed_text is not None else TTS_LAYOUT_BLEED
        lines = run_export(game, decks or None, variants or (), bleed, out, kind,
                           lambda g, d, laid, staging: export(g, d, laid, staging, bleed),
                           progress=None if quiet else console.progress)
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
    quiet: bool = QUIET,
) -> None:
    """One PNG per distinct card front and back, with bleed, at an exact pixel size; counts in cards.csv."""
    _run(game, deck, variant, out, quiet, "png", bleed,
         lambda g, d, laid, staging, b: export_png(g, d, laid, staging, dpi, b))


@export_app.command()
def pdf(
    game: str = GAME,
    deck: Optional[List[str]] = DECKS,
    bleed: str = BLEED,
    out: Path = EXPORT_OUT,
    variant: Optional[List[str]] = VARIANTS,
    quiet: bool = QUIET,
    colour: Colour = COLOUR,
    pdfx: bool = PDFX,
    ink_limit: Optional[float] = INK_LIMIT,
) -> None:
    """One two-page PDF per distinct card (front, back) with TrimBox and BleedBox; counts in cards.csv."""
    from ..core.options import Options

    printing = Options(colour="cmyk" if pdfx else colour.value, pdfx=pdfx, ink_limit=ink_limit)
    _run(game, deck, variant, out, quiet, "pdf", bleed,
         lambda g, d, laid, staging, b: export_pdf(g, d, laid, staging, b, printing))


@export_app.command()
def tts(
    game: str = GAME,
    deck: Optional[List[str]] = DECKS,
    dpi: int = typer.Option(DEFAULT_DPI, "--dpi", min=MIN_DPI, max=MAX_DPI, metavar="DPI",
                            help="Highest resolution of a card on a sheet (sheets stay within 4096 x 4096 px)."),
    out: Path = EXPORT_OUT,
    variant: Optional[List[str]] = VARIANTS,
    quiet: bool = QUIET,
) -> None:
    """Tabletop Simulator deck sheets (up to 10 x 7, 69 cards), the back, and the Custom Deck dialog's numbers."""
    _run(game, deck, variant, out, quiet, "tts", None,
         lambda g, d, laid, staging, b: export_tts(g, d, laid, staging, dpi))


def _export(game: str, deck: str, output: Optional[Path], suffix: str) -> None:
    from ..reading.loading import load_game
    from ..formats.spreadsheets import deck_table, write_csv, write_xlsx

    try:
        header, rows = deck_table(load_game(game), deck)
        if suffix == ".csv":
            write_csv(header, rows, None if str(output) == "-" else output or Path(f"{deck}.csv"))
        else:
            if str(output) == "-":
                raise MusterError("an .xlsx file cannot go to standard output: give a file name")
            write_xlsx(header, rows, output or Path(f"{deck}.xlsx"), deck)
    except MusterError as exc:
        console.fail(exc)
    except OSError as exc:
        console.fail(MusterError(f"cannot write {output}: {exc.strerror or exc}"))
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
