"""A game built in two processes: the same files as in one, the same errors, and no process or file left over."""

from __future__ import annotations

import json
import os

import pytest

from generator.building import pipeline, sequence

from generator.layout import cards
from generator.building.kit import build_game
from generator.core.options import Options
from generator.core.errors import Finding, GameInvalid, Location, MusterError
from generator.reading.loading import load_game
from generator.building.pipeline import build_forked
from generator.reading.resources import bundled_games

from conftest import GAME_YAML, patched


@pytest.fixture
def forks(monkeypatch):
    """Small batches, so that decks span several; counts the forks made."""
    made = []
    fork = os.fork

    def counted():
        made.append(1)
        return fork()

    monkeypatch.setattr(cards, "BATCH", 4)
    monkeypatch.setattr(pipeline.os, "fork", counted)
    return made


def no_child_left() -> bool:
    """True when this process has no child, neither running nor finished and not yet waited for."""
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def manifest(folder):
    return json.loads((folder / "manifest.json").read_text())["files"]


def files(folder):
    return {path.name: path.read_bytes() for path in folder.iterdir()}


@pytest.mark.parametrize("name", ["europe-1939", "modern-war", "grid-battle"])
def test_bundled_games_are_byte_identical_in_two_processes(forks, tmp_path, name):
    """Europe: two decks of cards, a sheet of tokens, a mat and a rulebook; Five Domains: three token decks
    sharing sheets; Grid Battle: a map whose cities come from a seed."""
    root = next(root for root in bundled_games() if root.name == name)
    build_game(load_game(root), tmp_path / "one", Options())
    assert not forks
    plan, built, _ = build_forked(root, tmp_path / "two", Options())
    assert forks == [1] and no_child_left()
    assert plan.id == name and [b.file for b in built] == [b["file"] for b in manifest(tmp_path / "one" / name)]
    assert files(tmp_path / "one" / name) == files(tmp_path / "two" / name)


def test_many_small_batches_draw_the_same_sheets(forks, make_game, tmp_path):
    """Copies and a shared back across batch boundaries: forms chosen from the batches so far, the same way."""
    cards = "".join(f"  - {{title: Card {i}, type: U, force: {i % 10}, count: {1 + i % 3}}}\n" for i in range(30))
    folder = make_game({"game.yaml": patched(GAME_YAML, {"size: 3": "size: 60"}), "reds.yaml": "cards:\n" + cards,
                        "back.yaml": "elements:\n  - {kind: box, x: 0, y: 0, w: 63, h: 88, fill: dark, bleed: true}\n"})
    build_game(load_game(folder), tmp_path / "one", Options(duplex="short"))
    build_forked(folder, tmp_path / "two", Options(duplex="short"))
    assert forks == [1]
    assert files(tmp_path / "one" / "tiny") == files(tmp_path / "two" / "tiny")


@pytest.mark.parametrize("face, expected", [
    ("elements:\n  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: '{{ card.titel }}'}\n", "card has no trait 'titel'"),
    ("elements: [", "YAML syntax"),
])
def test_errors_found_in_the_second_process_are_the_same_and_nothing_is_written(forks, make_game, tmp_path, face,
                                                                                 expected):
    folder = make_game({"face.yaml": face})
    failures = []
    for build in (lambda: build_game(load_game(folder), tmp_path / "out", Options()),
                  lambda: build_forked(folder, tmp_path / "out", Options())):
        with pytest.raises(MusterError) as failed:
            build()
        failures.append(failed.value)
        assert not (tmp_path / "out" / "tiny").exists()
    one, two = failures
    assert type(one) is type(two) and str(one) == str(two) and expected in " ".join(
        [str(one)] + [str(f) for f in getattr(one, "findings", [])])
    if isinstance(one, GameInvalid):
        assert [str(f) for f in one.findings] == [str(f) for f in two.findings]
    assert forks == [1] and no_child_left()


def test_invalid_data_is_reported_from_the_second_process(forks, make_game, tmp_path):
    folder = make_game({"game.yaml": patched(GAME_YAML, {"size: 3": "size: 4"})})
    with pytest.raises(GameInvalid) as failed:
        build_forked(folder, tmp_path / "out", Options())
    assert [(f.code, f.field) for f in failed.value.findings] == [("deck-size", "decks.reds.size")]
    assert not (tmp_path / "out").exists() and no_child_left()  # not even the output folder


