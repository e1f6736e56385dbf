"""Fit how far a pixel must differ from the bare table to be a piece's.

    .venv/bin/python scripts/fit_difference.py            # writes vision/fitted/difference.json

Labelled data: rendered tables (`vision.render`, seeds `FIRST_SEED` on, tuning only —
the benchmarks report on seeds 900000 and up), each read against a picture of the same
table without pieces taken under a slightly different light, as a real evening's light
drifts between the set-up and play. Every pixel of the zones is labelled from the scene's
geometry: inside a piece's silhouette (its foot and its top as the camera sees them) it
is the piece's; further than `CLEAR_PX` from every silhouette it is the table's —
shadows, tile art, glare and noise included.

The thresholds are the table's own extremes: the `CHROMA_QUANTILE` of the table
pixels' unexplained colour change, and the `LIGHT_QUANTILE` of their brightness ratio at
both ends. So tile art, shadows and drift are background in all but a few pixels in a
hundred, whatever they look like; the isolated pixels left over are smaller than any
piece and are opened away by the reader. How much of each piece is seen is reported, not optimised.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.fitting import labelled_frames  # noqa: E402
from vision import colours  # noqa: E402
from vision.layout import Layout, load_layout  # noqa: E402
from vision.reader import Reader  # noqa: E402
from vision.reference import FITTED, Comparison, Difference  # noqa: E402
from vision.render import scene as scenes  # noqa: E402
from vision.render.pieces import Piece  # noqa: E402

FIRST_SEED = 31000
#: The renderer's widest variety: art of every palette, the cube colours' own included.
VARIETY = "wide"
#: Table pixels whose colour changes this much are rare and scattered (fine art re-seen
#: through noise): the reader's opening removes them. Brightness changes come in whole
#: regions (shadows, glare, drift), so their bound is the stricter one.
CHROMA_QUANTILE = 0.99
LIGHT_QUANTILE = 0.999
STALE_MARGIN = 1.25
CLEAR_PX = 3
CHECK_FRAMES = 3
COMMAND = "scripts/fit_difference.py"


def _drifted(lighting: Any, rng: np.random.Generator) -> Any:
    """The same room a while later: the lamp a little brighter or dimmer and warmer or
    cooler, the gradient turned, glare where it was."""
    cast = float(rng.uniform(-0.04, 0.04))
    gains = tuple(float(g) * f for g, f in zip(lighting.gains, (1 - cast, 1.0, 1 + cast),
                                                strict=True))
    return dataclasses.replace(
        lighting, gains=gains, level=float(lighting.level * rng.uniform(0.9, 1.1)),
        gradient_angle=float(lighting.gradient_angle + rng.uniform(-30, 30)))


def _silhouette(reader: Reader, piece: Piece, camera: Any, layout: Layout) -> np.ndarray:
    """Mat points (mm) of a piece's outline as the camera sees it: its foot and its top,
    each projected from the camera onto the mat plane."""
    size = float(getattr(piece, "size", 1.0))
    edge = layout.pieces_mm.get(piece.kind, 8.0) * size
    height = layout.height_mm(piece.kind) * size
    if piece.kind in ("cube", "castle"):
        a = np.radians(piece.rot)
        corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) * edge / 2
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        foot = corners @ rot.T + [piece.x, piece.y]
    else:
        t = np.linspace(0, 2 * np.pi, 24, endpoint=False)
        foot = np.c_[np.cos(t), np.sin(t)] * edge / 2 + [piece.x, piece.y]
    cx, cy, cz = camera.centre_mm
    # The top at height h, seen from the camera (cz < 0 above the mat), lands on the mat
    # plane further out by h / (H - h).
    k = height / max(1.0, -cz - height)
    top = foot + (foot - [cx, cy]) * k
    return np.vstack([foot, top])


def _labels(reader: Reader, scene: Any, layout: Layout) -> np.ndarray:
    """Per atlas pixel: 1 a piece's, 0 the table's, 255 too close to tell."""
    atlas = reader.atlas
    rows = atlas.colour_rows
    piece_mask = np.zeros((rows, atlas.width), np.uint8)
    for piece in scene.pieces:
        outline = _silhouette(reader, piece, scene.camera, layout)
        for cell in atlas.cells:
            if cell.y >= rows:
                continue
            x0, y0 = cell.origin_mm
            x1, y1 = x0 + cell.w / atlas.scale, y0 + cell.h / atlas.scale
            if (outline[:, 0].max() < x0 or outline[:, 0].min() > x1
                    or outline[:, 1].max() < y0 or outline[:, 1].min() > y1):
                continue
            hull = cv2.convexHull(((outline - [x0, y0]) * atlas.scale).astype(np.float32))
            local = np.zeros((cell.h, cell.w), np.uint8)
            cv2.fillConvexPoly(local, np.round(hull * 16).astype(np.int32), 1, cv2.LINE_8,
                               shift=4)
            roi = piece_mask[cell.y:cell.y + cell.h, cell.x:cell.x + cell.w]
            np.maximum(roi, local[: max(0, rows - cell.y)], out=roi)
    inside = atlas.zone_index[:rows] > 0
    sure = cv2.erode(piece_mask, np.ones((3, 3), np.uint8))
    near = cv2.dilate(piece_mask, np.ones((2 * CLEAR_PX + 1,) * 2, np.uint8))
    out = np.full(piece_mask.shape, 255, np.uint8)
    out[(near == 0) & inside] = 0
    out[(sure == 1) & inside] = 1
    return out


def sample(layout: Layout, seed: int, hard: bool) -> dict[str, np.ndarray]:
    """Features of one labelled frame: unexplained change, brightness ratio, whether the
    pixel's colour is a piece colour, and the label."""
    rng = np.random.default_rng(seed)
    scene = scenes.random_scene(layout, rng, hard=hard, variety=VARIETY)
    scene.hands = []
    frame = scenes.render(layout, scene, seed)
    bare_scene = scenes.with_changes(scene, [])
    bare_scene.lighting = _drifted(scene.lighting, rng)
    bare_frame = scenes.render(layout, bare_scene, seed + 1)
    reader = Reader(layout)
    bare = reader.learn_bare(bare_frame)
    comparison = Comparison(bare, reader.atlas, Difference(chroma=1.0, brighter=99.0,
                                                           darker=0.0))
    atlas = reader.atlas.cut(frame)
    reader.balance(frame, atlas)
    unexplained, ratio = comparison.features(atlas, comparison.gains(atlas))
    labels = _labels(reader, scene, layout)
    coloured = np.take(colours.paper_table(),
                       colours.table_index(atlas[: reader.atlas.colour_rows])) != colours.NONE
    keep = labels != 255
    # The same table a moment later: only the sensor's noise differs.
    again = reader.atlas.cut(scenes.render(layout, scene, seed + 2))
    reader.balance(frame, again)
    rows = reader.atlas.colour_rows
    noise = cv2.absdiff(atlas[:rows], again[:rows]).max(axis=2)[labels == 0]
    # The bare table of another table (the next seed's tiles): where the reference is
    # wrong. Shares are measured once the thresholds are fitted.
    other = Reader(layout).learn_bare(scenes.render(
        layout, scenes.with_changes(scenes.random_scene(
            layout, np.random.default_rng(seed + 100000), hard=hard, variety=VARIETY),
            []), seed + 3))
    return {"unexplained": unexplained[keep], "ratio": ratio[keep],
            "coloured": coloured[keep], "label": labels[keep], "noise": noise,
            "later": (reader, atlas, coloured, bare, other)}


