"""The whole demo game through the real vision and the real referee (issue 15).

The demo must play the bundled game to its end: game over, the bundled winner, and no
``illegal`` event the game did not contain (the bundled game has none). A whole game
draws ~750 frames and reads ~1800: about 4 minutes of one core at 1152×648, which the
suite affords because it runs on one worker a core (``./test.sh``: pytest-xdist).
``CAROLUS_WHOLE_DEMO_SIZE=WxH`` plays it at another camera size.

The same run checks the demo's set-up step (`firmware.bare`), as a game that is read
from its first frame: the camera first sees the bare table and reads it with the
absolute reader, the demo presses Confirm once through the button's own door, and from
then on every frame is read against the bare table that was learnt, which is kept in
the game log with the game."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

from firmware.appliance import Appliance
from firmware.bus import EventBus
from firmware.config import load_config
from firmware.demo import DemoSource, demo_record
from firmware.gamelog.store import GameLog
from firmware.run import _eyes, plays_along
from firmware.watch import watch
from referee.check import judge
from referee.table.events import TableEvent
from vision.snapshot import Snapshot


def test_the_demo_plays_the_whole_game_to_its_winner(tmp_path: Path) -> None:
    width, height = (
        int(n) for n in os.environ.get("CAROLUS_WHOLE_DEMO_SIZE", "1152x648").lower().split("x")
    )
    record = demo_record()
    eyes = _eyes(load_config(None, {}))
    seen: list[str] = []  # which reader read each frame that showed the mat
    read = eyes.read

    def spy(frame: Any, t: float | None = None) -> Snapshot:
        snapshot: Snapshot = read(frame, t)
        if snapshot.mat:
            assert snapshot.reader is not None
            seen.append(snapshot.reader)
        return snapshot

    eyes.read = spy  # type: ignore[method-assign]
    bus = EventBus()
    log = GameLog(tmp_path / "demo.db")
    appliance = Appliance(record.setup.players, bus=bus, gamelog=log, camera="demo", eyes=eyes)
    events: list[TableEvent] = []
    publish = bus.publish

    def keep(event: TableEvent) -> None:
        events.append(event)
        publish(event)

    bus.publish = keep  # type: ignore[method-assign]
    pressed: list[str] = []
    press = appliance.press

    def pressing(button: str, long: bool = False) -> dict[str, Any]:
        pressed.append(button)
        return press(button, long)

    appliance.press = pressing  # type: ignore[method-assign]

    def opened() -> DemoSource:
        return DemoSource(record, speed=0, width=width, height=height)

    try:
        watch(plays_along(opened, appliance), eyes, appliance, threading.Event(),
              status="demo", once=True)  # fmt: skip
        game, bundled = appliance.referee.game, judge(record).game
        illegal = [e.message for e in events if e.kind == "illegal"]
        assert illegal == [], illegal
        assert game is not None and bundled is not None and game.is_over
        assert game.describe_result() == bundled.describe_result()
        assert any(e.kind == "game-over" for e in events)
        # the set-up step: the bare table read as it is, Confirm pressed once (the way
        # the button does), then the whole game read against the bare table learnt
        assert pressed == ["confirm"]
        assert seen[0] == "absolute" and "reference" in seen
        learnt = seen.index("reference")
        assert set(seen[learnt:]) == {"reference"}
        assert appliance.game_id is not None and log.bare_table(appliance.game_id) is not None
    finally:
        log.close()
