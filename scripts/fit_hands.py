"""Fit how far the mat's paper border may move from the bare table's before it is an arm.

    .venv/bin/python scripts/fit_hands.py        # writes vision/fitted/hands.json

A hand or arm reaches in over the border, so the reader samples the border's bare paper
(`vision.occlusion.BorderWatch`). A real lamp is not even: a warm spot, glare or a
shelf's shade lies on the same stretch of border all evening. Each sample is therefore
compared with what it showed on the bare table, both over the light fitted to their own
frame, less what the whole border did alike (`vision.occlusion.against_bare`): `dark` is
how much darker its brightest channel may read, `chroma` how far its three channels'
ratios may spread (where it did not grow brighter), before the sample is an arm's.

Labelled data: rendered tables of the widest variety (`vision.render`, seeds
`FIRST_SEED` on, tuning only — the benchmarks report on seeds 900000 and up), mild and
hard light alternately, a hand or arm over the mat in every other pair of frames. The bare
table is drawn under the scene's lamp and the table under the same lamp drifted (brighter
or dimmer, warmer or cooler, its gradient turned), as between the set-up and the play.
The bounds are the 0.0005 and 0.9995 quantiles of the samples no hand covers; the report
says how many frames the reader then flags, with a hand and without.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.fitting import fit_command, labelled_frames  # noqa: E402
from scripts.labelled import VARIETY, drifted_table  # noqa: E402
from vision.layout import Layout, load_layout  # noqa: E402
from vision.occlusion import HANDS_FITTED, HandBounds, against_bare  # noqa: E402
from vision.reader import Reader  # noqa: E402
from vision.render import scene as scenes  # noqa: E402

FIRST_SEED = 34500
CHECK_FRAMES = 2
QUANTILE = 0.0005
COMMAND = "scripts/fit_hands.py"


def _with_hand(seed: int, first_seed: int) -> bool:
    """Hands in frames 2-3, 6-7, ...: both lights with and without a hand (the check's
    first two frames have none, so it has paper to fit on)."""
    return (seed - first_seed) // 20 % 2 == 1


def sample(layout: Layout, seed: int, hard: bool, hand: bool
           ) -> tuple[np.ndarray, Reader, np.ndarray, bool]:
    """(per border sample seen: brightest channel's ratio to the bare table's, spread of
    the three ratios), the reader, the frame and whether the truth says a hand is over
    the mat."""
    scene, reader, frame = drifted_table(layout, seed, hard, 1.0 if hand else 0.0)
    reader.read(frame)
    return _moved(reader), reader, frame, bool(scenes.truth(layout, scene)["occluded"])


def _moved(reader: Reader) -> np.ndarray:
    border = reader.border
    now, ref = border.profile(), border.reference
    assert now is not None and ref is not None
    known = ~(np.isnan(now).any(axis=1) | np.isnan(ref).any(axis=1))
    moved = against_bare(now[known], ref[known])
    return np.c_[moved.max(axis=1), moved.max(axis=1) - moved.min(axis=1)]


def fit(frames: int, first_seed: int = FIRST_SEED) -> dict[str, Any]:
    layout = load_layout(None)
    drawn = []
    for seed, hard in labelled_frames(frames, first_seed):
        drawn.append(sample(layout, seed, hard, _with_hand(seed, first_seed)))
    # Samples of frames the truth says no hand is over: all paper, whatever the lamp did.
    clear = [m for m, _, _, occluded in drawn if not occluded]
    values = np.concatenate(clear) if clear else np.ones((1, 2))
    # Off-colour counts only where the paper did not grow brighter (`hand_like`).
    dimmer = values[values[:, 0] <= 1.0]
    dimmer = dimmer if len(dimmer) else values
    bounds = HandBounds(dark=round(float(np.quantile(values[:, 0], QUANTILE)), 4),
                        chroma=round(float(np.quantile(dimmer[:, 1], 1 - QUANTILE)), 4))
    flagged = {True: [0, 0], False: [0, 0]}
    for _, reader, frame, occluded in drawn:
        reader.border.bounds = bounds
        reader.motion.last = None
        reader.steady.reset()
        flagged[occluded][0] += reader.read(frame).occluded
        flagged[occluded][1] += 1
    return {
        "command": f".venv/bin/python {COMMAND} --frames {frames} --first-seed {first_seed}",
        "data": {"renderer": "vision.render", "variety": VARIETY, "frames": frames,
                 "seeds": [first_seed, first_seed + 10 * (frames - 1)],
                 "light": "mild and hard alternately; the table under the bare table's "
                          "lamp drifted",
                 "border_samples_without_a_hand": len(values)},
        "model": {"dark": bounds.dark, "chroma": bounds.chroma},
        "report": {"frames_with_a_hand_flagged": "{} of {}".format(*flagged[True]),
                   "frames_without_a_hand_flagged": "{} of {}".format(*flagged[False])},
    }


def main(argv: list[str] | None = None) -> int:
    return fit_command("fit_hands", __doc__ or "", fit, out=HANDS_FITTED, frames=40,
                       first_seed=FIRST_SEED, check_frames=CHECK_FRAMES, argv=argv,
                       show=("model", "report"))


if __name__ == "__main__":
    raise SystemExit(main())
