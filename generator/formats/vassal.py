"""The VASSAL module: OUT/<game>/vassal/<game>.vmod, a zip of buildFile.xml, moduledata and images/, that a group
can play: the boards as a map with their grid, a table with the kit's counters in stacks, the card decks as draw
piles with a discard spot each, a hand per player, a counter palette, the game's dice, the rulebook under Help.

The format followed is VASSAL 3.7's (VASSAL_VERSION, as a real module's buildFile.xml declares it): element names
are the engine's class names, attribute names its attribute keys, in the order VASSAL needs (GlobalOptions before
the maps, or the first map is never shown). Where each name was seen is in tests/formats/test_vassal.py (NAMES). Piece
definitions use the engine's trait encoding (each trait's fields joined as its myGetType joins them, traits nested
as Decorator.getType nests them), every value through `encoded`, VASSAL's SequenceEncoder: `piece;;;<image>;<name>`
the BasicPiece, `emb2;...` a Layer (Embellishment), `obs;...` a Mask (Obscurable) that shows a card's back while it
is face down, `prototype;<name>` the traits a PrototypeDefinition holds. Every text reaches the XML through
`xml_safe`.

Geometry: every picture is drawn at DPI, so a board's pixels and its counters' pixels share one scale, and a grid
cell's centre on the printed map is at the same pixel as in VASSAL's grid (grid_attributes)."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path
from xml.etree import ElementTree

from ..core import codes
from ..core.errors import MusterError
from ..core.units import paper_size
from ..rendering.raster import encoded, png_bytes, rasterise_faces
from .exports import board_image, entries, pixels as exported_pixels
from .vassal_grid import DPI, grid_attributes, numbering
from .vassal_pieces import (
    DISCARD_KEY, FLIP_KEY, RETURN_KEY, add_piece, basic_piece, delete, flip_layer, mask, piece_definition, prototype,
    report, return_to, send_to, xml_bytes,
)

VASSAL_VERSION = "3.7.9"
LAYOUT_BLEED = 3.0           # mm the faces are laid out with, so that a piece's edge pixels are fully covered
MODULE = "VASSAL.build.GameModule"
BOARD = "VASSAL.build.module.map.boardPicker.Board"
GRIDS = {"square": "VASSAL.build.module.map.boardPicker.board.SquareGrid",
         "hex": "VASSAL.build.module.map.boardPicker.board.HexGrid"}
NUMBERINGS = {"square": "VASSAL.build.module.map.boardPicker.board.mapgrid.SquareGridNumbering",
              "hex": "VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering"}
COUNTER = "Counter"          # the prototype every counter uses
TABLE = "Table"              # the map, and its one board, every module has
DECKS = "Decks"              # the map, and its one board, of a game's card decks
TABLE_GAP = 20               # px between decks, piles and counter stacks on the table
MIN_TABLE = (1200, 800)      # px: the smallest table, room to play cards and counters beside the decks
TABLE_COLOUR = "226,232,222"
HAND_COLOUR = "214,222,230"
LABEL_COLOUR = (90, 96, 88)  # the outline and label of a discard spot on the Decks board
LABEL_FONT, LABEL_SIZE = "DejaVuSansCondensed-Bold.ttf", 24  # a bundled font: the same pixels everywhere
HAND_CARDS = 8               # cards a hand's window shows side by side
MAX_PLAYERS = 8              # hands a module gets at most, whatever `players:` says
GLOBAL_OPTIONS = {"autoReport": "Always", "centerOnMove": "Always", "nonOwnerUnmaskable": "Never",
                  "playerIdFormat": "$PlayerName$", "promptString": "Opponents can unmask my pieces",
                  "chatterHTMLSupport": "Never", "hotKeysOnClosedWindows": "Never", "inventoryForAll": "Always"}
# What Map.build gives a brand-new map, in its order (VASSAL adds GlobalProperties, SelectionHighlighters,
# HighlightLastMoved and Flare to any map itself), then a Zoomer. Attributes as a module saved by 3.7.9 has them.
STANDARD_COMPONENTS = (
    ("ForwardToKeyBuffer", {}), ("Scroller", {}), ("ForwardToChatter", {}), ("MenuDisplayer", {}),
    ("MapCenterer", {}), ("StackExpander", {}), ("PieceMover", {}), ("KeyBufferer", {}),
    ("ImageSaver", {"buttonText": "", "hotkey": "", "icon": "/images/camera.gif", "tooltip": "Save Map as PNG image"}),
    ("CounterDetailViewer", {"version": "4", "delay": "700", "display": "from top-most layer only",
                             "showgraph": "true", "showtext": "false", "graphicsZoom": "1.0", "zoomlevel": "1.0",
                             "minDisplayPieces": "0", "showNoStack": "false", "showDeck": "false",
                             "showNonMovable": "false", "showMoveSelectde": "false", "hotkey": "32,130",
                             "counterReportFormat": "$PieceName$", "summaryReportFormat": "$LocationName$",
                             "emptyHexReportForma": "$LocationName$", "fontSize": "9", "bgColor": "255,255,255",
                             "fgColor": "0,0,0", "borderColor": "0,0,0", "borderWidth": "10"}),
    ("Zoomer", {"zoomLevels": "0.5,0.75,1.0,1.5,2.0", "zoomStart": "3", "zoomInKey": "61,130",
                "zoomOutKey": "45,130", "zoomPickKey": "", "inTooltip": "Zoom in", "outTooltip": "Zoom out",
                "pickTooltip": "Select zoom", "inButtonText": "", "outButtonText": "", "pickButtonText": "",
                "inIconName": "/images/zoomIn.gif", "outIconName": "/images/zoomOut.gif",
                "pickIconName": "/images/zoom.png"}),
)


def entry(name: str) -> zipfile.ZipInfo:
    """A zip entry of fixed date, so that the same game gives the same bytes."""
    return zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0))


class Module:
    """The buildFile's tree, the zip its images are written into as they are drawn, and the next piece id."""

    def __init__(self, game, archive: zipfile.ZipFile):
        self.root = ElementTree.Element(MODULE, {"VassalVersion": VASSAL_VERSION, "name": game.title,
                                                 "version": "1.0", "description": game.summary or game.title,
                                                 "nextPieceSlotId": "0"})
        ElementTree.SubElement(self.root, "VASSAL.build.module.BasicCommandEncoder")
        self.archive = archive
        self.images = 0
        self.gpid = 0

    def image(self, name: str, data: bytes) -> str:
        """Writes a PNG as images/<name>, stored as it is (PNG is compressed already). Returns the name."""
        self.archive.writestr(entry(f"images/{name}"), data, zipfile.ZIP_STORED)
        self.images += 1
        return name

    def next_id(self) -> int:
        self.gpid += 1
        self.root.set("nextPieceSlotId", str(self.gpid + 1))
        return self.gpid

    def slot(self, parent, tag: str, name: str, front: str, traits: list[tuple[str, str]],
             size: tuple[int, int]) -> None:
        gpid = self.next_id()
        element = ElementTree.SubElement(parent, tag, {"entryName": name, "gpid": str(gpid),
                                                       "width": str(size[0]), "height": str(size[1])})
        element.text = piece_definition(front, name, gpid, traits)


