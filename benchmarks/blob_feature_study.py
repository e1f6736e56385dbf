"""Would the cube count gain from a new feature of a blob? Tried without refitting.

    .venv/bin/python benchmarks/blob_feature_study.py --frames 80 --cache /tmp/blobs.pkl

Adding a feature to the cube count (`vision.cube_count.FEATURES`) means measuring it in
the reader, refitting the model on 200 rendered frames (twenty minutes) and running the
per-frame benches (twenty more) before knowing whether it helps. Here the blobs of the
cube model's own labelled frames (`scripts.fit_cubes.frame_of`, tuning seeds only) are
gathered once with what a feature may be measured on — the blob's mask, its atlas
pixels and the bare table's under it — and kept (`--cache`). Each candidate in
`CANDIDATES` is then measured on every blob and added to the stored features, scaled
to unit spread and weighed `WEIGHTS` times, in the nearest-neighbour vote the reader
uses (the stored model's scaling and weights for the rest). The frames are split in
two by seed (even and odd frames); each half is counted by a vote on the other, and
the blobs miscounted are summed, for the stored features alone and with each candidate.

A candidate that miscounts clearly fewer blobs than the stored features alone is worth
the refit; one that does not is not. The candidates here are the three tried in the
forty-sixth session (none helped): how many lit tops a blob of a piece's colour shows,
how many cores it falls apart into when eroded by a third of a cube's side, and how
much of the art's pattern it replaced (`pattern`: the share of the frame's brightness
pattern the bare table's does not explain, the mean over the blob); and the one tried in
the forty-eighth (`new_edges`: how much of it holds edges the bare table lacks; it
did not help either); and two tried in the forty-ninth (`upwind`, `upwind_change`: what
lies one shadow offset toward the lamp from a patch found by its darkness, where a
shadow's caster would stand and a dyed cube's own top does). `upwind_change` then became
the count's own feature `upwind` (the forty-ninth session's refit): against the stored
model it now measures what the model already holds. The fiftieth session tried the
same for blobs of a piece's colour, where a castle's shadow darkening a meadow reads
green (`upwind_coloured`, also two offsets away for a castle's longer shadow, and
`cast_on_coloured`: the share of the blob the other pieces' shadows cover); on 80
frames none helped (+2 to +45 of 185 miscounted).
"""

from __future__ import annotations

import argparse
import functools
import json
import pickle
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.cube_classifier_study import nearest_vote  # noqa: E402
from benchmarks.new_edges_study import new_edge_mask  # noqa: E402
from scripts.fit_cubes import FIRST_SEED, frame_of  # noqa: E402
from scripts.fitting import labelled_frames  # noqa: E402
from scripts.labelled import cubes_in_blobs  # noqa: E402
from vision.cast import cast_shadows, change_toward_lamp  # noqa: E402
from vision.cube_count import FEATURES, FITTED, CubeCount  # noqa: E402
from vision.layout import load_layout  # noqa: E402

#: How much a candidate weighs in the distance, each tried.
WEIGHTS = (0.5, 1.0, 2.0)
#: Atlas pixels kept around each blob's box (a pattern is measured over a window).
PAD = 4
#: Atlas pixels kept around each blob's box for what lies toward the lamp from it (a
#: shadow's caster stands one shadow offset away, a few pixels in hard light).
REACH = 14
_SHADE = FEATURES.index("shade")
#: How many times as far as a cube's a castle's shadow falls (as the reader casts it).
_HEIGHTS = load_layout(None)
CASTLE_TALLER = _HEIGHTS.height_mm("castle") / _HEIGHTS.height_mm("cube")


@dataclass(frozen=True)
class Blob:
    """One labelled blob and what a candidate feature may be measured on."""

    frame: int
    features: np.ndarray
    true: int
    mask: np.ndarray            # the blob in its box
    pixels: np.ndarray          # the atlas (white-balanced) over the box and `PAD` around
    bare: np.ndarray            # the bare table's picture there
    side: float                 # a cube's side in atlas pixels
    #: which way and how far (atlas px) a cube's shadow falls in its frame
    #: (`Reader._measure_offset`)
    offset: tuple[float, float] = (0.0, 0.0)
    #: the pieces seen plainly (blobs of a piece's colour, castles) over the box and
    #: `REACH` around; and the frame's brightness over the bare table's there
    pieces: np.ndarray | None = None
    ratio: np.ndarray | None = None

    @property
    def patch(self) -> bool:
        """Found by its darkness alone (a cube dyed like its field, or a shadow)."""
        return bool(self.features[_SHADE] > 0.5)

    def inner(self, image: np.ndarray) -> np.ndarray:
        """`image` (of the padded box) over the blob's own box."""
        h, w = self.mask.shape
        return image[PAD:PAD + h, PAD:PAD + w]


