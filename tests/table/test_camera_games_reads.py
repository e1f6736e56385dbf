"""``benchmarks/camera_games.py --reads``: a game's frames read once per version of the
vision and kept, so a change of the referee is judged on exactly what the camera read."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from firmware.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import camera_games

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")
scenes = pytest.importorskip("vision.render.scene")
layouts = pytest.importorskip("vision.layout")


def test_the_kept_reads_are_what_follow_reads_and_are_read_once(tmp_path: Path) -> None:
    from vision.calibration import load, reader_for

    layout = layouts.load_layout(None)
    size = {"width": 1152, "height": 648, "px_per_mm": 0.65}
    calib_scene = scenes.calibration_scene(layout, np.random.default_rng(1), **size)
    cv2.imwrite(str(tmp_path / "calibration.jpg"), scenes.render(layout, calib_scene, 1))
    (tmp_path / "follow").mkdir()
    calib = tmp_path / "follow" / "calibration.json"
    made = main(["vision", "calibrate", str(tmp_path / "calibration.jpg"), "--out", str(calib)])
    assert made == 0
    (tmp_path / "frames").mkdir()
    frames = []
    for i in range(3):
        scene = scenes.random_scene(layout, np.random.default_rng(10 + i), **size)
        frame = scenes.render(layout, scene, 10 + i)
        cv2.imwrite(str(tmp_path / "frames" / f"{i:05d}.jpg"), frame)
        frames.append(cv2.imread(str(tmp_path / "frames" / f"{i:05d}.jpg")))

    kept = camera_games.read_once(tmp_path, calib)
    lines = [json.loads(line) for line in kept.read_text().splitlines()]
    reader = reader_for(layout, load(calib))  # as carolus follow FRAMES reads them
    assert lines == [reader.read(f, round(i / camera_games.FPS, 3)).to_json()
                     for i, f in enumerate(frames)]

    kept.write_text("kept\n")  # the same vision and calibration: not read again
    assert camera_games.read_once(tmp_path, calib).read_text() == "kept\n"
    calib.write_text(calib.read_text().replace("{", "{ ", 1))  # another calibration: read
    assert camera_games.read_once(tmp_path, calib) != kept


def test_the_acts_missed_and_the_alarms_no_act_explains_are_named() -> None:
    acts = [{"code": "cube-moved", "what": "a cube taken off territory 4", "start": 27.4,
             "end": 28.8},
            {"code": "castle-unearned", "what": "grey castle on 11", "start": 33.6, "end": 35.0}]
    events = [{"kind": "illegal", "t": 34.2, "code": "castle-unearned"},
              {"kind": "illegal", "t": 28.0, "code": "turn-order"},   # another code, in time
              {"kind": "illegal", "t": 40.0, "code": "refill-count"},  # no act then
              {"kind": "question", "t": 27.6, "code": "cube-moved"}]
    alarms = camera_games.score_alarms(acts, events)
    assert alarms.caught == [acts[1]] and alarms.caught_any == acts
    assert alarms.missed == [acts[0]]
    assert [e["code"] for e in alarms.false] == ["refill-count"] and alarms.raised == 3
