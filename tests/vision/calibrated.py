"""A table and its calibration, learnt under the same camera and lamp (for tests).

The calibration frame (tiles, court cards, the swatches' pieces) is drawn with the
table's camera, lamp and tile art, as `carolus vision calibrate` would see it before the
pieces are laid: what a reader learns from it is what it reads the table against.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.calibration import calibrate
from vision.layout import load_layout
from vision.render import scene as scenes

LAYOUT = load_layout(None)


def calibration_for(table: scenes.Scene, seed: int, frame_seed: int,
                    hard: bool) -> dict[str, Any]:
    """The calibration of `table`: a calibration scene drawn from `seed` under the
    table's camera, lamp and tile art, rendered with `frame_seed`."""
    calib_scene = scenes.calibration_scene(LAYOUT, np.random.default_rng(seed), hard=hard,
                                           variety="wide")
    calib_scene.camera, calib_scene.lighting = table.camera, table.lighting
    calib_scene.tile_seed, calib_scene.light = table.tile_seed, table.light
    return calibrate(scenes.render(LAYOUT, calib_scene, frame_seed), LAYOUT)
