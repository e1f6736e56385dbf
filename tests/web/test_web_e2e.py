"""End to end in a real browser (Debian's chromium driven by Playwright): the live page
follows the game without reloading, a tapped region shows its majority, the PIN unlocks
a correction, the language switches, and the README's screenshot is taken."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_advisor import english_words

from conftest import needs_chromium
from referee.events import CastleBuilt
from referee.table.events import Stamped, TableEvent
from web.preview import PreviewHub
from web.server import WebServer, serve

SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshot.png"
#: Set to refresh docs/screenshot.png (else it is written only when missing, so that a
#: test run leaves the work tree as it was).
REFRESH = "CAROLUS_SCREENSHOT"

pytestmark = needs_chromium


@pytest.fixture
def table() -> Iterator[tuple[PreviewHub, WebServer]]:
    hub = PreviewHub(seed=5)
    server = serve(hub, "127.0.0.1", 0, pin="2468")
    yield hub, server
    server.stop()


def said_in_english(events: list[TableEvent]) -> list[dict[str, Any]]:
    """The events as the page's stream sends them: their JSON and the English sentence."""
    from web.announce import sentence
    from web.i18n import translations

    sent = [e.to_json() for e in events]
    return [{**e, "text": sentence(e, translations("en"))} for e in sent]


def _castles(hub: PreviewHub) -> int:
    return sum(1 for u in hub.state()["units"] if u["owner"])


def test_live_page_follows_the_game(browser: Any, table: tuple[PreviewHub, WebServer]) -> None:
    hub, server = table
    page = browser.new_page(bypass_csp=True, viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url)
    page.wait_for_selector("#ring .unit")
    assert page.locator("#ring .castle").count() == _castles(hub)
    page.evaluate("window.reloaded = false")
    built = []
    while not built:  # play until the emperor builds a castle
        built = [
            e.engine
            for e in hub.advance()
            if isinstance(e, Stamped) and isinstance(e.engine, CastleBuilt)
        ]
    page.wait_for_function(f"window.carolus.lastEventId === {hub.bus.last_id}", timeout=2000)
    # (a castle that merges with its neighbour leaves the number of castles as it was)
    assert page.locator("#ring .castle").count() == _castles(hub)
    where = built[0].territories[0]
    owner = page.locator(f'#ring .unit:has([data-territory="{where}"])')
    assert owner.get_attribute("data-owner") == built[0].side
    assert "builds a castle" in page.inner_text("#announcements")
    assert page.evaluate("window.reloaded") is False  # updated in place
    # tap the castle's territory: its majority, side by side
    page.click(f'#ring [data-territory="{where}"]')
    panel = page.locator("#majority")
    panel.wait_for(state="visible", timeout=2000)
    side = built[0].side
    assert f"{side} keeps it" in panel.inner_text()
    assert page.locator("#majority .strengths tr").count() == 2
    # the contested table is drawn by a fetch 150 ms after the last event: wait for it
    page.wait_for_function("document.querySelectorAll('#contested tbody tr').length > 0",
                           timeout=3000)
    assert page.locator("#contested tbody tr").count() == len(hub.state()["units"])
    assert not errors


def test_pin_then_a_correction(browser: Any, table: tuple[PreviewHub, WebServer]) -> None:
    hub, server = table
    page = browser.new_page(bypass_csp=True)
    page.goto(server.url + "table")
    assert page.locator("#controls").is_hidden()
    page.fill("#pin", "1111")
    page.click("#pin-form button")
    page.wait_for_function("document.getElementById('pin-error').textContent.includes('wrong')")
    page.fill("#pin", server.pin)
    page.click("#pin-form button")
    page.wait_for_selector("#controls", state="visible")
    page.wait_for_function("document.querySelectorAll('#zone option').length > 15")
    page.select_option("#zone", "territory:3")
    for colour, n in {"red": 2, "green": 1, "yellow": 0, "blue": 0, "pink": 3}.items():
        page.fill(f'#correction input[name="{colour}"]', str(n))
    page.click("#correction button[type=submit]")
    page.wait_for_function("document.getElementById('result').textContent.includes('Corrected')")
    cubes = hub.state()["territories"]["3"]["cubes"]
    assert cubes == {"red": 2, "green": 1, "yellow": 0, "blue": 0, "pink": 3}
    page.reload()  # entered once per browser: still unlocked
    page.wait_for_selector("#controls", state="visible")


