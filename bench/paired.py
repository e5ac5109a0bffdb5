"""Two trees of Muster timed against each other, run for run: a change's cost, paired.

    python bench/paired.py BEFORE_TREE [AFTER_TREE] [--runs 7]

BEFORE_TREE is a checkout of the code before the change (`git worktree add --detach /tmp/before COMMIT`); AFTER_TREE
this one by default. Each command is run in one tree then the other, alternately, so that a machine's load falls
on both alike; the table gives each tree's median and the median of the paired ratios (after / before). Synthetic
games of 54, 540 and 5,400 cards are made by bench/synthetic.py, then the whole bundled kit is built. Bytecode is
written once first, as an installed package has it (a workplace that sets PYTHONDONTWRITEBYTECODE would otherwise
make every run compile every module, and the tree with more code look slower than it is).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SIZES = (54, 540, 5400)


def timed(tree: Path, args: list[str]) -> float:
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "generator", *args], cwd=tree, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, env={**environment, "PYTHONPATH": str(tree)})
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path, nargs="?", default=HERE.parent)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    work = Path(tempfile.mkdtemp(prefix="muster-paired-"))
    for size in SIZES:
        subprocess.run([sys.executable, str(HERE / "synthetic.py"), "game", str(work / f"g{size}"), str(size)],
                       check=True)
    cases = {f"{size} cards": ["build", str(work / f"g{size}"), "--force", "--quiet", *(["--jobs", "1"] * (size < 5000))]
             for size in SIZES}
    cases["bundled kit"] = ["build", "--force", "--quiet"]
    for tree in trees.values():
        timed(tree, ["--help"])  # bytecode written
    for name, command in cases.items():
        times: dict[str, list[float]] = {key: [] for key in trees}
        for run in range(args.runs):
            order = list(trees.items()) if run % 2 == 0 else list(reversed(trees.items()))
            for key, tree in order:
                times[key].append(timed(tree, [*command, "--out", str(work / f"out-{key}")]))
        ratios = [after / before for after, before in zip(times["after"], times["before"])]
        print(f"{name}: before {statistics.median(times['before']):.3f} s, after "
              f"{statistics.median(times['after']):.3f} s, median paired ratio {statistics.median(ratios):.3f} "
              f"({args.runs} runs)", flush=True)


if __name__ == "__main__":
    main()
