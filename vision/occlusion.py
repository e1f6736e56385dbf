"""Is something over the mat, or is the table moving? Cheap checks on few pixels.

A hand or arm always reaches in over the mat's edge, so a band of bare paper all round
the border (between and beside the markers) is sampled: paper that suddenly reads dark
or skin-coloured means an arm. The same samples give the light falling on the mat, fitted
as a plane per channel, which the reader uses for white balance. Motion is a tiny
strided thumbnail compared with the previous frame's.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from vision.layout import Layout

STEP_MM = 4.0
DARK = 0.82          # paper darker than this fraction of the fitted white: covered
CLUSTER_MM = 60.0    # size of the border stretch the covered samples must crowd into
MIN_COVERED = 8      # covered samples before the frame counts as occluded
MOTION = 3.5         # mean grey-level change of the thumbnail
CLIPPED = 250.0      # a paper channel this bright may be saturated
GREY_REFLECTANCE = 128 / 255 * 0.97   # printed grey patch relative to paper


def border_points(layout: Layout) -> np.ndarray:
    """Bare-paper points in two lines around the border, clear of the markers."""
    w, h = layout.size_mm
    boxes = [(min(p[0] for p in c) - 4, min(p[1] for p in c) - 4,
              max(p[0] for p in c) + 4, max(p[1] for p in c) + 4)
             for c in layout.markers.values()]
    pts = []
    for inset in (30.0, 56.0):
        for t in np.arange(inset, w - inset, STEP_MM):
            pts += [(t, inset), (t, h - inset)]
        for t in np.arange(inset + STEP_MM, h - inset, STEP_MM):
            pts += [(inset, t), (w - inset, t)]
    keep = [p for p in pts if not any(x0 <= p[0] <= x1 and y0 <= p[1] <= y1
                                      for x0, y0, x1, y1 in boxes)
            and layout.zone_at(*p) is None]
    return np.asarray(keep, np.float32)


class BorderWatch:
    """Samples the paper border: white field for balance, dark runs for hands."""

    def __init__(self, layout: Layout) -> None:
        self.points_mm = border_points(layout)
        self.refs = [z for z in layout.of_kind("reference") if z.raw.get("shade") == "white"]
        self.px: np.ndarray | None = None
        self.valid: np.ndarray | None = None

    def set_homography(self, homography: np.ndarray) -> None:
        pts = cv2.perspectiveTransform(self.points_mm.reshape(-1, 1, 2), homography)
        self.px = np.round(pts.reshape(-1, 2)).astype(np.int64)

    def samples(self, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """BGR values at the border points inside the frame, and those points in mm."""
        assert self.px is not None
        h, w = frame.shape[:2]
        ok = (self.px[:, 0] >= 0) & (self.px[:, 0] < w) & (self.px[:, 1] >= 0) & (
            self.px[:, 1] < h)
        px = self.px[ok]
        return frame[px[:, 1], px[:, 0]].astype(np.float32), self.points_mm[ok]

    def white_field(self, frame: np.ndarray, atlas: object, atlas_img: np.ndarray
                    ) -> Callable[[float, float], np.ndarray]:
        """Paper colour as a plane a + b x + c y per channel, fitted robustly."""
        values, pts = self.samples(frame)
        self._border_count = len(values)
        extra_v, extra_p = [], []
        for cell in getattr(atlas, "cells", []):
            if cell.zone.kind == "reference" and cell.zone.raw.get("shade") == "white":
                roi = atlas_img[cell.y + 4:cell.y + cell.h - 4, cell.x + 4:cell.x + cell.w - 4]
                if roi.size:
                    extra_v.append(np.median(roi.reshape(-1, 3), axis=0))
                    extra_p.append(cell.zone.centre())
        if extra_v:
            values = np.vstack([values, np.asarray(extra_v, np.float32)])
            pts = np.vstack([pts, np.asarray(extra_p, np.float32)])
        if len(values) < 6:
            mean = values.mean(axis=0) if len(values) else np.full(3, 235.0, np.float32)
            return lambda x, y: mean
        design = np.c_[np.ones(len(pts)), pts[:, 0] / 900.0, pts[:, 1] / 900.0]
        keep = np.ones(len(values), bool)
        coef = np.zeros((3, 3))
        for round_ in range(3):
            coef = np.linalg.lstsq(design[keep], values[keep], rcond=None)[0]
            fitted = design @ coef
            ratio = values.max(axis=1) / np.maximum(1.0, fitted.max(axis=1))
            # First drop what is darker (hands, shadows), then glare as well.
            keep = (np.abs(ratio - 1) < 0.08) if round_ else (ratio > 0.85)
            if keep.sum() < 6:
                keep = np.ones(len(values), bool)
                break
        self._fit = (design, coef, values)
        greys = self._grey_references(atlas, atlas_img)
        if greys is not None and float(np.max(values[keep])) >= CLIPPED:
            # Paper clipped in some channel: trust the grey patches there instead.
            grey_white = greys / GREY_REFLECTANCE

            def field(x: float, y: float) -> np.ndarray:
                paper = np.array([1.0, x / 900.0, y / 900.0]) @ coef
                return np.maximum(8.0, np.where(paper >= CLIPPED - 6,
                                                np.maximum(paper, grey_white), paper))
            return field
        return lambda x, y: np.maximum(8.0, np.array([1.0, x / 900.0, y / 900.0]) @ coef)

    @staticmethod
    def _grey_references(atlas: object, atlas_img: np.ndarray) -> np.ndarray | None:
        """Median colour of the grey patches (which never clip), or None."""
        found = []
        for cell in getattr(atlas, "cells", []):
            if cell.zone.kind == "reference" and cell.zone.raw.get("shade") == "grey":
                roi = atlas_img[cell.y + 4:cell.y + cell.h - 4, cell.x + 4:cell.x + cell.w - 4]
                if roi.size:
                    found.append(np.median(roi.reshape(-1, 3), axis=0))
        if len(found) < 2:
            return None
        return np.median(np.asarray(found, np.float32), axis=0)

    def covered(self, frame: np.ndarray, white: Callable[[float, float], np.ndarray]) -> bool:
        """True when enough border paper is dark or off-colour: an arm over the edge."""
        design, coef, values = getattr(self, "_fit", (None, None, None))
        if design is None:
            return False
        fitted = design[: len(values)] @ coef
        n = self._border_count
        v, f = values[:n], fitted[:n]
        bright = v.max(axis=1) / np.maximum(1.0, f.max(axis=1))
        balanced = v / np.maximum(1.0, f)
        chroma = balanced.max(axis=1) - balanced.min(axis=1)
        bad = (bright < DARK) | (chroma > 0.2)
        if int(bad.sum()) < MIN_COVERED:
            return False
        # An arm is one place: bad samples must crowd into one stretch of the border.
        pts = design[: len(values)][:n][bad][:, 1:] * 900.0 / CLUSTER_MM
        cells = np.floor(pts).astype(np.int64)
        _, counts = np.unique(cells[:, 0] * 1000 + cells[:, 1], return_counts=True)
        return int(counts.max()) >= MIN_COVERED


class MotionWatch:
    """Frame-to-frame change of a strided grey thumbnail: the 'anything changed?' check."""

    def __init__(self, stride: int = 8) -> None:
        self.stride = stride
        self.last: np.ndarray | None = None
        self.change = 0.0

    def check_frame(self, frame: np.ndarray) -> bool:
        """Has anything changed since the last frame? Looks at one pixel in 64."""
        thumb = frame[:: self.stride, :: self.stride]
        return self.update(cv2.cvtColor(np.ascontiguousarray(thumb), cv2.COLOR_BGR2GRAY),
                           strided=True)

    def update(self, gray: np.ndarray, strided: bool = False) -> bool:
        thumb = gray if strided else gray[:: self.stride, :: self.stride]
        moving = False
        if self.last is not None and self.last.shape == thumb.shape:
            self.change = float(cv2.absdiff(thumb, self.last).mean())
            moving = self.change > MOTION
        self.last = thumb.copy()
        return moving
