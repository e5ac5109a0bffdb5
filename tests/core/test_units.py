"""The parsers of lengths, dashes, sizes, papers and colours refuse a value as a MusterError with its code and no
place, which their callers locate; a ValueError no longer crosses from them into the stage that reads the value."""

from __future__ import annotations

import pytest

from generator.core import units
from generator.core.colour import resolve
from generator.core.errors import MusterError
from generator.layout.spec import ELEMENTS


@pytest.mark.parametrize("parse, value, code", [
    (units.parse_length, "3", "bad-length"),
    (units.parse_length, 3, "bad-length"),
    (units.parse_length, True, "bad-length"),
    (units.parse_length, "three mm", "bad-length"),
    (units.parse_length, "99999mm", "bad-length"),
    (units.parse_dash, "0 0", "bad-dash"),
    (units.parse_dash, "two one", "bad-dash"),
    (lambda v: units.parse_size(v, units.CARD_SIZES), "huge", "bad-size"),
    (lambda v: units.parse_size(v, units.CARD_SIZES), "63 x 88mm", "bad-size"),
    (lambda v: units.parse_size(v, units.CARD_SIZES), "0mm x 88mm", "bad-size"),
    (units.paper_size, "b5", "bad-paper"),
    (units.paper_size, "10mm x 10mm", "bad-paper"),
    (units.paper_name, "a4-portrait", "bad-paper"),
    (lambda v: resolve(v, {}), "reddish", "bad-colour"),
])
def test_a_value_a_parser_refuses_is_a_muster_error_with_its_code_and_no_place(parse, value, code):
    with pytest.raises(MusterError) as caught:
        parse(value)
    assert (caught.value.code, caught.value.where, caught.value.field) == (code, None, "")


@pytest.mark.parametrize("kind, field, raw", [
    ("box", "stroke_width", "thick"),   # a length
    ("box", "fill", "reddish"),         # a colour
    ("line", "dash", "0 0"),            # a dash pattern
    ("text", "size", "large"),          # a number: Python's float() refuses it
    ("text", "size", None),
    ("text", "align", "middle"),        # a choice
    ("grid", "columns", "1.5"),         # a whole number
])
def test_a_layout_value_its_field_cannot_hold_is_a_bad_value(kind, field, raw):
    with pytest.raises(MusterError) as caught:
        next(f for f in ELEMENTS[kind].fields if f.name == field).read(raw, {})
    assert (caught.value.code, caught.value.where) == ("bad-value", None)
