"""The demo's simulated table as a camera could read it (issue 15).

The demo stopped in round 12 on "1 blue left territory 10; played cubes never move": its
renderer drew cubes on top of each other on a crowded tile, and one more red moved every
later-coloured cube. Pieces must stay where they were put and keep clear of each other,
and the crowded end of the game must read and referee right through the real vision.
(The whole game through the vision is `test_demo_game.py`, opt-in: minutes.)"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

from firmware.appliance import Appliance
from firmware.config import load_config
from firmware.demo import DemoSource, demo_record
from firmware.run import _eyes
from referee.check import judge
from referee.table.simulate import Options, simulate
from vision.layout import load_layout
from vision.reader import empty_snapshot
from vision.render.table import GAP_MM, TableRenderer

RECORD = demo_record()
SNAPSHOTS = simulate(RECORD, random.Random(1), Options(fps=5.0, illegal=0.0)).snapshots


def _clean(snapshot: dict[str, Any]) -> bool:
    return not snapshot.get("occluded") and bool(snapshot.get("mat", True))


def _closest(renderer: TableRenderer) -> float:
    """The least free space between what the camera sees of two laid pieces."""
    spots = list(renderer.spots().values())
    worst = np.inf
    for k, spot in enumerate(spots):
        others = spots[k + 1 :]
        if others:
            room = renderer._clearance(
                np.array([[spot.x, spot.y]]),
                spot.radius,
                np.array([[spot.lean_x, spot.lean_y]]),
                others,
            )
            worst = min(worst, float(room[0]))
    return worst


def test_every_piece_of_the_demo_game_stays_put_and_clear_of_the_others() -> None:
    """The whole game laid out (not drawn): a piece never moves while it stays on the
    table, and no two come closer than `GAP_MM` as the camera sees them."""
    renderer = TableRenderer(load_layout(), seed=1, width=1152, height=648)
    before: dict[Any, Any] = {}
    closest = np.inf
    shown = None
    for n, snapshot in enumerate(s for s in SNAPSHOTS if _clean(s)):
        state = json.dumps({k: v for k, v in snapshot.items() if k != "t"}, sort_keys=True)
        if state == shown:  # the same table a frame later
            continue
        shown = state
        renderer.scene(snapshot)
        now = renderer.spots()
        moved = [i for i, spot in now.items() if i in before and before[i] != spot]
        assert moved == [], (n, moved)
        for ident in now.keys() - before.keys():  # only a piece come can come too close
            spot = now[ident]
            others = [s for i, s in now.items() if i != ident]
            room = renderer._clearance(
                np.array([[spot.x, spot.y]]),
                spot.radius,
                np.array([[spot.lean_x, spot.lean_y]]),
                others,
            )
            closest = min(closest, float(room[0]))
        before = now
    assert closest >= GAP_MM


def test_one_more_red_moves_nothing_and_the_emperor_is_room_only_where_he_stands() -> None:
    layout = load_layout()
    renderer = TableRenderer(layout, seed=2, width=1152, height=648)
    snap = empty_snapshot(layout.seats(), mat=True)
    tile = snap["territories"]["10"]
    tile["castles"]["black"] = 1
    for colour, n in (("red", 2), ("green", 1), ("yellow", 1), ("blue", 2), ("pink", 1)):
        tile["cubes"][colour] = n  # round 12's tile 10, before one more red
    renderer.scene(snap)
    laid = renderer.spots()
    tile["cubes"]["red"] += 1
    renderer.scene(snap)
    assert {i: s for i, s in renderer.spots().items() if i in laid} == laid
    snap["emperor"] = 10  # the emperor comes: nothing moves for him
    renderer.scene(snap)
    assert {i: s for i, s in renderer.spots().items() if i in laid} == laid
    assert _closest(renderer) >= GAP_MM


def test_a_full_tile_pushes_new_pieces_out_never_onto_others() -> None:
    layout = load_layout()
    renderer = TableRenderer(layout, seed=3, width=1152, height=648)
    snap = empty_snapshot(layout.seats(), mat=True)
    snap["emperor"] = 5
    tile = snap["territories"]["5"]
    tile["castles"]["white"] = 1
    for colour in tile["cubes"]:
        tile["cubes"][colour] = 3  # 15 cubes, a castle and the emperor
    renderer.scene(snap)
    assert _closest(renderer) >= GAP_MM


#: Where the vision takes over from the stream: round 12, tile 10 holding 7 cubes, a
#: castle and the emperor, a little before the red the demo used to stop on (frame 1756).
VISION_FROM = 1740


@pytest.mark.skipif(not SNAPSHOTS, reason="no demo stream")
def test_the_crowded_end_of_the_demo_reads_and_referees_to_its_winner() -> None:
    """The referee follows the stream up to round 12, then the real vision reads the
    demo's frames of the crowded end: no illegal event, game over, the bundled winner."""
    source = DemoSource(RECORD, speed=0, width=1152, height=648, drawing_process=False)
    renderer = source.renderer
    assert isinstance(renderer, TableRenderer)
    eyes = _eyes(load_config(None, {}))
    eyes.use_bare(eyes.learn_bare(renderer.bare_frame(seed=0)))
    appliance = Appliance(RECORD.setup.players, camera="demo")
    events: list[dict[str, Any]] = []
    laid = None
    for i, snapshot in enumerate(source.snapshots):
        if i < VISION_FROM:
            events += appliance.feed(snapshot)
            state = json.dumps({k: v for k, v in snapshot.items() if k != "t"})
            if _clean(snapshot) and state != laid:  # the table laid as the game went
                renderer.scene(snapshot)
                source._table, laid = {k: v for k, v in snapshot.items() if k != "t"}, state
            continue
        t = float(snapshot["t"])
        events += appliance.feed(eyes.read(source._frame(snapshot), t))
    illegal = [e["message"] for e in events if e["kind"] == "illegal"]
    assert illegal == []
    game, bundled = appliance.referee.game, judge(RECORD).game
    assert game is not None and bundled is not None and game.is_over
    assert game.describe_result() == bundled.describe_result()
