"""`muster validate` and `muster list`: what is in a game, and what is wrong with it."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path
from typing import List, NoReturn, Optional

import typer

from . import console
from .app import DECK_LIST, GAME, GAMES, LANG, SETS, VARIANTS, Format, app, kit_options
from ..core.errors import MusterError, exit_status
from ..core.options import set_names


@app.command()
def validate(
    games: Optional[List[str]] = GAMES,
    format: Format = typer.Option(Format.text, "--format", case_sensitive=False, help="text: one line per finding; json: a list of findings."),
    variant: Optional[List[str]] = VARIANTS,
    sets: Optional[str] = SETS,
    deck_list: Optional[Path] = DECK_LIST,
    deck_format: Optional[str] = typer.Option(None, "--deck-format", metavar="NAME", show_default=False,
                                              help="With --list: the construction format (formats: in game.yaml) "
                                                   "the list must meet.  [default: the game's first]"),
    codes: bool = typer.Option(False, "--codes", help="List every finding code, its severity and meaning (docs/"
                               "findings.md), and exit."),
) -> None:
    """Check games: exit 0 when consistent, 1 with errors, 2 when the input cannot be read. With --list, check a
    player's deck list against one game instead."""
    if codes:
        _list_codes(format)
    from ..checking import check_languages
    from ..building.kit import without_cycle_collection
    from ..reading.loading import load_game

    try:
        targets = console.games(games)
        if deck_list is not None and len(targets) != 1:
            raise MusterError("--list: name the one game the list is for", field="--list", code="bad-option")
    except MusterError as exc:
        console.fail(exc)
    findings = []
    refused = []  # the one error of each game that could not be read, printed as it comes
    for target in targets:
        try:
            with without_cycle_collection():
                if deck_list is not None:
                    findings.extend(_list_findings(target, tuple(variant or ()), set_names(sets), deck_list,
                                                   deck_format))
                    continue
                read = partial(load_game, target, tuple(variant or ()), set_names(sets))
                findings.extend(check_languages(read(), lambda language: read(language=language)))
        except MusterError as exc:
            if console.state["debug"]:
                raise
            typer.echo(str(exc), err=True)
            refused.append(exc.finding())
    if format is Format.json:  # a game that could not be read is in the list too, with its code
        _echo_json([f.as_dict() for f in findings + refused])
    else:
        for finding in findings:
            typer.echo(str(finding))
        sys.stdout.flush()  # the findings first, then the count on stderr, also when both go to one pipe
        errors = sum(f.severity == "error" for f in findings)
        warnings = len(findings) - errors
        errors += len(refused)
        typer.echo(f"{len(targets)} game(s): {errors} error(s), {warnings} warning(s)", err=True)
    raise typer.Exit(2 if refused else exit_status(findings))


def _list_codes(format: Format) -> NoReturn:
    from ..core.codes import CODES

    if format is Format.json:
        _echo_json([{"code": c.name, "severity": c.severity, "meaning": c.meaning} for c in CODES.values()])
    else:
        width = max(len(name) for name in CODES)
        for code in CODES.values():
            typer.echo(f"{code.name:<{width}}  {code.severity:<7}  {code.meaning}")
    raise typer.Exit(0)


def _list_findings(target, variants, sets, path: Path, format_name: str | None) -> list:
    """The findings of a deck list: the game's own errors (a list cannot be checked against a broken game), else
    the list's against the format."""
    from ..checking.decklist import check_list, chosen_format
    from ..reading.decklists import game_for_list, read_list

    game = game_for_list(target, variants, sets)
    errors = [f for f in game.findings if f.severity == "error"]
    return errors or check_list(game, read_list(path, game), chosen_format(game, format_name))


@app.command("list")
def list_games(
    games: Optional[List[str]] = GAMES,
) -> None:
    """Show games: each deck with its declared and actual number of cards, each board, and the rulebook."""
    from ..reading.loading import load_game

    try:
        targets = console.games(games)
    except MusterError as exc:
        console.fail(exc)
    for target in targets:
        try:
            game = load_game(target)
        except MusterError as exc:
            console.fail(exc)
        typer.echo(f"{game.id}  {game.title}  ({game.players} players)")
        for deck in game.decks.values():
            declared = "-" if deck.size is None else str(deck.size)
            flag = "" if deck.size in (None, deck.total) else "  MISMATCH"
            component = deck.format.component
            typer.echo(f"  {deck.id:<24} {component:<7} declared {declared:>5}  actual {deck.total:>5}{flag}")
        for board in game.boards.values():
            typer.echo(f"  {board.id:<24} {board.file:<7} {board.size[0]:.0f} x {board.size[1]:.0f} mm")
        if game.rulebook is not None:
            typer.echo(f"  {'rulebook':<24} {game.rulebook.path.name}")


