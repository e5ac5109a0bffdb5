"""`muster export`: faces for print shops (png, pdf), Tabletop Simulator sheets (tts), decks as spreadsheets
(csv, xlsx)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from . import console
from .app import export_app
from ..core.errors import GameInvalid, MusterError
from ..formats.exports import DEFAULT_DPI, MAX_DPI, MIN_DPI, export_pdf, export_png, run_export
from ..formats.tts import TTS_LAYOUT_BLEED, export_tts


_GAME = typer.Argument(..., help="A game folder or the name of a bundled game.")
_DECKS = typer.Option(None, "--deck", "-d", help="A deck to export (repeatable; default: every card deck, or every deck of a game of counters).")
_OUT = typer.Option(Path("output"), "--out", "-o", help="Output folder; files go to OUT/<game>/<format>/<deck>/.")
_VARIANTS = typer.Option(None, "--variant", help="Switch on a variant of the game (repeatable).")
_QUIET = typer.Option(False, "--quiet", "-q", help="Print nothing but errors.")


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
    game: str = _GAME,
    deck: Optional[List[str]] = _DECKS,
    dpi: int = typer.Option(DEFAULT_DPI, "--dpi", min=MIN_DPI, max=MAX_DPI, help="Resolution of the PNGs."),
    bleed: str = typer.Option("3mm", "--bleed", help="Bleed around each face, with a unit (3mm, 0.125in)."),
    out: Path = _OUT,
    variant: Optional[List[str]] = _VARIANTS,
    quiet: bool = _QUIET,
) -> None:
    """One PNG per distinct card front and back, with bleed, at an exact pixel size; counts in cards.csv."""
    _run(game, deck, variant, out, quiet, "png", bleed,
         lambda g, d, laid, staging, b: export_png(g, d, laid, staging, dpi, b))


@export_app.command()
def pdf(
    game: str = _GAME,
    deck: Optional[List[str]] = _DECKS,
    bleed: str = typer.Option("3mm", "--bleed", help="Bleed around each face, with a unit (3mm, 0.125in)."),
    out: Path = _OUT,
    variant: Optional[List[str]] = _VARIANTS,
    quiet: bool = _QUIET,
) -> None:
    """One two-page PDF per distinct card (front, back) with TrimBox and BleedBox; counts in cards.csv."""
    _run(game, deck, variant, out, quiet, "pdf", bleed, export_pdf)


@export_app.command()
def tts(
    game: str = _GAME,
    deck: Optional[List[str]] = _DECKS,
    dpi: int = typer.Option(DEFAULT_DPI, "--dpi", min=MIN_DPI, max=MAX_DPI,
                            help="Highest resolution of a card on a sheet (sheets stay within 4096 x 4096 px)."),
    out: Path = _OUT,
    variant: Optional[List[str]] = _VARIANTS,
    quiet: bool = _QUIET,
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
    game: str = typer.Argument(..., help="The game folder or bundled game.", show_default=False),
    deck: str = typer.Option(..., "--deck", "-d", help="The deck to export.", show_default=False),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="File to write; - for standard output.  [default: DECK.csv]", show_default=False),
) -> None:
    """Write a deck's cards as CSV (UTF-8): a header row of keys, one card a row, as `muster import` reads it."""
    _export(game, deck, output, ".csv")


@export_app.command("xlsx")
def export_xlsx(
    game: str = typer.Argument(..., help="The game folder or bundled game.", show_default=False),
    deck: str = typer.Option(..., "--deck", "-d", help="The deck to export.", show_default=False),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="File to write.  [default: DECK.xlsx]", show_default=False),
) -> None:
    """Write a deck's cards as an .xlsx workbook: a header row of keys, one card a row, as `muster import` reads it."""
    _export(game, deck, output, ".xlsx")
