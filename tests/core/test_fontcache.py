"""The bundled fonts as reportlab reads them, kept between runs (core/fontcache.py): read back, a font is what
reportlab made of the file, and draws the same PDF; a game's font, an edited file, a damaged entry or a run that
writes no bytecode are never served from the cache."""

from __future__ import annotations

import os
import shutil
import sys

import pytest
from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfgen.canvas import Canvas

from generator.core import fontcache, fonts
from generator.core.bundle import fonts_dir

TEXT = fonts_dir() / "DejaVuSansCondensed.ttf"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """The user's cache folder in tmp_path, written to."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    return tmp_path / "muster" / "fonts"


def drawn(font) -> bytes:
    """A page of text in `font`, Latin and Arabic (shaped: the font's scale to the PDF's units at work)."""
    pdfmetrics._fonts[font.fontName] = font
    canvas = Canvas(os.devnull, invariant=1)
    canvas.setFont(font.fontName, 12)
    canvas.drawString(20, 700, "Armour assault, 2× ★ à bientôt")
    canvas.drawString(20, 680, f"{fonts.shaping.unit_width('مرحبا', font.fontName):.9f}")
    canvas.showPage()
    return canvas.getpdfdata()


def test_a_bundled_font_read_once_is_read_back_as_reportlab_read_it(cache, monkeypatch):
    read = fonts._parse("cache-test", TEXT, 0, bundled=True)
    assert len(list(cache.iterdir())) == 1
    monkeypatch.setattr(ttfonts.TTFontFile, "extractInfo", lambda *args: pytest.fail("parsed again"))
    kept = fontcache.load("cache-test", TEXT, 0)
    assert type(kept) is type(read) and type(kept.face) is type(read.face)
    assert {key: value for key, value in vars(kept).items() if key not in ("face", "encoding", "state")} == \
        {key: value for key, value in vars(read).items() if key not in ("face", "encoding", "state")}
    assert {key: value for key, value in vars(kept.face).items() if key != "_pdfScale"} == \
        {key: value for key, value in vars(read.face).items() if key != "_pdfScale"}
    assert {key: type(value) for key, value in vars(kept.face).items()} == \
        {key: type(value) for key, value in vars(read.face).items()}
    assert kept.face.name.ustr == read.face.name.ustr == "DejaVuSansCondensed"
    assert [kept.pdfScale(units) for units in (0, 1, 1234)] == [read.pdfScale(units) for units in (0, 1, 1234)]
    try:
        assert drawn(kept) == drawn(read)
    finally:
        del pdfmetrics._fonts["cache-test"]


def test_a_game_font_is_never_kept(cache, tmp_path):
    game_font = tmp_path / "game" / "Mine.ttf"
    game_font.parent.mkdir()
    shutil.copyfile(TEXT, game_font)
    fonts.parsed("cache-test-game", game_font, "stamp")
    assert not cache.exists() or list(cache.iterdir()) == []


def test_an_edited_file_or_a_damaged_entry_is_read_again(cache, tmp_path):
    font_file = tmp_path / "Font.ttf"
    shutil.copyfile(TEXT, font_file)
    fontcache.store(fonts._parse("cache-test", font_file, 0, bundled=False), font_file, 0)
    assert fontcache.load("cache-test", font_file, 0) is not None
    assert fontcache.load("cache-test", font_file, 1) is None  # another face of the file
    os.utime(font_file, ns=(0, 0))
    assert fontcache.load("cache-test", font_file, 0) is None
    fontcache.store(fonts._parse("cache-test", font_file, 0, bundled=False), font_file, 0)
    entry = cache / fontcache._entry("cache-test", font_file, 0)
    entry.write_bytes(entry.read_bytes()[:1000])
    assert fontcache.load("cache-test", font_file, 0) is None


def test_a_run_asked_to_write_no_bytecode_keeps_no_font(cache, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    fonts._parse("cache-test", TEXT, 0, bundled=True)
    assert not cache.exists() or list(cache.iterdir()) == []
