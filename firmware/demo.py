"""The built-in demo: a bundled game played on a simulated table, seen by a simulated camera.

A newcomer without a Pi sees the whole product work: the game record is played onto the
mat the way people play (`referee.table.simulate`: one piece at a time, hands over the
mat, late cylinders), each table state is drawn as a camera frame
(`vision.render.table`), and the appliance reads those frames with the *real* vision and
referees them with the *real* table referee. ``speed`` plays faster than life as far as
drawing frames allows. A table state stands for several frames in a row, so the last
few drawn frames are reused (`KEPT_FRAMES`, `KeptFrames`); older ones are dropped, since
a drawn frame is some 9 MB and a whole game draws hundreds.

The simulated camera draws in a process of its own (`DrawingProcess`), as the Pi's camera
is a device of its own: drawing a frame takes some hundreds of MB of intermediate images
for a moment, which the appliance, held to 150 MB, must not carry. The frames it keeps
for reuse stay there too; the appliance holds only the frame it reads now (a frame the
same as the one before is not sent again). The frames come over a pipe, one at a time,
when the appliance asks for them. The game's snapshot stream is kept as compact text
(`Snapshots`), not as some 2000 dicts of dicts.

Like a real evening it begins with the set-up step (`firmware.bare`): the camera first
sees the bare table (tiles and court cards, no piece), and after a moment the demo
presses Confirm the way a player would (`DemoSource.confirm`, the button's own path), so
the game that follows is read against the bare table. When the referee doubts the camera
and asks ("1 yellow on territory 8?"), the demo's players look at their table and answer
(`DemoSource.answer`) as people do, a moment later: a real camera asks now and then, and
a demo that stopped at its first question would show a newcomer nothing.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import random
import time
from collections import OrderedDict
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, overload

from referee.record import Record, load, loads
from referee.table.simulate import Options, seated, simulate

if TYPE_CHECKING:  # the type only: `carolus run` imports the vision when it reads
    from vision.snapshot import SnapshotJSON

DEMO_GAME = "demo-game.json"
#: Demo seconds the bare table is shown before Confirm is pressed, and between tries.
BARE_SECONDS = 2.0
TRIES = 5
#: Drawn frames kept for reuse: the state now and the one before (a one-frame glitch in
#: the middle of a state, then the state again). More saves almost no drawing.
KEPT_FRAMES = 2
#: The drawing process's word before a frame: the appliance holds it already, or not.
SAME, NEW = b"same", b"new"
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
        self.snapshots = Snapshots(stream.snapshots)
        del stream
        self.width, self.height = width, height
        self.renderer: Drawer = (
            DrawingProcess(seed, width, height)
            if drawing_process
            else KeptFrames(_renderer(seed, width, height), width, height)
        )
        self._closed = False
        self.bare_seconds = bare_seconds
        #: Presses Confirm in the set-up step (set by ``carolus run``); raises
        #: `firmware.hub.CommandError` when the frame was refused. None: no step.
        self.confirm: Callable[[], Any] | None = None
        #: The players at the demo's table, told what the table truly holds after each
        #: frame was read (its snapshot, its time): they answer a question the referee
        #: asks about it (set by ``carolus run``). None: nobody answers.
        self.answer: Callable[[SnapshotJSON, float], Any] | None = None

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
            if self.answer is not None:
                self.answer(snapshot, t)

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

    def _frame(self, snapshot: SnapshotJSON) -> Any:
        return self.renderer.frame(snapshot)

    def close(self) -> None:
        self._closed = True
        stop = getattr(self.renderer, "close", None)
        if stop is not None:
            stop()


class Snapshots(Sequence["SnapshotJSON"]):
    """The demo's snapshot stream, kept as compact JSON text compressed in blocks of
    `BLOCK` snapshots, and decoded when asked for (the block last opened is kept, so
    the stream read in order opens each block once): a whole game is some 2000
    snapshots, about 14 MB as dicts, 4 MB as text and 0.1 MB compressed, held for the
    whole demo by a process held to 150 MB. Each is the snapshot's JSON
    (`vision.snapshot.SnapshotJSON`, ``docs/table.md``), as the simulated table writes it
    and the simulated camera draws it: the text is this stream's own edge."""

    BLOCK = 64

    def __init__(self, snapshots: Sequence[Mapping[str, Any]]) -> None:
        import zlib

        blocks = []
        for start in range(0, len(snapshots), self.BLOCK):
            block = snapshots[start : start + self.BLOCK]
            texts = (json.dumps(s, separators=(",", ":")) for s in block)
            blocks.append(zlib.compress("\n".join(texts).encode()))
        self._blocks = tuple(blocks)
        self._length = len(snapshots)
        self._open: tuple[int, list[str]] = (-1, [])

    def __len__(self) -> int:
        return self._length

    @property
    def nbytes(self) -> int:
        """What the stream holds, compressed."""
        return sum(len(block) for block in self._blocks)

    def _text(self, index: int) -> str:
        import zlib

        number, lines = self._open
        if number != index // self.BLOCK:
            number = index // self.BLOCK
            lines = zlib.decompress(self._blocks[number]).decode().split("\n")
            self._open = number, lines
        return lines[index % self.BLOCK]

    @overload
    def __getitem__(self, index: int) -> SnapshotJSON: ...

    @overload
    def __getitem__(self, index: slice) -> list[SnapshotJSON]: ...

    def __getitem__(self, index: int | slice) -> SnapshotJSON | list[SnapshotJSON]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._length))]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("snapshot index out of range")
        snapshot: SnapshotJSON = json.loads(self._text(index))  # the text written above
        return snapshot


