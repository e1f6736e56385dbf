"""Fit how long a court row's colour is for n cubes, read against the bare table.

    .venv/bin/python scripts/fit_rows.py            # writes vision/fitted/rows.json

Labelled data: rendered tables of the widest variety (`vision.render`, seeds
`FIRST_SEED` on, tuning only — the benchmarks report on seeds 900000 and up), mild and
hard light alternately, court rows laid as people lay them (gaps, a wider gap after every
fifth cube, crooked, starting on the card's edge). Each frame is read by a reader
calibrated on its own calibration frame (so against its bare table); every court row
gives the extent of its colour and the true count. A straight line through the rows
that hold cubes (least squares) is the model; how many rows it then counts exactly is
reported. The line also takes the camera's lean along the row and the wide gaps seen
in it (dips of the colour); the dip's depth is the one that leaves the least spread.
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

from scripts.fitting import fit_command, labelled_frames  # noqa: E402
from scripts.labelled import VARIETY, calibrated_table  # noqa: E402
from vision.layout import load_layout  # noqa: E402
from vision.reference import ROWS_FITTED, RowModel  # noqa: E402
from vision.render import scene as scenes  # noqa: E402

FIRST_SEED = 32000
CHECK_FRAMES = 2
#: Depths (of a row's typical colour share) tried for a wide gap's dip; 0 counts none.
DEPTHS = (0.0, 0.5, 0.6, 0.7, 0.8)
COMMAND = "scripts/fit_rows.py"


def rows_of(seed: int, hard: bool) -> list[tuple[float, float, np.ndarray, int]]:
    """(extent of the colour in mm, lean mm along the row, colour share per sample, true
    cubes) of every court row in one labelled frame."""
    layout = load_layout(None)
    table, reader = calibrated_table(layout, seed, hard)
    reader.debug = []
    reader.read(scenes.render(layout, table, seed))
    truth = scenes.truth(layout, table)
    rows = [entry for entry in reader.debug if entry[0] == "row" and len(entry) == 7]
    return [(float(covered), float(along), share, int(truth["courts"][seat][colour]))
            for _, seat, colour, covered, along, _, share in rows if seat in truth["courts"]]


def _least_squares(covered: np.ndarray, count: np.ndarray, lean: np.ndarray,
                   gaps: np.ndarray) -> tuple[np.ndarray, float]:
    """extent = per_cube * n + offset + lean_mm * lean + wide_gap_mm * gaps, on rows
    holding cubes: the coefficients and the residual's spread."""
    full = count > 0
    a = np.column_stack([count[full], np.ones(int(full.sum())), lean[full], gaps[full]])
    coef, *_ = np.linalg.lstsq(a, covered[full], rcond=None)
    return coef, float(np.std(covered[full] - a @ coef))


def fit(frames: int, first_seed: int = FIRST_SEED) -> dict[str, Any]:
    data: list[tuple[float, float, np.ndarray, int]] = []
    for seed, hard in labelled_frames(frames, first_seed):
        data += rows_of(seed, hard)
    covered = np.array([c for c, _, _, _ in data])
    lean = np.array([a for _, a, _, _ in data])
    count = np.array([n for _, _, _, n in data])
    # How deep a dip must be to be a wide gap: the depth that explains the rows' lengths
    # best (the least spread left over).
    fits = []
    for depth in DEPTHS:
        gaps = np.array([RowModel.wide_gaps(share, depth) for _, _, share, _ in data], float)
        coef, spread = _least_squares(covered, count, lean, gaps)
        fits.append((spread, depth, coef, gaps))
    _, depth, coef, gaps = min(fits, key=lambda f: f[0])
    model = RowModel(per_cube_mm=round(float(coef[0]), 3), offset_mm=round(float(coef[1]), 3),
                     lean_mm=round(float(coef[2]), 3), wide_gap_mm=round(float(coef[3]), 3),
                     gap_depth=depth)
    cubes = [model.cubes(c, a, int(g)) for c, a, g in zip(covered, lean, gaps, strict=True)]
    read = np.array([round(n) if n >= 0.5 else 0 for n in cubes])
    return {
        "command": f".venv/bin/python {COMMAND} --frames {frames} --first-seed {first_seed}",
        "data": {"renderer": "vision.render", "variety": VARIETY, "frames": frames,
                 "seeds": [first_seed, first_seed + 10 * (frames - 1)], "rows": len(data),
                 "light": "mild and hard alternately"},
        "model": dataclasses.asdict(model),
        "report": {"rows_exact": f"{int((read == count).sum())} of {len(data)}",
                   "rows_off_by_one": int((np.abs(read - count) == 1).sum()),
                   "spread_mm_by_depth": {str(d): round(s, 3) for s, d, _, _ in fits}},
    }


def main(argv: list[str] | None = None) -> int:
    return fit_command("fit_rows", __doc__ or "", fit, out=ROWS_FITTED, frames=10,
                       first_seed=FIRST_SEED, check_frames=CHECK_FRAMES, argv=argv,
                       show=("model", "report"))


if __name__ == "__main__":
    raise SystemExit(main())
