"""`muster watch` and the edit loop: every input read again when it changes, a build recorded as current only for
what it read, output never inside the game it builds, the build's options, a rebuild per save."""

from __future__ import annotations

import hashlib
import os

from generator.building.kit import build_one
from generator.core.options import Options


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def edited(path, old: str, new: str) -> None:
    """`path` with `old` replaced by `new`, written as an editor writes it: a new file renamed over the old one,
    in the same second and with the same size where the edit allows it."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    stat = path.stat()
    spare = path.with_name(path.name + ".new")
    spare.write_text(text.replace(old, new), encoding="utf-8")
    os.replace(spare, path)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # a tool that keeps the time (cp -p, some syncs)


def test_a_layout_edited_between_builds_in_one_process_is_read_again(make_game, tmp_path):
    folder = make_game()
    sheet = tmp_path / "out" / "tiny" / "cards-reds.pdf"
    assert build_one(folder, tmp_path / "out", Options()).code == 0
    before = digest(sheet)
    edited(folder / "face.yaml", "w: 63, h: 88", "w: 63, h: 40")  # the band: same size, same time
    assert build_one(folder, tmp_path / "out", Options()).code == 0
    assert digest(sheet) != before


def test_an_image_mended_between_builds_in_one_process_is_checked_again(make_game, tmp_path):
    from PIL import Image

    folder = make_game({"face.yaml": "elements:\n  - {kind: image, x: 0, y: 0, w: 63, h: 88, src: art.png}\n"})
    (folder / "art.png").write_bytes(b"not an image")
    failed = build_one(folder, tmp_path / "out", Options())
    assert failed.code == 1 and any("art.png" in line for line in failed.errors)
    Image.new("RGB", (8, 8), "red").save(folder / "art.png")
    assert build_one(folder, tmp_path / "out", Options()).code == 0

