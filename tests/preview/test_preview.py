"""muster preview without a browser: what the server answers, what the state says, and what a refresh redraws."""

from __future__ import annotations

import importlib.util
import json
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import patched
from generator.core.bundle import bundled_games_dir
from generator.core.options import Options
from generator.preview import images
from generator.preview.server import PreviewServer, page_file
from generator.preview.session import Preview

HOSTILE = "<img src=x onerror=alert(1)>"
# bench/preview.py: the state the page makes of what the server sends, and the places it shows, in Python
_SPEC = importlib.util.spec_from_file_location("bench_preview", Path(__file__).parents[2] / "bench" / "preview.py")
bench_preview = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(bench_preview)


@pytest.fixture
def served(make_game):
    """A preview of the tiny game, served on a free port: (folder, preview, server)."""
    folder = make_game()
    preview = Preview(folder, Options())
    preview.refresh()
    server = PreviewServer(preview, 0, wait=0.5)
    server.start()
    yield folder, preview, server
    server.shutdown()
    server.server_close()


def fetch(server: PreviewServer, path: str, host: str | None = None) -> tuple[int, dict, bytes]:
    request = urllib.request.Request(server.url.rstrip("/") + path, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def state(preview: Preview) -> dict:
    return json.loads(preview.state)


def looked_at(preview: Preview) -> dict:
    """The state, with every face's image asked for, as a page scrolled to the end asks for them."""
    shown = state(preview)
    for deck in shown["decks"]:
        for card in deck["cards"]:
            for side in ("front", "back"):
                if card.get(side):
                    assert preview.images.png(card[side]) is not None
    return shown


def test_serves_on_loopback_only_and_on_a_free_port(served):
    _, _, server = served
    host, port = server.server_address
    assert host == "127.0.0.1" and port > 0 and server.url == f"http://127.0.0.1:{port}/"


def test_serves_the_page_the_state_and_images_with_a_strict_policy(served):
    _, preview, server = served
    status, headers, body = fetch(server, "/")
    assert status == 200 and b"/page.js" in body
    policy = headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script-src 'self'" in policy and "unsafe" not in policy
    assert headers["X-Content-Type-Options"] == "nosniff"
    status, headers, body = fetch(server, "/state.json?after=0")
    assert status == 200 and headers["Content-Type"] == "application/json"
    front = json.loads(body)["decks"][0]["cards"][0]["front"]
    status, headers, body = fetch(server, f"/face/{front}.png")
    assert status == 200 and body.startswith(b"\x89PNG") and headers["Content-Type"] == "image/png"


@pytest.mark.parametrize("path", ["/game.yaml", "/reds.yaml", "/../game.yaml", "/%2e%2e/game.yaml", "/page.py",
                                  "/face/" + "0" * 24 + ".png", "/face/../../etc/passwd", "/state.json/x",
                                  "/page.html", "/__init__.py"])
def test_nothing_else_is_served(served, path):
    _, _, server = served
    status, headers, _ = fetch(server, path)
    assert status == 404 and "Content-Security-Policy" in headers


def test_another_host_name_is_refused(served):
    """A page elsewhere whose name resolves to 127.0.0.1 (DNS rebinding) gets nothing."""
    _, _, server = served
    assert fetch(server, "/state.json", host="attacker.example")[0] == 403


def test_card_text_is_data_never_markup(make_game):
    folder = make_game({"reds.yaml": f'cards:\n  - {{title: "{HOSTILE}", type: L, force: 2, fronts: A}}\n'
                                     "  - {title: Bravo, type: U, force: 3, fronts: E, count: 2}\n"})
    preview = Preview(folder, Options())
    preview.refresh()
    assert state(preview)["decks"][0]["cards"][0]["title"] == HOSTILE
    script = page_file("page.js")
    for sink in (b"innerHTML", b"outerHTML", b"insertAdjacentHTML", b"document.write", b"eval(", b"Function("):
        assert sink not in script


def test_cards_carry_their_data_with_places_and_their_findings(make_game):
    folder = make_game({"reds.yaml": "cards:\n  - {title: Alpha, type: L, force: 2, fronts: A}\n"
                                     "  - {title: Bravo, type: U, force: 12, fronts: E, count: 2}\n"})
    preview = Preview(folder, Options())
    preview.refresh()
    alpha, bravo = state(preview)["decks"][0]["cards"]
    values = {entry["name"]: entry["value"] for entry in alpha["data"]}
    assert values["force"] == 2
    assert {name: place for name, place in bench_preview.places(alpha).items() if name in ("", "title", "force")} == {
        "": "reds.yaml:2:5", "title": "reds.yaml:2:13", "force": "reds.yaml:2:36"}
    assert not alpha["findings"]
    assert any("force" in f["field"] or "force" in f["message"] for f in bravo["findings"])


def test_outlines_name_the_layout_line_that_drew_each_element(served):
    _, preview, _ = served
    shown = state(preview)
    outlines = shown["outlines"][shown["decks"][0]["cards"][0]["front"]]
    assert [o[4] for o in outlines] == ["box", "text", "text"]
    assert [o[5].rsplit(":", 2)[0].endswith("face.yaml") for o in outlines] == [True] * 3
    assert [int(o[5].rsplit(":", 2)[1]) for o in outlines] == [2, 3, 4]
    left, top, width, height = outlines[0][:4]
    assert (left, top, width, height) == (-3.0, -3.0, 69.0, 94.0)  # the background, out over the bleed


def test_a_refresh_rasterises_only_the_faces_that_changed(served):
    folder, preview, _ = served
    before = looked_at(preview)["decks"][0]["cards"]
    made = preview.images.rasterised
    (folder / "reds.yaml").write_text(patched((folder / "reds.yaml").read_text(), {"force: 3": "force: 4"}))
    preview.refresh([folder / "reds.yaml"])
    after = looked_at(preview)["decks"][0]["cards"]
    assert preview.images.rasterised == made + 1  # Bravo's front; its back shows only its title
    assert after[0]["front"] == before[0]["front"] and after[1]["back"] == before[1]["back"]
    assert after[1]["front"] != before[1]["front"]
    preview.refresh([folder / "reds.yaml"])
    looked_at(preview)
    assert preview.images.rasterised == made + 1


def test_faces_are_rasterised_when_first_asked_for_a_screenful_at_a_time(make_game):
    cards = "".join(f"  - {{title: Card {n}, type: U, force: {n % 10}, fronts: E}}\n" for n in range(60))
    folder = make_game({"reds.yaml": "cards:\n" + cards})
    preview = Preview(folder, Options())
    preview.refresh()
    assert preview.images.rasterised == 0  # the page is there at once; no face drawn yet
    fronts = [card["front"] for card in state(preview)["decks"][0]["cards"]]
    assert preview.images.png(fronts[30]).startswith(b"\x89PNG")
    assert preview.images.rasterised == images.BATCH  # the face asked for and the ones after it
    made = preview.images.rasterised
    assert preview.images.png(fronts[31]) is not None and preview.images.rasterised == made  # drawn already
    assert preview.images.png("0" * 24) is None


def test_a_refresh_lays_out_only_the_cards_that_changed_unless_what_they_share_did(served):
    folder, preview, _ = served
    assert preview.layouts.laid_out == 2
    (folder / "reds.yaml").write_text(patched((folder / "reds.yaml").read_text(), {"force: 3": "force: 4"}))
    preview.refresh([folder / "reds.yaml"])
    assert preview.layouts.laid_out == 3
    (folder / "face.yaml").write_text(patched((folder / "face.yaml").read_text(), {"size: 30": "size: 24"}))
    preview.refresh([folder / "face.yaml"])
    assert preview.layouts.laid_out == 5
    assert not state(preview)["stale"]


def test_an_image_changing_redraws_every_face(served):
    folder, preview, _ = served
    looked_at(preview)
    made = preview.images.rasterised
    preview.refresh([folder / "art.png"])
    looked_at(preview)
    assert preview.images.rasterised == 2 * made


def saved(folder, preview: Preview, name: str, text: str) -> tuple[dict, dict]:
    """The state before and after `name` is saved with `text` and the preview refreshed."""
    before = state(preview)
    (folder / name).write_text(text)
    preview.refresh([folder / name])
    return before, state(preview)


def test_a_broken_save_keeps_the_last_good_cards_marked_stale(served):
    folder, preview, _ = served
    good, broken = saved(folder, preview, "reds.yaml", "cards:\n  - {title: Alpha, force: [\n")
    assert broken["stale"] and broken["decks"][0]["stale"]
    assert [c["front"] for c in broken["decks"][0]["cards"]] == [c["front"] for c in good["decks"][0]["cards"]]
    assert any(f["severity"] == "error" and "reds.yaml" in f["where"] for f in broken["findings"])
    _, fixed = saved(folder, preview, "reds.yaml", "cards:\n  - {title: Alpha, type: L, force: 2, fronts: A}\n"
                                                    "  - {title: Bravo, type: U, force: 3, fronts: E, count: 2}\n")
    assert not fixed["stale"] and not fixed["findings"] and fixed["decks"] == good["decks"]


def test_an_unreadable_game_yaml_keeps_every_last_good_card(served):
    folder, preview, _ = served
    good, broken = saved(folder, preview, "game.yaml", "muster: 1\ntitle: [unclosed\n")
    assert broken["stale"] and broken["decks"][0]["cards"] == good["decks"][0]["cards"]
    assert [f["where"].split(":")[0] for f in broken["findings"]] == ["game.yaml"]


def test_a_layout_that_stops_keeps_that_decks_last_good_faces(served):
    folder, preview, _ = served
    good, shown = saved(folder, preview, "face.yaml",
                        "elements:\n  - {kind: text, x: 4, y: 4, w: 55, h: 10, text: '{{ 1 // 0 }}'}\n")
    assert shown["decks"][0]["stale"] and shown["decks"][0]["cards"] == good["decks"][0]["cards"]
    assert any(f["severity"] == "error" and "face.yaml" in f["where"] for f in shown["findings"])


def test_a_page_waits_for_a_newer_state(served):
    folder, preview, server = served
    version = state(preview)["version"]
    assert json.loads(fetch(server, f"/state.json?after={version}")[2])["version"] == version  # after the wait
    answer = {}
    asking = threading.Thread(target=lambda: answer.update(json.loads(fetch(server, f"/state.json?after={version}")[2])))
    asking.start()
    preview.refresh()
    asking.join(5)
    assert answer["version"] == version + 1


def test_muster_preview_serves_a_game_made_by_muster_new_until_interrupted(tmp_path):
    import signal
    import subprocess
    import sys

    subprocess.run([sys.executable, "-m", "generator", "new", "mine", "--dir", str(tmp_path)], check=True,
                   capture_output=True)
    process = subprocess.Popen([sys.executable, "-m", "generator", "preview", str(tmp_path / "mine"), "--no-open"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = process.stdout.readline()
        assert first.startswith("previewing ") and " at http://127.0.0.1:" in first
        url = first.split(" at ")[1].split()[0]
        with urllib.request.urlopen(url + "state.json", timeout=10) as response:
            shown = json.loads(response.read())
        assert shown["decks"] and all(card["front"] for card in shown["decks"][0]["cards"]) and not shown["stale"]
    finally:
        process.send_signal(signal.SIGINT)
        assert process.wait(10) == 0


def test_muster_preview_of_no_game_fails_in_one_line(tmp_path):
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "generator", "preview", str(tmp_path / "none"), "--no-open"],
                            capture_output=True, text=True)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


@pytest.mark.parametrize("name", sorted(game.parent.name for game in bundled_games_dir().glob("*/game.yaml")))
def test_every_bundled_game_is_previewed_whole(name):
    from generator.reading.resources import find_game

    preview = Preview(find_game(name).resolve(), Options())
    preview.refresh()
    shown = state(preview)
    assert not shown["stale"] and not [f for f in shown["findings"] if f["severity"] == "error"]
    assert shown["decks"] and all(card["front"] and card["back"] for deck in shown["decks"] for card in deck["cards"])
    first = shown["decks"][0]["cards"][0]
    assert preview.images.png(first["front"]).startswith(b"\x89PNG") and preview.images.png(first["back"])
    for board in shown["boards"]:
        assert preview.images.png(board["image"]).startswith(b"\x89PNG")
    if name == "grid-battle":
        assert [b["id"] for b in shown["boards"]] == ["battlefield"]


def test_tracing_leaves_the_faces_as_the_build_draws_them():
    """The preview's faces are the build's, item for item: the outlines are noted beside them."""
    from functools import partial

    from generator.layout.boards import lay_out_board
    from generator.layout.cards import lay_out_batches, lay_out_cards
    from generator.preview.tracing import TracingEvaluator
    from generator.reading.loading import load_game

    game = load_game("grid-battle")
    traces: dict = {}
    for deck in game.decks.values():
        built = lay_out_cards(game, deck, 3.0)
        shown = [face for batch in lay_out_batches(game, deck, 3.0, evaluator=partial(TracingEvaluator, traces=traces))
                 for face in batch.faces]
        assert shown == built.faces and all(face in traces for face in shown)
    board = next(iter(game.boards.values()))
    traced = lay_out_board(game, board, evaluator=partial(TracingEvaluator, traces=traces))[0]
    assert traced == lay_out_board(game, board)[0] and traces[traced]


def test_a_board_has_outlines_too():
    from generator.reading.resources import find_game

    preview = Preview(find_game("grid-battle").resolve(), Options())
    preview.refresh()
    shown = state(preview)
    kinds = {outline[4] for outline in shown["outlines"][shown["boards"][0]["image"]]}
    assert "grid" in kinds


@pytest.mark.parametrize("cut", ["decks:\n", "decks:\n  reds:\n", "decks:\n  reds:\n    name: Red deck\n    file: re"])
def test_a_save_that_cuts_game_yaml_in_its_decks_keeps_the_last_good_faces(served, cut):
    """An editor saving game.yaml half-written: what it still holds is good YAML, without the decks."""
    from conftest import GAME_YAML

    folder, preview, _ = served
    good, cut_short = saved(folder, preview, "game.yaml", GAME_YAML[:GAME_YAML.index("decks:\n")] + cut)
    assert cut_short["stale"] and cut_short["decks"][0]["stale"]
    assert cut_short["decks"][0]["cards"] == good["decks"][0]["cards"]
    _, whole = saved(folder, preview, "game.yaml", GAME_YAML)
    assert not whole["stale"] and whole["decks"] == good["decks"]


def test_a_deck_taken_out_of_a_good_game_goes(served):
    from conftest import GAME_YAML

    folder, preview, _ = served
    start = GAME_YAML.index("decks:\n")
    end = GAME_YAML.index("\n", GAME_YAML.index("style:", start)) + 1
    _, shown = saved(folder, preview, "game.yaml", GAME_YAML[:start] + "decks: {}\n" + GAME_YAML[end:])
    assert not shown["decks"] and not shown["stale"]


STATE_QUERIES = ["after=%C2%B2", "after=" + "9" * 5000, "after=-1", "after=1e3", "after=%00", "after=%ff%fe",
                 "after=1&after=x", "after", "after=%", "after=" + "0" * 30, "&&&=&", "after=%D9%A1"]


@pytest.mark.parametrize("query", STATE_QUERIES, ids=range(len(STATE_QUERIES)))
def test_every_state_request_gets_an_answer(served, query):
    _, preview, server = served
    status, headers, body = fetch(server, "/state.json?" + query)
    assert status in (200, 400), (status, body)
    assert len(body) < 100 or json.loads(body)["version"] == preview.version
    assert "Content-Security-Policy" in headers


ODD_PATHS = ["//[::1/state.json", "//x]/", "/%", "/face/%zz.png", "/\udcff", "/" + "a" * 6000]


@pytest.mark.parametrize("path", ODD_PATHS, ids=range(len(ODD_PATHS)))
def test_every_odd_path_gets_an_answer(served, path):
    import socket

    _, _, server = served
    with socket.create_connection(server.server_address, timeout=5) as connection:
        connection.sendall(b"GET " + path.encode("utf-8", "surrogateescape") + b" HTTP/1.1\r\nHost: 127.0.0.1:"
                           + str(server.server_address[1]).encode() + b"\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.split()[1] in (b"400", b"404", b"414"), answer[:200]
    assert len(body) < 100


def test_a_state_query_fuzzed_always_answers(served):
    """Hypothesis: any query text at all gets a 200 or a 400, never a dropped connection."""
    from hypothesis import HealthCheck, given, settings, strategies as st
    from urllib.parse import quote

    _, _, server = served

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.text(max_size=40))
    def answers(value):
        status, _, _ = fetch(server, "/state.json?after=" + quote(value, safe=""))
        assert status in (200, 400)

    answers()


GOOD_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0L10 10" stroke="black"/></svg>'


def test_a_face_that_cannot_be_drawn_answers_and_shows_a_finding(make_game):
    """The SVG a face draws broken after the refresh laid it out (a save between the refresh and the page's
    request): the image request is answered, by a stand-in, and the page is told why."""
    folder = make_game({"face.yaml": "elements:\n  - {kind: image, x: 4, y: 4, w: 20, h: 20, src: art.svg}\n",
                        "art.svg": GOOD_SVG})
    preview = Preview(folder, Options())
    preview.refresh()
    shown = state(preview)
    assert not shown["findings"]
    (folder / "art.svg").write_text(GOOD_SVG[:-6])
    server = PreviewServer(preview, 0, wait=0.5)
    server.start()
    try:
        front = shown["decks"][0]["cards"][0]["front"]
        status, headers, body = fetch(server, f"/face/{front}.png")
        assert status == 200 and body.startswith(b"\x89PNG")
        assert headers["Cache-Control"] == "no-store"  # drawn again once the file is good
        status, _, body = fetch(server, f"/state.json?after={shown['version']}")
        told = json.loads(body)["findings"]
        assert [(f["code"], f["where"]) for f in told] == [("bad-image", "art.svg")]
        fixed = (folder / "art.svg")
        fixed.write_text(GOOD_SVG)
        preview.refresh([fixed])
        assert not state(preview)["findings"]
        status, headers, body = fetch(server, f"/face/{front}.png")
        assert status == 200 and headers["Cache-Control"] != "no-store"
    finally:
        server.shutdown()
        server.server_close()


def test_a_game_yaml_linked_out_of_the_folder_is_never_quoted(make_game, tmp_path):
    folder = make_game()
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0:SECRET-OF-THE-MACHINE:/root:/bin/bash\n")
    (folder / "game.yaml").unlink()
    (folder / "game.yaml").symlink_to(secret)
    preview = Preview(folder, Options())
    preview.refresh()
    assert b"SECRET" not in preview.state
    assert [(f["code"], f["where"].endswith("tiny/game.yaml")) for f in state(preview)["findings"]] == [
        ("file-outside-game", True)]


def test_a_cards_key_follows_every_field_of_card_but_its_places_even_one_added_later():
    from dataclasses import dataclass, fields, replace
    from pathlib import Path

    from generator.core.errors import Location
    from generator.core.model import Card
    from generator.preview.cards import card_key

    card = Card("Alpha", "alpha", 1, {"force": 3}, Location(Path("deck.yaml"), 2, 3),
                {"title": Location(Path("deck.yaml"), 2, 10)}, 0)
    other = {"title": "Beta", "id": "beta", "count": 2, "traits": {"force": 4}, "designed": True, "note": "x",
             "invalid": frozenset({"force"}), "set": "pack", "translated_title": "Bêta"}
    for name, value in other.items():
        assert card_key(replace(card, **{name: value})) != card_key(card), name
    # a card moved by lines added above it keeps its key: its faces are the same
    assert card_key(replace(card, where=Location(Path("deck.yaml"), 5), index=1,
                            field_where={"title": Location(Path("deck.yaml"), 5, 10)})) == card_key(card)
    assert {f.name for f in fields(Card)} == set(other) | {"where", "field_where", "index"}

    @dataclass(frozen=True)
    class Marked(Card):
        mark: str = ""

    marked = Marked(**{f.name: getattr(card, f.name) for f in fields(Card)})
    assert card_key(replace(marked, mark="new")) != card_key(marked)


def test_a_change_of_a_cards_set_lays_it_out_again(make_game):
    # a layout may print the set (Eastern Front marks an expansion's faces): the card's key follows it
    from conftest import FACE_YAML, GAME_YAML

    sets = "sets:\n  base: {}\n  pack: {}\n"
    folder = make_game({"game.yaml": patched(GAME_YAML, {"decks:\n": sets + "decks:\n"}),
                        "face.yaml": FACE_YAML + "  - {kind: text, x: 4, y: 70, w: 55, h: 8, text: \"{{ card.set }}\", "
                                                 "size: 10}\n"})
    preview = Preview(folder, Options(sets=("base", "pack")))
    preview.refresh()
    before = state(preview)["decks"][0]["cards"]
    game_yaml = folder / "game.yaml"  # the deck's set: nothing of the cards moves in their file
    game_yaml.write_text(patched(game_yaml.read_text(), {"    file: reds.yaml\n": "    file: reds.yaml\n    set: pack\n"}))
    preview.refresh([game_yaml])
    after = state(preview)["decks"][0]["cards"]
    assert all(old["front"] != new["front"] for old, new in zip(before, after))


def _without_version(preview: Preview) -> dict:
    shown = state(preview)
    del shown["version"]
    return shown


def test_a_refresh_after_each_save_shows_what_a_preview_started_afresh_shows(make_game):
    """A preview refreshed save after save (values, a key misspelt and mended, a title given twice and mended, lines added and taken
    away, a card added) keeps what it can from the last refresh, and shows what a new preview of the game shows."""
    cards = "".join(f"  - {{title: Card {n}, type: U, force: {n % 10}, fronts: E}}\n" for n in range(30))
    folder = make_game({"reds.yaml": "cards:\n" + cards})
    preview = Preview(folder, Options())
    preview.refresh()
    deck = folder / "reds.yaml"
    saves = [{"Card 7, type: U, force: 7": "Card 7, type: U, force: 8"},
             {"Card 9, type: U,": "Card 9, type: U, forse: 1,"},
             {"forse: 1, ": ""},
             {"Card 3,": "Card 12,"},  # a title given twice: found on the later card, which the save left as it was
             {"Card 12, type: U, force: 3": "Card 3, type: U, force: 3"},
             {"Card 12,": "Card twelve,"},
             {"  - {title: Card 20": "  # a note\n  - {title: Card 20"},
             {"  # a note\n": ""},
             {"  - {title: Card 3,": "  - {title: Card 3b, type: L, force: 3, fronts: W}\n  - {title: Card 3,"},
             {"  - {title: Card 1,": "  - {title: Card 1a, type: U, force: 1, fronts: W}\n  - {title: Card 1,"},
             {"  - {title: Card 3b, type: L, force: 3, fronts: W}\n": ""}]
    for save in saves:
        deck.write_text(patched(deck.read_text(), save))
        laid_out = preview.layouts.laid_out
        preview.refresh([deck])
        afresh = Preview(folder, Options())
        afresh.refresh()
        assert _without_version(preview) == _without_version(afresh)
        # a save lays out the one card it changed or added, or none (a card as it was before, or taken away): the
        # cards below lines added or taken away are only moved
        assert preview.layouts.laid_out <= laid_out + 1
    assert [f["code"] for f in state(preview)["findings"]] == ["deck-size"]  # 32 cards, and the deck says 3


def test_a_face_shown_all_along_is_kept_however_long_ago_it_was_asked_for(make_game):
    """A refresh asks for the keys of the faces it changed only: the faces the page shows all along are never the
    ones forgotten when the images are over their limit."""
    cards = "".join(f"  - {{title: Card {n}, type: U, force: {n % 10}, fronts: E}}\n" for n in range(20))
    folder = make_game({"reds.yaml": "cards:\n" + cards})
    preview = Preview(folder, Options())
    preview.images.limit = 44  # the 40 faces shown, and 4 more
    preview.refresh()
    deck = folder / "reds.yaml"
    for force in range(1, 9):
        deck.write_text(patched(deck.read_text(), {f"Card 0, type: U, force: {force - 1}": f"Card 0, type: U, force: {force}"}))
        preview.refresh([deck])
    assert len(preview.images.keys) == 44
    assert all(preview.images.png(card[side]) is not None
               for card in state(preview)["decks"][0]["cards"] for side in ("front", "back"))


def test_a_page_showing_the_version_before_is_sent_only_what_changed(served):
    """After a one-card save, a page at the version before gets that card and its new face's outlines, not the deck;
    a page at any other version (none, or an older one) gets the whole state."""
    folder, preview, server = served
    preview.refresh()
    shown = state(preview)
    (folder / "reds.yaml").write_text(patched((folder / "reds.yaml").read_text(), {"force: 3": "force: 4"}))
    preview.refresh([folder / "reds.yaml"])
    whole = state(preview)
    sent = json.loads(fetch(server, f"/state.json?after={shown['version']}")[2])
    assert (sent["after"], sent["version"]) == (shown["version"], whole["version"])
    deck = sent["decks"][0]
    assert "cards" not in deck and deck["splices"] == [[1, 1, [whole["decks"][0]["cards"][1]]]] and not deck["lines"]
    assert bench_preview.merged(shown, sent)["decks"] == whole["decks"]
    card = whole["decks"][0]["cards"][1]
    assert card["front"] in sent["outlines"] and set(sent["outlines"]) <= {card["front"], card["back"]}
    assert {key: sent[key] for key in ("title", "stale", "findings", "statistics")} == {
        key: whole[key] for key in ("title", "stale", "findings", "statistics")}
    for query in ("after=0", f"after={shown['version'] - 1}"):
        assert json.loads(fetch(server, "/state.json?" + query)[2]) == whole


def test_what_a_refresh_froze_and_later_dropped_in_a_cycle_is_collected_in_a_later_whole_pass():
    """The preview freezes what lives on after each refresh (preview/live._settle); a frozen object dropped later
    inside a reference cycle is collected by the pass over everything it makes every few saves, not kept for
    the whole session."""
    import gc
    import weakref

    from generator.preview import live

    class Node:
        pass

    first, second = Node(), Node()
    first.other, second.other = second, first
    watch = weakref.ref(first)
    try:
        live._settle(whole=False)
        del first, second
        live._settle(whole=False)
        assert watch() is not None  # frozen: the quick pass leaves it
        live._settle(whole=True)
        assert watch() is None
    finally:
        gc.unfreeze()


_VALUES = st.lists(st.sampled_from(["fronts: [E, W]", "year: 1941", "year: 1990", "forse: 1", "# said", "note: a"]),
                   max_size=3, unique_by=lambda value: value.split(":")[0])


def _entry(title: str, force: int, values: list[str]) -> list[str]:
    """A card's lines in block style: its title, type and force, and `values`."""
    return [f"  - title: {title}", "    type: U", f"    force: {force}", *(f"    {value}" for value in values)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cards=st.lists(st.tuples(st.sampled_from([2, 7]), _VALUES), min_size=2, max_size=7),
       edits=st.lists(st.tuples(st.integers(0, 20), st.sampled_from(["card", "block card", "twice", "drop", "line",
                                                                     "unline", "comment"]), _VALUES),
                      min_size=1, max_size=4))
def test_the_page_follows_saves_to_every_findings_file_and_line(make_game, cards, edits):
    """Cards added (one line or several, a title given twice), taken away, lines added to a card or taken from it,
    anywhere in the deck, with values out of range and unknown keys (none that stops a layout, which keeps a deck's last
    good faces where a preview started afresh has none): the state the page makes of each update (bench's
    Python mirror of page.js) shows every card, its places and its findings as a preview started afresh shows them."""
    entries = [_entry(f"Card {n}", force, values) for n, (force, values) in enumerate(cards)]
    folder = make_game({"reds.yaml": "cards:\n" + "".join(line + "\n" for entry in entries for line in entry)})
    preview = Preview(folder, Options())
    preview.refresh()
    page = state(preview)
    for number, (at, how, values) in enumerate(edits):
        place = at % (len(entries) + 1)
        if how == "card":
            entries.insert(place, [f"  - {{title: New {number}, type: U, force: {at % 10}}}"])
        elif how in ("block card", "twice"):
            entries.insert(place, _entry("Card 0" if how == "twice" else f"New {number}", at % 10, values))
        elif how == "drop" and len(entries) > 1:
            del entries[place % len(entries)]
        elif how in ("line", "comment") and len(entries[place % len(entries)]) > 1:  # a card in block style
            entry = entries[place % len(entries)]
            noted = how == "comment" or any(line.startswith("    note:") for line in entry)
            entry.insert(1 + at % len(entry), f"    # added {number}" if noted else "    note: added")
        elif how == "unline":  # a line taken from a card, but its type and force, which its layouts need
            entry = entries[place % len(entries)]
            lines = [n for n, line in enumerate(entry) if n and not line.startswith(("    type:", "    force:"))]
            if lines:
                del entry[lines[at % len(lines)]]
        (folder / "reds.yaml").write_text("cards:\n" + "".join(line + "\n" for entry in entries for line in entry))
        preview.refresh([folder / "reds.yaml"])
        page = bench_preview.merged(page, json.loads(preview.wait(page["version"], 0)))
        afresh = Preview(folder, Options())
        afresh.refresh()
        whole = state(afresh)
        assert page["decks"] == whole["decks"] and page["findings"] == whole["findings"]
        assert ([bench_preview.places(card) for card in page["decks"][0]["cards"]]
                == [bench_preview.places(card) for card in whole["decks"][0]["cards"]])


def test_a_card_added_above_hundreds_sends_that_card_and_how_far_the_others_moved(make_game):
    """A card added at the top of 300, then taken away: each save parses and lays out that card alone, and the page
    is sent one splice and one move, not the 300 cards with their new lines; what it makes of them is the whole
    state."""
    cards = "".join(f"  - {{title: Card {n}, type: U, force: {n % 10}, fronts: E}}\n" for n in range(300))
    folder = make_game({"reds.yaml": "cards:\n" + cards})
    preview = Preview(folder, Options())
    preview.refresh()
    page = state(preview)
    for text, splice, move in (("  - {title: New, type: L, force: 1, fronts: W}\n" + cards, [0, 0, 1], [1, 301, 1]),
                               (cards, [0, 1, 0], [0, 300, -1])):
        laid_out = preview.layouts.laid_out
        (folder / "reds.yaml").write_text("cards:\n" + text)
        preview.refresh([folder / "reds.yaml"])
        assert preview.deck_files.parsed <= 1 and preview.layouts.laid_out - laid_out <= 1
        sent = json.loads(preview.wait(page["version"], 0))
        deck = sent["decks"][0]
        assert [[at, taken, len(put)] for at, taken, put in deck["splices"]] == [splice] and deck["lines"] == [move]
        page = bench_preview.merged(page, sent)
        assert page["decks"] == state(preview)["decks"]
