"""The demo's frame source: what it keeps while it plays."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from firmware.demo import KEPT_FRAMES, DemoSource


def test_the_demo_keeps_only_the_last_frames_it_drew() -> None:
    """Issue 15: every drawn frame was kept (some 9 MB each at the camera's size), 6.6 GB
    after 8 minutes. A state stands for several frames in a row: the last few serve.
    (Drawing is stubbed: what is kept is the question, not how frames look.)"""
    source = DemoSource(speed=0, width=320, height=180)
    drawn: list[Any] = []

    def draw(snapshot: dict[str, Any], seed: int = 0) -> Any:
        drawn.append(np.zeros((2, 2, 3), np.uint8))
        return drawn[-1]

    source.renderer.frame = draw  # type: ignore[method-assign]
    frames = [frame for _t, frame in itertools.islice(source.frames(), 600)]
    assert len(source._frames) <= KEPT_FRAMES
    assert len(drawn) > 100  # many states were drawn
    assert len(drawn) < len(frames) / 2  # and each was reused while it stood
