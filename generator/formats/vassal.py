"""The VASSAL module: OUT/<game>/vassal/<game>.vmod, a zip of buildFile.xml, moduledata and images/, holding the
boards as a map with their grid, the counters as pieces that flip to their backs, the card decks as draw piles,
and the rulebook under Help.

The format followed is VASSAL 3.7's (VASSAL_VERSION, as a real module's buildFile.xml declares it): element names
are the engine's class names, attribute names its attribute keys. Where each name was seen is in
tests/test_vassal.py (NAMES). Piece definitions use the engine's trait encoding: `piece;;;<image>;<name>` the
BasicPiece, `emb2;...` a Layer (Embellishment, fields in the order of its myGetType), `obs;...` a Mask (Obscurable)
that shows a card's back while it is face down in a deck.

Geometry: every picture is drawn at DPI, so a board's pixels and its counters' pixels share one scale, and a grid
cell's centre on the printed map is at the same pixel as in VASSAL's grid (grid_attributes)."""

from __future__ import annotations

import io
import zipfile
from xml.etree import ElementTree

from ..core.errors import MusterError
from ..core.geometry import HexGrid, number_digits
from ..core.units import MM_PER, paper_size
from .exports import board_image, card_images, pixels as exported_pixels

VASSAL_VERSION = "3.7.9"
LAYOUT_BLEED = 3.0           # mm the faces are laid out with, so that a piece's edge pixels are fully covered
DPI = 150                    # pixels per inch of every image: boards, counters and cards at their printed size
MM_PER_INCH = MM_PER["in"]
MODULE = "VASSAL.build.GameModule"
BOARD = "VASSAL.build.module.map.boardPicker.Board"
GRIDS = {"square": "VASSAL.build.module.map.boardPicker.board.SquareGrid",
         "hex": "VASSAL.build.module.map.boardPicker.board.HexGrid"}
NUMBERINGS = {"square": "VASSAL.build.module.map.boardPicker.board.mapgrid.SquareGridNumbering",
              "hex": "VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering"}
FLIP_KEY = "70,130"          # Ctrl+F as a NamedKeyStroke (key code 70, modifiers 130), as real modules write keys
TABLE_GAP = 20               # px between decks on the card table


def pixels(mm: float) -> float:
    return mm / MM_PER_INCH * DPI


def plain(text: str) -> str:
    """A name as the trait encoding can carry it unescaped: no ; / \\ tab or comma."""
    return " ".join(text.replace(";", " ").replace("/", " ").replace("\\", " ").replace(",", " ").split())


def hex_shift(grid) -> int:
    """1 when VASSAL's grid starts a line before the first: VASSAL pushes only the lines of odd index (odd columns
    lower; sideways, odd rows further right), so an even offset is an odd one counted from line -1."""
    return 1 if grid.offset == "even" else 0


def grid_attributes(grid) -> dict:
    """VASSAL's grid for a board grid, in pixels at DPI. The origin (x0, y0) is the centre of VASSAL's cell 0: a
    square grid's first cell, cells dx x dy. A hex grid has lines dx apart of hexes dy across, its odd lines dy/2
    along (HexGrid.hexY); flat tops are columns (sideways false), pointy tops rows (sideways true: VASSAL swaps x
    and y, the origin's and every point's, HexGrid.rotateIfSideways)."""
    if grid.shape == "square":
        step = pixels(grid.cell)
        origin = (pixels(grid.margin + grid.cell / 2), pixels(grid.margin + grid.cell / 2))
        spacing = (step, step)
    else:
        hexes = HexGrid(grid.cell, grid.orientation, grid.offset, grid.margin, grid.margin)
        sideways = grid.orientation == "pointy"
        x, y = hexes.centre(0, -hex_shift(grid)) if sideways else hexes.centre(-hex_shift(grid), 0)
        origin = (pixels(y), pixels(x)) if sideways else (pixels(x), pixels(y))
        spacing = (pixels(1.5 * hexes.radius), pixels(grid.cell))
    attributes = {"x0": str(round(origin[0])), "y0": str(round(origin[1])),
                  "dx": f"{spacing[0]:.4f}", "dy": f"{spacing[1]:.4f}",
                  "snapTo": "true", "visible": "false", "color": "0,0,0"}
    if grid.shape == "hex":
        attributes["sideways"] = "true" if sideways else "false"
    return attributes


