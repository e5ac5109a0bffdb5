"""Colour as printed: layout colours and images in RGB, or in CMYK through the bundled output profile.

A CMYK build converts sRGB colours and images with littlecms (Pillow's ImageCms) into the inks of the output
profile, then holds every colour to the profile's total ink limit. What is drawn in the colour decides three cases:

- Neutral colours, the black and near-black greys of text and rules above all, print on the black plate alone at
  the lightness the profile gives it: text of four inks would never register.
- Small text (under SMALL_TEXT points) in a near-neutral colour (one whose inks print within C*ab NEAR_NEUTRAL of
  grey through the profile: the warm greys of captions and running heads) prints on the black plate alone as well, at its lightness: a slight
  misregistration of four inks makes small type fuzzy, and shops ask for it in one ink.
- A large area (at least LARGE_AREA mm each way) in a near-neutral colour darker than solid black alone prints in
  a rich black, black under RICH_BLACK's cyan, magenta and yellow as far as its lightness needs, within the ink
  limit: solid black alone prints a grey-looking black over a large area.

A colour given as cmyk(...) is printed as given in CMYK and seen through the profile in RGB.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ..core.bundle import profiles_dir
from ..core.colour import channels
from ..core.options import Options

if TYPE_CHECKING:
    from reportlab.lib.colors import Color

NEUTRAL = 6 / 255  # a colour whose channels differ by no more than this is a grey, and greys print on black alone
SMALL_TEXT = 9.0  # points: text smaller than this in a near-neutral colour prints on black alone
NEAR_NEUTRAL = 10.0  # C*ab (CIELAB chroma, D50) of the printed colour: at most this far from grey is near-neutral
LARGE_AREA = 6.0  # mm: a filled shape at least this wide and tall is a large area, printed in rich black when dark
RICH_BLACK = (0.60, 0.40, 0.40, 1.0)  # DriveThruCards' rich black (docs/printshops.md cites it): 240 % of ink


@dataclass(frozen=True)
class OutputProfile:
    """A CMYK printing condition: its ICC profile file, the name PDF/X gives it, and the total ink it allows."""

    file: str
    identifier: str   # the OutputConditionIdentifier of a PDF/X output intent
    condition: str    # what the condition is, in words
    ink_limit: float  # percent: the most of the four inks together that the condition prints

    def path(self) -> Path:
        return profiles_dir() / self.file

    def data(self) -> bytes:
        return self.path().read_bytes()


FOGRA39 = OutputProfile("Muster-FOGRA39-300.icc", "FOGRA39", "Offset printing on coated paper (ISO 12647-2:2004/Amd 1, "
                        "FOGRA39 characterisation data), at most 300 % total ink", 300.0)


@lru_cache(maxsize=4)
def _transforms(profile: OutputProfile):
    """littlecms transforms between sRGB and the profile's CMYK (relative colorimetric: in-gamut colours kept as
    they are), and from CMYK to Lab to find the black plate's lightness."""
    from PIL import ImageCms

    srgb = ImageCms.createProfile("sRGB")
    cmyk = ImageCms.ImageCmsProfile(io.BytesIO(profile.data()))
    intent = ImageCms.Intent.RELATIVE_COLORIMETRIC
    return (ImageCms.buildTransform(srgb, cmyk, "RGB", "CMYK", intent),
            ImageCms.buildTransform(cmyk, srgb, "CMYK", "RGB", intent),
            ImageCms.buildTransform(srgb, ImageCms.createProfile("LAB"), "RGB", "LAB", intent),
            ImageCms.buildTransform(cmyk, ImageCms.createProfile("LAB"), "CMYK", "LAB", intent))


