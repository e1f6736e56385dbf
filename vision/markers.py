"""Find the mat in a frame: ArUco markers to a homography, cached while the camera holds.

The camera is fixed, so markers are searched only when the cached homography stops
matching: each known marker's patch is compared with what it looked like when it was
found. A few patches changing means a hand over them; most changing means the view moved.

A pose is only taken from markers spread over the mat: the markers one printed sheet holds
(or one edge of the mat) agree with many wrong homographies, and a pose from them puts
pieces where there are none. `MatLocator.failure` says why the last search found no mat.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.layout import Layout

MIN_MARKERS = 3
#: The markers found must reach across at least this share of the mat's width and of its
#: height (one A3 sheet is 277 x 400 mm of a 900 mm mat; the whole mat in view spans ~98 %).
MIN_EXTENT = 0.5
#: ... and their hull must cover at least this share of the mat's area (markers along two
#: adjacent edges of the mat give ~48 %, the whole ring of them ~96 %).
MIN_HULL = 0.2
#: Mean grey-level change of a marker's patch (sampled every other pixel) beyond which
#: something covers it.
MARKER_CHANGED = 28.0


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
        #: Why the last full search found no mat (None when it found one).
        self.failure: str | None = None

    def spread_failure(self, marker_ids: list[int]) -> str | None:
        """Why these markers are too few or too bunched to place the mat; None if fine."""
        total = len(self.layout.markers)
        if len(marker_ids) < MIN_MARKERS:
            return (f"{len(marker_ids)} of the mat's {total} markers found, "
                    f"at least {MIN_MARKERS} are needed")
        pts = np.array([c for m in marker_ids for c in self.layout.markers[m]], np.float32)
        width, height = (float(v) for v in self.layout.size_mm)
        span_x = float(pts[:, 0].max() - pts[:, 0].min())
        span_y = float(pts[:, 1].max() - pts[:, 1].min())
        hull = float(cv2.contourArea(cv2.convexHull(pts)))
        if span_x < MIN_EXTENT * width or span_y < MIN_EXTENT * height or (
            hull < MIN_HULL * width * height
        ):
            return (f"the {len(marker_ids)} markers found (ids "
                    f"{', '.join(str(m) for m in sorted(marker_ids))}) span only "
                    f"{span_x:.0f} x {span_y:.0f} mm of the {width:.0f} x {height:.0f} mm mat: "
                    "the camera must see the whole mat (one printed sheet is not enough)")
        return None

    def detect(self, gray: np.ndarray) -> MatPose | None:
        """Full marker search; returns None when too few of the layout's markers show."""
        scale = 1.0
        small = gray
        while small.shape[1] > 2400:
            small = cv2.resize(small, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
            scale *= 2
        corners, ids, _ = self.detector.detectMarkers(small)
        self.failure = None
        if ids is None:
            self.failure = "no marker of the mat in the frame"
            return None
        src: list[tuple[float, float]] = []
        dst: list[list[float]] = []
        found: dict[int, np.ndarray] = {}
        for c, seen_id in zip(corners, ids.ravel(), strict=True):
            if int(seen_id) not in self.layout.markers:
                continue
            pts = c.reshape(4, 2) * scale
            found[int(seen_id)] = pts
            src.extend(self.layout.markers[int(seen_id)])
            dst.extend(pts.tolist())
        self.failure = self.spread_failure(list(found))
        if self.failure is not None:
            return None
        h, inliers = cv2.findHomography(np.array(src, np.float32), np.array(dst, np.float32),
                                        cv2.RANSAC, 4.0)
        if h is None or int(inliers.sum()) < 4 * MIN_MARKERS:
            self.failure = "the markers found do not agree on where the mat lies"
            return None
        boxes: dict[int, tuple[int, int, int, int]] = {}
        patches: dict[int, np.ndarray] = {}
        for marker_id, pts in found.items():
            x0, y0 = (int(v) for v in np.floor(pts.min(axis=0)))
            x1, y1 = (int(v) + 1 for v in np.ceil(pts.max(axis=0)))
            x0, y0 = max(0, x0), max(0, y0)
            boxes[marker_id] = (x0, y0, x1, y1)
            patches[marker_id] = gray[y0:y1:2, x0:x1:2].astype(np.int16)
        return MatPose(h, len(found), boxes, patches, (gray.shape[1], gray.shape[0]))

    def changed_markers(self, frame: np.ndarray) -> tuple[int, int]:
        """(changed, known) marker patches against the cached pose; cheap.

        `frame` may be grey or BGR; for BGR the green channel stands in for grey,
        which is close enough on black-and-white markers. A patch is compared by its
        pattern, levelled to the cached one's brightness and contrast first: a lamp
        that drifts over an evening scales every marker's black and white alike, while
        a hand over one changes its pattern. Compared as grey levels, a marker read
        "changed" once the light had drifted far enough (2-player hard whole camera game
        900291: from 366 s on, one marker 28.7 grey levels off its cached patch with
        nothing over it), and every frame was taken for a hand for a minute: the
        referee saw no table settle, and the game was lost."""
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
            cached = pose.marker_patches[marker_id]
            # (levelled only where the grey levels differ: a read seldom pays for it)
            if float(np.abs(now.astype(np.int16) - cached).mean()) > MARKER_CHANGED and float(
                    np.abs(_levelled(now, cached) - cached).mean()) > MARKER_CHANGED:
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


def _levelled(now: np.ndarray, cached: np.ndarray) -> np.ndarray:
    """``now`` with the mean and spread of ``cached`` (`MatLocator.changed_markers`)."""
    now = now.astype(np.float32)
    spread = float(now.std())
    gain = float(cached.std()) / spread if spread > 1.0 else 1.0
    return (now - float(now.mean())) * gain + float(cached.mean())
