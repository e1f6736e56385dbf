"""Whatever a browser sends, the API answers with a status and a sentence — never a 500."""

from __future__ import annotations

from typing import Any

from conftest import PIN, csrf_of
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from web.app import create_app
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


def _app() -> Flask:
    if "app" not in _APP:
        _APP["app"] = create_app(PreviewHub(), pin=PIN)
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
