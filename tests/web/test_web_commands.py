"""Changing the game from the page: only after the PIN, only with the CSRF token, only
with valid input (400 naming the field), and the hub's refusals as 409."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from web_openapi_check import check

from conftest import PIN, csrf_of, post
from web.app import create_app
from web.preview import PreviewHub

COUNTS = {"red": 2, "green": 0, "yellow": 1, "blue": 0, "pink": 0}


def test_watching_needs_no_pin_but_changing_does(client: FlaskClient, hub: PreviewHub) -> None:
    before = hub.bus.last_id
    for path, body in [
        ("/api/correction", {"zone": "territory:3", "counts": COUNTS}),
        ("/api/undo", {}),
        ("/api/confirm", {}),
        ("/api/button/confirm", {}),
        ("/api/game/end", {}),
    ]:
        answer = post(client, path, body)
        assert answer.status_code == 401, path
        assert "PIN" in answer.get_json()["error"]
    assert hub.bus.last_id == before  # nothing happened


def test_wrong_pin_then_right_pin(client: FlaskClient) -> None:
    answer = post(client, "/api/pin", {"pin": "0000"})
    assert answer.status_code == 403 and "wrong PIN" in answer.get_json()["error"]
    check("/api/pin", "post", 403, answer.get_json())
    assert client.get("/api/session").get_json()["trusted"] is False
    answer = post(client, "/api/pin", {"pin": PIN})
    assert answer.status_code == 200
    assert client.get("/api/session").get_json()["trusted"] is True


def test_pin_is_needed_once_per_browser(app: Flask, trusted: FlaskClient) -> None:
    other = app.test_client()
    other.get("/")
    assert post(other, "/api/undo").status_code == 401
    assert post(trusted, "/api/confirm").status_code == 200


def test_guessing_the_pin_is_rate_limited(client: FlaskClient) -> None:
    for guess in ("1111", "2222", "3333", "4444", "5555"):
        assert post(client, "/api/pin", {"pin": guess}).status_code == 403
    answer = post(client, "/api/pin", {"pin": PIN})  # even the right one, for a minute
    assert answer.status_code == 429 and "wait" in answer.get_json()["error"]


def test_missing_or_foreign_csrf_is_refused(trusted: FlaskClient, hub: PreviewHub) -> None:
    before = hub.bus.last_id
    assert trusted.post("/api/confirm", json={}).status_code == 403
    wrong = trusted.post("/api/confirm", json={}, headers={"X-CSRF-Token": "forged"})
    assert wrong.status_code == 403 and "CSRF" in wrong.get_json()["error"]
    foreign = post(trusted, "/api/confirm", {}, Origin="http://evil.example")
    assert foreign.status_code == 403 and "evil.example" in foreign.get_json()["error"]
    assert hub.bus.last_id == before
    same = post(trusted, "/api/confirm", {}, Origin="http://localhost")
    assert same.status_code == 200


def test_the_pin_form_itself_needs_the_csrf_token(client: FlaskClient) -> None:
    assert client.post("/api/pin", json={"pin": PIN}).status_code == 403


def test_a_correction_changes_the_territory(trusted: FlaskClient, hub: PreviewHub) -> None:
    answer = post(trusted, "/api/correction", {"zone": "territory:3", "counts": COUNTS})
    assert answer.status_code == 200
    check("/api/correction", "post", 200, answer.get_json())
    assert answer.get_json()["territories"]["3"]["cubes"] == COUNTS
    assert hub.state()["territories"]["3"]["cubes"] == COUNTS
    kinds = [e.kind for _, e in hub.bus.since(0)]
    assert kinds[-2:] == ["corrected", "state"]


def test_a_correction_of_a_court(trusted: FlaskClient, hub: PreviewHub) -> None:
    counts = {"red": 0, "green": 1, "yellow": 0, "blue": 0, "pink": 0}
    answer = post(trusted, "/api/correction", {"zone": "court:north", "counts": counts})
    assert answer.status_code == 200, answer.get_json()
    bob = next(p for p in hub.state()["players"] if p["seat"] == "north")
    assert bob["court"] == counts


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({}, "zone must be text"),
        ({"zone": "territory:16", "counts": COUNTS}, "from 1 to 15"),
        ({"zone": "territory:x", "counts": COUNTS}, "from 1 to 15"),
        ({"zone": "court:east", "counts": COUNTS}, "seat must be one of south, north"),
        ({"zone": "board:1", "counts": COUNTS}, "must start with territory:"),
        ({"zone": "territory:3"}, "counts must be an object"),
        ({"zone": "territory:3", "counts": {**COUNTS, "purple": 1}}, "unknown colour 'purple'"),
        ({"zone": "territory:3", "counts": {"red": 1}}, "'green' is missing"),
        ({"zone": "territory:3", "counts": {**COUNTS, "red": -1}}, "counts.red must be"),
        ({"zone": "territory:3", "counts": {**COUNTS, "red": 41}}, "counts.red must be"),
        ({"zone": "territory:3", "counts": {**COUNTS, "red": "2"}}, "counts.red must be"),
        ({"zone": "territory:3", "counts": {**COUNTS, "red": True}}, "counts.red must be"),
        ({"zone": 7, "counts": COUNTS}, "zone must be text"),
    ],
)
def test_bad_corrections_are_400_with_the_field(
    trusted: FlaskClient, body: dict[str, object], words: str
) -> None:
    answer = post(trusted, "/api/correction", body)
    assert answer.status_code == 400
    assert words in answer.get_json()["error"]
    check("/api/correction", "post", 400, answer.get_json())


def test_non_json_bodies_are_400(trusted: FlaskClient) -> None:
    token = csrf_of(trusted)
    answer = trusted.post(
        "/api/correction",
        data="zone=territory:3",
        headers={"X-CSRF-Token": token},
        content_type="application/x-www-form-urlencoded",
    )
    assert answer.status_code == 400 and "JSON" in answer.get_json()["error"]
    answer = trusted.post(
        "/api/correction",
        data="[1, 2",
        headers={"X-CSRF-Token": token},
        content_type="application/json",
    )
    assert answer.status_code == 400
    answer = trusted.post(
        "/api/correction",
        data="[1, 2]",
        headers={"X-CSRF-Token": token},
        content_type="application/json",
    )
    assert answer.status_code == 400 and "JSON object" in answer.get_json()["error"]


def test_more_cubes_than_the_game_has_is_refused_by_the_hub(trusted: FlaskClient) -> None:
    big = {"red": 40, "green": 0, "yellow": 0, "blue": 0, "pink": 0}
    answer = post(trusted, "/api/correction", {"zone": "territory:3", "counts": big})
    assert answer.status_code == 409 and "more cubes" in answer.get_json()["error"]


def test_undo_takes_back_the_last_step(trusted: FlaskClient, hub: PreviewHub) -> None:
    hub.advance()
    hub.advance()  # both discs laid: the action phase begins
    assert hub.state()["phase"] == "action"
    answer = post(trusted, "/api/undo")
    assert answer.status_code == 200
    check("/api/undo", "post", 200, answer.get_json())
    assert answer.get_json()["phase"] == "opening"


def test_undo_with_nothing_to_undo_is_409(trusted: FlaskClient, hub: PreviewHub) -> None:
    hub.game.move_stack.clear()
    answer = post(trusted, "/api/undo")
    assert answer.status_code == 409 and "no step to undo" in answer.get_json()["error"]
    check("/api/undo", "post", 409, answer.get_json())


def test_buttons(trusted: FlaskClient, hub: PreviewHub) -> None:
    answer = post(trusted, "/api/button/majorities")
    assert answer.status_code == 200 and answer.get_json() == {"screen": "majorities"}
    assert post(trusted, "/api/button/confirm").status_code == 200
    assert hub.confirmed == 1
    bad = post(trusted, "/api/button/reset")
    assert bad.status_code == 400 and "no button 'reset'" in bad.get_json()["error"]
    bad = post(trusted, "/api/button/confirm", {"long": "yes"})
    assert bad.status_code == 400 and "long must be true or false" in bad.get_json()["error"]


def test_new_game_with_players_and_seats(trusted: FlaskClient, hub: PreviewHub) -> None:
    players = [
        {"name": "Eva", "castles": "white", "seat": "south"},
        {"name": "Feri", "castles": "black", "seat": "west"},
        {"name": "Gina", "castles": "grey", "seat": "north"},
    ]
    answer = post(trusted, "/api/game", {"players": players})
    assert answer.status_code == 200, answer.get_json()
    state = answer.get_json()
    assert [(p["name"], p["seat"]) for p in state["players"]] == [
        ("Eva", "south"),
        ("Feri", "west"),
        ("Gina", "north"),
    ]
    assert state["round"] == 1 and sum(state["players"][0]["reserve"].values()) == 9
    assert post(trusted, "/api/game/end").status_code == 200


@pytest.mark.parametrize(
    ("players", "words"),
    [
        (None, "list of 2 to 4 players"),
        ([{"name": "A", "castles": "white", "seat": "south"}], "list of 2 to 4"),
        ([{"name": "", "castles": "white", "seat": "south"}] * 2, "players[0].name"),
        (["Anna", "Bob"], "players[0] must be an object"),
        (
            [
                {"name": "A", "castles": "red", "seat": "south"},
                {"name": "B", "castles": "black", "seat": "north"},
            ],
            "players[0].castles",
        ),
        (
            [
                {"name": "A", "castles": "white", "seat": "up"},
                {"name": "B", "castles": "black", "seat": "north"},
            ],
            "players[0].seat",
        ),
        (
            [
                {"name": "A", "castles": "white", "seat": "south"},
                {"name": "A", "castles": "black", "seat": "north"},
            ],
            "two players have the name 'A'",
        ),
        (
            [
                {"name": "A", "castles": "white", "seat": "south"},
                {"name": "B", "castles": "black", "seat": "south"},
            ],
            "two players have the seat",
        ),
        (
            [
                {"name": "A", "castles": "white", "seat": "south"},
                {"name": "B", "castles": "white", "seat": "north"},
            ],
            "his own castle colour",
        ),
        (
            [
                {"name": n, "castles": "white", "seat": s}
                for n, s in zip("ABCD", ["south", "west", "north", "east"], strict=True)
            ],
            "two play white",
        ),
        (
            [
                {"name": "x" * 25, "castles": "white", "seat": "south"},
                {"name": "B", "castles": "black", "seat": "north"},
            ],
            "1 to 24 characters",
        ),
    ],
)
def test_bad_players_are_400(trusted: FlaskClient, players: object, words: str) -> None:
    answer = post(trusted, "/api/game", {"players": players})
    assert answer.status_code == 400
    assert words in answer.get_json()["error"]


def test_a_hub_that_cannot_start_games_says_so(trusted: FlaskClient, hub: PreviewHub) -> None:
    class Plain:
        """Only the Hub protocol."""

    app = trusted.application
    real = app.extensions["carolus"].hub
    plain = Plain()
    for name in (
        "bus",
        "state",
        "majority",
        "majorities",
        "correct",
        "undo",
        "confirm",
        "press",
        "display_png",
    ):
        setattr(plain, name, getattr(real, name))
    app.extensions["carolus"].hub = plain
    players = [
        {"name": "A", "castles": "white", "seat": "south"},
        {"name": "B", "castles": "black", "seat": "north"},
    ]
    answer = post(trusted, "/api/game", {"players": players})
    assert answer.status_code == 501 and "cannot start games" in answer.get_json()["error"]
    assert client_session_extras(trusted)["new_game"] is False


def client_session_extras(browser: FlaskClient) -> dict[str, bool]:
    extras: dict[str, bool] = browser.get("/api/session").get_json()["extras"]
    return extras


def test_non_ascii_pin_and_token_are_just_wrong(client: FlaskClient) -> None:
    assert post(client, "/api/pin", {"pin": "１２３４é"}).status_code == 403
    answer = client.post("/api/pin", json={"pin": PIN}, headers={"X-CSRF-Token": "jé"})
    assert answer.status_code == 403


def test_kept_keys_keep_a_browser_trusted_across_restarts(tmp_path: Path) -> None:
    from web.auth import kept_keys

    keys = tmp_path / "web-keys.json"
    pin, secret = kept_keys(keys)
    assert kept_keys(keys) == (pin, secret) and len(pin) == 6
    assert keys.stat().st_mode & 0o777 == 0o600
    first = create_app(PreviewHub(), pin=pin, secret_key=secret).test_client()
    first.get("/")
    assert post(first, "/api/pin", {"pin": pin}).status_code == 200
    cookie = first.get_cookie("carolus_session")
    assert cookie is not None
    restarted = create_app(PreviewHub(), pin=pin, secret_key=secret).test_client()
    restarted.set_cookie("carolus_session", cookie.value)
    assert restarted.get("/api/session").get_json()["trusted"] is True
    keys.write_text("{broken")  # a damaged file: new keys, kept from then on
    again = kept_keys(keys)
    assert again[0].isdigit() and len(again[1]) == 32 and kept_keys(keys) == again
