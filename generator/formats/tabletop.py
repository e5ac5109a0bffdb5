"""The Tabletop Simulator saved object: one JSON file that TTS loads from Objects > Saved Objects, holding every
exported deck as a custom deck, every counter set as double-sided custom tiles, every board as a scaled custom
tile, each component in a bag, laid out side by side; and its thumbnail.

The deck sheets and tile images are tts.py's (OUT/<game>/tts/<deck>/); this module adds the boards' images, the
JSON and the thumbnail in OUT/<game>/tts/. Where each field name was seen is in tests/formats/test_tabletop.py.

Scale. Saves store each object's size as a Transform scale of its mesh, not in millimetres, so physical sizes go
through three numbers (docs/exports.md): a TTS unit is about an inch (TTS's knowledge base, Custom Tile:
"Thickness | How thick, in in-game units (about an inch)"); a Card at scale 1 is CARD_UNITS across (a card's
bounds measured by a public TTS script); a Custom_Tile at scale 1 is TILE_UNITS across. Cards, counters and boards
are scaled from their millimetres through these, so they keep their printed proportions to one another.
"""

from __future__ import annotations

import hashlib
import math
from pathlib import Path
from urllib.parse import quote

from ..core import codes
from ..core.errors import MusterError
from ..core.units import MM_PER
from ..core.written import json_text
from ..rendering.raster import png_bytes
from .exports import DeckExport, board_image, write
from .tts import TTS_MAX_PIXELS, tts_chunks

MM_PER_INCH = MM_PER["in"]
UNIT_MM = MM_PER_INCH           # one TTS unit: "about an inch"
CARD_UNITS = (2.19, 3.06)       # a Card at scale 1: 2.19 units wide, the poker shape (63 x 88) of TTS's card mesh
TILE_UNITS = 2.0                # a Custom_Tile at scale 1, stretched square: 2 x 2 units
TILE_THICKNESS = 0.08           # units: about 2 mm, a counter's card stock
BOARD_THICKNESS = 0.1
BOARD_DPI = 150                 # at most: a board's image, held within 4096 px a side
BAG_UNITS = 3.0                 # room a bag takes on the table
GAP_UNITS = 1.0                 # between things laid out on the table
THUMBNAIL = 256                 # px: the picture TTS shows beside a saved object
TILE_BOX, TILE_CIRCLE = 0, 2    # CustomTile.Type: 0 Box, 1 Hex, 2 Circle, 3 Rounded
GREY = {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259}  # TTS's own ColorDiffuse for cards and bags


def guid(*parts) -> str:
    """Six hex digits derived from what the object is, so that the same game gives the same file."""
    return hashlib.sha256("/".join(map(str, parts)).encode("utf-8")).hexdigest()[:6]


def transform(x: float = 0.0, z: float = 0.0, y: float = 1.0, scale: tuple[float, float] = (1.0, 1.0),
              flipped: bool = False) -> dict:
    return {"posX": round(x, 4), "posY": round(y, 4), "posZ": round(z, 4),
            "rotX": 0.0, "rotY": 180.0 if flipped else 0.0, "rotZ": 180.0 if flipped else 0.0,
            "scaleX": round(scale[0], 4), "scaleY": 1.0, "scaleZ": round(scale[1], 4)}


# Who may hold an object in a hand, and whether its face is hidden while it lies face down, as TTS saves them:
# cards go into hands and hide their faces; a deck hides its cards' faces but is not held; tiles and bags neither.
HANDS = {"Card": (True, True), "Deck": (False, True), "DeckCustom": (False, True)}


def thing(name: str, key: tuple, nickname: str, description: str = "", **fields) -> dict:
    """The fields every object TTS saves has, in its order, then the object's own; scripts and notes empty."""
    hands, hide = HANDS.get(name, (False, False))
    return {"GUID": guid(name, *key), "Name": name, "Transform": fields.pop("at", transform()),
            "Nickname": nickname, "Description": description, "GMNotes": "",
            "AltLookAngle": {"x": 0.0, "y": 0.0, "z": 0.0}, "ColorDiffuse": dict(GREY), "LayoutGroupSortIndex": 0,
            "Value": 0, "Locked": fields.pop("locked", False), "Grid": True, "Snap": True, "IgnoreFoW": False,
            "MeasureMovement": False, "DragSelectable": True, "Autoraise": True, "Sticky": True, "Tooltip": True,
            "GridProjection": False, "HideWhenFaceDown": hide, "Hands": hands, **fields, "LuaScript": "",
            "LuaScriptState": "", "XmlUI": ""}


def card_scale(size: tuple[float, float]) -> tuple[float, float]:
    return size[0] / UNIT_MM / CARD_UNITS[0], size[1] / UNIT_MM / CARD_UNITS[1]


