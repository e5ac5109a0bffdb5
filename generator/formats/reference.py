"""The key tables of docs/format.md, made from the format's spec (one table per mapping, one row per key); the
element tables of docs/layouts.md, made from the layout's spec (one table per kind of element, one row per field);
and docs/findings.md, the list of finding codes, made from their catalogue (core/codes.py).

`python -m generator.formats.reference` writes the tables into the two files, each between its two marker lines,
and docs/findings.md whole; the tests check that the files hold exactly what the specs and the catalogue make, so
a key, a field or a code added is one documented.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..layout.spec import ELEMENT_FIELDS, ELEMENTS, KIND, ROTATE, Field, Kind, rotating
from ..core.codes import CODES
from ..reading.kinds import FACE_SIZE
from ..reading.spec import SECTIONS, Derived, Key, Section

BEGIN = "<!-- key tables: made from generator/reading/spec.py by `python -m generator.formats.reference` -->"
END = "<!-- end of the key tables -->"
ELEMENTS_BEGIN = ("<!-- element tables: made from generator/layout/spec.py by `python -m generator.formats.reference`"
                  " -->")
ELEMENTS_END = "<!-- end of the element tables -->"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "format.md"
LAYOUT_DOCS = DOCS.with_name("layouts.md")
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


def default_text(key: Key | Field) -> str:
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
        translated = f" Translated: `{key.name}:<lang>`." if key.translated else ""
        lines.append(f"| `{key.name}` | {value_text(key)} | {_cell(default_text(key))} | "
                     f"{_cell(key.description + translated)} |")
    return "\n".join(lines)


def key_tables() -> str:
    """The block of docs/format.md between the markers, markers included."""
    return "\n\n".join([BEGIN, *(section_table(section) for section in SECTIONS), END])


def with_tables(text: str) -> str:
    """`text` (docs/format.md) with its block of key tables made again from the spec."""
    return _between(text, BEGIN, END, key_tables())


def field_value_text(field: Field) -> str:
    """A field's value as the element tables show it: 'length', 'one of: left, center, right, justify'."""
    return f"{field.role.docs}: {', '.join(field.choices)}" if field.choices else field.role.docs


def _field_rows(fields) -> list[str]:
    rows = ["| key | value | default | meaning |", "| --- | --- | --- | --- |"]
    for field in fields:
        meaning = field.description + (f" Only for: {', '.join(rotating())}." if field is ROTATE else "")
        rows.append(f"| `{field.name}` | {_cell(field_value_text(field))} | {_cell(default_text(field))} | "
                    f"{_cell(meaning)} |")
    return rows


def _kind_table(kind: Kind) -> str:
    """The Markdown table of one kind's fields, under a heading naming the kind."""
    turns = " It turns with `rotate:`." if kind.rotates else ""
    return "\n".join([f"### `{kind.name}`", "", _cell(kind.description) + turns, "", *_field_rows(kind.fields)])


def _roles() -> list[str]:
    """How each role's values are written, for the roles whose short name does not say it all, in their first use."""
    roles = {}
    for field in (*ELEMENT_FIELDS, *(field for kind in ELEMENTS.values() for field in kind.fields)):
        if field.role.description:
            roles.setdefault(field.role.docs, field.role.description)
    return ["| value | written as |", "| --- | --- |", *(f"| {docs} | {_cell(text)} |" for docs, text in roles.items())]


def element_tables() -> str:
    """The block of docs/layouts.md between the markers, markers included: the kinds, the keys every element may
    have, how values are written, then each kind's fields."""
    overview = ["| kind | draws | keys (required in bold) |", "| --- | --- | --- |"]
    for kind in ELEMENTS.values():
        required = " ".join(kind.required)
        others = ", ".join(field.name for field in kind.fields if not field.required)
        keys = ", ".join(part for part in (f"**{required}**" if required else "", others) if part)
        overview.append(f"| [`{kind.name}`](#{kind.name}) | {_cell(kind.description)} | {keys} |")
    every = ["### Keys of every element", "", *_field_rows((KIND, *ELEMENT_FIELDS))]
    values = ["### Values", "", "Every value but `kind` may also be a template (`{{ ... }}`), checked again once "
              "evaluated.", "", *_roles()]
    return "\n\n".join([ELEMENTS_BEGIN, "\n".join(overview), "\n".join(every), "\n".join(values),
                         *(_kind_table(kind) for kind in ELEMENTS.values()), ELEMENTS_END])


def with_element_tables(text: str) -> str:
    """`text` (docs/layouts.md) with its block of element tables made again from the layout's spec."""
    return _between(text, ELEMENTS_BEGIN, ELEMENTS_END, element_tables())


def _between(text: str, begin: str, end: str, block: str) -> str:
    """`text` with what lies from the line `begin` to the line `end` replaced by `block`."""
    start, stop = text.index(begin), text.index(end) + len(end)
    return text[:start] + block + text[stop:]


def findings_page() -> str:
    """docs/findings.md: every finding code of the catalogue, in the order it declares them."""
    lines = ["# Finding codes", "",
             "<!-- made from generator/core/codes.py by `python -m generator.formats.reference`: edit that -->", "",
             "Every finding `muster validate` and `muster build` print carries one of these codes (in `--format json`, "
             "its `code`; a game that cannot be read at all is in that list too, as its one error), stable from release "
             "to release: filter on the code, never on the wording. "
             "`muster validate --codes` lists them too.", "",
             "| code | severity | meaning | message |", "| --- | --- | --- | --- |"]
    for code in CODES.values():
        message = "" if code.template == "{detail}" else f"`{code.template}`"
        lines.append(f"| `{code.name}` | {code.severity} | {_cell(code.meaning)} | {_cell(message)} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    for path, write in ((DOCS, with_tables), (LAYOUT_DOCS, with_element_tables)):
        path.write_text(write(path.read_text(encoding="utf-8")), encoding="utf-8", newline="\n")
        print(f"wrote the tables of {path}", file=sys.stderr)
    text = DOCS.read_text(encoding="utf-8")
    DOCS.write_text(with_tables(text), encoding="utf-8", newline="\n")
    FINDINGS.write_text(findings_page(), encoding="utf-8", newline="\n")
    print(f"wrote the key tables of {DOCS} and {FINDINGS}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
