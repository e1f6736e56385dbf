"""The eleven shapes of input that gave a 500 with a traceback (issue #16): numbers over
SQLite's 2^63, numbers over Python's 4300-digit limit, JSON nested 30,000 deep. Each is
now a 4xx that names the field; and a fault of the appliance itself is a JSON 500
without its internals."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from conftest import PIN, csrf_of, post
from firmware.gamelog.store import GameLog
from referee.game import Game
from referee.selfplay import play_game, table_players
from web.app import create_app
from web.preview import PreviewHub

HUGE = str(2**64)
LONG = "9" * 5000
DEEP = "[" * 30_000 + "]" * 30_000  # 60 KB: under the body limit


def logged_game(path: Path, moves: int = 12) -> Path:
    """A game log with one running game (id 1) of ``moves`` steps."""
    played = play_game(table_players(2), random.Random(5))
    with GameLog(path) as log:
        game_id = log.start_game(played.setup, t=1_790_000_000.0)
        game = Game(played.setup)
        for i, move in enumerate(played.move_stack[:moves]):
            log.step(game_id, move, game.push(move), t=1_790_000_001.0 + i)
    return path


@pytest.fixture(scope="module")
def log_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return logged_game(tmp_path_factory.mktemp("log") / "games.sqlite3")


@pytest.fixture
def browser(log_file: Path) -> FlaskClient:
    """A browser that entered the PIN, on a page with a game log."""
    app = create_app(PreviewHub(), log=log_file, pin=PIN)
    browser = app.test_client()
    browser.get("/")
    assert post(browser, "/api/pin", {"pin": PIN}).status_code == 200
    return browser


def _clear_refusal(answer: Any, *words: str) -> None:
    assert 400 <= answer.status_code < 500, (answer.status_code, answer.get_data()[:300])
    error = answer.get_json()["error"]
    assert "Traceback" not in error and len(error) < 300
    for word in words:
        assert word in error, error


@pytest.mark.parametrize(
    ("path", "field"),
    [
        (f"/api/games/{HUGE}/record", "game id"),
        (f"/api/games/{HUGE}/step/1", "game id"),
        (f"/api/games/{HUGE}/charts", "game id"),
        (f"/api/majority/{LONG}", "territory"),
        (f"/api/majorities?territory={LONG}", "territory"),
        (f"/api/games/{LONG}/record", "game id"),
        (f"/api/games/1/step/{LONG}", "step"),
        (f"/api/games/1/step/{HUGE}", "step"),
        (f"/api/events?since={LONG}", "since"),
    ],
)
def test_huge_and_long_numbers_name_the_field(browser: FlaskClient, path: str, field: str) -> None:
    _clear_refusal(browser.get(path), field)


def test_a_long_last_event_id_is_named(browser: FlaskClient) -> None:
    answer = browser.get("/api/events", headers={"Last-Event-ID": LONG})
    _clear_refusal(answer, "Last-Event-ID")


def test_a_long_territory_in_a_correction_is_named(browser: FlaskClient) -> None:
    counts = dict.fromkeys(("red", "green", "yellow", "blue", "pink"), 0)
    answer = post(browser, "/api/correction", {"zone": f"territory:{LONG}", "counts": counts})
    _clear_refusal(answer, "territory")


@pytest.mark.parametrize("path", ["/api/correction", "/api/pin"])
def test_deep_json_is_refused(browser: FlaskClient, path: str) -> None:
    for body in (DEEP, '{"pin": ' + DEEP + "}", '{"zone": ' + "[" * 20 + "]" * 20 + "}"):
        answer = browser.post(
            path,
            data=body,
            content_type="application/json",
            headers={"X-CSRF-Token": csrf_of(browser)},
        )
        _clear_refusal(answer, "nests deeper")


def test_a_long_value_is_not_repeated_whole(browser: FlaskClient) -> None:
    answer = post(browser, "/api/correction", {"zone": "x" * 60_000})
    _clear_refusal(answer, "zone")


class BrokenHub(PreviewHub):
    def state(self) -> dict[str, Any]:
        raise RuntimeError("secret internals /home/pi/carolus")


def test_a_fault_inside_is_a_json_500_without_internals() -> None:
    """The only test that expects a 500: the catch-all's own."""
    app: Flask = create_app(BrokenHub(), pin=PIN)
    answer = app.test_client().get("/api/state")
    assert answer.status_code == 500
    body = answer.get_data(as_text=True)
    assert answer.get_json()["error"]
    assert "secret internals" not in body and "Traceback" not in body
