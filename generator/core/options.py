"""How a kit is built: paper, bleed, duplex and the rest, as chosen on the command line."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Options:
    """How a kit is printed: the choices of `muster build` that change its files."""

    paper: str = "a4"
    bleed: float = 3.0
    duplex: str = "long"
    crop_marks: bool = True
    greyscale: bool = False
    variants: tuple[str, ...] = ()
    seed: int | None = None  # overrides every board's own seed
    booklet: bool = False    # also write rules-booklet.pdf, whatever the game's rulebook says
    calibration: bool = True  # write calibration.pdf: rulers and a card at true size
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm every back page moves: x right, y down, seen on the back
    colour: str = "rgb"       # rgb, or cmyk: colours and images in the inks of the output profile
    pdfx: bool = False        # PDF/X-1a:2003 (cmyk): an output intent, trim and bleed boxes, nothing it forbids
    ink_limit: float | None = None  # percent: total ink, when lower than the output profile's own
    sets: tuple[str, ...] = ()  # the sets whose cards are printed; (): the game's default sets

    def as_dict(self) -> dict:
        # colour, pdfx and the ink limit only when chosen: kits built before they existed stay up to date
        printing = {"colour": self.colour} if self.colour != "rgb" else {}
        printing |= {"pdfx": True} if self.pdfx else {}
        printing |= {"ink_limit": self.ink_limit} if self.ink_limit is not None else {}
        printing |= {"sets": list(self.sets)} if self.sets else {}
        return {"paper": self.paper, "bleed_mm": self.bleed, "duplex": self.duplex, "crop_marks": self.crop_marks,
                "greyscale": self.greyscale, "variants": list(self.variants), "seed": self.seed,
                "booklet": self.booklet, "calibration": self.calibration, "back_offset_mm": list(self.back_offset),
                **printing}
