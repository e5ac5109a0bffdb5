"""Hostile and broken input: every case gets one clear error line naming its file, an exit code of 1 or 2,
no traceback, and leaves earlier output as it was."""

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

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from typer.testing import CliRunner

from conftest import GAME_YAML, REPO
from generator import sandbox
from generator.cli import app

RUNNER = CliRunner()


def run(*args: str):
    result = RUNNER.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def game_yaml(**replace: str) -> str:
    text = GAME_YAML
    for old, new in replace.items():
        assert old in text
        text = text.replace(old, new)
    return text


LAUGHS = "muster: 1\ntitle: x\na: &a [1,1,1,1,1,1,1,1,1]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)}]\n"
    for i in range(12))

CASES = {
    # name: (files, exit code, what the one error line must say)
    "empty game file": ({"game.yaml": ""}, 2, "expected a mapping at the top of game.yaml, got nothing"),
    "binary garbage": ({"game.yaml": b"\xff\xfe\x00\x01garbage\x89PNG"}, 2, "not UTF-8 text"),
    "tabs for indentation": ({"game.yaml": "muster: 1\ntitle: x\ndecks:\n\treds: {}\n"}, 2, "YAML syntax"),
    "truncated file": ({"game.yaml": GAME_YAML[: len(GAME_YAML) // 2] + "\n  - [unclosed"}, 2, "YAML syntax"),
    "duplicate key": ({"game.yaml": game_yaml(**{"title: Tiny War\n": "title: Tiny War\ntitle: Again\n"})}, 2, "duplicate key 'title'"),
    "python tag": ({"game.yaml": "muster: 1\ntitle: !!python/object/apply:os.system ['echo owned']\n"}, 2, "YAML"),
    "billion laughs": ({"game.yaml": LAUGHS}, 2, "aliases: refused"),
    "huge file": ({"reds.yaml": "cards:\n" + "  - {title: x}\n" * 400_000}, 1, "bytes; the limit is"),
    "count of a billion": ({"reds.yaml": "cards:\n  - {title: A, type: L, force: 2, count: 1000000000}\n"}, 1, "expected an integer from 0 to 10000"),
    "card ten metres wide": ({"game.yaml": game_yaml(**{"card: {size: poker}": "card: {size: 10000mm x 88mm}"})}, 1, "each side must be 5 mm to 600 mm"),
    "negative force": ({"reds.yaml": "cards:\n  - {title: A, type: L, force: -4}\n"}, 1, "-4 is outside 0..9"),
    "wrong type for decks": ({"game.yaml": game_yaml(**{"decks:\n  reds:": "decks: 5\nold:\n  reds:"})}, 1, "decks: expected a mapping, got 5"),
    "missing title": ({"game.yaml": game_yaml(**{"title: Tiny War\n": ""})}, 1, "missing required key 'title'"),
    "unknown key": ({"game.yaml": game_yaml(**{"muster: 1\n": "muster: 1\ntitel: x\n"})}, 1, "unknown key 'titel' (did you mean 'title'?)"),
    "unit-less length": ({"game.yaml": game_yaml(**{"card: {size: poker}": "card: {size: 63 x 88}"})}, 1, "with a unit"),
    "escape with ..": ({"game.yaml": game_yaml(**{"file: reds.yaml": "file: ../../etc/passwd"})}, 1, "leads outside"),
    "absolute path": ({"game.yaml": game_yaml(**{"file: reds.yaml": "file: /etc/passwd"})}, 1, "is an absolute path"),
    "template reaches internals": ({"face.yaml": "elements:\n  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: '{{ card.__class__.__mro__[1].__subclasses__() }}'}\n"}, 1, "face.yaml:2:"),
    "template calls a method": ({"face.yaml": "elements:\n  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: \"{{ card.title.__init__.__globals__ }}\"}\n"}, 1, "face.yaml:2:"),
    "giant string": ({"face.yaml": "elements:\n  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: \"{{ 'x' * 1000000000 }}\"}\n"}, 1, "repeated sequence is limited"),
    "giant power": ({"face.yaml": "elements:\n  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: \"{{ 9 ** 99999999 }}\"}\n"}, 1, "exponents are limited"),
    "long range": ({"face.yaml": "elements:\n  - {kind: box, repeat: 'range(100000000)', x: 0, y: 0, w: 1, h: 1}\n"}, 1, "range() is limited"),
    "unknown font": ({"face.yaml": "elements:\n  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: x, font: Comic}\n"}, 1, "unknown font 'Comic'"),
    "missing image": ({"face.yaml": "elements:\n  - {kind: image, x: 4, y: 4, w: 10, h: 10, src: nowhere.png}\n"}, 1, "no image 'nowhere.png'"),
    "corrupt image": ({"face.yaml": "elements:\n  - {kind: image, x: 4, y: 4, w: 10, h: 10, src: bad.png}\n", "bad.png": b"\x89PNG\r\n\x1a\nnot really"}, 1, "not a readable image"),
    "text with no room": ({"face.yaml": "elements:\n  - {kind: text, x: 4, y: 4, w: 1, h: 10, text: '{{ card.title }}', size: 9, min_size: 8}\n"}, 1, "does not fit on one line"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_input_gets_one_clear_error(make_game, name):
    files, code, message = CASES[name]
    folder = make_game({k: v for k, v in files.items() if isinstance(v, str)})
    for file_name, content in files.items():
        if isinstance(content, bytes):
            (folder / file_name).write_bytes(content)
    exit_code, output = run("validate", str(folder))
    assert exit_code == code, output
    lines = [line for line in output.splitlines() if message in line]
    assert lines, output
    assert lines[0].startswith(str(folder)) or lines[0].startswith("error:"), lines[0]


def test_symlink_out_of_the_game_folder_is_refused(make_game, tmp_path):
    outside = tmp_path / "secret.yaml"
    outside.write_text("cards: []\n")
    folder = make_game()
    (folder / "reds.yaml").unlink()
    (folder / "reds.yaml").symlink_to(outside)
    code, output = run("validate", str(folder))
    assert code == 1 and "'reds.yaml' leads outside tiny/" in output


def test_unicode_everywhere_builds_and_warns_about_missing_glyphs(make_game, tmp_path):
    titles = ["Прорыв фронта", "Μάχη της Κρήτης", "東部戦線", "Ataque 🚀", "הגנה"]
    cards = "".join(f"  - {{title: \"{t}\", type: U, force: 1}}\n" for t in titles)
    folder = make_game({"reds.yaml": f"cards:\n{cards}",
                        "game.yaml": game_yaml(**{"size: 3": "size: 5", "title: Tiny War": "title: Война и мир"})})
    code, output = run("validate", str(folder))
    assert code == 0, output
    assert "has no glyph for '宀'" not in output and "東" in output and "🚀" in output
    code, output = run("build", str(folder), "--out", str(tmp_path / "out"))
    assert code == 0, output


def test_endless_templates_are_stopped(make_game, monkeypatch):
    monkeypatch.setattr(sandbox, "TIME_LIMIT", 1)
    loop = "{% for a in range(1000) %}{% for b in range(1000) %}{% for c in range(1000) %}{% endfor %}{% endfor %}{% endfor %}"
    folder = make_game({"face.yaml": f"elements:\n  - {{kind: text, x: 4, y: 4, w: 55, h: 10, text: \"{loop}\"}}\n"})
    started = time.monotonic()
    code, output = run("validate", str(folder))
    assert code == 1 and "templates ran for more than 1 s" in output
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