def face_images(module: Module, game, deck, laid) -> tuple[list, tuple[int, int]]:
    """images/<deck>-<nnn>-<id>-front.png and -back.png at DPI, cut at the trim, one per distinct face (a back
    several cards share is written once, named after the first), each written as soon as it is drawn so that a
    deck's images are never all in memory. Returns (entry, front, back) rows and the pixel size; a card without a
    back of its own shows its front on both sides."""
    size = tuple(max(1, exported_pixels(side, DPI)) for side in deck.format.face_size)
    rows = entries(deck, laid)
    names: dict[int, str] = {}
    for row in rows:
        names.setdefault(row.front, f"{deck.id}-{row.stem}-front.png")
    for row in rows:
        names.setdefault(row.front if row.back is None else row.back, f"{deck.id}-{row.stem}-back.png")
    faces = rasterise_faces(laid.faces, {index: [size] for index in names}, deck.format.face_size, 0.0, LAYOUT_BLEED,
                            f"{game.title}: {deck.name}", deck.where, Path(module.archive.filename).parent)
    for (index, _), data in encoded(faces, png_bytes, DPI):
        module.image(names[index], data)
    return [(row, names[row.front], names[row.front if row.back is None else row.back]) for row in rows], size


def map_element(parent, tag: str, name: str, attributes: dict | None = None) -> ElementTree.Element:
    """A Map (or PlayerHand) named `name`, its toolbar button too."""
    return ElementTree.SubElement(parent, tag, {"mapName": name, "buttonName": name, "allowMultiple": "false",
                                                **(attributes or {})})


