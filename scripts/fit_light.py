"""Fit when a zone's light may be undone by a line (a gain and an offset per channel)
rather than by a gain alone.

    .venv/bin/python scripts/fit_light.py            # writes vision/fitted/light.json

Each zone of a frame is brought back to the bare table's light before the two are
compared (`vision.reference.Comparison.gains`). A line fitted on the pixels that still
look like the bare table undoes a lamp's offset and a camera's tone curve that a gain
cannot; but where the bare table explains only part of the frame's variance among those
pixels (a penumbra over a card, a lamp's fall-off across plain paper), the line is bent
by what it does not explain, and it flattens a piece's colour towards the paper's. The
line is used only where the share explained reaches `explained`; this script fits that
share.

Labelled data: rendered tables of the widest variety (`vision.render`, seeds
`FIRST_SEED` on, tuning only — the benchmarks report on seeds 900000 and up), mild and
hard light alternately, each read against its bare table learnt under another light: the
lamp drifted (`scripts.fit_difference._drifted`) and the stray light — daylight, the
room's other lamps, which add to every colour rather than scale it — changed, over the
camera's black level. Our renderer's lamp alone only scales colours, and on it a gain
alone is always right: the line is for what a real room adds.

The light's truth is the same table, pieces and all, drawn again under the bare table's
light: the right map takes every pixel of the frame to that pixel there. For each
candidate share the maps are worked out as the reader does, and each zone's error is the
mean grey levels by which its map misses, over the table's pixels and, as much again,
over the pieces' (the colours that must survive the map). The share kept is the one with
the least error over all zones of all frames; the report gives that error beside always
and never using the line.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.fit_difference import _drifted, _labels  # noqa: E402
from scripts.fitting import fit_command, labelled_frames  # noqa: E402
from scripts.labelled import VARIETY  # noqa: E402
from vision.layout import Layout, load_layout  # noqa: E402
from vision.reader import Reader  # noqa: E402
from vision.reference import LIGHT_FITTED, Comparison, Difference  # noqa: E402
from vision.render import scene as scenes  # noqa: E402
from vision.render.optics import Lighting  # noqa: E402

FIRST_SEED = 37000
CHECK_FRAMES = 2
COMMAND = "scripts/fit_light.py"
#: The candidate shares, in hundredths; past 1 the line is never used.
CANDIDATES = np.round(np.arange(0.0, 1.015, 0.01), 2)
#: Every `EVERY`-th pixel of a zone is scored: plenty for a mean.
EVERY = 3
#: Stray light (a share of full scale) and its tint, drawn afresh for the bare table and
#: for the frame; the camera's black level (grey levels), the same for both.
STRAY = (0.0, 0.15)
STRAY_TINT = (-0.2, 0.2)
BLACK = (0.0, 16.0)


def _stray(rng: np.random.Generator) -> tuple[float, float, float]:
    """Daylight or another lamp: bluish or warm, from none to a sixth of full scale."""
    level, tint = float(rng.uniform(*STRAY)), float(rng.uniform(*STRAY_TINT))
    return (level * (1 + tint), level, level * (1 - tint))


def _table(layout: Layout, seed: int, hard: bool
           ) -> tuple[scenes.Scene, Reader, np.ndarray, np.ndarray]:
    """Table `seed`, a reader that learnt its bare table, the frame of the table after the
    lamp drifted and the stray light changed, and the same frame under the bare table's
    light (what the frame's light, undone, must give)."""
    rng = np.random.default_rng(seed)
    scene = scenes.random_scene(layout, rng, hard=hard, variety=VARIETY)
    scene.hands = []
    black = float(rng.uniform(*BLACK))
    before: Lighting = dataclasses.replace(scene.lighting, stray=_stray(rng), black=black)
    after: Lighting = dataclasses.replace(_drifted(scene.lighting, rng), stray=_stray(rng),
                                          black=black)
    bare_scene = scenes.with_changes(scene, [])
    bare_scene.lighting = before
    reader = Reader(layout)
    reader.use_bare(reader.learn_bare(scenes.render(layout, bare_scene, seed + 1)))
    target_scene = scenes.with_changes(scene, scene.pieces)
    target_scene.lighting = before
    scene.lighting = after
    return (scene, reader, scenes.render(layout, scene, seed),
            scenes.render(layout, target_scene, seed))


def _errors(layout: Layout, seed: int, hard: bool) -> np.ndarray:
    """Per candidate share, the frame's error summed over its zones (grey levels, the
    three channels added)."""
    scene, reader, frame, target_frame = _table(layout, seed, hard)
    assert reader.bare is not None
    atlas, target = reader.atlas.cut(frame), reader.atlas.cut(target_frame)
    reader.balance(frame, atlas)
    reader.balance(target_frame, target)
    rows = reader.atlas.colour_rows
    labels = _labels(reader, scene, layout)[::EVERY, ::EVERY]
    zone = reader.atlas.zone_index[:rows][::EVERY, ::EVERY]
    scored = (zone > 0) & (labels != 255)
    zone, piece = zone[scored], labels[scored] == 1
    values = atlas[:rows][::EVERY, ::EVERY][scored].astype(np.float32)
    wanted = target[:rows][::EVERY, ::EVERY][scored].astype(np.float32)
    cells = reader.atlas.zone_index.max() + 1
    # Each zone weighs one: its table's pixels half and its pieces' half, or the table's
    # all where it holds no piece.
    kinds = zone * 2 + piece
    counts = np.bincount(kinds, minlength=2 * cells).reshape(cells, 2).astype(np.float64)
    halves = np.where(counts[:, 1:] > 0, 0.5, 1.0)
    weights = (halves / np.maximum(counts, 1.0)).ravel()[kinds]
    difference = Difference.load()
    out = np.empty(len(CANDIDATES))
    for i, candidate in enumerate(CANDIDATES):
        maps = Comparison(reader.bare, reader.atlas, difference,
                          explained=float(candidate)).gains(atlas)
        back = (values * maps[zone, :, :3].diagonal(axis1=1, axis2=2) + maps[zone, :, 3])
        out[i] = float((np.abs(back - wanted).sum(axis=1) * weights).sum())
    return out


def fit(frames: int, first_seed: int = FIRST_SEED) -> dict[str, Any]:
    layout = load_layout(None)
    errors = np.zeros(len(CANDIDATES))
    for seed, hard in labelled_frames(frames, first_seed):
        errors += _errors(layout, seed, hard)
    best = int(np.argmin(errors))
    return {
        "command": f".venv/bin/python {COMMAND} --frames {frames} --first-seed {first_seed}",
        "data": {"renderer": "vision.render", "variety": VARIETY, "frames": frames,
                 "seeds": [first_seed, first_seed + 10 * (frames - 1)],
                 "light": ("mild and hard alternately; between the bare table and the frame the "
                           "lamp drifted and the stray light changed (up to "
                           f"{STRAY[1]:.0%} of full scale, tinted), over one black level "
                           f"of up to {BLACK[1]:.0f} grey levels")},
        "model": {"explained": float(CANDIDATES[best])},
        "report": {
            "error_per_frame_grey_levels": {
                "fitted": round(float(errors[best]) / frames, 3),
                "line_always": round(float(errors[0]) / frames, 3),
                "gain_alone": round(float(errors[-1]) / frames, 3)},
            "error_by_share": {f"{c:.2f}": round(float(e) / frames, 3)
                               for c, e in zip(CANDIDATES[::5], errors[::5], strict=True)}},
    }


def main(argv: list[str] | None = None) -> int:
    return fit_command("fit_light", __doc__ or "", fit, out=LIGHT_FITTED, frames=40,
                       first_seed=FIRST_SEED, check_frames=CHECK_FRAMES, argv=argv)


if __name__ == "__main__":
    raise SystemExit(main())
