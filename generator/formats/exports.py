"""Exports for print shops: single faces as PNG or PDF; and what every export shares (tts.py adds Tabletop
Simulator's deck sheets).

Nothing here draws: rendering/raster.py draws every face onto a page of its own (the card and its bleed, no
marks), exactly as it is drawn on the card sheets, and rasterises such pages for PNGs.

Output, per game and deck: OUT/<game>/png/<deck>/, OUT/<game>/pdf/<deck>/, OUT/<game>/tts/<deck>/. Each deck
folder is staged like a build (building/staging.py): every file is written to a temporary name, all of them are
moved into place together once every deck is complete, and manifest.json lists them; files an earlier export
wrote and this one did not are removed.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Iterator

from ..core import codes
from ..core.errors import GameInvalid, MusterError, has_errors
from ..core.options import DEFAULT_DPI, Options
from ..core.units import CARD_SIZES, MM_PER, PT_PER_MM, parse_length
from ..rendering.raster import FaceRaster, check_pixels, encoded, png_bytes, rasterise_faces, write_face_pages

MM_PER_INCH = MM_PER["in"]


# ---------------------------------------------------------------------------------------------------- sizes

def pixels(mm: float, dpi: int) -> int:
    """`mm` at `dpi`, rounded to the nearest whole pixel (halves up)."""
    return math.floor(mm / MM_PER_INCH * dpi + 0.5)


def png_size(card: tuple[float, float], bleed: float, dpi: int) -> tuple[int, int]:
    """Pixel width and height of an exported face: the card and its bleed on every side."""
    return pixels(card[0] + 2 * bleed, dpi), pixels(card[1] + 2 * bleed, dpi)


SIZE_TABLE_CARDS = (("poker", CARD_SIZES["poker"]), ("bridge", CARD_SIZES["bridge"]), ("mini", CARD_SIZES["mini"]),
                    ("tarot", CARD_SIZES["tarot"]), ('"2.5in x 3.5in"', (63.5, 88.9)))


def size_table(dpi: int = DEFAULT_DPI) -> str:
    """The Markdown table of docs/exports.md: PNG sizes of the named cards at `dpi`, trim and with bleed."""
    bleeds = (("3 mm bleed (`--bleed 3mm`)", 3.0), ("1/8 in bleed (`--bleed 0.125in`)", parse_length("0.125in")))
    lines = [f"| card size | trim, mm | trim, px | {' | '.join(label for label, _ in bleeds)} |",
             "| --- | --- | --- |" + " --- |" * len(bleeds)]
    for name, (w, h) in SIZE_TABLE_CARDS:
        trim = png_size((w, h), 0.0, dpi)
        cells = [f"{a} x {b}" for a, b in (png_size((w, h), bleed, dpi) for _, bleed in bleeds)]
        lines.append(f"| `{name}` | {w:g} x {h:g} | {trim[0]} x {trim[1]} | {' | '.join(cells)} |")
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------- the game and decks

@dataclass(frozen=True)
class Entry:
    """One distinct card of a deck as exported: its number (1-based, deck order) and its faces' indices."""

    number: int
    id: str  # names its files, in every language
    title: str  # as it prints (its translation in a game read in another language): names its piece
    count: int
    front: int
    back: int | None  # None: a counter printed on one side

    @property
    def stem(self) -> str:
        from ..reading.decks import slug

        return f"{self.number:03d}-{slug(self.id)}"


def entries(deck, laid) -> list[Entry]:
    """The deck's cards with at least one copy, each with the faces of its copies (which copies share)."""
    result, copy = [], 0
    for card in deck.cards:
        if card.count < 1:
            continue
        result.append(Entry(len(result) + 1, card.id, card.printed_title, card.count, laid.fronts[copy], laid.backs[copy]))
        copy += card.count
    return result


