"""Every input file read the same way (issue 18): only regular files, each within the size of its kind; images,
fonts and spreadsheets checked before anything takes memory for them; output rasters within a pixel budget; CSV
cells that no spreadsheet runs as formulas; and an import that writes only a deck file Muster reads back."""

from __future__ import annotations

import io
import json
import os
import socket
import struct
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path

import pytest
import yaml
from PIL import Image
from typer.testing import CliRunner

from conftest import GAME_YAML, REPO, patched
from generator.checking import check_game
from generator.cli import app
from generator.core import fonts
from generator.core.errors import MusterError
from generator.reading import sheetfiles
from generator.formats.exports import export_png, run_export
from generator.formats.spreadsheets import import_deck, write_csv
from generator.reading.worksheets import formula_safe, read_sheet, unquoted
from generator.core import inputs
from generator.reading.loading import load_game
from generator.reading.resources import image_problem
from generator.reading.sourcemap import load_yaml

RUNNER = CliRunner()


def codes(folder: Path) -> list[str]:
    return [f.code for f in check_game(load_game(folder)) if f.severity == "error"]


def blank_png(width: int, height: int) -> bytes:
    """A one-bit PNG of blank pixels: a few kilobytes whatever its size in pixels."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    packer = zlib.compressobj(9)
    body = b"".join(packer.compress(b"\x00" * (1 + (width + 7) // 8)) for _ in range(height)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


def png(width: int = 12, height: int = 12) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), "red").save(buffer, "PNG")
    return buffer.getvalue()


# --- one way to open a file ------------------------------------------------------------------------------------

def test_only_regular_files_within_their_limit_are_read(tmp_path):
    (tmp_path / "fine.yaml").write_text("a: 1\n")
    assert inputs.read_bytes(tmp_path / "fine.yaml", inputs.YAML) == b"a: 1\n"
    os.mkfifo(tmp_path / "pipe.yaml")  # nobody writes to it: a read would wait for ever
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(tmp_path / "socket.yaml"))
    (tmp_path / "folder.yaml").mkdir()
    (tmp_path / "big.yaml").write_bytes(b"#" * (inputs.YAML.limit + 1))
    expected = {"pipe.yaml": "not-a-regular-file", "socket.yaml": "not-a-regular-file", "folder.yaml": "missing-file",
                "big.yaml": "too-large", "nowhere.yaml": "missing-file"}
    try:
        for name, code in expected.items():
            with pytest.raises(MusterError) as refused:
                inputs.read_bytes(tmp_path / name, inputs.YAML)
            assert (refused.value.code, refused.value.where.path) == (code, tmp_path / name), name
        with pytest.raises(MusterError) as device:
            inputs.read_bytes(Path("/dev/zero"), inputs.IMAGE)
        assert (device.value.code, device.value.where.path) == ("not-a-regular-file", Path("/dev/zero"))
    finally:
        listener.close()


def test_a_pipe_for_a_deck_file_is_refused_at_once(make_game, tmp_path):
    folder = make_game()
    (folder / "reds.yaml").unlink()
    os.mkfifo(folder / "reds.yaml")
    for command in (["validate", str(folder)], ["build", str(folder), "--out", str(tmp_path / "out"), "-j", "1"]):
        result = subprocess.run([sys.executable, "-m", "generator", *command], capture_output=True, text=True,
                                cwd=REPO, timeout=60)
        assert result.returncode == 1, result.stderr
        assert f"{folder / 'reds.yaml'}: error: a named pipe, not a regular file: refused" in result.stdout + result.stderr


def test_a_pipe_for_the_rulebook_is_refused(make_game):
    folder = make_game({"game.yaml": patched(GAME_YAML, {"icons:\n": "rulebook: {file: rules.md}\nicons:\n"})})
    os.mkfifo(folder / "rules.md")
    result = RUNNER.invoke(app, ["validate", str(folder), "--format", "json"])
    (found,) = json.loads(result.stdout)
    assert result.exit_code == 2 and (found["code"], found["file"]) == ("not-a-regular-file", str(folder / "rules.md"))
    assert found["message"].startswith("a named pipe")


# --- YAML ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,code,message", [
    ("a: " + "[" * 65 + "]" * 65 + "\n", "too-deep", "nested more than 64 deep"),
    ("a: " + "{b: " * 900 + "1" + "}" * 900 + "\n", "too-deep", "nested more than 64 deep"),
    ("a: " + "9" * 5000 + "\n", "too-large", "a number of 5,000 characters; the limit is 100"),
    ("a: 1." + "5" * 200 + "\n", "too-large", "a number of 202 characters"),
    ("a: 2024-13-45\n", "bad-value", "cannot read '2024-13-45'"),
])
def test_yaml_that_python_cannot_hold_is_refused_where_it_is(tmp_path, text, code, message):
    (tmp_path / "x.yaml").write_text(text)
    with pytest.raises(MusterError) as refused:
        load_yaml(tmp_path / "x.yaml")
    assert refused.value.code == code and message in refused.value.message
    assert refused.value.where.line == 1


def test_yaml_nested_64_deep_is_read(tmp_path):
    (tmp_path / "x.yaml").write_text("a: " + "[" * 63 + "]" * 63 + "\n")
    assert load_yaml(tmp_path / "x.yaml")["a"] == eval("[" * 63 + "]" * 63)  # 64 with the mapping around it


# --- images ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("data,code,message", [
    (blank_png(8000, 8000), "too-large", "8000 x 8000 pixels is over the limit of 40,000,000"),
    (blank_png(20000, 20000), "too-large", "a decompression bomb"),
    (blank_png(500, 500)[:60], "bad-image", "not a readable image"),
    (blank_png(500, 500)[:-40], "bad-image", "not a readable image"),
    (b"\x89PNG\r\n\x1a\nthis is not a picture", "bad-image", "not a readable image"),
    (b"BM" + b"\x00" * 60, "bad-image", "supported: PNG, JPEG, GIF, and SVG"),
])
def test_images_are_checked_to_their_last_pixel(tmp_path, data, code, message):
    (tmp_path / "x.png").write_bytes(data)
    problem = image_problem(tmp_path / "x.png")
    assert problem is not None and problem.code == code and message in problem.message, problem


def test_good_images_pass(tmp_path):
    for suffix, kind in ((".png", "PNG"), (".jpg", "JPEG"), (".gif", "GIF")):
        Image.new("RGB", (30, 20), "blue").save(tmp_path / f"x{suffix}", kind)
        assert image_problem(tmp_path / f"x{suffix}") is None


RULEBOOK_GAME = patched(GAME_YAML, {"icons:\n": "rulebook: {file: rules.md}\nicons:\n"})
RULES = "# Rules\n\n- Alpha\n- Bravo\n\nSee the map:\n\n![map](map.png)\n"


@pytest.mark.parametrize("image,code", [
    (blank_png(8000, 8000), "too-large"),
    (blank_png(20000, 20000), "too-large"),
    (blank_png(500, 500)[:60], "bad-image"),
    (None, "missing-file"),
])
def test_rulebook_images_are_checked_like_every_other_image(make_game, image, code):
    folder = make_game({"game.yaml": RULEBOOK_GAME, "rules.md": RULES})
    if image is not None:
        (folder / "map.png").write_bytes(image)
    findings = [f for f in check_game(load_game(folder)) if f.severity == "error"]
    assert [f.code for f in findings] == [code]
    assert (findings[0].where.path, findings[0].where.line) == (folder / "rules.md", 8)


def test_rulebook_image_outside_the_folder_is_refused(make_game):
    folder = make_game({"game.yaml": RULEBOOK_GAME, "rules.md": patched(RULES, {"map.png": "/etc/hostname"})})
    assert codes(folder) == ["file-outside-game"]


def test_an_image_taller_than_a_page_is_scaled_to_fit(make_game, tmp_path):
    folder = make_game({"game.yaml": RULEBOOK_GAME, "rules.md": RULES})
    (folder / "map.png").write_bytes(png(50, 4000))
    result = RUNNER.invoke(app, ["build", str(folder), "--out", str(tmp_path / "out"), "-j", "1"])
    assert result.exit_code == 0, result.output


# --- fonts -----------------------------------------------------------------------------------------------------

def test_an_icon_in_a_font_that_is_not_bundled_is_an_error_in_game_yaml(make_game):
    folder = make_game({"game.yaml": patched(GAME_YAML, {"font: text-bold}": "font: text-blod}"})})
    findings = [f for f in load_game(folder).findings if f.severity == "error"]
    assert [(f.code, f.field) for f in findings] == [("unknown-font", "icons.star.font")]
    assert "did you mean 'text-bold'?" in findings[0].message and findings[0].where.line == 6


def test_a_font_file_that_is_not_a_font_is_named(tmp_path):
    (tmp_path / "broken.ttf").write_bytes(b"\x00\x01\x00\x00" + os.urandom(4000))
    bundled = fonts.font_book()
    fonts.use(fonts.FontBook({**bundled.files, "broken": tmp_path / "broken.ttf"}, bundled.families))
    try:
        with pytest.raises(MusterError) as refused:
            fonts.face("broken")
        assert refused.value.code == "damaged-font" and refused.value.where.path == tmp_path / "broken.ttf"
    finally:
        fonts.use(bundled)


# --- output rasters --------------------------------------------------------------------------------------------

def test_an_export_over_the_pixel_budget_is_refused_before_drawing(make_game, tmp_path):
    folder = make_game({"game.yaml": patched(GAME_YAML, {"card: {size: poker}": "card: {size: 590mm x 590mm}"})})
    with pytest.raises(MusterError) as refused:
        run_export(folder, None, (), 3.0, tmp_path / "out", "png",
                   lambda g, d, laid, target: export_png(g, d, laid, target, 1200, 3.0))
    assert refused.value.code == "raster-too-big" and "28,157 x 28,157 pixels" in refused.value.message
    assert refused.value.where.path == folder / "game.yaml"
    assert not list((tmp_path / "out").rglob("*.png"))


# --- spreadsheets ----------------------------------------------------------------------------------------------

SHEET_MAIN = b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'


def xlsx(path: Path, rows: bytes, shared: bytes = b"", prolog: bytes = b"") -> Path:
    """A workbook of one sheet holding `rows` (<row> elements) and the shared strings `shared` (<si> elements)."""
    parts = {
        "[Content_Types].xml": b'<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
        "_rels/.rels": b'<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": b'<?xml version="1.0"?><workbook ' + SHEET_MAIN + b' xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="cards" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": b'<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
        "xl/worksheets/sheet1.xml": b'<?xml version="1.0"?>' + prolog + b"<worksheet " + SHEET_MAIN + b"><sheetData>" + rows
                                    + b"</sheetData></worksheet>",
        "xl/sharedStrings.xml": b'<?xml version="1.0"?><sst ' + SHEET_MAIN + b">" + shared + b"</sst>",
    }
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return path


def text_cell(text: bytes, reference: bytes = b"") -> bytes:
    return b'<c t="inlineStr"' + (b' r="' + reference + b'"' if reference else b"") + b"><is><t>" + text + b"</t></is></c>"


HEADER = b'<row r="1">' + text_cell(b"title") + text_cell(b"type") + text_cell(b"force") + b"</row>"
ALPHA = b'<row r="2">' + text_cell(b"Alpha") + text_cell(b"L") + b'<c t="n"><v>2</v></c></row>'


def test_a_well_formed_workbook_reads(tmp_path):
    sheet = read_sheet(xlsx(tmp_path / "good.xlsx", HEADER + ALPHA + b'<row r="3"><c t="s"><v>0</v></c></row>',
                            b"<si><t>Bravo</t></si>"))
    assert sheet.header == ["title", "type", "force"] and sheet.rows == [(2, ["Alpha", "L", 2]), (3, ["Bravo"])]


WORKBOOKS = {
    "entities": (HEADER + ALPHA, b"", b"<!DOCTYPE worksheet [<!ENTITY a 'lol'>]>", "unsafe-xml", None),
    "long-cell": (HEADER + b'<row r="2">' + text_cell(b"A" * 40_000) + b"</row>", b"", b"", "too-large", (2, 1)),
    "long-shared-string": (HEADER, b"<si><t>" + b"A" * 40_000 + b"</t></si>", b"", "too-large", None),
    "column-501": (HEADER + b'<row r="2">' + text_cell(b"x", b"SG2") + b"</row>", b"", b"", "too-large", (2, 501)),
    "row-20002": (HEADER + b'<row r="20002">' + text_cell(b"x") + b"</row>", b"", b"", "too-large", (20002, 1)),
    "too-many-shared-strings": (HEADER, b"<si><t>x</t></si>" * 2001, b"", "too-large", None),
    "wide-rows": (HEADER + b"".join(b'<row r="%d">' % r + text_cell(b"x", b"SF%d" % r) + b"</row>"
                                    for r in range(2, 10)), b"", b"", "too-large", (5, 1)),
    "bad-xml": (HEADER + b"<row><c><v>1</v></row>", b"", b"", "unreadable", None),
}


@pytest.mark.parametrize("rows,shared,prolog,code,place", WORKBOOKS.values(), ids=WORKBOOKS)
def test_a_workbook_is_held_to_its_limits_before_openpyxl_reads_it(tmp_path, monkeypatch, rows, shared, prolog, code,
                                                                   place):
    monkeypatch.setattr(sheetfiles, "MAX_CELLS", 2000)  # rows of 500 columns reach it at the fifth
    monkeypatch.setattr("openpyxl.load_workbook", None)  # never reached: refused while the XML streams past
    path = xlsx(tmp_path / "bad.xlsx", rows, shared, prolog)
    with pytest.raises(MusterError) as refused:
        read_sheet(path)
    assert refused.value.code == code, refused.value
    assert refused.value.where.path == path
    if place:
        assert (refused.value.where.line, refused.value.where.column) == place


def test_a_workbook_that_unpacks_too_far_is_refused_by_what_it_declares(tmp_path):
    path = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as part:
            for _ in range(sheetfiles.MAX_UNPACKED_BYTES // (1 << 20) + 1):
                part.write(b" " * (1 << 20))
    with pytest.raises(MusterError, match="its parts unpack to") as refused:
        read_sheet(path)
    assert refused.value.code == "too-large"


@pytest.mark.parametrize("text,message", [
    ("title\n" + "A" * 40_000 + "\n", "a cell of more than 32,767 characters"),
    ("title\n" + "," * (sheetfiles.MAX_CELLS + 1) + "\n", "more than 1,000,000 cells"),
    ("title\n" + "x\n" * (sheetfiles.MAX_ROWS + 1), "more than 20,000 rows below the header"),
    ("title\n" + ("A" * 30_000 + "\n") * 150, "the cells hold more than 4,194,304 characters"),
])
def test_a_csv_sheet_is_held_to_the_same_limits(tmp_path, text, message):
    (tmp_path / "cards.csv").write_text(text)
    with pytest.raises(MusterError, match=message) as refused:
        read_sheet(tmp_path / "cards.csv")
    assert refused.value.code == "too-large"


def test_a_5000_digit_number_in_a_sheet_is_an_error_at_its_cell(make_game, tmp_path):
    folder = make_game()
    (tmp_path / "cards.csv").write_text("title,type,force\nAlpha,L," + "9" * 5000 + "\n")
    imported = import_deck(tmp_path / "cards.csv", folder, "reds")
    assert imported.output is None
    assert [(f.code, f.where.line, f.where.column) for f in imported.findings] == [("too-large", 2, 3)]


# --- CSV cells that are not formulas ---------------------------------------------------------------------------

FORMULAS = ["=1+1", "+cmd", "-2+3", "@SUM(A1)", "\tq", "\rr", "'=quoted", "''@", "-"]
PLAIN = ["Alpha", "it's", "'quoted'", "a=b", "", "'", "''"]


def test_formula_starts_are_quoted_and_read_back_as_they_were():
    for text in FORMULAS:
        assert formula_safe(text) == "'" + text and unquoted(formula_safe(text)) == text
    for text in PLAIN:
        assert formula_safe(text) == text and unquoted(text) == text


def test_an_exported_csv_runs_no_formula_and_imports_as_it_was(make_game, tmp_path):
    titles = ["=1+1", "@SUM(A1)", "+cmd", "-y"]
    cards = "cards:\n" + "".join(f"  - {{title: {yaml.safe_dump(t).splitlines()[0]}, type: U, force: -1, "
                                 f"text: \"{t}\"}}\n" for t in titles)
    folder = make_game({"reds.yaml": cards, "game.yaml": patched(GAME_YAML, {"size: 3": "size: 4",
                                                                             "min: 0, max: 9": "min: -1, max: 9"})})
    sheet = tmp_path / "cards.csv"
    result = RUNNER.invoke(app, ["export", "csv", str(folder), "-d", "reds", "-o", str(sheet)])
    assert result.exit_code == 0, result.output
    lines = sheet.read_text(encoding="utf-8").splitlines()
    assert lines[1] == "'=1+1,U,-1,'=1+1"  # numbers are numbers: -1 is no formula
    assert all(line[0] not in "=+-@" for line in lines)
    again = tmp_path / "again.yaml"
    result = RUNNER.invoke(app, ["import", str(sheet), "--game", str(folder), "--deck", "reds", "-o", str(again)])
    assert result.exit_code == 0, result.output
    assert yaml.safe_load(again.read_text())["cards"] == yaml.safe_load(cards)["cards"]


def test_write_csv_quotes_only_text(tmp_path):
    write_csv(["title", "count"], [["=x", -3], ["y", None]], tmp_path / "t.csv")
    assert (tmp_path / "t.csv").read_text() == "title,count\n'=x,-3\ny,\n"


# --- nothing lost ----------------------------------------------------------------------------------------------

def test_an_import_too_big_for_a_deck_file_writes_nothing(make_game, tmp_path):
    folder = make_game()
    before = (folder / "reds.yaml").read_bytes()
    rows = ["title,type,force,text"] + [f"Card {i},U,1," + "\U0001F600" * 30_000 for i in range(40)]  # 4 bytes each
    (tmp_path / "cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(MusterError, match="the deck file would be more than 4,194,304 bytes") as refused:
        import_deck(tmp_path / "cards.csv", folder, "reds")
    assert refused.value.code == "too-large" and refused.value.where.path == tmp_path / "cards.csv"
    assert (folder / "reds.yaml").read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == ["back.yaml", "face.yaml", "game.yaml", "reds.yaml"]


def test_an_import_writes_a_deck_file_that_reads_back(make_game, tmp_path):
    folder = make_game()
    (tmp_path / "cards.csv").write_text("title,type,force,text\nAlpha,L,2,\ufffe odd\nBravo,U,3,x\nC,U,1,y\n",
                                        encoding="utf-8")
    imported = import_deck(tmp_path / "cards.csv", folder, "reds")
    assert imported.output == folder / "reds.yaml" and not imported.findings
    assert load_game(folder).decks["reds"].cards[0].traits["text"] == "\ufffe odd"
