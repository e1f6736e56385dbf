"""The built-in demo: a bundled game played on a simulated table, seen by a simulated camera.

A newcomer without a Pi sees the whole product work: the game record is played onto the
mat the way people play (`referee.table.simulate`: one piece at a time, hands over the
mat, late cylinders), each table state is drawn as a camera frame
(`vision.render.table`), and the appliance reads those frames with the *real* vision and
referees them with the *real* table referee. ``speed`` plays faster than life as far as
drawing frames allows. A table state stands for several frames in a row, so the last
few drawn frames are reused (`KEPT_FRAMES`); older ones are dropped, since a drawn frame
is some 9 MB and a whole game draws hundreds.

The simulated camera draws in a process of its own (`DrawingProcess`), as the Pi's camera
is a device of its own: drawing a frame takes some hundreds of MB of intermediate images
for a moment, which the appliance, held to 150 MB, must not carry. The frames come over
a pipe, one at a time, when the appliance asks for them.

Like a real evening it begins with the set-up step (`firmware.bare`): the camera first
sees the bare table (tiles and court cards, no piece), and after a moment the demo
presses Confirm the way a player would (`DemoSource.confirm`, the button's own path), so
the game that follows is read against the bare table.
"""

from __future__ import annotations

import contextlib
import json
import logging
import random
import time
from collections import OrderedDict
from collections.abc import Callable, Generator, Iterator
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

from referee.record import Record, load, loads
from referee.table.simulate import Options, seated, simulate

DEMO_GAME = "demo-game.json"
#: Demo seconds the bare table is shown before Confirm is pressed, and between tries.
BARE_SECONDS = 2.0
TRIES = 5
#: Drawn frames kept for reuse: the state now and the one before (a one-frame glitch in
#: the middle of a state, then the state again). More saves almost no drawing.
KEPT_FRAMES = 2
log = logging.getLogger("carolus")


def demo_record(path: str | Path | None = None) -> Record:
    """The bundled demo game (or another record)."""
    if path is not None:
        return seated(load(path))
    text = resources.files("firmware").joinpath(DEMO_GAME).read_text(encoding="utf-8")
    return seated(loads(text))


class DemoSource:
    """A `vision.sources.FrameSource` of a game played on a simulated table."""

    def __init__(
        self,
        record: Record | None = None,
        *,
        speed: float = 1.0,
        fps: float = 5.0,
        seed: int = 1,
        width: int = 2304,
        height: int = 1296,
        sleep: Callable[[float], None] = time.sleep,
        turns: int | None = None,
        bare_seconds: float = BARE_SECONDS,
        drawing_process: bool = True,
    ) -> None:
        """``drawing_process=False`` draws in this process (quicker to start, for tests
        and tools that do not care for the memory)."""
        self.record = record or demo_record()
        if turns is not None:
            self.record = first_turns(self.record, turns)
        self.speed = speed
        self.fps = fps
        self._sleep = sleep
        stream = simulate(self.record, random.Random(seed), Options(fps=fps, illegal=0.0))
        self.snapshots = stream.snapshots
        self.width, self.height = width, height
        self.renderer: Drawer = (
            DrawingProcess(seed, width, height)
            if drawing_process
            else _renderer(seed, width, height)
        )
        self._frames: OrderedDict[str, Any] = OrderedDict()
        self._drawn = 0
        self._closed = False
        self.bare_seconds = bare_seconds
        #: Presses Confirm in the set-up step (set by ``carolus run``); raises
        #: `firmware.hub.CommandError` when the frame was refused. None: no step.
        self.confirm: Callable[[], Any] | None = None

    @property
    def players(self) -> list[Any]:
        return list(self.record.setup.players)

    def frames(self) -> Iterator[tuple[float, Any]]:
        start = time.monotonic()
        offset = 0.0
        if self.confirm is not None and self.bare_seconds > 0:
            offset = yield from self._bare_step(start)
        for snapshot in self.snapshots:
            if self._closed:
                return
            t = offset + float(snapshot.get("t") or 0.0)
            frame = self._frame(snapshot)
            if self.speed > 0:
                wait = start + t / self.speed - time.monotonic()
                if wait > 0:
                    self._sleep(wait)
            yield t, frame

    def _bare_step(self, start: float) -> Generator[tuple[float, Any], None, float]:
        """The bare table until Confirm took it (a refused press is tried again a moment
        later, a few times); returns the demo time the game starts at."""
        from firmware.hub import CommandError

        assert self.confirm is not None
        frame = self.renderer.bare_frame(seed=0)
        press_at, tries, n = self.bare_seconds, 0, 0
        while not self._closed:
            t = n / self.fps
            if self.speed > 0:
                wait = start + t / self.speed - time.monotonic()
                if wait > 0:
                    self._sleep(wait)
            yield t, frame
            n += 1
            if t < press_at:
                continue
            try:
                self.confirm()
                break
            except CommandError as exc:
                tries += 1
                log.warning("demo: Confirm in the set-up step refused: %s", exc)
                if tries >= TRIES:
                    break
                press_at = t + self.bare_seconds / 2
        return n / self.fps

    def _frame(self, snapshot: dict[str, Any]) -> Any:
        # Under a hand the stream's counts are garbage, and drawn as such: pieces come and
        # go under the hand (each keeps its spot when it comes back, see `TableRenderer`).
        # Drawing the table last seen under a moving hand instead made the vision keep a
        # cylinder where a sleeve had passed (a vision matter, left to it).
        state = {k: v for k, v in snapshot.items() if k != "t"}
        if snapshot.get("occluded"):
            state["hand"] = int(float(snapshot.get("t") or 0) * 10) % 4
        key = json.dumps(state, sort_keys=True)
        frame = self._frames.get(key)
        if frame is not None:
            self._frames.move_to_end(key)
        else:
            if not snapshot.get("mat", True):
                import numpy as np

                frame = np.full((self.height, self.width, 3), 40, np.uint8)
            else:
                frame = self.renderer.frame(snapshot, seed=self._drawn % 7)
            self._drawn += 1
            self._frames[key] = frame
            while len(self._frames) > KEPT_FRAMES:
                self._frames.popitem(last=False)
        return frame

    def close(self) -> None:
        self._closed = True
        stop = getattr(self.renderer, "close", None)
        if stop is not None:
            stop()


