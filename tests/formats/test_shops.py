"""`muster export shop`: each shop's files have the pixel sizes, names, type and order its profile says; a card
size the shop does not print is an error listing the sizes it does; the shop's safe zone and bleed are checked."""

from __future__ import annotations

import json

import pytest
from PIL import Image
from pypdf import PdfReader
from typer.testing import CliRunner

from conftest import patched
from generator.cli.app import export_app
from generator.formats.exports import png_size
from generator.formats.scaffold import new_game
from generator.formats.shops import shops
from generator.reading.spec import SHOPS
from test_cmyk import print_problems

CARDS = ["001-infantry", "002-tanks", "003-artillery", "004-air-strike", "005-ambush"]


@pytest.fixture
def game(tmp_path):
    return new_game("shop-war", tmp_path / "games")  # poker, 63 x 88 mm: a shop's 2.5 x 3.5 in


def _export(*args: str):
    return CliRunner().invoke(export_app, ["shop", *map(str, args)])


def _files(folder) -> list[str]:
    return [entry["file"] for entry in json.loads((folder / "manifest.json").read_text())["files"]]


def test_profiles_are_whole_and_their_pixels_are_their_sizes():
    assert tuple(shops()) == SHOPS  # game.yaml's shop: takes exactly the profiles there are
    for shop in shops().values():
        assert shop.colour in ("rgb", "cmyk") and shop.bleed > 0 and shop.safe > 0
        for size in shop.sizes.values():
            if shop.file != "pdf":
                # the documented pixels are the card and the shop's bleed at its resolution
                assert png_size(size.card, shop.bleed, shop.dpi) == size.pixels, (shop.id, size.name)


