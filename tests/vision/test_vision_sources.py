"""Frame sources: a folder of images, a video file, synthetic frames; no Pi needed."""

from __future__ import annotations

import subprocess
import sys

import cv2
import numpy as np
import pytest

from vision.sources import ImageFolderSource, SyntheticSource, VideoSource, open_source


def test_folder_in_name_order_with_timestamps(tmp_path) -> None:
    for name, value in (("b.png", 20), ("a.png", 10), ("c.jpg", 30)):
        cv2.imwrite(str(tmp_path / name), np.full((8, 8, 3), value, np.uint8))
    (tmp_path / "readme.txt").write_text("skip me")
    frames = list(ImageFolderSource(tmp_path, fps=2).frames())
    assert [t for t, _ in frames] == [0.0, 0.5, 1.0]
    assert [int(f[0, 0, 0]) for _, f in frames] == [10, 20, 30]
    assert isinstance(open_source(str(tmp_path)), ImageFolderSource)


def test_video_file(tmp_path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 4, (64, 48))
    for i in range(5):
        writer.write(np.full((48, 64, 3), 40 * i, np.uint8))
    writer.release()
    source = VideoSource(str(path))
    frames = list(source.frames())
    source.close()
    assert len(frames) == 5 and frames[0][1].shape == (48, 64, 3)


def test_synthetic_source() -> None:
    source = SyntheticSource(lambda i: np.full((4, 4, 3), i, np.uint8), 3, fps=4)
    assert [(t, int(f[0, 0, 0])) for t, f in source.frames()] == [(0.0, 0), (0.25, 1),
                                                                  (0.5, 2)]


def test_unknown_source_is_refused(tmp_path) -> None:
    with pytest.raises(ValueError, match="nowhere"):
        open_source(str(tmp_path / "nowhere"))


def test_vision_imports_without_a_pi() -> None:
    code = ("import sys, vision.sources, vision.reader, vision.calibration; "
            "print('picamera2' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.stdout.strip() == "False", out.stderr