def _game_or_list(game: str, variant, sets, deck_list: Optional[Path], lang: Optional[str], command: str):
    """The game, or the game made of a player's list, in the language --lang names (titles and text as they print;
    the source titles still name cards in --when); a list with mistakes ends the command (exit 1)."""
    from ..core.options import ALL_LANGUAGES
    from ..reading.decklists import load_listed
    from ..reading.loading import load_game

    language = kit_options(lang=lang).lang
    if language == ALL_LANGUAGES:
        raise MusterError(f"--lang all: {command} reads the game in one language; name it (--lang de)", field="--lang",
                          code="bad-option")
    if deck_list is not None:
        return load_listed(game, deck_list, tuple(variant or ()), set_names(sets), language)
    return load_game(game, tuple(variant or ()), set_names(sets), language=language)


@app.command()
def stats(
    game: str = GAME,
    deck: Optional[List[str]] = typer.Option(None, "--deck", "-d", metavar="DECK",
                                             help="A deck to count (repeatable; default: every deck)."),
    deck_list: Optional[Path] = DECK_LIST,
    draw: Optional[int] = typer.Option(None, "--draw", min=1, metavar="N", help="The chance of drawing, in the "
                                       "first N cards of the deck, at least --at-least cards of each --when."),
    when: Optional[List[str]] = typer.Option(None, "--when", metavar="TRAIT=VALUE[,VALUE]",
                                             help="A condition, as a rule's when: (repeatable: all must hold)."),
    at_least: int = typer.Option(1, "--at-least", min=0, metavar="K", help="Cards of each condition wanted."),
    seed: int = typer.Option(1, "--seed", min=0, metavar="N", help="Seed of the simulation of several conditions."),
    trials: int = typer.Option(20_000, "--trials", min=100, max=1_000_000, metavar="N",
                               help="Draws simulated for several conditions."),
    json_out: bool = typer.Option(False, "--json", help="Print the statistics as JSON."),
    pdf: Optional[Path] = typer.Option(None, "--pdf", metavar="FILE", show_default=False,
                                       help="Also write a PDF report with bar charts."),
    variant: Optional[List[str]] = VARIANTS,
    sets: Optional[str] = SETS,
    lang: Optional[str] = LANG,
) -> None:
    """Statistics of a game's decks or a player's list: composition by every trait, the distribution of every
    numeric trait, and draw probabilities (exact for one condition, simulated for several)."""
    from ..core.errors import GameInvalid
    from ..formats.statistics import Draw, game_statistics, read_condition, table_lines

    try:
        loaded = _game_or_list(game, variant, sets, deck_list, lang, "stats")
        if draw is None and when:
            raise MusterError("--when needs --draw N", field="--when", code="bad-option")
        asked = None
        if draw is not None:
            if not when:
                raise MusterError("--draw needs a condition: --when TRAIT=VALUE", field="--draw", code="bad-option")
            asked = Draw(draw, tuple(read_condition(text, loaded) for text in when), at_least, seed, trials)
        result = game_statistics(loaded, deck, asked)
        if pdf is not None:
            from ..rendering.stats_pdf import write_report

            write_report(result, pdf)
    except GameInvalid as exc:
        console.invalid(Path(str(deck_list or game)).name, exc, "counted")
    except MusterError as exc:
        console.fail(exc)
    if json_out:
        _echo_json(result)
    else:
        typer.echo("\n".join(table_lines(result)))


@app.command()
def draw(
    game: str = GAME,
    hand: int = typer.Option(6, "--hand", min=1, metavar="N", help="Cards dealt."),
    seed: int = typer.Option(1, "--seed", min=0, metavar="N", help="The shuffle: the same seed deals the same hand."),
    deck: Optional[List[str]] = typer.Option(None, "--deck", "-d", metavar="DECK",
                                             help="The deck to deal from (default: the only deck of the game or list)."),
    deck_list: Optional[Path] = DECK_LIST,
    json_out: bool = typer.Option(False, "--json", help="Print the hand as JSON."),
    variant: Optional[List[str]] = VARIANTS,
    sets: Optional[str] = SETS,
    lang: Optional[str] = LANG,
) -> None:
    """A test draw: a hand dealt from a shuffled deck of the game or of a player's list, reproducibly (--seed)."""
    from ..core.errors import GameInvalid
    from ..formats.statistics import deal, one_deck

    try:
        loaded = _game_or_list(game, variant, sets, deck_list, lang, "draw")
        chosen = one_deck(loaded, deck, "draw")
        cards = deal(chosen, hand, seed)
    except GameInvalid as exc:
        console.invalid(Path(str(deck_list or game)).name, exc, "dealt")
    except MusterError as exc:
        console.fail(exc)
    if json_out:
        _echo_json({"deck": chosen.id, "seed": seed, "hand": cards})
        return
    typer.echo(f"{hand} cards from {chosen.name} ({chosen.total} cards), seed {seed}:")
    for number, card in enumerate(cards, 1):
        typer.echo(f"  {number}. {card['title']}")


def _echo_json(value) -> None:
    """`value` printed as JSON valid whatever its text holds; core/written.py is imported only when asked (its
    patterns cost every start, --help included, a few milliseconds)."""
    from ..core.written import json_text

    typer.echo(json_text(value, indent=2))