def numbering(grid, board: str) -> dict:
    """Cells named as Muster names them (RegularGridNumbering.getName): column letters then the row ("C4"), or
    column then row zero-padded ("0304": hLeading/vLeading are the zeros a number may get), each counted from the
    grid's first column and row (hOff/vOff: the number of line 0, "1701" for a map that starts there). VASSAL's
    h keys number its columns, v keys its rows; sideways, its columns are the map's rows, so the map's columns
    take the v keys and come first with first="V". No stagger: VASSAL numbers a hex by its line, as Muster does."""
    if grid.numbering == "letter" and grid.columns + grid.first[0] - 1 > 26:
        raise MusterError(f"{board}: VASSAL names the columns after Z AA, BB, ..., the map AA, AB; use numbering "
                          f"\"0101\" for a grid of {grid.columns} columns",
                          code="vassal-numbering")
    sideways = grid.shape == "hex" and grid.orientation == "pointy"
    shift = hex_shift(grid) if grid.shape == "hex" else 0
    column_shift, row_shift = (0, shift) if sideways else (shift, 0)
    first_column, first_row = grid.first
    if grid.numbering == "letter":
        kinds, offsets, zeros = ("A", "N"), (first_column - 1 - column_shift, first_row - row_shift), (0, 0)
    else:
        kinds, offsets = ("N", "N"), (first_column - column_shift, first_row - row_shift)
        zeros = tuple(number_digits(count + first - 1) - 1 for count, first in ((grid.columns, first_column),
                                                                                 (grid.rows, first_row)))
    keys = dict(zip(("column", "row"), ("v", "h") if sideways else ("h", "v")))
    by_axis = {keys[line]: values for line, values in zip(("column", "row"), zip(kinds, offsets, zeros))}
    attributes = {"first": "V" if sideways else "H", "hType": by_axis["h"][0], "vType": by_axis["v"][0],
                  "hOff": str(by_axis["h"][1]), "vOff": str(by_axis["v"][1]), "sep": "",
                  "hLeading": str(by_axis["h"][2]), "vLeading": str(by_axis["v"][2]), "hDescend": "false",
                  "vDescend": "false", "visible": "false"}
    if grid.shape == "hex":
        attributes["stagger"] = "false"
    return attributes


def flip_layer(back: str) -> str:
    """A Layer (emb2) whose one level is the back image, switched on by Flip (Ctrl+F): the fields of
    Embellishment.myGetType, version 1 (NamedKeyStrokes)."""
    fields = ["Flip", "130", "F", "", "130", "", "", "130", "", "", "", "1", "false", "0", "0", back, "", "true",
              "Back", "", "", "false", "", "1", "1", "false", FLIP_KEY, "", "", "Flip to the back"]
    return "emb2;" + ";".join(fields)


def mask(back: str) -> str:
    """A Mask (obs) showing the back image while the card is face down (Obscurable.myGetType's first fields)."""
    return f"obs;{FLIP_KEY};{back};Flip;I;?"


def piece_definition(front: str, name: str, gpid: int, outer: str) -> str:
    """The AddPiece command a slot holds: `+/null/<outer trait>\\tpiece;;;<front>;<name>/<states>`."""
    state = "-1" if outer.startswith("emb2;") else "null;"
    return f"+/null/{outer}\tpiece;;;{front};{plain(name)}/{state}\tnull;0;0;{gpid};0"


