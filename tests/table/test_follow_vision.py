"""``carolus follow`` on images and video: frames go through `vision` into the referee.

Wiring only (the reader's accuracy is the vision tests' business): a rendered table,
stored as an image folder and as a video, is read frame by frame and refereed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.cli import main

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")
scene_module = pytest.importorskip("vision.render.scene")
pytest.importorskip("vision.calibration")
layout_module = pytest.importorskip("vision.layout")

PLAYERS = "south=Anna:white,north=Bob:black"


@pytest.fixture(scope="module")
def frame() -> object:
    layout = layout_module.load_layout(None)
    rng = np.random.default_rng(3)
    scene = scene_module.random_scene(layout, rng, width=1152, height=648, px_per_mm=0.65)
    return scene_module.render(layout, scene, 3)


def test_an_image_folder_is_read_in_name_order(
    frame: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"frame{i:03d}.png"), frame)
    (tmp_path / "notes.txt").write_text("not a frame")
    status = main(["follow", str(tmp_path), "--players", PLAYERS, "--fps", "4", "--json"])
    captured = capsys.readouterr()
    # a mid-game table is no set-up: nothing to referee, and the command says so
    assert status == 1
    assert "no game began" in captured.err and "Traceback" not in captured.err


def test_a_video_is_read_frame_by_frame(
    frame: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    video = tmp_path / "table.avi"
    height, width = frame.shape[:2]  # type: ignore[attr-defined]
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 5.0, (width, height))
    for _ in range(3):
        writer.write(frame)
    writer.release()
    status = main(["follow", str(video), "--players", PLAYERS])
    captured = capsys.readouterr()
    assert status == 1 and "no game began" in captured.err


def test_an_unreadable_image_is_exit_2_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "frame000.png").write_bytes(b"not a png")
    assert main(["follow", str(tmp_path), "--players", PLAYERS]) == 2
    assert "frame000.png: not an image file" in capsys.readouterr().err