def _shares(later: Any, difference: Difference) -> dict[str, np.ndarray]:
    """Per territory, the share differing in no piece colour, against the right bare
    table and against another table's."""
    reader, atlas, coloured, bare, other = later
    out = {}
    for name, ref in (("right", bare), ("other", other)):
        comp = Comparison(ref, reader.atlas, difference)
        share = comp.shares(comp.foreground(atlas, comp.gains(atlas), coloured), coloured)
        out[name] = np.array([share[c.index] for c in reader.atlas.of_kind("territory")])
    return out


def fit(frames: int, first_seed: int = FIRST_SEED) -> dict[str, Any]:
    layout = load_layout(None)
    parts = []
    for seed, hard in labelled_frames(frames, first_seed, step=1):
        parts.append(sample(layout, seed, hard))
    data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0] if k != "later"}
    table = data["label"] == 0
    piece = data["label"] == 1
    q, light = CHROMA_QUANTILE, LIGHT_QUANTILE
    thresholds = Difference(
        chroma=round(float(np.quantile(data["unexplained"][table], q)), 4),
        chroma_coloured=round(float(np.quantile(
            data["unexplained"][table & data["coloured"]], q)), 4),
        brighter=round(float(np.quantile(data["ratio"][table], light)), 4),
        darker=round(float(np.quantile(data["ratio"][table], 1 - light)), 4))
    # Noise: a still zone is read again only when a pixel moved beyond what the
    # sensor's noise does to one pixel in ten thousand.
    changed = round(float(np.quantile(data["noise"], 0.9999)) + 1.0, 1)
    # A stale zone: a right bare table must never be called stale (its zone would be
    # read blind), so the bound lies a quarter above the most any right one left.
    shares = [_shares(p["later"], thresholds) for p in parts]
    right_all = np.concatenate([sh["right"] for sh in shares])
    other_all = np.concatenate([sh["other"] for sh in shares])
    right, other = float(right_all.max()), float(other_all.min())
    stale = round(STALE_MARGIN * right, 3)
    missed = int((other_all <= stale).sum())
    thresholds = dataclasses.replace(thresholds, changed=changed, stale=stale)
    found = thresholds.decide(data["unexplained"], data["ratio"], data["coloured"])
    return {
        "command": f".venv/bin/python {COMMAND} --frames {frames} --first-seed {first_seed}",
        "data": {"renderer": "vision.render", "variety": VARIETY, "frames": frames,
                 "seeds": [first_seed, first_seed + frames - 1],
                 "light": "mild and hard alternately; the bare table under drifted light",
                 "table_pixels": int(table.sum()), "piece_pixels": int(piece.sum())},
        "thresholds": dataclasses.asdict(thresholds),
        "report": {"table_pixels_called_piece": round(float(found[table].mean()), 5),
                   "piece_pixels_found": round(float(found[piece].mean()), 4),
                   "zone_share_with_right_reference_max": round(right, 3),
                   "zone_share_with_other_tiles_min": round(other, 3),
                   "other_tiles_not_found_stale": f"{missed} of {len(other_all)}"},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=16, help="labelled frames (default 16)")
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED)
    parser.add_argument("--out", type=Path, default=FITTED,
                        help=f"where to write (default {FITTED.relative_to(ROOT)})")
    args = parser.parse_args(argv)
    if not 1 <= args.frames <= 1000:
        parser.error(f"--frames {args.frames} must be between 1 and 1000")
    if args.first_seed >= 900000:
        parser.error("seeds from 900000 on are held out for the benchmarks; fit below them")
    result = fit(args.frames, args.first_seed)
    # The same script on its first frames only: what the test suite re-runs to check
    # that this file is this script's output.
    small = min(args.frames, CHECK_FRAMES)
    result["check"] = {"frames": small, "thresholds": fit(small, args.first_seed)["thresholds"]}
    try:
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        print(f"fit_difference: cannot write {args.out} ({exc.strerror or exc})",
              file=sys.stderr)
        return 2
    print(json.dumps(result["thresholds"]), file=sys.stderr)
    print(json.dumps(result["report"]), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
