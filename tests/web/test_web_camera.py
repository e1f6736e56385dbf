"""The camera page: the live picture (MJPEG) and its zones when the hub has a camera,
"no camera" when it has none, and calibration behind the PIN."""

from __future__ import annotations

from flask.testing import FlaskClient

from conftest import PIN, TableHub, post
from web.app import create_app


def _browser(hub: TableHub, pin: bool) -> FlaskClient:
    browser = create_app(hub, pin=PIN).test_client()
    browser.get("/")
    if pin:
        assert post(browser, "/api/pin", {"pin": PIN}).status_code == 200
    return browser


def test_without_a_camera_the_page_says_so(client: FlaskClient) -> None:
    page = client.get("/camera").get_data(as_text=True)
    assert 'id="nocamera"' in page and "No camera" in page and "camera.mjpeg" not in page
    for path in ("/api/camera.jpg", "/api/camera.mjpeg"):
        answer = client.get(path)
        assert answer.status_code == 404 and answer.get_json() == {"error": "no camera"}
    assert "Nincs kamera" in client.get("/camera?lang=hu").get_data(as_text=True)


def test_the_camera_picture_and_stream(camera_hub: TableHub) -> None:
    browser = _browser(camera_hub, pin=False)
    page = browser.get("/camera").get_data(as_text=True)
    assert 'src="/api/camera.mjpeg"' in page and 'id="calibrate"' in page
    frame = browser.get("/api/camera.jpg")
    assert frame.status_code == 200 and frame.mimetype == "image/jpeg"
    assert frame.data == camera_hub.frame
    stream = browser.get("/api/camera.mjpeg", buffered=False)
    assert stream.mimetype == "multipart/x-mixed-replace"
    part = next(iter(stream.response))
    stream.close()
    assert part.startswith(b"--frame\r\nContent-Type: image/jpeg\r\n")
    assert part.endswith(camera_hub.frame + b"\r\n")  # type: ignore[operator]


def test_no_picture_yet_is_503(camera_hub: TableHub) -> None:
    camera_hub.frame = None
    answer = _browser(camera_hub, pin=False).get("/api/camera.jpg")
    assert answer.status_code == 503 and "no picture yet" in answer.get_json()["error"]


def test_zones_drawn_over_the_picture(camera_hub: TableHub) -> None:
    overlay = _browser(camera_hub, pin=False).get("/api/camera/overlay").get_json()
    assert overlay["size"] == [640, 480] and overlay["zones"][0]["zone"] == "territory:1"


def test_calibration_needs_the_pin(camera_hub: TableHub) -> None:
    assert post(_browser(camera_hub, pin=False), "/api/calibrate").status_code == 401
    assert camera_hub.calibrations == 0
    answer = post(_browser(camera_hub, pin=True), "/api/calibrate")
    assert answer.status_code == 200 and answer.get_json()["ok"] is True
    assert camera_hub.calibrations == 1


def test_calibration_without_a_camera_is_404(trusted: FlaskClient) -> None:
    answer = post(trusted, "/api/calibrate")
    assert answer.status_code == 404 and answer.get_json()["error"] == "no camera"
    assert trusted.get("/api/camera/overlay").status_code == 404
