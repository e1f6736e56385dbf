"""Fit how long a court row's colour is for n cubes, read against the bare table.

    .venv/bin/python scripts/fit_rows.py            # writes vision/fitted/rows.json

Labelled data: rendered tables of the widest variety (`vision.render`, seeds
`FIRST_SEED` on, tuning only — the benchmarks report on seeds 900000 and up), mild and
hard light alternately, court rows laid as people lay them (gaps, a wider gap after every
fifth cube, crooked, starting on the card's edge). Each frame is read by a reader
calibrated on its own calibration frame (so against its bare table); every court row
gives the length its colour covers and the true count. A straight line through the rows
that hold cubes (least squares) is the model; how many rows it then counts exactly is
reported.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.labelled import VARIETY, calibrated_table  # noqa: E402
from vision.layout import load_layout  # noqa: E402
from vision.reference import ROWS_FITTED, RowModel  # noqa: E402
from vision.render import scene as scenes  # noqa: E402

FIRST_SEED = 32000
CHECK_FRAMES = 2
COMMAND = "scripts/fit_rows.py"


def rows_of(seed: int, hard: bool) -> list[tuple[float, int]]:
    """(covered mm, true cubes) of every court row in one labelled frame."""
    layout = load_layout(None)
    table, reader = calibrated_table(layout, seed, hard)
    reader.debug = []
    reader.read(scenes.render(layout, table, seed))
    truth = scenes.truth(layout, table)
    rows = [entry for entry in reader.debug if entry[0] == "row"]
    return [(float(covered), int(truth["courts"][seat][colour]))
            for _, seat, colour, covered, _, _ in rows if seat in truth["courts"]]


def fit(frames: int, first_seed: int = FIRST_SEED) -> dict[str, Any]:
    data: list[tuple[float, int]] = []
    for i in range(frames):
        seed = first_seed + 10 * i
        hard = i % 2 == 1
        print(f"  frame {i + 1}/{frames} (seed {seed}, {'hard' if hard else 'mild'} light)",
              file=sys.stderr)
        data += rows_of(seed, hard)
    covered = np.array([c for c, _ in data])
    count = np.array([n for _, n in data])
    full = count > 0
    slope, offset = np.polyfit(count[full], covered[full], 1)
    model = RowModel(per_cube_mm=round(float(slope), 3), offset_mm=round(float(offset), 3))
    read = np.array([round(model.cubes(c)) if model.cubes(c) >= 0.5 else 0 for c in covered])
    return {
        "command": f".venv/bin/python {COMMAND} --frames {frames} --first-seed {first_seed}",
        "data": {"renderer": "vision.render", "variety": VARIETY, "frames": frames,
                 "seeds": [first_seed, first_seed + 10 * (frames - 1)], "rows": len(data),
                 "light": "mild and hard alternately"},
        "model": dataclasses.asdict(model),
        "report": {"rows_exact": f"{int((read == count).sum())} of {len(data)}",
                   "rows_off_by_one": int((np.abs(read - count) == 1).sum())},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=10, help="labelled frames (default 10)")
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED)
    parser.add_argument("--out", type=Path, default=ROWS_FITTED,
                        help=f"where to write (default {ROWS_FITTED.relative_to(ROOT)})")
    args = parser.parse_args(argv)
    if not 1 <= args.frames <= 1000:
        parser.error(f"--frames {args.frames} must be between 1 and 1000")
    if args.first_seed + 10 * args.frames >= 900000:
        parser.error("seeds from 900000 on are held out for the benchmarks; fit below them")
    result = fit(args.frames, args.first_seed)
    # The same script on its first frames only: what the test suite re-runs to check
    # that this file is this script's output.
    small = min(args.frames, CHECK_FRAMES)
    result["check"] = {"frames": small, "model": fit(small, args.first_seed)["model"]}
    try:
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        print(f"fit_rows: cannot write {args.out} ({exc.strerror or exc})", file=sys.stderr)
        return 2
    print(json.dumps(result["model"]), file=sys.stderr)
    print(json.dumps(result["report"]), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
