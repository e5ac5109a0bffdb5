"""Print shops' profiles and `muster export shop`: the files a shop asks for, as shops.yaml (bundled beside this
module) describes each shop: card sizes, bleed, safe zone, pixel size, file type, colour mode, names and order.

A deck is matched to the shop's size nearest its own (within MATCH_MM on both sides: Muster's poker, 63 x 88 mm,
is a shop's 2.5 x 3.5 in) and laid out again at exactly the shop's size, bleed and safe zone, with the warnings of
`muster validate` (text outside the safe zone, a background short of the bleed) kept for the summary. A deck of
a size the shop does not print is an error listing the sizes it does. The pixels come from exports.py and
rendering/raster.py, as for `muster export png` and `pdf`; only the names, the sizes and the order are the shop's.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..core import codes
from ..core.errors import MusterError
from ..core.options import Options
from ..core.units import parse_length, parse_size
from .exports import DeckExport, cards_csv, entries, manifest, write, write_faces

SHOPS_FILE = Path(__file__).resolve().parent / "shops.yaml"
MATCH_MM = 1.5  # a deck within this of a shop's size on both sides is printed at the shop's size
FILE_TYPES = ("png", "jpg", "pdf")
ORDERS = ("pairs", "back-front")
SHOWN_WARNINGS = 10  # per deck: a layout too close to the shop's edge would otherwise warn for every card
STRICT = ("outside-safe-area", "bleed-gap")  # the warnings that refuse an upload with --strict or `strict: true`


@dataclass(frozen=True)
class ShopSize:
    """One card size a shop prints: its name there, the trim in mm, the pixels of its image files (None for PDF),
    and whether the value is only the commonly published one ("common")."""

    name: str
    card: tuple[float, float]
    pixels: tuple[int, int] | None
    published: str


@dataclass(frozen=True)
class Shop:
    """A print shop's profile (shops.yaml): what its card files must be."""

    id: str
    name: str
    file: str
    dpi: int
    bleed: float
    safe: float
    colour: str
    order: str
    front: str
    back: str
    sizes: dict[str, ShopSize]
    published: str
    ink_limit: float | None = None  # percent of total ink, for a cmyk shop that asks for less than the profile's
    strict: bool = False  # the shop's files refused (exit 1) on text outside its safe zone or art short of its bleed
    condition: str = ""  # for a cmyk shop: the printing condition its files declare, and why, said with every export

    def printing(self) -> Options:
        """How the shop's PDFs are printed: PDF/X-1a in CMYK, held to its ink limit, for a cmyk shop."""
        return Options(pdfx=True, ink_limit=self.ink_limit) if self.colour == "cmyk" else Options()

    def size_for(self, deck) -> ShopSize:
        """The shop's size nearest the deck's; MusterError listing the sizes it prints when none is near."""
        w, h = deck.format.face_size
        near = [size for size in self.sizes.values()
                if abs(size.card[0] - w) <= MATCH_MM and abs(size.card[1] - h) <= MATCH_MM]
        if not near:
            printed = ", ".join(f"{s.name} ({s.card[0]:g} x {s.card[1]:g} mm)" for s in self.sizes.values())
            raise MusterError.of(codes.SHOP_SIZE, deck.where, "format.size", shop=self.name, deck=deck.id, w=w, h=h,
                                 printed=printed)
        return min(near, key=lambda s: abs(s.card[0] - w) + abs(s.card[1] - h))

    def fitted(self, deck):
        """The deck at the shop's size and with its safe zone, to be laid out again for the shop."""
        return dataclasses.replace(deck, format=dataclasses.replace(deck.format, face_size=self.size_for(deck).card,
                                                                    safe=self.safe))


@lru_cache(maxsize=1)
def shops() -> dict[str, Shop]:
    """Every profile of shops.yaml, by id."""
    import yaml

    data = yaml.safe_load(SHOPS_FILE.read_text(encoding="utf-8"))
    return {shop_id: _shop(shop_id, entry) for shop_id, entry in data.items()}


def _shop(shop_id: str, entry: dict) -> Shop:
    sizes = {name: ShopSize(name, parse_size(size["card"], {}),
                            tuple(size["pixels"]) if "pixels" in size else None,
                            size.get("published", entry.get("published", "")))
             for name, size in entry["sizes"].items()}
    shop = Shop(shop_id, entry["name"], entry["file"], entry["dpi"], parse_length(entry["bleed"]),
                parse_length(entry["safe"]), entry["colour"], entry["order"], entry.get("front", ""),
                entry.get("back", ""), sizes, entry.get("published", ""), entry.get("ink_limit"),
                entry.get("strict", False), entry.get("condition", ""))
    if shop.file not in FILE_TYPES or shop.order not in ORDERS:
        raise ValueError(f"shops.yaml: {shop_id}: file must be one of {FILE_TYPES}, order one of {ORDERS}")
    return shop


