"""Muster against plain reportlab, whole processes, alternated run by run.

    python bench/run.py [--runs 5] [--sizes 54,540,5400]
    python bench/run.py --preview [--sizes 54,540,5400] [--edits 20] [--edit value|insert|delete|csv|xlsx]   (bench/preview.py)
    python bench/run.py --art [--cmyk] [--runs 5] [--sizes 100]        (see bench/art.py)

For each synthetic game of N cards: the median wall time of `muster build --force` and of the plain reportlab
script (bench/synthetic.py plain), the median of the paired ratios (run i of Muster / run i of plain), peak
memory (RSS) of each process, Muster's peak memory over all its processes (PSS summed, "all MiB", from one
more run), and PDF bytes per card. Then: the whole bundled kit (`muster build --force`), a no-op
rebuild (`muster build` when everything is up to date) and `muster --help`.

With --art, a game of N cards with its own large PNG each (bench/art.py): Muster's build against img2pdf putting the
same PNGs into one PDF (when img2pdf is installed; it is no dependency of Muster's), paired as above, with the
PDF's size against the art's own. With --cmyk as well, Muster builds with --colour cmyk: every image converted to the
profile's inks (img2pdf still passes the RGB files through). Then the exports that rasterise the art (png, tts,
vassal), one run each, with their time and peak memory.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SIZES = "54,540,5400"
ARTFUL_EXPORTS = ("png", "tts", "vassal")  # the exports that rasterise the art (--art times them too)


def timed(command: list[str], cwd: Path) -> tuple[float, int]:
    """Wall seconds and peak RSS (KiB) of one process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"failed: {' '.join(map(str, command))}\n{process.stderr.read().decode()}")
    return elapsed, usage.ru_maxrss


def tree_memory(command: list[str], cwd: Path) -> float | None:
    """Peak PSS (MiB) of a process and all its children, summed, sampled every 5 ms; None off Linux.

    A build of a big game forks a second process: the peak RSS of each alone says too little, and their RSS
    summed counts the pages they share twice. PSS shares each shared page out between its processes. Sampling
    costs CPU, so this is a run of its own, not one of the timed ones.
    """
    if not Path("/proc/self/smaps_rollup").exists():
        return None
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0
    while process.poll() is None:
        peak = max(peak, sum(_pss(pid) for pid in _tree(process.pid)))
        time.sleep(0.005)
    return peak / 1024


def _tree(pid: int) -> list[int]:
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return [pid]
    return [pid] + [p for child in children for p in _tree(int(child))]


def _pss(pid: int) -> int:
    try:
        return next(int(line.split()[1]) for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
                    if line.startswith("Pss:"))
    except (OSError, StopIteration):
        return 0


