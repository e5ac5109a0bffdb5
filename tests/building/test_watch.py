"""`muster watch` and the edit loop: every input read again when it changes, a build recorded as current only for
what it read, output never inside the game it builds, the build's options, a rebuild per save."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import REPO, patched
from generator.building.kit import build_one
from generator.core.options import Options

SECONDS = 30  # for what takes a second or two: room for a machine busy with other tests


def until(condition, what: str, log: Path | None = None) -> None:
    """Returns once `condition()` holds; fails after SECONDS, with the watcher's output."""
    deadline = time.monotonic() + SECONDS
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"no {what} in {SECONDS} s" + (f":\n{log.read_text()}" if log else ""))
        time.sleep(0.05)


def muster(*args, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", *map(str, args)], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


class Watcher:
    """`muster watch` running in a subprocess, its output going to a log file."""

    def __init__(self, tmp_path: Path, *args, cwd: Path = REPO):
        self.log = tmp_path / "watch.log"
        with self.log.open("w") as log:
            self.process = subprocess.Popen([sys.executable, "-m", "generator", "watch", *map(str, args)], cwd=cwd,
                                            stdout=log, stderr=subprocess.STDOUT,
                                            env={**os.environ, "PYTHONUNBUFFERED": "1"})

    def text(self) -> str:
        return self.log.read_text()

    def wait_for(self, condition, what: str) -> None:
        until(lambda: condition() or self.process.poll() is not None, what, self.log)
        assert self.process.poll() is None, self.text()

    def builds(self) -> int:
        return self.text().count("tiny: cards-reds.pdf")

    def stop(self) -> int:
        """Ctrl-C, and the exit code."""
        self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def edited(path, old: str, new: str) -> None:
    """`path` with `old` replaced by `new`, written as an editor writes it: a new file renamed over the old one,
    in the same second and with the same size where the edit allows it."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    stat = path.stat()
    spare = path.with_name(path.name + ".new")
    spare.write_text(patched(text, {old: new}), encoding="utf-8")
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


def test_a_build_is_recorded_as_current_only_for_the_inputs_it_read(make_game, tmp_path):
    from generator.building.kit import Outcome, up_to_date

    folder = make_game()

    def edit_once_the_cards_are_drawn(file: str) -> None:  # the layout was read; the build goes on to the boards
        if file == "tiny/cards-reds.pdf":
            edited(folder / "face.yaml", "size: 30", "size: 20")

    assert build_one(folder, tmp_path / "out", Options(), done=edit_once_the_cards_are_drawn).code == 0
    assert not isinstance(up_to_date(folder, tmp_path / "out", Options()), Outcome)
    assert build_one(folder, tmp_path / "out", Options()).code == 0
    assert isinstance(up_to_date(folder, tmp_path / "out", Options()), Outcome)


def test_watch_rebuilds_each_save_keeps_the_last_good_kit_and_stops_cleanly(make_game, tmp_path):
    folder, out = make_game(), tmp_path / "out"
    sheet = out / "tiny" / "cards-reds.pdf"
    watcher = Watcher(tmp_path, folder, "--out", out)
    try:
        watcher.wait_for(lambda: watcher.builds() == 1, "first build")
        first = digest(sheet)
        edited(folder / "face.yaml", "w: 63, h: 88", "w: 63, h: 40")  # the band
        watcher.wait_for(lambda: watcher.builds() == 2, "build after the band's edit")
        banded = digest(sheet)
        assert banded != first
        edited(folder / "face.yaml", "{{ card.force }}", "{{ card.force ")
        watcher.wait_for(lambda: "tiny: not built" in watcher.text(), "error after the broken template")
        assert "face.yaml:" in watcher.text() and digest(sheet) == banded
        edited(folder / "face.yaml", "{{ card.force ", "{{ card.force * 2 }}")
        watcher.wait_for(lambda: watcher.builds() == 3, "build after the fix")
        assert digest(sheet) not in (first, banded)
    finally:
        assert watcher.stop() == 0
    assert "Traceback" not in watcher.text()
    # what watch recorded as current is what a build from scratch makes
    later = muster("build", folder, "--out", out)
    assert later.returncode == 0, later.stderr
    assert muster("build", folder, "--out", tmp_path / "fresh", "--force").returncode == 0
    assert digest(sheet) == digest(tmp_path / "fresh" / "tiny" / "cards-reds.pdf")


def test_one_save_is_one_build_and_editor_files_are_no_save(make_game, tmp_path):
    folder, out = make_game(), tmp_path / "out"
    watcher = Watcher(tmp_path, folder, "--out", out)
    try:
        watcher.wait_for(lambda: watcher.builds() == 1, "first build")
        (folder / ".face.yaml.swp").write_bytes(b"vim")
        (folder / "face.yaml~").write_text("backup")
        (folder / "4913").write_text("")
        edited(folder / "face.yaml", "size: 30", "size: 20")  # a temporary file, then renamed over the layout
        watcher.wait_for(lambda: watcher.builds() == 2, "build after the save")
        time.sleep(1.0)  # ten times the time a save settles in: a second build would have begun
        assert watcher.builds() == 2 and watcher.text().count("watching") == 1, watcher.text()
    finally:
        assert watcher.stop() == 0


def test_output_inside_the_game_folder_is_refused(make_game):
    folder = make_game()
    for command in ("build", "watch"):
        result = muster(command, ".", cwd=folder)
        assert result.returncode == 2, result
        assert result.stderr.count("\n") == 1 and "inside the game folder 'tiny'" in result.stderr
        assert "--out" in result.stderr and not (folder / "output").exists()
    assert muster("build", ".", "--out", "../output", cwd=folder).returncode == 0


def test_watch_builds_with_the_options_of_build(make_game, tmp_path):
    import pypdfium2 as pdfium

    folder, out = make_game(), tmp_path / "out"
    letter = ("--paper", "letter", "--no-calibration", "--duplex", "none", "--bleed", "1/8in")
    watcher = Watcher(tmp_path, folder, "--out", out, *letter)
    try:
        watcher.wait_for(lambda: watcher.builds() == 1, "first build")
    finally:
        assert watcher.stop() == 0
    document = pdfium.PdfDocument(str(out / "tiny" / "cards-reds.pdf"))
    try:
        assert [round(x) for x in document[0].get_size()] == [612, 792]
    finally:
        document.close()
    assert not (out / "tiny" / "calibration.pdf").exists()
    again = muster("build", folder, "--out", out, *letter)
    assert again.returncode == 0 and "up to date" in again.stdout
