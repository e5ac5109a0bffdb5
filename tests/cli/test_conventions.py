"""The command line's conventions, as a newcomer expects them from other tools: -h and --version, one meaning for
-o, placeholders that say what to write, choices in any case, and lengths as people write them."""

from __future__ import annotations

import json
import re

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from generator import __version__
from generator.cli import app

runner = CliRunner()


def _commands(group, prefix=()):
    """Every command under `group` (typer's click objects), with the words that call it."""
    for name, command in group.commands.items():
        if hasattr(command, "commands"):
            yield from _commands(command, prefix + (name,))
        else:
            yield prefix + (name,), command


COMMANDS = sorted(_commands(get_command(app)))


def test_version_and_short_help():
    version = runner.invoke(app, ["--version"])
    assert version.exit_code == 0 and version.output.strip() == f"muster {__version__}"
    for args in ([], ["export"], ["build"], ["export", "png"]):
        assert runner.invoke(app, [*args, "-h"]).output == runner.invoke(app, [*args, "--help"]).output
        assert "Usage:" in runner.invoke(app, [*args, "-h"]).output


@pytest.mark.parametrize("path,command", COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_help_placeholders_say_what_to_write(path, command):
    text = runner.invoke(app, [*path, "--help"]).output
    assert not re.search(r"<(str|int|float|path|int range|float range)>", text), text
    for param in command.params:
        if param.param_type_name == "option" and "-o" in param.opts:
            assert "--out" in param.opts, f"{' '.join(path)}: -o is {param.opts}"


def test_choices_in_any_case_and_fractions_of_an_inch(tmp_path):
    result = runner.invoke(app, ["build", "europe-1939", "--paper", "A4", "--duplex", "Short", "--bleed", "1/8in",
                                 "--out", str(tmp_path), "--no-calibration", "-q", "-j", "1"])
    assert result.exit_code == 0, result.output
    manifest = (tmp_path / "europe-1939" / "manifest.json").read_text()
    assert '"paper": "a4"' in manifest and '"bleed_mm": 3.175' in manifest and '"duplex": "short"' in manifest


def test_export_csv_takes_out_like_every_other_command(tmp_path):
    target = tmp_path / "g.csv"
    result = runner.invoke(app, ["export", "csv", "europe-1939", "-d", "germans", "--out", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_text(encoding="utf-8").startswith("title,")


def test_a_bundled_game_is_read_only_and_copied_to_be_changed(tmp_path):
    from generator.core.bundle import bundled_games_dir

    deck_file = bundled_games_dir() / "europe-1939" / "germans.yaml"
    before = deck_file.read_bytes()
    sheet = tmp_path / "germans.csv"
    assert runner.invoke(app, ["export", "csv", "europe-1939", "-d", "germans", "-o", str(sheet)]).exit_code == 0
    refused = runner.invoke(app, ["import", str(sheet), "--game", "europe-1939", "--deck", "germans"])
    assert refused.exit_code == 2 and "bundled game and is read-only" in refused.output
    assert "muster new my-europe-1939 --from europe-1939" in refused.output
    assert deck_file.read_bytes() == before

    copied = runner.invoke(app, ["new", "my-europe", "--from", "europe-1939", "--dir", str(tmp_path)])
    assert copied.exit_code == 0, copied.output
    game = tmp_path / "my-europe"
    assert sorted(p.name for p in game.iterdir()) == sorted(p.name for p in deck_file.parent.iterdir())
    imported = runner.invoke(app, ["import", str(sheet), "--game", str(game), "--deck", "germans"])
    assert imported.exit_code == 0, imported.output
    assert runner.invoke(app, ["validate", str(game)]).exit_code == 0
    again = runner.invoke(app, ["new", "my-europe", "--from", "europe-1939", "--dir", str(tmp_path)])
    assert again.exit_code == 2 and "already exists" in again.output
    titled = runner.invoke(app, ["new", "other", "--from", "europe-1939", "--title", "X", "--dir", str(tmp_path)])
    assert titled.exit_code == 2 and not (tmp_path / "other").exists()


def test_a_game_name_that_does_not_exist_suggests_the_nearest():
    near = runner.invoke(app, ["build", "europe-1938"])
    assert near.exit_code == 2
    assert "no game folder or bundled game named 'europe-1938' (did you mean 'europe-1939'?)" in near.output
    far = runner.invoke(app, ["validate", "zzz", "--format", "json"])
    (found,) = json.loads(far.stdout)
    assert far.exit_code == 2 and found["code"] == "unknown-game"
    assert "(bundled games: company-commander, eastern-front," in found["message"]


def test_a_yaml_mistake_names_where_it_was_found_and_what_was_left_open(make_game):
    folder = make_game({"reds.yaml": "cards:\n  - {title: Alpha, type: U, force: 2\n  - {title: Bravo, type: U, force: 3}\n"})
    result = runner.invoke(app, ["validate", str(folder)])
    assert result.exit_code == 2  # unreadable input, as the README says
    errors = [line for line in result.output.splitlines() if ": error: " in line]
    assert errors == [f"{folder / 'reds.yaml'}:3:5: error: YAML syntax: did not find expected ',' or '}}' "
                      "(inside a flow mapping opened at line 2, column 5)"], result.output


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_build_reports_every_document_as_it_is_finished(tmp_path, jobs):
    from generator.building.kit import build_all
    from generator.core.options import Options

    reported = []
    outcomes = list(build_all(["europe-1939", "grid-battle"], tmp_path, Options(), jobs, force=True,
                              done=reported.append))
    assert [outcome.code for outcome in outcomes] == [0, 0]
    written = {f"{game}/{entry['file']}" for game in ("europe-1939", "grid-battle")
               for entry in json.loads((tmp_path / game / "manifest.json").read_text())["files"]}
    assert sorted(reported) == sorted(written)


def test_the_progress_line_at_a_terminal_counts_and_names_the_documents_finished(tmp_path):
    import os
    import pty
    import subprocess
    import sys

    primary, secondary = pty.openpty()
    process = subprocess.run([sys.executable, "-m", "generator", "build", "europe-1939", "grid-battle", "--out",
                              str(tmp_path), "-j", "1"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=secondary, timeout=120)
    os.close(secondary)
    seen = b""
    while True:
        try:
            chunk = os.read(primary, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(primary)
    text = seen.decode()
    assert process.returncode == 0
    counts = [int(n) for n in re.findall(r"Building 2 game\(s\): (\d+) document\(s\) done", text)]
    assert counts == sorted(counts) and counts[0] == 0 and counts[-1] == len(set(counts)) - 1 >= 8, counts
    assert "europe-1939/cards-germans.pdf" in text and "grid-battle/map.pdf" in text
    assert "eta" not in text.lower() and "%" not in text
