"""Hostile input, second round (issue 18): running Muster on a hostile game safely, and judging what it said.

Every command runs in a subprocess of its own with a time limit and a 1 GiB address-space cap, so that a case
that would eat the machine today fails instead (a timeout or a MemoryError is a failed case). Only the command
line is used: these tests must hold whatever the stages inside look like.
"""

from __future__ import annotations

import json
import os
import re
import signal
import struct
import subprocess
import sys
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MEMORY_CAP = 1 << 30   # bytes of address space a hostile command may take: Muster builds these games in less
TIMEOUT = 20.0         # seconds for a command that should finish promptly
HANG = 4.0             # seconds for a command that hangs today: the fixed Muster refuses it at once
BAD = ("internal error", "Traceback", "MemoryError", "RecursionError")
LOCATED = re.compile(r"^(?:\[\d\d:\d\d:\d\d\] )?(?P<path>[^\s:][^:]*?)(?::\d+(?::(?:\d+|[A-Z]+))?)?: (?P<severity>error|warning): ")

RULEBOOK_LINE = "rulebook: {file: rules.md}\n"
RULES_BASE = "# Rules\n\n- Alpha\n- Bravo\n\n"  # the card reference every rulebook needs


@dataclass
class Result:
    code: int | None  # None: killed at its time limit
    output: str       # standard output and standard error together
    seconds: float

    def __str__(self) -> str:
        shown = self.output if len(self.output) < 3000 else self.output[:1500] + "\n[...]\n" + self.output[-1500:]
        return f"exit {self.code} after {self.seconds:.1f} s:\n{shown}"


# Sets the limits in the child itself, then becomes Muster: a preexec_fn is not safe beside the corpus's threads.
# Dropping CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from the bounding set (which exec keeps) makes a read-only
# folder read-only even when the tests run as root.
LAUNCHER = """
import ctypes, os, resource, signal, sys
limit, without_root, file_size = int(sys.argv[1]), sys.argv[2] == "1", int(sys.argv[3])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
if file_size:  # a file may grow to this many bytes: past it a write fails with EFBIG, as on a full disk
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))
if without_root and os.geteuid() == 0:
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):
        if libc.prctl(24, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")
os.execv(sys.executable, [sys.executable, "-m", "generator", *sys.argv[4:]])
"""


