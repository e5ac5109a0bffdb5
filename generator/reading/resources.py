"""Games found by name, and images checked before anything reads them."""

from __future__ import annotations

import re
from pathlib import Path

from ..core.bundle import bundled_games_dir
from ..core.errors import Location, MusterError, did_you_mean
from ..core import codes, svg
from ..core.inputs import IMAGE, opened, per_version


def find_game(name_or_path: str | Path) -> Path:
    """The folder of a game given by path, by its game.yaml, or by the name of a bundled game."""
    path = Path(name_or_path)
    if path.is_file() and path.name == "game.yaml":
        return path.parent
    if (path / "game.yaml").is_file() or (path / "game.yaml").is_symlink():  # a broken link: load_game says why
        return path
    bundled = bundled_games_dir() / str(name_or_path)
    if re.fullmatch(r"[A-Za-z0-9_-]+", str(name_or_path)) and (bundled / "game.yaml").is_file():
        return bundled
    if path.exists():
        raise MusterError("no game.yaml in this folder", Location(path), code="missing-file")
    names = [game.name for game in bundled_games()]
    hint = did_you_mean(path.name, names, f" (bundled games: {', '.join(names)})")
    raise MusterError.of(codes.UNKNOWN_GAME, name=name_or_path, hint=hint)


def bundled_games() -> list[Path]:
    root = bundled_games_dir()
    return sorted(p for p in root.iterdir() if (p / "game.yaml").is_file()) if root.is_dir() else []


MAX_IMAGE_PIXELS = 40_000_000
IMAGE_FORMATS = ("PNG", "JPEG", "GIF")
SUPPORTED = "supported: PNG, JPEG, GIF, and SVG named .svg"


@per_version(maxsize=256)
def image_problem(path: Path) -> MusterError | None:
    """Why an image cannot be printed, or None: missing, not a regular file, over its size in bytes or pixels, not
    PNG, JPEG or GIF, or not decodable to the end; an SVG (by its name) that refers to anything outside itself or
    that svglib cannot draw (core/svg.py). Layouts, icons and the rulebook all check their images here."""
    import warnings

    if svg.is_svg(path):
        try:
            svg.load(path)
        except MusterError as problem:
            return problem
        return None

    from PIL import Image, UnidentifiedImageError

    try:
        with opened(path, IMAGE) as handle, warnings.catch_warnings():
            # Pillow warns of a likely decompression bomb from 89 megapixels (and refuses from twice that): past
            # our own limit either way, so its warning is made an error rather than printed
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(handle, formats=IMAGE_FORMATS) as image:
                if image.width * image.height > MAX_IMAGE_PIXELS:
                    return MusterError(f"{image.width} x {image.height} pixels is over the limit of "
                                       f"{MAX_IMAGE_PIXELS:,}", code="too-large")
                image.load()  # decoded to the end: a truncated or corrupt image is found now, not while drawing
    except MusterError as problem:
        return problem
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        return MusterError(f"over the limit of {MAX_IMAGE_PIXELS:,} pixels (a decompression bomb?)", code="too-large")
    except UnidentifiedImageError:
        return MusterError(f"not a readable image ({SUPPORTED})", code="bad-image")
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        return MusterError(f"not a readable image ({type(exc).__name__}: {str(exc)[:100]})", code="bad-image")
    return None
