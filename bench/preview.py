"""How long `muster preview` takes from saving a one-card edit to serving that card's new image.

    python bench/run.py --preview [--sizes 54,540,5400] [--edits 20] [--edit value|insert|delete|csv|xlsx]

For each synthetic game (bench/synthetic.py): `muster preview GAME --no-open` runs as a process; each edit changes
cards.yaml and times from the write until the server answers the state with the card's new front (what changed since
the state before, made whole as the page makes it) and then the PNG itself, as the page would fetch them. An edit
(`--edit value`) changes one card's value, the cards edited spread over the deck, the first near its top. `--edit
insert` adds a card (a line of its own) before one of the first ten cards, `--edit delete` takes one of them away,
each put back untimed after it (every card below moves a line; the card at that place is shown anew). `--edit csv`
changes one card's value as `value` does, in the same game with its cards in cards.csv. `--edit xlsx` the same in
cards.xlsx, a workbook as a spreadsheet program saves it (openpyxl, untimed). The median of the edits, the
server's own median refresh time (what it prints), and the peak memory of the preview's process, per size.
"""

from __future__ import annotations

import csv
import io
import json
import re
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
REFRESH = re.compile(r"version (\d+): .*, (\d+) ms")


def measure(work: Path, sizes: list[int], edits: int, kind: str = "value") -> None:
    print(f"{'cards':>6} {'start s':>8} {'edit ms (median)':>17} {'min':>6} {'max':>6} {'server ms':>10} "
          f"{'peak MiB':>9}")
    for size in sizes:
        game = work / f"preview-{size}"
        subprocess.run([sys.executable, str(HERE / "synthetic.py"), "game", str(game), str(size)], check=True)
        deck = game / "cards.yaml"
        if kind in ("csv", "xlsx"):
            deck = _as_sheet(game, size, kind)
        began = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-m", "generator", "preview", str(game), "--no-open"],
                                   cwd=HERE.parent, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            first = process.stdout.readline()
            if " at " not in first:
                raise SystemExit(f"muster preview did not start: {first}{process.stdout.read()}")
            url = first.split(" at ")[1].split()[0]
            refreshes: list[int] = []
            threading.Thread(target=_follow, args=(process, refreshes), daemon=True).start()
            state = _state(url, None)
            while state["version"] == 0:  # a big game's first refresh outlasts the server's wait
                state = _state(url, None)
            started = time.perf_counter() - began
            times, timed = [], []
            for edit in range(edits):
                if kind in ("insert", "delete"):  # a card added or taken away, then put back as it was, untimed
                    text, index = deck.read_text(), 2 + edit % 10
                    state, seconds = _insert(deck, url, state, index, kind == "delete")
                    time.sleep(0.2)
                    timed.append(len(refreshes))  # the server's time of the edit: the last it printed
                    state = _put_back(deck, text, url, state, kind == "delete")
                else:
                    state, seconds = _edit(deck, url, state, (edit * 37 + 11) % size, 10 + edit)
                    time.sleep(0.2)
                    timed.append(len(refreshes))
                times.append(seconds * 1000)
            server = statistics.median(refreshes[n - 1] for n in timed) if refreshes else float("nan")
            print(f"{size:>6} {started:>8.1f} {statistics.median(times):>17.0f} {min(times):>6.0f} "
                  f"{max(times):>6.0f} {server:>10.0f} {_peak(process.pid):>9}")
        finally:
            process.terminate()
            process.wait(10)


def _as_sheet(game: Path, size: int, suffix: str) -> Path:
    """The game's cards moved to cards.csv or cards.xlsx, a row each (Title, Value, Colour, Text): the deck file it
    reads."""
    from synthetic import cards  # bench/ is on the path

    rows = [["Title", "Value", "Colour", "Text"]]
    rows += [[card["title"], card["value"], card["colour"], card["text"]] for card in cards(size)]
    sheet = game / f"cards.{suffix}"
    if suffix == "xlsx":
        sheet.write_bytes(_workbook(rows))
    else:
        text = io.StringIO()
        csv.writer(text, lineterminator="\n").writerows(rows)
        sheet.write_text(text.getvalue())
    (game / "cards.yaml").unlink()
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace("file: cards.yaml", f"file: {sheet.name}"))
    return sheet


def _workbook(rows: list[list]) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    for row in rows:
        book.active.append(row)
    saved = io.BytesIO()
    book.save(saved)
    return saved.getvalue()


