"""What the preview page shows, as plain JSON-ready data: findings, each card with its data and the place each
value came from, its face and back by image key, and the outlines of what each face's layout drew.

Card text travels only as JSON values; the page puts them in with textContent, never as HTML.
"""

from __future__ import annotations

import bisect
import json
from collections import defaultdict
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..core.errors import Finding, Location, display_path
from ..core.model import Card, Deck
from .tracing import Outline


def place(where: Location | None, root: Path) -> str:
    """file:line:column as the page shows it, the file named within the game folder `root` when it lies there
    (else as a Location prints it); empty when unknown."""
    if where is None:
        return ""
    return f"{_shown(where.path, root)}:{where.line}:{where.column or 1}" if where.line else _shown(where.path, root)


@lru_cache(maxsize=1024)
def _shown(path: Path, root: Path) -> str:
    """Worked out once per file: resolving a path costs 0.2 ms, and a refresh names files thousands of times."""
    try:
        return Path(path).resolve().relative_to(root).as_posix()
    except ValueError:
        return display_path(path)


def finding_entry(finding: Finding, root: Path) -> dict:
    return {"severity": finding.severity, "where": place(finding.where, root), "field": finding.field,
            "message": finding.message, "code": finding.code}


def card_entry(card: Card, front: str | None, back: str | None, findings: list[dict], root: Path) -> dict:
    """A card as the page shows it, but for its line (`with_line`): its file and column, its values in the order the
    deck file gives them, each with its place within the card (`within`), its faces and its findings. A card moved
    by lines added or taken away above it is the same entry at another line."""
    data = [{"name": "title", "value": card.printed_title, "at": within(card, "title")},
            {"name": "count", "value": card.count, "at": within(card, "count")}]
    data += [{"name": name, "value": _plain(value), "at": within(card, name)} for name, value in card.traits.items()]
    return {"title": card.printed_title, "id": card.id, "count": card.count, "file": _shown(card.where.path, root),
            "column": card.where.column or 1, "data": data, "front": front, "back": back, "findings": findings}


def within(card: Card, name: str) -> list[int] | None:
    """Where the card's value `name` is written, as [lines below the card's first, column]; None where the card's
    line is not known (the page then names its file)."""
    where = card.located(name)
    return [where.line - card.where.line, where.column or 1] if card.where.line and where.line else None


def with_line(entry: str, line: int) -> str:
    """A card's entry (`card_entry`, as JSON) at its line: what the page is sent."""
    return '{"line":' + str(line) + "," + entry[1:]


def deck_entry(deck: Deck, bleed: float) -> dict:
    """A deck as the page shows it, but for its cards."""
    width, height = deck.format.face_size
    return {"id": deck.id, "name": deck.name, "component": deck.format.component, "shape": deck.format.shape,
            "width": width, "height": height, "bleed": bleed}


def outline_entries(outlines: tuple[Outline, ...], root: Path) -> list[list]:
    """Each outline as [left, top, width, height, kind, place], in mm from the trim's top-left."""
    return [[round(o.box[0], 2), round(o.box[1], 2), round(o.box[2] - o.box[0], 2), round(o.box[3] - o.box[1], 2),
             o.kind, place(o.where, root)] for o in outlines]


def card_findings(findings: list[Finding], decks: list[Deck], root: Path) -> dict[tuple[str, int], list[dict]]:
    """The findings that concern a card, by (deck id, the card's number in its deck): those whose place lies within
    the card's entry in its deck file (from the card's line to the next card's). Only the cards of the files that
    findings name are looked at: a refresh of thousands of cards with few findings should cost what they do."""
    named = {str(f.where.path) for f in findings if f.where is not None and f.where.line}
    starts: dict[str, list[tuple[int, tuple[str, int]]]] = defaultdict(list)  # by file: Paths compare slowly
    for deck in decks:
        if not any(str(path) in named for path in deck.files):
            continue
        for number, card in enumerate(deck.cards):
            if card.where.line:
                starts[str(card.where.path)].append((card.where.line, (deck.id, number)))
    for entries in starts.values():
        entries.sort(key=lambda pair: pair[0])
    lines = {path: [line for line, _ in entries] for path, entries in starts.items()}
    found: dict[tuple[str, int], list[dict]] = defaultdict(list)
    for finding in findings:
        if finding.where is None or not finding.where.line:
            continue
        entries = starts.get(str(finding.where.path))
        if not entries:
            continue
        at = bisect.bisect_right(lines[str(finding.where.path)], finding.where.line) - 1
        if at >= 0:
            found[entries[at][1]].append(finding_entry(finding, root))
    return found


def encoded(value: Any) -> str:
    """JSON, every character outside ASCII escaped: what the page is sent."""
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"))


def _plain(value: Any) -> Any:
    """A trait's value as JSON can carry it: numbers, text, booleans and lists stay; anything else as text."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(v) for v in value]
    return str(value)
