"""What the camera sees, for people setting it up: the latest frame, the zones over it,
and calibration started from the web page.

The camera loop hands every frame to `CameraView.show` before reading it and to
`CameraView.keep` with its snapshot after (a reference, no copy): the view never holds the
frame before while the next is read. Encoding and drawing happen only when a page asks,
so watching costs nothing extra.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from referee.announcements import clause, said
from vision.snapshot import Snapshot


class CameraView:
    """The latest frame and the vision that reads it."""

    def __init__(self, eyes: Any, layout: Any, calibration_path: str | Path | None = None):
        self.eyes = eyes
        self.layout = layout
        self.calibration_path = Path(calibration_path) if calibration_path else None
        self._frame: Any = None
        self._snapshot: Snapshot | None = None
        self._lock = threading.Lock()

    def keep(self, frame: Any, snapshot: Snapshot) -> None:
        with self._lock:
            self._frame, self._snapshot = frame, snapshot

    def show(self, frame: Any) -> None:
        """The next frame, before it is read: shown from now on (with the last snapshot
        until `keep` brings its own), the one before let go."""
        with self._lock:
            self._frame = frame

    def jpeg(self, width: int = 1152, quality: int = 80) -> bytes | None:
        """The latest frame, scaled to ``width`` pixels, as JPEG."""
        import cv2

        with self._lock:
            frame = self._frame
        if frame is None or not hasattr(frame, "shape"):
            return None
        scale = min(1.0, width / frame.shape[1])
        if scale < 1.0:
            frame = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return bytes(data) if ok else None

    def overlay(self, width: int = 1152) -> dict[str, Any]:
        """Each zone's outline in the (scaled) image and the counts read there."""
        import cv2
        import numpy as np

        with self._lock:
            frame, snapshot = self._frame, self._snapshot
        if frame is None or snapshot is None or not hasattr(frame, "shape"):
            return {"size": [0, 0], "zones": []}
        pose = self.eyes.locator.detect(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
        scale = min(1.0, width / frame.shape[1])
        size = [round(frame.shape[1] * scale), round(frame.shape[0] * scale)]
        if pose is None:
            return {"size": size, "zones": []}
        zones = []
        for zone in self.layout.zones:
            if zone.kind not in ("territory", "court", "reserve"):
                continue
            points = np.asarray(zone.polygon, dtype=np.float64).reshape(-1, 1, 2)
            pixels = cv2.perspectiveTransform(points, pose.homography).reshape(-1, 2) * scale
            if zone.kind == "territory":
                name = f"territory:{zone.raw['territory']}"
                counts = snapshot.territory(int(zone.raw["territory"])).cubes.to_json()
            else:
                name = f"{zone.kind}:{zone.seat}"
                seats = snapshot.courts if zone.kind == "court" else snapshot.reserves
                held = seats.get(zone.seat) if zone.seat else None
                counts = {} if held is None else held.to_json()
            zones.append(
                {
                    "zone": name,
                    "polygon_px": [[round(x, 1), round(y, 1)] for x, y in pixels.tolist()],
                    "counts": {c: n for c, n in counts.items() if n},
                }
            )
        return {"size": size, "zones": zones}

    def calibrate(self) -> dict[str, Any]:
        """Calibrate on the latest frame (every swatch holding its piece); on success the
        reader uses it at once and it is saved for the next start."""
        from vision.calibration import CalibrationError, calibrate, reader_for, save

        with self._lock:
            frame = self._frame
        if frame is None or not hasattr(frame, "shape"):
            return {"ok": False, "message": said("No camera frame yet.")}
        try:
            calibration = calibrate(frame, self.layout)
        except CalibrationError as exc:
            from vision.cli import said_reason  # the vision's reason in the table's language

            return {"ok": False, "message": said("Calibration failed: %(clause)s",
                                                 clause=clause(said_reason(str(exc))))}
        fresh = reader_for(self.layout, calibration)
        self.eyes.__dict__.update(fresh.__dict__)  # the loop keeps its reader object
        if self.calibration_path is None:
            return {"ok": True, "message": said("Calibrated: the reader now uses this light.")}
        save(calibration, self.calibration_path)
        return {
            "ok": True,
            "message": said(
                "Calibrated: the reader now uses this light. Saved to %(path)s.",
                path=str(self.calibration_path),
            ),
        }