def map_components(element: ElementTree.Element) -> None:
    """What VASSAL gives a brand-new map (Map.build without an element), after the map's BoardPicker and in its
    order, and a Zoomer. A map built from XML gets only the components the XML lists: without these nothing on it
    can be moved, selected or opened."""
    for tag, attributes in STANDARD_COMPONENTS:
        ElementTree.SubElement(element, "VASSAL.build.module.map." + tag, attributes)


def board_picker(element, title: str, boards: list[dict]) -> None:
    picker = ElementTree.SubElement(element, "VASSAL.build.module.map.BoardPicker", {"title": title,
                                                                                    "boardPrompt": "Select board"})
    for attributes in boards:
        ElementTree.SubElement(picker, BOARD, attributes)


def vassal_board_image(game, board) -> bytes:
    """The board's image at DPI. A board too large to draw is refused with what to do about it: VASSAL's export
    has no resolution to lower (its pieces and boards share DPI), so the board must be smaller or split."""
    try:
        return board_image(game, board, DPI)[0]
    except MusterError as problem:
        if problem.code != "raster-too-big":
            raise
        raise MusterError(f"board {board.id}: {board.size[0]:g} x {board.size[1]:g} mm is too large for a VASSAL "
                          f"module, whose boards are drawn at {DPI} dpi ({problem.message.split(' (')[0]}); make "
                          "it smaller or split it into several boards", problem.where, "size",
                          "raster-too-big") from None


def add_boards(module: Module, game) -> None:
    """One map of the game's boards, each a Board of the BoardPicker with its image and grid."""
    if not game.boards:
        return
    element = map_element(module.root, "VASSAL.build.module.Map", "Map")
    picker = ElementTree.SubElement(element, "VASSAL.build.module.map.BoardPicker",
                                    {"title": "Choose boards", "boardPrompt": "Select board"})
    for board in game.boards.values():
        data = vassal_board_image(game, board)
        name = module.image(f"board-{board.id}.png", data)
        board_element = ElementTree.SubElement(picker, BOARD, {"name": board.name, "image": name,
                                                               "reversible": "false"})
        if board.grid is not None:
            grid = ElementTree.SubElement(board_element, GRIDS[board.grid.shape], grid_attributes(board.grid))
            ElementTree.SubElement(grid, NUMBERINGS[board.grid.shape],
                                   numbering(board.grid, f"{game.id}: board {board.id}"))
    map_components(element)


def sides(game) -> list[str]:
    """A side per player, as many as the most players game.yaml's `players:` names ("2", "2-4"; 2 when it names
    none): Player 1, Player 2, ..."""
    numbers = [int(number) for number in re.findall(r"\d{1,3}", str(game.players))]
    return [f"Player {number}" for number in range(1, min(max(numbers, default=2), MAX_PLAYERS) + 1)]


