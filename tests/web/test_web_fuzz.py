"""Whatever a browser sends, the API answers with a status and a sentence — never a 500."""

from __future__ import annotations

from typing import Any

from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import PIN, csrf_of
from web.app import create_app
from web.auth import GuessLimit
from web.preview import PreviewHub

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-100, 100) | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "zone": st.sampled_from(["territory:3", "territory:0", "court:south", "reserve:x", "x"])
        | JSON,
        "counts": st.fixed_dictionaries(
            {c: st.integers(-2, 45) | JSON for c in ("red", "green", "yellow", "blue", "pink")}
        )
        | JSON,
        "players": st.lists(
            st.fixed_dictionaries(
                {
                    "name": st.text(max_size=30) | JSON,
                    "castles": st.sampled_from(["white", "black", "grey", "red"]) | JSON,
                    "seat": st.sampled_from(["south", "west", "north", "east", "up"]) | JSON,
                }
            ),
            max_size=5,
        )
        | JSON,
        "long": JSON,
        "pin": JSON,
    },
)
PATHS = st.sampled_from(
    [
        "/api/correction",
        "/api/undo",
        "/api/confirm",
        "/api/button/confirm",
        "/api/button/majorities",
        "/api/button/x",
        "/api/game",
        "/api/game/end",
        "/api/pin",
    ]
)

_APP: dict[str, Flask] = {}
#: These tests send many wrong PINs on purpose; the limits have their own tests.
_NO_LIMIT = GuessLimit(per_address=10**9, free=10**9)


def _app() -> Flask:
    if "app" not in _APP:
        _APP["app"] = create_app(PreviewHub(), pin=PIN)
        _APP["app"].extensions["carolus"].guard.limit = _NO_LIMIT
    return _APP["app"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=PATHS, body=FIELDS | JSON)
def test_any_body_gets_a_clear_answer(path: str, body: Any) -> None:
    browser = _app().test_client()
    browser.get("/")
    token = csrf_of(browser)
    browser.post("/api/pin", json={"pin": PIN}, headers={"X-CSRF-Token": token})
    answer = browser.post(path, json=body, headers={"X-CSRF-Token": token})
    assert answer.status_code in (200, 400, 401, 403, 409, 429), (path, body, answer.get_json())
    if answer.status_code != 200:
        assert answer.get_json()["error"]


@settings(max_examples=60, deadline=None)
@given(tail=st.text(min_size=1, max_size=10).filter(lambda s: "/" not in s and "?" not in s))
def test_any_path_piece_gets_a_clear_answer(tail: str) -> None:
    browser = _app().test_client()
    for path in (
        f"/api/majority/{tail}",
        f"/api/games/{tail}/record",
        f"/api/games/1/step/{tail}",
        f"/api/majorities?territory={tail}",
    ):
        answer = browser.get(path)
        assert answer.status_code in (200, 400, 404), (path, answer.status_code)


# ------------------------------------------------------------------ every route

#: The shapes that gave 500s (issue #16), and their neighbours.
NUMBERS = st.sampled_from(
    ["9" * 5000, str(2**63), str(2**64), "-1", "0", "1", "00000000000000000000001", "1e9"]
) | st.integers(-(2**70), 2**70).map(str)
ODD = NUMBERS | st.text(max_size=8) | st.sampled_from(["abc.1", "x." + "9" * 5000, "%00", ""])
DEEP = st.integers(20, 30_000).map(lambda n: "[" * n + "]" * n)
BODIES = st.sampled_from(["", "{}", "null", "{"]) | DEEP | DEEP.map(lambda d: '{"pin": ' + d + "}")
HEADERS = st.dictionaries(
    st.sampled_from(["Last-Event-ID", "Content-Type", "Origin", "Accept-Language", "Host"]),
    ODD,
    max_size=3,
)

_ROUTED: dict[str, Any] = {}


def _routed_app() -> tuple[Flask, list[tuple[str, str]]]:
    """An app with a game log and a camera, and every (method, rule) of its url_map."""
    if not _ROUTED:
        import atexit
        import shutil
        import tempfile
        from pathlib import Path

        from test_web_bounds import logged_game

        from conftest import TableHub

        folder = Path(tempfile.mkdtemp(prefix="carolus-fuzz-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        hub = TableHub(camera=b"\xff\xd8\xff\xd9")
        app = create_app(hub, log=logged_game(folder / "g.db"), pin=PIN)
        routes = [
            (method, rule.rule)
            for rule in app.url_map.iter_rules()
            for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})
            if not rule.rule.startswith("/static") and "mjpeg" not in rule.rule
        ]
        # wrong PINs among the bodies must not make the right one wait (test_web_guard)
        app.extensions["carolus"].guard.limit = _NO_LIMIT
        _ROUTED.update(app=app, routes=routes)
    return _ROUTED["app"], _ROUTED["routes"]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_route_survives_odd_numbers_bodies_and_headers(data: st.DataObject) -> None:
    """Huge, long and negative numbers in every path piece and query, deep JSON bodies
    and odd headers, on every route of the app: never a 5xx (streams are cut after
    their first bytes; the camera's endless stream is left out)."""
    app, routes = _routed_app()
    method, rule = data.draw(st.sampled_from(routes))
    path = rule
    for piece in ("<territory>", "<game_id>", "<step>", "<name>"):
        if piece in path:
            path = path.replace(piece, data.draw(NUMBERS | st.sampled_from(["1", "confirm"])))
    query = data.draw(st.sampled_from(["", "?territory=", "?since=", "?lang=", "?download="]))
    if query:
        query += data.draw(ODD).replace("&", "").replace("#", "")
    headers = data.draw(HEADERS)
    browser = app.test_client()
    token = csrf_of(browser)
    if data.draw(st.booleans()):  # half the browsers entered the PIN
        browser.post("/api/pin", json={"pin": PIN}, headers={"X-CSRF-Token": token})
    headers.setdefault("X-CSRF-Token", token)
    body = data.draw(BODIES) if method == "POST" else None
    try:
        answer = browser.open(
            path + query,
            method=method,
            data=body,
            headers={k: v.replace("\n", "").replace("\r", "") for k, v in headers.items()},
            content_type="application/json" if body is not None else None,
            buffered=False,
        )
    except ValueError:
        return  # the test client itself refuses to build such a request
    status = answer.status_code
    answer.close()
    assert status < 500, (method, path + query, headers, status, answer.get_data()[:200])