def tile_scale(size: tuple[float, float]) -> tuple[float, float]:
    return size[0] / UNIT_MM / TILE_UNITS, size[1] / UNIT_MM / TILE_UNITS


def describe(card) -> str:
    """A card's traits as TTS shows them under its name: one "trait: value" a line."""
    lines = []
    for name, value in card.traits.items():
        if value is None or value == "" or value == []:
            continue
        shown = ", ".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)
        lines.append(f"{name}: {shown}")
    return "\n".join(lines)


class Images:
    """URLs of exported images: file:/// paths of where they will be, or under the --base-url the user hosts
    OUT/<game>/tts/ at."""

    def __init__(self, root: Path, base_url: str | None):
        self.root = root
        self.base = base_url.rstrip("/") if base_url else None

    def url(self, *parts: str) -> str:
        if self.base:
            return f"{self.base}/{'/'.join(quote(part) for part in parts)}"
        return self.root.joinpath(*parts).resolve().as_uri()


def copies(deck) -> list:
    """The deck's cards, one per copy, in the order of its sheets' slots."""
    return [card for card in deck.cards for _ in range(max(card.count, 0))]


def deck_objects(deck, sheets: list[dict], unique: bool, images: Images, first_id: int) -> list[dict]:
    """The deck as one DeckCustom (one sheet) or Deck (several), its cards with CardID = sheet id x 100 + slot;
    a deck of one card is that Card alone. TTS needs a sheet's CustomDeck entry on every card of it too."""
    every = copies(deck)
    custom = {}
    cards = []
    for number, (sheet, chunk) in enumerate(zip(sheets, tts_chunks(len(every)))):
        key = first_id + number
        custom[str(key)] = {"FaceURL": images.url(deck.id, sheet["face"]),
                            "BackURL": images.url(deck.id, sheet["back"]),
                            "NumWidth": sheet["columns"], "NumHeight": sheet["rows"],
                            "BackIsHidden": True, "UniqueBack": unique, "Type": 0}
        for slot, copy in enumerate(chunk):
            card = every[copy]
            cards.append(thing("Card", (deck.id, copy), card.printed_title or card.id, describe(card),
                               at=transform(scale=card_scale(deck.format.face_size), flipped=True),
                               CardID=key * 100 + slot, SidewaysCard=False,
                               CustomDeck={str(key): custom[str(key)]}))
    if len(cards) == 1:
        return cards
    name = "DeckCustom" if len(custom) == 1 else "Deck"
    return [thing(name, (deck.id,), deck.name, at=transform(scale=card_scale(deck.format.face_size), flipped=True),
                  SidewaysCard=False, DeckIDs=[card["CardID"] for card in cards], CustomDeck=custom,
                  ContainedObjects=cards)]


def tile(key: tuple, nickname: str, description: str, front: str, back: str, shape: int, stackable: bool,
         thickness: float, size: tuple[float, float], at: dict | None = None, locked: bool = False) -> dict:
    """A double-sided Custom_Tile: `front` on top, `back` below, `size` mm."""
    placed = at or transform(scale=tile_scale(size))
    return thing("Custom_Tile", key, nickname, description, at=placed, locked=locked,
                 CustomImage={"ImageURL": front, "ImageSecondaryURL": back, "WidthScale": 0.0,
                              "CustomTile": {"Type": shape, "Thickness": thickness, "Stackable": stackable,
                                             "Stretch": True}})


def token_tiles(deck, tiles: list[dict], images: Images) -> list[dict]:
    """Every copy of every token of the set as a double-sided Custom_Tile."""
    shape = TILE_CIRCLE if deck.format.shape == "round" else TILE_BOX
    cards = {card.id: card for card in deck.cards}
    result = []
    for row in tiles:
        card = cards[row["id"]]
        for copy in range(row["count"]):
            result.append(tile((deck.id, row["id"], copy), row["title"] or row["id"], describe(card),
                               images.url(deck.id, row["front"]), images.url(deck.id, row["back"]), shape,
                               True, TILE_THICKNESS, deck.format.face_size))
    return result


def bag(key: str, nickname: str, contents: list[dict]) -> dict:
    return thing("Bag", ("bag", key), nickname, f"{len(contents)} object(s)", MaterialIndex=-1,
                 ContainedObjects=contents)


def shelf(sizes: list[tuple[float, float]], width: float) -> list[tuple[float, float]]:
    """Centres (x, z) for footprints of `sizes` units laid left to right in rows at most `width` wide, the rows
    running towards the players (TTS: x to the right, z away from the player), never overlapping."""
    centres, x, z, row = [], 0.0, 0.0, 0.0
    for w, h in sizes:
        if x > 0 and x + w > width:
            x, z, row = 0.0, z - row - GAP_UNITS, 0.0
        centres.append((x + w / 2, z - h / 2))
        x += w + GAP_UNITS
        row = max(row, h)
    return centres


