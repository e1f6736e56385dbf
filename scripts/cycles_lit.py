"""Keep the cube blobs of the path-traced tuning frames as labelled data for `fit_lit`.

    .venv/bin/python scripts/cycles_lit.py --seeds 1-13
    # writes scripts/data/cycles-lit.json

What the reader measured of each blob of the cached Blender frames (see
`scripts/cycles_kept.py`): how bright and colourful its top is over its colour
(`vision.lit`), and how many true cubes it holds.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.cycles_kept import keep, play_pieces  # noqa: E402
from scripts.fit_lit import CYCLES_LIT, blobs_lit  # noqa: E402
from vision.reader import Reader  # noqa: E402


def measure(reader: Reader, frame: np.ndarray, spec: dict[str, Any]) -> list[list[object]]:
    pieces = play_pieces(spec)
    return [list(b) for b in blobs_lit(reader, frame, pieces)]


def main(argv: list[str] | None = None) -> int:
    return keep("cycles_lit", __doc__ or "", measure, out=CYCLES_LIT, default_seeds="1-13",
                key="blobs", fields=["lit", "colour_shown", "true_cubes", "colour"], argv=argv)


if __name__ == "__main__":
    raise SystemExit(main())
