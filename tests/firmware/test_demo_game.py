"""The whole demo game through the real vision and the real referee (issue 15).

The demo must play the bundled game to its end: game over, the bundled winner, and no
``illegal`` event the game did not contain (the bundled game has none). A whole game
draws ~750 frames and reads ~1800: about 4 minutes of one core at 1152×648, which the
suite affords because it runs on one worker a core (``./test.sh``: pytest-xdist).
``CAROLUS_WHOLE_DEMO_SIZE=WxH`` plays it at another camera size."""

from __future__ import annotations

import os
import threading

from firmware.appliance import Appliance
from firmware.bus import EventBus
from firmware.config import load_config
from firmware.demo import DemoSource, demo_record
from firmware.run import _eyes, presses_confirm
from firmware.watch import watch
from referee.check import judge
from referee.table.events import TableEvent


def test_the_demo_plays_the_whole_game_to_its_winner() -> None:
    width, height = (
        int(n) for n in os.environ.get("CAROLUS_WHOLE_DEMO_SIZE", "1152x648").lower().split("x")
    )
    record = demo_record()
    eyes = _eyes(load_config(None, {}))
    bus = EventBus()
    appliance = Appliance(record.setup.players, bus=bus, camera="demo", eyes=eyes)
    events: list[TableEvent] = []
    publish = bus.publish

    def keep(event: TableEvent) -> None:
        events.append(event)
        publish(event)

    bus.publish = keep  # type: ignore[method-assign]

    def opened() -> DemoSource:
        return DemoSource(record, speed=0, width=width, height=height)

    watch(presses_confirm(opened, appliance), eyes, appliance, threading.Event(),
          status="demo", once=True)  # fmt: skip
    game, bundled = appliance.referee.game, judge(record).game
    illegal = [e.message for e in events if e.kind == "illegal"]
    assert illegal == [], illegal
    assert game is not None and bundled is not None and game.is_over
    assert game.describe_result() == bundled.describe_result()
    assert any(e.kind == "game-over" for e in events)
