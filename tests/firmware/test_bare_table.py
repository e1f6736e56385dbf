"""The set-up step: the camera learns the bare table before a game, the game is read
against it, and a game resumed after a restart reads against the one stored with it.
The demo's own set-up step (Confirm pressed once by the demo, every frame after it read
against the bare table) is checked on the whole demo game, `test_demo_game.py`."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy

from firmware.appliance import Appliance
from firmware.config import GpioConfig
from firmware.controls import Controls
from firmware.demo import demo_record, first_turns
from firmware.display import Display
from firmware.gamelog.store import GameLog
from firmware.hub import CommandError
from firmware.run import resume_running
from referee.table.simulate import Options, simulate
from vision.layout import load_layout
from vision.reader import Reader
from vision.render.table import TableRenderer
from vision.snapshot import Snapshot

LAYOUT = load_layout(None)
PINS = GpioConfig()


@pytest.fixture(scope="module")
def bare_frame() -> np.ndarray:
    """The demo's table with no piece: the tiles and the court cards."""
    return TableRenderer(LAYOUT, seed=1).bare_frame(seed=0)


@pytest.fixture(scope="module")
def record() -> Any:
    return first_turns(demo_record(), 2)


class Table:
    """An appliance as `carolus run` wires it: a real reader, the display on luma's
    dummy device, the buttons on gpiozero's mock pins, a game log."""

    def __init__(self, players: Any, db: Path, language: str = "en") -> None:
        self.reader = Reader(LAYOUT)
        self.log = GameLog(db)
        self.device = dummy(width=128, height=64, mode="1")
        self.display = Display(self.device, language=language)
        self.appliance = Appliance(
            players, gamelog=self.log, outputs=[self.display], eyes=self.reader, camera="ok"
        )
        self.factory = MockFactory()
        self.controls = Controls(self.appliance, pin_factory=self.factory, pins=PINS)
        self.appliance.outputs.append(self.controls)
        self.said: list[str] = []
        self.controls._say = self.said.append

    def show(self, frame: np.ndarray, t: float = 0.0) -> Snapshot:
        """One camera frame through the appliance, as the camera loop hands it over."""
        snapshot = self.reader.read(frame, t)
        self.appliance.keep_frame(frame, snapshot)
        self.appliance.feed(snapshot)
        return snapshot

    def press_confirm(self) -> None:
        pin = self.factory.pin(PINS.confirm)
        pin.drive_low()
        pin.drive_high()

    def close(self) -> None:
        self.controls.close()
        self.log.close()


@pytest.fixture()
def table(tmp_path: Path, record: Any) -> Iterator[Table]:
    rig = Table(record.setup.players, tmp_path / "log.db")
    yield rig
    rig.close()


def snapshots(record: Any) -> list[dict[str, Any]]:
    return simulate(record, random.Random(3), Options(illegal=0.0)).snapshots


def test_the_set_up_step_is_shown_and_confirm_learns_the_bare_table(
    table: Table, bare_frame: np.ndarray, record: Any
) -> None:
    appliance = table.appliance
    appliance.set_camera("ok")
    state = appliance.state()
    assert state["bare"]["step"] == "ask"
    assert state["status"]["message"].startswith("Lay out the tiles and the court cards")
    assert table.display.screen.name == "lay-out"
    assert table.show(bare_frame).reader == "absolute"
    assert appliance.referee.table is None  # the referee does not watch the step
    table.press_confirm()
    assert table.said == []
    state = appliance.state()
    assert state["bare"]["step"] == "learnt"
    assert state["status"]["message"].startswith("Now set up: the emperor")
    assert table.display.screen.name == "pieces"
    assert table.reader.bare is not None
    assert table.show(bare_frame, 0.2).reader == "reference"
    # the players set up and play: the game is logged with the bare table it is read against
    for snapshot in snapshots(record):
        appliance.feed(snapshot)
        if appliance.game_id is not None:
            break
    assert appliance.game_id is not None
    assert table.log.bare_table(appliance.game_id) == table.reader.bare.to_bytes()
    assert table.display.screen.name != "pieces"


def test_confirm_on_a_frame_without_the_mat_stays_in_the_step(table: Table) -> None:
    appliance = table.appliance
    appliance.set_camera("ok")
    table.press_confirm()  # no frame at all yet
    assert "No camera picture yet" in table.said[-1]
    nothing = np.full((648, 1152, 3), 40, np.uint8)
    assert table.show(nothing).mat is False
    table.press_confirm()
    assert "The mat is not found" in table.said[-1] and "Traceback" not in table.said[-1]
    state = appliance.state()
    assert state["bare"] == {
        "step": "ask",
        "problem": "no-mat",
        "message": state["status"]["message"],
    }
    assert table.display.screen.name == "lay-out"
    assert table.reader.bare is None
    with pytest.raises(CommandError, match="mat is not found"):
        appliance.press("confirm")


def test_a_hand_over_the_mat_is_refused(table: Table, bare_frame: np.ndarray) -> None:
    table.show(bare_frame)
    table.appliance.bare._occluded = True  # as the reader flags a hand or motion
    with pytest.raises(CommandError, match="over the mat or moving"):
        table.appliance.confirm()
    assert table.appliance.state()["bare"]["problem"] == "moving"


def test_a_snapshot_stream_has_no_set_up_step(record: Any) -> None:
    appliance = Appliance(record.setup.players)
    assert appliance.bare.state is None and appliance.state()["bare"] is None
    for snapshot in snapshots(record)[:40]:
        appliance.feed(snapshot)
    assert appliance.referee.table is not None


def test_a_resumed_game_reuses_its_stored_bare_table(
    tmp_path: Path, bare_frame: np.ndarray, record: Any
) -> None:
    db = tmp_path / "log.db"
    first = Table(record.setup.players, db)
    first.show(bare_frame)
    first.press_confirm()
    stored = first.reader.bare.to_bytes()  # type: ignore[union-attr]
    for snapshot in snapshots(record)[:80]:
        first.appliance.feed(snapshot)
    game_id = first.appliance.game_id
    assert game_id is not None
    first.close()  # the power goes

    again = Table(record.setup.players, db)
    said: list[str] = []
    assert resume_running(again.log, again.appliance, said.append)
    assert again.appliance.game_id == game_id and "Resumed game" in said[0]
    assert again.appliance.bare.state is None  # no set-up step
    assert "bare" not in again.appliance.state() or again.appliance.state()["bare"] is None
    again.appliance.set_camera("ok")
    assert again.display.screen.name not in ("lay-out", "pieces")
    assert again.reader.bare is not None and again.reader.bare.to_bytes() == stored
    assert again.show(bare_frame, 99.0).reader == "reference"
    again.close()
