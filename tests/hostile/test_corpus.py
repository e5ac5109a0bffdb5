"""Hostile input: the one corpus (issue 18's rounds, and the first round's files) the fixes are made against.

Each case drives `muster` in a subprocess with a time limit and a memory cap (hostile_run.py), and asserts
what the issue asks: exit 1 or 2 with an error line naming the file (`file:line: error:` or `file: error:`), the
limit named when a limit was hit, no "internal error", traceback, MemoryError or RecursionError, nothing written
outside OUT/<game>/, files left intact. A case that fails today is marked xfail(strict=True) with its class; a fix
that makes it pass must remove the mark. Cases marked "hang" get HANG seconds: the fixed Muster must refuse them
at once, not at a 60 s alarm.

The cases are in hostile_cases.py: the simple ones as files in tests/hostile/cases/, each holding its input and what
it must cause (an exact exit status, the words and code of the error, where the first round had them). The `corpus`
fixture runs the selected ones two at a time while their tests wait for them in turn. The concurrency, two-process,
watch and Hypothesis tests come after it, and never run more than two commands at once either.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from hostile_cases import CASES, build_args
from hostile_run import (FIFO, HANG, LOCATED, TIMEOUT, clean, game_from_spec, located, mentions, muster, no_crash, refused,
                         start, visible_files, write_game)


# --- running the corpus two at a time ------------------------------------------------------------------------------

def run_case(name: str, work: Path):
    """Prepares a case in `work` and runs its commands: (the last command's Result, its check)."""
    case = CASES[name]
    work.mkdir()
    steps, check = case.prepare(work)
    steps = steps if isinstance(steps[0], list) else [steps]
    for step in steps[:-1]:
        done = muster(*step, cwd=work)
        assert done.code == 0, f"{step}: {done}"
    return muster(*steps[-1], cwd=work, timeout=case.timeout, without_root=case.without_root,
                  file_size=case.file_size), check


class Corpus:
    """The selected cases, each prepared and run by one of two workers; results are waited for case by case."""

    def __init__(self, names: list[str], root: Path):
        self.pool = ThreadPoolExecutor(max_workers=2)
        self.futures = {name: self.pool.submit(run_case, name, root / name) for name in names}

    def check(self, name: str) -> None:
        result, check = self.futures[name].result()
        check(result)

    def finish(self) -> None:
        self.pool.shutdown(wait=True)


@pytest.fixture(scope="module")
def corpus(request, tmp_path_factory):
    # every selected case of this module: with pytest-xdist, `--dist loadfile` (the README's) runs them all here
    selected = [item.callspec.params["case"] for item in request.session.items
                if getattr(item, "callspec", None) and "case" in item.callspec.params
                and item.module is request.module]
    runner = Corpus(selected, tmp_path_factory.mktemp("hostile"))
    yield runner
    runner.finish()


def _params():
    for name in sorted(CASES):
        fails = CASES[name].fails
        yield pytest.param(name, id=name, marks=[pytest.mark.xfail(strict=True, reason=fails)] if fails else [])


@pytest.mark.parametrize("case", list(_params()))
def test_hostile_input(corpus, case):
    corpus.check(case)


@pytest.fixture
def machine_to_ourselves(corpus):
    """The corpus has finished: the tests below start their own commands, never more than two at a time."""
    corpus.finish()


# --- two builds of one game into one folder -----------------------------------------------------------------------

def slow_game(folder: Path) -> Path:
    """A game whose board takes a second or two to draw, with a rulebook that is staged before it."""
    board = ("boards:\n  map:\n    name: Map\n    file: map\n    layout: map.yaml\n    size: 800mm x 800mm\n")
    grid = "elements:\n  - {kind: grid, x: 5, y: 5, columns: 40, rows: 40, cell: 19, shape: hex, labels: true}\n"
    return write_game(folder, {"map.yaml": grid}, rulebook="Text.\n", game={"rules:": board + "rules:"})


def assert_kit_whole(kit: Path) -> None:
    """The manifest is there and lists exactly the visible files, each with its sha256; every PDF reads."""
    from pypdf import PdfReader

    assert (kit / "manifest.json").is_file(), sorted(p.name for p in kit.iterdir())
    listed = json.loads((kit / "manifest.json").read_text())["files"]
    assert {entry["file"] for entry in listed} == visible_files(kit) - {"manifest.json"}
    for entry in listed:
        assert hashlib.sha256((kit / entry["file"]).read_bytes()).hexdigest() == entry["sha256"], entry["file"]
    for pdf in kit.glob("*.pdf"):
        assert len(PdfReader(pdf).pages) > 0, pdf.name
    assert not [p for p in kit.iterdir() if p.name.endswith(".tmp")]


def second_build_said(code: int, output: str, kit: Path, cwd: Path) -> None:
    """A second build either waited and built, or said clearly, naming the folder, that another one is running."""
    no_crash(output)
    assert code == 0 or (code in (1, 2) and mentions(output, kit, cwd)), output


def test_two_builds_of_one_game_into_one_folder(machine_to_ourselves, tmp_path):
    """First a fixed interleaving: build A is stopped while its board is being drawn (its rulebook already staged)
    and build B runs meanwhile; then MUSTER_RACE_PAIRS pairs started at once (the issue's test is 20 pairs)."""
    game, out = slow_game(tmp_path / "tiny"), tmp_path / "out"
    kit = out / "tiny"
    args = ["build", game, "--out", out, "--jobs", "1", "--force"]
    first, second = start(*args, cwd=tmp_path, log=tmp_path / "a.log"), None
    try:
        deadline = time.monotonic() + TIMEOUT
        while first.poll() is None and time.monotonic() < deadline:
            if [p for p in out.rglob("*map*") if p != kit / "map.pdf"]:  # A is drawing its board
                break
            time.sleep(0.005)
        first.send_signal(signal.SIGSTOP)
        second = start(*args, cwd=tmp_path, log=tmp_path / "b.log")
        try:
            second.wait(4)
        except subprocess.TimeoutExpired:
            pass  # waiting for A, as it may
        first.send_signal(signal.SIGCONT)
        assert first.wait(TIMEOUT) == 0, (tmp_path / "a.log").read_text()
        second_build_said(second.wait(TIMEOUT), (tmp_path / "b.log").read_text(), kit, tmp_path)
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.send_signal(signal.SIGCONT)
                process.kill()
    assert_kit_whole(kit)
    for pair in range(int(os.environ.get("MUSTER_RACE_PAIRS", "3"))):
        small = write_game(tmp_path / f"pair{pair}" / "tiny")
        both = [start("build", small, "--out", out, "--jobs", "1", "--force", cwd=tmp_path,
                      log=tmp_path / f"pair{pair}-{n}.log") for n in (0, 1)]
        codes = [process.wait(TIMEOUT) for process in both]
        assert 0 in codes, codes
        for n, code in enumerate(codes):
            second_build_said(code, (tmp_path / f"pair{pair}-{n}.log").read_text(), out / "tiny", tmp_path)
        assert_kit_whole(out / "tiny")


# --- a big game built in two processes reports as one process does -----------------------------------------------

BIG = 520  # cards: about 56 kB of YAML, over the 50 kB from which --jobs 2 builds one game in two processes


def big_game(folder: Path, extra_card: str = "", files: dict | None = None, rulebook: str = "") -> Path:
    cards = "cards:\n" + "".join(f"  - {{title: Card {i:04d}, type: U, force: {i % 10}, fronts: E, text: \"Some "
                                 f"words of rules text for card number {i}.\"}}\n" for i in range(BIG)) + extra_card
    listing = "{% for card in decks.reds.cards %}- {{ card.title }}\n{% endfor %}\n"
    return write_game(folder, {"reds.yaml": cards, **(files or {})}, listing + rulebook,
                      game={"size: 3": f"size: {BIG + bool(extra_card)}"})


PARITY = {
    "validation-error": (dict(extra_card="  - {title: Strong, type: U, force: 99}\n"), "reds.yaml", None),
    "nested-900-deep": (dict(extra_card="  - {title: Deep, type: U, force: 1, note: " + "[" * 900 + "]" * 900 + "}\n"),
                        "reds.yaml", None),
    "5000-digit-number": (dict(extra_card="  - {title: Big, type: U, force: " + "9" * 5000 + "}\n"), "reds.yaml",
                          None),
    "include-in-the-rulebook": (dict(rulebook="{% include 'rules.md' %}\n"), "rules.md", None),
    "template-budget-in-a-layout": (dict(files={"face.yaml": "elements:\n  - {kind: text, x: 4, y: 4, w: 55, h: 10, "
                                                             "text: \"{{ 'x' | center(10 ** 10) }}\"}\n"}),
                                    "face.yaml", None),
}


@pytest.mark.parametrize("name", [pytest.param(name, id=name, marks=[pytest.mark.xfail(strict=True, reason=fails)]
                                               if fails else []) for name, (_, _, fails) in PARITY.items()])
def test_two_process_build_reports_as_one_process(machine_to_ourselves, tmp_path, name):
    spec, file_name, _ = PARITY[name]
    game = big_game(tmp_path / "big", **spec)
    one = muster(*build_args(game, tmp_path, "--force"), cwd=tmp_path)
    two = muster("build", game, "--out", tmp_path / "out", "--jobs", "2", "--force", cwd=tmp_path)
    refused(one, file_name)
    refused(two, file_name)
    assert (two.code, two.output) == (one.code, one.output)


# --- muster watch reports and keeps watching ---------------------------------------------------------------------

def watch_log(process, log: Path, done: Callable[[str], bool], seconds: float) -> str:
    """The watcher's output once `done(output)` holds, it exits, or `seconds` pass."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None and not done(log.read_text(errors="replace")):
        time.sleep(0.1)
    return log.read_text(errors="replace")


def watching(tmp_path: Path, game: Path, out: Path):
    return start("watch", game, "--out", out, "--interval", "0.2", cwd=tmp_path, log=tmp_path / "watch.log")


def stop(process) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_watch_reports_an_unreadable_deck_and_keeps_watching(machine_to_ourselves, tmp_path):
    from conftest import REDS_YAML

    game = write_game(tmp_path / "tiny", {"reds.yaml": "cards:\n  - {title: Alpha, type: L, force: " + "9" * 5000 + "}\n"})
    process = watching(tmp_path, game, tmp_path / "out")
    try:
        output = watch_log(process, tmp_path / "watch.log", lambda text: bool(located(text, "reds.yaml")), TIMEOUT)
        assert process.poll() is None, output
        assert located(output, "reds.yaml"), output
        (game / "reds.yaml").write_text(REDS_YAML)
        output = watch_log(process, tmp_path / "watch.log", lambda text: "cards-reds.pdf" in text, TIMEOUT)
        assert process.poll() is None and "cards-reds.pdf" in output, output
        no_crash(output)
    finally:
        stop(process)


def test_watch_reports_a_pipe_and_keeps_watching(machine_to_ourselves, tmp_path):
    game = write_game(tmp_path / "tiny", {"reds.yaml": FIFO})
    process = watching(tmp_path, game, tmp_path / "out")
    try:
        output = watch_log(process, tmp_path / "watch.log", lambda text: bool(located(text, "reds.yaml")), HANG)
        assert process.poll() is None and located(output, "reds.yaml"), output
        no_crash(output)
    finally:
        process.kill()
        process.wait()


def test_watch_reports_an_output_folder_it_cannot_use_and_keeps_watching(machine_to_ourselves, tmp_path):
    (tmp_path / "out").write_text("mine\n")
    game = write_game(tmp_path / "tiny")
    process = watching(tmp_path, game, tmp_path / "out")
    try:
        output = watch_log(process, tmp_path / "watch.log", lambda text: "error" in text, TIMEOUT)
        assert process.poll() is None, output
        assert [line for line in output.splitlines() if "error" in line and mentions(line, tmp_path / "out", tmp_path)], output
        no_crash(output)
    finally:
        stop(process)


# --- templates mutated with the operations above, wherever templates run -----------------------------------------

GROWTH = ["(['ab' * 1000] * N) | join", "('x' * 1000) | replace('x', 'y' * N)", "'x' | center(N)",
          "'{:>N}'.format(1)", "'%0Nd' | format(1)", "'%0Nd' % 1", "'a\\nb' | indent(N)", "[1] | batch(N, 0) | list",
          "lipsum(N)", "range(N) | list", "'x' * N", "9 ** N", "'x' | wordwrap(N)"]
STATEMENTS = ["{{ EXPR }}", "{{ (EXPR) | string | length }}",
              "{% set ns = namespace(s='ab') %}{% for i in range(K) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s | length }}",
              "{% set ns = namespace(s=[1]) %}{% for i in range(K) %}{% set ns.s = ns.s + ns.s %}{% endfor %}{{ ns.s | length }}",
              "{% for a in range(K) %}{% for b in range(K) %}{% for c in range(K) %}.{% endfor %}{% endfor %}{% endfor %}",
              "{% macro f(n) %}{% if n < K %}{{ f(n + 1) }}{{ f(n + 1) }}{% endif %}{% endmacro %}{{ f(0) }}",
              "{% include 'x' %}", "{% import 'x' as y %}", "{% extends 'x' %}"]


@st.composite
def templates(draw):
    statement = draw(st.sampled_from(STATEMENTS))
    expression = draw(st.sampled_from(GROWTH)).replace("N", str(draw(st.sampled_from([1, 10, 1000, 10 ** 5, 10 ** 10]))))
    return statement.replace("EXPR", expression).replace("K", str(draw(st.sampled_from([1, 10, 40, 1000]))))


@settings(max_examples=int(os.environ.get("MUSTER_HOSTILE_EXAMPLES", "30")), deadline=None, derandomize=True,
          database=None, phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
@given(place=st.sampled_from(["layout", "rulebook", "game.yaml"]), template=templates())
def test_mutated_templates_are_bounded(machine_to_ourselves, place, template):
    """Any outcome but a crash or a hang: a build finishes in HANG seconds, and an error names its file."""
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        spec = {"layout": {"layout_text": template}, "rulebook": {"rulebook": template + "\n"},
                "game.yaml": {"rule_number": template}}[place]
        game = game_from_spec(spec, work / "tiny")
        result = muster(*build_args(game, work), cwd=work, timeout=HANG)
        clean(result)
        if result.code:
            named = {"layout": ["face.yaml", "reds.yaml"], "rulebook": ["rules.md"], "game.yaml": ["game.yaml"]}[place]
            assert located(result.output, named), result


@pytest.fixture
def tiny_disk(tmp_path):
    """A file system of 8 KiB (a tmpfs, mounted for the test): writes past it fail with ENOSPC."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8k", "tmpfs", str(disk)], capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here (mounting needs root)")
    yield disk
    subprocess.run(["umount", str(disk)], check=True)


@pytest.mark.parametrize("command", [["build", "--jobs", "1"], ["export", "tts", "--dpi", "150"],
                                     ["export", "png", "--dpi", "300"]], ids=["build", "export-tts", "export-png"])
def test_a_full_disk_is_one_located_line_and_leaves_nothing(machine_to_ourselves, tmp_path, tiny_disk, command):
    """A real ENOSPC, where the file-size limit of the corpus's full-disk class gives EFBIG."""
    game = write_game(tmp_path / "tiny")
    result = muster(*command[:-2 if command[0] == "export" else -2], game, "--out", tiny_disk, *command[-2:],
                    cwd=tmp_path)
    clean(result)
    assert result.code == 2, result
    assert [line for line in result.output.splitlines() if (m := LOCATED.match(line)) and m["severity"] == "error"
            and mentions(m["path"], tiny_disk, tmp_path) and "disk" in line], result
    assert not [p for p in tiny_disk.rglob("*") if p.is_file()], result
