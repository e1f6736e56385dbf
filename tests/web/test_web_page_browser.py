"""The page as a newcomer meets it (issue 15, "The page"), in Debian's chromium driven by
Playwright: every page fits a 390 px phone, the seats' marks are explained where they
stand, the camera names its zones in the page's language with labels that never cover
each other, a correction keeps its zone and names it in words, and a camera behind the
PIN says so instead of showing a broken picture."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import pytest

from conftest import TableHub, needs_chromium
from web.server import WebServer, serve

PIN = "2468"
PHONE = {"width": 390, "height": 844}

pytestmark = needs_chromium


def _jpeg(width: int = 640, height: int = 480) -> bytes:
    import cv2
    import numpy as np

    picture = np.full((height, width, 3), 90, np.uint8)
    ok, data = cv2.imencode(".jpg", picture)
    assert ok
    return bytes(data)


class CrowdedCamera(TableHub):
    """A camera that sees every zone of the mat, close together as on a real mat: the
    territories in a ring with less room than a label needs, the courts and reserves at
    the edges. ``scale`` makes the picture bigger (1.8: the appliance's 1152 px wide view)."""

    def __init__(self, scale: float = 1.0, **kw: Any) -> None:
        super().__init__(**kw)
        self.scale = scale

    def camera_overlay(self) -> dict[str, Any]:
        state = self.state()
        zones = []
        for n in range(1, 16):
            a = math.radians((n - 0.5) * 24 - 90)
            x, y = 320 + 150 * math.cos(a), 240 + 150 * math.sin(a)
            square = [[x - 28, y - 28], [x + 28, y - 28], [x + 28, y + 28], [x - 28, y + 28]]
            counts = state["territories"][str(n)]["cubes"]
            zones.append({"zone": f"territory:{n}", "polygon_px": square, "counts": counts})
        for i, seat in enumerate(("south", "west", "north", "east")):
            for j, kind in enumerate(("court", "reserve")):
                x, y = 40 + i * 150 + j * 70, 440
                box = [[x, y], [x + 60, y], [x + 60, y + 30], [x, y + 30]]
                zones.append({"zone": f"{kind}:{seat}", "polygon_px": box, "counts": {"red": 1}})
        for zone in zones:
            zone["polygon_px"] = [[x * self.scale, y * self.scale] for x, y in zone["polygon_px"]]
        return {"size": [round(640 * self.scale), round(480 * self.scale)], "zones": zones}


@pytest.fixture
def game_log(tmp_path: Path) -> Path:
    """A game log with one finished four-player game, for History."""
    from firmware.gamelog.store import GameLog
    from referee.game import Game
    from referee.selfplay import play_game, table_players

    played = play_game(table_players(4), random.Random(3))
    path = tmp_path / "games.sqlite3"
    with GameLog(path) as log:
        game_id = log.start_game(played.setup)
        game = Game(played.setup)
        for move in played.move_stack:
            log.step(game_id, move, game.push(move))
        log.finish(game_id)
    return path


def _server(hub: TableHub, **kw: Any) -> WebServer:
    return serve(hub, "127.0.0.1", 0, pin=PIN, **kw)


def _unlock(page: Any, server: WebServer) -> None:
    page.goto(server.url + "table")
    page.fill("#pin", PIN)
    page.click("#pin-form button")
    page.wait_for_selector("#controls", state="visible")


# Every element of the page (not the shapes inside a drawing) that is shown and reaches
# past the screen's left or right edge, even inside a box that scrolls sideways.
BEYOND = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const node of document.querySelectorAll("body *")) {
    if (node.closest(".sr") || (node.ownerSVGElement)) continue;
    const box = node.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    if (box.left < -0.5 || box.right > width + 0.5) {
      const name = `${node.tagName.toLowerCase()}#${node.id}.${node.className}`;
      out.push(`${name} ${Math.round(box.left)}..${Math.round(box.right)}`);
    }
  }
  return { width, scroll: document.documentElement.scrollWidth, out: out.slice(0, 8) };
}"""


def _fits(page: Any, where: str) -> None:
    found = page.evaluate(BEYOND)
    assert found["width"] == 390 and found["scroll"] <= 390, (where, found)
    assert not found["out"], (where, found["out"])


def _on_screen(page: Any, selector: str) -> None:
    """Shown, wholly within the screen's width, and not cut by its own box."""
    node = page.locator(selector).first
    assert node.is_visible(), selector
    box = node.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390.5, (selector, box)
    clipped = node.evaluate("n => n.scrollWidth > n.clientWidth + 1")
    assert not clipped, selector


