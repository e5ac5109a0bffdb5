"""Where the bundled games, layouts, fonts and colour profiles are: inside the installed package, or at the top
of a checkout."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=None)
def _bundle_root() -> Path:
    installed = _PACKAGE / "bundled"
    return installed if installed.is_dir() else _PACKAGE.parent


def bundled_games_dir() -> Path:
    return _bundle_root() / "decks"


def layouts_dir() -> Path:
    return _bundle_root() / "layouts"


def fonts_dir() -> Path:
    return _bundle_root() / "fonts"


def profiles_dir() -> Path:
    """The ICC colour profiles CMYK builds and PDF/X output intents use, each with its licence."""
    return _bundle_root() / "profiles"


def is_bundled(path: Path) -> bool:
    """Whether `path` lies in a bundled game: read-only, as it is part of the installation."""
    games = bundled_games_dir().resolve()
    path = Path(path).resolve()
    return path == games or games in path.parents
