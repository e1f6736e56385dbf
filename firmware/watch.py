"""The camera loop: frames in, snapshots to the appliance, and never give up on the camera.

A camera that is unplugged, returns errors or stalls must not stop the referee: the loop
says "camera lost" on the display and the page, waits, opens the source again, and
carries on with the game where it was. A watchdog thread notices a source that blocks
without delivering frames.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from referee.announcements import said
from vision.snapshot import Snapshot

log = logging.getLogger("carolus")


class FrameSource(Protocol):
    """`vision.sources.FrameSource`: ``frames()`` yields ``(t, BGR frame)``."""

    def frames(self) -> Iterator[tuple[float, Any]]: ...

    def close(self) -> None: ...


class Eyes(Protocol):
    """`vision.reader.Reader`: a frame into a `vision.snapshot.Snapshot` (a recorded
    stream's eyes pass its ``carolus-snapshot/1`` dicts through)."""

    def read(self, frame: Any, t: float | None = None) -> Snapshot | dict[str, Any]: ...


class Table(Protocol):
    """The appliance's side of the loop (`KeepsFrames` for what only some tables do)."""

    def feed(self, snapshot: Snapshot | dict[str, Any]) -> Any: ...

    def set_camera(self, status: str, message: str = "") -> None: ...


@runtime_checkable
class KeepsFrames(Protocol):
    """A table that keeps each frame (the page's camera view, the bare table learnt from
    it) and changes the reader when it learns: the loop reads no frame meanwhile."""

    def keep_frame(self, frame: Any, snapshot: Any) -> None: ...

    @property
    def reading(self) -> AbstractContextManager[object]:
        """Held while a frame is read, and while the reader changes."""
        ...


@runtime_checkable
class ShowsFrames(Protocol):
    """A table that shows the camera's latest frame (the page's camera view): it is
    given each frame before the frame is read, and lets go of the one before then."""

    def next_frame(self, frame: Any) -> None: ...


@dataclass
class WatchStats:
    frames: int = 0
    reconnects: int = 0
    stalls: int = 0
    read_seconds: float = 0.0


def watch(
    open_source: Callable[[], FrameSource],
    eyes: Eyes,
    table: Table,
    stop: threading.Event,
    *,
    status: str = "ok",
    retry_seconds: float = 2.0,
    stall_seconds: float = 10.0,
    once: bool = False,
    stats: WatchStats | None = None,
) -> WatchStats:
    """Feed snapshots from the source to ``table`` until ``stop`` is set.

    ``once``: stop when the source runs out (a video file, a folder, the demo) instead of
    reopening it as a live camera is.
    """
    stats = stats or WatchStats()
    keeps = table if isinstance(table, KeepsFrames) else None
    shows = table if isinstance(table, ShowsFrames) else None
    # learning the bare table (a Confirm, from another thread) changes the reader: not
    # while it reads a frame
    reading = keeps.reading if keeps is not None else contextlib.nullcontext()
    while not stop.is_set():
        try:
            source = open_source()
        except Exception as exc:  # a missing camera is a state, not a crash
            table.set_camera("lost", said("Camera lost: %(reason)s. Retrying…", reason=str(exc)))
            log.warning("camera: %s", exc)
            if once or stop.wait(retry_seconds):
                return stats
            stats.reconnects += 1
            continue
        table.set_camera(status)
        last_frame = [time.monotonic()]
        done, stalled = threading.Event(), threading.Event()
        watchdog = threading.Thread(
            target=_watchdog,
            args=(source, last_frame, stall_seconds, stop, done, stalled),
            name="carolus-watchdog",
            daemon=True,
        )
        watchdog.start()
        try:
            for t, frame in source.frames():
                if stop.is_set():
                    break
                last_frame[0] = time.monotonic()
                if shows is not None:  # before the read: one frame held while it reads
                    shows.next_frame(frame)
                start = time.perf_counter()
                with reading:
                    snapshot = eyes.read(frame, t)
                stats.read_seconds += time.perf_counter() - start
                stats.frames += 1
                if keeps is not None:
                    keeps.keep_frame(frame, snapshot)
                table.feed(snapshot)
            else:
                if once and not stalled.is_set():
                    return stats
        except Exception as exc:
            if not stalled.is_set():
                table.set_camera(
                    "lost", said("Camera lost: %(reason)s. Reconnecting…", reason=str(exc))
                )
                log.warning("camera failed: %s", exc)
        finally:
            done.set()  # ends the watchdog
            try:
                source.close()
            except Exception:
                log.exception("closing the camera")
        if stop.is_set():
            break
        if once:
            return stats
        stats.reconnects += 1
        if stalled.is_set():
            stats.stalls += 1
            table.set_camera("lost", said("Camera stalled: no frame for a while. Reconnecting…"))
        else:
            table.set_camera("lost", said("Camera lost. Reconnecting…"))
        if stop.wait(retry_seconds):
            break
    return stats


def _watchdog(
    source: FrameSource,
    last_frame: list[float],
    stall_seconds: float,
    stop: threading.Event,
    done: threading.Event,
    stalled: threading.Event,
) -> None:
    """Close a source that delivers nothing for ``stall_seconds``, so the loop reopens it."""
    while not done.wait(min(1.0, stall_seconds / 4)) and not stop.is_set():
        if time.monotonic() - last_frame[0] > stall_seconds:
            log.warning("camera stalled for %.0f s: reopening", stall_seconds)
            stalled.set()
            try:
                source.close()
            except Exception:
                log.exception("closing a stalled camera")
            return
