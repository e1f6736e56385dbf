"""Issue 16's leftovers on the page's side: the API document names the 413 (body too
large) and 421 (unknown Host) answers and the camera's 401, and the full settings file
in hardware/ shows the two [web] settings with their defaults (issue 15: the page)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from flask import Flask
from web_openapi_check import SPEC, check

ROOT = Path(__file__).resolve().parents[2]


def test_every_operation_documents_the_unknown_host_answer(app: Flask) -> None:
    for path, operations in SPEC["paths"].items():
        for method, operation in operations.items():
            assert "421" in operation["responses"], f"{method.upper()} {path}: no 421"
    answer = app.test_client().get("/api/state", headers={"Host": "rebound.example"})
    assert answer.status_code == 421
    check("/api/state", "get", 421, answer.get_json())


def test_every_post_documents_the_body_limit(app: Flask) -> None:
    for path, operations in SPEC["paths"].items():
        if "post" in operations:
            assert "413" in operations["post"]["responses"], f"POST {path}: no 413"
    answer = app.test_client().post(
        "/api/pin",
        data=b"{}",
        content_type="application/json",
        environ_overrides={"CONTENT_LENGTH": str(10**9)},
    )
    assert answer.status_code == 413
    check("/api/pin", "post", 413, answer.get_json())
    assert "413" in SPEC["info"]["description"] and "421" in SPEC["info"]["description"]


def test_the_camera_behind_the_pin_is_documented(camera_hub: object) -> None:
    from web.app import create_app

    app = create_app(camera_hub, pin="4321", camera_needs_pin=True)
    browser = app.test_client()
    for path in ("/api/camera.jpg", "/api/camera.mjpeg"):
        answer = browser.get(path)
        assert answer.status_code == 401
        check(path, "get", 401, answer.get_json())


def test_the_full_settings_file_has_the_web_settings_with_their_defaults() -> None:
    shown = (ROOT / "hardware" / "carolus.toml").read_text(encoding="utf-8")
    default = (ROOT / "firmware" / "default_config.toml").read_text(encoding="utf-8")
    web = tomllib.loads(shown)["web"]
    assert web["allowed_hosts"] == tomllib.loads(default)["web"]["allowed_hosts"] == ""
    assert web["camera_needs_pin"] is tomllib.loads(default)["web"]["camera_needs_pin"] is False
    for key in ("allowed_hosts", "camera_needs_pin"):  # each with its comment
        line = next(x for x in shown.splitlines() if x.startswith(key))
        assert "#" in line and len(line.split("#", 1)[1].strip()) > 20, line