def add_prototypes(module: Module, piles: list, spots: dict, words: dict) -> None:
    """What pieces share, once: a counter's Delete and report; each deck's cards' discard, return and report.
    `spots`: the point of each card deck's discard pile on the Decks map, by deck id; `words`: the game's fixed
    words in the language built (the commands' names)."""
    container = ElementTree.SubElement(module.root, "VASSAL.build.module.PrototypesContainer")
    definitions = [(COUNTER, [(delete(), ""), (report(FLIP_KEY), "")])]
    for deck, _, _ in piles:
        x, y = spots[deck.id]
        definitions.append((card_prototype(deck), [
            (report(FLIP_KEY, DISCARD_KEY, RETURN_KEY), ""),
            (send_to(words["discard"], DISCARD_KEY, DECKS, x, y), ";;"),
            (return_to(f"{words['return_to']} {deck.name}", RETURN_KEY, deck.name), "")]))
    for name, traits in definitions:
        element = ElementTree.SubElement(container, "VASSAL.build.module.PrototypeDefinition",
                                         {"name": name, "description": ""})
        element.text = add_piece(traits, basic_piece("", ""), "null;0;0;;0")


def card_prototype(deck) -> str:
    return f"Card: {deck.name}"


def counter_traits(back: str) -> list[tuple[str, str]]:
    return [(prototype(COUNTER), ""), (flip_layer(back), "-1")]


def draw_faces(module: Module, game, decks, laid, progress=None) -> tuple[list, list]:
    """Every deck's images drawn: (deck, rows, size) of the counter sets and of the card decks. `progress(decks,
    label)` reports the decks as they are drawn, as for the other exports."""
    from contextlib import nullcontext

    counters, piles = [], []
    with (progress(decks, f"Exporting {game.id}") if progress else nullcontext(decks)) as chosen:
        for deck in chosen:
            rows, size = face_images(module, game, deck, laid[deck.id])
            (counters if deck.format.component == "tokens" else piles).append((deck, rows, size))
    return counters, piles


def add_palette(module: Module, counters: list) -> None:
    """Counter sets as lists of a piece palette, each counter flipping to its back."""
    if not counters:
        return
    palette = ElementTree.SubElement(module.root, "VASSAL.build.module.PieceWindow", {"name": "Counters"})
    for deck, rows, size in counters:
        group = ElementTree.SubElement(palette, "VASSAL.build.widget.ListWidget", {"entryName": deck.name})
        for row, front, back in rows:
            module.slot(group, "VASSAL.build.widget.PieceSlot", row.title or row.id, front, counter_traits(back), size)


def board_map(module: Module, name: str, size: tuple[int, int], colour: str, tag: str = "VASSAL.build.module.Map",
              attributes: dict | None = None, image: str = "") -> ElementTree.Element:
    """A map of one plain board of `size` px (a colour, or an image), with the standard components."""
    element = map_element(module.root, tag, name, attributes)
    board = {"name": name, "image": image} if image else {"name": name, "width": str(size[0]),
                                                             "height": str(size[1]), "color": colour}
    board_picker(element, name, [{**board, "reversible": "false"}])
    map_components(element)
    return element


