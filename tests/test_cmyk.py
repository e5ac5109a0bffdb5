"""Files a print shop accepts: every font embedded, CMYK colour through an ICC profile, PDF/X (issue 15).

The checker here walks each PDF with pypdf, pages and the forms they place alike, so that what a preflight would
reject is found in the tests and not at the shop."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.building.kit import build_all
from generator.core.options import Options

GAMES = ["company-commander", "eastern-front", "europe-1939", "grid-battle", "modern-war", "tank-duel"]


def resources(pdf: Path):
    """Every resource dictionary of a PDF (each page's and each form's it places, at any depth), with where it is."""
    from pypdf import PdfReader

    reader = PdfReader(pdf)
    seen = set()

    def walk(res, where):
        res = res.get_object() if res is not None else None
        if res is None or id(res) in seen:
            return
        seen.add(id(res))
        yield where, res
        for name, xobject in (res.get("/XObject") or {}).items():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Form":
                yield from walk(xobject.get("/Resources"), f"{where} {name}")

    for number, page in enumerate(reader.pages, 1):
        yield from walk(page.get("/Resources"), f"page {number}")


def unembedded_fonts(pdf: Path) -> list[str]:
    """The fonts a PDF names without embedding a font program, each as 'where: font'."""
    missing = []
    for where, res in resources(pdf):
        for font in (res.get("/Font") or {}).values():
            font = font.get_object()
            descriptors = [font.get("/FontDescriptor")]
            descriptors += [child.get_object().get("/FontDescriptor") for child in font.get("/DescendantFonts", [])]
            if not any(d is not None and any(k in d.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3"))
                       for d in descriptors):
                missing.append(f"{where}: {font.get('/BaseFont')}")
    return missing


@pytest.fixture(scope="module")
def rgb_kits(tmp_path_factory):
    out = tmp_path_factory.mktemp("rgb")
    outcomes = list(build_all(GAMES, out, Options(booklet=True), 1, force=True))
    assert [outcome.code for outcome in outcomes] == [0] * len(GAMES)
    return out


def test_every_font_of_every_pdf_is_embedded(rgb_kits):
    pdfs = sorted(rgb_kits.glob("*/*.pdf"))
    assert {p.name for p in pdfs} >= {"rules.pdf", "rules-booklet.pdf", "calibration.pdf", "tokens.pdf"}
    assert {pdf.relative_to(rgb_kits).as_posix(): unembedded_fonts(pdf) for pdf in pdfs
            if unembedded_fonts(pdf)} == {}


def test_exported_card_pdfs_embed_every_font(tmp_path):
    from typer.testing import CliRunner

    from generator.cli.app import app

    result = CliRunner().invoke(app, ["export", "pdf", "--out", str(tmp_path), "tank-duel"])
    assert result.exit_code == 0, result.output
    pdfs = sorted(tmp_path.rglob("*.pdf"))
    assert pdfs and [p.name for p in pdfs if unembedded_fonts(p)] == []