def find_shop(name: str | None, game) -> Shop:
    """The shop named (on the command line, or else by `shop:` in game.yaml); MusterError listing the shops."""
    from ..core.errors import did_you_mean

    chosen = name or (game.shop if game is not None else "")
    if not chosen:
        raise MusterError.of(codes.NO_SHOP, game.where if game is not None else None, shops=", ".join(shops()))
    if chosen not in shops():
        raise MusterError.of(codes.UNKNOWN_SHOP, name=chosen, hint=did_you_mean(chosen, shops()),
                             shops=", ".join(shops()))
    return shops()[chosen]


def export_shop(shop: Shop, game, deck, laid, staging) -> DeckExport:
    """The deck's files for `shop`: images named and sized as it says, or one PDF in its page order; cards.csv
    with the copies; the warnings of laying the deck out at the shop's size in the summary."""
    size = shop.size_for(deck)
    rows = entries(deck, laid)
    files: list[dict] = []
    cards = []
    if not rows:
        raise MusterError.of(codes.NOTHING_TO_EXPORT, deck.where, subject=f"deck '{deck.id}'",
                             nothing="no card with a copy to print")
    if shop.file == "pdf":
        described = _write_pdf(shop, game, deck, laid, rows, staging, files)
        cards = [{"number": row.number, "id": row.id, "title": row.title, "count": row.count} for row in rows]
    else:
        from ..reading.decks import slug
        from ..rendering.raster import jpeg_bytes, png_bytes

        named = []
        for row in rows:
            names = [f"{pattern.format(number=row.number, id=slug(row.id))}.{shop.file}"
                     for pattern in (shop.front, shop.back)]
            named += zip(names, (row.front, row.back))
            cards.append({"number": row.number, "id": row.id, "title": row.title, "count": row.count,
                          "front": names[0], "back": names[1]})
        files += write_faces(game, deck, laid, staging, named, size.pixels, shop.dpi, shop.bleed,
                             png_bytes if shop.file == "png" else jpeg_bytes)
        described = f"{2 * len(rows)} {shop.file.upper()}s of {size.pixels[0]} x {size.pixels[1]} px"
    write(staging, "cards.csv", cards_csv(cards), files)
    settings = {"shop": shop.id, "size": size.name, "bleed_mm": shop.bleed, "safe_mm": shop.safe,
                "dpi": shop.dpi, "colour": shop.colour, "order": shop.order,
                "pixels": list(size.pixels) if size.pixels else None}
    warnings = [f"  {finding}" for finding in laid.findings if finding.severity == "warning"]
    if len(warnings) > SHOWN_WARNINGS:
        warnings[SHOWN_WARNINGS:] = [f"  ... and {len(warnings) - SHOWN_WARNINGS} more warnings in deck '{deck.id}'"]
    condition = [f"  colour: {shop.condition}"] if shop.condition else []
    summary = "\n".join([f"{game.id}: {deck.id}: {shop.name} {size.name} ({size.card[0]:g} x {size.card[1]:g} mm, "
                         f"{shop.bleed:g} mm bleed): {described} -> {staging.folder}", *condition, *warnings])
    return DeckExport(manifest(game, deck, f"shop:{shop.id}", settings, cards, files), summary)


def _write_pdf(shop: Shop, game, deck, laid, rows, staging, files: list[dict]) -> str:
    """<deck>.pdf, two pages per printed copy, in the deck's order: the copy's back, then its front (the shop's
    "Spezifikationen für gedruckte Karten": page 1 the back of card 1, page 2 its front, page 3 the back of card 2,
    and so on; docs/exports.md cites it). The same back is repeated for every copy: the shop reads the pages in
    pairs, and a lone back page would turn every other front into a back."""
    from ..core.files import sha256
    from ..rendering.raster import write_face_pages

    pages = [index for row in rows for _ in range(row.count) for index in (row.back, row.front)]
    name = f"{deck.id}.pdf"
    target = staging.path(name)
    write_face_pages(target, f"{game.title}: {deck.name}", laid.faces, pages, deck.format.face_size, shop.bleed,
                     boxes=True, printing=shop.printing())
    files.append({"file": name, "sha256": sha256(target)})
    return f"{name}, {len(pages)} pages (each copy's back, then its front)"
