"""The advisor on the page: training mode is a state change (PIN + CSRF), advice is
read-only but answers only in training mode, and hubs without an advisor hide it."""

from __future__ import annotations

from flask.testing import FlaskClient
from web_openapi_check import check

from conftest import post
from web.preview import PreviewHub


def english_words(text: str) -> set[str]:
    """English words left in ``text``: the languages' check of the referee's words
    (``tests/advisor/advisor_languages.py``), loaded from its file."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "advisor" / "advisor_languages.py"
    spec = importlib.util.spec_from_file_location("_advisor_languages", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    found: set[str] = module.english_words(text)
    return found


def _to_cubes(hub: PreviewHub) -> None:
    """Play on until a player is about to play cubes (the only time a hint exists)."""
    while not (hub.game.phase.value == "action" and hub.game.step.value == "cubes"):
        hub.advance()


def test_training_needs_the_pin_and_the_csrf_token(client: FlaskClient, hub: PreviewHub) -> None:
    answer = post(client, "/api/training", {"on": True})
    assert answer.status_code == 401 and "PIN" in answer.get_json()["error"]
    answer = client.post("/api/training", json={"on": True})  # no CSRF token
    assert answer.status_code == 403 and "CSRF" in answer.get_json()["error"]
    assert hub.training is False
    assert client.get("/api/state").get_json()["training"] is False


def test_bad_training_bodies_are_400(trusted: FlaskClient, hub: PreviewHub) -> None:
    for body in ({}, {"on": "yes"}, {"on": 1}, {"on": None}):
        answer = post(trusted, "/api/training", body)
        assert answer.status_code == 400, body
        assert "on must be true or false" in answer.get_json()["error"]
        check("/api/training", "post", 400, answer.get_json())
    answer = trusted.post(
        "/api/training",
        data="on",
        headers={"X-CSRF-Token": trusted.get("/api/session").get_json()["csrf"]},
        content_type="text/plain",
    )
    assert answer.status_code == 400
    assert hub.training is False


def test_advice_is_refused_while_training_mode_is_off(client: FlaskClient) -> None:
    answer = client.get("/api/advice")
    assert answer.status_code == 409
    assert "training mode" in answer.get_json()["error"]
    check("/api/advice", "get", 409, answer.get_json())


def test_training_on_then_advice_then_off(trusted: FlaskClient, hub: PreviewHub) -> None:
    _to_cubes(hub)
    answer = post(trusted, "/api/training", {"on": True})
    assert answer.status_code == 200 and answer.get_json() == {"training": True}
    check("/api/training", "post", 200, answer.get_json())
    assert trusted.get("/api/state").get_json()["training"] is True

    answer = trusted.get("/api/advice")  # reading: no PIN or token needed
    assert answer.status_code == 200
    advice = answer.get_json()
    check("/api/advice", "get", 200, advice)
    assert answer.headers["Cache-Control"] == "no-store"
    assert set(advice) >= {"threats", "exposure", "hint", "alternatives"}
    hint = advice["hint"]
    assert hint["player"] == hub.game.to_move
    assert "\n" not in hint["why"] and hint["why"]
    assert len(advice["exposure"]) == len(hub.state()["units"])
    acting = {t["player"] for t in advice["threats"]["units"] + advice["threats"]["colours"]}
    assert acting <= {p.name for p in hub.game.players}
    assert hint["reason"] == hint["why"]  # English: the why as it was

    # the page's hint line in Hungarian: the reason said again from the why's msgid
    hungarian = trusted.get("/api/advice?lang=hu").get_json()
    check("/api/advice", "get", 200, hungarian)
    assert hungarian["hint"]["why"] == hint["why"]  # the English field is kept
    reason = hungarian["hint"]["reason"]
    assert reason and reason != hint["why"] and "%(" not in reason
    assert not english_words(reason), reason
    assert all(h["reason"] != h["why"] for h in hungarian["alternatives"])

    assert post(trusted, "/api/training", {"on": False}).get_json() == {"training": False}
    assert trusted.get("/api/advice").status_code == 409


def test_no_hint_outside_the_cubes_step(trusted: FlaskClient, hub: PreviewHub) -> None:
    _to_cubes(hub)
    hub.advance()  # the cubes are played: the emperor moves next
    post(trusted, "/api/training", {"on": True})
    advice = trusted.get("/api/advice").get_json()
    check("/api/advice", "get", 200, advice)
    assert advice["hint"] is None and advice["alternatives"] == []


def test_training_is_announced_in_the_readers_language(
    trusted: FlaskClient, hub: PreviewHub
) -> None:
    from web.announce import sentence
    from web.i18n import translations

    post(trusted, "/api/training", {"on": True})
    event = next(e for _, e in hub.bus.since(0) if e.kind == "training").to_json()  # as sent
    assert (sentence(event, translations("en")) or "").startswith("Training mode on")
    assert (sentence(event, translations("de")) or "").startswith("Trainingsmodus an")


def test_a_new_game_starts_with_training_off(trusted: FlaskClient, hub: PreviewHub) -> None:
    post(trusted, "/api/training", {"on": True})
    players = [
        {"name": "A", "castles": "white", "seat": "south"},
        {"name": "B", "castles": "black", "seat": "north"},
    ]
    assert post(trusted, "/api/game", {"players": players}).status_code == 200
    assert trusted.get("/api/state").get_json()["training"] is False


def test_the_live_page_shows_the_panel_with_the_switch(
    trusted: FlaskClient, client: FlaskClient
) -> None:
    page = trusted.get("/").get_data(as_text=True)
    assert 'id="advisor"' in page and 'id="training"' in page and "Ask the advisor" in page
    assert 'id="training" disabled' not in page
    watching = client.get("/").get_data(as_text=True)
    assert 'id="training" disabled' in watching  # watching only: the switch is locked
    german = trusted.get("/?lang=de").get_data(as_text=True)
    assert "Trainingsmodus" in german and "Frag den Berater" in german


def test_a_hub_without_an_advisor_hides_the_panel(trusted: FlaskClient) -> None:
    class Plain:
        """Only the Hub protocol."""

    app = trusted.application
    real = app.extensions["carolus"].hub
    plain = Plain()
    for name in ("bus", "state", "majority", "majorities", "correct", "undo", "confirm", "press"):
        setattr(plain, name, getattr(real, name))
    app.extensions["carolus"].hub = plain
    extras = trusted.get("/api/session").get_json()["extras"]
    assert extras["set_training"] is False and extras["advice"] is False
    assert 'id="advisor"' not in trusted.get("/").get_data(as_text=True)
    answer = trusted.get("/api/advice")
    assert answer.status_code == 501 and "no advisor" in answer.get_json()["error"]
    assert post(trusted, "/api/training", {"on": True}).status_code == 501