@pytest.mark.parametrize("shop, kind, pixels, front, back", [
    ("makeplayingcards", "PNG", (822, 1122), "{}-front.png", "{}-back.png"),
    ("printerstudio", "JPEG", (822, 1122), "{}-front.jpg", "{}-back.jpg"),
    ("thegamecrafter", "PNG", (825, 1125), "{}.png", "{}-back.png"),
])
def test_image_shops(game, tmp_path, shop, kind, pixels, front, back):
    result = _export(shop, game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert f"{2 * len(CARDS)} {'PNG' if kind == 'PNG' else 'JPG'}s of {pixels[0]} x {pixels[1]} px" in result.stdout
    folder = tmp_path / "out" / "shop-war" / shop / "battle"
    names = [name.format(card) for card in CARDS for name in (front, back)]
    assert _files(folder) == names + ["cards.csv"]  # in order: each card's front, then its back
    for name in names:
        with Image.open(folder / name) as image:
            assert (image.format, image.size) == (kind, pixels)
            assert round(image.info["dpi"][0]) == 300
            rgb = image.convert("RGB")
        # the background reaches every edge: no white strip at the right or the bottom
        assert rgb.getpixel((pixels[0] - 1, pixels[1] // 2))[0] < 250
        assert rgb.getpixel((pixels[0] // 2, pixels[1] - 1))[0] < 250
    csv_text = (folder / "cards.csv").read_text()
    assert csv_text.splitlines()[1].startswith(f"1,infantry,Infantry,2,{front.format(CARDS[0])}")
    assert json.loads((folder / "manifest.json").read_text())["pixels"] == list(pixels)


def test_drivethrucards_one_pdf_per_deck_each_copy_s_back_then_its_front(game, tmp_path):
    result = _export("drivethrucards", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "shop-war" / "drivethrucards" / "battle"
    assert _files(folder) == ["battle.pdf", "cards.csv"]
    pages = PdfReader(folder / "battle.pdf").pages
    assert len(pages) == 2 * 6  # a back and a front per copy
    titles = ("Infantry", "Air Strike", "Artillery", "Ambush", "Tanks")
    shown = [next((t for t in titles if t in text), "back" if "Battle deck" in text else text)
             for text in (page.extract_text() for page in pages)]
    # the shop's help page: page 1 the back of card 1, page 2 its front, page 3 the back of card 2, ...
    assert shown == ["back", "Infantry", "back", "Infantry", "back", "Tanks", "back", "Artillery",
                     "back", "Air Strike", "back", "Ambush"]
    for page in pages:  # 2.75 x 3.75 in with 1/8 in bleed, TrimBox the 2.5 x 3.5 in card
        assert [round(float(v), 2) for v in page.mediabox] == [0, 0, 198, 270]
        assert [round(float(v), 2) for v in page.trimbox] == [9, 9, 189, 261]
    # PDF/X-1a:2003 in CMYK, total ink at most 240 %, as the shop asks
    assert print_problems(folder / "battle.pdf", ink_limit=2.4) == []


def test_the_shop_named_in_game_yaml(game, tmp_path):
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(text + "shop: thegamecrafter\n")
    result = _export(game, "--out", tmp_path / "out", "--quiet")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "shop-war" / "thegamecrafter" / "battle" / "001-infantry.png").is_file()
    (game / "game.yaml").write_text(text + "shop: thegamecrafters\n")
    wrong = _export(game, "--out", tmp_path / "out")
    assert wrong.exit_code == 1 and "shop" in wrong.stderr and "thegamecrafter" in wrong.stderr


def test_a_size_the_shop_does_not_print(game, tmp_path):
    (game / "game.yaml").write_text(patched((game / "game.yaml").read_text(), {"  size: poker ": "  size: mini "}))
    result = _export("printerstudio", game, "--out", tmp_path / "out")
    assert result.exit_code in (1, 2)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "PrinterStudio does not print deck 'battle''s 44 x 68 mm cards" in lines[0]
    assert "poker (63.5 x 88.9 mm)" in lines[0] and "square (63.5 x 63.5 mm)" in lines[0]
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.jpg"))
    unknown = _export("kinkos", game, "--out", tmp_path / "out")
    assert unknown.exit_code == 2 and "no shop 'kinkos'" in unknown.stderr and "drivethrucards" in unknown.stderr


def test_the_shop_safe_zone_and_bleed_are_checked(game, tmp_path):
    face = game / "face.yaml"
    text = patched(face.read_text(), {'w: "{{ face.w }}", h: "{{ face.h }}", fill: paper': "w: 63, h: 88, fill: paper"})
    face.write_text(text + "".join(f"  - {{kind: text, x: 2, y: {y}, w: 20, h: 4, text: EDGE{y}, size: 7}}\n"
                                   for y in (40, 46, 52)))  # 2 mm in: outside the shop's 0.12 in
    result = _export("makeplayingcards", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "bleed-gap" not in result.stdout  # codes are not printed; the messages are
    assert "leaves the 3.048 mm bleed uncovered on the right and bottom" in result.stdout
    assert "outside the 3.048 mm safe zone" in result.stdout
    # 5 cards with 3 texts each outside, and the face layout's gap: the first 10 warnings, then how many more
    assert len([line for line in result.stdout.splitlines() if ": warning: " in line]) == 10
    assert "... and 6 more warnings in deck 'battle'" in result.stdout


def test_strict_refuses_an_upload_with_text_outside_the_safe_zone(game, tmp_path):
    face = game / "face.yaml"
    face.write_text(face.read_text() + "  - {kind: text, x: 1.5, y: 40, w: 20, h: 4, text: EDGE, size: 7}\n")
    warned = _export("makeplayingcards", game, "--out", tmp_path / "warned")
    assert warned.exit_code == 0 and "outside the 3.048 mm safe zone" in warned.stdout
    refused = _export("makeplayingcards", game, "--out", tmp_path / "refused", "--strict")
    assert refused.exit_code == 1 and "Traceback" not in refused.output
    errors = [line for line in refused.stderr.splitlines() if ": error: " in line]
    assert [line.split("shop-war/")[1].split(" (face)")[0] for line in errors] == [  # each located at its card
        f"cards.yaml:{3 + i}:5: error: cards[{i}]: '{title}'" for i, title in
        enumerate(["Infantry", "Tanks", "Artillery", "Air Strike", "Ambush"])]
    assert not (tmp_path / "refused").exists() or not any((tmp_path / "refused").rglob("*.png"))
    # DriveThruCards' profile is strict of itself: its PDF goes to print as it is
    assert shops()["drivethrucards"].strict and not shops()["makeplayingcards"].strict
    dtc = _export("drivethrucards", game, "--out", tmp_path / "dtc")
    assert dtc.exit_code == 1 and "outside the 3.175 mm safe zone" in dtc.stderr
    assert not (tmp_path / "dtc").exists() or not any((tmp_path / "dtc").rglob("*.pdf"))


def test_eastern_front_passes_drivethrucards_strict():
    from generator.formats.exports import prepare
    from generator.formats.shops import STRICT

    shop = shops()["drivethrucards"]
    game, decks, laid = prepare("eastern-front", None, shop.bleed, adapt=shop.fitted, warnings=True, refuse=STRICT)
    assert len(decks) == 3 and all(deck.format.face_size == pytest.approx((63.5, 88.9)) for deck in decks)
    assert [f for deck in laid.values() for f in deck.findings if f.code in STRICT] == []


def test_the_drivethrucards_export_says_which_printing_condition_it_declares(game, tmp_path):
    result = _export("drivethrucards", game, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    colour = [line for line in result.stdout.splitlines() if line.strip().startswith("colour:")]
    assert len(colour) == 1 and "FOGRA39" in colour[0] and "US Web Coated (SWOP) v2" in colour[0]
    intent = PdfReader(tmp_path / "out" / "shop-war" / "drivethrucards" / "battle" / "battle.pdf").trailer["/Root"]
    assert intent["/OutputIntents"][0].get_object()["/OutputConditionIdentifier"] == "FOGRA39"
