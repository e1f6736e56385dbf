"""Whole frames: the mat found with markers covered, no mat, hands and motion, calibration."""

from __future__ import annotations

import cv2
import numpy as np

from vision.calibration import calibrate, load, reader_for, save
from vision.reader import Reader
from vision.render import scene as sc
from vision.render.pieces import Piece
from vision.render.scene import territory_centre
from vision.render.score import differences


def _some_pieces(layout) -> list[Piece]:
    pieces = []
    for n in (2, 7, 12):
        x, y = territory_centre(layout, n)
        pieces += [Piece("cube", "blue", x - 15, y, 10), Piece("cube", "pink", x + 15, y, 40)]
    x, y = territory_centre(layout, 9)
    pieces.append(Piece("emperor", "yellow", x, y))
    return pieces


def test_markers_partly_covered_still_give_the_mat(layout, render_table) -> None:
    frame, truth = render_table(_some_pieces(layout), seed=41)
    reader = Reader(layout)
    pose = reader.locator.detect(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    assert pose is not None
    covered = frame.copy()
    hidden = 0
    for marker_id, (x0, y0, x1, y1) in sorted(pose.marker_boxes.items()):
        if marker_id % 3 != 0:                      # cover two thirds of the markers
            cv2.rectangle(covered, (x0 - 2, y0 - 2), (x1 + 2, y1 + 2), (90, 120, 160), -1)
            hidden += 1
    assert hidden >= 14
    snap = Reader(layout).read(covered)
    assert snap.mat is True
    assert differences(snap, truth) == []


def test_frame_without_the_mat(layout) -> None:
    rng = np.random.default_rng(3)
    table = np.clip(rng.normal(120, 30, (720, 1280, 3)), 0, 255).astype(np.uint8)
    snap = Reader(layout).read(table)
    assert snap.mat is False
    assert snap.emperor is None
    assert all(t.cubes.total() == 0 and t.castles.total() == 0 for t in snap.territories)
    assert all(v is None for v in snap.cylinders.values())


def test_hand_over_the_mat_is_flagged(layout, render_table) -> None:
    flagged = []
    for seed in (51, 52, 53):
        frame, truth = render_table(_some_pieces(layout), seed=seed, hands=True)
        assert truth["occluded"]
        flagged.append(Reader(layout).read(frame).occluded)
    assert flagged == [True, True, True]


def test_still_table_is_not_flagged_and_motion_is(layout, render_table) -> None:
    frame, _ = render_table(_some_pieces(layout), seed=54)
    reader = Reader(layout)
    assert reader.read(frame).occluded is False
    assert reader.read(frame.copy()).occluded is False
    moved = np.roll(frame, 9, axis=1)          # the whole view shifts between frames
    assert reader.read(moved).occluded is True


def test_change_check_is_cheap_and_sees_a_change(layout, render_table) -> None:
    frame, _ = render_table([], seed=55)
    reader = Reader(layout)
    reader.read(frame)
    assert reader.motion.check_frame(frame) is False
    changed = frame.copy()
    changed[:, : frame.shape[1] // 2] //= 2
    assert reader.motion.check_frame(changed) is True


def test_calibration_round_trip(layout, render_table, tmp_path) -> None:
    rng = np.random.default_rng(61)
    base = sc.random_scene(layout, rng, hard=True)
    cal = sc.calibration_scene(layout, np.random.default_rng(61), hard=True)
    cal_scene = sc.with_changes(base, cal.pieces)
    cal_scene.with_boards = False
    calib = calibrate(sc.render(layout, cal_scene, 62), layout)
    assert set(calib["colours"]) >= {"red", "green", "yellow", "blue", "pink", "emperor",
                                     "castle-white", "castle-black", "castle-grey"}
    red = np.asarray(calib["colours"]["red"])
    assert red[2] > red[0] + 80 and red[2] > red[1] + 80
    save(calib, tmp_path / "calib.json")
    again = load(tmp_path / "calib.json")
    assert again["colours"] == calib["colours"]
    scene = sc.with_changes(base, _some_pieces(layout))
    snap = reader_for(layout, again).read(sc.render(layout, scene, 63))
    assert differences(snap, sc.truth(layout, scene)) == []