def board_images(game, staging, dpi: int, files: list[dict]) -> list[tuple[object, str, tuple[int, int]]]:
    """board-<id>.png for each board, at most BOARD_DPI and within 4096 px a side: (board, file, pixels)."""
    result = []
    for board in game.boards.values():
        board_dpi = min(dpi, BOARD_DPI, math.floor(TTS_MAX_PIXELS / max(board.size) * MM_PER_INCH))
        data, pixels = board_image(game, board, board_dpi)
        name = f"board-{board.id}.png"
        write(staging, name, data, files)
        result.append((board, name, pixels))
    return result


def staged_file(staging, name: str) -> Path:
    """Where a file written through `staging` is until it is committed."""
    return next(temporary for temporary, final in staging.pending if final.name == name)


def thumbnail(exported: list, board_files: list[Path]) -> bytes:
    """THUMBNAIL px square: the first board, else the first deck's first card, on white."""
    from PIL import Image

    canvas = Image.new("RGB", (THUMBNAIL, THUMBNAIL), "white")
    picture = None
    if board_files:
        with Image.open(board_files[0]) as whole:
            picture = whole.convert("RGB")
    elif exported:
        _, staging, item = exported[0]
        sheet = item.manifest["sheets"][0]
        with Image.open(staged_file(staging, sheet["face"])) as whole:
            picture = whole.crop((0, 0, *sheet["card_pixels"])).convert("RGB")
    if picture is not None:
        picture.thumbnail((THUMBNAIL, THUMBNAIL))
        canvas.paste(picture, ((THUMBNAIL - picture.width) // 2, (THUMBNAIL - picture.height) // 2))
    return png_bytes(canvas, 72)


def saved_object(game, exported: list, boards: list, images: Images) -> dict:
    """The save: boards side by side at the top, a bag per deck or counter set in rows below them."""
    placed = []
    for board, name, _ in boards:
        url = images.url(name)
        placed.append(((board.size[0] / UNIT_MM, board.size[1] / UNIT_MM),
                       lambda x, z, board=board, url=url: tile(
                           ("board", board.id), board.name, "", url, url, TILE_BOX, False, BOARD_THICKNESS,
                           board.size, transform(x, z, scale=tile_scale(board.size)), locked=True)))
    sheet_id = 1
    for deck, _, item in exported:
        settings = item.manifest
        if deck.format.component == "tokens" and settings.get("tiles"):
            contents = token_tiles(deck, settings["tiles"], images)
        else:
            contents = deck_objects(deck, settings["sheets"], settings["unique_backs"], images, sheet_id)
            sheet_id += len(settings["sheets"])
        placed.append(((BAG_UNITS, BAG_UNITS),
                       lambda x, z, deck=deck, contents=contents: {**bag(deck.id, deck.name, contents),
                                                                   "Transform": transform(x, z, y=1.5)}))
    width = max([size[0] for size, _ in placed[:len(boards)]] + [10 * (BAG_UNITS + GAP_UNITS)])
    objects = [make(x, z) for (_, make), (x, z) in zip(placed, shelf([size for size, _ in placed], width))]
    return {"SaveName": game.title, "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "",
            "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects}


def export_saved_object(game, exported: list, staging, dpi: int, base_url: str | None) -> DeckExport:
    """<game>.json, the saved object, with <game>.png beside it (TTS shows it in Saved Objects), and the boards'
    images; written into OUT/<game>/tts/ after the decks' sheets, which it names."""
    from .. import __version__

    if not exported and not game.boards:
        raise MusterError.of(codes.NOTHING_TO_EXPORT, subject=game.id,
                             nothing="nothing to put in a Tabletop Simulator saved object")
    files: list[dict] = []
    boards = board_images(game, staging, dpi, files)
    images = Images(staging.folder, base_url)
    document = saved_object(game, exported, boards, images)
    write(staging, f"{game.id}.json", (json_text(document, indent=2) + "\n").encode("utf-8"),
          files)
    write(staging, f"{game.id}.png", thumbnail(exported, [staged_file(staging, name) for _, name, _ in boards]),
          files)
    counted = sum(len(obj.get("ContainedObjects", [])) for obj in document["ObjectStates"])
    settings = {"base_url": base_url, "boards": [{"id": board.id, "file": name, "pixels": list(pixels)}
                                                 for board, name, pixels in boards]}
    manifest = {"game": game.id, "export": "tts-saved-object", "muster": __version__, **settings, "files": files}
    summary = (f"{game.id}: Tabletop Simulator saved object {game.id}.json: {len(boards)} board(s), "
               f"{len(exported)} bag(s) of {counted} object(s) -> {staging.folder}")
    return DeckExport(manifest, summary)
