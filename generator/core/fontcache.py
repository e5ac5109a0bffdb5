"""The bundled fonts as reportlab reads them, kept between runs: parsing a font file (its glyphs' widths, its
character map, where each glyph lies) costs reportlab 3 to 10 ms a font, several fonts every build; reading back
what it read, about a third of that.

Only Muster's own fonts (fonts/) are kept: a game's fonts are untrusted and checked before reportlab reads them,
every run. Entries are marshal data (no code runs as they are read) in the user's cache folder
(`$XDG_CACHE_HOME/muster/fonts`, else `~/.cache/muster/fonts`), each filed by the digest of what it depends on:
the font file's path, size and time, the name and face it is read as, reportlab's version (and whether it
shapes text) and Python's. As with
compiled templates (sandbox.py), nothing is written when Python is asked to write no bytecode
(`PYTHONDONTWRITEBYTECODE`); deleting the folder is safe.
"""

from __future__ import annotations

import sys
from contextlib import suppress
from pathlib import Path
from weakref import WeakKeyDictionary

from .files import keep, kept

FORMAT = 1  # what an entry holds: a change to it files entries anew


def _entry(name: str, path: Path, face: int | str) -> str:
    """The name of the entry of font `name`, face `face` of the file at `path`, as this reportlab and Python read it."""
    import hashlib

    from reportlab import Version
    from reportlab.pdfbase.ttfonts import uharfbuzz  # whether reportlab shapes with it: a font's `shapable`

    status = path.stat()
    key = (f"{FORMAT}\0{path}\0{status.st_size}\0{status.st_mtime_ns}\0{name}\0{face}\0{Version}\0"
           f"{bool(uharfbuzz)}\0{sys.version}")
    return f"{hashlib.sha256(key.encode()).hexdigest()}.marshal"


def load(name: str, path: Path, face: int | str):
    """The reportlab font `name` of the bundled font file at `path` (its face `face`), as it was read before; None
    when it has not been kept, or its entry cannot be read."""
    try:
        entry = kept("fonts", _entry(name, path, face))
    except OSError:  # the file cannot be looked at: it is read, and says what is wrong, as any other
        return None
    if not (isinstance(entry, tuple) and len(entry) == 3 and all(isinstance(part, dict) for part in entry)):
        return None  # nothing kept, or not as this version keeps it
    font_state, face_state, names = entry
    from reportlab.pdfbase.ttfonts import TTEncoding, TTFNameBytes, TTFont, TTFontFace

    typeface = TTFontFace.__new__(TTFontFace)
    typeface.__dict__.update(face_state, **{key: TTFNameBytes(value) for key, value in names.items()})
    # reportlab's scale from the font's units to the PDF's thousandths, as TTFontFile.extractInfo makes it
    scale = 1000 / typeface.unitsPerEm
    typeface._pdfScale = (lambda x: x) if typeface.unitsPerEm == 1000 else (lambda x: x * scale)
    font = TTFont.__new__(TTFont)
    # what TTFont.__init__ makes besides the face: a fresh encoding and state (per document), as for any font
    font.__dict__.update(font_state, face=typeface, encoding=TTEncoding(), state=WeakKeyDictionary())
    return font


def store(font, path: Path, face: int | str) -> None:
    """Keeps `font` (just read by reportlab from the bundled font file at `path`) for the next run."""
    from reportlab.pdfbase.ttfonts import TTFNameBytes

    font_state = {key: value for key, value in vars(font).items() if key not in ("face", "encoding", "state")}
    face_state = {key: value for key, value in vars(font.face).items()
                  if key != "_pdfScale" and not isinstance(value, TTFNameBytes)}
    names = {key: bytes(value) for key, value in vars(font.face).items() if isinstance(value, TTFNameBytes)}
    with suppress(OSError):  # the file just read is gone: nothing to file it by
        keep("fonts", _entry(font.fontName, path, face), (font_state, face_state, names))
