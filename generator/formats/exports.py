"""Exports for print shops and Tabletop Simulator: single faces as PNG or PDF, and TTS deck sheets.

Nothing here draws. Every face is drawn by render.SheetWriter onto a page of its own (the card and its bleed, no
marks), exactly as it is drawn on the card sheets; a PNG is such a page rasterised by pdfium at an exact pixel size.

Output, per game and deck: OUT/<game>/png/<deck>/, OUT/<game>/pdf/<deck>/, OUT/<game>/tts/<deck>/. Each deck
folder is staged like a build (documents.Staging): every file is written to a temporary name, all of them are
moved into place together once every deck is complete, and manifest.json lists them; files an earlier export
wrote and this one did not are removed.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from ..core.display import Face
from ..core.errors import GameInvalid, MusterError, has_errors
from ..core.units import CARD_SIZES, PT_PER_MM, parse_length

K = PT_PER_MM
MM_PER_INCH = 25.4
DEFAULT_DPI = 300
MIN_DPI, MAX_DPI = 72, 1200
TTS_MAX_PIXELS = 4096      # the largest sheet side Tabletop Simulator loads reliably
TTS_COLUMNS, TTS_ROWS = 10, 7
TTS_MIN_GRID = 2           # TTS's import dialog takes 2-10 columns and 2-7 rows
TTS_CARDS_PER_SHEET = TTS_COLUMNS * TTS_ROWS - 1  # TTS shows the last slot (bottom right) for hidden cards
TTS_LAYOUT_BLEED = 3.0     # mm the faces are laid out with for TTS; the sheet shows them cut at the trim


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
    id: str
    title: str
    count: int
    front: int
    back: int

    @property
    def stem(self) -> str:
        from ..reading.loading import slug

        return f"{self.number:03d}-{slug(self.id)}"


def entries(deck, laid) -> list[Entry]:
    """The deck's cards with at least one copy, each with the faces of its copies (which copies share)."""
    result, copy = [], 0
    for card in deck.cards:
        if card.count < 1:
            continue
        result.append(Entry(len(result) + 1, card.id, card.title, card.count, laid.fronts[copy], laid.backs[copy]))
        copy += card.count
    return result


def prepare(target, deck_ids: list[str] | None, bleed: float, variants=()):
    """The game, the decks to export, and each laid out; GameInvalid when the game has errors."""
    from ..layout.layout import lay_out_cards
    from ..reading.loading import load_game
    from ..checking.validation import check_data

    game = load_game(target, tuple(variants))
    if deck_ids:
        unknown = [d for d in deck_ids if d not in game.decks]
        if unknown:
            raise MusterError(f"--deck: no deck '{unknown[0]}' in {game.id} (decks: {', '.join(game.decks)})")
        decks = [game.decks[d] for d in dict.fromkeys(deck_ids)]
    else:
        # the card decks; a game of counters alone (the grid battle) exports its counters
        decks = [deck for deck in game.decks.values() if deck.component == "cards"] or list(game.decks.values())
    findings = check_data(game)
    if has_errors(findings):
        raise GameInvalid(findings)
    laid = {deck.id: lay_out_cards(game, deck, bleed, warnings=False) for deck in decks}
    findings += [f for deck in laid.values() for f in deck.findings]
    if has_errors(findings):
        raise GameInvalid(findings)
    return game, decks, laid


# ---------------------------------------------------------------------------------------- faces as PDF pages

def write_face_pages(target: Path | io.BytesIO, title: str, faces: list[Face], indices: list[int], size: tuple[float, float],
                     bleed: float, reach: float | None = None, boxes: bool = False) -> None:
    """A PDF with one page per face index: the trim and `bleed` mm around it, the face drawn by the renderer.

    `reach` is how far the face may show past the trim (default `bleed`); more than `bleed` lets backgrounds run
    past the page's edge, so that the edge pixels of a raster are fully covered. With `boxes` each page gets
    BleedBox = MediaBox and TrimBox = the card's trim, for print shops.
    """
    from ..imposition.imposition import Sheet, Slot
    from ..rendering.render import SheetWriter

    reach = bleed if reach is None else reach
    w, h = size
    paper = (w + 2 * bleed, h + 2 * bleed)
    slot = Slot(bleed, bleed, w, h, reach, reach, reach, reach)
    writer = SheetWriter(target, title)
    writer.start_section({})
    trim = (bleed, bleed, w, h) if boxes else None
    for index in indices:
        writer.sheet(Sheet("front", paper, ((slot, index),), trim=trim), faces)
    writer.save()