class Module:
    """The buildFile's tree, the images, and the next piece id."""

    def __init__(self, game):
        self.root = ElementTree.Element(MODULE, {"VassalVersion": VASSAL_VERSION, "name": game.title,
                                                 "version": "1.0", "description": game.summary or game.title,
                                                 "nextPieceSlotId": "0"})
        ElementTree.SubElement(self.root, "VASSAL.build.module.BasicCommandEncoder")
        self.images: dict[str, bytes] = {}
        self.gpid = 0

    def next_id(self) -> int:
        self.gpid += 1
        self.root.set("nextPieceSlotId", str(self.gpid + 1))
        return self.gpid

    def slot(self, parent, tag: str, name: str, front: str, outer: str, size: tuple[int, int]) -> None:
        gpid = self.next_id()
        element = ElementTree.SubElement(parent, tag, {"entryName": plain(name), "gpid": str(gpid),
                                                       "width": str(size[0]), "height": str(size[1])})
        element.text = piece_definition(front, name, gpid, outer)


def face_images(module: Module, game, deck, laid) -> tuple[list, tuple[int, int]]:
    """images/<deck>-<nnn>-<id>-front.png and -back.png per distinct card at DPI. Returns (entry, front, back)
    rows and the pixel size."""
    size = tuple(max(1, exported_pixels(side, DPI)) for side in deck.face_size)
    result = []
    for row, front_png, back_png in card_images(game, deck, laid, size, DPI, LAYOUT_BLEED):
        front, back = f"{deck.id}-{row.stem}-front.png", f"{deck.id}-{row.stem}-back.png"
        module.images[front], module.images[back] = front_png, back_png
        result.append((row, front, back))
    return result, size


def add_boards(module: Module, game) -> None:
    """One map of the game's boards, each a Board of the BoardPicker with its image and grid."""
    if not game.boards:
        return
    map_element = ElementTree.SubElement(module.root, "VASSAL.build.module.Map",
                                         {"mapName": "Map", "buttonName": "Map", "allowMultiple": "false"})
    picker = ElementTree.SubElement(map_element, "VASSAL.build.module.map.BoardPicker",
                                    {"title": "Choose boards", "boardPrompt": "Select board"})
    for board in game.boards.values():
        data, _ = board_image(game, board, DPI)
        name = f"board-{board.id}.png"
        module.images[name] = data
        element = ElementTree.SubElement(picker, BOARD, {"name": board.name, "image": name, "reversible": "false"})
        if board.grid is not None:
            grid = ElementTree.SubElement(element, GRIDS[board.grid.shape], grid_attributes(board.grid))
            ElementTree.SubElement(grid, NUMBERINGS[board.grid.shape],
                                   numbering(board.grid, f"{game.id}: board {board.id}"))


