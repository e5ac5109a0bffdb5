"""Peak memory of `muster export tts` of one deck of N distinct cards (issue 23: memory bounded by one sheet).

    python bench/tts_memory.py [--cards 10000] [--dpi 300]

Writes the synthetic game of N poker cards (bench/synthetic.py: every card's title and text differ), exports it
to Tabletop Simulator in a temporary folder, and prints the wall time and the peak PSS of the export's whole
process tree (bench/run.py's tree_memory), with the sheets it wrote.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import REPO, muster, tree_memory  # noqa: E402
from synthetic import write_game  # noqa: E402

LIMIT_MIB = 500  # issue 23's bound for 10,000 distinct cards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=10_000)
    parser.add_argument("--dpi", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="muster-tts-") as work:
        game = Path(work) / f"synthetic-{args.cards}"
        write_game(game, args.cards)
        out = Path(work) / "out"
        started = time.perf_counter()
        peak = tree_memory(muster("export", "tts", str(game), "--out", str(out), "--dpi", str(args.dpi), "--quiet"),
                           REPO)
        seconds = time.perf_counter() - started
        sheets = sorted((out / game.name / "tts" / "cards").glob("cards-faces-*.png"))
        if not sheets:
            raise SystemExit("the export wrote no sheet: run it by hand to see why")
    shown = "n/a (no /proc)" if peak is None else f"{peak:.0f} MiB"
    verdict = "" if peak is None else (" (within" if peak < LIMIT_MIB else " (OVER") + f" {LIMIT_MIB} MiB)"
    print(f"export tts, {args.cards:,} distinct cards at {args.dpi} dpi: {len(sheets)} sheets, {seconds:.1f} s, "
          f"peak PSS of all processes {shown}{verdict}")


if __name__ == "__main__":
    main()