def test_every_page_fits_a_phone(browser: Any, game_log: Path) -> None:
    hub = TableHub(camera=_jpeg(), seed=5)
    while not any(p["control"] for p in hub.state()["players"]):  # a ◆ to explain
        hub.advance()
    for _ in range(30):
        hub.advance()
    server = _server(hub, log=game_log)
    try:
        page = browser.new_page(bypass_csp=True, viewport=PHONE)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        _unlock(page, server)
        for lang, score in (("de", "Punkte:"), ("fi", "Pisteet:")):
            page.goto(f"{server.url}?lang={lang}")
            page.wait_for_selector("#contested tbody tr")
            page.wait_for_selector("#seats .seat")
            _fits(page, f"{lang} live")
            _on_screen(page, "#contested thead th:last-child")  # "Emperor would"
            page.wait_for_selector("#seats .seat-legend", timeout=5000)
            legend = page.inner_text("#seats .seat-legend")  # the marks, said in words
            assert "◆" in legend and score in legend and "40" in legend, legend
            assert page.locator("#seats .seat-legend").is_visible()

            page.goto(server.url + "history")
            page.wait_for_selector("#games tbody tr")
            _fits(page, f"{lang} history")
            _on_screen(page, "#games tbody tr button")  # Replay
            _on_screen(page, "#games tbody tr a[download]")  # Record
            page.locator("#games tbody tr button").first.click(no_wait_after=True)
            page.wait_for_selector("#castle-chart polyline")
            _fits(page, f"{lang} replay")
            assert page.locator("#games").bounding_box()["x"] >= 0  # not cut on the left
            _on_screen(page, "#games tbody tr button")

        page.goto(server.url + "camera")  # (in Finnish, the longest words)
        page.wait_for_selector("#zones .zone-row")
        _fits(page, "camera")
        page.goto(server.url + "table")
        page.wait_for_function("document.querySelectorAll('#zone option').length > 15")
        _fits(page, "corrections")
        _on_screen(page, "#correction button[type=submit]")
        assert not errors
    finally:
        server.stop()


def test_camera_zones_named_in_the_language_and_never_overlapping(browser: Any) -> None:
    hub = CrowdedCamera(camera=_jpeg())
    server = _server(hub)
    try:
        page = browser.new_page(bypass_csp=True, viewport={"width": 1280, "height": 900})
        page.goto(server.url + "camera?lang=fi")
        page.wait_for_function("document.querySelectorAll('#overlay polygon').length === 23")
        shown = page.evaluate("""() => [...document.querySelectorAll(
            '#overlay text.zone-label, #overlay-more li')].map((n) => {
              const b = n.getBoundingClientRect();
              return { zone: n.dataset.zone, text: n.textContent, svg: !!n.ownerSVGElement,
                       box: [b.left, b.top, b.right, b.bottom] };
            })""")
        assert sorted(s["zone"] for s in shown) == sorted(
            [f"territory:{n}" for n in range(1, 16)]
            + [f"{k}:{s}" for s in ("south", "west", "north", "east") for k in ("court", "reserve")]
        )
        assert sum(s["svg"] for s in shown) >= 12  # most at their zone, the rest listed
        texts = {s["zone"]: s["text"] for s in shown}
        assert not [t for t in texts.values() if "territory" in t or "court" in t], texts
        assert texts["territory:9"].startswith("alue 9")
        bob = next(p for p in hub.state()["players"] if p["name"] == "Bob")
        assert texts[f"court:{bob['seat']}"].startswith("Pelaajan Bob hovi · ")
        empty = next(
            s
            for s in ("south", "west", "north", "east")
            if s not in {p["seat"] for p in hub.state()["players"]}
        )
        assert "(" in texts[f"court:{empty}"] and "hovi" in texts[f"court:{empty}"]
        labels = [s["box"] for s in shown if s["svg"]]
        for i, a in enumerate(labels):
            for b in labels[i + 1 :]:
                apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
                assert apart, (a, b)
        # the referee's counts: the name, a separator, then the counts
        row = page.locator(f'#zones .zone-row[data-zone="court:{bob["seat"]}"]')
        assert row.text_content().startswith("Pelaajan Bob hovi: "), row.text_content()
    finally:
        server.stop()


ZONES = [f"territory:{n}" for n in range(1, 16)] + [
    f"{k}:{s}" for s in ("south", "west", "north", "east") for k in ("court", "reserve")
]