def environment() -> dict:
    """The tests' own checkout first, whatever is installed."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    env["COLUMNS"] = "200"
    env["PYTHONUNBUFFERED"] = "1"  # a watcher's lines reach its log as they are printed
    return env


def command(*args, without_root: bool = False, file_size: int = 0) -> list[str]:
    return [sys.executable, "-c", LAUNCHER, str(MEMORY_CAP), "1" if without_root else "0", str(file_size),
            *map(str, args)]


def muster(*args, cwd: Path, timeout: float = TIMEOUT, without_root: bool = False, file_size: int = 0) -> Result:
    """Runs `muster ARGS` to the end, or kills it (and any process it started) at `timeout` seconds; with
    `file_size`, no file it writes may grow past that many bytes."""
    started = time.monotonic()
    process = subprocess.Popen(command(*args, without_root=without_root, file_size=file_size), cwd=cwd,
                               env=environment(),
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               start_new_session=True)
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        text = output.decode(errors="replace") + f"\n[killed after {timeout:g} s]"
        return Result(None, text, time.monotonic() - started)
    return Result(process.returncode, output.decode(errors="replace"), time.monotonic() - started)


def start(*args, cwd: Path, log: Path) -> subprocess.Popen:
    """Starts `muster ARGS` in the background, its output going to `log`."""
    with open(log, "wb") as sink:
        return subprocess.Popen(command(*args), cwd=cwd, env=environment(), stdin=subprocess.DEVNULL, stdout=sink,
                                stderr=subprocess.STDOUT)


# --- judging what a command said -----------------------------------------------------------------------------

def no_crash(output: str) -> None:
    for marker in BAD:
        assert marker not in output, f"{marker!r} in the output:\n{output}"


def clean(result: Result) -> None:
    """Finished in time, with an exit status Muster uses, and no crash in the output."""
    assert result.code is not None, f"did not finish: {result}"
    assert result.code in (0, 1, 2), str(result)
    no_crash(str(result))


def succeeded(result: Result) -> None:
    clean(result)
    assert result.code == 0, result


def located(output: str, names, severity: str = "error") -> list[str]:
    """Lines `file[:line[:column]]: error: ...` whose file is one of `names` (file names, or path endings)."""
    names = (names,) if isinstance(names, str) else tuple(names)
    found = []
    for line in output.splitlines():
        match = LOCATED.match(line)
        if match and match["severity"] == severity and any(match["path"] == n or match["path"].endswith("/" + n)
                                                          for n in names):
            found.append(line)
    return found


def refused(result: Result, names, limit: bool = False) -> list[str]:
    """Exit 1 or 2, no crash, and an error line naming one of `names`; with `limit`, that line names a limit."""
    clean(result)
    assert result.code in (1, 2), f"not refused: {result}"
    lines = located(result.output, names)
    assert lines, f"no error line naming {names}: {result}"
    if limit:
        assert any("limit" in line.lower() for line in lines), f"no error line names the limit: {result}"
    return lines


def built_or_refused(result: Result, names) -> None:
    """Either it worked, or it said why in a located line: never a crash."""
    clean(result)
    if result.code != 0:
        refused(result, names)


def output_refused(work: Path, result, named: Path) -> None:
    """Exit 1 or 2 and one clear error line that names the output folder (or file) in question."""
    clean(result)
    assert result.code in (1, 2), result
    assert [line for line in result.output.splitlines() if "error" in line and mentions(line, named, work)], result


# --- small games on disk ---------------------------------------------------------------------------------------

FIFO = object()  # a file spec: a named pipe in place of the file


def write_game(folder: Path, files: dict | None = None, rulebook: str | None = None,
               game: dict | None = None) -> Path:
    """The tests' tiny game (conftest) in `folder`. `files` override or add files (text, bytes or FIFO);
    `game` replaces text in game.yaml; `rulebook` adds a rulebook: rules.md is the card reference, then this."""
    from conftest import BACK_YAML, FACE_YAML, GAME_YAML, REDS_YAML, patched

    contents = {"game.yaml": GAME_YAML, "reds.yaml": REDS_YAML, "face.yaml": FACE_YAML, "back.yaml": BACK_YAML}
    if rulebook is not None:
        contents["rules.md"] = RULES_BASE + rulebook
    contents.update(files or {})
    if isinstance(contents["game.yaml"], str):
        contents["game.yaml"] = patched(contents["game.yaml"], game or {})
        if rulebook is not None and RULEBOOK_LINE not in contents["game.yaml"]:
            contents["game.yaml"] = patched(contents["game.yaml"], {"icons:\n": RULEBOOK_LINE + "icons:\n"}, count=1)
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in contents.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() or path.is_symlink():
            path.unlink()
        if content is FIFO:
            os.mkfifo(path)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return folder


def contents(spec) -> str:
    """A spec's text: a string, {repeat, times} (round 1's {prefix, repeat, times} too), or a list of those."""
    if isinstance(spec, list):
        return "".join(contents(part) for part in spec)
    if isinstance(spec, dict):
        return spec.get("prefix", "") + spec["repeat"] * spec["times"] + spec.get("suffix", "")
    return spec


def game_from_spec(spec: dict, folder: Path) -> Path:
    """The tiny game with the spec's `files`, `game` (replacements in game.yaml), `layout_text` (the face's only
    element: a text of this template), `rule_number` (a rule whose count must be at least this template) and
    `rulebook` (rules.md after the card reference)."""
    files = {name: contents(text) for name, text in (spec.get("files") or {}).items()}
    game = {old: contents(new) for old, new in (spec.get("game") or {}).items()}
    if "layout_text" in spec:
        files["face.yaml"] = ("elements:\n  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: "
                              + json.dumps(spec["layout_text"]) + "}\n")
    if "rule_number" in spec:
        game["    require: [type, force]\n"] = ("    require: [type, force]\n  - count: {min: "
                                                + json.dumps(spec["rule_number"]) + "}\n")
    rulebook = contents(spec["rulebook"]) if "rulebook" in spec else None
    return write_game(folder, files, rulebook, game)


def secret_image(work: Path) -> Path:
    """An image outside the game folder, 37 x 23 pixels so that it is recognisable in a PDF."""
    secret = work / "secret.png"
    secret.write_bytes(small_png(37, 23))
    return secret


def write_text(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def make_fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def blank_png(width: int, height: int) -> bytes:
    """A valid one-bit PNG of `width` x `height` blank pixels: a few kilobytes whatever its size in pixels."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    packer = zlib.compressobj(9)
    row = b"\x00" * (1 + (width + 7) // 8)
    body = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


def small_png(width: int, height: int, colour: str = "red") -> bytes:
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(buffer, "PNG")
    return buffer.getvalue()


# --- spreadsheets written as their XML, so that what they declare can be anything --------------------------------

_MAIN = b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
_PACKAGE = b"http://schemas.openxmlformats.org/package/2006/"
_OFFICE = b"http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_TYPE = b"application/vnd.openxmlformats-officedocument.spreadsheetml."
_PARTS = {
    "[Content_Types].xml": b'<?xml version="1.0" encoding="UTF-8"?><Types xmlns="' + _PACKAGE + b'content-types">'
    b'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    b'<Default Extension="xml" ContentType="application/xml"/>'
    b'<Override PartName="/xl/workbook.xml" ContentType="' + _TYPE + b'sheet.main+xml"/>'
    b'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="' + _TYPE + b'worksheet+xml"/>'
    b'<Override PartName="/xl/sharedStrings.xml" ContentType="' + _TYPE + b'sharedStrings+xml"/></Types>',
    "_rels/.rels": b'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="' + _PACKAGE + b'relationships">'
    b'<Relationship Id="rId1" Type="' + _OFFICE + b'/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    "xl/workbook.xml": b'<?xml version="1.0" encoding="UTF-8"?><workbook ' + _MAIN + b' xmlns:r="' + _OFFICE + b'">'
    b'<sheets><sheet name="cards" sheetId="1" r:id="rId1"/></sheets></workbook>',
    "xl/_rels/workbook.xml.rels": b'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="' + _PACKAGE
    + b'relationships"><Relationship Id="rId1" Type="' + _OFFICE + b'/worksheet" Target="worksheets/sheet1.xml"/>'
    b'<Relationship Id="rId2" Type="' + _OFFICE + b'/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
}


def cell(text: bytes) -> bytes:
    return b'<c t="inlineStr"><is><t>' + text + b"</t></is></c>"


def number(value: int) -> bytes:
    return b'<c t="n"><v>%d</v></c>' % value


HEADER_ROW = b'<row r="1">' + cell(b"title") + cell(b"type") + cell(b"force") + b"</row>"
GOOD_ROWS = [HEADER_ROW] + [b'<row r="%d">' % (n + 2) + cell(t) + cell(k) + number(f) + b"</row>"
                            for n, (t, k, f) in enumerate([(b"Alpha", b"L", 2), (b"Bravo", b"U", 3), (b"Charlie", b"U", 3)])]


def write_xlsx(path: Path, rows, shared=(b"<si><t>x</t></si>",), prolog: bytes = b"", dimension: bytes = b"") -> Path:
    """An .xlsx whose worksheet holds `rows` (chunks of <sheetData>) and whose shared strings are `shared`
    (chunks of <sst>); both are streamed, so a part may be far bigger unpacked than the file is."""
    import zipfile

    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, data in _PARTS.items():
            archive.writestr(name, data)
        with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as part:
            part.write(b'<?xml version="1.0" encoding="UTF-8"?>' + prolog + b"<worksheet " + _MAIN + b">" + dimension
                       + b"<sheetData>")
            for chunk in rows:
                part.write(chunk)
            part.write(b"</sheetData></worksheet>")
        with archive.open("xl/sharedStrings.xml", "w", force_zip64=True) as part:
            part.write(b'<?xml version="1.0" encoding="UTF-8"?><sst ' + _MAIN + b">")
            for chunk in shared:
                part.write(chunk)
            part.write(b"</sst>")
    return path


# --- reading what was built ----------------------------------------------------------------------------------

def images_in(pdf: Path) -> list[tuple[int, int]]:
    """(width, height) of every image XObject of the PDF, in forms too."""
    from pypdf import PdfReader

    found, seen = [], set()

    def visit(resources):
        objects = (resources or {}).get("/XObject") if resources else None
        for ref in (objects.get_object() if objects is not None else {}).values():
            if id(ref) in seen:
                continue
            seen.add(id(ref))
            obj = ref.get_object()
            if obj.get("/Subtype") == "/Image":
                found.append((int(obj["/Width"]), int(obj["/Height"])))
            elif obj.get("/Subtype") == "/Form":
                visit(obj.get("/Resources"))

    for page in PdfReader(pdf).pages:
        visit(page.get("/Resources"))
    return found


def pdf_text(pdf: Path, first_page: int = 0) -> str:
    """The text of the PDF's pages from `first_page` (from 0) on."""
    import pypdfium2

    from pdfcheck import page_text

    document = pypdfium2.PdfDocument(str(pdf))
    count = len(document)
    document.close()
    return "\n".join(page_text(pdf, index) for index in range(first_page, count))


def outline_titles(pdf: Path) -> list[str]:
    from pypdf import PdfReader

    titles = []

    def walk(items):
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                titles.append(str(item.title))

    walk(PdfReader(pdf).outline)
    return titles


def visible_files(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir() if not p.name.startswith(".")} if folder.is_dir() else set()


def mentions(text: str, path: Path, cwd: Path) -> bool:
    """Whether `text` names `path`, as given or relative to the folder Muster ran in (as Muster shows paths)."""
    return str(path) in text or str(path.relative_to(cwd)) in text
