"""A kit's manifest.json: the game, the options and the key of the inputs it was built from, and every file."""

from __future__ import annotations

from .. import __version__
from ..core.options import Options
from ..core.plan import Built, Plan


def in_order(decks: list[Built], boards: list[Built], rules: list[Built]) -> list[Built]:
    """A kit's files in the manifest's order: card and token sheets, boards, the rulebook, the calibration page."""
    return (decks + [b for b in boards if b.kind != "calibration"] + rules
            + [b for b in boards if b.kind == "calibration"])


def manifest(plan: Plan, built: list[Built], options: Options, key: str | None) -> dict:
    """What manifest.json says; `key` is the key of the game's inputs (cache.py), or None when not known."""
    return {
        "game": plan.id,
        "inputs": key,
        "title": plan.title,
        "muster": __version__,
        "options": options.as_dict(),
        "decks": {d.id: {"declared": d.size, "cards": d.total} for d in plan.decks.values()},
        "files": [b.as_dict() for b in built],
    }
