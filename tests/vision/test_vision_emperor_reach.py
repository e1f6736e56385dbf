"""The emperor's own yellow is never a yellow cube: what shows of him past his round body
(his ring broken into an arc by glare or by art of his colour, his top leaning away from
the camera) lies within his reach, and only what shows past it is weighed as a cube.

The table is territory 7 of the 3-player camera game of `benchmarks/camera_games.py`
(seed 900300, hard light) at 129.2 s: the emperor on a field of his own yellow, a white
castle and a pink cube, no yellow cube. The reader read one yellow cube there; the next
player's turn then showed a cube too many and people were asked about it again and again.
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import camera_games

from vision.calibration import calibrate, reader_for
from vision.layout import load_layout
from vision.reader import _reached, _within
from vision.render import scene as scenes
from vision.render.pieces import Piece

LAYOUT = load_layout(None)
SEED = 900300
#: territory 7 as the game's renderer laid it (each piece keeps its size and paint)
PIECES = [
    Piece("emperor", "yellow", 592.5025, 633.5403, 82.32, size=0.98253,
          tint=(1.04259, 1.03736, 1.00572)),
    Piece("castle", "white", 607.0600, 672.3578, 68.70, size=0.93717,
          tint=(1.01533, 0.99330, 0.98147), rounding=1.13206),
    Piece("cube", "pink", 582.5988, 668.6860, 40.50, size=1.04496,
          tint=(1.04613, 1.04457, 0.99360), rounding=1.28032),
]


def _jpeg(frame: np.ndarray) -> np.ndarray:
    """The frame as the camera pipeline keeps it."""
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR))


def test_the_emperor_on_a_field_of_his_yellow_is_no_yellow_cube() -> None:
    caps = camera_games.detect_caps(LAYOUT)
    renderer = camera_games.make_renderer(LAYOUT, SEED, True, caps)
    calib = calibrate(_jpeg(camera_games.calibration_frame(LAYOUT, renderer, SEED, caps)),
                      LAYOUT)
    table = scenes.with_changes(renderer.base, PIECES)
    frame = _jpeg(scenes.render(LAYOUT, renderer._at(table, 129.2), SEED))
    seen = reader_for(LAYOUT, calib).read(frame).to_json()
    assert seen["emperor"] == 7
    assert seen["territories"]["7"]["cubes"] == {
        "red": 0, "green": 0, "yellow": 0, "blue": 0, "pink": 1}


@pytest.fixture
def disc() -> tuple[np.ndarray, np.ndarray]:
    return np.mgrid[0:100, 0:100]


def test_his_reach_is_his_base_swept_to_where_his_top_shows(
        disc: tuple[np.ndarray, np.ndarray]) -> None:
    yy, xx = disc
    reach = ((50.0, 50.0), (7.0, 7.0), 12.0)           # foot, lean, base radius (px)
    ring = (xx - 50) ** 2 + (yy - 50) ** 2 <= 12 ** 2
    assert _within(ring & (yy < 42), (0, 0), reach) == 1.0      # an arc of his ring
    top = (xx - 57) ** 2 + (yy - 57) ** 2 <= 5 ** 2              # his top, leaning
    assert _within(top, (0, 0), reach) == 1.0
    assert _within(np.zeros((4, 4), bool), (0, 0), reach) == 0.0
    # A cube touching his base across his lean stands past his reach by most of it.
    cube = (abs(xx - 50) <= 4) & (abs(yy - 34) <= 4)
    assert np.count_nonzero(cube & ~_reached(cube, (0, 0), reach)) > 0.5 * cube.sum()
    # The same, cut out of a box elsewhere in the atlas.
    box = (30, 20, 40, 40)
    assert _within(cube[20:60, 30:70], box, reach) == _within(cube, (0, 0), reach)
