"""The VASSAL module of `muster export vassal`: a zip whose buildFile.xml parses, names only elements and
attributes seen in VASSAL's own source or in real modules' build files, names only images it holds, and whose grid
puts every cell's centre at the pixel where the printed map has it, with the printed map's cell names. VASSAL
itself does not run here."""

from __future__ import annotations

import io
import math
import shutil
import zipfile
from xml.etree import ElementTree

import pytest
from PIL import Image
from typer.testing import CliRunner

from conftest import REPO, hex_board_game, patched
from generator.cli.app import export_app
from generator.core.geometry import HexGrid, cell_centre, cell_label
from generator.formats.scaffold import new_game
from generator.formats.vassal import VASSAL_VERSION
from generator.formats.vassal_grid import DPI, grid_attributes, pixels
from generator.formats.vassal_pieces import xml_safe
from generator.reading.loading import load_game

HEXMAP = REPO / "tests" / "fixtures" / "hexmap"  # 20 x 24 pointy tops, odd rows pushed, numbered 0101
MANILA = "tomo9878/manilla buildFile.xml (a module saved by VASSAL 3.7.9)"
ENGINE = "vassalengine/vassal vassal-app/src/main/java/VASSAL/"
HEX = ENGINE + "build/module/map/boardPicker/board/HexGrid.java (attribute keys)"
SQUARE = ENGINE + "build/module/map/boardPicker/board/SquareGrid.java (attribute keys)"
NUMBERING = ENGINE + "build/module/map/boardPicker/board/mapgrid/RegularGridNumbering.java (attribute keys)"
HEX_NUMBERING = ENGINE + "build/module/map/boardPicker/board/mapgrid/HexGridNumbering.java (STAGGER)"
SQUARE_NUMBERING = ENGINE + "build/module/map/boardPicker/board/mapgrid/SquareGridNumbering.java (class)"
FIXTURE = "a VASSAL buildFile parser's test module (PieceWindow, ListWidget, PieceSlot entryName/gpid/width/height)"
METADATA = "moduledata as VASSAL's AbstractMetaData writes it, seen in several modules' moduledata files"
MODULEDATA = {"data": METADATA, "version": METADATA, "VassalVersion": METADATA, "description": METADATA,
              "name": METADATA}

MAP_PARTS = ENGINE + "build/module/Map.java (build: the components of a brand-new map)"
OPTIONS = ENGINE + "build/module/GlobalOptions.java (attribute keys)"
PILE = ENGINE + "build/module/map/DrawPile.java (attribute keys)"
STANDARD = {"VASSAL.build.module.map." + name for name in (
    "ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer", "MapCenterer", "StackExpander",
    "PieceMover", "KeyBufferer", "ImageSaver", "CounterDetailViewer", "Zoomer")}
MAPS = ("VASSAL.build.module.Map", "VASSAL.build.module.PlayerHand")