def test_a_failure_in_the_second_process_is_one_error_here(forks, make_game, tmp_path, monkeypatch):
    folder = make_game()
    where = Location(folder / "face.yaml", 3, 5)

    def refused(*args, **kwargs):
        raise MusterError("font file unreadable", where)
        yield

    with monkeypatch.context() as patch:
        patch.setattr(sequence, "lay_out_batches", refused)
        with pytest.raises(MusterError) as failed:
            build_forked(folder, tmp_path / "out", Options())
    assert (failed.value.message, failed.value.where) == ("font file unreadable", where)

    def broken(*args):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(sequence, "calibration_page", broken)
    with pytest.raises(MusterError) as failed:
        build_forked(folder, tmp_path / "out", Options())
    assert "building failed" in failed.value.message and "ZeroDivisionError: a bug" in failed.value.message
    assert not (tmp_path / "out" / "tiny").exists() and no_child_left()


def test_the_second_process_lays_the_calibration_page_out_and_its_findings_come_back(forks, make_game, tmp_path,
                                                                                     monkeypatch):
    folder = make_game()
    build_forked(folder, tmp_path / "out", Options())
    assert (tmp_path / "out" / "tiny" / "calibration.pdf").stat().st_size > 1000
    finding = Finding("error", Location(folder / "game.yaml", 1, 1), "card", "too big for the page")

    def invalid(*args):
        raise GameInvalid([finding])

    monkeypatch.setattr(sequence, "calibration_page", invalid)
    with pytest.raises(GameInvalid) as failed:
        build_forked(folder, tmp_path / "again", Options())
    assert failed.value.findings == [finding] and no_child_left()
    assert not (tmp_path / "again" / "tiny").exists()
    assert sorted(p.name for p in (tmp_path / "out" / "tiny").iterdir()) == [
        "calibration.pdf", "cards-reds.pdf", "manifest.json"]


@pytest.mark.usefixtures("font_book")
def test_measures_handed_to_the_second_process_measure_as_the_fonts_do():
    """The child measures text with metrics from the parent's fonts: widths, cap height, ascent and missing
    glyphs must be exactly those of the font, or the two ways would lay text out differently."""
    import pickle
    import random

    from generator.core import fonts

    rng = random.Random(7)
    alphabet = [chr(c) for c in [*range(32, 127), *range(0xA0, 0x250), 0x3B1, 0x416, 0x2605, 0x6771, 0x1F680]]
    for name in ("text", "display-bold", "text-bold-italic"):
        font = fonts.face(name)
        measures = pickle.loads(pickle.dumps(fonts.Measures.of(name)))
        for _ in range(300):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
            assert measures.stringWidth(text, 1.0) == font.stringWidth(text, 1.0), (name, text)
        assert (measures.face.capHeight, measures.face.ascent) == (font.face.capHeight, font.face.ascent)
        assert measures.face.charToGlyph == font.face.charToGlyph


def test_a_game_is_built_in_two_processes_when_a_second_may_run(forks, make_game, tmp_path):
    """With --jobs above 1 (and fork) whatever its size: the second process pays from a few cards up (docs/design.md,
    Speed)."""
    from generator.building import kit

    folder = make_game()
    assert kit.build_one(folder, tmp_path / "two", Options(), parallel=True).code == 0
    assert forks == [1] and no_child_left()
    assert kit.build_one(folder, tmp_path / "one", Options(), parallel=False).code == 0
    assert forks == [1]
    assert files(tmp_path / "one" / "tiny") == files(tmp_path / "two" / "tiny")