def add_table(module: Module, counters: list, piles: list) -> None:
    """The table every game gets, a plain board with room to play cards and counters on; along its top the
    counters of the kit, a stack of each counter's copies (as many as its sheet prints). Nothing on it is a deck,
    so that anything can be put down anywhere."""
    card = (max((size[0] for _, _, size in piles), default=0), max((size[1] for _, _, size in piles), default=0))
    width = max(MIN_TABLE[0], HAND_CARDS * (card[0] + TABLE_GAP) + TABLE_GAP)
    stacks, x, y, line = [], TABLE_GAP, TABLE_GAP, 0
    for deck, rows, size in counters:
        for row, front, back in rows:
            if x + size[0] + TABLE_GAP > width and x > TABLE_GAP:
                x, y, line = TABLE_GAP, y + line + TABLE_GAP, 0
            stacks.append((row, front, back, size, x + size[0] // 2, y + size[1] // 2))
            x, line = x + size[0] + TABLE_GAP, max(line, size[1])
    height = max(MIN_TABLE[1], y + line + 2 * (card[1] + 2 * TABLE_GAP))
    table = board_map(module, TABLE, (width, height), TABLE_COLOUR)
    for row, front, back, size, cx, cy in stacks:
        stack = ElementTree.SubElement(table, "VASSAL.build.module.map.SetupStack", {
            "name": row.title or row.id, "owningBoard": TABLE, "x": str(cx), "y": str(cy),
            "useGridLocation": "false", "location": ""})
        for _ in range(row.count):
            module.slot(stack, "VASSAL.build.widget.PieceSlot", row.title or row.id, front, counter_traits(back),
                        size)


def discard_spots(piles: list) -> dict:
    """Where each deck's draw pile and discard pile lie on the Decks map: the pile's centre x for the deck, the
    discard's (x, y) beside it, a row along the top."""
    height = max((size[1] for _, _, size in piles), default=0)
    spots, x = {}, TABLE_GAP
    for deck, _, size in piles:
        spots[deck.id] = (x + size[0] + TABLE_GAP + size[0] // 2, TABLE_GAP + height // 2)
        x += 2 * (size[0] + TABLE_GAP)
    return spots


def add_decks(module: Module, piles: list, spots: dict, words: dict) -> None:
    """The Decks map, for a game of cards: each deck's draw pile (face down, shuffled on every draw, each card
    masked by its back) and beside it the spot its discards go to (outlined on the board: Discard, Ctrl+D, sends
    a card there; Return to the deck, Ctrl+R, on the discards shuffles them back in), with room below to draw
    cards to. The spots' label is the fixed word `discards` in the language built."""
    from PIL import Image, ImageDraw, ImageFont

    from ..core.bundle import fonts_dir

    if not piles:
        return
    card_height = max(size[1] for _, _, size in piles)
    width = max(2 * sum(size[0] + TABLE_GAP for _, _, size in piles) + TABLE_GAP, MIN_TABLE[0])
    height = 2 * card_height + 4 * TABLE_GAP
    picture = Image.new("RGB", (width, height), tuple(int(part) for part in TABLE_COLOUR.split(",")))
    pen = ImageDraw.Draw(picture)
    font = ImageFont.truetype(str(fonts_dir() / LABEL_FONT), LABEL_SIZE)
    for deck, _, size in piles:
        x, y = spots[deck.id]
        pen.rectangle((x - size[0] // 2, y - size[1] // 2, x + size[0] // 2, y + size[1] // 2), outline=LABEL_COLOUR,
                      width=3)
        pen.text((x, y), words["discards"], fill=LABEL_COLOUR, font=font, anchor="mm")
    buffer = io.BytesIO()
    picture.save(buffer, format="PNG")
    decks = board_map(module, DECKS, (width, height), TABLE_COLOUR, image=module.image("decks.png",
                                                                                       buffer.getvalue()))
    for deck, rows, size in piles:
        x, y = spots[deck.id]
        pile = ElementTree.SubElement(decks, "VASSAL.build.module.map.DrawPile", {
            "name": deck.name, "owningBoard": DECKS, "x": str(x - size[0] - TABLE_GAP), "y": str(y),
            "width": str(size[0]), "height": str(size[1]), "faceDown": "Always", "shuffle": "Always",
            "draw": "true", "reshufflable": "false", "allowMultiple": "true", "allowSelect": "false",
            "drawFaceUp": "false", "shuffleCommand": "Shuffle"})
        traits = [(prototype(card_prototype(deck)), "")]
        for row, front, back in rows:
            for _ in range(row.count):
                module.slot(pile, "VASSAL.build.widget.CardSlot", row.title or row.id, front,
                            traits + [(mask(back), "null;")], size)


def add_hands(module: Module, sides: list[str], piles: list) -> None:
    """A hand per side: a PlayerHand only that side can take cards from, which everyone sees (a card drawn from a
    face-down deck stays masked to all but who drew it)."""
    if not sides:
        return
    width = max(size[0] for _, _, size in piles) * HAND_CARDS + (HAND_CARDS + 1) * TABLE_GAP
    height = max(size[1] for _, _, size in piles) + 2 * TABLE_GAP
    for side in sides:
        hand = map_element(module.root, "VASSAL.build.module.PlayerHand", f"{side} hand",
                           {"side": side, "visible": "true"})
        board_picker(hand, "Hand", [{"name": f"{side} hand", "width": str(width), "height": str(height),
                                     "color": HAND_COLOUR, "reversible": "false"}])
        map_components(hand)


def add_roster(module: Module, sides: list[str]) -> None:
    """The sides players take (PlayerRoster), before the maps, as a module VASSAL saves has it."""
    if not sides:
        return
    roster = ElementTree.SubElement(module.root, "VASSAL.build.module.PlayerRoster",
                                    {"buttonText": "Retire", "buttonToolTip": "Let another player take your side"})
    for side in sides:
        ElementTree.SubElement(roster, "entry").text = side


def add_dice(module: Module, game) -> None:
    """A toolbar button per kind of roll the game declares (game.yaml `dice:`, "2d6")."""
    for count, sides in game.dice:
        ElementTree.SubElement(module.root, "VASSAL.build.module.DiceButton", {
            "name": f"{count}d{sides}", "text": f"{count}d{sides}", "tooltip": f"Roll {count}d{sides}",
            "nDice": str(count), "nSides": str(sides), "plus": "0", "addToTotal": "0", "reportTotal": "false",
            "prompt": "false", "reportFormat": "** $name$ = $result$ *** <$PlayerName$>", "hotkey": "", "icon": ""})


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
    return xml_bytes(root)


def write_vmod(game, decks, laid, path, progress=None) -> dict:
    """Writes the .vmod to `path`, deterministic (fixed dates, entries in drawing order), and returns what it
    holds. The images go into the zip as they are drawn, the build file last. The build file's order is VASSAL's:
    the roster and GlobalOptions before the maps, so that the first map is docked in the main window and shown at
    New Game; the prototypes before the pieces that use them."""
    if not decks and not game.boards:
        raise MusterError.of(codes.VASSAL_EMPTY, game=game.id)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        module = Module(game, archive)
        rules = add_rulebook(module, game)
        counters, piles = draw_faces(module, game, decks, laid, progress)
        players = sides(game) if piles else []
        add_roster(module, players)
        ElementTree.SubElement(module.root, "VASSAL.build.module.GlobalOptions", GLOBAL_OPTIONS)
        spots = discard_spots(piles)
        add_prototypes(module, piles, spots, game.words)
        add_boards(module, game)
        add_table(module, counters, piles)
        add_decks(module, piles, spots, game.words)
        add_hands(module, players, piles)
        add_palette(module, counters)
        add_dice(module, game)
        if rules is not None:
            archive.writestr(entry("rules.pdf"), rules)
        archive.writestr(entry("moduledata"), moduledata(game))
        archive.writestr(entry("buildFile.xml"), xml_bytes(module.root))
    return {"pieces": module.gpid, "images": module.images, "rules": rules is not None}


def export_vassal(target, deck_ids, variants, out, progress=None, sets=(), deck_list=None, language=None) -> str:
    """Validates the game and writes OUT/<game>/vassal/<game>.vmod with its manifest.json (in a language not the
    game's source one, OUT/<game>/<language>/vassal/); every deck by default, counters included. Returns the
    summary line."""
    from .. import __version__
    from ..building.staging import Staging
    from ..core.files import sha256
    from .exports import prepare

    game, decks, laid = prepare(target, deck_ids, LAYOUT_BLEED, variants, every=True, sets=sets, deck_list=deck_list,
                                language=language)
    staging = Staging(out, game.id, *filter(None, [game.language]), "vassal")
    try:
        name = f"{game.id}.vmod"
        target_file = staging.path(name)
        with staging.writing():  # a full disk: one line naming the module
            held = write_vmod(game, decks, laid, target_file, progress)
        staging.commit({"game": game.id, "export": "vassal", "muster": __version__, "vassal": VASSAL_VERSION,
                        "dpi": DPI, **held, "files": [{"file": name, "sha256": sha256(target_file)}]})
    finally:
        staging.discard()
    return (f"{game.id}: VASSAL module {game.id}.vmod ({VASSAL_VERSION}): {len(game.boards)} board(s), "
            f"{held['pieces']} piece(s), {held['images']} image(s){', rules under Help' if held['rules'] else ''}"
            f" -> {staging.folder}")