def card_images(game, deck, laid, size: tuple[int, int], dpi: int, reach: float, spool: Path
                ) -> Iterator[tuple[Entry, bytes, bytes]]:
    """Each distinct card's front and back as PNGs of `size` pixels, cut at the trim (TTS tiles), drawn `reach` mm
    past it (the bleed it was laid out with), one card at a time, in deck order: memory holds one card, whatever
    the deck's size. A card without a back of its own shows its front on both sides. `spool`: the output folder,
    where the faces' PDF is written meanwhile."""
    rows = entries(deck, laid)
    backs = {row.number: row.front if row.back is None else row.back for row in rows}
    check_pixels([size], deck.where)
    with FaceRaster(laid.faces, {index for row in rows for index in (row.front, backs[row.number])},
                    deck.format.face_size, 0.0, reach, f"{game.title}: {deck.name}", spool) as raster:

        def images() -> Iterator[tuple[tuple[Entry, bool], object]]:
            for row in rows:
                yield (row, False), raster.image(row.front, size)
                if backs[row.number] != row.front:
                    yield (row, True), raster.image(backs[row.number], size)

        front = b""
        for (row, back), data in encoded(images(), png_bytes, dpi):
            if back:
                yield row, front, data
            elif backs[row.number] == row.front:
                yield row, data, data
            else:
                front = data


def board_image(game, board, dpi: int) -> tuple[bytes, tuple[int, int]]:
    """A board's face as a PNG at `dpi`, and its pixel size."""
    from ..layout.boards import lay_out_board

    face, findings = lay_out_board(game, board)
    if face is None:
        raise GameInvalid(findings)
    size = tuple(max(1, pixels(side, dpi)) for side in board.size)
    (_, image), = rasterise_faces([face], {0: [size]}, board.size, 0.0, 0.0, f"{game.title}: {board.name}",
                                  board.where)
    return png_bytes(image, dpi), size


def prepare(target, deck_ids: list[str] | None, bleed: float, variants=(), every: bool = False,
            adapt: Callable | None = None, warnings: bool = False, refuse: tuple[str, ...] = (), sets=(),
            deck_list: Path | None = None, language: str | None = None):
    """The game, the decks to export (with `every` and no deck named: counters too), and each laid out;
    GameInvalid when the game has errors. `adapt(deck)`, when given, gives the deck to lay out instead (a shop's
    card size and safe zone); `warnings` keeps the warnings of laying out (text outside the safe zone, a
    background short of the bleed) in each deck's findings, and those whose code is in `refuse` are errors.
    `sets`: the sets whose cards are exported; `deck_list`: a player's list, whose cards alone are exported at
    its counts (decklists.load_listed); `language`: one of the game's languages, its translations printed."""
    from ..layout.cards import lay_out_cards
    from ..reading.loading import load_game
    from ..checking import require_valid_data

    if deck_list is not None:
        from ..reading.decklists import load_listed

        game = load_listed(target, deck_list, tuple(variants), tuple(sets), language)
    else:
        game = load_game(target, tuple(variants), tuple(sets), language)
    if deck_ids:
        unknown = [d for d in deck_ids if d not in game.decks]
        if unknown:
            raise MusterError.of(codes.UNKNOWN_DECK, field="--deck", name=unknown[0], game=game.id,
                                 hint=f" (decks: {', '.join(game.decks)})")
        decks = [game.decks[d] for d in dict.fromkeys(deck_ids)]
    else:
        # the card decks; a game of counters alone (the grid battle) exports its counters
        decks = ([deck for deck in game.decks.values() if every or deck.format.component == "cards"]
                 or list(game.decks.values()))
    findings = require_valid_data(game)
    if adapt is not None:
        decks = [adapt(deck) for deck in decks]
    laid = {deck.id: lay_out_cards(game, deck, bleed, warnings=warnings) for deck in decks}
    findings += [replace(f, severity="error") if f.code in refuse else f for deck in laid.values() for f in deck.findings]
    if has_errors(findings):
        raise GameInvalid(findings)
    return game, decks, laid


# ------------------------------------------------------------------------------------------------ exports