def gone(pid: int) -> bool:
    """True when the process `pid` no longer exists (it ended, and was waited for)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.fixture
def prepared():
    """A child forked as `muster build` forks it at its start (generator/__main__.py); released after the test."""
    pipeline.prepare()
    assert pipeline._prepared
    child = pipeline._prepared.pid
    assert os.getpgid(child) == child  # a group of its own: ended with whatever it forks
    yield child
    pipeline.release()
    assert gone(child) and no_child_left()


def test_a_build_takes_the_child_prepared_at_the_start(prepared, forks, make_game, tmp_path):
    from generator.building import kit

    folder = make_game()
    assert kit.build_one(folder, tmp_path / "two", Options(), parallel=True).code == 0
    assert not forks and not pipeline._prepared  # forked before: no second fork
    assert gone(prepared) and no_child_left()
    kit.build_one(folder, tmp_path / "one", Options(), parallel=False)
    assert files(tmp_path / "one" / "tiny") == files(tmp_path / "two" / "tiny")


def test_a_build_in_one_process_leaves_the_prepared_child_to_the_end(prepared, forks, make_game, tmp_path):
    from generator.building import kit

    folder = make_game()
    assert kit.build_one(folder, tmp_path / "out", Options(), parallel=False).code == 0  # --jobs 1
    assert pipeline._prepared and not forks
    outcome = next(kit.build_all([folder], tmp_path / "out", Options(), jobs=2))
    assert outcome.summary.endswith("up to date in " + str(tmp_path / "out" / "tiny"))
    assert pipeline._prepared  # released as the process ends (atexit), or by the fixture here


def test_games_built_at_once_release_the_prepared_child_before_their_workers(prepared, make_game, tmp_path):
    from generator.building import kit

    folders = [make_game(name=name) for name in ("first", "second")]
    outcomes = list(kit.build_all(folders, tmp_path / "out", Options(), jobs=2))
    assert [outcome.code for outcome in outcomes] == [0, 0]
    assert not pipeline._prepared and gone(prepared)


def test_a_prepared_child_given_no_game_ends_by_itself(prepared):
    """The parent ended without releasing it (killed): the child reads the end of its pipe and ends."""
    child, pipeline._prepared = pipeline._prepared, None
    os.close(child.down)
    os.close(child.messages)
    _, status = os.waitpid(prepared, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 1


def test_the_command_forks_its_second_process_first_and_builds_the_same_files(make_game, tmp_path):
    """`muster build GAME` as run (python -m generator): a child forked before the command line is parsed builds
    the game; up to date, the command ends at once all the same, its child released."""
    import subprocess
    import sys

    from conftest import REPO

    folder = make_game()
    command = [sys.executable, "-X", "importtime", "-m", "generator", "build", str(folder)]
    two = subprocess.run([*command, "--out", str(tmp_path / "two")], capture_output=True, text=True, cwd=REPO)
    assert two.returncode == 0, two.stderr
    imported = [line.split("|")[-1].strip() for line in two.stderr.splitlines() if line.startswith("import time:")]
    assert imported.index("generator.building.pipeline") < imported.index("typer")
    assert imported.count("generator.core.model") == 2  # by both processes (their lines both go to stderr): forked
    # before the command line and the game's model were imported
    again = subprocess.run([*command, "--out", str(tmp_path / "two")], capture_output=True, text=True, cwd=REPO,
                           timeout=60)
    assert again.returncode == 0 and "up to date" in again.stdout
    one = subprocess.run([*command, "--out", str(tmp_path / "one"), "--jobs", "1"], capture_output=True, cwd=REPO)
    assert one.returncode == 0
    assert files(tmp_path / "one" / "tiny") == files(tmp_path / "two" / "tiny")


def test_work_done_beside_comes_back_from_another_process():
    """pipeline.beside: what a second process did (the booklet, in a build's child), its result or its error."""
    from generator.core.errors import MusterError

    here = os.getpid()
    assert pipeline.beside(lambda: (os.getpid(), [1, 2]))()[1] == [1, 2]
    assert pipeline.beside(os.getpid)() != here and no_child_left()

    def refused():
        raise MusterError("cannot be typeset: too tall", code="rulebook-layout")

    with pytest.raises(MusterError) as failed:
        pipeline.beside(refused)()
    assert failed.value.code == "rulebook-layout" and no_child_left()
    with pytest.raises(MusterError) as failed:
        pipeline.beside(lambda: 1 / 0)()
    assert "ZeroDivisionError" in failed.value.message and no_child_left()


@pytest.mark.usefixtures("font_book")
def test_a_booklet_typeset_beside_its_rules_is_the_same_file():
    """Europe's rules on A4 in this process, its booklet on A5 in another meanwhile: the files one process makes."""
    from generator.building.sequence import checked_rulebook, rulebook_files

    root = next(root for root in bundled_games() if root.name == "europe-1939")
    game = load_game(root)
    rules, _, figures = checked_rulebook(game)
    beside = []

    def counted(work):
        beside.append(work)
        return pipeline.beside(work)

    two = rulebook_files(game, rules.markdown, Options(booklet=True), figures, counted)
    one = rulebook_files(game, rules.markdown, Options(booklet=True), figures)
    assert len(beside) == 1 and [t.built.file for t in two] == ["rules.pdf", "rules-booklet.pdf"]
    assert two == one and no_child_left()
