"""The built-in demo: a bundled game played on a simulated table, seen by a simulated camera.

A newcomer without a Pi sees the whole product work: the game record is played onto the
mat the way people play (`referee.table.simulate`: one piece at a time, hands over the
mat, late cylinders), each table state is drawn as a camera frame
(`vision.render.table`), and the appliance reads those frames with the *real* vision and
referees them with the *real* table referee. ``speed`` plays faster than life as far as
drawing frames allows (each distinct table state is drawn once and reused).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

from referee.record import Record, load, loads
from referee.table.simulate import Options, seated, simulate

DEMO_GAME = "demo-game.json"


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
    ) -> None:
        from vision.layout import load_layout
        from vision.render.table import TableRenderer

        self.record = record or demo_record()
        if turns is not None:
            self.record = first_turns(self.record, turns)
        self.speed = speed
        self.fps = fps
        self._sleep = sleep
        stream = simulate(self.record, random.Random(seed), Options(fps=fps, illegal=0.0))
        self.snapshots = stream.snapshots
        self.renderer = TableRenderer(load_layout(), seed=seed, width=width, height=height)
        self._frames: dict[str, Any] = {}
        self._closed = False

    @property
    def players(self) -> list[Any]:
        return list(self.record.setup.players)

    def frames(self) -> Iterator[tuple[float, Any]]:
        start = time.monotonic()
        for snapshot in self.snapshots:
            if self._closed:
                return
            t = float(snapshot.get("t") or 0.0)
            frame = self._frame(snapshot)
            if self.speed > 0:
                wait = start + t / self.speed - time.monotonic()
                if wait > 0:
                    self._sleep(wait)
            yield t, frame

    def _frame(self, snapshot: dict[str, Any]) -> Any:
        state = {k: v for k, v in snapshot.items() if k != "t"}
        if snapshot.get("occluded"):
            state["hand"] = int(float(snapshot.get("t") or 0) * 10) % 4
        key = json.dumps(state, sort_keys=True)
        frame = self._frames.get(key)
        if frame is None:
            if not snapshot.get("mat", True):
                import numpy as np

                frame = np.full(
                    (self.renderer.base.camera.height, self.renderer.base.camera.width, 3),
                    40,
                    np.uint8,
                )
            else:
                frame = self.renderer.frame(snapshot, seed=len(self._frames) % 7)
            self._frames[key] = frame
        return frame

    def close(self) -> None:
        self._closed = True


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
