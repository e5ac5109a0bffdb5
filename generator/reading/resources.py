"""Games found by name, and images checked before anything reads them."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from ..core.bundle import bundled_games_dir
from ..core.errors import Location, MusterError, did_you_mean


def find_game(name_or_path: str | Path) -> Path:
    """The folder of a game given by path, by its game.yaml, or by the name of a bundled game."""
    path = Path(name_or_path)
    if path.is_file() and path.name == "game.yaml":
        return path.parent
    if (path / "game.yaml").is_file():
        return path
    bundled = bundled_games_dir() / str(name_or_path)
    if re.fullmatch(r"[A-Za-z0-9_-]+", str(name_or_path)) and (bundled / "game.yaml").is_file():
        return bundled
    if path.exists():
        raise MusterError("no game.yaml in this folder", Location(path), code="missing-file")
    names = [game.name for game in bundled_games()]
    hint = did_you_mean(path.name, names, f" (bundled games: {', '.join(names)})")
    raise MusterError(f"no game folder or bundled game named '{name_or_path}'{hint}", code="unknown-game")


def bundled_games() -> list[Path]:
    root = bundled_games_dir()
    return sorted(p for p in root.iterdir() if (p / "game.yaml").is_file()) if root.is_dir() else []


MAX_IMAGE_PIXELS = 40_000_000


@lru_cache(maxsize=256)
def image_problem(path: Path) -> str | None:
    """Why an image cannot be printed (missing, unreadable, not PNG/JPEG/GIF, too large), or None."""
    from PIL import Image, UnidentifiedImageError

    if not path.is_file():
        return "no such file"
    try:
        with Image.open(path) as image:
            if image.format not in ("PNG", "JPEG", "GIF"):
                return f"{image.format} images are not supported (use PNG or JPEG)"
            if image.width * image.height > MAX_IMAGE_PIXELS:
                return f"{image.width} x {image.height} pixels is over the limit of {MAX_IMAGE_PIXELS:,}"
            image.verify()
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError) as exc:
        return f"not a readable image ({type(exc).__name__})"
    return None
