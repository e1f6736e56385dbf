"""Calibration refuses a frame whose swatches are empty (it would teach paper as colours)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.calibration import CalibrationError, calibrate
from vision.layout import load_layout
from vision.render.scene import calibration_scene, random_scene, render


def test_a_game_frame_is_not_a_calibration_frame() -> None:
    layout = load_layout()
    frame = render(layout, random_scene(layout, np.random.default_rng(11)), 11)
    with pytest.raises(CalibrationError, match="hold no cube"):
        calibrate(frame, layout)


def test_a_calibration_frame_under_hard_light_is_accepted() -> None:
    layout = load_layout()
    scene = calibration_scene(layout, np.random.default_rng(12), hard=True)
    result = calibrate(render(layout, scene, 12), layout)
    assert set(result["colours"]) >= {"red", "green", "yellow", "blue", "pink"}


@pytest.mark.parametrize("seed", [7025, 7069, 7002])
def test_the_emperor_is_measured_on_his_lit_top(seed: int) -> None:
    """His swatch is near a corner of the mat, where his tall body leans out of it; his
    colour was once read on the paper or his shaded side, and taught the reader that pale
    or ochre tile art is yellow."""
    layout = load_layout()
    scene = calibration_scene(layout, np.random.default_rng(seed), hard=True)
    measured = calibrate(render(layout, scene, seed), layout)["colours"]
    emperor, cube = np.asarray(measured["emperor"]), np.asarray(measured["yellow"])
    assert emperor[0] < 60                        # no paper in it: yellow has little blue
    assert emperor[2] > 0.8 * cube[2]             # not his shaded side