def muster(*args: str) -> list[str]:
    return [sys.executable, "-m", "generator", *args]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", default=SIZES)
    parser.add_argument("--preview", action="store_true", help="time muster preview's edits instead (bench/preview.py)")
    parser.add_argument("--edits", type=int, default=20, help="edits timed per size with --preview")
    parser.add_argument("--edit", choices=("value", "insert", "delete", "csv", "xlsx"), default="value",
                        help="with --preview: change one card's value, add a card near the top, take one away there, "
                             "or change one card's value in a CSV deck or in a workbook (.xlsx)")
    parser.add_argument("--art", action="store_true", help="time a game with a large PNG on every card instead")
    parser.add_argument("--cmyk", action="store_true", help="with --art: Muster builds in CMYK (--colour cmyk)")
    args = parser.parse_args()
    # Muster runs as installed: pip compiles bytecode at install, and a checkout writes it on first run unless
    # PYTHONDONTWRITEBYTECODE is set (as on some CI machines), when every run would compile 30 modules again.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "generator")], check=True,
                   stdout=subprocess.DEVNULL)
    work = Path(tempfile.mkdtemp(prefix="muster-bench-"))
    if args.preview:
        from preview import measure  # bench/ is on the path: this script's folder

        try:
            measure(work, [int(s) for s in args.sizes.split(",")], args.edits, args.edit)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return
    if args.art:
        try:
            art(work, [int(s) for s in (args.sizes if args.sizes != SIZES else "100").split(",")], args.runs,
                ["--colour", "cmyk"] if args.cmyk else [])
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return
    try:
        print(f"{'cards':>6} {'muster s':>9} {'plain s':>8} {'ratio':>6} {'muster MiB':>10} {'plain MiB':>9} "
              f"{'all MiB':>8} {'muster B/card':>13} {'plain B/card':>12} {'bytes ratio':>11}")
        for size in (int(s) for s in args.sizes.split(",")):
            game = work / f"synthetic-{size}"
            subprocess.run([sys.executable, str(HERE / "synthetic.py"), "game", str(game), str(size)], check=True)
            plain_pdf = work / f"plain-{size}.pdf"
            ours, theirs, ratios = [], [], []
            for _ in range(args.runs):  # alternate, so that drift in the machine hits both alike
                m = timed(muster("build", str(game), "--out", str(work / "out"), "--force", "-q"), REPO)
                p = timed([sys.executable, str(HERE / "synthetic.py"), "plain", str(plain_pdf), str(size)], REPO)
                ours.append(m)
                theirs.append(p)
                ratios.append(m[0] / p[0])
            summed = tree_memory(muster("build", str(game), "--out", str(work / "out"), "--force", "-q"), REPO)
            muster_bytes = (work / "out" / game.name / "cards-cards.pdf").stat().st_size
            plain_bytes = plain_pdf.stat().st_size
            print(f"{size:>6} {statistics.median(t for t, _ in ours):>9.3f} {statistics.median(t for t, _ in theirs):>8.3f} "
                  f"{statistics.median(ratios):>6.2f} {max(r for _, r in ours) / 1024:>10.1f} "
                  f"{max(r for _, r in theirs) / 1024:>9.1f} {'-' if summed is None else f'{summed:.1f}':>8} "
                  f"{muster_bytes / size:>13.0f} {plain_bytes / size:>12.0f} "
                  f"{muster_bytes / plain_bytes:>11.3f}")
        kit = work / "kit"
        full = [timed(muster("build", "--out", str(kit), "--force", "-q"), REPO)[0] for _ in range(args.runs)]
        noop = [timed(muster("build", "--out", str(kit), "-q"), REPO)[0] for _ in range(args.runs)]
        helps = [timed(muster("--help"), REPO)[0] for _ in range(args.runs)]
        print(f"\nwhole bundled kit (muster build --force): {statistics.median(full):.3f} s median of {args.runs}")
        print(f"no-op rebuild (muster build, all up to date): {statistics.median(noop):.3f} s")
        print(f"muster --help: {statistics.median(helps):.3f} s")
        print(f"(python {sys.version.split()[0]}, {os.cpu_count()} cores)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def art(work: Path, sizes: list[int], runs: int, options: list[str]) -> None:
    """Muster's build (with `options`) of a game with a large PNG on every card, paired with img2pdf's PDF of the
    same PNGs."""
    try:
        import img2pdf  # noqa: F401
    except ImportError:
        img2pdf = None
    print(f"{'cards':>6} {'art MB':>7} {'muster s':>9} {'img2pdf s':>9} {'ratio':>6} {'muster MiB':>10} "
          f"{'img2pdf MiB':>11} {'all MiB':>8} {'muster MB':>9} {'img2pdf MB':>10} {'PDF/art':>8}")
    for size in sizes:
        game = work / f"art-{size}"
        subprocess.run([sys.executable, str(HERE / "art.py"), "game", str(game), str(size)], check=True)
        art_bytes = sum(p.stat().st_size for p in (game / "art").iterdir())
        theirs_pdf = work / f"img2pdf-{size}.pdf"
        ours, theirs = [], []
        for _ in range(runs):  # alternate, so that drift in the machine hits both alike
            ours.append(timed(muster("build", str(game), "--out", str(work / "out"), "--force", "-q", *options), REPO))
            if img2pdf is not None:
                theirs.append(timed([sys.executable, str(HERE / "art.py"), "img2pdf", str(theirs_pdf), str(game)], REPO))
        summed = tree_memory(muster("build", str(game), "--out", str(work / "out"), "--force", "-q", *options), REPO)
        ours_bytes = (work / "out" / game.name / "cards-cards.pdf").stat().st_size
        if theirs:
            ratio = f"{statistics.median(m[0] / t[0] for m, t in zip(ours, theirs)):.2f}"
            their = (f"{statistics.median(t for t, _ in theirs):>9.3f}", f"{max(r for _, r in theirs) / 1024:>11.1f}",
                     f"{theirs_pdf.stat().st_size / 1e6:>10.1f}")
        else:
            ratio, their = "-", (f"{'-':>9}", f"{'-':>11}", f"{'-':>10}")
        print(f"{size:>6} {art_bytes / 1e6:>7.1f} {statistics.median(t for t, _ in ours):>9.3f} {their[0]} {ratio:>6} "
              f"{max(r for _, r in ours) / 1024:>10.1f} {their[1]} {'-' if summed is None else f'{summed:.1f}':>8} "
              f"{ours_bytes / 1e6:>9.1f} {their[2]} {ours_bytes / art_bytes:>8.3f}")
        exports = [(kind, timed(muster("export", kind, str(game), "--out", str(work / "out")), REPO))
                   for kind in ARTFUL_EXPORTS]
        print("       exports of the same game, one run each: " + ", ".join(
            f"{kind} {seconds:.2f} s {peak / 1024:.0f} MiB" for kind, (seconds, peak) in exports))
    print(f"(python {sys.version.split()[0]}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