class Raster:
    """The pages of a PDF rasterised by pdfium, each stretched to an exact pixel size."""

    def __init__(self, pdf: bytes):
        import pypdfium2 as pdfium

        self.document = pdfium.PdfDocument(pdf)

    def image(self, page_index: int, width: int, height: int):
        """An RGB image of `width` x `height` pixels showing the whole page on white."""
        import pypdfium2 as pdfium
        import pypdfium2.raw as pdfium_c

        page = self.document[page_index]
        try:
            bitmap = pdfium.PdfBitmap.new_native(width, height, pdfium_c.FPDFBitmap_BGR, rev_byteorder=True)
            bitmap.fill_rect((255, 255, 255, 255), 0, 0, width, height)
            pdfium_c.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width, height, 0,
                                           pdfium_c.FPDF_ANNOT | pdfium_c.FPDF_REVERSE_BYTE_ORDER)
            return bitmap.to_pil().convert("RGB")  # a copy: the bitmap's buffer goes with the bitmap
        finally:
            page.close()

    def close(self) -> None:
        self.document.close()


def png_bytes(image, dpi: int) -> bytes:
    """PNG with the resolution recorded (pHYs); the same pixels always give the same bytes."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", dpi=(dpi, dpi), compress_level=6)
    return buffer.getvalue()


def rasterise_faces(faces: list[Face], wanted: dict[int, list[tuple[int, int]]], size: tuple[float, float],
                    bleed: float, reach: float, title: str) -> Iterator[tuple[tuple[int, tuple[int, int]], object]]:
    """((face index, pixel size), image) for each face index at each pixel size asked for, one at a time (a
    deck at 1200 dpi does not fit in memory as images). The faces are drawn into a PDF in memory, then pdfium
    rasterises its pages: nothing is written outside the output folder."""
    order = sorted(wanted)
    buffer = io.BytesIO()
    write_face_pages(buffer, title, faces, order, size, bleed, reach)
    raster = Raster(buffer.getvalue())
    try:
        for page, index in enumerate(order):
            for px in dict.fromkeys(wanted[index]):
                yield (index, px), raster.image(page, *px)
    finally:
        raster.close()


# ------------------------------------------------------------------------------------------------ exports

@dataclass
class DeckExport:
    """One deck's files, written to its Staging; `manifest` is written on commit, `summary` printed."""

    manifest: dict
    summary: str


def _write(staging, name: str, data: bytes, files: list[dict]) -> None:
    from ..core.files import sha256

    target = staging.path(name)
    target.write_bytes(data)
    files.append({"file": name, "sha256": sha256(target)})


def _cards_csv(rows: list[dict]) -> bytes:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]) if rows else ["number"], lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue().encode("utf-8")


def _manifest(game, deck, export: str, settings: dict, cards: list[dict], files: list[dict]) -> dict:
    from .. import __version__

    return {"game": game.id, "deck": deck.id, "export": export, "muster": __version__, **settings,
            "card_mm": list(deck.face_size), "cards": cards, "files": files}


def export_png(game, deck, laid, staging, dpi: int, bleed: float) -> DeckExport:
    """<nnn>-<id>-front.png and -back.png per distinct card, cards.csv with the counts, manifest.json."""
    rows = entries(deck, laid)
    size = png_size(deck.face_size, bleed, dpi)
    wanted = {index: [size] for row in rows for index in (row.front, row.back)}
    encoded = {index: png_bytes(image, dpi) for (index, _), image in
               rasterise_faces(laid.faces, wanted, deck.face_size, bleed, bleed, f"{game.title}: {deck.name}")}
    files: list[dict] = []
    cards = []
    for row in rows:
        front, back = f"{row.stem}-front.png", f"{row.stem}-back.png"
        _write(staging, front, encoded[row.front], files)
        _write(staging, back, encoded[row.back], files)
        cards.append({"number": row.number, "id": row.id, "title": row.title, "count": row.count,
                      "front": front, "back": back})
    _write(staging, "cards.csv", _cards_csv(cards), files)
    trim = png_size(deck.face_size, 0.0, dpi)
    settings = {"dpi": dpi, "bleed_mm": bleed, "pixels": list(size), "trim_pixels": list(trim)}
    summary = (f"{game.id}: {deck.id}: {len(rows)} cards ({deck.total} copies), {2 * len(rows)} PNGs of "
               f"{size[0]} x {size[1]} px ({dpi} dpi, {bleed:g} mm bleed; trim {trim[0]} x {trim[1]} px) "
               f"-> {staging.folder}")
    return DeckExport(_manifest(game, deck, "png", settings, cards, files), summary)


