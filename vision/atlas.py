"""The zones of the mat cut out of a frame into one small top-down image (the atlas).

Only the pixels the reader needs are rectified, in a single `cv2.remap`, so the cost is
a few hundred thousand pixels whatever the camera's resolution. The maps are built once
per homography and reused for every frame while the camera holds still.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.layout import Layout, Zone

ATLAS_KINDS = ("territory", "court", "reserve", "disc-slot", "pool", "reference", "swatch")
#: Zones read as blobs; packed first so blob analysis runs on the atlas's top rows only.
BLOB_KINDS = ("territory", "reserve", "pool")
ATLAS_WIDTH = 1200
MARGIN_MM = 1.0
#: Zones whose cell reaches further, so a piece lying across the edge is seen whole; the
#: piece belongs to the zone its centre is in (the reader checks).
CATCH_MM = {"reserve": 6.0}


@dataclass
class Cell:
    """One zone's rectangle in the atlas; `mask` marks pixels inside the zone polygon
    (for zones in `CATCH_MM`, the whole rectangle)."""

    index: int
    zone: Zone
    x: int
    y: int
    w: int
    h: int
    origin_mm: tuple[float, float]
    mask: np.ndarray

    def mm(self, ax: float, ay: float, scale: float) -> tuple[float, float]:
        """Atlas pixel to mat millimetres."""
        return (self.origin_mm[0] + (ax - self.x + 0.5) / scale,
                self.origin_mm[1] + (ay - self.y + 0.5) / scale)

    def px(self, x_mm: np.ndarray, y_mm: np.ndarray, scale: float) -> tuple[np.ndarray,
                                                                             np.ndarray]:
        """Mat millimetres to atlas pixel indices (clipped to the cell)."""
        ax = np.clip(np.floor((x_mm - self.origin_mm[0]) * scale).astype(int), 0, self.w - 1)
        ay = np.clip(np.floor((y_mm - self.origin_mm[1]) * scale).astype(int), 0, self.h - 1)
        return ay + self.y, ax + self.x


def _group(kind: str) -> int:
    return 0 if kind in BLOB_KINDS else 1 if kind == "court" else 2


class Atlas:
    """Packing of zones (shelf by shelf) and the remap maps for one homography."""

    def __init__(self, layout: Layout, scale: float = 1.0, kinds: tuple[str, ...] = ATLAS_KINDS):
        self.scale = scale
        zones = [z for z in layout.zones if z.kind in kinds]
        zones.sort(key=lambda z: (_group(z.kind), -(z.bbox()[3] - z.bbox()[1])))
        best = min(range(400, 1601, 20), key=lambda w: self._pack(zones, scale, w)[0])
        _, self.cells, (self.blob_rows, self.colour_rows), height = self._pack(
            zones, scale, best, masks=True)
        self.height, self.width = height, best
        self.zone_index = np.zeros((self.height, self.width), np.uint8)
        for c in self.cells:
            self.zone_index[c.y:c.y + c.h, c.x:c.x + c.w][c.mask] = c.index
        self._mm = self._mm_grid()
        self.maps: tuple[np.ndarray, np.ndarray] | None = None

    @staticmethod
    def _pack(zones: list[Zone], scale: float, width: int, masks: bool = False
              ) -> tuple[int, list[Cell], tuple[int, int], int]:
        """Shelf packing at a given width: (area, cells, group ends in rows, height).

        Groups start on a new shelf: blob zones, then courts, then the rest, so the
        reader labels colours only on the first rows.
        """
        cells: list[Cell] = []
        x = y = shelf = 0
        ends = [0, 0]
        group = 0
        for i, zone in enumerate(zones):
            x0, y0, x1, y1 = zone.bbox()
            margin = CATCH_MM.get(zone.kind, MARGIN_MM)
            x0, y0 = x0 - margin, y0 - margin
            w = int(np.ceil((x1 + margin - x0) * scale))
            h = int(np.ceil((y1 + margin - y0) * scale))
            if w > width:
                return (1 << 40, [], (0, 0), 0)
            g = _group(zone.kind)
            new_group = g != group and cells
            if x + w > width or new_group:
                x, y, shelf = 0, y + shelf, 0
            for k in range(group, g):
                ends[k] = y
            group = g
            mask = np.zeros((h, w), np.uint8)
            if masks and zone.kind in CATCH_MM:
                mask[:] = 1
            elif masks:
                poly = (np.asarray(zone.polygon) - [x0, y0]) * scale * 16
                cv2.fillPoly(mask, [np.round(poly).astype(np.int32)], 1, cv2.LINE_8, shift=4)
            cells.append(Cell(i + 1, zone, x, y, w, h, (x0, y0), mask.astype(bool)))
            x += w
            shelf = max(shelf, h)
        height = y + shelf
        for k in range(group, 2):
            ends[k] = height
        return (height * width + 2 * ends[1] * width, cells, (ends[0], ends[1]), height)

    def _mm_grid(self) -> np.ndarray:
        grid = np.full((self.height, self.width, 2), -1e4, np.float32)
        for c in self.cells:
            xs = c.origin_mm[0] + (np.arange(c.w) + 0.5) / self.scale
            ys = c.origin_mm[1] + (np.arange(c.h) + 0.5) / self.scale
            grid[c.y:c.y + c.h, c.x:c.x + c.w, 0] = xs[None, :]
            grid[c.y:c.y + c.h, c.x:c.x + c.w, 1] = ys[:, None]
        return grid

    def set_homography(self, homography: np.ndarray) -> None:
        """Build the remap maps (mat mm to frame px) for this camera pose."""
        pts = cv2.perspectiveTransform(self._mm.reshape(-1, 1, 2), homography)
        pts = pts.reshape(self.height, self.width, 2).astype(np.float32)
        pts[self._mm[..., 0] < -1e3] = -10
        # OpenCV's stubs want an array for the second map, which it allows to be None.
        self.maps = cv2.convertMaps(pts, None, cv2.CV_16SC2)  # type: ignore[call-overload]

    def cut(self, frame: np.ndarray) -> np.ndarray:
        if self.maps is None:
            raise RuntimeError("atlas has no homography")
        return cv2.remap(frame, self.maps[0], self.maps[1], cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))

    def of_kind(self, kind: str) -> list[Cell]:
        return [c for c in self.cells if c.zone.kind == kind]