# Every element with the attributes Muster gives it, and where each was seen.
NAMES = {
    "VASSAL.build.GameModule": ({"VassalVersion", "name", "version", "description", "nextPieceSlotId"}, MANILA),
    "VASSAL.build.module.BasicCommandEncoder": (set(), MANILA),
    "VASSAL.build.module.Documentation": (set(), MANILA),
    "VASSAL.build.module.documentation.BrowserPDFFile": ({"pdfFile", "title"}, MANILA),
    "VASSAL.build.module.PlayerRoster": ({"buttonText", "buttonToolTip"}, MANILA),
    "entry": (set(), MANILA + " (PlayerRoster's sides)"),
    "VASSAL.build.module.GlobalOptions": (
        {"autoReport", "centerOnMove", "nonOwnerUnmaskable", "playerIdFormat", "promptString", "chatterHTMLSupport",
         "hotKeysOnClosedWindows", "inventoryForAll"}, MANILA + "; " + OPTIONS),
    "VASSAL.build.module.PrototypesContainer": (set(), MANILA),
    "VASSAL.build.module.PrototypeDefinition": ({"name", "description"}, MANILA),
    "VASSAL.build.module.Map": ({"mapName", "buttonName", "allowMultiple"}, MANILA),
    "VASSAL.build.module.PlayerHand": ({"mapName", "buttonName", "allowMultiple", "side", "visible"},
                                       ENGINE + "build/module/PrivateMap.java (SIDE, VISIBLE)"),
    "VASSAL.build.module.map.BoardPicker": ({"title", "boardPrompt"}, MANILA),
    "VASSAL.build.module.map.boardPicker.Board": ({"name", "image", "reversible", "width", "height", "color"},
                                                  ENGINE + "build/module/map/boardPicker/Board.java (attribute keys)"),
    "VASSAL.build.module.map.boardPicker.board.SquareGrid": (
        {"x0", "y0", "dx", "dy", "snapTo", "visible", "color"}, SQUARE),
    "VASSAL.build.module.map.boardPicker.board.HexGrid": (
        {"x0", "y0", "dx", "dy", "sideways", "snapTo", "visible", "color"}, HEX),
    "VASSAL.build.module.map.boardPicker.board.mapgrid.SquareGridNumbering": (
        {"first", "hType", "vType", "hOff", "vOff", "sep", "hLeading", "vLeading", "hDescend", "vDescend",
         "visible"}, NUMBERING + "; " + SQUARE_NUMBERING),
    "VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering": (
        {"first", "hType", "vType", "hOff", "vOff", "sep", "hLeading", "vLeading", "hDescend", "vDescend",
         "visible", "stagger"}, NUMBERING + "; " + HEX_NUMBERING),
    **{name: (set(), MAP_PARTS + "; " + MANILA) for name in STANDARD - {
        "VASSAL.build.module.map.ImageSaver", "VASSAL.build.module.map.CounterDetailViewer",
        "VASSAL.build.module.map.Zoomer"}},
    "VASSAL.build.module.map.ImageSaver": ({"buttonText", "hotkey", "icon", "tooltip"}, MANILA),
    "VASSAL.build.module.map.CounterDetailViewer": (
        {"version", "delay", "display", "showgraph", "showtext", "graphicsZoom", "zoomlevel", "minDisplayPieces",
         "showNoStack", "showDeck", "showNonMovable", "showMoveSelectde", "hotkey", "counterReportFormat",
         "summaryReportFormat", "emptyHexReportForma", "fontSize", "bgColor", "fgColor", "borderColor",
         "borderWidth"}, MANILA),
    "VASSAL.build.module.map.Zoomer": (
        {"zoomLevels", "zoomStart", "zoomInKey", "zoomOutKey", "zoomPickKey", "inTooltip", "outTooltip",
         "pickTooltip", "inButtonText", "outButtonText", "pickButtonText", "inIconName", "outIconName",
         "pickIconName"}, MANILA),
    "VASSAL.build.module.map.DrawPile": (
        {"name", "owningBoard", "x", "y", "width", "height", "faceDown", "shuffle", "draw", "reshufflable",
         "allowMultiple", "allowSelect", "drawFaceUp", "shuffleCommand"}, MANILA + "; " + PILE),
    "VASSAL.build.module.map.SetupStack": ({"name", "owningBoard", "x", "y", "useGridLocation", "location"},
                                           ENGINE + "build/module/map/SetupStack.java (attribute keys)"),
    "VASSAL.build.widget.CardSlot": ({"entryName", "gpid", "width", "height"}, MANILA),
    "VASSAL.build.module.PieceWindow": ({"name"}, FIXTURE),
    "VASSAL.build.widget.ListWidget": ({"entryName"}, FIXTURE),
    "VASSAL.build.widget.PieceSlot": ({"entryName", "gpid", "width", "height"}, FIXTURE),
    "VASSAL.build.module.DiceButton": (
        {"name", "text", "tooltip", "nDice", "nSides", "plus", "addToTotal", "reportTotal", "prompt",
         "reportFormat", "hotkey", "icon"}, ENGINE + "build/module/DiceButton.java (attribute keys)"),
}
TRAITS = {  # the trait encodings piece definitions use
    "piece": MANILA + " (BasicPiece: piece;;;<image>;<name>)",
    "emb2": ENGINE + "counters/Embellishment.java (myGetType, version 1)",
    "obs": ENGINE + "counters/Obscurable.java (myGetType)",
    "prototype": MANILA + " (UsePrototype: prototype;<name>)",
    "delete": MANILA + " (Delete: delete;Delete;68,130;)",
    "report": MANILA + "; " + ENGINE + "counters/ReportState.java (mySetType)",
    "return": ENGINE + "counters/ReturnToDeck.java (myGetType, version 2)",
    "sendto": ENGINE + "counters/SendToLocation.java (myGetType)",
}


