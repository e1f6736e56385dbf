"""Fit how wide a disc the emperor's yellow blob holds, read against the bare table.

    .venv/bin/python scripts/fit_emperor.py        # writes vision/fitted/emperor.json

When no yellow blob looks like the emperor (round, big enough: on ochre or yellow art and
in hard light he differs from the bare table only in pieces), the reader takes for him
the yellow territory blob holding the widest disc (with the yellow blobs touching it:
`vision.reader.joined_discs`), if that disc's radius is at least `least_disc_mm`: the
least such radius of his blobs in labelled frames.

Labelled data: rendered tables of the widest variety (`vision.render`, seeds `FIRST_SEED`
on, tuning only — the benchmarks report on seeds 900000 and up), mild and hard light
alternately, each read by a reader calibrated on its own calibration frame. Every yellow
territory blob is labelled by whether the emperor's middle (where the camera sees it,
half his height up) lies in its hull. The report says in how many frames the blob with
the widest disc is his (all frames, and those where no blob looked like him).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.fitting import fit_command, labelled_frames  # noqa: E402
from scripts.labelled import VARIETY, calibrated_table  # noqa: E402
from vision.layout import load_layout  # noqa: E402
from vision.reader import EMPEROR_FITTED, joined_discs  # noqa: E402
from vision.render import scene as scenes  # noqa: E402

FIRST_SEED = 32500
CHECK_FRAMES = 2
COMMAND = "scripts/fit_emperor.py"


def blobs_of(seed: int, hard: bool) -> tuple[list[tuple[float, bool]], bool]:
    """(radius in mm of the largest disc inside, holds the emperor) of every yellow
    territory blob of one labelled frame, and whether a blob looked like him."""
    layout = load_layout(None)
    table, reader = calibrated_table(layout, seed, hard)
    reader.emperor_disc = None
    reader.collect_yellow = []
    found = reader.read(scenes.render(layout, table, seed)).emperor is not None
    emperor = [p for p in table.pieces if p.kind == "emperor"]
    out = []
    discs = joined_discs([(zone, box, blob) for zone, _, _, blob, box, _ in
                          reader.collect_yellow])
    for (zone, _, _, blob, box, _), disc in zip(reader.collect_yellow, discs, strict=True):
        holds = False
        for piece in emperor:
            cell = next(c for c in reader.atlas.cells if c.zone.name == zone)
            dx, dy = reader.parallax(piece.x, piece.y, 0.5 * layout.height_mm("emperor"))
            iy, ix = cell.px(np.array([piece.x + dx]), np.array([piece.y + dy]), reader.scale)
            hull = cv2.copyMakeBorder(blob.astype(np.uint8), 2, 2, 2, 2,
                                      cv2.BORDER_CONSTANT, value=0)
            cv2.fillConvexPoly(hull, cv2.convexHull(cv2.findNonZero(hull)), 1)
            y, x = int(iy[0]) - box[1] + 2, int(ix[0]) - box[0] + 2
            holds |= bool(0 <= y < hull.shape[0] and 0 <= x < hull.shape[1] and hull[y, x])
        out.append((disc / reader.scale, holds))
    return out, found


def fit(frames: int, first_seed: int = FIRST_SEED) -> dict[str, Any]:
    drawn = []
    for seed, hard in labelled_frames(frames, first_seed):
        drawn.append(blobs_of(seed, hard))
    # The widest disc his blobs hold, frame by frame: the least of them is the bound. The
    # widest of the other yellow blobs' is reported (cubes pushed together may hold a
    # wider one: he is the widest only where no blob looks like him).
    his = [max(r for r, holds in blobs if holds) for blobs, _ in drawn
           if any(holds for _, holds in blobs)]
    least = round(float(min(his)), 4) if his else 0.0
    others_widest = max((r for blobs, _ in drawn for r, holds in blobs if not holds),
                        default=0.0)
    right = right_unfound = unfound = 0
    for blobs, found in drawn:
        widest = max(blobs, default=(0.0, False))
        ok = widest[0] >= least and widest[1]
        right += ok
        if not found:
            unfound += 1
            right_unfound += ok
    return {
        "command": f".venv/bin/python {COMMAND} --frames {frames} --first-seed {first_seed}",
        "data": {"renderer": "vision.render", "variety": VARIETY, "frames": frames,
                 "seeds": [first_seed, first_seed + 10 * (frames - 1)],
                 "light": "mild and hard alternately"},
        "model": {"least_disc_mm": least},
        "report": {"others_widest_disc_mm": round(others_widest, 4),
                   "frames_where_the_widest_disc_is_his": f"{right} of {frames}",
                   "of_those_where_no_blob_looked_like_him": f"{right_unfound} of {unfound}"},
    }


def main(argv: list[str] | None = None) -> int:
    return fit_command("fit_emperor", __doc__ or "", fit, out=EMPEROR_FITTED, frames=30,
                       first_seed=FIRST_SEED, check_frames=CHECK_FRAMES, argv=argv,
                       show=("model", "report"))


if __name__ == "__main__":
    raise SystemExit(main())
