"""Reading the live game over the API: state, majorities, display, and every answer as
web/openapi.json documents it."""

from __future__ import annotations

from flask.testing import FlaskClient
from web_openapi_check import SPEC, check

from web.preview import PreviewHub


def test_state_is_the_live_game(client: FlaskClient, hub: PreviewHub) -> None:
    answer = client.get("/api/state")
    assert answer.status_code == 200
    state = answer.get_json()
    check("/api/state", "get", 200, state)
    assert state["round"] == 2 and state["choosers"] == ["Bob"]
    hub.advance()  # Bob lays a disc
    assert client.get("/api/state").get_json()["choosers"] == ["Anna"]


def test_majorities_most_contested_first(client: FlaskClient, hub: PreviewHub) -> None:
    for _ in range(12):
        hub.advance()
    views = client.get("/api/majorities").get_json()
    check("/api/majorities", "get", 200, views)
    assert [v["margin"] for v in views] == sorted(v["margin"] for v in views)
    covered = sorted(t for v in views for t in v["territories"])
    assert covered == list(range(1, 16))


def test_majority_of_one_territory_explains_the_castle(client: FlaskClient) -> None:
    # club night: Anna's white castle stands on territory 6, she controls red and pink
    view = client.get("/api/majority/6").get_json()
    check("/api/majority/{territory}", "get", 200, view)
    white = next(s for s in view["sides"] if s["side"] == "white")
    assert view["owner"] == "white" and white["castles"] == 1 and view["outcome"] == "keep"
    assert client.get("/api/majorities?territory=6").get_json() == view


def test_bad_territory_is_a_clear_400(client: FlaskClient) -> None:
    for bad in ("0", "16", "x", "-1", "3.5"):
        answer = client.get(f"/api/majority/{bad}")
        assert answer.status_code == 400
        assert "territory must be a number from 1 to 15" in answer.get_json()["error"]
        check("/api/majority/{territory}", "get", 400, answer.get_json())
    assert client.get("/api/majorities?territory=99").status_code == 400


def test_display_png(client: FlaskClient) -> None:
    answer = client.get("/api/display.png")
    assert answer.status_code == 200 and answer.mimetype == "image/png"
    assert answer.data.startswith(b"\x89PNG")


def test_session_and_openapi(client: FlaskClient) -> None:
    session = client.get("/api/session").get_json()
    check("/api/session", "get", 200, session)
    assert session["trusted"] is False and session["extras"]["new_game"] is True
    assert session["extras"]["camera_jpeg"] is False
    assert client.get("/api/openapi.json").get_json()["paths"].keys() == SPEC["paths"].keys()


def test_every_api_route_is_documented(client: FlaskClient) -> None:
    app = client.application
    routes = {
        r.rule.replace("<", "{")
        .replace(">", "}")
        .replace("{game_id}", "{id}")
        .replace("{name}", "{name}")
        for r in app.url_map.iter_rules()
        if r.rule.startswith("/api/")
    }
    assert routes == set(SPEC["paths"])


def test_pages_render(client: FlaskClient) -> None:
    for page in ("/", "/history", "/camera", "/table"):
        answer = client.get(page)
        assert answer.status_code == 200, page
        assert b'<meta name="csrf"' in answer.data
    assert b'id="ring"' in client.get("/").data
    for asset in ("common.js", "board.js", "live.js", "style.css"):
        assert client.get(f"/static/{asset}").status_code == 200


def test_unknown_api_path_is_json_404(client: FlaskClient) -> None:
    answer = client.get("/api/nothing-here")
    assert answer.status_code == 404 and "error" in answer.get_json()


def test_hub_refusals_while_reading_are_not_500(client: FlaskClient, hub: PreviewHub) -> None:
    from firmware.hub import CommandError

    def refuse(*_: object) -> None:
        raise CommandError("the game has not started yet")

    hub.majority = refuse  # type: ignore[method-assign]
    hub.display_png = refuse  # type: ignore[method-assign]
    answer = client.get("/api/majority/3")
    assert answer.status_code == 409 and "not started" in answer.get_json()["error"]
    assert client.get("/api/display.png").status_code == 404


def test_unicode_digits_are_not_numbers(client: FlaskClient) -> None:
    for odd in ("¹", "٣", "３"):
        assert client.get(f"/api/majority/{odd}").status_code == 400
        assert client.get(f"/api/games/{odd}/record").status_code == 400
    assert client.get("/api/events", headers={"Last-Event-ID": "²"}).status_code == 400


def test_pages_allow_nothing_from_elsewhere(client: FlaskClient) -> None:
    page = client.get("/")
    policy = page.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    html = page.get_data(as_text=True)
    assert "http://" not in html and "https://" not in html  # no CDN, no fonts
    assert " onchange=" not in html and " onclick=" not in html  # no inline script
