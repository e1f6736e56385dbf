"""Glare: a lamp's reflection off the mat, white light added on top of the room light.

The border fit (`occlusion.WhiteField`) sees the room light but drops glare as an
outlier, and a glare spot washes the colour out of every piece under it. Bare paper is
everywhere between the zones, so the glare is measured there: on paper, glare `g` turns
the expected paper colour W into W (1 - g) + 255 g in every channel alike, which no
printed line, shadow, piece or hand does. In bright light the paper clips and cannot
show glare, so the territory spots' rims are sampled too: their darker tint (as this
camera sees it, taken from the frame) has room in every channel. The samples are spread
over a coarse grid and, where there is glare, a local quadratic fit of log g makes the
map, from which the reader undoes the glare pixel by pixel in the zones it touches.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.layout import Layout
from vision.mat import SPOT_FILL
from vision.occlusion import WhiteField

STEP_MM = 8.0          # spacing of the paper samples
CELL_MM = 10.0         # resolution of the glare map
MARGIN_MM = 4.0        # keep samples this far from printed zones and markers
NOT_PAPER = ("territory", "disc-slot", "swatch", "reference")
SPREAD = 0.06          # largest difference of g between channels for a paper sample
FAINT = 0.05           # glare below this is left alone (12 grey levels at most)
SATURATED = 250.0
LOG_FLOOR = 0.02       # glare is fitted in log(g + floor): a lobe is a quadratic there
HOLE_REACH = 4.0       # grid cells: reach of the local fit (also over places without paper)
HEADROOM = 215.0       # a channel of paper brighter than this has too little room to tell
SPOT_RIM_MM = (9.0, 2.5)   # the territory spot's rim, this far inside its edge: clear of tiles
SPOT_STEP_MM = 4.0
RIM_WINDOW = 6         # rim samples either side that judge one (6 x 4 mm: wider than a castle)
RIM_AGREE = 0.1        # largest difference of g from the median of its ring neighbours
SPOT_TINT = np.array(SPOT_FILL, np.float32) / 255.0   # the spot's print over paper (BGR)


class GlareMap:
    """Glare over the mat for one frame, from bare paper and the spots' rims."""

    def __init__(self, layout: Layout) -> None:
        w, h = (int(np.ceil(v)) for v in layout.size_mm)
        blocked: np.ndarray = np.zeros((h, w), np.uint8)
        for zone in layout.zones:
            if zone.kind in NOT_PAPER:
                cv2.fillPoly(blocked, [np.round(np.asarray(zone.polygon)).astype(np.int32)], 1)
        for corners in layout.markers.values():
            cv2.fillPoly(blocked, [np.round(np.asarray(corners)).astype(np.int32)], 1)
        k = int(2 * MARGIN_MM + 1)
        blocked = cv2.dilate(blocked, np.ones((k, k), np.uint8))
        ys, xs = np.mgrid[STEP_MM / 2:h:STEP_MM, STEP_MM / 2:w:STEP_MM]
        free = blocked[ys.astype(int), xs.astype(int)] == 0
        paper = np.c_[xs[free], ys[free]]
        # In bright light the paper clips and cannot show glare; the spots' darker tint
        # still can, on their rim round the tile.
        rings = [ring for zone in layout.zones if zone.kind == "territory"
                 for ring in _rim(zone.raw.get("centre_mm", zone.centre()), zone.polygon)]
        rim = np.concatenate(rings) if rings else np.zeros((0, 2))
        self.points_mm = np.r_[paper, rim].astype(np.float32)
        self.tint = np.r_[np.ones((len(paper), 3), np.float32),
                          np.tile(SPOT_TINT, (len(rim), 1))]
        # Each rim sample's neighbours along its ring (indices into points_mm).
        windows, start = [], len(paper)
        for ring in rings:
            at = np.arange(len(ring))
            windows.append(start + (at[:, None] + np.arange(-RIM_WINDOW, RIM_WINDOW + 1))
                           % len(ring))
            start += len(ring)
        self._rim_windows = (np.concatenate(windows) if windows
                             else np.zeros((0, 2 * RIM_WINDOW + 1), np.int64))
        self._first_rim = len(paper)
        self.shape = (int(np.ceil(h / CELL_MM)), int(np.ceil(w / CELL_MM)))
        self._cells = np.floor(self.points_mm / CELL_MM).astype(np.int64)
        self.px: np.ndarray | None = None
        self.grid: np.ndarray | None = None
        #: A map kept with the bare table (`fix`): undone on every frame instead of one
        #: measured on it.
        self.fixed: np.ndarray | None = None
        self._fixed_strongest = 0.0
        self._seen_in: tuple[int, ...] | None = None

    def set_homography(self, homography: np.ndarray) -> None:
        pts = cv2.perspectiveTransform(self.points_mm.reshape(-1, 1, 2), homography)
        self.px = np.round(pts.reshape(-1, 2)).astype(np.int64)
        self._seen_in = None

    def _visible(self, shape: tuple[int, ...]) -> None:
        """Samples inside a frame of this size, with their fit design rows (cached)."""
        assert self.px is not None
        fh, fw = shape[:2]
        inside = ((self.px[:, 0] >= 0) & (self.px[:, 0] < fw) & (self.px[:, 1] >= 0)
                  & (self.px[:, 1] < fh))
        self._flat_px = self.px[inside, 1] * fw + self.px[inside, 0]
        pts = self.points_mm[inside]
        self._design = np.c_[np.ones(len(pts)), pts / 900.0].astype(np.float32)
        self._tint = np.ascontiguousarray(self.tint[inside].T)
        cells = self._cells[inside]
        self._flat_cells = cells[:, 1] * self.shape[1] + cells[:, 0]
        # visible rim samples and their ring neighbours, as visible indices (-1: none)
        position = np.full(len(inside) + 1, -1, np.int64)
        position[np.flatnonzero(inside)] = np.arange(int(inside.sum()))
        rim = np.flatnonzero(inside[self._first_rim:]) + self._first_rim
        self._rim = position[rim]
        self._rim_neighbours = position[self._rim_windows[rim - self._first_rim]]
        self._seen_in = tuple(shape[:2])

    def kept(self) -> np.ndarray:
        """The last map, all zeros where there was no glare: what a bare table keeps."""
        return np.zeros(self.shape, np.float32) if self.grid is None else self.grid.copy()

    def fix(self, grid: np.ndarray | None) -> None:
        """Undo `grid` (a `kept` map) on every frame from now on instead of measuring
        each frame's; None, or a map of another layout: measure each frame again.

        The reflection stays where it is while camera and lamp do, and a frame read
        against the bare table must have undone what the bare table's picture had
        undone: the map is measured on the border paper and the spots' rims, whose
        light flickers across the fit's bounds from one frame to the next."""
        ok = grid is not None and grid.shape == self.shape
        self.fixed = grid if ok else None
        # what every frame's `measure` returns while the map is fixed: found once here
        self._fixed_strongest = (0.0 if self.fixed is None
                                 else float(self.fixed.max(initial=0.0)))

    def measure(self, frame: np.ndarray, white: WhiteField) -> float:
        """Fit the glare map to this frame; returns the strongest glare found (0..1)."""
        if self.fixed is not None:
            faint = self._fixed_strongest < FAINT
            self.grid = None if faint else self.fixed
            return 0.0 if faint else self._fixed_strongest
        if self._seen_in != tuple(frame.shape[:2]):
            self._visible(frame.shape)
        # channels as rows: numpy is quick along long rows, slow across 3-wide ones
        # (np.take: numpy's indexing by an index array, at a third of its time)
        seen = np.ascontiguousarray(np.take(frame.reshape(-1, 3), self._flat_px, axis=0).T,
                                    np.float32)
        paper = np.ascontiguousarray((self._design @ white.coef.astype(np.float32)).T)
        paper *= self._tint                       # what each sample shows without glare
        rim = self._rim
        if len(rim):
            # The print's tint as this camera sees it: most of the rim has no glare.
            some = rim[::3]
            ratio = seen[:, some] / np.maximum(1.0, paper[:, some])
            plain = (np.abs(ratio - 1.0) < 0.25).all(axis=0)
            if plain.sum() >= 30:
                paper[:, rim] *= np.median(ratio[:, plain], axis=1)[:, None]
        g = (seen - paper) / np.maximum(1.0, 255.0 - paper)
        usable = (paper < HEADROOM) & (seen < SATURATED)
        n = usable.sum(axis=0)
        gm = (g * usable).sum(axis=0) / np.maximum(1, n)
        spread = np.where(usable, g, -9.0).max(axis=0) - np.where(usable, g, 9.0).min(axis=0)
        # Paper: where two or more channels can tell, they agree; a channel too bright to
        # tell must still read as bright as paper (bright light leaves one channel only).
        bright = (usable | (seen >= np.minimum(SATURATED, 0.97 * paper))).all(axis=0)
        paper_like = (n >= 1) & bright & ((n == 1) | (spread < SPREAD)) & (gm > -0.04)
        strong = paper_like[rim] & (gm[rim] >= FAINT)     # glare, or a white piece?
        if strong.any():
            paper_like[rim[strong]] = _smooth_along_ring(
                np.where(paper_like, gm, np.nan), rim[strong], self._rim_neighbours[strong])
        values = np.maximum(0.0, gm[paper_like]).astype(np.float32)
        flat = self._flat_cells[paper_like]
        size = self.shape[0] * self.shape[1]
        acc = np.bincount(flat, values, size).reshape(self.shape).astype(np.float32)
        cnt = np.bincount(flat, None, size).reshape(self.shape).astype(np.float32)
        # A quick smoothed average tells whether there is glare at all.
        fine_acc = cv2.GaussianBlur(acc, (0, 0), 1.5)
        fine_cnt = cv2.GaussianBlur(cnt, (0, 0), 1.5)
        fine = fine_acc / np.maximum(fine_cnt, 1e-6)
        w = np.clip(fine_cnt / 0.5, 0.0, 1.0)
        if float((w * fine).max(initial=0.0)) < FAINT:
            self.grid = None                 # no glare: the usual case, and cheap
            return 0.0
        top = cv2.dilate(np.where(fine_cnt > 0.2, fine, 0.0).astype(np.float32),
                         np.ones((9, 9), np.uint8))
        logs = np.bincount(flat, np.log(values + LOG_FLOOR), size).reshape(self.shape)
        # The fit, not the average, wherever there is glare: samples ring each tile, and
        # averaging them flattens a lobe's peak between its flanks.
        lobe = top >= FAINT
        fitted = np.exp(_local_quadratic(logs.astype(np.float32), cnt, HOLE_REACH, lobe)
                        ) - LOG_FLOOR
        self.grid = np.where(lobe, np.clip(fitted, 0.0, 1.3 * top), w * fine
                             ).astype(np.float32)
        return float(self.grid.max()) if self.grid.size else 0.0

    def over(self, origin_mm: tuple[float, float], h: int, w: int, scale: float
             ) -> np.ndarray | None:
        """Glare at each pixel of an atlas cell, or None where it is too faint to matter."""
        if self.grid is None:
            return None
        x0 = (origin_mm[0] + 0.5 / scale) / CELL_MM - 0.5
        y0 = (origin_mm[1] + 0.5 / scale) / CELL_MM - 0.5
        step = 1.0 / (scale * CELL_MM)
        gx0, gy0 = int(np.floor(x0)), int(np.floor(y0))
        gx1 = int(np.ceil(x0 + w * step)) + 1
        gy1 = int(np.ceil(y0 + h * step)) + 1
        patch = self.grid[max(0, gy0):max(0, gy1), max(0, gx0):max(0, gx1)]
        if patch.size == 0 or float(patch.max()) < FAINT:
            return None
        mx = np.float32(x0 + np.arange(w) * step)
        my = np.float32(y0 + np.arange(h) * step)
        map_x, map_y = np.meshgrid(mx, my)
        return cv2.remap(self.grid, map_x, map_y, cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)