class Drawer(Protocol):
    """What the demo asks of its simulated camera (`TableRenderer` or `DrawingProcess`)."""

    def frame(self, snapshot: dict[str, Any], seed: int = 0) -> Any: ...

    def bare_frame(self, seed: int = 0) -> Any: ...


def _renderer(seed: int, width: int, height: int) -> Any:
    from vision.layout import load_layout
    from vision.render.table import TableRenderer

    return TableRenderer(load_layout(), seed=seed, width=width, height=height)


class DrawingProcess:
    """A `TableRenderer` in a process of its own, frames back over a pipe.

    Started on the first frame asked for (a source never read costs no process), stopped
    by `close` or with this process (it is a daemon). One renderer draws the whole game
    in order, as `TableRenderer` needs to keep every piece on its spot."""

    def __init__(self, seed: int, width: int, height: int) -> None:
        self.seed, self.width, self.height = seed, width, height
        self._conn: Any = None
        self._process: Any = None

    def frame(self, snapshot: dict[str, Any], seed: int = 0) -> Any:
        return self._ask(("frame", snapshot, seed))

    def bare_frame(self, seed: int = 0) -> Any:
        return self._ask(("bare", None, seed))

    def _ask(self, request: tuple[str, Any, int]) -> Any:
        import numpy as np

        if self._process is None:
            import multiprocessing

            # spawn, not fork: the appliance has threads (web page, display) by now
            context = multiprocessing.get_context("spawn")
            self._conn, theirs = context.Pipe()
            self._process = context.Process(
                target=_draw_forever,
                args=(theirs, self.seed, self.width, self.height),
                name="carolus-demo-camera",
                daemon=True,
            )
            self._process.start()
            theirs.close()
        self._conn.send(request)
        frame = np.empty((self.height, self.width, 3), np.uint8)
        try:
            self._conn.recv_bytes_into(frame.reshape(-1))  # one flat run of bytes
        except EOFError:
            raise RuntimeError("the demo's simulated camera stopped") from None
        return frame

    def close(self) -> None:
        if self._process is None:
            return
        with contextlib.suppress(OSError):  # it may be gone already
            self._conn.send(None)
        self._process.join(timeout=5)
        if self._process.is_alive():
            self._process.terminate()
        self._conn.close()
        self._process = None


def _draw_forever(conn: Any, seed: int, width: int, height: int) -> None:
    """The drawing process: one frame for each request, until None or the pipe closes."""
    import numpy as np

    renderer = _renderer(seed, width, height)
    while True:
        try:
            request = conn.recv()
        except EOFError:
            return
        if request is None:
            return
        what, snapshot, seed = request
        if what == "bare":
            frame = renderer.bare_frame(seed=seed)
        else:
            frame = renderer.frame(snapshot, seed=seed)
        conn.send_bytes(np.ascontiguousarray(frame, np.uint8).reshape(-1))  # flat: see _ask


def first_turns(record: Record, turns: int) -> Record:
    """The record cut after ``turns`` whole turns (a quicker demo)."""
    rounds = []
    left = turns
    for rnd in record.rounds:
        if left <= 0:
            break
        rounds.append(type(rnd)(rnd.discs, rnd.turns[:left]))
        left -= len(rnd.turns[:left])
    return Record(record.setup, tuple(rounds), record.meta)
