"""Hostile and broken input met in the process itself: links out of the game folder, any script, endless
templates, a build killed midway, random edits; each gets one clear error line naming its file, an exit code of 1
or 2, no traceback, and leaves earlier output as it was. The corpus of hostile files is tests/hostile/cases/, run
by test_corpus.py."""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st
from typer.testing import CliRunner

from conftest import REPO, GAME_YAML, patched
from generator.cli import app
from generator.core import sandbox

RUNNER = CliRunner()


def run(*args: str):
    result = RUNNER.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def test_symlink_out_of_the_game_folder_is_refused(make_game, tmp_path):
    outside = tmp_path / "secret.yaml"
    outside.write_text("cards: []\n")
    folder = make_game()
    (folder / "reds.yaml").unlink()
    (folder / "reds.yaml").symlink_to(outside)
    code, output = run("validate", "--format", "json", str(folder))
    assert code == 1
    assert [(f["code"], f["field"], Path(f["file"]).name) for f in json.loads(output)] == [
        ("file-outside-game", "decks.reds", "game.yaml")]


def test_unicode_everywhere_builds_and_warns_about_missing_glyphs(make_game, tmp_path):
    titles = ["Прорыв фронта", "Μάχη της Κρήτης", "東部戦線", "Ataque 🚀", "הגנה"]
    cards = "".join(f"  - {{title: \"{t}\", type: U, force: 1}}\n" for t in titles)
    folder = make_game({"reds.yaml": f"cards:\n{cards}",
                        "game.yaml": patched(GAME_YAML, {"size: 3": "size: 5",
                                                         "title: Tiny War": "title: Война и мир"})})
    code, output = run("validate", str(folder))
    assert code == 0, output
    assert "has no glyph for '宀'" not in output and "東" in output and "🚀" in output
    code, output = run("build", str(folder), "--out", str(tmp_path / "out"))
    assert code == 0, output


def test_endless_templates_are_stopped(make_game, monkeypatch):
    monkeypatch.setattr(sandbox, "TIME_LIMIT", 1)
    # within the budget's steps (a million turns), each slow: only the time limit stops it
    loop = "{% for a in range(1000) %}{% for b in range(1000) %}{{ ('x' * 100000) | replace('x', 'yy') | length }}{% endfor %}{% endfor %}"
    folder = make_game({"face.yaml": f"elements:\n  - {{kind: text, x: 4, y: 4, w: 55, h: 10, text: \"{loop}\"}}\n"})
    started = time.monotonic()
    code, output = run("validate", "--format", "json", str(folder))
    assert code == 1
    assert [(f["code"], f["field"], Path(f["file"]).name) for f in json.loads(output)] == [
        ("time-limit", "decks.reds", "game.yaml")]
    assert time.monotonic() - started < 10


def _kit_state(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def test_a_build_killed_midway_leaves_the_old_kit_or_the_new_one(tmp_path):
    """Kill `muster build` at several moments; each time every PDF is complete and the manifest, when there is
    one, describes exactly the files that are there."""
    from pypdf import PdfReader

    out = tmp_path / "out"
    command = [sys.executable, "-m", "generator", "build", "europe-1939", "--out", str(out), "--jobs", "1"]
    subprocess.run(command, cwd=REPO, check=True, capture_output=True)
    folder = out / "europe-1939"
    for delay in (0.25, 0.45, 0.65, 0.85):
        process = subprocess.Popen(command + ["--force", "--paper", "letter"], cwd=REPO,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        process.wait()
        visible = [p for p in folder.iterdir() if not p.name.startswith(".")]
        for pdf in (p for p in visible if p.suffix == ".pdf"):
            assert len(PdfReader(pdf).pages) > 0
        manifest = folder / "manifest.json"
        if manifest.exists():
            listed = json.loads(manifest.read_text())["files"]
            assert {e["file"] for e in listed} <= {p.name for p in visible}
            for entry in listed:
                assert hashlib.sha256((folder / entry["file"]).read_bytes()).hexdigest() == entry["sha256"]
    subprocess.run(command + ["--force"], cwd=REPO, check=True, capture_output=True)
    assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]  # leftovers are cleared


@settings(max_examples=int(os.environ.get("MUSTER_FUZZ_EXAMPLES", "60")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_mutated_game_files_never_crash(make_game, tmp_path, data):
    """Random edits to a working game: any outcome but a crash, and every error line names a real file."""
    folder = make_game()
    name = data.draw(st.sampled_from(["game.yaml", "reds.yaml", "face.yaml"]))
    text = (folder / name).read_text()
    for _ in range(data.draw(st.integers(1, 4))):
        position = data.draw(st.integers(0, len(text)))
        action = data.draw(st.sampled_from(["delete", "insert", "replace"]))
        fragment = data.draw(st.sampled_from([":", "-", " ", "\n", "{", "}", "[", "'", "\"", "&a", "*a", "!!",
                                              "{{", "}}", "x", "99999", "-1", "é", "\t", "#"]))
        if action == "delete":
            text = text[:position] + text[position + data.draw(st.integers(1, 6)):]
        elif action == "insert":
            text = text[:position] + fragment + text[position:]
        else:
            text = text[:position] + fragment + text[position + len(fragment):]
    (folder / name).write_text(text)
    code, output = run("validate", str(folder))
    assert code in (0, 1, 2)
    for line in output.splitlines():
        located = re.match(r"^(.*):(\d+):(\d+): (error|warning): ", line)
        if located:  # a finding with a line names a file that exists, and a line within it
            path = Path(located.group(1))
            assert path.is_file(), line
            assert int(located.group(2)) <= len(path.read_text(errors="replace").splitlines()) + 1, line
