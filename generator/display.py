"""The display list: plain drawing operations in millimetres, origin at the trim's top-left, y downwards.

The layout stage produces these; the renderer is the only code that turns them into PDF operators.
Every item is frozen and hashable, so identical faces are recognised and drawn once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.25
    radius: float = 0.0


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "#000000"
    width: float = 0.25
    dash: tuple[float, ...] = ()


@dataclass(frozen=True)
class Ellipse:
    cx: float
    cy: float
    rx: float
    ry: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.25


@dataclass(frozen=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.25


@dataclass(frozen=True)
class Run:
    """Text on one baseline in one font: x is the left end, y the baseline, size in points."""

    x: float
    y: float
    text: str
    font: str
    size: float
    colour: str


@dataclass(frozen=True)
class Picture:
    path: Path
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class Turned:
    """Items turned clockwise by `angle` degrees about (cx, cy): an upside-down corner index, a sideways label."""

    cx: float
    cy: float
    angle: float
    items: tuple


Item = Rect | Line | Ellipse | Polygon | Run | Picture | Turned


@dataclass(frozen=True)
class Face:
    """One drawn face: its trim size, how far it reaches into the bleed, and what is on it."""

    width: float
    height: float
    items: tuple[Item, ...]
