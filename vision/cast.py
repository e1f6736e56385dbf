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


def shadow_offset(casters: Sequence[tuple[np.ndarray, float]], dark: np.ndarray,
                  side_px: float) -> tuple[float, float]:
    """The median over the plainly seen pieces of how far (atlas px, x and y) the middle
    of the dark pixels around each lies from its own middle, for a piece as tall as a
    cube; (0, 0) when no piece has any (soft light, or no piece). `casters` are masks
    of pieces with how many times as tall as a cube they are (a castle's shadow falls
    further: its offset counts over that)."""
    pieces = np.zeros(dark.shape, bool)
    for mask, _ in casters:
        pieces |= mask
    pad = round(NEAR * side_px)
    rows, cols = dark.shape[:2]
    offsets = []
    for mask, taller in casters:
        n, _, stats, cents = cv2.connectedComponentsWithStats(mask.view(np.uint8),
                                                             connectivity=8)
        reach = round(pad * taller)
        for k in range(1, n):
            bx, by, bw, bh, area = (int(v) for v in stats[k])
            if area < LEAST_PIECE * side_px * side_px:
                continue
            y0, x0 = max(0, by - reach), max(0, bx - reach)
            y1, x1 = min(rows, by + bh + reach), min(cols, bx + bw + reach)
            around = dark[y0:y1, x0:x1] & ~pieces[y0:y1, x0:x1]
            ys, xs = np.nonzero(around)
            if len(xs) < 4:
                continue
            offsets.append(((xs.mean() + x0 - cents[k][0]) / taller,
                            (ys.mean() + y0 - cents[k][1]) / taller))
    if not offsets:
        return 0.0, 0.0
    dx, dy = np.median(np.asarray(offsets), axis=0)
    return float(dx), float(dy)


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
        np.bitwise_or(cast, cv2.warpAffine(source, move, (w, h), flags=cv2.INTER_NEAREST),
                      out=cast)
    grown: np.ndarray = cv2.dilate(cast, np.ones((3, 3), np.uint8)).view(bool)
    return grown