def add_decks(module: Module, game, decks, laid, progress=None) -> None:
    """Counter sets as lists of a piece palette, each counter flipping to its back; card decks as face-down
    draw piles on a card table of their own, shuffled, each card masked by its back. `progress(decks, label)`
    reports the decks as they are drawn, as for the other exports."""
    from contextlib import nullcontext

    from PIL import Image

    palette = None
    piles = []
    with (progress(decks, f"Exporting {game.id}") if progress else nullcontext(decks)) as chosen:
        for deck in chosen:
            rows, size = face_images(module, game, deck, laid[deck.id])
            if deck.component != "tokens":
                piles.append((deck, rows, size))
                continue
            if palette is None:
                palette = ElementTree.SubElement(module.root, "VASSAL.build.module.PieceWindow", {"name": "Counters"})
            group = ElementTree.SubElement(palette, "VASSAL.build.widget.ListWidget", {"entryName": deck.name})
            for row, front, back in rows:
                module.slot(group, "VASSAL.build.widget.PieceSlot", row.title or row.id, front, flip_layer(back),
                            size)
    if not piles:
        return
    width = sum(size[0] + TABLE_GAP for _, _, size in piles) + TABLE_GAP
    height = max(size[1] for _, _, size in piles) + 2 * TABLE_GAP
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (226, 232, 222)).save(buffer, format="PNG")
    module.images["table.png"] = buffer.getvalue()
    table = ElementTree.SubElement(module.root, "VASSAL.build.module.Map",
                                   {"mapName": "Cards", "buttonName": "Cards", "allowMultiple": "false"})
    picker = ElementTree.SubElement(table, "VASSAL.build.module.map.BoardPicker", {"title": "Card table"})
    ElementTree.SubElement(picker, BOARD, {"name": "Card table", "image": "table.png", "reversible": "false"})
    x = TABLE_GAP
    for deck, rows, size in piles:
        pile = ElementTree.SubElement(table, "VASSAL.build.module.map.DrawPile", {
            "name": deck.name, "owningBoard": "Card table", "x": str(x + size[0] // 2), "y": str(height // 2),
            "width": str(size[0]), "height": str(size[1]), "faceDown": "Always", "shuffle": "Always",
            "draw": "true", "reshufflable": "false", "allowMultiple": "false", "allowSelect": "false"})
        for row, front, back in rows:
            for _ in range(row.count):
                module.slot(pile, "VASSAL.build.widget.CardSlot", row.title or row.id, front, mask(back), size)
        x += size[0] + TABLE_GAP


def add_rulebook(module: Module, game) -> bytes | None:
    """The rulebook typeset as for the kit, attached under Help as a PDF the browser opens."""
    if game.rulebook is None:
        return None
    from ..building.sequence import rulebook_figures
    from ..layout.rulebook import render_text
    from ..rendering.rulebook_pdf import typeset_rulebook

    text = render_text(game)
    pdf, _ = typeset_rulebook(game, text.markdown, paper_size(game.rulebook.paper or "a4"), None,
                              rulebook_figures(game, text.markdown))
    documentation = ElementTree.SubElement(module.root, "VASSAL.build.module.Documentation")
    ElementTree.SubElement(documentation, "VASSAL.build.module.documentation.BrowserPDFFile",
                           {"pdfFile": "rules.pdf", "title": "Rules"})
    return pdf


def moduledata(game) -> bytes:
    """The module's short description, read before the build file: name, version, VASSAL version."""
    root = ElementTree.Element("data", {"version": "1"})
    for tag, value in (("version", "1.0"), ("VassalVersion", VASSAL_VERSION), ("name", game.title),
                       ("description", game.summary or game.title)):
        ElementTree.SubElement(root, tag).text = value
    return b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + ElementTree.tostring(root, "utf-8")


def vmod_bytes(game, decks, laid, progress=None) -> tuple[bytes, dict]:
    """The .vmod's bytes, deterministic (fixed dates, sorted entries), and what it holds."""
    module = Module(game)
    rules = add_rulebook(module, game)
    add_boards(module, game)
    add_decks(module, game, decks, laid, progress)
    if len(module.root) == 1 + (rules is not None):
        raise MusterError(f"{game.id}: no boards or decks to put in a VASSAL module")
    ElementTree.indent(module.root)
    build = (b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
             + ElementTree.tostring(module.root, "utf-8") + b"\n")
    files = {"buildFile.xml": build, "moduledata": moduledata(game),
             **{f"images/{name}": data for name, data in sorted(module.images.items())}}
    if rules is not None:
        files["rules.pdf"] = rules
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return buffer.getvalue(), {"pieces": module.gpid, "images": len(module.images), "rules": rules is not None}


def export_vassal(target, deck_ids, variants, out, progress=None, sets=(), deck_list=None) -> str:
    """Validates the game and writes OUT/<game>/vassal/<game>.vmod with its manifest.json; every deck by
    default, counters included. Returns the summary line."""
    from .. import __version__
    from ..building.staging import Staging
    from ..core.files import sha256
    from .exports import prepare

    game, decks, laid = prepare(target, deck_ids, LAYOUT_BLEED, variants, every=True, sets=sets, deck_list=deck_list)
    data, held = vmod_bytes(game, decks, laid, progress)
    staging = Staging(out, game.id, "vassal")
    try:
        name = f"{game.id}.vmod"
        target_file = staging.path(name)
        target_file.write_bytes(data)
        staging.commit({"game": game.id, "export": "vassal", "muster": __version__, "vassal": VASSAL_VERSION,
                        "dpi": DPI, **held, "files": [{"file": name, "sha256": sha256(target_file)}]})
    finally:
        staging.discard()
    return (f"{game.id}: VASSAL module {game.id}.vmod ({VASSAL_VERSION}): {len(game.boards)} board(s), "
            f"{held['pieces']} piece(s), {held['images']} image(s){', rules under Help' if held['rules'] else ''}"
            f" -> {staging.folder}")