@dataclass
class DeckExport:
    """One deck's files, written to its Staging; `manifest` is written on commit, `summary` printed."""

    manifest: dict
    summary: str


def write(staging, name: str, data: bytes, files: list[dict]) -> None:
    from ..core.files import sha256

    target = staging.path(name)
    target.write_bytes(data)
    files.append({"file": name, "sha256": sha256(target)})


def cards_csv(rows: list[dict]) -> bytes:
    """cards.csv of an export; text as every CSV Muster writes holds it (worksheets.csv_cell)."""
    from ..reading.worksheets import csv_cell

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]) if rows else ["number"], lineterminator="\n")
    writer.writeheader()
    writer.writerows({key: csv_cell(value) if isinstance(value, str) else value for key, value in row.items()}
                     for row in rows)
    return buffer.getvalue().encode("utf-8")


def manifest(game, deck, export: str, settings: dict, cards: list[dict], files: list[dict]) -> dict:
    from .. import __version__

    return {"game": game.id, "deck": deck.id, "export": export, "muster": __version__, **settings,
            "card_mm": list(deck.format.face_size), "cards": cards, "files": files}


def write_faces(game, deck, laid, staging, named: list[tuple[str, int]], size: tuple[int, int], dpi: int,
                bleed: float, encode: Callable = png_bytes) -> list[dict]:
    """Each (file name, face index) of `named` written to `staging`: the face rasterised at `size` pixels with its
    bleed and encoded as `encode(image, dpi)` gives it (PNG, or a shop's JPEG; by threads, raster.encoded), every
    file of a face written as soon as it is encoded, so that memory holds a few faces, however many a deck has. The
    files' entries, in `named`'s order."""
    names: dict[int, list[str]] = {}
    for name, index in named:
        names.setdefault(index, []).append(name)
    written: dict[str, dict] = {}
    faces = rasterise_faces(laid.faces, {index: [size] for index in names}, deck.format.face_size, bleed, bleed,
                            f"{game.title}: {deck.name}", deck.where, staging.folder)
    for (index, _), data in encoded(faces, encode, dpi):
        for name in names[index]:
            entry: list[dict] = []
            write(staging, name, data, entry)
            written[name] = entry[0]
    return [written[name] for name, _ in named]


def export_png(game, deck, laid, staging, dpi: int, bleed: float) -> DeckExport:
    """<nnn>-<id>-front.png and -back.png (none for a one-sided counter) per distinct card, cards.csv with the
    counts, manifest.json."""
    rows = entries(deck, laid)
    size = png_size(deck.format.face_size, bleed, dpi)
    cards = [{"number": row.number, "id": row.id, "title": row.title, "count": row.count,
              "front": f"{row.stem}-front.png", "back": f"{row.stem}-back.png" if row.back is not None else ""}
             for row in rows]
    named = [(name, index) for row, card in zip(rows, cards)
             for name, index in ((card["front"], row.front), (card["back"], row.back)) if name]
    files = write_faces(game, deck, laid, staging, named, size, dpi, bleed)
    write(staging, "cards.csv", cards_csv(cards), files)
    trim = png_size(deck.format.face_size, 0.0, dpi)
    settings = {"dpi": dpi, "bleed_mm": bleed, "pixels": list(size), "trim_pixels": list(trim)}
    pngs = len(rows) + sum(row.back is not None for row in rows)
    summary = (f"{game.id}: {deck.id}: {len(rows)} cards ({deck.total} copies), {pngs} PNGs of "
               f"{size[0]} x {size[1]} px ({dpi} dpi, {bleed:g} mm bleed; trim {trim[0]} x {trim[1]} px) "
               f"-> {staging.folder}")
    return DeckExport(manifest(game, deck, "png", settings, cards, files), summary)