@functools.cache
def stored() -> CubeCount:
    """The stored cube model, read once (its file holds some twenty thousand blobs)."""
    return CubeCount.from_json(json.loads(FITTED.read_text(encoding="utf-8"))["model"])


def gather(frames: int, first_seed: int = FIRST_SEED) -> list[Blob]:
    """Every blob the reader weighs on the cube model's labelled frames, labelled."""
    model = stored()
    blobs: list[Blob] = []
    for i, (seed, hard) in enumerate(labelled_frames(frames, first_seed)):
        item = frame_of(seed, hard)
        reader = item.reader
        reader.cubes = None
        reader.shade, reader.stir = model.shade, model.stir
        reader.collect = []
        reader.steady.reset()
        plain = _plain_pieces(reader)
        reader.read(item.frame)
        del reader._measure_offset
        counts, _ = cubes_in_blobs(reader, item.table.pieces)
        atlas = reader._atlas
        assert atlas is not None and reader._comparison is not None
        ref = reader._comparison.picture(0, atlas.shape[0], 0, atlas.shape[1])
        padded = cv2.copyMakeBorder(atlas[:ref.shape[0]], PAD, PAD, PAD, PAD,
                                    cv2.BORDER_REPLICATE)
        bare = cv2.copyMakeBorder(ref, PAD, PAD, PAD, PAD, cv2.BORDER_REPLICATE)
        assert reader._shade is not None
        rows = reader.atlas.blob_rows
        seen = plain[0] if plain else np.zeros((rows, atlas.shape[1]), bool)
        pieces = cv2.copyMakeBorder(seen.view(np.uint8), REACH, REACH, REACH, REACH,
                                    cv2.BORDER_CONSTANT, value=0).view(bool)
        ratio = cv2.copyMakeBorder(reader._shade[0][:rows].astype(np.float32), REACH, REACH,
                                   REACH, REACH, cv2.BORDER_REPLICATE)
        boxed = [c for c in reader.collect if c[3] is not None]
        for (_, _, features, box, mask), true in zip(boxed, counts, strict=True):
            bx, by, bw, bh = box
            window = (slice(by, by + bh + 2 * PAD), slice(bx, bx + bw + 2 * PAD))
            wide = (slice(by, by + bh + 2 * REACH), slice(bx, bx + bw + 2 * REACH))
            blobs.append(Blob(i, np.asarray(features, np.float32), int(true), mask.copy(),
                              padded[window].copy(), bare[window].copy(),
                              reader._sizes["cube"] * reader.scale, reader._offset,
                              pieces[wide].copy(), ratio[wide].copy()))
    return blobs


def _plain_pieces(reader: Any) -> list[np.ndarray]:
    """Keep the mask of the pieces `reader`'s next read sees plainly, as it measures
    their shadows' offset (the list gets it; the wrapper is the reader's own attribute,
    deleted after the read)."""
    kept: list[np.ndarray] = []
    measure = reader._measure_offset

    def keeping(pieces: np.ndarray, *rest: Any) -> None:
        kept.append(pieces.copy())
        measure(pieces, *rest)

    reader._measure_offset = keeping
    return kept


def toward_lamp(blob: Blob, steps: float = 1.0) -> np.ndarray:
    """Where a caster of `blob` as a shadow would stand: the blob moved `steps` shadow
    offsets toward the lamp, less the blob itself (over the `REACH` window)."""
    h, w = blob.mask.shape
    assert blob.pieces is not None
    mask: np.ndarray = np.zeros(blob.pieces.shape, np.uint8)
    mask[REACH:REACH + h, REACH:REACH + w] = blob.mask
    move = np.array([[1, 0, -steps * blob.offset[0]], [0, 1, -steps * blob.offset[1]]],
                    np.float32)
    moved = np.asarray(cv2.warpAffine(mask, move, (mask.shape[1], mask.shape[0]),
                                      flags=cv2.INTER_NEAREST)).view(bool)
    there: np.ndarray = moved & ~mask.view(bool)
    return there


