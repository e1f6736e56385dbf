"""The camera loop keeps the referee alive through a lost, failing or stalled camera."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

from firmware.watch import watch


class Table:
    def __init__(self) -> None:
        self.fed: list[float] = []
        self.camera: list[tuple[str, str]] = []

    def feed(self, snapshot: dict[str, Any]) -> None:
        self.fed.append(snapshot["t"])

    def set_camera(self, status: str, message: str = "") -> None:
        self.camera.append((status, message))


class Eyes:
    def read(self, frame: Any, t: float | None = None) -> dict[str, Any]:
        return {"t": t}


class Frames:
    def __init__(self, count: int, fail_at: int | None = None, stall_at: int | None = None):
        self.count, self.fail_at, self.stall_at = count, fail_at, stall_at
        self.closed = threading.Event()

    def frames(self) -> Iterator[tuple[float, Any]]:
        for i in range(self.count):
            if i == self.fail_at:
                raise OSError("camera unplugged")
            if i == self.stall_at:
                self.closed.wait(10)  # blocks until the watchdog closes us
                return
            yield float(i), None

    def close(self) -> None:
        self.closed.set()


def test_a_camera_that_cannot_open_is_retried_until_it_can() -> None:
    table, stop = Table(), threading.Event()
    attempts = []

    def open_source() -> Frames:
        attempts.append(1)
        if len(attempts) < 3:
            raise OSError("no camera on the bus")
        return Frames(3)

    # a live camera reopens forever; stop once it has delivered its frames
    def stopper() -> None:
        while len(table.fed) < 3:
            time.sleep(0.01)
        stop.set()

    threading.Thread(target=stopper, daemon=True).start()
    stats = watch(open_source, Eyes(), table, stop, retry_seconds=0.01, stall_seconds=5)
    assert table.fed[:3] == [0.0, 1.0, 2.0]
    assert stats.reconnects >= 2
    assert table.camera[0][0] == "lost" and "no camera on the bus" in table.camera[0][1]
    assert ("ok", "") in table.camera


def _one_after_another(sources: list[Frames], stop: threading.Event):
    """Opens the given cameras in turn; when none is left, stops the watch."""
    def open_source() -> Frames:
        if not sources:
            stop.set()
            raise OSError("no camera left")
        return sources.pop(0)
    return open_source


def test_a_camera_failing_mid_game_is_reported_and_reopened() -> None:
    table, stop = Table(), threading.Event()
    sources = [Frames(5, fail_at=2), Frames(2)]

    open_source = _one_after_another(sources, stop)

    stats = watch(open_source, Eyes(), table, stop, retry_seconds=0.01, stall_seconds=5)
    assert table.fed == [0.0, 1.0, 0.0, 1.0]
    assert any("camera unplugged" in m for s, m in table.camera if s == "lost")
    assert stats.reconnects >= 1


def test_a_stalled_camera_is_closed_by_the_watchdog_and_reopened() -> None:
    table, stop = Table(), threading.Event()
    sources = [Frames(5, stall_at=1), Frames(1)]

    open_source = _one_after_another(sources, stop)

    start = time.monotonic()
    stats = watch(open_source, Eyes(), table, stop, retry_seconds=0.01, stall_seconds=0.3)
    assert time.monotonic() - start < 5
    assert stats.stalls == 1
    assert any("stalled" in m for s, m in table.camera if s == "lost")
    assert table.fed == [0.0, 0.0]


def test_a_recording_is_watched_once() -> None:
    table, stop = Table(), threading.Event()
    stats = watch(lambda: Frames(4), Eyes(), table, stop, once=True)
    assert stats.frames == 4 and table.fed == [0.0, 1.0, 2.0, 3.0]


def test_the_page_lets_go_of_the_frame_before_while_the_next_is_read() -> None:
    """Issue 15 (at most 150 MB over a demo game): while a frame is read, the appliance
    holds no other frame. The camera view is given each frame before it is read (and
    shows it with the last snapshot until its own is read), so the frame before is let
    go then: held until after the read, it was a second frame (9 MB at 2304×1296) at
    the appliance's peak."""
    import weakref

    import numpy as np

    from firmware.appliance import Appliance
    from firmware.camera import CameraView
    from firmware.watch import ShowsFrames
    from referee.setup import Player

    class Source:
        def frames(self) -> Iterator[tuple[float, Any]]:
            for i in range(4):
                yield float(i), np.full((8, 8, 3), i, np.uint8)

        def close(self) -> None:
            pass

    appliance = Appliance(
        [Player("Anna", "white", "south"), Player("Bob", "black", "north")],
        camera_view=CameraView(None, None),
    )
    assert isinstance(appliance, ShowsFrames)
    earlier: list[weakref.ref[Any]] = []
    shown_while_read: list[int] = []

    class Looks:
        def read(self, frame: Any, t: float | None = None) -> dict[str, Any]:
            assert all(ref() is None for ref in earlier)  # no frame before is held
            earlier.append(weakref.ref(frame))
            view = appliance.camera_view
            assert view is not None
            shown_while_read.append(int(view._frame[0, 0, 0]))
            return {"schema": "carolus-snapshot/1", "t": t, "mat": False}

    watch(Source, Looks(), appliance, threading.Event(), status="ok", once=True)
    assert len(earlier) == 4
    assert shown_while_read == [0, 1, 2, 3]  # the page shows the frame being read
    jpeg = appliance.camera_jpeg()
    assert jpeg is not None and jpeg[:2] == b"\xff\xd8"