def export_pdf(game, deck, laid, staging, bleed: float) -> DeckExport:
    """<nnn>-<id>.pdf per distinct card: page 1 its front, page 2 its back; MediaBox = BleedBox, TrimBox = card."""
    from ..core.files import sha256

    rows = entries(deck, laid)
    files: list[dict] = []
    cards = []
    for row in rows:
        name = f"{row.stem}.pdf"
        target = staging.path(name)
        write_face_pages(target, f"{game.title}: {row.title}", laid.faces, [row.front, row.back], deck.face_size,
                         bleed, boxes=True)
        files.append({"file": name, "sha256": sha256(target)})
        cards.append({"number": row.number, "id": row.id, "title": row.title, "count": row.count, "file": name})
    _write(staging, "cards.csv", _cards_csv(cards), files)
    w, h = deck.face_size
    points = [round((w + 2 * bleed) * K, 3), round((h + 2 * bleed) * K, 3)]
    settings = {"bleed_mm": bleed, "page_pt": points, "trim_pt": [round(w * K, 3), round(h * K, 3)]}
    summary = (f"{game.id}: {deck.id}: {len(rows)} cards ({deck.total} copies), {len(rows)} two-page PDFs of "
               f"{w + 2 * bleed:g} x {h + 2 * bleed:g} mm (trim {w:g} x {h:g} mm) -> {staging.folder}")
    return DeckExport(_manifest(game, deck, "pdf", settings, cards, files), summary)


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
        raise MusterError(f"a TTS sheet holds 1 to {TTS_CARDS_PER_SHEET} cards, not {cards}")
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
        raise MusterError(f"deck '{deck.id}' has no cards to export")
    chunks = tts_chunks(copies)
    grid = tts_grid(deck.face_size, max(len(chunk) for chunk in chunks), dpi)  # one grid for all the deck's sheets
    unique = len(set(laid.backs)) > 1
    hidden = laid.backs[0]  # shown by TTS for cards hidden in a hand: the deck's (first) back
    needed = set(laid.fronts) | (set(laid.backs) if unique else set()) | {hidden}
    images = {index: image for (index, _), image in  # distinct faces only: at most a few sheets' worth of pixels
              rasterise_faces(laid.faces, {index: [grid.card] for index in needed}, deck.face_size, 0.0,
                              TTS_LAYOUT_BLEED, f"{game.title}: {deck.name}")}
    real_dpi = round(grid.card[0] / deck.face_size[0] * MM_PER_INCH)  # recorded in the PNGs: the cards' own

    def sheet(indices: list[int]) -> bytes:
        canvas = Image.new("RGB", grid.size, "white")
        for slot, index in enumerate(indices + [None] * (grid.columns * grid.rows - 1 - len(indices)) + [hidden]):
            if index is not None:
                x, y = (slot % grid.columns) * grid.card[0], (slot // grid.columns) * grid.card[1]
                canvas.paste(images[index], (x, y))
        return png_bytes(canvas, real_dpi)

    files: list[dict] = []
    sheets = []
    for number, chunk in enumerate(chunks, 1):
        face_name = f"{deck.id}-faces-{number}.png"
        _write(staging, face_name, sheet([laid.fronts[i] for i in chunk]), files)
        if unique:
            back_name = f"{deck.id}-backs-{number}.png"
            _write(staging, back_name, sheet([laid.backs[i] for i in chunk]), files)
        else:
            back_name = f"{deck.id}-back.png"
        sheets.append({"face": face_name, "back": back_name, "columns": grid.columns, "rows": grid.rows,
                       "cards": len(chunk), "card_pixels": list(grid.card), "sheet_pixels": list(grid.size)})
    if not unique:
        _write(staging, f"{deck.id}-back.png", png_bytes(images[hidden], real_dpi), files)
    text = tts_text(game, deck, sheets, unique)
    _write(staging, f"{deck.id}-tts.txt", text.encode("utf-8"), files)
    settings = {"dpi": dpi, "card_dpi": real_dpi, "unique_backs": unique, "sheets": sheets}
    summary = (f"{game.id}: {deck.id}: {copies} cards on {len(sheets)} TTS sheet(s) of {grid.columns} x "
               f"{grid.rows} slots ({grid.size[0]} x {grid.size[1]} px, cards {grid.card[0]} x {grid.card[1]} px) "
               f"-> {staging.folder}")
    return DeckExport(_manifest(game, deck, "tts", settings, [], files), summary)


def tts_text(game, deck, sheets: list[dict], unique: bool) -> str:
    """The numbers for TTS's Custom Deck dialog, one block per sheet."""
    w, h = deck.face_size
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


def run_export(target, deck_ids, variants, bleed: float, out: Path, kind: str,
               export: Callable[..., DeckExport], progress: Callable | None = None) -> list[str]:
    """Validates, exports every chosen deck into OUT/<game>/<kind>/<deck>/ (`export(game, deck, laid, staging)`
    writes through the deck's Staging), and moves the files into place together once all are written.
    `progress(decks, label)`, when given, wraps the decks in a context that reports them as they are done.
    Returns the summary lines."""
    from contextlib import nullcontext

    from ..building.staging import Staging

    game, decks, laid = prepare(target, deck_ids, bleed, variants)
    staged: list[tuple[Staging, DeckExport]] = []
    bar = progress(decks, f"Exporting {game.id}") if progress else nullcontext(decks)
    try:
        with bar as chosen:
            for deck in chosen:
                staging = Staging(out / game.id / kind / deck.id)
                staged.append((staging, None))
                staged[-1] = (staging, export(game, deck, laid[deck.id], staging))
        for staging, item in staged:
            staging.commit(item.manifest)
    finally:
        for staging, _ in staged:
            staging.discard()
    return [item.summary for _, item in staged]
