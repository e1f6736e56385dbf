"""Keep the castle blobs of the path-traced tuning frames as labelled data for
`fit_castles`.

    .venv/bin/python scripts/cycles_castles.py --seeds 1-26
    # writes scripts/data/cycles-castles.json

What the castle model is told of each colourless blob the reader weighs on a territory
of the cached Blender frames (see `scripts/cycles_kept.py`), measured as
`scripts/fit_castles.py` measures our own renderer's
(`vision.castle_count.castle_features`), and the true castles whose middle it covers.
The path tracer lights a castle's sides and casts its shadow as a low bulb does, which
our renderer only imitates.
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
from scripts.fit_castles import CYCLES_CASTLES, FIELDS, castle_blobs  # noqa: E402
from vision.reader import Reader  # noqa: E402


def measure(reader: Reader, frame: np.ndarray, spec: dict[str, Any]) -> list[list[object]]:
    pieces = play_pieces(spec)
    kept, _ = castle_blobs(reader, frame, pieces)
    return [[spec["seed"], spec["light"], zone, word, bands, *features]
            for zone, word, features, bands in kept]


def main(argv: list[str] | None = None) -> int:
    return keep("cycles_castles", __doc__ or "", measure, out=CYCLES_CASTLES,
                default_seeds="1-26", key="blobs", fields=FIELDS, argv=argv)


if __name__ == "__main__":
    raise SystemExit(main())
