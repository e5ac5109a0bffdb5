"""Text written into other formats, made valid for each whatever characters it holds: one function per format,
used by every writer of it.

A card's text can hold any character YAML or a spreadsheet lets through: control characters (NUL, escape), the
noncharacters U+FFFE and U+FFFF; a path read from the file system can hold a lone surrogate (a byte that is not
UTF-8). JSON escapes control characters itself, but a lone surrogate cannot be written in UTF-8; XML 1.0 (an .xlsx)
holds no control character but tab and line breaks, no surrogate and neither noncharacter; a CSV file holds
anything quoted, but spreadsheet programs stop at a NUL or show the rest as garbage, so a CSV cell is held to what
XML holds. What a format cannot hold becomes U+FFFD, the replacement character: visible, and never a card's real
text (no font prints those characters either). A YAML comment (an imported deck file's first lines) is held to
what YAML calls printable.
"""

from __future__ import annotations

import json
import re

REPLACEMENT = "\ufffd"
_SURROGATE = re.compile("[\ud800-\udfff]")
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
# YAML's printable set: compiled when first used (re's cache), as it costs every build's start 3 ms and only an
# imported deck file's comment needs it
_NOT_YAML = "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"


def xml_text(text: str) -> str:
    """`text` as XML 1.0 can hold it (and a CSV cell: see above)."""
    return _NOT_XML.sub(REPLACEMENT, text)


def yaml_comment(text: str) -> str:
    """`text` as a YAML comment may hold it, on one line (a YAML reader refuses a file with any other character,
    even in a comment): what the YAML spec does not call printable made U+FFFD."""
    return re.sub(_NOT_YAML, REPLACEMENT, text)


def json_text(value, **options) -> str:
    """`value` as JSON text that encodes in UTF-8: json.dumps (characters outside ASCII kept as they are, `options`
    passed on), each lone surrogate made U+FFFD."""
    return _SURROGATE.sub(REPLACEMENT, json.dumps(value, ensure_ascii=False, **options))
