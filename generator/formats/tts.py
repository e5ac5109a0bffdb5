"""Tabletop Simulator deck sheets: every copy of a deck on sheets of up to 10 x 7 slots, the back, and the
numbers TTS's Custom Deck dialog asks for."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..core import codes
from ..core.errors import MusterError
from ..core.units import MM_PER
from ..rendering.raster import FaceRaster, check_pixels, encoded, png_bytes
from .exports import DEFAULT_DPI, DeckExport, card_images, manifest, png_size, write

MM_PER_INCH = MM_PER["in"]
TTS_MAX_PIXELS = 4096      # the largest sheet side Tabletop Simulator loads reliably
TTS_COLUMNS, TTS_ROWS = 10, 7
TTS_MIN_GRID = 2           # TTS's import dialog takes 2-10 columns and 2-7 rows
TTS_CARDS_PER_SHEET = TTS_COLUMNS * TTS_ROWS - 1  # TTS shows the last slot (bottom right) for hidden cards
TTS_LAYOUT_BLEED = 3.0     # mm the faces are laid out with for TTS; the sheet shows them cut at the trim


@dataclass(frozen=True)
class TtsGrid:
    """One TTS deck sheet: `columns` x `rows` slots of `card` pixels; the last slot is the hidden card."""

    columns: int
    rows: int
    card: tuple[int, int]

    @property
    def size(self) -> tuple[int, int]:
        return self.columns * self.card[0], self.rows * self.card[1]


def tts_chunks(copies: int) -> list[range]:
    """The copies of a deck, in deck order, over as few sheets of at most TTS_CARDS_PER_SHEET as will hold them,
    shared out evenly (92 cards: 46 and 46), so that every sheet of a deck can use the same grid."""
    sheets = max(1, math.ceil(copies / TTS_CARDS_PER_SHEET))
    bounds = [copies * i // sheets for i in range(sheets + 1)]
    return [range(bounds[i], bounds[i + 1]) for i in range(sheets)]


def tts_grid(card: tuple[float, float], cards: int, dpi: int = DEFAULT_DPI) -> TtsGrid:
    """The grid for `cards` faces plus the hidden slot that gives them the most pixels within 4096 x 4096
    (at most `dpi`); on a tie, the one with fewer empty slots, then the wider one."""
    if not 1 <= cards <= TTS_CARDS_PER_SHEET:
        raise MusterError.of(codes.INTERNAL_ERROR,
                             detail=f"a TTS sheet holds 1 to {TTS_CARDS_PER_SHEET} cards, not {cards}")
    best = None
    for columns in range(TTS_MIN_GRID, TTS_COLUMNS + 1):
        for rows in range(TTS_MIN_GRID, TTS_ROWS + 1):
            if columns * rows < cards + 1:
                continue
            scale = min(dpi / MM_PER_INCH, TTS_MAX_PIXELS / (columns * card[0]), TTS_MAX_PIXELS / (rows * card[1]))
            px = (min(math.floor(card[0] * scale + 0.5), TTS_MAX_PIXELS // columns),
                  min(math.floor(card[1] * scale + 0.5), TTS_MAX_PIXELS // rows))
            key = (px[0] * px[1], -(columns * rows), columns)
            if best is None or key > best[0]:
                best = (key, TtsGrid(columns, rows, px))
    return best[1]


def export_tts(game, deck, laid, staging, dpi: int) -> DeckExport:
    """<deck>-faces-<n>.png sheets (one slot per copy, deck order), the back (one image, or a sheet of backs
    when the deck's backs differ), and <deck>-tts.txt with what TTS's Custom Deck dialog asks for."""
    from PIL import Image

    copies = len(laid.fronts)
    if copies == 0:
        raise MusterError.of(codes.NOTHING_TO_EXPORT, deck.where, subject=f"deck '{deck.id}'",
                             nothing="no cards to export")
    chunks = tts_chunks(copies)
    grid = tts_grid(deck.format.face_size, max(len(chunk) for chunk in chunks), dpi)  # one grid for all its sheets
    backs = [front if back is None else back for front, back in zip(laid.fronts, laid.backs)]  # single-sided: front
    unique = len(set(backs)) > 1
    hidden = backs[0]  # shown by TTS for cards hidden in a hand: the deck's (first) back
    needed = set(laid.fronts) | (set(backs) if unique else set()) | {hidden}
    real_dpi = round(grid.card[0] / deck.format.face_size[0] * MM_PER_INCH)  # recorded in the PNGs: the cards' own
    check_pixels([grid.card], deck.where)
    files: list[dict] = []
    sheets = []
    with FaceRaster(laid.faces, needed, deck.format.face_size, 0.0, TTS_LAYOUT_BLEED, f"{game.title}: {deck.name}",
                    staging.folder) as raster:

        def sheet(indices: list[int]):
            """The sheet's image; each distinct face rasterised once and pasted into its slots, so that one face's
            pixels and the sheet's are all it holds, however many cards the deck has."""
            canvas = Image.new("RGB", grid.size, "white")
            slots: dict[int, list[int]] = {}
            for slot, index in enumerate(indices + [None] * (grid.columns * grid.rows - 1 - len(indices)) + [hidden]):
                if index is not None:
                    slots.setdefault(index, []).append(slot)
            for index, places in slots.items():
                image = raster.image(index, grid.card)
                for slot in places:
                    canvas.paste(image, ((slot % grid.columns) * grid.card[0], (slot // grid.columns) * grid.card[1]))
            return canvas

        def drawn():
            """(file name, image) of each sheet in turn, and of the back they share when they share one."""
            for number, chunk in enumerate(chunks, 1):
                face_name = f"{deck.id}-faces-{number}.png"
                yield face_name, sheet([laid.fronts[i] for i in chunk])
                if unique:
                    back_name = f"{deck.id}-backs-{number}.png"
                    yield back_name, sheet([backs[i] for i in chunk])
                else:
                    back_name = f"{deck.id}-back.png"
                sheets.append({"face": face_name, "back": back_name, "columns": grid.columns, "rows": grid.rows,
                               "cards": len(chunk), "card_pixels": list(grid.card), "sheet_pixels": list(grid.size)})
            if not unique:
                yield f"{deck.id}-back.png", raster.image(hidden, grid.card)

        for name, data in encoded(drawn(), png_bytes, real_dpi):  # a sheet encoded while the next is drawn
            write(staging, name, data, files)
    text = tts_text(game, deck, sheets, unique)
    write(staging, f"{deck.id}-tts.txt", text.encode("utf-8"), files)
    settings = {"dpi": dpi, "card_dpi": real_dpi, "unique_backs": unique, "sheets": sheets}
    if deck.format.component == "tokens":
        settings.update(tile_images(game, deck, laid, staging, dpi, files))
    summary = (f"{game.id}: {deck.id}: {copies} cards on {len(sheets)} TTS sheet(s) of {grid.columns} x "
               f"{grid.rows} slots ({grid.size[0]} x {grid.size[1]} px, cards {grid.card[0]} x {grid.card[1]} px) "
               f"-> {staging.folder}")
    return DeckExport(manifest(game, deck, "tts", settings, [], files), summary)


def tts_text(game, deck, sheets: list[dict], unique: bool) -> str:
    """The numbers for TTS's Custom Deck dialog, one block per sheet."""
    w, h = deck.format.face_size
    total = sum(s["cards"] for s in sheets)
    lines = [
        f"Tabletop Simulator: {deck.name} ({game.title}), {total} cards of {w:g} x {h:g} mm",
        "",
        "Upload the images (Steam Cloud via Modding > Cloud Manager, or any web host that gives direct links),",
        "then for each sheet: Objects > Components > Custom > Deck, place it, and fill in the Custom Deck dialog.",
        "Each slot of a sheet is one card of the deck (copies included), in the order of the deck's files;",
        "the last slot (bottom right) holds the back: TTS shows it for cards hidden in a hand.",
    ]
    if len(sheets) > 1:
        lines.append(f"The deck needs {len(sheets)} sheets (TTS: at most {TTS_CARDS_PER_SHEET} cards a sheet): "
                     "import each, then drop one deck on the other to merge them.")
    for number, s in enumerate(sheets, 1):
        lines += [
            "",
            f"Sheet {number} of {len(sheets)}: {s['face']} ({s['sheet_pixels'][0]} x {s['sheet_pixels'][1]} px, "
            f"{s['columns']} x {s['rows']} slots of {s['card_pixels'][0]} x {s['card_pixels'][1]} px)",
            f"  Face:           <URL of {s['face']}>",
            f"  Unique backs:   {'yes' if unique else 'no'}",
            f"  Back:           <URL of {s['back']}>",
            f"  Width:          {s['columns']}",
            f"  Height:         {s['rows']}",
            f"  Number:         {s['cards']}",
            f"  Sideways:       {'yes' if w > h else 'no'}",
            "  Back is hidden: yes",
        ]
    return "\n".join(lines) + "\n"


def tile_images(game, deck, laid, staging, dpi: int, files: list[dict]) -> dict:
    """tile-<nnn>-<id>-front.png and -back.png per distinct token, cut at the trim, for the saved object's
    double-sided Custom_Tiles (formats/tabletop.py). Returns the manifest's "tiles" and "tile_pixels"."""
    tile_dpi = min(dpi, math.floor(TTS_MAX_PIXELS / max(deck.format.face_size) * MM_PER_INCH))
    size = png_size(deck.format.face_size, 0.0, tile_dpi)
    tiles = []
    for row, front_png, back_png in card_images(game, deck, laid, size, tile_dpi, TTS_LAYOUT_BLEED, staging.folder):
        front, back = f"tile-{row.stem}-front.png", f"tile-{row.stem}-back.png"
        write(staging, front, front_png, files)
        write(staging, back, back_png, files)
        tiles.append({"number": row.number, "id": row.id, "title": row.title, "count": row.count,
                      "front": front, "back": back})
    return {"tiles": tiles, "tile_pixels": list(size)}
