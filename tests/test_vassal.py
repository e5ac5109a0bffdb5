"""The VASSAL module of `muster export vassal`: a zip whose buildFile.xml parses, names only elements and
attributes seen in VASSAL's own source or in real modules' build files, names only images it holds, and whose grid
puts every cell's centre at the pixel where the printed map has it, with the printed map's cell names. VASSAL
itself does not run here."""

from __future__ import annotations

import io
import zipfile
from xml.etree import ElementTree

import pytest
from PIL import Image
from typer.testing import CliRunner

from conftest import REPO, hex_board_game
from generator.cli.app import export_app
from generator.core.geometry import cell_centre, column_name
from generator.formats.scaffold import new_game
from generator.formats.vassal import DPI, VASSAL_VERSION, grid_attributes, pixels, vassal_centre
from generator.reading.loading import load_game

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

# Every element with the attributes Muster gives it, and where each was seen.
NAMES = {
    "VASSAL.build.GameModule": ({"VassalVersion", "name", "version", "description", "nextPieceSlotId"}, MANILA),
    "VASSAL.build.module.BasicCommandEncoder": (set(), MANILA),
    "VASSAL.build.module.Documentation": (set(), MANILA),
    "VASSAL.build.module.documentation.BrowserPDFFile": ({"pdfFile", "title"}, MANILA),
    "VASSAL.build.module.Map": ({"mapName", "buttonName", "allowMultiple"}, MANILA),
    "VASSAL.build.module.map.BoardPicker": ({"title", "boardPrompt"}, MANILA),
    "VASSAL.build.module.map.boardPicker.Board": ({"name", "image", "reversible"}, MANILA),
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
    "VASSAL.build.module.map.DrawPile": (
        {"name", "owningBoard", "x", "y", "width", "height", "faceDown", "shuffle", "draw", "reshufflable",
         "allowMultiple", "allowSelect"}, MANILA),
    "VASSAL.build.widget.CardSlot": ({"entryName", "gpid", "width", "height"}, MANILA),
    "VASSAL.build.module.PieceWindow": ({"name"}, FIXTURE),
    "VASSAL.build.widget.ListWidget": ({"entryName"}, FIXTURE),
    "VASSAL.build.widget.PieceSlot": ({"entryName", "gpid", "width", "height"}, FIXTURE),
}
TRAITS = {  # the trait encodings piece definitions use
    "piece;": MANILA + " (BasicPiece: piece;;;<image>;<name>)",
    "emb2;": ENGINE + "counters/Embellishment.java (myGetType, version 1)",
    "obs;": ENGINE + "counters/Obscurable.java (myGetType)",
}


def export(game, out) -> zipfile.ZipFile:
    result = CliRunner().invoke(export_app, ["vassal", str(game), "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    name = load_game(game).id
    return zipfile.ZipFile(out / name / "vassal" / f"{name}.vmod")


def vassal_name(index: int, kind: str, offset: int) -> str:
    """RegularGridNumbering.getName without leading zeros, as the engine names a row or column."""
    value = index + offset
    if kind == "N":
        return str(value)
    text = ""
    while True:
        text += "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[value % 26]
        value -= 26
        if value < 0:
            return text


def check_module(archive: zipfile.ZipFile, game) -> ElementTree.Element:
    names = set(archive.namelist())
    assert {"buildFile.xml", "moduledata"} <= names
    root = ElementTree.fromstring(archive.read("buildFile.xml"))
    assert root.tag == "VASSAL.build.GameModule" and root.get("VassalVersion") == VASSAL_VERSION
    data = ElementTree.fromstring(archive.read("moduledata"))
    assert {element.tag for element in data.iter()} <= set(MODULEDATA)
    gpids = []
    for element in root.iter():
        assert element.tag in NAMES, element.tag
        assert set(element.attrib) <= NAMES[element.tag][0], (element.tag, set(element.attrib) - NAMES[element.tag][0])
        if element.get("image"):
            assert f"images/{element.get('image')}" in names
        if element.tag.endswith("Slot"):
            gpids.append(element.get("gpid"))
            definition = element.text
            assert definition.startswith("+/null/") and definition.count("/") == 3
            traits = definition.split("/")[2].split("\t")
            assert [trait[:trait.index(";") + 1] for trait in traits] in (["emb2;", "piece;"], ["obs;", "piece;"])
            front = traits[1].split(";")[3]
            back = traits[0].split(";")[16] if traits[0].startswith("emb2;") else traits[0].split(";")[2]
            for image in (front, back):
                assert f"images/{image}" in names
            with Image.open(io.BytesIO(archive.read(f"images/{front}"))) as picture:
                assert picture.size == (int(element.get("width")), int(element.get("height")))
        if element.tag.endswith("BrowserPDFFile"):
            assert archive.read(element.get("pdfFile")).startswith(b"%PDF")
    assert len(gpids) == len(set(gpids)) and int(root.get("nextPieceSlotId")) > max(map(int, gpids or ["0"]))
    for deck in game.decks.values():
        if deck.component == "tokens":
            group = next(e for e in root.iter("VASSAL.build.widget.ListWidget") if e.get("entryName") == deck.name)
            assert len(group) == len([card for card in deck.cards if card.count > 0])
        else:
            pile = next(e for e in root.iter("VASSAL.build.module.map.DrawPile") if e.get("name") == deck.name)
            assert len(pile) == deck.total and pile.get("faceDown") == "Always" and pile.get("shuffle") == "Always"
    return root


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
    for column in range(grid.columns):
        for row in range(grid.rows):
            x, y = cell_centre(grid.shape, column, row, grid.cell, grid.margin, grid.margin)
            vx, vy = vassal_centre(grid_element.attrib, column, row)
            assert abs(vx - pixels(x)) <= 0.5 and abs(vy - pixels(y)) <= 0.5, (column, row)
            if grid.columns <= 26:
                label = (vassal_name(column, numbering.get("hType"), int(numbering.get("hOff")))
                         + vassal_name(row, numbering.get("vType"), int(numbering.get("vOff"))))
                assert label == f"{column_name(column)}{row + 1}"


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
