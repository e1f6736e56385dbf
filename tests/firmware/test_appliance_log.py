"""The appliance logs the moves the referee says it pushed and popped: after a full
card the log holds the referee's game exactly, with no step lost or written twice."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from firmware.appliance import Appliance
from firmware.gamelog.store import GameLog, LogFullError
from referee.announcements import render
from referee.record import load
from referee.table.simulate import Options, seated, simulate
from web.i18n import translations

EXAMPLE = Path("examples/club-night.json")


def test_steps_refused_by_a_full_card_go_in_once_when_it_has_room(tmp_path: Path) -> None:
    record = seated(load(EXAMPLE))
    snapshots = simulate(record, random.Random(1), Options()).snapshots
    log = GameLog(tmp_path / "log.db")
    appliance = Appliance(record.setup.players, gamelog=log)
    third = len(snapshots) // 3
    for snapshot in snapshots[:third]:
        appliance.feed(snapshot)
    assert appliance.game_id is not None
    conn = log.connection
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")  # the card is full
    with pytest.raises(LogFullError):
        log.event(appliance.game_id, {"kind": "note", "text": "x" * 20_000})
    for snapshot in snapshots[third : 2 * third]:
        appliance.feed(snapshot)
    assert log.queued > 1  # steps waited in memory
    # people are told, the log's own reason in the table's language (issue 17)
    warning = [e for _, e in appliance.bus.since(0) if e.kind == "warning"][-1]
    queued = warning.to_json()["words"]["clause"]["words"]["count"]  # as the log keeps it
    assert warning.message == (
        "Game log not written: the game log is full (database or disk is full); "
        f"{queued} write(s) kept in memory"
    )
    assert render(warning, translations("hu")) == (
        "Nem sikerült írni a játéknaplót: a játéknapló megtelt (database or disk is full); "
        f"memóriában tartott írások: {queued}"
    )
    conn.execute("PRAGMA max_page_count = 1000000")  # room again
    appliance.undo()  # a step taken back, and then played again from the table
    for snapshot in snapshots[2 * third :]:
        appliance.feed(snapshot)
    log.flush()
    game = appliance.referee.game
    assert game is not None and game.owners() == {6: "white"}
    assert log.moves(appliance.game_id) == game.move_stack