def export_pdf(game, deck, laid, staging, bleed: float, printing: Options = Options()) -> DeckExport:
    """<nnn>-<id>.pdf per distinct card: page 1 its front, page 2 its back (none for a one-sided counter);
    MediaBox = BleedBox, TrimBox = card. `printing` says the colour (rgb, cmyk) and whether the files are PDF/X."""
    from ..core.files import sha256

    rows = entries(deck, laid)
    files: list[dict] = []
    cards = []
    for row in rows:
        name = f"{row.stem}.pdf"
        target = staging.path(name)
        write_face_pages(target, f"{game.title}: {row.title}", laid.faces,
                         [index for index in (row.front, row.back) if index is not None], deck.format.face_size, bleed,
                         boxes=True, printing=printing)
        files.append({"file": name, "sha256": sha256(target)})
        cards.append({"number": row.number, "id": row.id, "title": row.title, "count": row.count, "file": name})
    write(staging, "cards.csv", cards_csv(cards), files)
    w, h = deck.format.face_size
    points = [round((w + 2 * bleed) * PT_PER_MM, 3), round((h + 2 * bleed) * PT_PER_MM, 3)]
    settings = {"bleed_mm": bleed, "page_pt": points, "trim_pt": [round(w * PT_PER_MM, 3), round(h * PT_PER_MM, 3)]}
    pages = "one-page" if deck.back is None else "two-page"
    settings |= {"colour": printing.colour, "pdfx": printing.pdfx} if printing != Options() else {}
    summary = (f"{game.id}: {deck.id}: {len(rows)} cards ({deck.total} copies), {len(rows)} {pages} PDFs of "
               f"{w + 2 * bleed:g} x {h + 2 * bleed:g} mm (trim {w:g} x {h:g} mm) -> {staging.folder}")
    return DeckExport(manifest(game, deck, "pdf", settings, cards, files), summary)


def run_export(target, deck_ids, variants, bleed: float, out: Path, kind: str,
               export: Callable[..., DeckExport], progress: Callable | None = None,
               finish: Callable | None = None, every: bool = False, adapt: Callable | None = None,
               warnings: bool = False, refuse: tuple[str, ...] = (), sets=(), deck_list: Path | None = None,
               language: str | None = None) -> list[str]:
    """Validates, exports every chosen deck into OUT/<game>/<kind>/<deck>/ (in a language not the game's source
    one, OUT/<game>/<language>/<kind>/<deck>/; `export(game, deck, laid, staging)`
    writes through the deck's Staging), and moves the files into place together once all are written.
    `progress(decks, label)`, when given, wraps the decks in a context that reports them as they are done.
    `finish(game, exported, staging)`, when given, writes what the decks make together (TTS's saved object) into
    OUT/<game>/<kind>/ once they are done, committed with them: `exported` is [(deck, staging, DeckExport)]; it
    returns a DeckExport too. `every`, `adapt`, `warnings`, `refuse`, `sets`, `deck_list` and `language` are
    prepare's.
    Returns the summary lines."""
    from contextlib import nullcontext

    from ..building.staging import Staging

    game, decks, laid = prepare(target, deck_ids, bleed, variants, every, adapt, warnings, refuse, sets, deck_list,
                                language)
    staged: list[tuple[Staging, DeckExport]] = []
    bar = progress(decks, f"Exporting {game.id}") if progress else nullcontext(decks)

    def stage(*parts: str) -> Staging:
        staged.append((Staging(out, game.id, *filter(None, [game.language]), *parts), None))
        return staged[-1][0]

    try:
        with bar as chosen:
            for deck in chosen:
                staging = stage(kind, deck.id)
                with staging.writing():
                    staged[-1] = (staging, export(game, deck, laid[deck.id], staging))
        if finish is not None:
            exported = [(deck, *item) for deck, item in zip(decks, staged)]
            staging = stage(kind)
            with staging.writing():
                staged[-1] = (staging, finish(game, exported, staging))
        for staging, item in staged:
            staging.commit(item.manifest)
    finally:
        for staging, _ in staged:
            staging.discard()
    return [item.summary for _, item in staged]
