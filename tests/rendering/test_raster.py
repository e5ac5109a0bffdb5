"""Rendered pages compared with reviewed reference images, within a tolerance.

After a deliberate change to a layout, look at the new pages, then refresh the references with
`MUSTER_UPDATE_REFERENCES=1 pytest tests/rendering/test_raster.py` and review the PNGs in tests/reference/ before committing.
"""

from __future__ import annotations

import os

import pytest
from PIL import Image, ImageChops

from pdfcheck import rasterise
from conftest import TESTS

REFERENCES = TESTS / "reference"
CASES = [("europe-1939", "germans", 0), ("europe-1939", "allies", 1)]


@pytest.mark.parametrize("game, deck, page", CASES)
def test_page_matches_reference(bundled_kit, game, deck, page):
    image = rasterise(bundled_kit(game) / f"cards-{deck}.pdf", page)
    reference = REFERENCES / f"{game}-{deck}-p{page + 1}.png"
    if os.environ.get("MUSTER_UPDATE_REFERENCES") == "1":
        image.save(reference, optimize=True)
    expected = Image.open(reference).convert("L")
    assert image.size == expected.size
    difference = ImageChops.difference(image, expected)
    changed = difference.point(lambda value: 255 if value > 48 else 0).histogram()[255]
    assert changed / (image.size[0] * image.size[1]) < 0.002, f"{changed} pixels differ from {reference.name}"
