"""The ellipse element: the ellipse filling its box, drawn where the box is."""

from __future__ import annotations

import pypdfium2 as pdfium

from generator.core.display import Ellipse
from generator.layout.cards import lay_out_cards
from generator.reading.loading import load_game
from generator.rendering.raster import write_face_pages

OVAL = """\
elements:
  - {kind: box, x: 0, y: 0, w: 63, h: 88, fill: "#ffffff", bleed: true}
  - {kind: ellipse, x: 10, y: 30, w: 40, h: 20, fill: "#000000", stroke: "#ff0000", stroke_width: 0.5mm}
"""


def test_an_ellipse_fills_its_box(make_game, tmp_path):
    game = load_game(make_game({"face.yaml": OVAL}))
    laid = lay_out_cards(game, game.decks["reds"], 0.0)
    assert not laid.findings
    [oval] = [item for item in laid.faces[laid.fronts[0]].items if isinstance(item, Ellipse)]
    assert oval == Ellipse(30.0, 40.0, 20.0, 10.0, "#000000", "#ff0000", 0.5)
    target = tmp_path / "face.pdf"
    write_face_pages(target, "oval", laid.faces, [laid.fronts[0]], (63.0, 88.0), 0.0)
    document = pdfium.PdfDocument(str(target))
    try:
        image = document[0].render(scale=4).to_pil().convert("RGB")  # 288 dpi
    finally:
        document.close()
    scale = image.width / 63.0  # pixels per mm

    def at(x, y):
        return image.getpixel((round(x * scale), round(y * scale)))

    assert at(30, 40) == (0, 0, 0)                         # the centre
    assert at(10, 40)[0] > 200 and at(10, 40)[1] < 80  # the stroke, on the box's left edge, mid-height
    assert at(9.5, 40) == (255, 255, 255)            # nothing left of it
    assert at(12, 31) == (255, 255, 255)                    # the box's corner lies outside the ellipse
    assert at(30, 28) == (255, 255, 255)                    # above the box
