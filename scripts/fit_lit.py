"""Fit how bright a cube's top is, at least, over its colour as calibrated.

    .venv/bin/python scripts/fit_lit.py            # writes vision/fitted/lit.json

Why (see `vision.lit`): in a hard light a shadow differs from the bare table as much as
a piece does, and a colour table takes a shadow lit by a cool room for a dark blue cube.
A cube's top faces the lamp as the paper does, so after white balance it is about as
bright, and as colourful, as its colour on the calibration's swatches; a blob whose
brightest tenth stays well below either shows no top.

Labelled data from two renderers of different kinds, tuning seeds only (the benchmarks
report on seeds 900000 and up):

- our own (`vision.render`): the frames `fit_cubes` labels (tables of the widest variety,
  crowded tiles, mild and hard light alternately), rendered here;
- a path tracer (Blender's Cycles): its blobs kept as data (`CYCLES_LIT`, written by
  `scripts/cycles_lit.py` from the cached frames; Blender is no part of the product).

Each frame is read by a reader calibrated on its own calibration frame; every blob of a
piece's colour the cube count is asked about is labelled with the true cubes whose
middle it covers. Each bound is the `LOSS` quantile of the true cubes' blobs in each
renderer, the lower of the two: so at most about one true cube's blob in a thousand of
either kind of picture falls under each. The report says how many blobs holding no cube fall
under it too (shadows, art) — that is what the bound is for, but it is not fitted on.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.fit_cubes import FIRST_SEED, frame_of  # noqa: E402
from scripts.fitting import fit_command, labelled_frames  # noqa: E402
from scripts.labelled import VARIETY, cubes_in_blobs  # noqa: E402
from vision import lit  # noqa: E402
from vision.cube_count import FEATURES  # noqa: E402
from vision.lit import LitBound, Top  # noqa: E402
from vision.reader import Reader  # noqa: E402

CYCLES_LIT = ROOT / "scripts" / "data" / "cycles-lit.json"
COMMAND = "scripts/fit_lit.py"
CHECK_FRAMES = 2
#: Share of true cubes' blobs a renderer may have under the bound: one in a thousand
#: (one in two hundred dropped darker-dyed cubes of our renderer in its reserves).
LOSS = 0.001
_SHADE = FEATURES.index("shade")


Blob = tuple[float, float, int, str]


def blobs_lit(reader: Reader, frame: np.ndarray, pieces: list[Any]) -> list[Blob]:
    """(lit, colour shown, true cubes, colour) of every blob of a piece's colour the
    reader weighs in `frame` (the patches found by their darkness alone are another
    search: left out)."""
    reader.collect = []
    reader.steady.reset()
    reader.read(frame)
    counts, _ = cubes_in_blobs(reader, pieces)
    out = []
    kept = [c for c in reader.collect if c[3] is not None]
    for (_, colour, features, box, blob), n in zip(kept, counts, strict=True):
        assert box is not None
        if features[_SHADE]:
            continue
        seen = reader.top(colour, blob, box)
        out.append((round(seen.lit, 4), round(seen.colour, 4), n, colour))
    reader.collect = None
    return out


def cycles_blobs(path: Path = CYCLES_LIT) -> list[Blob]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [(float(v), float(k), int(n), str(c)) for v, k, n, c in data["blobs"]]


def bound(kinds: list[list[Blob]]) -> LitBound:
    """Each measure's `LOSS` quantile over each renderer's true cubes, the lowest."""
    return LitBound(*(round(min(float(np.quantile([b[m] for b in blobs if b[2] > 0], LOSS))
                                for blobs in kinds), 3) for m in (0, 1)))


def _under(least: LitBound, blobs: list[Blob]) -> dict[str, str]:
    under = [not least.shows_top(Top(v, k)) for v, k, _, _ in blobs]
    cubes = [u for u, b in zip(under, blobs, strict=True) if b[2] > 0]
    empty = [u for u, b in zip(under, blobs, strict=True) if b[2] == 0]
    return {"true_cube_blobs_under": f"{sum(cubes)} of {len(cubes)}",
            "blobs_of_no_cube_under": f"{sum(empty)} of {len(empty)}"}


def fit(frames: int, first_seed: int = FIRST_SEED) -> dict[str, Any]:
    ours: list[Blob] = []
    for seed, hard in labelled_frames(frames, first_seed):
        item = frame_of(seed, hard)
        ours += blobs_lit(item.reader, item.frame, item.table.pieces)
    traced = cycles_blobs()
    least = bound([ours, traced])
    stored = json.loads(CYCLES_LIT.read_text(encoding="utf-8"))
    return {
        "command": f".venv/bin/python {COMMAND} --frames {frames} --first-seed {first_seed}",
        "data": {"renderer": "vision.render", "variety": VARIETY, "frames": frames,
                 "seeds": [first_seed, first_seed + 10 * (frames - 1)], "blobs": len(ours),
                 "light": "mild and hard alternately",
                 "cycles": {"file": str(CYCLES_LIT.relative_to(ROOT)),
                            "seeds": stored["seeds"], "blobs": len(traced)}},
        "model": {"lit": least.lit, "colour": least.colour,
                  "top_percentile": lit.TOP_PERCENTILE, "loss": LOSS},
        "report": {"vision.render": _under(least, ours), "cycles": _under(least, traced),
                   "each alone": {"vision.render": dataclasses.asdict(bound([ours])),
                                  "cycles": dataclasses.asdict(bound([traced]))}},
    }


def main(argv: list[str] | None = None) -> int:
    return fit_command("fit_lit", __doc__ or "", fit, out=lit.FITTED, frames=30,
                       first_seed=FIRST_SEED, check_frames=CHECK_FRAMES, argv=argv,
                       show=("model", "report"))


if __name__ == "__main__":
    raise SystemExit(main())