class Drawer(Protocol):
    """What the demo asks of its simulated camera (`KeptFrames` or `DrawingProcess`)."""

    def frame(self, snapshot: SnapshotJSON) -> Any: ...

    def bare_frame(self, seed: int = 0) -> Any: ...


class KeptFrames:
    """A `TableRenderer` that reuses the frames it drew last (`KEPT_FRAMES`).

    A table state stands for several frames in a row, and a one-frame glitch in the middle
    of a state comes back to it: the last few frames serve again, older ones are dropped.
    Under a hand the stream's counts are garbage, and drawn as such: pieces come and go
    under the hand (each keeps its spot when it comes back, see `TableRenderer`). Drawing
    the table last seen under a moving hand instead made the vision keep a cylinder where
    a sleeve had passed (a vision matter, left to it)."""

    def __init__(self, renderer: Any, width: int, height: int) -> None:
        self.renderer, self.width, self.height = renderer, width, height
        self.frames: OrderedDict[str, Any] = OrderedDict()
        self.drawn = 0
        self.last_key: str | None = None  # the key of the frame given last

    def key(self, snapshot: SnapshotJSON) -> str:
        state: dict[str, object] = {k: v for k, v in snapshot.items() if k != "t"}
        if snapshot.get("occluded"):
            state["hand"] = int(float(snapshot.get("t") or 0) * 10) % 4
        return json.dumps(state, sort_keys=True)

    def frame(self, snapshot: SnapshotJSON) -> Any:
        key = self.key(snapshot)
        self.last_key = key
        frame = self.frames.get(key)
        if frame is not None:
            self.frames.move_to_end(key)
            return frame
        if not snapshot.get("mat", True):
            import numpy as np

            frame = np.full((self.height, self.width, 3), 40, np.uint8)
        else:
            frame = self.renderer.frame(snapshot, seed=self.drawn % 7)
        self.drawn += 1
        self.frames[key] = frame
        while len(self.frames) > KEPT_FRAMES:
            self.frames.popitem(last=False)
        return frame

    def bare_frame(self, seed: int = 0) -> Any:
        return self.renderer.bare_frame(seed=seed)


def _renderer(seed: int, width: int, height: int) -> Any:
    from vision.layout import load_layout
    from vision.render.table import TableRenderer

    return TableRenderer(load_layout(), seed=seed, width=width, height=height)


class DrawingProcess:
    """A `TableRenderer` in a process of its own, frames back over a pipe.

    Started on the first frame asked for (a source never read costs no process), stopped
    by `close` or with this process (it is a daemon). One renderer draws the whole game
    in order, as `TableRenderer` needs to keep every piece on its spot. The frames kept
    for reuse (`KeptFrames`) are kept there; this side keeps only the frame it was given
    last, which the drawing process does not send again while the table stands."""

    def __init__(self, seed: int, width: int, height: int) -> None:
        self.seed, self.width, self.height = seed, width, height
        self._conn: Any = None
        self._process: Any = None
        self._last: Any = None  # the frame given last (the one being read, or just read)

    def frame(self, snapshot: SnapshotJSON) -> Any:
        return self._ask(("frame", snapshot, 0))

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
        try:
            if self._conn.recv_bytes() == SAME:
                if self._last is None:
                    raise RuntimeError("the demo's simulated camera lost count of its frames")
                return self._last
            # the one before may still be read or shown: a fresh array, never written over
            self._last = None
            frame = np.empty((self.height, self.width, 3), np.uint8)
            read_into(self._conn.fileno(), frame.reshape(-1).data)
        except EOFError:
            raise RuntimeError("the demo's simulated camera stopped") from None
        self._last = frame
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
        self._process = self._last = None


def _draw_forever(conn: Any, seed: int, width: int, height: int) -> None:
    """The drawing process: one frame for each request, until None or the pipe closes."""
    import numpy as np

    kept = KeptFrames(_renderer(seed, width, height), width, height)
    given: str | None = None  # the key of the frame the appliance holds (None: none)
    while True:
        try:
            request = conn.recv()
        except EOFError:
            return
        if request is None:
            return
        what, snapshot, seed = request
        if what == "bare":
            frame, key = kept.bare_frame(seed=seed), None
        else:
            frame = kept.frame(snapshot)
            key = kept.last_key
        if key is not None and key == given:  # the appliance holds this one
            conn.send_bytes(SAME)
            continue
        conn.send_bytes(NEW)
        write_all(conn.fileno(), np.ascontiguousarray(frame, np.uint8).reshape(-1).data)
        given = key


def read_into(fd: int, view: memoryview) -> None:
    """Fill ``view`` with the next ``len(view)`` bytes of ``fd``, straight into it.

    The frame comes as raw bytes after the word `NEW`, not as a `Connection` message:
    ``recv_bytes_into`` gathers a message in a `io.BytesIO` first, a second frame's
    worth (9 MB at 2304×1296) for a moment, beside the frame before, which the
    appliance still holds while the next one comes (issue 15: at most 150 MB)."""
    got = 0
    while got < len(view):
        n = os.readv(fd, [view[got:]])
        if n == 0:
            raise EOFError
        got += n


def write_all(fd: int, view: memoryview) -> None:
    """Write all of ``view`` to ``fd`` (the other end reads it with `read_into`)."""
    sent = 0
    while sent < len(view):
        sent += os.write(fd, view[sent:])


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
