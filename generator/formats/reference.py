"""The key tables of docs/format.md, made from the format's spec: one table per mapping, one row per key; and
docs/findings.md, the list of finding codes, made from their catalogue (core/codes.py).

`python -m generator.formats.reference` writes the tables into docs/format.md, between the two marker lines, and
docs/findings.md whole; the tests check that the files hold exactly what the spec and the catalogue make, so a key
added to the spec is a key documented, and so is a code.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..core.codes import CODES
from ..reading.kinds import FACE_SIZE
from ..reading.spec import SECTIONS, Derived, Key, Section

BEGIN = "<!-- key tables: made from generator/reading/spec.py by `python -m generator.formats.reference` -->"
END = "<!-- end of the key tables -->"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "format.md"
FINDINGS = DOCS.with_name("findings.md")


def _number(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _bounds(key: Key) -> str:
    if key.minimum is not None and key.maximum is not None:
        return f"{_number(key.minimum)} to {_number(key.maximum)}"
    if key.minimum is not None:
        return f"from {_number(key.minimum)}"
    return ""


def _held(of) -> str:
    """What a mapping, map or list holds: a section (by its path) or a kind."""
    return f"`{of.path}`" if isinstance(of, Section) else of.docs


def value_text(key: Key) -> str:
    """The kind of a key's value as the table shows it: 'integer, 0 to 20000', 'one of: rect, round'."""
    kind = key.kind
    if key.choices:
        return f"{kind.docs}: {', '.join(map(str, key.choices))}"
    if key.of is not None:
        return f"{kind.docs} {_held(key.of)}"
    bounds = _bounds(key)
    if bounds and kind is FACE_SIZE:
        return f"{kind.docs}, each side {bounds} mm"
    return f"{kind.docs}, {bounds}" if bounds else kind.docs


def default_text(key: Key) -> str:
    """'required', the default as a game writes it, or the words of a derived one."""
    if key.required:
        return "required"
    default = key.default
    if isinstance(default, Derived):
        return str(default)
    if default is None or default == "":
        return ""
    if isinstance(default, bool):
        return f"`{str(default).lower()}`"
    return f"`{default}`"


def _cell(text: str) -> str:
    """Text for a cell of a Markdown table: `<name>` shown, not taken for an HTML tag."""
    return text.replace("|", "\\|").replace("<", "&lt;")


def section_table(section: Section) -> str:
    """The Markdown table of one mapping, under a heading naming where it sits."""
    lines = [f"### `{section.path}`", "", "| key | value | default | meaning |", "| --- | --- | --- | --- |"]
    for key in section.keys:
        lines.append(f"| `{key.name}` | {value_text(key)} | {_cell(default_text(key))} | {_cell(key.description)} |")
    return "\n".join(lines)


def key_tables() -> str:
    """The block of docs/format.md between the markers, markers included."""
    return "\n\n".join([BEGIN, *(section_table(section) for section in SECTIONS), END])


def with_tables(text: str) -> str:
    """`text` (docs/format.md) with its block of key tables made again from the spec."""
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[:start] + key_tables() + text[end:]


def findings_page() -> str:
    """docs/findings.md: every finding code of the catalogue, in the order it declares them."""
    lines = ["# Finding codes", "",
             "<!-- made from generator/core/codes.py by `python -m generator.formats.reference`: edit that -->", "",
             "Every finding `muster validate` and `muster build` print carries one of these codes (in `--format json`, "
             "its `code`), stable from release to release: filter on the code, never on the wording. "
             "`muster validate --codes` lists them too.", "",
             "| code | severity | meaning | message |", "| --- | --- | --- | --- |"]
    for code in CODES.values():
        message = "" if code.template == "{detail}" else f"`{code.template}`"
        lines.append(f"| `{code.name}` | {code.severity} | {_cell(code.meaning)} | {_cell(message)} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    text = DOCS.read_text(encoding="utf-8")
    DOCS.write_text(with_tables(text), encoding="utf-8", newline="\n")
    FINDINGS.write_text(findings_page(), encoding="utf-8", newline="\n")
    print(f"wrote the key tables of {DOCS} and {FINDINGS}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