# What the camera view shows of each zone, measured as the reader sees it: the labels and
# keys on the picture and the list under it, each with its box and the height of its
# letters in CSS pixels (an SVG text's font size times the drawing's scale on the screen).
SHOWN = """() => [...document.querySelectorAll(
    '#overlay text.zone-label, #overlay text.zone-key, #overlay-more li')].map((n) => {
  const b = n.getBoundingClientRect();
  const scale = n.ownerSVGElement ? n.ownerSVGElement.getScreenCTM().d : 1;
  return { zone: n.dataset.zone, text: n.textContent, svg: !!n.ownerSVGElement,
           key: n.classList.contains("zone-key"),
           px: parseFloat(getComputedStyle(n).fontSize) * scale,
           box: [b.left, b.top, b.right, b.bottom] };
})"""


@pytest.mark.parametrize("lang", ["en", "de", "it", "hu", "fi"])
def test_camera_labels_readable_on_a_phone(browser: Any, lang: str) -> None:
    """Issue 15: on a 390 px phone the zone labels were sized in the camera's pixels and
    shrank with the picture (about 4 px high for the appliance's 1152 px wide view). Every
    zone is named in letters at least 11 CSS px high, on the picture or in the list under
    it, and nothing on the picture covers anything else."""
    hub = CrowdedCamera(scale=1.8, camera=_jpeg(1152, 864))
    server = _server(hub)
    try:
        page = browser.new_page(bypass_csp=True, viewport=PHONE)
        page.goto(f"{server.url}camera?lang={lang}")
        page.wait_for_function("document.querySelectorAll('#overlay polygon').length === 23")
        page.wait_for_function("document.getElementById('camera').naturalWidth === 1152")
        page.wait_for_function(
            "document.querySelectorAll('#overlay text.zone-label, #overlay-more li').length === 23"
        )
        _fits(page, f"{lang} camera")
        shown = page.evaluate(SHOWN)
        named = [s for s in shown if not s["key"]]
        assert sorted(s["zone"] for s in named) == sorted(ZONES), named  # each once
        small = [(s["zone"], round(s["px"], 1)) for s in shown if s["px"] < 11]
        assert not small, small
        tall = [s for s in shown if s["box"][3] - s["box"][1] < 11]
        assert not tall, tall
        drawn = [s["box"] for s in shown if s["svg"]]
        assert drawn, "nothing named on the picture"
        for i, a in enumerate(drawn):
            for b in drawn[i + 1 :]:
                apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
                assert apart, (a, b)
        # every zone listed under the picture is still marked on it, by its key
        listed = {s["zone"] for s in shown if not s["svg"]}
        keyed = {s["zone"] for s in shown if s["key"]}
        assert listed == keyed, (listed, keyed)
    finally:
        server.stop()


def test_a_correction_keeps_its_zone_and_names_it(browser: Any) -> None:
    hub = TableHub()
    server = _server(hub)
    try:
        page = browser.new_page(bypass_csp=True)
        _unlock(page, server)
        page.goto(server.url + "table?lang=de")
        page.wait_for_function("document.querySelectorAll('#zone option').length > 15")
        page.select_option("#zone", "territory:7")
        page.fill('#correction input[name="red"]', "3")
        page.click("#correction button[type=submit]")
        page.wait_for_function("document.getElementById('result').textContent !== ''")
        assert page.inner_text("#result") == "Korrigiert: Provinz 7"
        assert page.input_value("#zone") == "territory:7"
        assert page.input_value('#correction input[name="red"]') == "3"
        assert hub.state()["territories"]["7"]["cubes"]["red"] == 3
    finally:
        server.stop()


def test_a_camera_behind_the_pin_says_so(browser: Any) -> None:
    server = _server(TableHub(camera=_jpeg()), camera_needs_pin=True)
    try:
        page = browser.new_page(bypass_csp=True)
        page.goto(server.url + "camera")
        page.wait_for_selector("#camera-pin", state="visible")
        assert "Enter the PIN to see the camera" in page.inner_text("#camera-pin")
        assert page.locator("#camera").is_hidden()
        _unlock(page, server)
        page.goto(server.url + "camera")
        page.wait_for_function("document.getElementById('camera').naturalWidth === 640")
        assert page.locator("#camera-pin").is_hidden()
        page.close()
    finally:
        server.stop()


def test_history_says_when_it_cannot_read_the_game_log(browser: Any, tmp_path: Path) -> None:
    """Issue 15: History showed an empty table while ``/api/games`` failed. A log that
    cannot be read is said on the page, in the answer's own words."""
    bad = tmp_path / "games.sqlite3"
    bad.write_bytes(b"this is not sqlite" * 100)
    server = _server(TableHub(camera=_jpeg(), seed=5), log=bad)
    try:
        page = browser.new_page(bypass_csp=True)
        page.goto(server.url + "history")
        page.wait_for_selector("#logerror:not([hidden])", timeout=10_000)
        assert "cannot read the game log" in page.inner_text("#logerror")
        assert page.locator("#games tbody tr").count() == 0
    finally:
        server.stop()
