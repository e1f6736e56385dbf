"""Keep the blobs of the path-traced tuning frames as labelled data for `fit_cubes`.

    .venv/bin/python scripts/cycles_cubes.py --seeds 1-26
    # writes scripts/data/cycles-cubes.json

What the cube count is told of each blob the reader weighs in the cached Blender frames
(see `scripts/cycles_kept.py`), measured as `scripts/fit_cubes.py` measures our own
renderer's (`vision.cube_count.blob_features`), and how many true cubes it holds. Our
renderer draws no shadow lit by another lamp than the pieces' tops: on its paper a blob
is always a cube, so a model fitted on it alone counts a small bluish shadow on a
reserve card as one. The path tracer's blobs are the other kind of picture it learns
from.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.cycles_kept import keep, play_pieces  # noqa: E402
from scripts.labelled import cubes_in_blobs  # noqa: E402
from vision import cube_count  # noqa: E402
from vision.cube_count import FEATURES, FITTED  # noqa: E402
from vision.reader import Reader  # noqa: E402

CYCLES_CUBES = ROOT / "scripts" / "data" / "cycles-cubes.json"
#: Each kept blob: the scene, its true cubes, then the model's features in their order.
FIELDS = ["seed", "light", "zone", "colour", "true_cubes", *FEATURES]


def _stored_bounds() -> tuple[float, float]:
    """The darkness search's bounds of the stored model (`shade`, `stir`: fitted on our
    renderer's light alone by `fit_cubes`), read without the model itself, which may
    have been fitted on other features than these blobs are measured with."""
    model = json.loads(FITTED.read_text(encoding="utf-8"))["model"]
    return float(model["shade"]), float(model["stir"])


def blobs_counted(reader: Reader, frame: np.ndarray, pieces: list[Any]
                  ) -> list[tuple[str, str, int, list[float]]]:
    """(zone, colour, true cubes, features) of every blob the cube count would be asked
    about in `frame`, with no model loaded (as `fit_cubes` reads its own frames: what is
    measured must not depend on the model being made)."""
    model, reader.cubes = reader.cubes, None
    reader.shade, reader.stir = _stored_bounds()
    reader.collect = []
    reader.steady.reset()
    try:
        reader.read(frame)
        counts, _ = cubes_in_blobs(reader, pieces)
        kept = [c for c in reader.collect if c[3] is not None]
    finally:
        reader.collect = None
        reader.cubes = model
    return [(zone, colour, n, [round(float(v), 4) for v in features])
            for (zone, colour, features, _, _), n in zip(kept, counts, strict=True)]


def measure(reader: Reader, frame: np.ndarray, spec: dict[str, Any]) -> list[list[object]]:
    pieces = play_pieces(spec)
    return [[spec["seed"], spec["light"], zone, colour, n, *features]
            for zone, colour, n, features in blobs_counted(reader, frame, pieces)]


def main(argv: list[str] | None = None) -> int:
    stored = cube_count.stored
    cube_count.stored = lambda: None  # type: ignore[assignment]   # see blobs_counted
    try:
        return keep("cycles_cubes", __doc__ or "", measure, out=CYCLES_CUBES,
                    default_seeds="1-26", key="blobs", fields=FIELDS, argv=argv)
    finally:
        cube_count.stored = stored  # type: ignore[method-assign]


if __name__ == "__main__":
    raise SystemExit(main())
