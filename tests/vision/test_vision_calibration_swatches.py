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
