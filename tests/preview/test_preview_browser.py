"""muster preview in a real browser: Debian's chromium, headless, driven by selenium through chromedriver.

Needs /usr/bin/chromium and /usr/bin/chromedriver (`apt-get install chromium chromium-driver`); skipped without
them. A screenshot of each state goes to the temporary folder, for looking at.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
from pathlib import Path

import pytest

from conftest import patched
from generator.core.options import Options
from generator.preview import live

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
HOSTILE = "<img src=x onerror=alert(1)>"
pytestmark = pytest.mark.skipif(not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
                                reason="needs Debian's chromium and its driver: apt-get install chromium chromium-driver")

REDS = ("cards:\n  - {title: Alpha, type: L, force: 2, fronts: A}\n"
        f'  - {{title: "{HOSTILE}", type: U, force: 3, fronts: E, count: 2}}\n'
        "  - {title: Charlie, type: U, force: 5, fronts: W}\n")


@pytest.fixture
def browser():
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="muster-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--window-size=1400,1000", f"--user-data-dir={profile}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def previewing(make_game):
    """The tiny game previewed by live.run in a thread, as `muster preview` runs it: (folder, url)."""
    folder = make_game({"reds.yaml": REDS, "game.yaml": _game_yaml(3 + 1)})
    said: list[str] = []
    stop = threading.Event()
    thread = threading.Thread(target=live.run, args=(folder, Options(), 0, False, said.append, stop), daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not said and time.monotonic() < deadline:
        time.sleep(0.05)
    assert said, "the preview never started"
    yield folder, said[0].split(" at ")[1].split()[0]
    stop.set()
    thread.join(10)


def _game_yaml(size: int) -> str:
    from conftest import GAME_YAML

    return patched(GAME_YAML, {"size: 3": f"size: {size}"})


def wait_for(driver, condition, seconds: float = 15):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds, poll_frequency=0.05).until(lambda d: condition())


def fronts(driver) -> list[str]:
    """Each card's front image, read in one script: the page may redraw between two reads of elements."""
    return driver.execute_script("return [...document.querySelectorAll('.card .face:first-child img')].map((i) => i.src)")


def texts(driver, selector: str) -> list[str]:
    return driver.execute_script("return [...document.querySelectorAll(arguments[0])].map((e) => e.textContent)",
                                 selector)


def shoot(driver, name: str) -> None:
    driver.save_screenshot(str(Path(tempfile.gettempdir()) / f"muster-preview-{name}.png"))


def test_the_page_follows_edits_breaks_and_fixes(browser, previewing):
    folder, url = previewing
    browser.get(url)
    wait_for(browser, lambda: len(browser.find_elements("css selector", ".card")) == 3)
    wait_for(browser, lambda: all(browser.execute_script(
        "return [...document.images].every((i) => i.complete && i.naturalWidth > 0)") for _ in [0]))
    titles = texts(browser, ".card figcaption .name")
    assert titles == ["Alpha", HOSTILE, "Charlie"]  # the hostile title is text, not an element
    assert not browser.find_elements("css selector", "figcaption img, img[src='x']")
    assert browser.execute_script("return document.body.dataset.version") == "1"
    shoot(browser, "first")
    before = fronts(browser)
    problems = texts(browser, "#findings li")  # the long title's back

    browser.execute_script("document.querySelectorAll('.card').forEach((figure) => { figure.dataset.old = 'yes'; })")
    (folder / "reds.yaml").write_text(patched(REDS, {"force: 5": "force: 7"}))
    wait_for(browser, lambda: fronts(browser) != before)
    after = fronts(browser)
    assert after[:2] == before[:2] and after[2] != before[2]  # only Charlie's face changed
    # only Charlie's figure drawn again: the page was sent Charlie alone, and kept the others as they were
    assert browser.execute_script(
        "return [...document.querySelectorAll('.card')].map((figure) => figure.dataset.old || '')") == ["yes", "yes", ""]

    (folder / "reds.yaml").write_text(patched(REDS, {"force: 5": "force: [7"}))  # broken YAML
    wait_for(browser, lambda: "stale" in browser.find_element("tag name", "body").get_attribute("class"))
    errors = texts(browser, "#findings li.error")
    assert errors and "reds.yaml" in errors[0]
    assert fronts(browser) == after  # the last good cards stay, marked stale
    assert browser.find_elements("css selector", "section.deck.stale")
    shoot(browser, "broken")

    (folder / "reds.yaml").write_text(patched(REDS, {"force: 5": "force: 8"}))
    wait_for(browser, lambda: "stale" not in browser.find_element("tag name", "body").get_attribute("class"))
    assert len(browser.find_elements("css selector", ".card")) == 3 and fronts(browser)[2] not in (before[2], after[2])
    assert texts(browser, "#findings li") == problems


def test_clicking_a_card_shows_its_data_and_hovering_names_the_layout_line(browser, previewing):
    from selenium.webdriver.common.action_chains import ActionChains

    _, url = previewing
    browser.get(url)
    wait_for(browser, lambda: len(browser.find_elements("css selector", ".card")) == 3)
    browser.find_elements("css selector", ".card")[2].click()
    wait_for(browser, lambda: browser.find_element("id", "details").is_displayed())
    rows = {row.find_element("tag name", "th").text: row.find_elements("tag name", "td")
            for row in browser.find_elements("css selector", "#details-data tbody tr")}
    assert rows["force"][0].text == "5" and rows["force"][1].text.endswith("reds.yaml:4:38")
    face = browser.find_elements("css selector", ".card .face:first-child")[2]
    ActionChains(browser).move_to_element_with_offset(face, 0, -face.size["height"] * 0.02).perform()
    wait_for(browser, lambda: browser.find_element("id", "tip").is_displayed())
    assert "face.yaml:4" in browser.find_element("id", "tip").text  # the force, drawn by the third element
    assert browser.find_elements("css selector", ".face .outline")
    shoot(browser, "details")


