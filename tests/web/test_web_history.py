"""History from the game log: the list, each record as carolus-record/1, a step-through
replay and the charts — from a real SQLite log written by the same calls the appliance
makes, one game finished and one still running."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from web_openapi_check import check

from conftest import PIN
from firmware.gamelog.store import GameLog
from referee.check import judge
from referee.game import Game
from referee.record import parse
from referee.selfplay import play_game, table_players
from web.app import create_app
from web.preview import PreviewHub


def _log_game(log: GameLog, seed: int, players: int, moves: int | None) -> tuple[int, Game]:
    """Log a self-played game step by step; finished unless ``moves`` stops it early."""
    played = play_game(table_players(players), random.Random(seed))
    game_id = log.start_game(played.setup, t=1_790_000_000.0 + seed)
    game = Game(played.setup)
    for i, move in enumerate(played.move_stack[:moves]):
        log.step(game_id, move, game.push(move), t=1_790_000_000.0 + seed + i)
    if moves is None:
        log.finish(game_id, t=1_790_000_900.0 + seed)
    return game_id, game


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, Game, int, Game]:
    """Logged once for the module (every step is a synchronous commit)."""
    path = tmp_path_factory.mktemp("log") / "games.sqlite3"
    with GameLog(path) as log:
        done_id, done = _log_game(log, seed=3, players=2, moves=None)
        live_id, live = _log_game(log, seed=4, players=3, moves=40)
    return path, done_id, done, live_id, live


@pytest.fixture
def browser(logged: tuple[Path, int, Game, int, Game]) -> FlaskClient:
    app = create_app(PreviewHub(), log=logged[0], pin=PIN)
    return app.test_client()


def test_games_newest_first_with_their_result(
    browser: FlaskClient, logged: tuple[Path, int, Game, int, Game]
) -> None:
    _, done_id, done, live_id, _ = logged
    data = browser.get("/api/games").get_json()
    check("/api/games", "get", 200, data)
    assert data["log"] is True
    assert [g["id"] for g in data["games"]] == [live_id, done_id]
    finished = data["games"][1]
    assert finished["status"] == "finished" and finished["winner"] == done.winner
    assert [p["name"] for p in finished["players"]] == ["Anna", "Bob"]
    assert data["games"][0]["status"] == "running"


def test_record_download_is_a_legal_record_of_the_game(
    browser: FlaskClient, logged: tuple[Path, int, Game, int, Game]
) -> None:
    _, done_id, done, _, _ = logged
    answer = browser.get(f"/api/games/{done_id}/record")
    assert answer.status_code == 200
    assert f'filename="carolus-game-{done_id}.json"' in answer.headers["Content-Disposition"]
    data = json.loads(answer.data)
    check("/api/games/{id}/record", "get", 200, data)
    assert data["format"] == "carolus-record/1"
    verdict = judge(parse(data))
    assert verdict.legal and verdict.game is not None
    assert verdict.game.winner == done.winner and verdict.game.owners() == done.owners()


def test_a_running_game_has_a_record_so_far(
    browser: FlaskClient, logged: tuple[Path, int, Game, int, Game]
) -> None:
    live_id = logged[3]
    data = json.loads(browser.get(f"/api/games/{live_id}/record?download=0").data)
    verdict = judge(parse(data))
    assert verdict.legal and not verdict.game.is_over  # type: ignore[union-attr]


def test_replay_steps_through_the_game(
    browser: FlaskClient, logged: tuple[Path, int, Game, int, Game]
) -> None:
    _, done_id, done, _, _ = logged
    first = browser.get(f"/api/games/{done_id}/step/0").get_json()
    check("/api/games/{id}/step/{step}", "get", 200, first)
    assert first["steps"] == len(done.move_stack) and first["events"] == []
    assert first["state"]["round"] == 1 and first["state"]["phase"] == "opening"
    last = browser.get(f"/api/games/{done_id}/step/{first['steps']}").get_json()
    assert last["state"]["finished"] is True and last["state"]["winner"] == done.winner
    assert any("Game over" in text for text in last["events"])
    german = browser.get(f"/api/games/{done_id}/step/1?lang=de").get_json()
    assert "legt die Zahlenscheibe" in german["events"][0]


def test_charts_count_castles_and_colour_holders_per_round(
    browser: FlaskClient, logged: tuple[Path, int, Game, int, Game]
) -> None:
    _, done_id, done, live_id, live = logged
    charts = browser.get(f"/api/games/{done_id}/charts").get_json()
    check("/api/games/{id}/charts", "get", 200, charts)
    assert charts["rounds"] == list(range(1, done.round + 1))
    assert charts["sides"] == {"white": ["Anna"], "black": ["Bob"]}
    for side in ("white", "black"):
        assert charts["castles"][side][-1] == done.castles(side)
        assert len(charts["castles"][side]) == len(charts["rounds"])
    for colour, holders in charts["control"].items():
        assert holders[-1] == done.controller(colour)  # type: ignore[arg-type]
    running = browser.get(f"/api/games/{live_id}/charts").get_json()
    assert set(running["castles"]) == {"white", "black", "grey"}
    # every round ended so far, and the running one once a turn of it was played
    expected = live.round if live.last_turn_round == live.round else live.round - 1
    assert running["rounds"] == list(range(1, expected + 1))


@pytest.mark.parametrize(
    ("path", "status", "words"),
    [
        ("/api/games/999/record", 404, "no game 999"),
        ("/api/games/999/step/0", 404, "no game 999"),
        ("/api/games/999/charts", 404, "no game 999"),
        ("/api/games/abc/record", 400, "a game id is a number"),
        ("/api/games/1/step/x", 400, "a step is a number"),
        ("/api/games/1/step/100000", 400, "step must be from 0 to"),
    ],
)
def test_bad_history_requests(browser: FlaskClient, path: str, status: int, words: str) -> None:
    answer = browser.get(path)
    assert answer.status_code == status
    assert words in answer.get_json()["error"]


def test_without_a_log_the_history_is_empty(client: FlaskClient) -> None:
    assert client.get("/api/games").get_json() == {"log": False, "games": []}
    answer = client.get("/api/games/1/record")
    assert answer.status_code == 404 and "no game log" in answer.get_json()["error"]
    assert b'id="nolog"' in client.get("/history").data


def test_a_shared_log_object_is_accepted(
    logged: tuple[Path, int, Game, int, Game],
) -> None:
    with GameLog(logged[0]) as log:
        app = create_app(PreviewHub(), log=log, pin=PIN)
        assert len(app.test_client().get("/api/games").get_json()["games"]) == 2


def test_an_unreadable_log_file_is_503_not_500(tmp_path: Path) -> None:
    bad = tmp_path / "not-a-log.sqlite3"
    bad.write_bytes(b"this is not sqlite" * 100)
    app = create_app(PreviewHub(), log=bad, pin=PIN)
    answer = app.test_client().get("/api/games")
    assert answer.status_code == 503 and "cannot read the game log" in answer.get_json()["error"]
    assert answer.get_json()["error"] == (
        f"cannot read the game log: {bad}: cannot open the game log: file is not a database"
    )
    # the log's own reason in the reader's language too (issue 17); SQLite's words as they are
    hungarian = app.test_client().get("/api/games?lang=hu")
    assert hungarian.status_code == 503
    assert hungarian.get_json()["error"] == (
        f"a játéknapló nem olvasható: {bad}: a játéknapló nem nyitható meg: file is not a database"
    )
    german = app.test_client().get("/api/games?lang=de").get_json()["error"]
    assert german.startswith(f"das Spielprotokoll kann nicht gelesen werden: {bad}: ")
    assert "cannot" not in german
    assert bad.read_bytes().startswith(b"this is not sqlite")  # never moved aside or changed


def test_a_log_that_cannot_be_read_is_a_clear_503_never_a_500(tmp_path: Path) -> None:
    """Issue 15: after the log's file was made anew under the page, ``/api/games``
    answered 500 (``no such table: games``) and History showed an empty table. The page
    is told what went wrong, in one sentence it can show; the next question tries again."""
    import sqlite3

    path = tmp_path / "games.sqlite3"
    appliance_log = GameLog(path)  # the page reads beside the appliance's own log
    game_id, _ = _log_game(appliance_log, seed=3, players=2, moves=5)
    browser = create_app(PreviewHub(), log=appliance_log, pin=PIN).test_client()
    assert [g["id"] for g in browser.get("/api/games").get_json()["games"]] == [game_id]
    with sqlite3.connect(path) as other:  # the tables go while the page has the log open
        tables = [r[0] for r in other.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in tables:
            other.execute(f'DROP TABLE "{table}"')
    for url in ("/api/games", f"/api/games/{game_id}/record", f"/api/games/{game_id}/charts"):
        answer = browser.get(url)
        assert answer.status_code == 503, (url, answer.get_data(as_text=True))
        error = answer.get_json()["error"]
        assert error.startswith("cannot read the game log: "), error
        assert "Traceback" not in error and "something went wrong" not in error
    check("/api/games", "get", 503, browser.get("/api/games").get_json())
    appliance_log.close()