def _rim(centre: tuple[float, float], polygon: object) -> list[np.ndarray]:
    """Rings of sample points on a round spot's rim, inside its printed outline."""
    cx, cy = centre
    radius = float(np.mean(np.hypot(*(np.asarray(polygon, float) - (cx, cy)).T)))
    rings = []
    for r in np.arange(radius - SPOT_RIM_MM[0], radius - SPOT_RIM_MM[1] + 1e-6, 3.0):
        angles = np.arange(0.0, 2 * np.pi, SPOT_STEP_MM / r)
        rings.append(np.c_[cx + r * np.cos(angles), cy + r * np.sin(angles)])
    return rings


def _smooth_along_ring(g: np.ndarray, rim: np.ndarray, neighbours: np.ndarray) -> np.ndarray:
    """Rim samples that agree with the median of their ring neighbours.

    A white piece on the tinted rim looks exactly like strong glare there, but only
    over a piece's width; a lamp's glare spreads over several centimetres.
    """
    padded = np.r_[g, np.nan]
    around = np.sort(padded[neighbours], axis=1)          # NaN (no sample) sorts last
    valid = (~np.isnan(around)).sum(axis=1)
    median = around[np.arange(len(rim)), np.maximum(0, valid - 1) // 2]
    agree: np.ndarray = (valid >= RIM_WINDOW) & (np.abs(padded[rim] - median) < RIM_AGREE)
    return agree


def _local_quadratic(acc: np.ndarray, cnt: np.ndarray, sigma: float,
                     where: np.ndarray) -> np.ndarray:
    """Value at grid cells `where` of a weighted quadratic fitted to the samples around.

    Moving least squares: the normal equations' sums are Gaussian-weighted moments of
    the sample grid, each a separable correlation with a polynomial-times-Gaussian kernel.
    """
    out = np.zeros(cnt.shape, np.float32)
    r = int(3 * sigma)
    d = np.arange(-r, r + 1, dtype=np.float32)
    gauss = np.exp(-d**2 / (2 * sigma**2)).astype(np.float32)
    taps = [gauss * (d / sigma)**k for k in range(5)]      # offsets in units of sigma
    powers = [(0, 0), (1, 0), (0, 1), (2, 0), (1, 1), (0, 2)]

    def moment(src: np.ndarray, i: int, j: int) -> np.ndarray:
        summed: np.ndarray = cv2.sepFilter2D(src, -1, taps[i], taps[j],
                                             borderType=cv2.BORDER_CONSTANT)[where]
        return summed

    n = len(powers)
    count = int(where.sum())
    a = np.empty((count, n, n), np.float64)
    b = np.empty((count, n), np.float64)
    cache: dict[tuple[int, int], np.ndarray] = {}
    for k, (i, j) in enumerate(powers):
        b[:, k] = moment(acc, i, j)
        for m, (p, q) in enumerate(powers):
            key = (i + p, j + q)
            if key not in cache:
                cache[key] = moment(cnt, *key)
            a[:, k, m] = cache[key]
    # A little ridge keeps thinly sampled places from swinging; empty ones give 0.
    seen = a[:, 0, 0] > 1e-2
    if seen.any():
        a, b = a[seen], b[seen]
        ridge = np.array([1e-6, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3])
        a += np.eye(n) * (ridge * a[:, :1, :1])
        values = np.zeros(count, np.float32)
        values[seen] = np.linalg.solve(a, b[..., None])[:, 0, 0]
        out[where] = values
    return out
