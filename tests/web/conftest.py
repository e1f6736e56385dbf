"""Fixtures of the web tests: a hub over a real game (the club-night record replayed,
then self-play moves pushed), the app over it, browsers with and without the PIN, and a
real browser (Debian's chromium driven by Playwright) for the page's own tests."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from web.app import create_app
from web.preview import PreviewHub

PIN = "4321"

#: Debian's chromium (apt-get install -y chromium), which Playwright drives.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: Skips a module's tests where there is no chromium to drive.
needs_chromium = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is absent (apt-get install -y chromium)"
)


class TableHub(PreviewHub):
    """The preview hub (club-night replayed + self-play) with a fake camera."""

    def __init__(self, camera: bytes | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.frame = camera
        self.calibrations = 0

    def camera_jpeg(self) -> bytes | None:
        return self.frame

    def calibrate(self) -> dict[str, Any]:
        self.calibrations += 1
        return {"ok": True, "message": "calibrated"}

    def camera_overlay(self) -> dict[str, Any]:
        return {
            "size": [640, 480],
            "zones": [
                {
                    "zone": "territory:1",
                    "polygon_px": [[10, 10], [60, 10], [60, 60]],
                    "counts": self.state()["territories"]["1"]["cubes"],
                }
            ],
        }


@pytest.fixture
def hub() -> PreviewHub:
    """A plain hub (no camera, but it can start games)."""
    return PreviewHub()


@pytest.fixture
def app(hub: PreviewHub) -> Flask:
    return create_app(hub, pin=PIN)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A browser that opened the page but never entered the PIN."""
    browser = app.test_client()
    browser.get("/")
    return browser


def csrf_of(browser: FlaskClient) -> str:
    token: str = browser.get("/api/session").get_json()["csrf"]
    return token


def post(browser: FlaskClient, path: str, body: Any = None, **headers: str) -> Any:
    """A POST as the page's script sends it: JSON plus the CSRF token."""
    sent = {"X-CSRF-Token": csrf_of(browser), **headers}
    return browser.post(path, json=body if body is not None else {}, headers=sent)


@pytest.fixture
def trusted(app: Flask) -> FlaskClient:
    """A browser that entered the PIN."""
    browser = app.test_client()
    browser.get("/")
    answer = post(browser, "/api/pin", {"pin": PIN})
    assert answer.status_code == 200, answer.get_json()
    return browser


def sse_messages(text: str) -> list[dict[str, str]]:
    """Parse SSE text into messages ({"id", "data"})."""
    out = []
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            m = re.match(r"^(id|data|event|retry): ?(.*)$", line)
            if m:
                fields[m.group(1)] = m.group(2)
        if "data" in fields:
            out.append(fields)
    return out


@pytest.fixture
def camera_hub() -> Iterator[TableHub]:
    yield TableHub(camera=b"\xff\xd8fake-jpeg\xff\xd9")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Chromium, headless, once for every browser test (each opens its own pages)."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is absent (apt-get install -y chromium)")
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
