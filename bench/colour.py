"""How faithfully a CMYK build prints the bundled games' colours: ΔE00 per game, mean and max (issue 26).

    python bench/colour.py                       # the bundled profile, as `muster build --colour cmyk` converts
    python bench/colour.py --profile new.icc     # a candidate profile, converted the same way
    python bench/colour.py --verbose             # every colour, worst first

Method. The palette of a game is every #rrggbb in its folders (decks/<game>/ and layouts/<game>/; the
calibration layouts count as a game of their own). Each colour's own Lab is its sRGB value in the ICC's
connection space (D50, Bradford-adapted, as littlecms's sRGB profile gives it). Muster's conversion (rendering/
inks.py: littlecms, relative colorimetric, greys on black alone, the ink limit) gives the CMYK it prints; the
profile's forward table (A2B1, looked up by ArgyllCMS's xicclu in floating point, not through 8-bit Lab) gives
the Lab those inks print, and ΔE00 to the colour's own Lab is the conversion's error. The best the profile can
reach is xicclu's inverse of the same forward table (-fif, optimised per colour within the profile's 300 % and
95 % black), looked up forward again: the error left when the inverse is exact. The figures are the conversion's
error less the best reachable one, per colour ("excess"), besides both errors.

Needs ArgyllCMS (`apt-get install argyll`) for xicclu: the bench measures the profile with a tool of its own
making, not with littlecms, which is what is measured.
"""

from __future__ import annotations

import argparse
import math
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

HEX = re.compile(r"#([0-9a-fA-F]{6})\b")
D50 = (0.9642, 1.0, 0.8249)
# sRGB's D65 primaries, chromatically adapted to D50 by Bradford: the matrix of the ICC's sRGB profiles
SRGB_TO_XYZ_D50 = ((0.4360747, 0.3850649, 0.1430804),
                   (0.2225045, 0.7168786, 0.0606169),
                   (0.0139322, 0.0971045, 0.7141733))


def palettes() -> dict[str, list[str]]:
    """Every #rrggbb of each bundled game's folders, by game; the calibration layouts as 'calibration'."""
    found: dict[str, set[str]] = {}
    for game in sorted(p.name for p in (REPO / "decks").iterdir() if (p / "game.yaml").is_file()):
        for folder in (REPO / "decks" / game, REPO / "layouts" / game):
            for path in sorted(folder.rglob("*")) if folder.is_dir() else ():
                if path.is_file():
                    found.setdefault(game, set()).update(_colours(path))
    for path in sorted((REPO / "layouts").glob("*.yaml")):
        found.setdefault("calibration", set()).update(_colours(path))
    return {game: sorted(colours) for game, colours in found.items() if colours}


def _colours(path: Path) -> set[str]:
    return {f"#{match.lower()}" for match in HEX.findall(path.read_text(encoding="utf-8", errors="replace"))}


def lab_of_srgb(colour: str) -> tuple[float, float, float]:
    """The colour's Lab (D50), from its sRGB value."""
    values = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in values]
    xyz = [sum(m * v for m, v in zip(row, linear)) / white for row, white in zip(SRGB_TO_XYZ_D50, D50)]
    f = [t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29 for t in xyz]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def delta_e00(lab1, lab2) -> float:
    """CIEDE2000 between two Lab colours."""
    L1, a1, b1 = lab1
    L2, a2, b2 = lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dL, dC = L2 - L1, c2p - c1p
    dh = 0.0 if c1p * c2p == 0 else (h2p - h1p if abs(h2p - h1p) <= 180 else h2p - h1p - 360 * math.copysign(1, h2p - h1p))
    dH = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    L_mean, c_mean_p = (L1 + L2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    sl = 1 + 0.015 * (L_mean - 50) ** 2 / math.sqrt(20 + (L_mean - 50) ** 2)
    sc, sh = 1 + 0.045 * c_mean_p, 1 + 0.015 * c_mean_p * t
    rt = (-2 * math.sqrt(c_mean_p ** 7 / (c_mean_p ** 7 + 25 ** 7))
          * math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2)))))
    return math.sqrt((dL / sl) ** 2 + (dC / sc) ** 2 + (dH / sh) ** 2 + rt * (dC / sc) * (dH / sh))


def xicclu(profile: Path, function: str, rows: list[tuple[float, ...]], *extra: str) -> list[tuple[float, ...]]:
    """ArgyllCMS's xicclu over `rows`, relative colorimetric, Lab PCS: 'f' CMYK (0-1) to Lab, 'if' Lab to CMYK."""
    text = "".join(" ".join(f"{v:.6f}" for v in row) + "\n" for row in rows)
    done = subprocess.run(["xicclu", f"-f{function}", "-ir", "-pl", "-v0", *extra, str(profile)], input=text,
                          capture_output=True, text=True, check=True)
    return [tuple(float(v) for v in line.split()) for line in done.stdout.splitlines() if line.strip()]


def measure(profile_path: Path | None) -> dict[str, list[dict]]:
    from generator.rendering.inks import FOGRA39, Inks, OutputProfile

    profile = FOGRA39 if profile_path is None else OutputProfile(str(profile_path.resolve()), "candidate", "", 300.0)
    inks = Inks("cmyk", profile)
    limits = ("-l", f"{profile.ink_limit:g}", "-L", "95")
    results: dict[str, list[dict]] = {}
    for game, colours in palettes().items():
        own = [lab_of_srgb(c) for c in colours]
        printed = [inks.of(c, large_area=True) for c in colours]
        seen = xicclu(profile.path(), "f", printed)
        best = xicclu(profile.path(), "f", xicclu(profile.path(), "if", own, *limits))
        results[game] = [{"colour": c, "cmyk": p, "error": delta_e00(o, s), "best": delta_e00(o, b),
                          "excess": delta_e00(o, s) - delta_e00(o, b)}
                         for c, p, o, s, b in zip(colours, printed, own, seen, best)]
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", type=Path, help="a candidate ICC profile (default: the bundled one)")
    parser.add_argument("--verbose", action="store_true", help="every colour, worst first")
    args = parser.parse_args()
    if shutil.which("xicclu") is None:
        print("xicclu not found: apt-get install argyll", file=sys.stderr)
        return 2
    results = measure(args.profile)
    print(f"{'game':<20}{'colours':>8}{'excess mean':>13}{'max':>7}{'error mean':>12}{'max':>7}{'best mean':>11}")
    every = [row for rows in results.values() for row in rows]
    for game, rows in [*results.items(), ("all (distinct)", list({r["colour"]: r for r in every}.values()))]:
        excess, error, best = ([r[key] for r in rows] for key in ("excess", "error", "best"))
        print(f"{game:<20}{len(rows):>8}{statistics.mean(excess):>13.2f}{max(excess):>7.2f}"
              f"{statistics.mean(error):>12.2f}{max(error):>7.2f}{statistics.mean(best):>11.2f}")
    if args.verbose:
        for row in sorted({r["colour"]: r for r in every}.values(), key=lambda r: -r["excess"]):
            cmyk = " ".join(f"{v * 100:5.1f}" for v in row["cmyk"])
            print(f"  {row['colour']}  cmyk {cmyk}  error {row['error']:.2f}  best {row['best']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
