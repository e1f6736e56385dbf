"""Find the mat in a frame: ArUco markers to a homography, cached while the camera holds.

The camera is fixed, so markers are searched only when the cached homography stops
matching: each known marker's patch is compared with what it looked like when it was
found. A few patches changing means a hand over them; most changing means the view moved.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.layout import Layout

MIN_MARKERS = 3


@dataclass
class MatPose:
    """Where the mat is: `homography` maps mat millimetres to frame pixels."""

    homography: np.ndarray
    markers_seen: int
    marker_boxes: dict[int, tuple[int, int, int, int]]
    marker_patches: dict[int, np.ndarray]
    frame_size: tuple[int, int]


class MatLocator:
    """Detects the layout's markers and keeps the last good pose."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, layout.dictionary))
        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        self.detector = cv2.aruco.ArucoDetector(dictionary, params)
        self.pose: MatPose | None = None
        self.hidden_markers = 0

    def detect(self, gray: np.ndarray) -> MatPose | None:
        """Full marker search; returns None when too few of the layout's markers show."""
        scale = 1.0
        small = gray
        while small.shape[1] > 2400:
            small = cv2.resize(small, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
            scale *= 2
        corners, ids, _ = self.detector.detectMarkers(small)
        if ids is None:
            return None
        src, dst, found = [], [], {}
        for c, marker_id in zip(corners, ids.ravel(), strict=True):
            if int(marker_id) not in self.layout.markers:
                continue
            pts = c.reshape(4, 2) * scale
            found[int(marker_id)] = pts
            src.extend(self.layout.markers[int(marker_id)])
            dst.extend(pts.tolist())
        if len(found) < MIN_MARKERS:
            return None
        h, inliers = cv2.findHomography(np.float32(src), np.float32(dst), cv2.RANSAC, 4.0)
        if h is None or int(inliers.sum()) < 4 * MIN_MARKERS:
            return None
        boxes, patches = {}, {}
        for marker_id, pts in found.items():
            x0, y0 = np.floor(pts.min(axis=0)).astype(int)
            x1, y1 = np.ceil(pts.max(axis=0)).astype(int) + 1
            x0, y0 = max(0, x0), max(0, y0)
            boxes[marker_id] = (x0, y0, x1, y1)
            patches[marker_id] = gray[y0:y1:2, x0:x1:2].astype(np.int16)
        return MatPose(h, len(found), boxes, patches, (gray.shape[1], gray.shape[0]))

    def changed_markers(self, frame: np.ndarray) -> tuple[int, int]:
        """(changed, known) marker patches against the cached pose; cheap.

        `frame` may be grey or BGR; for BGR the green channel stands in for grey,
        which is close enough on black-and-white markers.
        """
        pose = self.pose
        if pose is None or pose.frame_size != (frame.shape[1], frame.shape[0]):
            return (1, 1)
        changed = 0
        for marker_id, (x0, y0, x1, y1) in pose.marker_boxes.items():
            now = frame[y0:y1:2, x0:x1:2]
            if now.ndim == 3:
                now = now[..., 1]
            if now.shape != pose.marker_patches[marker_id].shape:
                changed += 1
                continue
            diff = np.abs(now.astype(np.int16) - pose.marker_patches[marker_id])
            if float(diff.mean()) > 28.0:
                changed += 1
        return changed, len(pose.marker_boxes)

    def locate(self, frame: np.ndarray) -> MatPose | None:
        """The pose for this frame: the cached one unless the view has moved."""
        changed, known = self.changed_markers(frame)
        self.hidden_markers = 0
        if self.pose is not None and changed <= known // 2:
            self.hidden_markers = changed
            return self.pose
        gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        pose = self.detect(gray)
        if pose is not None and frame.ndim == 3:
            for marker_id, (x0, y0, x1, y1) in pose.marker_boxes.items():
                pose.marker_patches[marker_id] = frame[y0:y1:2, x0:x1:2, 1].astype(np.int16)
        if pose is not None:
            self.hidden_markers = 0      # unseen at a fresh search: out of view, not hidden
            self.pose = pose
        return pose
