"""The labelled frames the fitting scripts share: a table of the widest variety and a
reader calibrated on that table's own calibration frame (its camera, lamp and tiles),
so that the reader compares the table with its own bare table, as on a real evening."""

from __future__ import annotations

import dataclasses

import numpy as np

from scripts.fit_difference import _drifted
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


def drifted_table(layout: Layout, seed: int, hard: bool, hand_probability: float = 0.0
                  ) -> tuple[scenes.Scene, Reader, np.ndarray]:
    """Table `seed`, a reader that learnt its bare table (no piece, no hand) under the
    scene's lamp, and the frame of the table drawn after that lamp drifted, as between
    the set-up and the play (the frame not read yet)."""
    rng = np.random.default_rng(seed)
    scene = scenes.random_scene(layout, rng, hard=hard, variety=VARIETY,
                                hand_probability=hand_probability)
    bare_scene = scenes.with_changes(scene, [])
    bare_scene.hands = []
    reader = Reader(layout)
    reader.use_bare(reader.learn_bare(scenes.render(layout, bare_scene, seed + 1)))
    scene.lighting = _drifted(scene.lighting, rng)
    return scene, reader, scenes.render(layout, scene, seed)