def upwind(blob: Blob) -> float:
    """For a patch found by its darkness: the share of where its caster would stand
    (`toward_lamp`) that is a piece seen plainly. A shadow's caster is there; a cube
    dyed like its field has its own top there, which looks like the art."""
    if not blob.patch or blob.pieces is None:
        return 0.0
    there = toward_lamp(blob)
    return float(blob.pieces[there].mean()) if there.any() else 0.0


def _change_upwind(blob: Blob, steps: float = 1.0) -> float:
    """Mean |log(frame / bare table)| `steps` shadow offsets toward the lamp from the blob
    (`vision.cast.change_toward_lamp`, as the reader measures it)."""
    assert blob.ratio is not None
    h, w = blob.mask.shape
    return change_toward_lamp(blob.ratio, blob.mask, (REACH, REACH, w, h),
                              (steps * blob.offset[0], steps * blob.offset[1]))


def upwind_change(blob: Blob) -> float:
    """The same place's mean |log(frame / bare table)|: a caster of a piece's colour
    changed it, a dyed cube's top hardly."""
    if not blob.patch or blob.ratio is None:
        return 0.0
    return _change_upwind(blob)


def upwind_coloured(blob: Blob, steps: float = 1.0) -> float:
    """`upwind_change` for a blob of a piece's colour (0 for a patch): a shadow darkening
    art of a piece's colour (a castle's on a meadow) reads as that colour, and its
    caster stands toward the lamp from it; a lone cube has the art there."""
    if blob.patch or blob.ratio is None:
        return 0.0
    return _change_upwind(blob, steps)


def cast_on_coloured(blob: Blob) -> float:
    """For a blob of a piece's colour: the share of it where the other plainly seen
    pieces' shadows would fall, cast as far as a castle's (`vision.cast.cast_shadows`)."""
    if blob.patch or blob.pieces is None:
        return 0.0
    h, w = blob.mask.shape
    own = np.zeros(blob.pieces.shape, bool)
    own[REACH:REACH + h, REACH:REACH + w] = blob.mask
    others = blob.pieces & ~own
    shadows = cast_shadows(others, blob.offset, CASTLE_TALLER)
    return float(shadows[own].mean()) if own.any() else 0.0


def tops(blob: Blob) -> float:
    """Lit tops a blob of a piece's colour shows: parts of its brightest two fifths at
    least an eighth of a cube's top (none for a patch, whose top is the art's)."""
    brightness = blob.inner(blob.pixels).astype(np.float32).sum(axis=2)
    values = brightness[blob.mask]
    if blob.patch or values.size < 4:
        return 0.0
    bright = ((brightness >= np.percentile(values, 60)) & blob.mask).astype(np.uint8)
    _, _, stats, _ = cv2.connectedComponentsWithStats(bright, connectivity=4)
    return float((stats[1:, cv2.CC_STAT_AREA] >= 0.12 * blob.side**2).sum())


def cores(blob: Blob) -> float:
    """Parts the blob falls into when eroded by a third of a cube's side: cubes that
    touch at a corner come apart, a cube's outline does not."""
    k = max(1, round(0.3 * blob.side))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
    eroded = cv2.erode(blob.mask.astype(np.uint8), disc, borderType=cv2.BORDER_CONSTANT,
                       borderValue=0)
    return float(cv2.connectedComponents(eroded)[0] - 1)


def pattern(blob: Blob, window: int = 5) -> float:
    """How much of the frame's brightness pattern the bare table's, fitted as a gain and
    an offset over `window` pixels, leaves unexplained, over the blob: a shadow keeps
    the art's pattern, a cube's faces replace it."""
    f = blob.pixels.astype(np.float32).sum(axis=2)
    r = blob.bare.astype(np.float32).sum(axis=2)
    size = (window, window)
    mf, mr = cv2.boxFilter(f, -1, size), cv2.boxFilter(r, -1, size)
    vf = cv2.boxFilter(f * f, -1, size) - mf * mf
    vr = cv2.boxFilter(r * r, -1, size) - mr * mr
    cov = cv2.boxFilter(f * r, -1, size) - mf * mr
    left = np.sqrt(np.maximum(vf - cov * cov / (vr + 25.0), 0)) / (mf + 30.0)
    return float(blob.inner(left)[blob.mask].mean()) if blob.mask.any() else 0.0


