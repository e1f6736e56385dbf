"""Does a cube the reader does not see still leave edges the bare table lacks?

    .venv/bin/python benchmarks/new_edges_study.py --frames 30            # our renderer
    .venv/bin/python benchmarks/new_edges_study.py --cycles 1-13          # the path tracer

A cube dyed like its field may differ from the bare table too little in colour and
brightness to be foreground at all: the path tracer's mild tuning scenes have cubes read
as absent with certainty 0.87-0.92, which in a game is a move the camera vouches for. Its
outline and the line between its lit top and shaded sides are still edges the bare
table's picture does not have. Here, on labelled tuning frames, the gradient magnitude of
the white-balanced atlas (Lab, Sobel) is compared with the bare table's (dilated by a
pixel: a nudge is no new edge), and "new edges" are where the frame's exceeds
`RATIO` times the table's by more than `LEVEL`. The score of a place is the share of a
disc of `RADIUS` cube sides around it holding new edges.

Printed per light: the score at the middle of every true cube on a territory, of those
dyed like the field under them (the bare table's colour class there is the cube's), and
of those in no blob the reader weighs at all (`scripts.labelled.cubes_in_blobs`); against
the score at random territory places no piece's middle is within `EMPTY_SIDES` cube
sides of (castles' and the emperor's twice that): the area under the ROC curve, and the
share above the empty places' 99th percentile.

The constants are a study's, chosen before looking at any score: whether such a cue
separates at all. A reader that used it would fit its level on labelled frames.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
for extra in (ROOT, ROOT / "benchmarks"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from scripts.fit_cubes import FIRST_SEED, frame_of  # noqa: E402
from scripts.labelled import cubes_in_blobs, middles  # noqa: E402
from vision import colours  # noqa: E402
from vision.calibration import calibrate, reader_for  # noqa: E402
from vision.layout import load_layout  # noqa: E402
from vision.reader import Reader  # noqa: E402
from vision.render import scene as scenes  # noqa: E402
from vision.render.pieces import Piece  # noqa: E402

LEVEL = 40.0
RATIO = 1.5
RADIUS = 0.6
EMPTY_SIDES = 1.5
#: Random places tried per territory and frame.
PLACES = 6


def magnitude(bgr: np.ndarray) -> np.ndarray:
    """Gradient magnitude over the three Lab channels."""
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).astype(np.float32)
    total = np.zeros(bgr.shape[:2], np.float32)
    for channel in cv2.split(lab):
        gx = cv2.Sobel(channel, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(channel, cv2.CV_32F, 0, 1, ksize=3)
        total += gx * gx + gy * gy
    root: np.ndarray = np.sqrt(total)
    return root


def new_edge_mask(seen: np.ndarray, bare: np.ndarray) -> np.ndarray:
    """Where `seen` (white-balanced atlas pixels) has edges the bare table's picture of
    the same place lacks: its gradient above `RATIO` times the table's (dilated by a
    pixel: a nudge is no new edge) by more than `LEVEL`."""
    table = cv2.dilate(magnitude(bare), np.ones((3, 3), np.uint8))
    mask: np.ndarray = magnitude(seen) - RATIO * table > LEVEL
    return mask


def scores(reader: Reader, pieces: list[Piece], rng: np.random.Generator
           ) -> dict[str, list[float]]:
    """The study's scores for one frame the reader has just read (`reader.collect` on)."""
    _, unseen = cubes_in_blobs(reader, pieces)
    atlas = reader._atlas
    comparison = reader._comparison
    assert atlas is not None and comparison is not None
    bare = comparison.picture(0, atlas.shape[0], 0, atlas.shape[1])
    new = new_edge_mask(atlas[:bare.shape[0]], bare).astype(np.float32)
    side = reader._sizes["cube"] * reader.scale
    r = max(2, round(RADIUS * side))
    disc = np.zeros((2 * r + 1, 2 * r + 1), np.float32)
    cv2.circle(disc, (r, r), r, 1.0, -1)
    score = cv2.filter2D(new, -1, disc / disc.sum())
    near = np.zeros(score.shape, np.uint8)
    for kind in ("cube", "castle", "emperor"):
        reach = EMPTY_SIDES * side * (1 if kind == "cube" else 2)
        for _, _, iy, ix in middles(reader, pieces, kind, ("territory",)):
            cv2.circle(near, (ix, iy), round(reach), 1, -1)
    field = np.take(reader._pieces_table, comparison.picture_index(0, bare.shape[0], 0,
                                                                    bare.shape[1]))
    lost = {(iy, ix) for _, _, iy, ix in unseen}
    out: dict[str, list[float]] = {"cubes": [], "dyed like the field": [],
                                   "in no blob": [], "empty": []}
    for _, piece, iy, ix in middles(reader, pieces, "cube", ("territory",)):
        if 0 <= iy < score.shape[0] and 0 <= ix < score.shape[1]:
            out["cubes"].append(float(score[iy, ix]))
            if field[iy, ix] == colours.CLASS_OF[piece.colour]:
                out["dyed like the field"].append(float(score[iy, ix]))
            if (iy, ix) in lost:
                out["in no blob"].append(float(score[iy, ix]))
    zone_index = reader.atlas.zone_index
    for cell in reader.atlas.of_kind("territory"):
        for _ in range(PLACES):
            y = int(rng.integers(cell.y, cell.y + cell.h))
            x = int(rng.integers(cell.x, cell.x + cell.w))
            k = int(zone_index[y, x]) if y < score.shape[0] else 0
            if k > 0 and reader.atlas.cells[k - 1] is cell and not near[y, x]:
                out["empty"].append(float(score[y, x]))
    return out


