"""The page in the set-up step: it says what to lay out, in the page's language, and its
Confirm (PIN + CSRF, like every change) learns the bare table or says why not."""

from __future__ import annotations

import numpy as np
import pytest
from flask.testing import FlaskClient

from conftest import PIN, post
from firmware.appliance import Appliance
from referee.setup import Player
from vision.layout import load_layout
from vision.reader import Reader
from vision.render.table import TableRenderer
from web.announce import sentence
from web.app import create_app
from web.i18n import translations

PLAYERS = [Player("Anna", "white", "south"), Player("Bob", "black", "north")]
LAYOUT = load_layout(None)


@pytest.fixture(scope="module")
def bare_frame() -> np.ndarray:
    return TableRenderer(LAYOUT, seed=2).bare_frame(seed=0)


def setting_up() -> tuple[Appliance, Reader]:
    reader = Reader(LAYOUT)
    appliance = Appliance(PLAYERS, eyes=reader, camera="ok")
    return appliance, reader


def show(appliance: Appliance, reader: Reader, frame: np.ndarray) -> None:
    snapshot = reader.read(frame, 0.0)
    appliance.keep_frame(frame, snapshot)
    appliance.feed(snapshot)


def browser(appliance: Appliance, pin: bool = True, lang: str = "en") -> FlaskClient:
    client = create_app(appliance, pin=PIN).test_client()
    client.get(f"/?lang={lang}")
    if pin:
        assert post(client, "/api/pin", {"pin": PIN}).status_code == 200
    return client


def test_the_page_shows_the_step_and_its_confirm_learns_the_bare_table(
    bare_frame: np.ndarray,
) -> None:
    appliance, reader = setting_up()
    client = browser(appliance)
    state = client.get("/api/state").get_json()
    assert state["bare"]["step"] == "ask"
    page = client.get("/").get_data(as_text=True)
    assert 'id="bare-confirm"' in page
    show(appliance, reader, bare_frame)
    done = post(client, "/api/confirm", {})
    assert done.status_code == 200, done.get_json()
    assert [e["kind"] for e in done.get_json()["events"]] == ["bare-table"]
    assert client.get("/api/state").get_json()["bare"]["step"] == "learnt"
    assert reader.read(bare_frame, 0.4).reader == "reference"


def test_a_refused_confirm_is_a_409_with_the_reason_and_the_step_stays() -> None:
    appliance, reader = setting_up()
    client = browser(appliance)
    show(appliance, reader, np.full((648, 1152, 3), 40, np.uint8))
    refused = post(client, "/api/confirm", {})
    assert refused.status_code == 409
    assert "mat is not found" in refused.get_json()["error"]
    state = client.get("/api/state").get_json()
    assert state["bare"]["step"] == "ask" and state["bare"]["problem"] == "no-mat"


def test_confirming_the_step_needs_the_pin_and_the_token(bare_frame: np.ndarray) -> None:
    appliance, reader = setting_up()
    show(appliance, reader, bare_frame)
    stranger = browser(appliance, pin=False)
    assert post(stranger, "/api/confirm", {}).status_code == 401
    trusted = browser(appliance)
    assert trusted.post("/api/confirm", json={}).status_code in (401, 403)  # no CSRF token
    assert appliance.state()["bare"]["step"] == "ask" and reader.bare is None


def test_the_step_is_said_in_the_readers_language() -> None:
    ask = {"kind": "bare-ask", "step": "ask", "message": "Lay out the tiles ..."}
    assert sentence(ask, translations("en")) == ask["message"]
    assert sentence(ask, translations("de")).startswith("Legt nur die Provinzen")  # type: ignore[union-attr]
    refused = {"kind": "bare-refused", "problem": "no-mat", "message": "The mat ..."}
    for lang in ("de", "it", "hu", "fi"):
        said = sentence(refused, translations(lang)) or ""
        assert said and said != refused["message"], lang
    learnt = {"kind": "bare-table", "step": "learnt", "message": "Now set up ..."}
    assert "Kaiser" in (sentence(learnt, translations("de")) or "")