def _edit(cards: Path, url: str, state: dict, index: int, value: int) -> tuple[dict, float]:
    """Sets card `index`'s value (in its line of cards.yaml, or its row of cards.csv or cards.xlsx) and waits for its
    new image: the state after, and the seconds it took."""
    if cards.suffix == ".xlsx":
        from openpyxl import load_workbook

        rows = [list(row) for row in load_workbook(cards).active.iter_rows(values_only=True)]
        rows[index + 1][1] = value
        edited = _workbook(rows)
    else:
        lines = cards.read_text().splitlines(keepends=True)
        if cards.suffix == ".csv":
            row = next(csv.reader([lines[index + 1]]))
            row[1] = str(value)
            lines[index + 1] = ",".join(f'"{cell}"' if "," in cell else cell for cell in row) + "\n"
        else:
            lines[index + 1] = re.sub(r"value: \d+", f"value: {value}", lines[index + 1])
        edited = "".join(lines).encode()
    old = state["decks"][0]["cards"][index]["front"]
    began = time.perf_counter()
    cards.write_bytes(edited)
    while True:
        state = _state(url, state)
        new = state["decks"][0]["cards"][index]["front"]
        if new != old:
            with urllib.request.urlopen(f"{url}face/{new}.png", timeout=30) as response:
                response.read()
            return state, time.perf_counter() - began


def _insert(cards: Path, url: str, state: dict, index: int, away: bool) -> tuple[dict, float]:
    """Adds a card before card `index` (or, `away`, takes the card added there away again) and waits for the card at
    `index` to be shown with its image: the state after, and the seconds it took."""
    lines = cards.read_text().splitlines(keepends=True)
    size = len(state["decks"][0]["cards"])
    if away:
        del lines[index + 1]
    else:
        lines.insert(index + 1, '  - {title: "Added card", value: 5, colour: "#dfe6ea", text: "A card added."}\n')
    wanted = size - 1 if away else size + 1
    began = time.perf_counter()
    cards.write_text("".join(lines))
    while True:
        state = _state(url, state)
        shown = state["decks"][0]["cards"]
        if len(shown) == wanted and (shown[index]["title"] == "Added card") != away:
            with urllib.request.urlopen(f"{url}face/{shown[index]['front']}.png", timeout=30) as response:
                response.read()
            return state, time.perf_counter() - began


def _put_back(cards: Path, text: str, url: str, state: dict, added: bool) -> dict:
    """Writes `text` back to the deck file after a card was taken away from it (or `added` to it) and waits for the
    deck to be as it was: the state after."""
    size = len(state["decks"][0]["cards"])
    cards.write_text(text)
    wanted = size + 1 if added else size - 1
    while True:
        state = _state(url, state)
        if len(state["decks"][0]["cards"]) == wanted:
            return state


def _state(url: str, shown: dict | None) -> dict:
    """The state after the one `shown`, as the page makes it of what the server sends: the whole state, or what
    changed since the one shown."""
    with urllib.request.urlopen(f"{url}state.json?after={shown['version'] if shown else 0}", timeout=120) as response:
        return merged(shown, json.loads(response.read()))


def merged(shown: dict | None, sent: dict) -> dict:
    """The state the page makes of the one it `shown` and what the server `sent` (page.js, merged), in Python: the
    whole state, or what changed since the one shown. Also what the preview's tests follow saves with."""
    if "after" not in sent:
        return sent
    decks = []
    for deck in sent["decks"]:
        if "cards" not in deck:
            cards = list(next(old for old in shown["decks"] if old["id"] == deck["id"])["cards"])
            for at, taken, put in deck.pop("splices"):
                cards[at:at + taken] = put
            for start, stop, lines in deck.pop("lines"):
                for index in range(start, stop):
                    cards[index] = {**cards[index], "line": cards[index]["line"] + lines}
            deck["cards"] = cards
        decks.append(deck)
    return {**sent, "decks": decks, "outlines": {**shown["outlines"], **sent["outlines"]}}


def places(card: dict) -> dict[str, str]:
    """The places the page shows for a card (page.js, cardPlace and valuePlace): file:line:column of the card under
    "", and of each of its values under its name."""
    line, column, file = card["line"], card["column"], card["file"]
    shown = {"": f"{file}:{line}:{column}" if line else file}
    for value in card["data"]:
        at = value["at"]
        shown[value["name"]] = f"{file}:{line + at[0]}:{at[1]}" if line and at else file
    return shown


def _peak(pid: int) -> str:
    """The peak resident memory of the preview's process so far (MiB; Linux's VmHWM), or '-' where not known."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return "-"
    match = re.search(r"VmHWM:\s+(\d+) kB", status)
    return f"{int(match[1]) / 1024:.0f}" if match else "-"


def _follow(process: subprocess.Popen, refreshes: list[int]) -> None:
    """The refresh times the server prints, as they come."""
    for line in process.stdout:
        match = REFRESH.search(line)
        if match and int(match[1]) > 1:
            refreshes.append(int(match[2]))
