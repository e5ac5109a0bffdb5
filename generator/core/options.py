"""How a kit is built: paper, bleed, duplex and the rest, each declared once (KIT) with its flag, default, help,
bounds and what it implies; the commands' options, the Options value and the key of a build all come from it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable

from .errors import MusterError
from .units import paper_name, parse_length

MAX_BLEED = 10.0  # mm
MAX_BACK_OFFSET = 10.0  # mm: far beyond any duplex printer's shift; more is a typo
DEFAULT_DPI = 300  # exported PNGs and Tabletop Simulator sheets, unless --dpi says (here: `muster --help` shows it)
LANGUAGE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$")  # a BCP 47 tag as translators write it: de, pt-BR
# (fullmatch it: with match, '$' lets a tag end in a line break; the pattern is also the schema's, in JavaScript)
ALL_LANGUAGES = "all"  # --lang all: the source language and each other, each into its folder


def _flagged(flag: str, read: Callable, *args):
    """`read(*args)`, its MusterError told as the option's: "--paper: expected a paper: ..." with the flag as field."""
    try:
        return read(*args)
    except MusterError as exc:
        raise MusterError(f"{flag}: {exc.message}", field=flag, code=exc.code) from None


def _paper(text: str) -> str:
    """A paper as --paper names it (units.paper_name)."""
    return _flagged("--paper", paper_name, text)


def read_bleed(text: str) -> float:
    """Millimetres of bleed from an option such as 3mm or 0.125in, within 0 to MAX_BLEED."""
    value = _flagged("--bleed", parse_length, text)
    if not 0 <= value <= MAX_BLEED:
        raise MusterError(f"--bleed must be between 0mm and {MAX_BLEED:g}mm, got {text}", field="--bleed",
                          code="out-of-range")
    return value


def _back_offset(text: str) -> tuple[float, float]:
    """Millimetres (x, y) from an option such as 1.5mm,-0.5mm or 0.5,0 (bare numbers in mm), each within
    MAX_BACK_OFFSET."""
    parts = text.split(",")
    if len(parts) != 2:
        raise MusterError(f"--back-offset takes two lengths, X,Y (such as 1.5mm,-0.5mm), got {text!r}",
                          field="--back-offset", code="bad-length")
    offset = tuple(_flagged("--back-offset", partial(parse_length, bare_unit="mm"), part) for part in parts)
    if any(abs(value) > MAX_BACK_OFFSET for value in offset):
        raise MusterError(f"--back-offset must be within ±{MAX_BACK_OFFSET:g}mm on each axis, got {text}",
                          field="--back-offset", code="out-of-range")
    return offset


def _language(text: str) -> str:
    """A language as --lang names it: a tag of the game's languages: (de, pt-BR), or all."""
    if text != ALL_LANGUAGES and not LANGUAGE.fullmatch(text):
        raise MusterError(f"--lang: expected a language such as de, or all, got {text!r}", field="--lang",
                          code="bad-option")
    return text


def set_names(text: str | None) -> tuple[str, ...]:
    """The sets --sets names, comma-separated: base,pack-1."""
    return tuple(dict.fromkeys(name.strip() for name in (text or "").split(",") if name.strip()))


@dataclass(frozen=True)
class KitOption:
    """One choice of a kit, as the command line takes it and as a build records it."""

    name: str            # the Options field, and the command's parameter
    flag: str            # "--paper", or "--crop-marks/--no-crop-marks" for a switch with both ways
    help: str
    default: Any         # as the command line gives it (text for lengths), or a switch's state
    kind: type = str     # what the command line reads: str, bool, int, float, or list (repeatable text)
    metavar: str | None = None
    choices: tuple[str, ...] = ()
    low: float | None = None    # bounds the command line enforces
    high: float | None = None
    read: Callable[[Any], Any] | None = None  # the command line's value made into the Options value
    key: str = ""        # its name in a build's key and manifest, when not `name`
    recent: bool = False  # recorded only when not the default: kits built before it existed stay up to date
    implies: tuple[tuple[str, Any], ...] = ()  # (option, value) set whenever this one is on

    @property
    def value(self) -> Any:
        """The Options value of the command line's default."""
        return self.read(self.default) if self.read else (None if self.kind is list else self.default)


