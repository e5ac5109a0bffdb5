"""Two trees of Muster timed against each other, run for run: a change's cost, paired.

    python bench/paired.py BEFORE_TREE [AFTER_TREE] [--runs 7] [--art 100]

BEFORE_TREE is a checkout of the code before the change (`git worktree add --detach /tmp/before COMMIT`); AFTER_TREE
this one by default. Each command is run in one tree then the other, alternately, so that a machine's load falls
on both alike; the table gives each tree's median wall time and peak memory (the largest RSS of the process and
its children) and the median of the paired ratios (after / before). Synthetic games of 54, 540 and 5,400 cards
are made by bench/synthetic.py, then the whole bundled kit is built, rebuilt with nothing to do (no-op), and
`--help` is asked. With --art N, a game of N cards each with its own large PNG (bench/art.py) is built in RGB
and in CMYK as well. Bytecode is written once first, as an installed package has it (a workplace that sets
PYTHONDONTWRITEBYTECODE would otherwise make every run compile every module, and the tree with more code look
slower than it is); so are templates' compiled code, where a tree keeps it (core/sandbox.py).
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
SIZES = (54, 540, 5400)


def timed(tree: Path, args: list[str]) -> tuple[float, float]:
    """Wall seconds and peak memory (MiB: the largest RSS of the process or of any of its children)."""
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "generator", *args], cwd=tree, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env={**environment, "PYTHONPATH": str(tree)})
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed in {tree}: muster {' '.join(args)}")
    return elapsed, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path, nargs="?", default=HERE.parent)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--art", type=int, default=0, help="cards of the art game built in RGB and CMYK (0: none)")
    args = parser.parse_args()
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    work = Path(tempfile.mkdtemp(prefix="muster-paired-"))
    try:
        for size in SIZES:
            subprocess.run([sys.executable, str(HERE / "synthetic.py"), "game", str(work / f"g{size}"), str(size)],
                           check=True)
        cases = {f"{size} cards": ["build", str(work / f"g{size}"), "--force", "--quiet",
                                   *(["--jobs", "1"] * (size < 5000))]
                 for size in SIZES}
        cases["bundled kit"] = ["build", "--force", "--quiet"]
        cases["no-op rebuild"] = ["build", "--quiet"]  # the kit again, everything up to date
        cases["--help"] = ["--help"]
        if args.art:
            subprocess.run([sys.executable, str(HERE / "art.py"), "game", str(work / "art"), str(args.art)], check=True)
            cases[f"art {args.art} RGB"] = ["build", str(work / "art"), "--force", "--quiet"]
            cases[f"art {args.art} CMYK"] = ["build", str(work / "art"), "--force", "--quiet", "--colour", "cmyk"]
        for tree in trees.values():
            timed(tree, ["--help"])  # bytecode written
        for name, command in cases.items():
            runs: dict[str, list[tuple[float, float]]] = {key: [] for key in trees}
            for run in range(args.runs):
                order = list(trees.items()) if run % 2 == 0 else list(reversed(trees.items()))
                for key, tree in order:
                    out = [] if command == ["--help"] else ["--out", str(work / f"out-{key}")]
                    runs[key].append(timed(tree, [*command, *out]))
            ratios = [after[0] / before[0] for after, before in zip(runs["after"], runs["before"])]
            print(f"{name}: before {statistics.median(t for t, _ in runs['before']):.3f} s "
                  f"{statistics.median(m for _, m in runs['before']):.0f} MiB, after "
                  f"{statistics.median(t for t, _ in runs['after']):.3f} s "
                  f"{statistics.median(m for _, m in runs['after']):.0f} MiB, "
                  f"median paired ratio {statistics.median(ratios):.3f} "
                  f"({args.runs} runs, load {os.getloadavg()[0]:.1f})", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)  # the games (the art game is 200 MB) and their builds


if __name__ == "__main__":
    main()
