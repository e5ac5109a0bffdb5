"""What a build imports: a plain card build (cards in Latin script, bold text, no images, no rulebook) never loads
markdown-it, HarfBuzz, Pillow's Image or platypus, which reportlab imports at its own import but only images and
shaped text use (core/deferred.py), nor the rulebook's checks (and the figures and rulebook layout modules they
import), nor what reads spreadsheets, nor html (a large table of entities, which only rulebooks need): a change that brings one back into every start fails here, in a fresh
interpreter, the game built in one process (--jobs 1) so that the one process reads and draws it."""

from __future__ import annotations

import json
import subprocess
import sys

PLAIN_BUILD = """
import json, sys
from generator.cli import main
from generator.core import deferred

sys.argv = ["muster", "build", sys.argv[1], "--out", sys.argv[2], "--duplex", "long", "--quiet", "--jobs", "1"]
try:
    main()
except SystemExit as exit:
    code = exit.code
NAMES = ("markdown_it", "uharfbuzz", "PIL.Image", "reportlab.platypus", "generator.checking.rulebook",
         "generator.reading.worksheets", "html")
built = [name for name in NAMES if deferred.loaded(name)]
from PIL import Image
from reportlab.pdfbase import ttfonts
used = (Image.new("RGB", (2, 1)).size, ttfonts.uharfbuzz.Buffer is not None)  # the stand-ins at work when asked
print(json.dumps({"code": code, "built": built, "used": used, "after": [n for n in NAMES if deferred.loaded(n)]}))
"""

FACE = """\
elements:
  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: "{{ card.title }}", font: display-bold, size: 16}
  - {kind: paragraph, x: 4, y: 20, w: 55, h: 40, text: "{{ card.text }} [[star]]", size: 9}
"""


def test_a_plain_card_build_loads_no_markdown_harfbuzz_pillow_or_platypus(make_game, tmp_path):
    game = make_game({"face.yaml": FACE, "reds.yaml": "cards:\n  - {title: Alpha, type: L, force: 2, count: 3, text: "
                                                      "'**Attack:** two hits, then **hold**.'}\n"})
    run = subprocess.run([sys.executable, "-c", PLAIN_BUILD, str(game), str(tmp_path / "out")], capture_output=True,
                         text=True, check=True)
    report = json.loads(run.stdout.splitlines()[-1])
    assert report["code"] == 0
    assert {path.name for path in (tmp_path / "out" / "tiny").iterdir()} >= {"cards-reds.pdf", "calibration.pdf"}
    assert report["built"] == []
    assert report["used"] == [[2, 1], True]
    assert report["after"] == ["uharfbuzz", "PIL.Image"]
