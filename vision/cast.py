"""Where the pieces' shadows fall, measured on the frame itself.

A cube dyed like its field differs from the bare table only by its dark sides and its
shadow, and so does the shadow another piece casts on that field: both are dark patches
of the field's colour. What tells them apart is not the lamp's colour or the art (we
know neither) but geometry: one lamp casts every piece's shadow the same way and about
as far. That way is read off the pieces the frame shows plainly (blobs of a piece's
colour): the dark pixels beside each lie, in the middle of them all, on the side away
from the lamp. A dark patch that lies where the pieces' shadows fall is explained by
them; what lies elsewhere is something else, perhaps a cube.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

#: How far along the pieces' mean shadow offset a shadow is taken to reach: the middle
#: of a piece's shadow lies at one offset, its far end at about two (the offset is that
#: of the shadow's middle, not its tip).
REACH = (0.5, 1.0, 1.5, 2.0)
#: Pieces looked at for the offset: at least this share of one cube's top.
LEAST_PIECE = 0.5
#: Around each piece, dark pixels as far as this many cube sides are its shadow.
NEAR = 1.5


def shadow_offset(pieces: np.ndarray,
                  casters: Sequence[tuple[np.ndarray, np.ndarray, float]],
                  dark: np.ndarray, side_px: float) -> tuple[float, float]:
    """The median over the plainly seen pieces of how far (atlas px, x and y) the middle
    of the dark pixels around each lies from its own middle, for a piece as tall as a
    cube; (0, 0) when no piece has any (soft light, or no piece). `pieces` is the mask
    of them all; `casters` their boxes (x, y, width, height, area: OpenCV's component
    stats), middles and how many times as tall as a cube they are, kind by kind (a
    castle's shadow falls further: its offset counts over that)."""
    return median_offset(caster_offsets(pieces, casters, dark, side_px)[1])


def median_offset(offsets: np.ndarray) -> tuple[float, float]:
    """The median of `caster_offsets`' offsets (of one read, or gathered zone by zone
    from several); (0, 0) when there are none."""
    if not len(offsets):
        return 0.0, 0.0
    dx, dy = np.median(offsets, axis=0)
    return float(dx), float(dy)


def caster_offsets(pieces: np.ndarray,
                   casters: Sequence[tuple[np.ndarray, np.ndarray, float]],
                   dark: np.ndarray, side_px: float) -> tuple[np.ndarray, np.ndarray]:
    """Each plainly seen piece that has dark pixels around it: its middle and the
    offset of theirs from it (as `shadow_offset`), as two arrays of (x, y) rows.

    A reader that keeps the counts of zones that did not move keeps their pieces'
    offsets too, and takes the median over all (see `Reader._measure_offset`)."""
    pad = round(NEAR * side_px)
    rows, cols = dark.shape[:2]
    # The dark pixels in any box and the sums of their columns and rows, from integral
    # images (a box's pixels one by one for each of a hundred pieces cost a full read
    # a third of its time), of whole numbers (exact in float64 too).
    around = cv2.bitwise_and(dark.view(np.uint8), cv2.bitwise_not(pieces.view(np.uint8)))
    around16 = around.astype(np.uint16)
    sums = [cv2.integral(image, sdepth=cv2.CV_64F)
            for image in (around, around16 * np.arange(cols, dtype=np.uint16),
                          around16 * np.arange(rows, dtype=np.uint16)[:, None])]
    middles: list[np.ndarray] = []
    offsets: list[np.ndarray] = []
    for boxes, centres, taller in casters:
        reach = round(pad * taller)
        big = boxes[:, cv2.CC_STAT_AREA] >= LEAST_PIECE * side_px * side_px
        bx, by, bw, bh = (boxes[big, i].astype(np.intp) for i in range(4))
        y0, x0 = np.maximum(0, by - reach), np.maximum(0, bx - reach)
        y1, x1 = np.minimum(rows, by + bh + reach), np.minimum(cols, bx + bw + reach)
        count, sum_x, sum_y = (s[y1, x1] - s[y0, x1] - s[y1, x0] + s[y0, x0] for s in sums)
        seen = count >= 4
        # as each box's own mean, then moved to the atlas (the same float arithmetic)
        mean_x = (sum_x[seen] - x0[seen] * count[seen]) / count[seen] + x0[seen]
        mean_y = (sum_y[seen] - y0[seen] * count[seen]) / count[seen] + y0[seen]
        middle = centres[big][seen]
        middles.append(middle)
        offsets.append(np.stack([(mean_x - middle[:, 0]) / taller,
                                 (mean_y - middle[:, 1]) / taller], axis=1))
    if not offsets:
        return np.zeros((0, 2)), np.zeros((0, 2))
    return np.concatenate(middles).reshape(-1, 2), np.concatenate(offsets).reshape(-1, 2)


def cast_shadows(pieces: np.ndarray, offset: tuple[float, float], taller: float = 1.0
                 ) -> np.ndarray:
    """Where the pieces' shadows fall (and the pieces themselves): each piece swept
    along the offset as far as `REACH` says, a pixel wider all round. The offset is
    measured on pieces as tall as a cube; a piece `taller` times as tall casts its
    shadow that many times as far."""
    source = pieces.view(np.uint8)
    cast = source.copy()
    h, w = source.shape
    for t in REACH:
        t *= taller
        move = np.array([[1, 0, t * offset[0]], [0, 1, t * offset[1]]], np.float32)
        kx, ky = whole_shift(float(move[0, 2])), whole_shift(float(move[1, 2]))
        if kx is None or ky is None:
            np.bitwise_or(cast, cv2.warpAffine(source, move, (w, h), flags=cv2.INTER_NEAREST),
                          out=cast)
            continue
        # the same pixels as that warp, moved by slicing (a full read makes eight)
        y0, y1, x0, x1 = max(0, ky), min(h, h + ky), max(0, kx), min(w, w + kx)
        if y0 < y1 and x0 < x1:
            np.bitwise_or(cast[y0:y1, x0:x1], source[y0 - ky:y1 - ky, x0 - kx:x1 - kx],
                          out=cast[y0:y1, x0:x1])
    grown: np.ndarray = cv2.dilate(cast, np.ones((3, 3), np.uint8)).view(bool)
    return grown


#: OpenCV's fixed point for a warp's source coordinates (`AB_BITS` in imgwarp.cpp).
_AB_BITS = 10


def whole_shift(t: float) -> int | None:
    """How many whole pixels OpenCV's nearest-neighbour `warpAffine` moves an image by a
    translation of `t` pixels: it maps each destination pixel back, x - t, in fixed
    point of `_AB_BITS` bits, rounded half to even then floored with half a pixel added.
    None where that rounding meets an exact half, or the move is a whole pixel and a
    half, which the warp does not make alike for every pixel (it is then asked itself)."""
    scaled = -t * (1 << _AB_BITS)
    half = 1 << (_AB_BITS - 1)
    whole = int(np.rint(scaled))
    if scaled - np.floor(scaled) == 0.5 or (whole + half) % (1 << _AB_BITS) == 0:
        return None
    return -((whole + half) >> _AB_BITS)


def change_toward_lamp(ratio: np.ndarray, blob: np.ndarray, box: tuple[int, int, int, int],
                       offset: tuple[float, float]) -> float:
    """How much the frame changed (mean |log(frame / bare table)|, `ratio` its
    brightness over the bare table's) where the caster of `blob` (its mask in `box`, x,
    y, width, height) would stand if it were a shadow: the blob moved one shadow
    `offset` toward the lamp, less itself. A shadow's caster is a piece there, much
    changed; a cube dyed like its field has its own top there, which looks like the
    art."""
    kx, ky = whole_shift(-offset[0]), whole_shift(-offset[1])
    kx = round(-offset[0]) if kx is None else kx
    ky = round(-offset[1]) if ky is None else ky
    bx, by, bw, bh = box
    rows, cols = ratio.shape[:2]
    x0, y0 = bx + kx, by + ky
    sx0, sy0 = max(0, x0), max(0, y0)
    sx1, sy1 = min(cols, x0 + bw), min(rows, y0 + bh)
    if sx0 >= sx1 or sy0 >= sy1:
        return 0.0
    moved = blob[sy0 - y0:sy1 - y0, sx0 - x0:sx1 - x0].copy()
    # less the blob itself where the two overlap
    ox0, oy0, ox1, oy1 = max(sx0, bx), max(sy0, by), min(sx1, bx + bw), min(sy1, by + bh)
    if ox0 < ox1 and oy0 < oy1:
        moved[oy0 - sy0:oy1 - sy0, ox0 - sx0:ox1 - sx0] &= ~blob[oy0 - by:oy1 - by,
                                                                 ox0 - bx:ox1 - bx]
    if not moved.any():
        return 0.0
    there = ratio[sy0:sy1, sx0:sx1][moved]
    return float(np.abs(np.log(np.maximum(there, 1e-3))).mean())
