"""The labelled frames the fitting scripts share: a table of the widest variety and a
reader calibrated on that table's own calibration frame (its camera, lamp and tiles),
so that the reader compares the table with its own bare table, as on a real evening."""

from __future__ import annotations

import dataclasses

import numpy as np

from vision.calibration import calibrate, reader_for
from vision.layout import Layout
from vision.reader import Reader
from vision.render import scene as scenes

VARIETY = "wide"


def calibrated_table(layout: Layout, seed: int, hard: bool) -> tuple[scenes.Scene, Reader]:
    """Table `seed` (no hands) and a reader calibrated under the same camera and light."""
    table = scenes.random_scene(layout, np.random.default_rng(seed), hard=hard,
                                variety=VARIETY)
    table.hands = []
    calib_scene = scenes.calibration_scene(layout, np.random.default_rng(seed + 1), hard=hard,
                                           boards=True, variety=VARIETY)
    calib_scene = dataclasses.replace(
        calib_scene, camera=table.camera, lighting=table.lighting, light=table.light,
        tile_seed=table.tile_seed)
    reader = reader_for(layout, calibrate(scenes.render(layout, calib_scene, seed + 2), layout))
    return table, reader
