"""The preview of a game in several languages: its languages in the state, and the page's switch reading the game
again in the one chosen."""

from __future__ import annotations

import json

from conftest import TESTS
from generator.core.options import Options
from generator.preview.server import PreviewServer, page_file
from generator.preview.session import Preview
from test_preview import fetch

BILINGUAL = TESTS / "fixtures" / "bilingual"


def titles(preview: Preview) -> list[str]:
    return [card["title"] for deck in json.loads(preview.state)["decks"] for card in deck["cards"]]


def test_the_switch_shows_the_game_in_the_language_chosen():
    preview = Preview(BILINGUAL, Options())
    preview.refresh()
    shown = json.loads(preview.state)
    assert (shown["languages"], shown["language"], shown["title"]) == (["en", "de"], "en", "Bridgehead")
    assert "Rifle Squad" in titles(preview)
    server = PreviewServer(preview, 0, wait=0.5)
    server.start()
    try:
        front = shown["decks"][0]["cards"][0]["front"]
        assert fetch(server, "/language?lang=de")[0] == 200
        german = json.loads(preview.state)
        assert (german["language"], german["title"]) == ("de", "Brückenkopf")
        assert "Schützengruppe" in titles(preview) and german["decks"][0]["cards"][0]["front"] != front
        assert fetch(server, "/language?lang=fr")[0] == 400  # no language of the game's
        assert fetch(server, "/language?lang=en")[0] == 200 and json.loads(preview.state)["title"] == "Bridgehead"
    finally:
        server.shutdown()
        server.server_close()
    assert b'id="language"' in page_file("page.html")


def test_a_game_of_one_language_has_no_switch(make_game):
    preview = Preview(make_game(), Options())
    preview.refresh()
    assert json.loads(preview.state)["languages"] == []
