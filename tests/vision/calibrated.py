"""A table and its calibration, learnt under the same camera and lamp (for tests).

The calibration frame (tiles, court cards, the swatches' pieces) is drawn with the
table's camera, lamp and tile art, as `carolus vision calibrate` would see it before the
pieces are laid: what a reader learns from it is what it reads the table against.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.calibration import calibrate, reader_for
from vision.layout import load_layout
from vision.reader import Reader
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


def bench_table(seed: int, hard: bool = False) -> tuple[scenes.Scene, Reader, np.ndarray]:
    """Frame `seed` of `vision_bench`'s calibrated per-frame sets (the widest variety,
    2304 x 1296, mild light unless `hard`): the table drawn, a reader calibrated as the
    bench calibrates it (the table's own set-up with the court cards laid), and the frame
    to read."""
    table = scenes.random_scene(LAYOUT, np.random.default_rng(seed), hard=hard, width=2304,
                                height=1296, px_per_mm=1.3, variety="wide")
    calib = scenes.with_changes(table, scenes.calibration_scene(
        LAYOUT, np.random.default_rng(seed), variety="wide").pieces)
    calib.with_boards = True
    reader = reader_for(LAYOUT, calibrate(scenes.render(LAYOUT, calib, seed + 1), LAYOUT))
    return table, reader, scenes.render(LAYOUT, table, seed)
