"""The preview's pictures: faces rasterised at screen resolution into PNGs, each kept under a key made from what
the face draws, so that a face drawn before is never rasterised again.

A face is rasterised when the page first asks for its image, with the faces of its size waiting after it, drawn
into one PDF and rasterised by pdfium (rendering/raster.py, as `muster export png` does); the browser asks for
the images in view first (`loading="lazy"`). The cache forgets the faces used least recently first. A face that
cannot be drawn (an image it draws broken since it was laid out) is shown as a grey stand-in, and why is told to
the session, which shows it with the findings.
"""

from __future__ import annotations

import hashlib
import pickle
import threading
from collections import OrderedDict
from typing import Callable

from ..core.display import Face, pack
from ..core.errors import Finding, MusterError
from ..rendering.raster import encoded, png_bytes, rasterise_faces

DPI = 110  # a poker card is about 280 x 390 px: sharp on a laptop screen, small enough to send 500 at once
BOARD_PIXELS = 1600  # the longer side of a board's image at most
LIMIT = 20_000  # faces remembered: about 600 MB of PNGs at most, far more than a deck being edited needs
BATCH = 24  # faces rasterised together when the page asks for one: about a screenful, in one PDF


def key_of(face: Face, dpi: int) -> str:
    """A face's key: a digest of what it draws and how fine its pixels are."""
    return hashlib.blake2b(pickle.dumps((pack(face), dpi), protocol=pickle.HIGHEST_PROTOCOL),
                           digest_size=12).hexdigest()


class FaceImages:
    """PNGs of faces by key. A face gets its key when a refresh shows it and its PNG when the page first asks for
    it (the browser asks for the images in view first), so a deck of thousands is on the page at once and its
    faces are drawn as they are scrolled to. Counts how many were rasterised and how many keys reused."""

    def __init__(self, limit: int = LIMIT, told: Callable[[], None] = lambda: None):
        self.limit = limit
        self.told = told  # called when a face could not be drawn: `problems` has a new finding
        self.problems: dict[str, Finding] = {}  # per key of a face that could not be drawn, why; its PNG a stand-in
        self.keys: OrderedDict[tuple[Face, int], str] = OrderedDict()
        self.pngs: dict[str, bytes] = {}
        self.waiting: OrderedDict[str, tuple[Face, float, int]] = OrderedDict()  # keys given, PNGs not yet made
        self.lock = threading.Lock()  # the tables above: refreshes and the server's threads share them
        self.drawing = threading.Lock()  # one rasterisation at a time: pdfium is not for several threads
        self.rasterised = 0
        self.reused = 0

    def keys_of(self, faces: list[Face], bleed: float, dpi: int = DPI) -> list[str]:
        """The key of each face (all of one size); a face not seen before waits to be rasterised until asked for."""
        with self.lock:
            result = []
            for face in faces:
                key = self.keys.get((face, dpi))
                if key is None:
                    key = self.keys[(face, dpi)] = key_of(face, dpi)
                    if key not in self.pngs:
                        self.waiting[key] = (face, bleed, dpi)
                else:
                    self.reused += 1
                    self.keys.move_to_end((face, dpi))
                result.append(key)
            return result

    def png(self, key: str) -> bytes | None:
        """The PNG of a face shown by a refresh, rasterised now if it has not been, with up to BATCH faces of its
        size waiting after it (the next ones the page will ask for); None for a key no refresh gave."""
        with self.lock:
            if key in self.pngs or key not in self.waiting:
                return self.pngs.get(key)
        with self.drawing:
            with self.lock:
                if key not in self.waiting:  # drawn by another thread meanwhile (or forgotten)
                    return self.pngs.get(key)
                face, bleed, dpi = self.waiting[key]
                keys = list(self.waiting)
                batch = [k for k in keys[keys.index(key):] if self._alike(self.waiting[k], face, bleed, dpi)][:BATCH]
                faces = [self.waiting[k][0] for k in batch]
            try:
                made = _rasterised(faces, bleed, dpi)
            except MusterError:  # one face of the batch cannot be drawn: each alone, to tell which
                made = [_drawn_alone(face, bleed, dpi) for face in faces]
            problems = {done: png for done, png in zip(batch, made) if isinstance(png, Finding)}
            with self.lock:
                for done, png in zip(batch, made):
                    if self.waiting.pop(done, None) is not None:
                        self.pngs[done] = _stand_in(faces[0], bleed, dpi) if done in problems else png
                self.problems |= problems
                self.rasterised += len(made)
                png = self.pngs.get(key)
        if problems:
            self.told()
        return png

    @staticmethod
    def _alike(waiting: tuple[Face, float, int], face: Face, bleed: float, dpi: int) -> bool:
        other, other_bleed, other_dpi = waiting
        return (other.width, other.height, other_bleed, other_dpi) == (face.width, face.height, bleed, dpi)

    def board_key(self, face: Face) -> str:
        """The key of a board's face, rasterised so that its longer side is at most BOARD_PIXELS."""
        dpi = max(1, min(DPI, int(BOARD_PIXELS * 25.4 / max(face.width, face.height))))
        return self.keys_of([face], 0.0, dpi)[0]

    def forget(self) -> None:
        """Forget every image: a file a face names (an image, a font) changed, which its items do not show."""
        with self.lock:
            self.keys.clear()
            self.pngs.clear()
            self.waiting.clear()
            self.problems.clear()

    def trim(self, shown: set[str]) -> None:
        """Forget the least recently used faces beyond the limit, but those `shown` (a refresh asks only for the
        keys of the faces it changed, so a face shown all along may be the least recently asked for)."""
        with self.lock:
            excess = len(self.keys) - self.limit
            for entry, key in list(self.keys.items()) if excess > 0 else ():
                if excess == 0:
                    break
                if key not in shown:
                    del self.keys[entry]
                    self.pngs.pop(key, None)
                    self.waiting.pop(key, None)
                    self.problems.pop(key, None)
                    excess -= 1


def _rasterised(faces: list[Face], bleed: float, dpi: int) -> list[bytes]:
    """PNGs of `faces` (all of one size) at `dpi`, drawn into one PDF and rasterised by pdfium."""
    face = faces[0]
    pixels = _pixels(face, bleed, dpi)
    drawn = rasterise_faces(faces, {index: [pixels] for index in range(len(faces))}, (face.width, face.height), bleed,
                            bleed, "preview")
    return [data for _, data in encoded(drawn, png_bytes, dpi)]  # by face index: in the order of `faces`


def _drawn_alone(face: Face, bleed: float, dpi: int) -> bytes | Finding:
    """The PNG of one face, or why it cannot be drawn (an image it draws was broken since it was laid out)."""
    try:
        return _rasterised([face], bleed, dpi)[0]
    except MusterError as exc:
        return exc.finding(code="bad-image")


def _stand_in(face: Face, bleed: float, dpi: int) -> bytes:
    """What the page shows for a face that cannot be drawn: the face's size in plain grey."""
    from PIL import Image

    return png_bytes(Image.new("RGB", _pixels(face, bleed, dpi), "#c8c8c8"), dpi)


def _pixels(face: Face, bleed: float, dpi: int) -> tuple[int, int]:
    return round((face.width + 2 * bleed) / 25.4 * dpi), round((face.height + 2 * bleed) / 25.4 * dpi)
