"""The demo's table refereed through the page's commands (issue 15: one correction and
one Undo on the Corrections page gave an endless stream of "the wrong refill").

The stream is the one the demo draws (`DemoSource.snapshots`), fed to the appliance as
the camera loop feeds it; the commands go through the appliance's `Hub` methods, the
door the page's ``/api`` commands and the buttons use. Nobody touches the table after a
command, as in the demo: the referee must come back to the table as it is and referee
the game to its end."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from firmware.appliance import Appliance
from firmware.demo import demo_record
from referee.check import judge
from referee.table.events import TableEvent
from referee.table.simulate import Options, simulate

RECORD = demo_record()
SNAPSHOTS = simulate(RECORD, random.Random(1), Options(fps=5.0, illegal=0.0)).snapshots
SEATS = {p.name: p.seat for p in RECORD.setup.players}


def play(
    when: Callable[[TableEvent], bool], commands: Callable[[Appliance], None]
) -> Appliance:
    """The demo's stream through a fresh appliance; ``commands`` once, after the first
    event ``when`` picks."""
    appliance = Appliance(RECORD.setup.players, camera="demo")
    done = False
    for snapshot in SNAPSHOTS:
        events = appliance.feed(snapshot)
        if not done and any(when(e) for e in events):
            commands(appliance)
            done = True
    assert done, "the moment for the commands never came"
    return appliance


def nth(kind: str, n: int) -> Callable[[TableEvent], bool]:
    seen = [0]

    def pick(event: TableEvent) -> bool:
        if event.kind != kind:
            return False
        seen[0] += 1
        return seen[0] == n

    return pick


def ends_as_the_demo_game(appliance: Appliance) -> None:
    game, bundled = appliance.referee.game, judge(RECORD).game
    assert game is not None and bundled is not None
    assert game.is_over, appliance.referee.illegal
    assert game.winner == bundled.winner and game.describe_result() == bundled.describe_result()
    assert appliance.referee.illegal is None and appliance.referee.question is None


def one_red_more_in_the_refillers_reserve(appliance: Appliance) -> None:
    """A correction people get wrong (one red too many in the reserve just refilled),
    then Undo, as on the Corrections page."""
    last = appliance.referee.game.move_stack[-1]  # type: ignore[union-attr]
    seat = SEATS[last.player]
    reserve = appliance.state()["players"]
    counts = next(p["reserve"] for p in reserve if p["seat"] == seat)
    appliance.correct(f"reserve:{seat}", {**counts, "red": counts.get("red", 0) + 1})
    appliance.undo()


@pytest.mark.parametrize("refill", [3, 9, 16])
def test_a_wrong_correction_then_undo_comes_back_to_the_table(refill: int) -> None:
    ends_as_the_demo_game(play(nth("refilled", refill), one_red_more_in_the_refillers_reserve))


def test_confirm_then_undo_after_a_castle_comes_back_to_the_table() -> None:
    """Confirm puts the pending castle where the rules want it; Undo then takes back the
    move that built it: the castle Confirm vouched for must not stay vouched for."""

    def confirm_and_undo(appliance: Appliance) -> None:
        appliance.confirm()
        appliance.undo()

    ends_as_the_demo_game(play(nth("castle-built", 2), confirm_and_undo))


def test_a_right_correction_and_an_undo_alone_come_back_too() -> None:
    def correct_as_seen(appliance: Appliance) -> None:
        appliance.correct("territory:7", appliance.state()["territories"]["7"]["cubes"])

    ends_as_the_demo_game(play(nth("turn-started", 4), correct_as_seen))
    ends_as_the_demo_game(play(nth("emperor-moved", 5), lambda a: a.undo()))


def _doubt_after_two_undos(n: int) -> Appliance:
    """The demo's stream read as the vision reads it (``reader``: a change needs a hand),
    two Undos right after the ``n``-th refill, and a phantom cube the camera doubts on a
    tile from then until after the next emperor move, as the demo's vision showed one
    (issue 15: "2 yellow on territory 8?"). The undone moves are judged again with the
    doubt standing, and the emperor moves on meanwhile."""
    snapshots = [{**s, "reader": "reference"} for s in SNAPSHOTS]
    probe = Appliance(RECORD.setup.players, camera="demo")
    refills = emperor = 0
    start = stop = None
    for i, snapshot in enumerate(snapshots):
        for event in probe.feed(snapshot):
            if event.kind == "refilled":
                refills += 1
                if refills == n:
                    start = i
            if event.kind == "emperor-moved" and start is not None and stop is None:
                emperor += 1
                if emperor == 1:
                    stop = i + 10
    assert start is not None and stop is not None
    for i in range(start + 1, stop):
        snapshot = snapshots[i]
        if snapshot["occluded"]:
            continue
        tile = snapshot["territories"]["8"]
        cubes = {**tile["cubes"], "yellow": tile["cubes"]["yellow"] + 1}
        territories = {**snapshot["territories"], "8": {**tile, "cubes": cubes}}
        snapshots[i] = {**snapshot, "territories": territories, "confidence": {"territory:8": 0.3}}
    appliance = Appliance(RECORD.setup.players, camera="demo")
    for i, snapshot in enumerate(snapshots):
        appliance.feed(snapshot)
        if i == start:
            appliance.undo()
            appliance.undo()
    return appliance


@pytest.mark.parametrize("n", [3, 5])
def test_two_undos_come_back_though_a_doubt_stands_meanwhile(n: int) -> None:
    appliance = _doubt_after_two_undos(n)
    ends_as_the_demo_game(appliance)
    assert not [e for e in appliance.referee.events if e.kind == "illegal"]


@pytest.mark.parametrize("n", [4, 10, 22, 37])
def test_undos_that_take_back_cubes_after_the_next_player_put_his_down_come_back(n: int) -> None:
    """Undo three times as the next player puts a cube down: the refill, the emperor and
    the cubes go back, and the changed table shows both players' cubes with nothing to
    say whose are whose (issue 15). The steps Undo took back are played again first,
    then the rest is judged."""

    def undo_thrice(appliance: Appliance) -> None:
        for _ in range(3):
            appliance.undo()

    appliance = play(nth("cubes-placed", n), undo_thrice)
    ends_as_the_demo_game(appliance)
    assert not [e for e in appliance.referee.events if e.kind == "illegal"]