def test_training_mode_then_ask_the_advisor(
    browser: Any, table: tuple[PreviewHub, WebServer]
) -> None:
    hub, server = table
    while not (hub.game.phase.value == "action" and hub.game.step.value == "cubes"):
        hub.advance()
    page = browser.new_page(bypass_csp=True, viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url)
    page.wait_for_selector("#ring .unit")
    assert page.locator("#training").is_disabled()  # watching only: no switch
    assert page.locator("#ask").is_hidden()  # off by default
    page.goto(server.url + "table")
    page.fill("#pin", server.pin)
    page.click("#pin-form button")
    page.wait_for_selector("#controls", state="visible")
    page.goto(server.url)
    page.wait_for_selector("#ring .unit")
    page.check("#training")
    page.wait_for_selector("#ask", state="visible")
    assert hub.training is True
    assert page.locator("#advice").is_hidden()  # never unasked
    page.click("#ask")
    page.wait_for_selector("#advice", state="visible", timeout=5000)
    assert page.inner_text("#advice-hint").startswith(f"Hint for {hub.game.to_move}:")
    assert page.locator("#advice-threats li").count() >= 1
    assert page.locator("#advice-exposed li").count() == 3
    english = page.inner_text("#advice-hint")
    page.goto(server.url + "?lang=hu")  # the hint's reason in the page's language
    page.wait_for_selector("#ask", state="visible")
    page.click("#ask")
    page.wait_for_selector("#advice", state="visible", timeout=5000)
    hungarian = page.inner_text("#advice-hint")
    assert hungarian.startswith(f"Tipp {hub.game.to_move} számára:"), hungarian
    assert hungarian != english and "%(" not in hungarian
    assert not english_words(hungarian), hungarian
    hub.advance()  # the cubes are played: the answer is stale and goes away
    page.wait_for_selector("#advice", state="hidden", timeout=2000)
    page.uncheck("#training")
    page.wait_for_selector("#ask", state="hidden")
    assert hub.training is False
    assert not errors


def test_language_switch(browser: Any, table: tuple[PreviewHub, WebServer]) -> None:
    hub, server = table
    for _ in range(4):
        hub.advance()
    page = browser.new_page()  # with the page's own CSP (the others bypass it to poll)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text))
    page.goto(server.url)
    page.wait_for_selector("#ring .unit")
    page.select_option("#lang-select", "de")
    page.wait_for_selector("html[lang=de]")
    page.wait_for_selector("#announcements li")
    assert "Ansagen" in page.inner_text("main")
    assert "Zahlenscheibe" in page.inner_text("#announcements")
    page.goto(server.url + "history")  # remembered for the next page
    assert page.locator("html").get_attribute("lang") == "de"
    assert not [m for m in console if "Content Security Policy" in m]


def test_screenshot_for_the_readme(
    browser: Any, table: tuple[PreviewHub, WebServer], tmp_path: Path
) -> None:
    hub, server = table
    for _ in range(70):
        hub.advance()
    while not (hub.state()["phase"] == "action" and hub.state()["step"] == "emperor"):
        hub.advance()  # the reachable units show
    page = browser.new_page(bypass_csp=True, viewport={"width": 1400, "height": 1000})
    page.goto(server.url)
    page.wait_for_selector("#ring .unit.reachable")
    owned = next(u for u in hub.state()["units"] if u["owner"])
    page.click(f'#ring [data-territory="{owned["territories"][0]}"]')
    page.locator("#majority").wait_for(state="visible")
    page.wait_for_selector("#contested tbody tr")
    refresh = os.environ.get(REFRESH) or not SCREENSHOT.exists()
    target = SCREENSHOT if refresh else tmp_path / "screenshot.png"
    target.parent.mkdir(exist_ok=True)
    page.screenshot(path=str(target), full_page=False)
    assert target.stat().st_size > 20_000


