"""Keep the court rows of the path-traced tuning frames as labelled data for `fit_rows`.

    .venv/bin/python scripts/cycles_rows.py --seeds 1-9
    # writes scripts/data/cycles-court-rows.json

What the reader measured on each court row of the cached Blender frames (see
`scripts/cycles_kept.py`): at each share tried, the runs of the row's colour along it
(each its length and its seams' pitch, `vision.seams`), and the true count.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.cycles_kept import keep  # noqa: E402
from scripts.fit_rows import CYCLES_ROWS, SHARES, rows_read  # noqa: E402
from vision.reader import Reader  # noqa: E402


def measure(reader: Reader, frame: np.ndarray, spec: dict[str, Any]) -> list[list[object]]:
    found = rows_read(reader, frame, spec["truth"]["courts"])
    return [[[[list(run) for run in runs] for runs in r.runs], r.cubes] for r in found]


def main(argv: list[str] | None = None) -> int:
    return keep("cycles_rows", __doc__ or "", measure, out=CYCLES_ROWS, default_seeds="1-9",
                key="rows", fields=["runs_at_each_share as [mm, seams' pitch mm]", "cubes"],
                extra={"shares": list(SHARES)}, argv=argv)


if __name__ == "__main__":
    raise SystemExit(main())