class Inks:
    """How one PDF's colours are printed: "rgb" (as given, cmyk(...) seen through `profile`) or "cmyk"."""

    def __init__(self, mode: str = "rgb", profile: OutputProfile = FOGRA39, ink_limit: float | None = None):
        self.mode = mode
        self.profile = profile
        self.limit = min(profile.ink_limit, ink_limit or profile.ink_limit) / 100
        self.known: dict[tuple[str, bool, bool], tuple[float, ...]] = {}
        self._black: list[float] | None = None  # the lightness L* (0-255) of each of 256 tints of black alone

    def of(self, colour: str, small_text: bool = False, large_area: bool = False) -> tuple[float, ...]:
        """(r, g, b) or (c, m, y, k) from 0 to 1, as the PDF draws `colour`: in text under SMALL_TEXT points when
        `small_text`, filling a shape of LARGE_AREA mm and more each way when `large_area`, else in lines and
        anything else."""
        key = (colour, small_text, large_area)
        known = self.known.get(key)
        if known is None:
            space, values = channels(colour)
            if self.mode == "cmyk":
                known = values if space == "cmyk" else self._cmyk(values, small_text, large_area)
            else:
                known = values if space == "rgb" else self._rgb(values)
            self.known[key] = known
        return known

    def _rich_black(self, lightness: int) -> tuple[float, ...]:
        """Solid black under as much of RICH_BLACK's cyan, magenta and yellow as brings it to `lightness` (L*,
        0-255; all of it for anything darker than the rich black), held to the ink limit."""
        from PIL import Image, ImageCms

        solid = self._ramp()[255]
        pixel = Image.new("CMYK", (1, 1), tuple(round(v * 255) for v in RICH_BLACK))
        rich = ImageCms.applyTransform(pixel, _transforms(self.profile)[3]).getpixel((0, 0))[0]
        share = min(1.0, (solid - lightness) / max(solid - rich, 1))
        c, m, y, _ = RICH_BLACK
        return limited((c * share, m * share, y * share, 1.0), self.limit)

    def seen(self, colour: str) -> tuple[float, ...]:
        """(r, g, b) from 0 to 1: how `colour` looks on screen."""
        space, values = channels(colour)
        return values if space == "rgb" else self._rgb(values)

    def _cmyk(self, rgb: tuple[float, ...], small_text: bool, large_area: bool) -> tuple[float, ...]:
        from PIL import Image, ImageCms

        pixel = Image.new("RGB", (1, 1), tuple(round(v * 255) for v in rgb))
        inks = limited(tuple(v / 255 for v in ImageCms.applyTransform(pixel, _transforms(self.profile)[0])
                             .getpixel((0, 0))), self.limit)
        lightness = ImageCms.applyTransform(pixel, _transforms(self.profile)[2]).getpixel((0, 0))[0]
        grey = max(rgb) - min(rgb) <= NEUTRAL
        near_neutral = grey or ((small_text or large_area) and chroma(inks, self.profile) <= NEAR_NEUTRAL)
        if large_area and near_neutral and lightness < self._ramp()[255]:
            return self._rich_black(lightness)
        if grey or (small_text and near_neutral):
            return 0.0, 0.0, 0.0, self._black_for(lightness)
        return inks

    def _black_for(self, lightness: int) -> float:
        """The tint of black alone that prints as light as `lightness` (L*, 0-255), from the profile."""
        darker = [k for k, value in enumerate(self._ramp()) if value <= lightness]
        return (darker[0] if darker else 255) / 255

    def _ramp(self) -> list[float]:
        """The lightness L* (0-255) of each of 256 tints of black alone, from the profile."""
        if self._black is None:
            from PIL import Image, ImageCms

            ramp = Image.new("CMYK", (256, 1))
            ramp.putdata([(0, 0, 0, k) for k in range(256)])
            lab = ImageCms.applyTransform(ramp, _transforms(self.profile)[3])
            self._black = [lab.getpixel((k, 0))[0] for k in range(256)]
        return self._black

    def _rgb(self, cmyk: tuple[float, ...]) -> tuple[float, ...]:
        from PIL import Image, ImageCms

        pixel = Image.new("CMYK", (1, 1), tuple(round(v * 255) for v in cmyk))
        return tuple(v / 255 for v in ImageCms.applyTransform(pixel, _transforms(self.profile)[1]).getpixel((0, 0)))

    def image(self, image):
        """A Pillow image as this PDF prints it: in CMYK through the profile, inks limited, any transparency
        flattened onto white paper (PDF/X-1a has no transparency); in RGB as it is."""
        from PIL import Image, ImageCms, ImageMath

        if self.mode != "cmyk":
            return image
        if image.mode == "CMYK":
            cmyk = image
        else:
            rgba = image.convert("RGBA")
            flat = Image.new("RGB", rgba.size, (255, 255, 255))
            flat.paste(rgba, mask=rgba.getchannel("A"))
            cmyk = ImageCms.applyTransform(flat, _transforms(self.profile)[0])
        c, m, y, k = (band.convert("F") for band in cmyk.split())
        room = self.limit * 255
        scale = ImageMath.lambda_eval(  # how much of its cyan, magenta and yellow a pixel over the limit keeps
            lambda a: a["min"](a["max"]((room - a["k"]) / a["max"](a["c"] + a["m"] + a["y"], 1e-6), 0.0), 1.0),
            c=c, m=m, y=y, k=k)
        bands = [ImageMath.lambda_eval(lambda a: a["band"] * a["scale"], band=band, scale=scale).convert("L")
                 for band in (c, m, y)]
        return Image.merge("CMYK", (*bands, k.convert("L")))


