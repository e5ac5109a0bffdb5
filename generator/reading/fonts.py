"""The bundled font book read: fonts/fonts.yaml into a core.fonts.FontBook, the one this process then uses."""

from __future__ import annotations

from functools import lru_cache

from ..core import fonts
from ..core.bundle import fonts_dir
from ..core.errors import Location, MusterError
from .sourcemap import Map, load_yaml


@lru_cache(maxsize=1)
def read_font_book() -> fonts.FontBook:
    """The fonts layouts may name and their families, from now on the ones this process measures and draws with."""
    folder = fonts_dir()
    data = load_yaml(folder / "fonts.yaml")
    if not isinstance(data, Map):
        raise MusterError("expected a mapping", Location(folder / "fonts.yaml"))
    files = {name: folder / spec["file"] for name, spec in data["fonts"].items()}
    families = {name: dict(members) for name, members in data["families"].items()}
    book = fonts.FontBook(files, families)
    fonts.use(book)
    return book