KIT = (
    KitOption("paper", "--paper", metavar="PAPER", default="a4", read=_paper,
              help="Paper: a4, letter, a3, tabloid, a5, each also -landscape (a4-landscape), or a size such as "
                   "300mmx400mm or \"11in x 17in\". A deck's or board's paper: in game.yaml wins."),
    KitOption("bleed", "--bleed", metavar="LENGTH", default="3mm", read=read_bleed, key="bleed_mm",
              help="Bleed around each face, with a unit: 3mm, 0.125in, 1/8in."),
    KitOption("duplex", "--duplex", default="long", choices=("long", "short", "fold", "none"),
              help="How backs are printed: long or short edge flip, gutter fold, or none (backs after fronts)."),
    KitOption("crop_marks", "--crop-marks/--no-crop-marks", default=True, kind=bool,
              help="Crop marks outside the bleed."),
    KitOption("greyscale", "--greyscale", default=False, kind=bool, help="Print in shades of grey (ink saver)."),
    KitOption("variants", "--variant", metavar="NAME", default=None, kind=list,
              read=lambda names: tuple(names or ()), help="Switch on a variant of the game (repeatable)."),
    KitOption("seed", "--seed", metavar="N", default=None, kind=int, low=0,
              help="Seed for what boards place at random (default: each board's own); printed on the board."),
    KitOption("booklet", "--booklet", default=False, kind=bool,
              help="Write rules-booklet.pdf (the rulebook two-up, in saddle-stitch order) for every game with a "
                   "rulebook; games may also ask for one in game.yaml."),
    KitOption("calibration", "--calibration/--no-calibration", default=True, kind=bool,
              help="Write calibration.pdf: 100 mm rulers and a card at true size, to print first."),
    KitOption("back_offset", "--back-offset", metavar="X,Y", default="0,0", read=_back_offset, key="back_offset_mm",
              help="Move every back page by X to the right and Y down, as seen on the back (mm, or with a unit: "
                   "1.5mm,-0.5mm), to make up for a duplex printer's shift; calibration.pdf measures it."),
    KitOption("colour", "--colour", default="rgb", choices=("rgb", "cmyk"), recent=True,
              help="rgb, or cmyk: colours and images converted to the inks of the bundled FOGRA39 profile, black "
                   "text on the black plate alone."),
    KitOption("pdfx", "--pdfx", default=False, kind=bool, recent=True, implies=(("colour", "cmyk"),),
              help="Write PDF/X-1a:2003 (implies --colour cmyk): the profile as output intent, trim and bleed "
                   "boxes, no transparency."),
    KitOption("ink_limit", "--ink-limit", metavar="PERCENT", default=None, kind=float, low=100, high=400,
              recent=True, help="Total ink at most, when lower than the profile's 300 %."),
    KitOption("sets", "--sets", metavar="SET,SET", default=None, read=set_names, recent=True,
              help="Print only the cards of these sets of the game (sets: in game.yaml), such as base,pack-1 "
                   "(default: its default sets)."),
    KitOption("lang", "--lang", metavar="LANG", default=None, read=lambda text: text and _language(text), recent=True,
              help="Print in this language of the game's (languages: in game.yaml) into OUT/<game>/<LANG>/, or in "
                   "all of them: the source language into OUT/<game>/, each other into its folder (default: the "
                   "source language)."),
)
KIT_OPTIONS = {option.name: option for option in KIT}


@dataclass(frozen=True)
class Options:
    """How a kit is printed: the choices of `muster build` that change its files, one field per KitOption."""

    paper: str = KIT_OPTIONS["paper"].value
    bleed: float = KIT_OPTIONS["bleed"].value
    duplex: str = KIT_OPTIONS["duplex"].value
    crop_marks: bool = KIT_OPTIONS["crop_marks"].value
    greyscale: bool = KIT_OPTIONS["greyscale"].value
    variants: tuple[str, ...] = KIT_OPTIONS["variants"].value
    seed: int | None = KIT_OPTIONS["seed"].value  # overrides every board's own seed
    booklet: bool = KIT_OPTIONS["booklet"].value  # also write rules-booklet.pdf, whatever the game's rulebook says
    calibration: bool = KIT_OPTIONS["calibration"].value  # write calibration.pdf: rulers and a card at true size
    back_offset: tuple[float, float] = KIT_OPTIONS["back_offset"].value  # mm: x right, y down, seen on the back
    colour: str = KIT_OPTIONS["colour"].value  # rgb, or cmyk: colours and images in the inks of the output profile
    pdfx: bool = KIT_OPTIONS["pdfx"].value  # PDF/X-1a:2003 (cmyk): an output intent, trim and bleed boxes
    ink_limit: float | None = KIT_OPTIONS["ink_limit"].value  # percent: total ink, below the output profile's own
    sets: tuple[str, ...] = KIT_OPTIONS["sets"].value  # the sets whose cards are printed; (): the game's default
    lang: str | None = KIT_OPTIONS["lang"].value  # the language printed (one of the game's, or all); None: the source

    def __post_init__(self):
        for option in KIT:
            if option.implies and getattr(self, option.name):
                for name, value in option.implies:
                    object.__setattr__(self, name, value)

    @classmethod
    def chosen(cls, **values) -> Options:
        """The Options of the command line's values (by KitOption name; the others at their defaults): each read
        as its KitOption says; a bad one, or a back offset with --duplex fold, is a MusterError."""
        made = {}
        for name, value in values.items():
            option = KIT_OPTIONS[name]
            made[name] = option.read(value) if option.read else value
        options = cls(**made)
        if options.duplex == "fold" and options.back_offset != (0.0, 0.0):
            raise MusterError("--back-offset moves back pages, and --duplex fold has none: its fronts and backs "
                              "share one side of the paper, printed single-sided and folded", field="--back-offset",
                              code="bad-option")
        return options

    def as_dict(self) -> dict:
        """The options as a build's key and manifest record them."""
        recorded = {}
        for option in KIT:
            value = getattr(self, option.name)
            if option.recent and value == option.value:
                continue
            recorded[option.key or option.name] = list(value) if isinstance(value, tuple) else value
        return recorded

