"""The sha256 of every file Muster writes for the bundled games and the test fixtures, in several option sets.

    python bench/snapshot.py --save before.json        # before a refactor
    python bench/snapshot.py --compare before.json     # after it: lists every file that changed, exit 1 if any

A refactor that promises byte-identical output proves it with this: builds in every option set below, and the
exports, each into a temporary folder, hashed file by file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
GAMES = sorted(p.name for p in (REPO / "decks").iterdir() if (p / "game.yaml").is_file())
FIXTURES = [str(REPO / "tests" / "fixtures" / name) for name in ("workshop", "counter-sheet", "hexmap")]

BUILDS = {
    "default": ["--booklet"],
    "letter-short": ["--paper", "letter", "--duplex", "short"],
    "grey-nocrop-nobleed": ["--greyscale", "--no-crop-marks", "--bleed", "0mm"],
    "fold": ["--duplex", "fold"],
    "none-offset": ["--duplex", "none", "--back-offset", "1.5,-0.5"],
    "pdfx": ["--pdfx", "--ink-limit", "260"],
    "landscape-seed": ["--paper", "a4-landscape", "--seed", "7"],
}
EXPORTS = {
    "png": ["png", "--dpi", "72"],
    "pdf": ["pdf"],
    "tts": ["tts"],
    "vassal": ["vassal"],
    "shop": ["shop", "thegamecrafter"],
}


def muster(*args: str, refusable: bool = False) -> None:
    """Run muster; a refusal (exit 2) is allowed where asked, as a shop refuses some games' card sizes."""
    command = [sys.executable, "-c", "from generator.cli import main; main()", *args]  # this tree's code
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True)
    if done.returncode not in (0, 1, *((2,) if refusable else ())):
        raise SystemExit(f"failed ({done.returncode}): {' '.join(args)}\n{done.stderr}")


def hashes(folder: Path, prefix: str) -> dict[str, str]:
    return {f"{prefix}/{path.relative_to(folder)}": hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def snapshot() -> dict[str, str]:
    found: dict[str, str] = {}
    games = [*GAMES, *FIXTURES]
    tmp = Path(tempfile.gettempdir()) / f"muster-snapshot-{REPO.name}"  # fixed per tree: TTS objects name paths
    shutil.rmtree(tmp, ignore_errors=True)
    for name, options in BUILDS.items():
        out = tmp / name
        muster("build", *games, "--out", str(out), "--jobs", "1", "--quiet", *options)
        found.update(hashes(out, f"build-{name}"))
    for name, options in EXPORTS.items():
        out = tmp / f"export-{name}"
        kind, *rest = options
        for game in games:
            shop = rest[:1] if kind == "shop" else []
            muster("export", kind, *shop, game, *rest[len(shop):], "--out", str(out), refusable=bool(shop))
        found.update(hashes(out, f"export-{name}"))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--save", type=Path)
    group.add_argument("--compare", type=Path)
    args = parser.parse_args()
    now = snapshot()
    if args.save:
        args.save.write_text(json.dumps(now, indent=1, sort_keys=True))
        print(f"{len(now)} files hashed into {args.save}")
        return
    before = json.loads(args.compare.read_text())
    changed = sorted(k for k in before.keys() & now.keys() if before[k] != now[k])
    gone, new = sorted(before.keys() - now.keys()), sorted(now.keys() - before.keys())
    for label, names in (("changed", changed), ("missing", gone), ("new", new)):
        for name in names:
            print(f"{label}: {name}")
    print(f"{len(before.keys() & now.keys()) - len(changed)} identical, {len(changed)} changed, "
          f"{len(gone)} missing, {len(new)} new")
    sys.exit(1 if changed or gone or new else 0)


if __name__ == "__main__":
    main()