def new_edges(blob: Blob) -> float:
    """The share of the blob, grown by two pixels, where the frame has edges the bare
    table lacks (`new_edges_study.new_edge_mask`): a cube's outline and the line between
    its top and sides are there even where its colour is the field's."""
    grown = cv2.dilate(cv2.copyMakeBorder(blob.mask.astype(np.uint8), PAD, PAD, PAD, PAD,
                                          cv2.BORDER_CONSTANT, value=0),
                       np.ones((5, 5), np.uint8)).view(bool)
    return float(new_edge_mask(blob.pixels, blob.bare)[grown].mean())


CANDIDATES: dict[str, Callable[[Blob], float]] = {
    "tops": tops, "cores": cores, "pattern": pattern, "new_edges": new_edges,
    "upwind": upwind, "upwind_change": upwind_change, "upwind_coloured": upwind_coloured,
    "upwind_coloured_x2": functools.partial(upwind_coloured, steps=2.0),
    "cast_on_coloured": cast_on_coloured}


def miscounted(blobs: list[Blob], extra: np.ndarray | None = None,
               weight: float = 1.0) -> tuple[int, int]:
    """Blobs miscounted (all, and those found by darkness alone) when each half of the
    frames is counted by a vote on the other, on the stored features scaled and
    weighed as the stored model does, plus `extra` columns (unit spread, `weight`)."""
    model = stored()
    x = np.array([b.features for b in blobs], np.float32)
    scaled = (x - model.mean) / model.scale
    if model.weights is not None:
        scaled *= model.weights
    if extra is not None:
        extra = extra.reshape(len(blobs), -1)
        spread = extra.std(axis=0)
        spread[spread < 1e-6] = 1.0
        scaled = np.hstack([scaled, (extra - extra.mean(axis=0)) / spread * weight])
    scaled = scaled.astype(np.float32)
    truth = np.array([b.true for b in blobs])
    patch = np.array([b.patch for b in blobs])
    odd = np.array([b.frame % 2 == 1 for b in blobs])
    wrong = np.zeros(len(blobs), bool)
    for test in (odd, ~odd):
        if test.any() and (~test).any():
            wrong[test] = nearest_vote(scaled[~test], truth[~test], scaled[test]) != truth[test]
    return int(wrong.sum()), int((wrong & patch).sum())


def study(blobs: list[Blob], candidates: dict[str, Callable[[Blob], float]]) -> list[str]:
    """One line for the stored features alone, and one per candidate and weight."""
    base, base_patch = miscounted(blobs)
    lines = [f"{len(blobs)} blobs ({sum(b.patch for b in blobs)} found by darkness alone), "
             f"frames {1 + max(b.frame for b in blobs)}",
             f"stored features: {base} miscounted ({base_patch} found by darkness alone)"]
    for name, measure in candidates.items():
        values = np.array([measure(b) for b in blobs], np.float32)
        for weight in WEIGHTS:
            wrong, patch = miscounted(blobs, values, weight)
            lines.append(f"+ {name} x{weight}: {wrong} miscounted ({patch} found by "
                         f"darkness alone), {wrong - base:+d}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=80, help="labelled frames (default 80)")
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED)
    parser.add_argument("--cache", type=Path, help="keep the gathered blobs here (a pickle "
                        "this script wrote; read back if it exists)")
    args = parser.parse_args(argv)
    if args.first_seed + 10 * args.frames > 900000:
        parser.error("seeds from 900000 on are held out for the benchmarks")
    if args.cache is not None and args.cache.exists():
        with args.cache.open("rb") as kept:
            blobs = pickle.load(kept)     # a file this script wrote
    else:
        blobs = gather(args.frames, args.first_seed)
        if args.cache is not None:
            with args.cache.open("wb") as out:
                pickle.dump(blobs, out)
    print("\n".join(study(blobs, CANDIDATES)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
