"""A read counts the pieces of the zones that moved only: the zones that did not move get
their last counts back (`vision.steady`), so counting them again changed nothing but the
time a read takes. Checked against a reader that counts every zone, frame by frame, on
a fixed camera's sequence of table states (the same sequence once showed a yellow cube
in a moved zone read as the emperor when the emperor's still zone was not looked at)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import vision_bench

from vision.calibration import calibrate, reader_for
from vision.layout import load_layout
from vision.reader import Reader, _inner_radius
from vision.render.table import TableRenderer

LAYOUT = load_layout(None)


@pytest.fixture(scope="module")
def sequence() -> tuple[list[np.ndarray], dict[str, Any]]:
    """Four table states of one camera, each frame followed by the next (0.2 s on, the
    light drifting), and the calibration of the set-up step."""
    renderer = TableRenderer(LAYOUT, seed=7100, width=2304, height=1296, px_per_mm=1.3,
                             variety="wide")
    frames = []
    for state in vision_bench.game_states(4, 7100):
        t = float(state.get("t") or 0.0)
        frames += [renderer.frame(state, seed=0, t=t + later) for later in (0.0, 0.2)]
    return frames, calibrate(renderer.calibration_frame(seed=0, t=0.0), LAYOUT)


@pytest.mark.parametrize("against_bare", [False, True])
def test_counting_the_moved_zones_only_reads_what_counting_every_zone_reads(
        sequence: tuple[list[np.ndarray], dict[str, Any]], against_bare: bool) -> None:
    frames, calib = sequence

    def reader() -> Reader:
        return reader_for(LAYOUT, calib) if against_bare else Reader(LAYOUT)

    quick, every = reader(), reader()
    every.debug = []            # a fitting script's hook: every zone is counted
    skipped = 0
    for frame in frames:
        seen = quick.read(frame).to_json()
        if quick._moved is not None:
            skipped += int((~quick._moved[1:]).sum())
        assert seen == every.read(frame).to_json()
        assert every._moved is None
    assert skipped > 0          # the quick reader did leave still zones out


def test_no_blob_holds_a_disc_wider_than_half_its_box() -> None:
    """What lets a read leave out a blob too narrow to be taken for the emperor
    (`Reader._still`): the widest disc inside a blob, holes filled, has a radius of at
    most (w + 1) / 2 for a box w wide, whatever its shape."""
    rng = np.random.default_rng(11)
    for _ in range(300):
        h, w = (int(v) for v in rng.integers(1, 40, 2))
        blob = np.zeros((h, w), np.uint8)
        for _ in range(int(rng.integers(1, 4))):
            centre = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            axes = (int(rng.integers(1, w + 1)), int(rng.integers(1, h + 1)))
            cv2.ellipse(blob, centre, axes, float(rng.uniform(0, 180)), 0, 360, 1, -1)
        if rng.random() < 0.3:
            blob[rng.random((h, w)) < 0.1] = 0          # holes
        x, y, bw, bh = cv2.boundingRect(blob)
        if bw == 0:
            continue
        crop = blob[y:y + bh, x:x + bw].astype(bool)
        assert _inner_radius(crop, fill=True) <= (min(bw, bh) + 1) / 2


def test_the_emperor_in_a_still_zone_is_still_weighed_against_a_yellow_clump_that_moved(
        render_table: Any) -> None:
    """Four yellow cubes pushed together on a tile that moved make a blob as big as the
    emperor; he stands on a tile that did not move. The still tile is not counted, but
    his blob is still looked at: the roundest yellow blob is the emperor, and the clump
    is cubes (however many this frame shows), as a reader counting every zone reads it."""
    from vision.render import scene as scenes
    from vision.render.pieces import Piece

    ex, ey = scenes.territory_centre(LAYOUT, 3)
    cx, cy = scenes.territory_centre(LAYOUT, 9)
    emperor = [Piece("emperor", "yellow", ex, ey)]
    clump = [Piece("cube", "yellow", cx + dx, cy + dy, 0.0)
             for dx in (-4.1, 4.1) for dy in (-4.1, 4.1)]
    before, _ = render_table(emperor, seed=31)
    after, truth = render_table(emperor + clump, seed=31)
    quick, every = Reader(LAYOUT), Reader(LAYOUT)
    every.debug = []
    for frame in (before, after):
        seen = quick.read(frame).to_json()
        assert seen == every.read(frame).to_json()
    assert quick._moved is not None and not quick._moved[
        next(c.index for c in quick.atlas.cells if c.zone.raw.get("territory") == 3)]
    assert seen["emperor"] == truth["emperor"] == 3
    assert seen["territories"]["9"]["cubes"]["yellow"] > 0


def test_after_a_hand_the_cylinders_on_still_cards_are_found_again() -> None:
    """A frame with a hand over the table keeps no place of a cylinder's (`vision.steady`),
    so the next read must look for them on every card, moved or not: a read that
    compared only the zones that moved read every court's cylinders as gone."""
    renderer = TableRenderer(LAYOUT, seed=7100, width=2304, height=1296, px_per_mm=1.3,
                             variety="wide")
    state = vision_bench.game_states(4, 7100)[-1]
    t = float(state["t"])
    frames = [renderer.frame(state, seed=0, t=t),
              renderer.frame({**state, "occluded": True}, seed=0, t=t + 0.2),
              renderer.frame(state, seed=0, t=t + 0.4),
              renderer.frame(state, seed=0, t=t + 0.6)]
    calib = calibrate(renderer.calibration_frame(seed=0, t=0.0), LAYOUT)
    quick, every = reader_for(LAYOUT, calib), reader_for(LAYOUT, calib)
    every.debug = []
    seen = [quick.read(frame).to_json() for frame in frames]
    assert seen[1]["occluded"] and not seen[-1]["occluded"]
    assert quick._moved is not None and not quick._moved[
        [c.index for c in quick.atlas.cells if c.zone.kind == "court"]].any()
    assert seen[-1]["cylinders"] == state["cylinders"]
    for frame in frames[:-1]:
        every.read(frame)
    assert seen[-1] == every.read(frames[-1]).to_json()