def decoded(text: str, delimiter: str) -> list[str]:
    """VASSAL's SequenceEncoder.Decoder: a backslash before the delimiter escapes it; a token wrapped in single
    quotes loses them."""
    tokens, current, index = [], "", 0
    while index < len(text):
        if text[index] == "\\" and index + 1 < len(text) and text[index + 1] == delimiter:
            current, index = current + delimiter, index + 2
        elif text[index] == delimiter:
            tokens.append(current)
            current, index = "", index + 1
        else:
            current, index = current + text[index], index + 1
    tokens.append(current)
    return [t[1:-1] if len(t) > 1 and t.startswith("'") and t.endswith("'") else t for t in tokens]


def traits_of(definition: str) -> list[str]:
    """A slot's AddPiece command decoded into its traits' types, outermost first (Decorator nesting)."""
    command, identifier, piece_type, state = decoded(definition, "/")
    assert (command, identifier) == ("+", "null")
    traits = []
    while True:
        head, *rest = decoded(piece_type, "\t")
        traits.append(head)
        if not rest:
            return traits
        piece_type, = rest


def export(game, out) -> zipfile.ZipFile:
    result = CliRunner().invoke(export_app, ["vassal", str(game), "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    name = load_game(game).id
    return zipfile.ZipFile(out / name / "vassal" / f"{name}.vmod")


def java_round(value: float) -> int:
    return math.floor(value + 0.5)


def engine_name(value: int, kind: str, leading: int) -> str:
    """RegularGridNumbering.getName(int, char, int): letters A, .., Z, AA, BB, ...; numbers with up to `leading`
    zeros in front."""
    text = "-" if value < 0 else ""
    value = abs(value)
    if kind == "A":
        while True:
            text += "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[value % 26]
            value -= 26
            if value < 0:
                return text
    while leading > 0 and value < 10 ** leading:
        text += "0"
        leading -= 1
    return text + str(value)


def engine_cell(grid: dict, numbering: dict, point: tuple[float, float]) -> tuple[tuple[float, float], str]:
    """The cell VASSAL finds at a map point, from the grid's and numbering's attributes by the engine's formulas:
    its centre (HexGrid.snapToHex, SquareGrid.snapTo, before their rounding to whole pixels) and its name
    (RegularGridNumbering.locationName: getName(getRow, getColumn); HexGridNumbering.getRawColumn, getRawRow and
    the stagger getRow adds; sideways, x and y swapped, the origin's too, as rotateIfSideways does)."""
    x0, y0, dx, dy = int(grid["x0"]), int(grid["y0"]), float(grid["dx"]), float(grid["dy"])
    sideways = grid.get("sideways") == "true"
    x, y = (point[1], point[0]) if sideways else point
    column = java_round((x - x0) / dx)
    if "sideways" in grid:
        row = java_round((y - y0 - (dy / 2 if column % 2 else 0.0)) / dy)
        centre = (x0 + column * dx, y0 + row * dy + (dy / 2 if column % 2 else 0.0))
        named_row = row + (1 if numbering["stagger"] == "true" and column % 2 else 0)
    else:
        row = java_round((y - y0) / dy)
        centre = (x0 + column * dx, y0 + row * dy)
        named_row = row
    assert numbering["hDescend"] == numbering["vDescend"] == "false"
    row_name = engine_name(named_row + int(numbering["vOff"]), numbering["vType"], int(numbering["vLeading"]))
    column_name = engine_name(column + int(numbering["hOff"]), numbering["hType"], int(numbering["hLeading"]))
    name = (column_name + numbering["sep"] + row_name if numbering["first"] == "H"
            else row_name + numbering["sep"] + column_name)
    return ((centre[1], centre[0]) if sideways else centre), name


def check_module(archive: zipfile.ZipFile, game) -> ElementTree.Element:
    names = set(archive.namelist())
    assert {"buildFile.xml", "moduledata"} <= names
    root = ElementTree.fromstring(archive.read("buildFile.xml"))
    assert root.tag == "VASSAL.build.GameModule" and root.get("VassalVersion") == VASSAL_VERSION
    data = ElementTree.fromstring(archive.read("moduledata"))
    assert {element.tag for element in data.iter()} <= set(MODULEDATA)
    gpids = []
    prototypes = {}
    for definition in root.iter("VASSAL.build.module.PrototypeDefinition"):
        traits = traits_of(definition.text)
        assert {trait[:trait.index(";")] for trait in traits} <= set(TRAITS) and traits[-1] == "piece;;;;"
        prototypes[definition.get("name")] = traits
    check_order(root)
    for element in root.iter():
        assert element.tag in NAMES, element.tag
        assert set(element.attrib) <= NAMES[element.tag][0], (element.tag, set(element.attrib) - NAMES[element.tag][0])
        if element.get("image"):
            assert f"images/{element.get('image')}" in names
        if element.tag.endswith("Slot"):
            gpids.append(element.get("gpid"))
            traits = traits_of(element.text)
            kinds = [trait[:trait.index(";")] for trait in traits]
            assert set(kinds) <= set(TRAITS) and kinds[-1] == "piece" and kinds[0] == "prototype", kinds
            assert kinds[1:] in (["emb2", "piece"], ["obs", "piece"]), kinds
            assert decoded(traits[0][len("prototype;"):], ";")[0] in prototypes
            basic = decoded(traits[-1][len("piece;"):], ";")
            assert basic[3] == element.get("entryName")
            front = basic[2]
            layer = decoded(traits[1][len(kinds[1]) + 1:], ";")
            back = layer[15] if kinds[1] == "emb2" else layer[1]
            for image in (front, back):
                assert f"images/{image}" in names
            with Image.open(io.BytesIO(archive.read(f"images/{front}"))) as picture:
                assert picture.size == (int(element.get("width")), int(element.get("height")))
        if element.tag.endswith("BrowserPDFFile"):
            assert archive.read(element.get("pdfFile")).startswith(b"%PDF")
    assert len(gpids) == len(set(gpids)) and int(root.get("nextPieceSlotId")) > max(map(int, gpids or ["0"]))
    for deck in game.decks.values():
        if deck.format.component == "tokens":
            group = next(e for e in root.iter("VASSAL.build.widget.ListWidget") if e.get("entryName") == xml_safe(deck.name))
            assert len(group) == len([card for card in deck.cards if card.count > 0])
        else:
            pile = next(e for e in root.iter("VASSAL.build.module.map.DrawPile") if e.get("name") == xml_safe(deck.name))
            assert len(pile) == deck.total and pile.get("faceDown") == "Always" and pile.get("shuffle") == "Always"
            card = prototypes[f"Card: {xml_safe(deck.name)}"]
            assert [trait[:trait.index(";")] for trait in card] == ["report", "sendto", "return", "piece"]
            assert decoded(card[2], ";")[-1] == xml_safe(deck.name)  # Return to its own deck
    return root


def check_order(root) -> None:
    """What VASSAL needs of the build file's order and parts: the roster and GlobalOptions before the first map
    (so that it is docked and shown), the prototypes before the maps; every map with the standard components of a
    brand-new map and a Zoomer, after its BoardPicker; a Table for every game."""
    tags = [child.tag for child in root]
    first_map = next(index for index, tag in enumerate(tags) if tag in MAPS)
    assert tags.index("VASSAL.build.module.GlobalOptions") < first_map
    assert tags.index("VASSAL.build.module.PrototypesContainer") < first_map
    if "VASSAL.build.module.PlayerRoster" in tags:
        assert tags.index("VASSAL.build.module.PlayerRoster") < first_map
    maps = [child for child in root if child.tag in MAPS]
    assert "Table" in [element.get("mapName") for element in maps]
    for element in maps:
        parts = [child.tag for child in element]
        assert parts[0] == "VASSAL.build.module.map.BoardPicker" and STANDARD <= set(parts), element.get("mapName")
        assert parts.index("VASSAL.build.module.map.PieceMover") < parts.index("VASSAL.build.module.map.KeyBufferer")


def check_grid(archive: zipfile.ZipFile, root, board) -> None:
    """Every cell's centre where VASSAL computes it from the grid's attributes is within a pixel of where the
    printed map has it (cell_centre, the board layout's own cell positions, at DPI); and VASSAL names it as the
    map prints it."""
    element = next(e for e in root.iter("VASSAL.build.module.map.boardPicker.Board") if e.get("name") == board.name)
    with Image.open(io.BytesIO(archive.read(f"images/{element.get('image')}"))) as image:
        assert image.size == (round(pixels(board.size[0])), round(pixels(board.size[1])))
    grid_element, = list(element)
    numbering, = list(grid_element)
    grid = board.grid
    hexes = HexGrid(grid.cell, grid.orientation, grid.offset, grid.margin, grid.margin)
    for column in range(grid.columns):
        for row in range(grid.rows):
            x, y = (hexes.centre(column, row) if grid.shape == "hex"
                    else cell_centre(grid.shape, column, row, grid.cell, grid.margin, grid.margin))
            (vx, vy), name = engine_cell(grid_element.attrib, numbering.attrib, (pixels(x), pixels(y)))
            assert abs(vx - pixels(x)) <= 0.5 and abs(vy - pixels(y)) <= 0.5, (column, row)
            assert name == cell_label(column, row, grid.numbering, grid.columns, grid.rows, grid.first), (column, row)


@pytest.mark.parametrize("name", ["grid-battle", "europe-1939", "company-commander"])
def test_bundled_games_modules(name, tmp_path):
    game = load_game(REPO / "decks" / name)
    archive = export(REPO / "decks" / name, tmp_path)
    root = check_module(archive, game)
    for board in game.boards.values():
        if board.grid is not None:
            check_grid(archive, root, board)


def test_hex_board_grid_matches_the_printed_map(make_game, tmp_path):
    folder = hex_board_game(make_game)
    game = load_game(folder)
    archive = export(folder, tmp_path)
    root = check_module(archive, game)
    check_grid(archive, root, game.boards["hexes"])
    grid = next(root.iter("VASSAL.build.module.map.boardPicker.board.HexGrid"))
    assert grid.get("sideways") == "false"  # flat-topped hexes in columns, as printed
    assert float(grid.get("dx")) == pytest.approx(float(grid.get("dy")) * 3 ** 0.5 / 2, rel=1e-4)


def test_new_game_module_is_the_same_every_time(tmp_path):
    folder = new_game("desert-war", tmp_path / "games")
    archive = export(folder, tmp_path / "a")
    check_module(archive, load_game(folder))
    first = (tmp_path / "a" / "desert-war" / "vassal" / "desert-war.vmod").read_bytes()
    export(folder, tmp_path / "a")
    assert (tmp_path / "a" / "desert-war" / "vassal" / "desert-war.vmod").read_bytes() == first


def test_grid_attributes_square():
    from generator.core.model import BoardGrid

    attributes = grid_attributes(BoardGrid(8, 8, 30.0, "square", 14.0))
    assert (attributes["x0"], attributes["y0"]) == (str(round(29 / 25.4 * DPI)),) * 2  # the first cell's centre
    assert float(attributes["dx"]) == pytest.approx(30 / 25.4 * DPI, abs=1e-3)


def hexmap_variant(tmp_path, orientation: str, offset: str, numbering: str = '"0101"'):
    """The hex map fixture with its grid's orientation, offset and numbering changed; its terrained hexes and
    hexsides, named and paired for pointy odd-row 0101 hexes, left out."""
    folder = tmp_path / f"hexmap-{orientation}-{offset}"
    shutil.copytree(HEXMAP, folder)
    text = (folder / "game.yaml").read_text()
    text = patched(text[:text.index("    hexes:")], {"orientation: pointy": f"orientation: {orientation}"})
    text = patched(text, {"offset: odd ": f"offset: {offset} ", 'numbering: "0101"': f"numbering: {numbering}"})
    (folder / "game.yaml").write_text(text)
    return folder


def exported_grid(folder, out):
    """The module's board grid and numbering elements, checked cell by cell against the printed map."""
    game = load_game(folder)
    archive = export(folder, out)
    root = check_module(archive, game)
    board = game.boards["map"]
    check_grid(archive, root, board)
    grid = next(root.iter("VASSAL.build.module.map.boardPicker.board.HexGrid"))
    return board, grid, list(grid)[0]


def test_hexmap_pointy_odd_0101(tmp_path):
    board, grid, numbering = exported_grid(HEXMAP, tmp_path)
    assert (board.grid.orientation, board.grid.offset, board.grid.numbering) == ("pointy", "odd", "0101")
    assert grid.get("sideways") == "true" and numbering.get("first") == "V" and numbering.get("stagger") == "false"
    hexes = HexGrid(board.grid.cell, "pointy", "odd", board.grid.margin, board.grid.margin)
    for label, cell in (("0101", (0, 0)), ("0102", (0, 1)), ("0201", (1, 0)), ("2024", (19, 23))):
        x, y = hexes.centre(*cell)
        (vx, vy), name = engine_cell(grid.attrib, numbering.attrib, (pixels(x), pixels(y)))
        assert name == label and abs(vx - pixels(x)) <= 0.5 and abs(vy - pixels(y)) <= 0.5
    # 0102 is the pushed row: half a hex right of 0101, one row down
    first, second = (engine_cell(grid.attrib, numbering.attrib, tuple(map(pixels, hexes.centre(0, row))))[0]
                     for row in (0, 1))
    assert second[0] - first[0] == pytest.approx(float(grid.get("dy")) / 2, abs=0.01)


@pytest.mark.parametrize("orientation, offset, numbering", [
    ("pointy", "even", '"0101"'), ("flat", "even", '"0101"'), ("flat", "odd", '"0101"'), ("flat", "even", "letter"),
    ("pointy", "even", "letter"), ("pointy", "odd", "none")])
def test_hexmap_variants_match_the_printed_map(orientation, offset, numbering, tmp_path):
    board, grid, _ = exported_grid(hexmap_variant(tmp_path, orientation, offset, numbering), tmp_path / "out")
    assert (board.grid.orientation, board.grid.offset) == (orientation, offset)
    assert grid.get("sideways") == ("true" if orientation == "pointy" else "false")


@pytest.mark.parametrize("orientation, numbering, first, corners", [
    ("flat", '"0101"', (17, 1), ("1701", "3010")), ("pointy", '"0101"', (17, 1), ("1701", "3010")),
    ("flat", "letter", (3, 5), ("C5", "P14")), ("pointy", '"0101"', (0, 98), ("00098", "13107"))])
def test_hex_numbers_start_where_the_grid_says(orientation, numbering, first, corners, tmp_path):
    """A published map numbered 1701-3010 (14 x 10 hexes from column 17): the module names its hexes so."""
    folder = hexmap_variant(tmp_path, orientation, "odd", numbering)
    text = patched((folder / "game.yaml").read_text(), {"columns: 20": "columns: 14", "rows: 24": "rows: 10"})
    text = patched(text, {"      shape: hex\n": f"      shape: hex\n      first_column: {first[0]}\n"
                                             f"      first_row: {first[1]}\n"})
    (folder / "game.yaml").write_text(text)
    board, grid, numbering_element = exported_grid(folder, tmp_path / "out")  # every cell named as the map has it
    assert board.grid.first == first
    hexes = HexGrid(board.grid.cell, orientation, "odd", board.grid.margin, board.grid.margin)
    names = [engine_cell(grid.attrib, numbering_element.attrib, tuple(map(pixels, hexes.centre(*cell))))[1]
             for cell in ((0, 0), (13, 9))]
    assert names == list(corners)


def test_letter_names_past_z_are_refused(tmp_path):
    folder = hexmap_variant(tmp_path, "flat", "odd", "letter")
    (folder / "game.yaml").write_text(patched((folder / "game.yaml").read_text(), {"columns: 20": "columns: 28"}))
    result = CliRunner().invoke(export_app, ["vassal", str(folder), "--out", str(tmp_path / "out"), "--quiet"])
    assert result.exit_code == 2  # as every export VASSAL cannot take (console.fail)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "board map" in lines[0] and "AA, BB" in lines[0], result.output
    assert not (tmp_path / "out" / "hexmap" / "vassal").exists()


CARD = r"\x01A;\\/,\\"  # a card title as YAML escapes it: a control character, ; / , and a closing backslash
HOSTILE = "A\x00B\x01C\x0b\x1f\ufffe\uffff; / \\ , 'q' end\\"  # NUL, controls, non-characters, VASSAL's delimiters


def test_any_text_makes_a_module_every_xml_reader_accepts(make_game, tmp_path):
    """A title, summary, deck name and card title holding NUL, control characters, U+FFFE/U+FFFF and the piece
    encoding's own delimiters: the build file and moduledata parse, what XML cannot hold is U+FFFD, and each
    piece's name decodes back from VASSAL's encoding whole."""
    folder = make_game()
    game_yaml = (folder / "game.yaml").read_text()
    text = HOSTILE.encode("unicode_escape").decode().replace('"', '\\"')
    game_yaml = patched(patched(game_yaml, {"title: Tiny War": f'title: "{text}"'}, count=1),
                        {"name: Red deck": f'name: "{text}"'})
    (folder / "game.yaml").write_text(game_yaml + f'summary: "{text}"\n')
    (folder / "reds.yaml").write_text(patched((folder / "reds.yaml").read_text(), {"title: Alpha": f'title: "{CARD}"'}))
    game = load_game(folder)
    assert game.title == HOSTILE and game.decks["reds"].name == HOSTILE
    archive = export(folder, tmp_path)
    for name in ("buildFile.xml", "moduledata"):
        ElementTree.fromstring(archive.read(name))  # raises on any character XML forbids
    root = check_module(archive, game)
    safe = "A\ufffdB\ufffdC\ufffd\ufffd\ufffd\ufffd; / \\ , 'q' end\\"
    assert root.get("name") == safe and root.get("description") == safe
    slot = next(e for e in root.iter("VASSAL.build.widget.CardSlot") if e.get("entryName") == "\ufffdA;\\/,\\")
    assert decoded(traits_of(slot.text)[-1][len("piece;"):], ";")[3] == "\ufffdA;\\/,\\"
    pile = next(root.iter("VASSAL.build.module.map.DrawPile"))
    assert pile.get("name") == safe
    card = next(e for e in root.iter("VASSAL.build.module.PrototypeDefinition") if e.get("name") == f"Card: {safe}")
    assert decoded(traits_of(card.text)[2], ";")[-1] == safe  # Return to Deck names the deck whole


def test_a_board_too_large_is_refused_without_an_option_vassal_lacks(tmp_path):
    """A board too large for an image at VASSAL's 150 dpi: one located line that says what to do, and no --dpi,
    which `export vassal` does not have."""
    folder = tmp_path / "big"
    shutil.copytree(REPO / "decks" / "europe-1939", folder)
    (folder / "game.yaml").write_text(patched((folder / "game.yaml").read_text(), {"size: 257mm x 190mm":
                                                                                       "size: 1500mm x 1500mm"}))
    result = CliRunner().invoke(export_app, ["vassal", str(folder), "--out", str(tmp_path / "out"), "--quiet"])
    assert result.exit_code == 2
    line, = result.output.strip().splitlines()
    assert "game.yaml:" in line and "board mat" in line and "--dpi" not in line and "split" in line, line
    assert not (tmp_path / "out" / "big" / "vassal").exists()


def test_dice_the_rules_roll_are_buttons(make_game, tmp_path):
    """game.yaml's `dice:` gives a dice button per roll; a game without it gets none; a bad roll is a located
    finding (bad-dice, out-of-range) and no default."""
    archive = export(REPO / "decks" / "company-commander", tmp_path)
    buttons = list(ElementTree.fromstring(archive.read("buildFile.xml")).iter("VASSAL.build.module.DiceButton"))
    assert [(b.get("nDice"), b.get("nSides")) for b in buttons] == [("1", "6"), ("2", "6")]
    assert not list(check_module(export(REPO / "decks" / "grid-battle", tmp_path / "g"),
                                 load_game(REPO / "decks" / "grid-battle")).iter("VASSAL.build.module.DiceButton"))
    folder = make_game()
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text() + "dice: [2d6, d20, 3x6, 99d6]\n")
    game = load_game(folder)
    assert game.dice == ()
    problem, = [f for f in game.findings if f.field == "dice"]
    assert problem.code == "bad-dice" and problem.where.line == (folder / "game.yaml").read_text().count("\n")
    (folder / "game.yaml").write_text(patched((folder / "game.yaml").read_text(), {"3x6, 99d6": "99d6"}))
    problem, = [f for f in load_game(folder).findings if f.field == "dice"]
    assert problem.code == "out-of-range"
    (folder / "game.yaml").write_text(patched((folder / "game.yaml").read_text(), {", 99d6": ""}))
    assert load_game(folder).dice == ((2, 6), (1, 20))


def test_counters_start_on_the_table_and_every_game_gets_hands_for_its_cards(tmp_path):
    """The table holds a stack of each counter's copies as its sheet prints them (SetupStack); a game of cards
    gets a hand per player `players:` names, after the table; a game of counters alone gets neither decks nor
    hands."""
    game = load_game(REPO / "decks" / "modern-war")
    root = check_module(export(REPO / "decks" / "modern-war", tmp_path), game)
    hands = [e.get("side") for e in root if e.tag == "VASSAL.build.module.PlayerHand"]
    assert hands == ["Player 1", "Player 2", "Player 3", "Player 4"]  # players: 2-4
    assert [e.text for e in root.iter("entry")] == hands
    stacks = list(root.iter("VASSAL.build.module.map.SetupStack"))
    counters = [card for deck in game.decks.values() if deck.format.component == "tokens" for card in deck.cards
                if card.count > 0]
    assert [len(stack) for stack in stacks] == [card.count for card in counters]
    assert {stack.get("owningBoard") for stack in stacks} == {"Table"}
    root = check_module(export(REPO / "decks" / "grid-battle", tmp_path / "g"), load_game(REPO / "decks" / "grid-battle"))
    assert not list(root.iter("VASSAL.build.module.PlayerHand")) and not list(root.iter("VASSAL.build.module.map.DrawPile"))


# VASSAL 3.7.9 itself, driven with the mouse (its README): ../shared/vassal/check beside the checkout or a folder above
CHECKER = next((folder / "shared" / "vassal" / "check" for folder in REPO.parents
                if (folder / "shared" / "vassal" / "check").exists()), REPO.parent / "shared" / "vassal" / "check")


@pytest.mark.vassal
@pytest.mark.skipif(not CHECKER.exists(), reason=f"no VASSAL checker at {CHECKER}")
@pytest.mark.skipif(not (shutil.which("java") and shutil.which("javac") and shutil.which("Xvfb")),
                    reason="the VASSAL checker needs java, javac and Xvfb")
def test_vassal_itself_plays_a_small_module(make_game, tmp_path):
    """The module of a small game of cards and counters, opened in VASSAL 3.7.9: the map shown, the deck drawn
    from with the mouse, the pieces dragged, selected, right-clicked and flipped; nothing logged."""
    import os
    import subprocess

    folder = make_game()
    archive = export(folder, tmp_path)
    archive.close()
    result = subprocess.run([str(CHECKER), str(tmp_path / "tiny" / "vassal" / "tiny.vmod"), "--timeout", "90"],
                            capture_output=True, text=True, timeout=120,
                            env={**os.environ, "VASSAL_CHECK_PIECE_SECONDS": "10"})
    # its last line (none when the checker stopped before its first, then its stderr says why)
    assert result.stdout.strip().splitlines()[-1:] == ["VERDICT: playable"], result.stdout + result.stderr