def test_the_page_reconnects_by_itself_and_misses_nothing(
    browser: Any, table: tuple[PreviewHub, WebServer]
) -> None:
    hub, server = table
    page = browser.new_page(bypass_csp=True)
    page.goto(server.url)  # a fresh table: no event yet when the page connects
    page.wait_for_selector("#ring .unit")
    stopping = server.app.extensions["carolus"].stopping
    stopping.set()  # every stream ends, as when the appliance's Wi-Fi drops
    page.wait_for_function("document.getElementById('link').classList.contains('down')")
    said = [e for _ in range(3) for e in hub.advance()]  # the game goes on meanwhile
    stopping.clear()
    page.wait_for_function(f"window.carolus.lastEventId === {hub.bus.last_id}", timeout=5000)
    page.wait_for_function("!document.getElementById('link').classList.contains('down')")
    shown = page.locator("#announcements li").all_inner_texts()
    assert shown == [e["text"] for e in reversed(said_in_english(said))]


def test_history_replay_in_the_browser(browser: Any, tmp_path: Path) -> None:
    import random

    from firmware.gamelog.store import GameLog
    from referee.game import Game
    from referee.selfplay import play_game, table_players

    played = play_game(table_players(2), random.Random(3))
    with GameLog(tmp_path / "games.sqlite3") as log:
        game_id = log.start_game(played.setup)
        game = Game(played.setup)
        for move in played.move_stack:
            log.step(game_id, move, game.push(move))
        log.finish(game_id)
    server = serve(PreviewHub(), "127.0.0.1", 0, log=tmp_path / "games.sqlite3")
    try:
        page = browser.new_page(bypass_csp=True)
        page.goto(server.url + "history")
        page.click("#games tbody tr button")
        page.wait_for_selector("#castle-chart polyline")
        assert page.locator("#castle-chart polyline").count() == 2
        assert page.locator("#control-chart rect.held").count() == 5 * played.round
        page.click("#last")
        page.wait_for_function(
            "document.getElementById('step-events').textContent.includes('Game over')"
        )
        page.click("#prev")
        page.wait_for_function(
            f"document.getElementById('step').value === '{len(played.move_stack) - 1}'"
        )
        assert page.locator("#ring .castle").count() > 0
    finally:
        server.stop()


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_appliance_demo_in_the_browser(browser: Any, tmp_path: Path) -> None:
    import re
    import subprocess
    import sys
    import time

    carolus = Path(sys.executable).with_name("carolus")
    if subprocess.run([carolus, "run", "--help"], capture_output=True).returncode != 0:
        pytest.skip("this carolus has no `run` command yet")
    port = _free_port()
    run = subprocess.Popen(
        [
            carolus,
            "run",
            "--source",
            "demo",
            "--speed",
            "0",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--no-display",
            "--no-gpio",
            "--no-voice",
            "--db",
            str(tmp_path / "games.sqlite3"),
            "--seconds",
            "150",
            # a quarter of the default camera's pixels: the same demo, read faster
            "--set",
            "camera.resolution=[1152, 648]",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert run.stdout is not None
        deadline = time.monotonic() + 30
        found = None
        while found is None and time.monotonic() < deadline:
            found = re.search(
                r"Web page: (\S+)\s+\(PIN for corrections: (\d+)\)", run.stdout.readline()
            )
        assert found, "carolus run never said where its web page is"
        url, pin = found.groups()
        page = browser.new_page(bypass_csp=True, viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        page.wait_for_selector("#ring .unit")
        # the demo's table is read by the camera pipeline and refereed: its words arrive
        page.wait_for_function(
            "document.getElementById('announcements').textContent.includes('lays disc')",
            timeout=60_000,
        )
        # a castle the real vision saw built appears on the ring without a reload
        page.wait_for_selector(
            "#ring .unit[data-owner='white'], #ring .unit[data-owner='black']", timeout=90_000
        )
        assert page.evaluate("window.carolus.events") > 1
        page.click('#ring [data-territory="1"]')
        page.locator("#majority").wait_for(state="visible", timeout=5000)
        table = browser.new_page(bypass_csp=True)
        table.goto(url + "table")
        table.fill("#pin", pin)
        table.click("#pin-form button")
        table.wait_for_selector("#controls", state="visible")
        assert not errors
    finally:
        run.terminate()
        try:
            run.wait(10)
        except subprocess.TimeoutExpired:  # (it does not always stop on SIGTERM yet)
            run.kill()
            run.wait(10)
