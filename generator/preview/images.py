"""The preview's pictures: faces rasterised at screen resolution into PNGs, each kept under a key made from what
the face draws, so that a face drawn before is never rasterised again.

The faces a refresh needs and the cache lacks are drawn into one PDF per face size and rasterised by pdfium
(rendering/raster.py, as `muster export png` does); the cache forgets the faces used least recently first.
"""

from __future__ import annotations

import hashlib
import pickle
import threading
from collections import OrderedDict

from ..core.display import Face, pack
from ..rendering.raster import png_bytes, rasterise_faces

DPI = 110  # a poker card is about 280 x 390 px: sharp on a laptop screen, small enough to send 500 at once
BOARD_PIXELS = 1600  # the longer side of a board's image at most
LIMIT = 20_000  # faces remembered: about 600 MB of PNGs at most, far more than a deck being edited needs


def key_of(face: Face, dpi: int) -> str:
    """A face's key: a digest of what it draws and how fine its pixels are."""
    return hashlib.blake2b(pickle.dumps((pack(face), dpi), protocol=pickle.HIGHEST_PROTOCOL),
                           digest_size=12).hexdigest()


class FaceImages:
    """PNGs of faces by key, made when first asked for; counts how many were made and how many reused."""

    def __init__(self, limit: int = LIMIT):
        self.limit = limit
        self.keys: OrderedDict[tuple[Face, int], str] = OrderedDict()
        self.pngs: dict[str, bytes] = {}
        self.lock = threading.Lock()
        self.rasterised = 0
        self.reused = 0

    def keys_of(self, faces: list[Face], bleed: float, dpi: int = DPI) -> list[str]:
        """The key of each face (all of one size), rasterising in one batch those not in the cache."""
        missing = [i for i, face in enumerate(faces) if (face, dpi) not in self.keys]
        self.reused += len(faces) - len(missing)
        if missing:
            face = faces[missing[0]]
            pixels = (round((face.width + 2 * bleed) / 25.4 * dpi), round((face.height + 2 * bleed) / 25.4 * dpi))
            made = {}
            for (index, _), image in rasterise_faces(faces, {i: [pixels] for i in missing},
                                                     (face.width, face.height), bleed, bleed, "preview"):
                made[index] = png_bytes(image, dpi)
            with self.lock:
                for index, png in made.items():
                    key = key_of(faces[index], dpi)
                    self.keys[(faces[index], dpi)] = key
                    self.pngs[key] = png
            self.rasterised += len(made)
        with self.lock:
            result = []
            for face in faces:
                self.keys.move_to_end((face, dpi))
                result.append(self.keys[(face, dpi)])
            return result

    def board_key(self, face: Face) -> str:
        """The key of a board's face, rasterised so that its longer side is at most BOARD_PIXELS."""
        dpi = max(1, min(DPI, int(BOARD_PIXELS * 25.4 / max(face.width, face.height))))
        return self.keys_of([face], 0.0, dpi)[0]

    def png(self, key: str) -> bytes | None:
        with self.lock:
            return self.pngs.get(key)

    def forget(self) -> None:
        """Forget every image: a file a face names (an image, a font) changed, which its items do not show."""
        with self.lock:
            self.keys.clear()
            self.pngs.clear()

    def trim(self) -> None:
        """Forget the least recently used faces beyond the limit."""
        with self.lock:
            while len(self.keys) > self.limit:
                _, key = self.keys.popitem(last=False)
                self.pngs.pop(key, None)
