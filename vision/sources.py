"""Where frames come from, behind one small interface: a frame is a BGR uint8 array.

Nothing here needs a Raspberry Pi to import: picamera2 is imported only when a
`PiCameraSource` is opened.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import numpy as np

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class FrameSource(Protocol):
    """Yields (t, frame) pairs; t is seconds since the stream started."""

    def frames(self) -> Iterator[tuple[float, np.ndarray]]: ...

    def close(self) -> None: ...


class ImageFolderSource:
    """Images of a folder in name order, at a nominal `fps` for their timestamps."""

    def __init__(self, folder: str | Path, fps: float = 4.0) -> None:
        self.paths = sorted(p for p in Path(folder).iterdir()
                            if p.suffix.lower() in IMAGE_SUFFIXES)
        self.fps = fps

    def frames(self) -> Iterator[tuple[float, np.ndarray]]:
        import cv2

        for i, path in enumerate(self.paths):
            frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if frame is None:
                raise ValueError(f"{path}: not an image file")
            yield i / self.fps, frame

    def close(self) -> None:
        pass


class VideoSource:
    """A USB webcam (an integer index) or a video file, through OpenCV."""

    def __init__(self, device: int | str, width: int | None = None,
                 height: int | None = None) -> None:
        import cv2

        self.capture = cv2.VideoCapture(device)
        if not self.capture.isOpened():
            raise ValueError(f"{device}: cannot open video source")
        if width and height:
            self.capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            self.capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self.is_file = isinstance(device, str)

    def frames(self) -> Iterator[tuple[float, np.ndarray]]:
        import cv2

        start = time.monotonic()
        while True:
            ok, frame = self.capture.read()
            if not ok:
                return
            if self.is_file:
                t = self.capture.get(cv2.CAP_PROP_POS_MSEC) / 1000.0
            else:
                t = time.monotonic() - start
            yield t, frame

    def close(self) -> None:
        self.capture.release()


class PiCameraSource:
    """The Raspberry Pi camera via picamera2.

    `RGB888` in picamera2 is B, G, R in memory, so frames are already BGR. Exposure and
    white balance are left automatic for `settle_s` seconds, then locked, so the colours
    the reader calibrated against do not drift with what lies on the table.
    """

    def __init__(self, size: tuple[int, int] = (2304, 1296), settle_s: float = 2.0) -> None:
        # Only on a Pi, from apt (python3-picamera2): no stubs, and absent elsewhere.
        from picamera2 import Picamera2  # type: ignore[import-not-found]

        self.camera = Picamera2()
        config = self.camera.create_still_configuration(main={"format": "RGB888",
                                                              "size": size})
        self.camera.configure(config)
        self.camera.start()
        time.sleep(settle_s)
        metadata: dict[str, Any] = self.camera.capture_metadata()
        controls: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        for key, control in (("ExposureTime", "ExposureTime"),
                             ("AnalogueGain", "AnalogueGain"),
                             ("ColourGains", "ColourGains")):
            if key in metadata:
                controls[control] = metadata[key]
        self.camera.set_controls(controls)
        self.start = time.monotonic()

    def frames(self) -> Iterator[tuple[float, np.ndarray]]:
        while True:
            frame = self.camera.capture_array("main")
            yield time.monotonic() - self.start, np.ascontiguousarray(frame[:, :, :3])

    def close(self) -> None:
        self.camera.stop()
        self.camera.close()


class SyntheticSource:
    """Rendered frames from a list of scenes (see `vision.render`), for tests and demos."""

    def __init__(self, render: Callable[[int], np.ndarray], count: int, fps: float = 4.0):
        self.render = render
        self.count = count
        self.fps = fps

    def frames(self) -> Iterator[tuple[float, np.ndarray]]:
        for i in range(self.count):
            yield i / self.fps, self.render(i)

    def close(self) -> None:
        pass


def open_source(spec: str, fps: float = 4.0) -> FrameSource:
    """`picamera`, a webcam index, a video file or a folder of images."""
    if spec == "picamera":
        return PiCameraSource()
    if spec.isdigit():
        return VideoSource(int(spec))
    path = Path(spec)
    if path.is_dir():
        return ImageFolderSource(path, fps)
    if path.is_file():
        return VideoSource(str(path))
    raise ValueError(f"{spec}: no such camera, folder or video file")