def ours(frames: int) -> Iterator[tuple[str, Reader, list[Piece]]]:
    for i in range(frames):
        seed, hard = FIRST_SEED + 10 * i, i % 2 == 1
        item = frame_of(seed, hard)
        item.reader.collect = []
        item.reader.read(item.frame)
        yield ("hard" if hard else "mild"), item.reader, item.table.pieces


def path_traced(seeds: list[int]) -> Iterator[tuple[str, Reader, list[Piece]]]:
    import cycles_bench as cb  # Blender's frames, cached by cycles_bench.py

    layout = load_layout(None)
    for seed in seeds:
        for light in cb.LIGHTS:
            specs = cb.scene_specs(layout, seed, light)
            paths = [cb.frame_path(s) for s in specs[:2]]
            if not all(p.exists() for p in paths):
                print(f"scene {seed} {light}: not rendered (cycles_bench.py --render-only)",
                      file=sys.stderr)
                continue
            reader = reader_for(layout, calibrate(cb._load(paths[0]), layout))
            reader.collect = []
            reader.read(cb._load(paths[1]))
            base = scenes.random_scene(layout, np.random.default_rng(seed), variety="wide")
            yield light, reader, base.pieces


def auc(positive: np.ndarray, negative: np.ndarray) -> float:
    """How often a positive place scores above a negative one (ties count half)."""
    above = (positive[:, None] > negative[None, :]).mean()
    tied = (positive[:, None] == negative[None, :]).mean()
    return float(above + 0.5 * tied)


def report(found: dict[str, dict[str, list[float]]]) -> list[str]:
    lines = ["| light | places | count | median score | AUC against empty places | "
             "above the empty places' 99th percentile |", "|---|---|---|---|---|---|"]
    for light, kinds in sorted(found.items()):
        empty = np.asarray(kinds["empty"])
        top = float(np.quantile(empty, 0.99))
        lines.append(f"| {light} | empty | {len(empty)} | {np.median(empty):.2f} | | "
                     f"99th percentile {top:.2f} |")
        for kind in ("cubes", "dyed like the field", "in no blob"):
            values = np.asarray(kinds[kind])
            if len(values) == 0:
                lines.append(f"| {light} | {kind} | 0 | | | |")
                continue
            lines.append(f"| {light} | {kind} | {len(values)} | {np.median(values):.2f} | "
                         f"{auc(values, empty):.3f} | {(values > top).mean():.0%} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=30,
                        help="our renderer's labelled frames, tuning seeds (default 30)")
    parser.add_argument("--cycles", help="path-traced tuning scenes instead, e.g. 1-13")
    args = parser.parse_args(argv)
    if args.cycles:
        first, _, last = args.cycles.partition("-")
        try:
            seeds = list(range(int(first), int(last or first) + 1))
        except ValueError:
            parser.error(f"--cycles {args.cycles}: give seeds as FIRST-LAST, e.g. 1-13")
        if max(seeds) >= 900000:
            parser.error("path-traced seeds from 900000 on are held out")
        frames = path_traced(seeds)
    else:
        frames = ours(args.frames)
    rng = np.random.default_rng(0)
    found: dict[str, dict[str, list[float]]] = {}
    for light, reader, pieces in frames:
        for kind, values in scores(reader, pieces, rng).items():
            found.setdefault(light, {}).setdefault(kind, []).extend(values)
    print("\n".join(report(found)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
