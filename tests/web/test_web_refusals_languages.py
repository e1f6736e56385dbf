"""The HTTP API's refusals in the reader's language (issue 17): the body sent wrong, new
players, the game log's ids, a missing camera or log (404/503), the PIN and the CSRF
token (401/403), the host (421). On a Hungarian table
(or a page asked in Hungarian) the sentence is Hungarian; the JSON is ``{"error": …}``
as `web/openapi.json` says, and in English the words are what they always were."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask.testing import FlaskClient
from web_openapi_check import check

from conftest import PIN, post
from firmware.appliance import Appliance
from firmware.gamelog.store import GameLog
from referee.setup import Player
from web.app import create_app

PLAYERS = [Player("Anna", "white", "south"), Player("Bob", "black", "north")]


def table(language: str, *, pin: bool = True, **options: Any) -> FlaskClient:
    """A browser of a table whose settings say ``language`` (no ``?lang=`` asked)."""
    client = create_app(Appliance(PLAYERS), pin=PIN, language=language, **options).test_client()
    client.get("/")
    if pin:
        assert post(client, "/api/pin", {"pin": PIN}).status_code == 200
    return client


def refused(answer: Any, status: int, path: str, method: str = "get") -> str:
    """The refusal's sentence, after checking its status and its JSON's shape."""
    body = answer.get_json()
    assert answer.status_code == status, body
    assert set(body) == {"error"}, body
    check(path, method, status, body)
    text: str = body["error"]
    return text


def test_a_body_and_new_players_sent_wrong_are_explained_in_hungarian() -> None:
    hu, en = table("hu"), table("en")
    for client, words in [
        (hu, "a(z) players 2–4 játékosból álló lista legyen"),
        (en, "players must be a list of 2 to 4 players"),
    ]:
        answer = post(client, "/api/game", {"players": "Anna"})
        assert refused(answer, 400, "/api/game", "post") == words
    players = [
        {"name": "Cleo", "castles": "grey", "seat": "up"},
        {"name": "Dirk", "castles": "black", "seat": "east"},
    ]
    answer = post(hu, "/api/game", {"players": players})
    assert refused(answer, 400, "/api/game", "post") == (
        "a(z) players[0].seat ezek egyike legyen: south, west, north, east, nem 'up'"
    )
    answer = post(en, "/api/game", {"players": players})
    assert refused(answer, 400, "/api/game", "post") == (
        "players[0].seat must be one of south, west, north, east, not 'up'"
    )
    sent = {"X-CSRF-Token": hu.get("/api/session").get_json()["csrf"]}
    answer = hu.post("/api/game", data="{nope", content_type="application/json", headers=sent)
    assert refused(answer, 400, "/api/game", "post") == "a kérés törzse nem érvényes JSON"
    answer = hu.post("/api/game", data="[]", content_type="application/json", headers=sent)
    assert refused(answer, 400, "/api/game", "post") == "a kérés törzse JSON-objektum legyen"
    answer = hu.post("/api/game", data="{}", content_type="text/plain", headers=sent)
    assert refused(answer, 400, "/api/game", "post") == (
        "JSON-t küldj ezzel: Content-Type: application/json"
    )


def test_the_game_logs_ids_and_a_missing_log_in_hungarian(tmp_path: Path) -> None:
    hu = table("hu", pin=False)
    answer = hu.get("/api/games/1/record")
    assert refused(answer, 404, "/api/games/{id}/record") == "ez a készülék nem vezet játéknaplót"
    logged = table("hu", pin=False, log=GameLog(tmp_path / "log.db"))
    answer = logged.get("/api/games/abc/record")
    assert refused(answer, 400, "/api/games/{id}/record") == (
        "a játék azonosítója 1 és 9223372036854775807 közötti szám, nem 'abc'"
    )
    answer = logged.get("/api/games/99/record")
    assert refused(answer, 404, "/api/games/{id}/record") == (
        "a játéknaplóban nincs 99 azonosítójú játék"
    )
    english = table("en", pin=False, log=GameLog(tmp_path / "log2.db"))
    answer = english.get("/api/games/99/record")
    assert refused(answer, 404, "/api/games/{id}/record") == "no game 99 in the game log"
    answer = english.get("/api/games/abc/record")
    assert refused(answer, 400, "/api/games/{id}/record") == (
        "a game id is a number from 1 to 9223372036854775807, not 'abc'"
    )


def test_the_pin_and_the_token_are_asked_for_in_hungarian() -> None:
    hu = table("hu", pin=False)
    answer = post(hu, "/api/undo")
    assert refused(answer, 401, "/api/undo", "post") == (
        "előbb meg kell adni a készüléken látható PIN-kódot"
    )
    answer = post(hu, "/api/pin", {"pin": "0000"})
    assert refused(answer, 403, "/api/pin", "post") == (
        "hibás PIN-kód: a készüléken látható PIN-kódot kell megadni"
    )
    answer = hu.post("/api/undo", json={})  # no CSRF token
    assert refused(answer, 403, "/api/undo", "post") == (
        "hiányzó vagy hibás X-CSRF-Token: töltsd újra az oldalt"
    )
    # the page asked in another language answers in it, over the table's
    answer = post(hu, "/api/undo?lang=de")
    assert refused(answer, 401, "/api/undo", "post") == (
        "gib zuerst die PIN ein, die das Gerät zeigt"
    )
    english = table("en", pin=False)
    answer = post(english, "/api/pin", {"pin": "0000"})
    assert refused(answer, 403, "/api/pin", "post") == (
        "wrong PIN: enter the PIN shown on the appliance"
    )


def test_a_missing_camera_picture_and_the_calibration_in_hungarian() -> None:
    hu = table("hu")
    answer = hu.get("/api/camera.jpg")
    assert refused(answer, 503, "/api/camera.jpg") == "a kamerának még nincs képe"
    answer = post(hu, "/api/calibrate")
    assert answer.status_code == 200
    assert answer.get_json() == {"ok": False, "message": "Ennek a készüléknek nincs kamerája."}
    assert post(table("en"), "/api/calibrate").get_json() == {
        "ok": False,
        "message": "This appliance has no camera.",
    }


def test_a_wrong_host_in_hungarian() -> None:
    hu = table("hu", pin=False)
    answer = hu.get("/api/state", headers={"Host": "evil.example"})
    text = refused(answer, 421, "/api/state")
    assert text.startswith("ez a készülék nem válaszol a(z) 'evil.example' névre: ")
    assert text.endswith("vedd fel a nevet ide: web.allowed_hosts")
