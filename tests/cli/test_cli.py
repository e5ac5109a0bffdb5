"""The command line as a user meets it: exit codes, one-line errors, summaries, and output that survives failure."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import REPO, patched


def muster(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True, text=True,
                          cwd=cwd or REPO, timeout=300)


def test_validate_europe_is_clean():
    result = muster("validate", "decks/europe-1939")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == ""
    assert "1 game(s): 0 error(s), 0 warning(s)" in result.stderr


def test_validate_reports_every_problem_with_file_and_line(tmp_path):
    game = tmp_path / "europe-1939"
    shutil.copytree(REPO / "decks" / "europe-1939", game)
    germans = game / "germans.yaml"
    germans.write_text(patched(germans.read_text(), {"{title: Hitler, title:de: Hitler, type: L, force: 2, fronts: A}":
                                                         "{title: Hitler, title:de: Hitler, type: L, force: 2, fronts: AX}"}))
    game_yaml = game / "game.yaml"
    game_yaml.write_text(patched(game_yaml.read_text(), {"size: 60": "size: 61"}))
    result = muster("validate", str(game), "--format", "json", cwd=tmp_path)
    assert result.returncode == 1
    found = {(f["file"], f["line"], f["field"], f["code"]) for f in json.loads(result.stdout)}
    hitler_line = next(i for i, l in enumerate(germans.read_text().splitlines(), 1) if "Hitler" in l)
    size_line = next(i for i, l in enumerate(game_yaml.read_text().splitlines(), 1) if "size: 61" in l)
    assert found >= {("europe-1939/germans.yaml", hitler_line, "cards[2].fronts", "unknown-code"),
                     ("europe-1939/game.yaml", size_line, "decks.allies.size", "deck-size")}, found
    assert "Traceback" not in result.stderr


def test_validate_json_format(tmp_path, make_game):
    folder = make_game({"reds.yaml": "cards:\n  - {title: A, type: L, force: nine}\n"})
    result = muster("validate", str(folder), "--format", "json")
    assert result.returncode == 1
    findings = json.loads(result.stdout)
    assert {f["field"] for f in findings} >= {"cards[0].force"}
    assert all(f["line"] for f in findings if f["field"] == "cards[0].force")


def test_validate_json_gives_each_finding_its_code(make_game):
    folder = make_game({"reds.yaml": "cards:\n  - {title: Alpha, type: L}\n  - {title: alpha, type: U, force: 3}\n"})
    result = muster("validate", str(folder), "--format", "json")
    assert result.returncode == 1
    found = sorted((f["code"], f["field"]) for f in json.loads(result.stdout))
    assert found == [("deck-size", "decks.reds.size"), ("duplicate-title", "cards[1].title"),
                     ("rule-require", "cards[0]")]
    text = muster("validate", str(folder))
    assert "deck-size" not in text.stdout and "declares 3 cards, its cards add up to 2" in text.stdout


def test_unreadable_input_exits_2_with_one_line(tmp_path):
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "game.yaml").write_text("muster: 1\ntitle: [unclosed\n")
    result = muster("validate", str(tmp_path / "broken"))
    assert result.returncode == 2
    assert result.stderr.splitlines()[0].startswith(str(tmp_path / "broken" / "game.yaml") + ":")
    assert result.stderr.splitlines()[1] == "1 game(s): 1 error(s), 0 warning(s)"
    assert "Traceback" not in result.stderr
    listed = muster("validate", str(tmp_path / "broken"), "--format", "json")
    assert listed.returncode == 2
    assert [(f["code"], f["file"], f["line"]) for f in json.loads(listed.stdout)] == [
        ("yaml-syntax", str(tmp_path / "broken" / "game.yaml"), 3)]  # where the unclosed list meets the end
    missing = muster("build", str(tmp_path / "nowhere"))
    assert missing.returncode == 2 and "Traceback" not in missing.stderr


def test_build_writes_decks_and_manifest(tmp_path, make_game):
    folder = make_game()
    result = muster("build", str(folder), "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert "tiny: cards-reds.pdf (2 pages)" in result.stdout
    manifest = json.loads((tmp_path / "out" / "tiny" / "manifest.json").read_text())
    entry = manifest["files"][0]
    assert (entry["file"], entry["kind"], entry["pages"], entry["cards"]) == ("cards-reds.pdf", "cards", 2, 3)
    import hashlib
    assert entry["sha256"] == hashlib.sha256((tmp_path / "out" / "tiny" / "cards-reds.pdf").read_bytes()).hexdigest()
    assert manifest["decks"] == {"reds": {"declared": 3, "cards": 3}}


def test_failed_build_leaves_earlier_output_intact(tmp_path, make_game):
    folder = make_game()
    out = tmp_path / "out"
    assert muster("build", str(folder), "--out", str(out)).returncode == 0
    before = {p.name: p.read_bytes() for p in (out / "tiny").iterdir()}
    (folder / "reds.yaml").write_text("cards:\n  - {title: A, type: L, force: 99}\n")
    result = muster("build", str(folder), "--out", str(out))
    assert result.returncode == 1 and "not built" in result.stderr
    after = {p.name: p.read_bytes() for p in (out / "tiny").iterdir()}
    assert after == before


def test_bad_option_values_are_one_line_errors(make_game, tmp_path):
    result = muster("build", str(make_game()), "--bleed", "3 parsecs", "--out", str(tmp_path))
    assert result.returncode == 2 and result.stderr.strip().startswith("error: --bleed:")


def test_list_shows_declared_and_actual_sizes():
    result = muster("list", "europe-1939")
    assert result.returncode == 0
    assert "germans" in result.stdout and "cards   declared    56  actual    56" in result.stdout
    assert "mat " in result.stdout and "rules.md" in result.stdout


def test_watch_rebuilds_when_a_card_changes(make_game, tmp_path):
    import time

    folder = make_game()
    process = subprocess.Popen([sys.executable, "-m", "generator", "watch", str(folder), "--out", str(tmp_path / "out"),
                                "--interval", "0.2"], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines = []

        def wait_for(text: str, limit: float = 30.0):
            deadline = time.monotonic() + limit
            while time.monotonic() < deadline:
                line = process.stdout.readline()
                lines.append(line)
                if text in line:
                    return
            raise AssertionError(f"no {text!r} in {lines}")

        wait_for("tiny: cards-reds.pdf")
        (folder / "reds.yaml").write_text(patched((folder / "reds.yaml").read_text(), {"force: 2": "force: 12"}))
        wait_for("cards[0].force: 12 is outside 0..9")
        (folder / "reds.yaml").write_text(patched((folder / "reds.yaml").read_text(), {"force: 12": "force: 4"}))
        wait_for("tiny: cards-reds.pdf")
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_verbose_lists_every_file(make_game, tmp_path):
    result = muster("build", str(make_game()), "--out", str(tmp_path / "out"), "--verbose")
    assert result.returncode == 0
    assert any("cards-reds.pdf" in l and "pages" in l and "bytes" in l for l in result.stdout.splitlines()[1:])
