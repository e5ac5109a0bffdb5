"""How the `muster` process ends (cli.run): at once after the command, its modules not torn down, yet with its exit
status, its output flushed into a pipe and the atexit functions run; the usual way while a thread still runs. A
build that ends the process runs no cycle collection over what it made."""

from __future__ import annotations

import subprocess
import sys

from conftest import REPO

ENDING = """
import atexit, os, sys, threading, types
from generator.cli import run

class TornDown:
    def __del__(self, write=os.write):  # its own reference to os.write: the modules may be gone by then
        write(1, b"torn down\\n")

# freed only as the interpreter tears the modules down, ending the usual way (a module in no cycle: freed even
# with everything frozen, as cli.main leaves it)
sys.modules["witness"] = types.ModuleType("witness")
sys.modules["witness"].kept = TornDown()
atexit.register(print, "atexit ran")
if sys.argv[1] == "thread":
    threading.Thread(target=threading.main_thread().join).start()  # alive until the main thread has ended
sys.argv = ["muster", *sys.argv[2:]]
run()
"""


def ended(game, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", ENDING, *args], capture_output=True, text=True, cwd=REPO)


def test_a_command_ends_at_once_with_its_status_its_output_and_the_atexit_functions(make_game):
    game = make_game()
    listed = ended(game, "-", "list", str(game))
    assert listed.returncode == 0
    assert "reds" in listed.stdout  # written to a pipe, so buffered until flushed
    assert listed.stdout.splitlines()[-1] == "atexit ran"
    assert "torn down" not in listed.stdout
    refused = ended(game, "-", "build", str(game), "--paper", "papyrus")
    assert refused.returncode == 2
    assert "atexit ran" in refused.stdout and "torn down" not in refused.stdout


def test_with_a_thread_still_running_the_process_ends_the_usual_way(make_game):
    game = make_game()
    listed = ended(game, "thread", "list", str(game))
    assert listed.returncode == 0
    assert "reds" in listed.stdout and "atexit ran" in listed.stdout and "torn down" in listed.stdout


COLLECTIONS = """
import atexit, gc, sys
from contextlib import contextmanager
from generator.building import kit
from generator.cli import run

collections = []
building = []
gc.callbacks.append(lambda phase, info: building and phase == "start" and collections.append(info["generation"]))
without = kit.without_cycle_collection

@contextmanager
def watched(*args):
    building.append(True)
    with without(*args):
        yield

kit.without_cycle_collection = watched
atexit.register(lambda: print("collections", len(collections), "during or after", len(building), "build(s)"))
sys.argv = ["muster", "build", *sys.argv[1:], "--quiet"]
run()
"""


def test_a_build_that_ends_the_process_leaves_its_objects_to_the_system_not_to_the_cycle_collector(make_game,
                                                                                                   tmp_path):
    game = make_game()
    built = subprocess.run([sys.executable, "-c", COLLECTIONS, str(game), "--out", str(tmp_path / "out")],
                           capture_output=True, text=True, cwd=REPO)
    assert built.returncode == 0, built.stderr
    assert (tmp_path / "out" / "tiny" / "cards-reds.pdf").is_file()
    assert built.stdout.splitlines()[-1] == "collections 0 during or after 1 build(s)"
