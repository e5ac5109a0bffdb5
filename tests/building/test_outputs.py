"""The output folder: refused when it is a link, a file or read-only; locked while a build writes into it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from generator.building.folders import LOCK, FolderLock
from generator.building.kit import build_one
from generator.building.staging import Staging
from generator.core.errors import MusterError
from generator.core.options import Options


def refused_code(call) -> str:
    with pytest.raises(MusterError) as caught:
        call()
    return caught.value.code


def test_a_build_leaves_no_lock_and_its_kit_whole(make_game, tmp_path):
    outcome = build_one(make_game(), tmp_path / "out", Options(calibration=False))
    assert outcome.code == 0, outcome.errors
    kit = tmp_path / "out" / "tiny"
    assert not (kit / LOCK).exists()
    assert {e["file"] for e in json.loads((kit / "manifest.json").read_text())["files"]} == {"cards-reds.pdf"}


def test_a_folder_another_build_holds_is_refused_with_its_pid(tmp_path):
    held = Staging(tmp_path, "tiny")
    try:
        with pytest.raises(MusterError) as caught:
            Staging(tmp_path, "tiny")
        assert caught.value.code == "output-locked" and str(os.getpid()) in caught.value.message
        assert caught.value.where.path == tmp_path / "tiny"
    finally:
        held.discard()
    Staging(tmp_path, "tiny").discard()  # free again once released
    assert not (tmp_path / "tiny").exists()  # made by the staging, nothing committed: removed


def test_a_lock_whose_holder_has_died_is_taken_over(tmp_path):
    folder = tmp_path / "tiny"
    folder.mkdir()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    (folder / LOCK).write_text(dead.stdout)
    lock = FolderLock(folder)
    try:
        assert (folder / LOCK).read_text() == f"{os.getpid()}\n"
    finally:
        lock.release()
    assert not (folder / LOCK).exists()


def test_staging_leaves_the_temporary_files_of_a_running_build_alone(tmp_path):
    first = Staging(tmp_path, "tiny")
    try:
        temporary = first.path("cards.pdf")
        temporary.write_bytes(b"half")
        refused_code(lambda: Staging(tmp_path, "tiny"))
        assert temporary.read_bytes() == b"half"
    finally:
        first.discard()


@pytest.mark.parametrize("plant, code", [("link", "output-is-a-link"), ("file", "output-not-a-folder")])
def test_a_planted_game_folder_is_refused(tmp_path, plant, code):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "out").mkdir()
    if plant == "link":
        (tmp_path / "out" / "tiny").symlink_to(elsewhere)
    else:
        (tmp_path / "out" / "tiny").write_text("mine\n")
    assert refused_code(lambda: Staging(tmp_path / "out", "tiny")) == code
    assert not list(elsewhere.iterdir())


def test_a_link_below_the_game_folder_is_refused_too(tmp_path):
    """As an export stages into OUT/<game>/png/<deck>: every part of it a folder of its own."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "out" / "tiny").mkdir(parents=True)
    (tmp_path / "out" / "tiny" / "png").symlink_to(elsewhere)
    assert refused_code(lambda: Staging(tmp_path / "out", "tiny", "png", "reds")) == "output-is-a-link"
    assert not list(elsewhere.iterdir())


def test_out_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "out").write_text("mine\n")
    assert refused_code(lambda: Staging(tmp_path / "out", "tiny")) == "output-not-a-folder"
    assert (tmp_path / "out").read_text() == "mine\n"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_is_refused(tmp_path):
    (tmp_path / "out").mkdir(mode=0o555)
    try:
        assert refused_code(lambda: Staging(tmp_path / "out", "tiny")) == "output-not-writable"
    finally:
        (tmp_path / "out").chmod(0o755)


def test_a_build_reports_missing_glyphs_and_builds_all_the_same(make_game, tmp_path):
    game = make_game({"reds.yaml": "cards:\n  - {title: Alpha 東, type: L, force: 2}\n"
                                   "  - {title: Bravo, type: U, force: 3, count: 2}\n"})
    outcome = build_one(game, tmp_path / "out", Options(calibration=False))
    assert outcome.code == 0, outcome.errors
    assert outcome.warnings and all("東" in line and "warning" in line for line in outcome.warnings)


def test_an_edited_manifest_removes_nothing_outside_the_folder(tmp_path):
    (tmp_path / "keep.txt").write_text("mine\n")
    (tmp_path / "out" / "tiny" / "sub").mkdir(parents=True)
    files = [{"file": name} for name in ("../../keep.txt", "..", "", 5, "sub")]
    (tmp_path / "out" / "tiny" / "manifest.json").write_text(json.dumps({"files": files}))
    staging = Staging(tmp_path / "out", "tiny")
    staging.path("a.pdf").write_bytes(b"%PDF")
    staging.commit({"files": [{"file": "a.pdf"}]})
    staging.discard()
    assert (tmp_path / "keep.txt").read_text() == "mine\n" and (tmp_path / "out" / "tiny" / "sub").is_dir()
    assert (tmp_path / "out" / "tiny" / "a.pdf").read_bytes() == b"%PDF"


def test_a_folder_in_a_documents_place_is_one_error_line(tmp_path):
    (tmp_path / "out" / "tiny" / "a.pdf").mkdir(parents=True)
    (tmp_path / "out" / "tiny" / "a.pdf" / "x").write_text("mine\n")
    staging = Staging(tmp_path / "out", "tiny")
    try:
        staging.path("a.pdf").write_bytes(b"%PDF")
        assert refused_code(lambda: staging.commit({"files": []})) == "output-not-writable"
    finally:
        staging.discard()
    assert (tmp_path / "out" / "tiny" / "a.pdf" / "x").read_text() == "mine\n"


def test_a_lock_file_planted_as_a_link_is_refused(tmp_path):
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("mine\n")
    (tmp_path / "out" / "tiny").mkdir(parents=True)
    (tmp_path / "out" / "tiny" / LOCK).symlink_to(elsewhere)
    assert refused_code(lambda: Staging(tmp_path / "out", "tiny")) == "output-is-a-link"
    assert elsewhere.read_text() == "mine\n"
