"""Kit options are declared once (core/options.KIT): the Options value, the commands' options and a build's key
come from that declaration."""

from __future__ import annotations

from dataclasses import fields

import pytest
from typer.testing import CliRunner

from generator.cli import app
from generator.core.errors import MusterError
from generator.core.options import KIT, Options


def test_options_has_one_field_per_kit_option_with_its_default():
    assert [f.name for f in fields(Options)] == [option.name for option in KIT]
    assert all(getattr(Options(), option.name) == option.value for option in KIT)


@pytest.mark.parametrize("command", [["build"], ["watch"], ["preview"]])
def test_every_kit_option_is_a_flag_of_the_commands_that_build(command):
    shown = CliRunner().invoke(app, [*command, "--help"], terminal_width=400).output
    for option in KIT:
        assert option.flag.split("/")[0] in shown
        assert " ".join(option.help.split()[:4]) in " ".join(shown.split())


def test_pdfx_implies_cmyk_wherever_options_are_made():
    assert Options(pdfx=True).colour == "cmyk"
    assert Options.chosen(pdfx=True, colour="rgb").colour == "cmyk"
    assert Options(colour="cmyk").pdfx is False


def test_a_builds_key_records_the_options_as_kits_built_before_recorded_them():
    assert Options().as_dict() == {"paper": "a4", "bleed_mm": 3.0, "duplex": "long", "crop_marks": True,
                                   "greyscale": False, "variants": [], "seed": None, "booklet": False,
                                   "calibration": True, "back_offset_mm": [0.0, 0.0]}
    assert Options(pdfx=True, ink_limit=260).as_dict() == {**Options().as_dict(), "colour": "cmyk",
                                                                 "pdfx": True, "ink_limit": 260}


@pytest.mark.parametrize("values, field, code", [
    ({"paper": "b7"}, "--paper", "bad-paper"),
    ({"bleed": "3"}, "--bleed", "bad-length"),
    ({"bleed": "11mm"}, "--bleed", "out-of-range"),
    ({"back_offset": "1mm"}, "--back-offset", "bad-length"),
    ({"back_offset": "11,0"}, "--back-offset", "out-of-range"),
    ({"back_offset": "1,0", "duplex": "fold"}, "--back-offset", "bad-option"),
])
def test_a_bad_kit_option_names_its_flag_and_code(values, field, code):
    with pytest.raises(MusterError) as caught:
        Options.chosen(**values)
    assert (caught.value.field, caught.value.code) == (field, code)