def details(browser, index: int) -> tuple[str, dict[str, str]]:
    """The place of card `index` and of each of its values, as its details show them once it is clicked."""
    figure = browser.find_elements("css selector", ".card")[index]
    browser.execute_script("arguments[0].click()", figure)  # the figure may lie under the details of another
    wait_for(browser, lambda: browser.find_element("id", "details").is_displayed())
    rows = {row.find_element("tag name", "th").text: row.find_elements("tag name", "td")[1].text
            for row in browser.find_elements("css selector", "#details-data tbody tr")}
    return browser.find_element("id", "details-where").text, rows


def test_a_card_added_and_taken_away_above_the_others_moves_their_places(browser, previewing):
    """A card added at the top (with a value out of range): the cards below keep their figures (but the one with a
    finding, which names its line) and show their new lines, the new card its finding at its line; taken away again,
    each is back at its line."""
    folder, url = previewing
    browser.get(url)
    wait_for(browser, lambda: len(browser.find_elements("css selector", ".card")) == 3)
    assert details(browser, 2) == ("reds.yaml:4:5", {"title": "reds.yaml:4:13", "count": "reds.yaml:4:5",
                                                     "type": "reds.yaml:4:28", "force": "reds.yaml:4:38",
                                                     "fronts": "reds.yaml:4:49"})
    browser.execute_script("document.querySelectorAll('.card').forEach((figure) => { figure.dataset.old = 'yes'; })")
    zero = "  - {title: Zero, type: U, force: 1, fronts: E, year: 1990}\n"
    (folder / "reds.yaml").write_text(REDS.replace("cards:\n", "cards:\n" + zero))
    wait_for(browser, lambda: len(browser.find_elements("css selector", ".card")) == 4)
    assert browser.find_element("id", "details-where").text == "reds.yaml:5:5"  # the open card, moved down a line
    # the new card drawn, and the long title, whose finding names its line; the others kept as they were
    assert browser.execute_script(
        "return [...document.querySelectorAll('.card')].map((figure) => figure.dataset.old || '')") == ["", "yes", "",
                                                                                                      "yes"]
    assert [text.split()[0] for text in texts(browser, ".card-findings li .where")] == [
        "reds.yaml:2:55", "reds.yaml:4:5"]  # the year out of range, and the long title's back
    place, values = details(browser, 3)
    assert (place, values["force"], values["fronts"]) == ("reds.yaml:5:5", "reds.yaml:5:38", "reds.yaml:5:49")
    shoot(browser, "added")
    (folder / "reds.yaml").write_text(REDS)
    wait_for(browser, lambda: len(browser.find_elements("css selector", ".card")) == 3)
    assert browser.find_element("id", "details-where").text == "reds.yaml:4:5"  # the open card, back up a line
    place, values = details(browser, 2)
    assert (place, values["force"], values["fronts"]) == ("reds.yaml:4:5", "reds.yaml:4:38", "reds.yaml:4:49")
    assert [text.split()[0] for text in texts(browser, ".card-findings li .where")] == ["reds.yaml:3:5"]


def test_statistics_and_test_draw_views(browser, previewing):
    _, url = previewing
    browser.get(url)
    wait_for(browser, lambda: len(browser.find_elements("css selector", ".card")) == 3)
    browser.find_element("css selector", "#views button[data-view='stats']").click()
    wait_for(browser, lambda: browser.find_element("id", "stats").is_displayed())
    assert not browser.find_element("id", "decks").is_displayed()
    values = texts(browser, ".trait[data-trait='type'] .bars .value")
    assert values == ["U", "L"]  # by copies: the hostile card's two and Charlie; Alpha
    widths = browser.execute_script("return [...document.querySelectorAll(\".trait[data-trait='type'] .fill\")]"
                                    ".map((f) => f.getBoundingClientRect().width)")
    assert widths[0] == pytest.approx(3 * widths[1], rel=0.02)  # 3 copies against 1
    assert texts(browser, ".trait[data-trait='force'] .column-labels span") == ["2", "3", "5"]
    assert not browser.find_elements("css selector", "#stats img[src='x']")
    shoot(browser, "statistics")

    browser.find_element("css selector", "#views button[data-view='draw']").click()
    hand = browser.find_element("id", "draw-hand")
    hand.clear()
    hand.send_keys("3")
    browser.find_element("css selector", "#deal button[type='submit']").click()
    wait_for(browser, lambda: len(browser.find_elements("css selector", "#hand .dealt")) == 3)
    wait_for(browser, lambda: browser.execute_script(
        "return [...document.querySelectorAll('#hand img')].every((i) => i.complete && i.naturalWidth > 0)"))
    first = texts(browser, "#hand figcaption")
    assert len(first) == 3 and set(first) <= {"Alpha", HOSTILE, "Charlie"} and first.count(HOSTILE) <= 2
    shoot(browser, "draw")
    browser.find_element("id", "redeal").click()
    wait_for(browser, lambda: browser.find_element("id", "draw-said").text.endswith("seed 2"))
    browser.find_element("id", "draw-seed").clear()
    browser.find_element("id", "draw-seed").send_keys("1")
    browser.find_element("css selector", "#deal button[type='submit']").click()
    wait_for(browser, lambda: browser.find_element("id", "draw-said").text.endswith("seed 1"))
    wait_for(browser, lambda: texts(browser, "#hand figcaption") == first)  # the same seed, the same hand