def inks_of(options: Options) -> Inks:
    """How a build's options print colours: RGB, or CMYK in the bundled profile's inks, to its or the chosen limit."""
    return Inks(options.colour, ink_limit=options.ink_limit)


def limited(inks: tuple[float, ...], limit: float) -> tuple[float, ...]:
    """CMYK inks whose total is at most `limit` (1.0 = 100 %): black kept, cyan, magenta and yellow scaled down."""
    c, m, y, k = inks
    colours = c + m + y
    if colours + k <= limit or colours == 0:
        return inks
    scale = max(0.0, limit - k) / colours
    return c * scale, m * scale, y * scale, k


def chroma(inks: tuple[float, ...], profile: OutputProfile) -> float:
    """The chroma C*ab of CMYK `inks` as `profile` prints them: how far from grey (near-neutral: NEAR_NEUTRAL)."""
    from PIL import Image, ImageCms

    pixel = Image.new("CMYK", (1, 1), tuple(round(v * 255) for v in inks))
    _, a, b = ImageCms.applyTransform(pixel, _transforms(profile)[3]).getpixel((0, 0))
    return math.hypot(a - 128, b - 128)  # littlecms's 8-bit a* and b* are offset by 128


def hex_of(r: float, g: float, b: float) -> str:
    """#rrggbb of red, green and blue from 0 to 1."""
    return "#" + "".join(f"{round(v * 255):02x}" for v in (r, g, b))


def spelling(inks: Inks) -> Callable[..., str]:
    """How the rulebook writes a colour in `inks` into markup: #rrggbb, or cmyk(c,m,y,k) from 0 to 1; `size`, the
    points of the text it colours, when it colours text (small text prints on black alone: SMALL_TEXT)."""

    def spell(colour: str, size: float | None = None) -> str:
        values = inks.of(colour, small_text=size is not None and size < SMALL_TEXT)
        if len(values) == 4:
            return f"cmyk({','.join(f'{v:.4f}' for v in values)})"
        return hex_of(*values)

    return spell


def painter(inks: Inks) -> Callable[..., Color]:
    """How the rulebook hands reportlab a colour in `inks` (as `spelling` writes it) outside markup: as reportlab's
    own colour, made once. Given the text, reportlab reads a colour again at every use (a style's text colour at
    every line drawn, a table style's at every cell) down a chain of parsers that ends in the one that reads #rrggbb:
    a seventh of the time typesetting the bundled rulebooks took."""
    from reportlab.lib.colors import toColor

    spell = spelling(inks)

    @lru_cache(maxsize=None)
    def paint(colour: str, size: float | None = None) -> Color:
        return toColor(spell(colour, size))

    return paint
