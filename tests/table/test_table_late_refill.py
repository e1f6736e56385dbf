"""A refill the camera reads short until the next round has begun.

The fifth round's last refill comes with every disc back in the trays. When the camera
misses one cube of that refill, the referee cannot take it until the heap reads right;
by then the players may have laid their discs back, chosen one each and begun the sixth
round. 2-player hard camera game 900287: Bob's pink read as two until Anna's first cube
was down; the discs laid back meanwhile were never seen as back, her cube buzzed
``turn-order`` ("the discs of round 6 are being chosen"), and the game was lost.
"""

from __future__ import annotations

import copy
import itertools
from typing import Any

from table_games import referee_run, source, stream_of
from test_table_doubts import Camera, anna_to_move, kinds

from referee.pieces import COLOURS

CALM = {"flicker": 0.0, "blind": 0.0, "late_cylinders": 0.0, "interleave": 0.0}


def seen(frames: list[dict[str, Any]]) -> list[int]:
    return [i for i, f in enumerate(frames) if not f["occluded"]]


def cubes_down(frame: dict[str, Any]) -> int:
    on_tiles = sum(sum(t["cubes"].values()) for t in frame["territories"].values())
    return on_tiles + sum(sum(c.values()) for c in frame["courts"].values())


def refill_read_short_into_round_6(
    frames: list[dict[str, Any]], doubt: bool = True
) -> list[dict[str, Any]]:
    """``frames`` with the last cube of the fifth round's last refill unseen in its heap
    (with ``doubt``) until the sixth round's first cube is down (the frame showing that
    cube reads it right again)."""
    frames = [copy.deepcopy(f) for f in frames]  # the stream shares one dict per state
    idx = seen(frames)
    back = next(i for a, i in itertools.pairwise(idx)
                if any(not frames[a]["discs"][s] and len(frames[i]["discs"][s]) == 5
                       for s in frames[i]["discs"]))
    grew = max(i for a, i in itertools.pairwise(idx) if i < back and any(
        sum(frames[i]["reserves"][s].values()) > sum(frames[a]["reserves"][s].values())
        for s in frames[i]["reserves"]))
    before = max(i for i in idx if i < grew)
    seat, colour = next(
        (s, c) for s in frames[grew]["reserves"] for c in COLOURS
        if frames[grew]["reserves"][s][c] > frames[before]["reserves"][s][c])
    down = cubes_down(frames[back])
    first = next(i for i in idx if i > back and cubes_down(frames[i]) > down)
    for i in idx:
        if grew <= i < first:
            frames[i]["reserves"][seat][colour] -= 1
            if doubt:
                frames[i]["confidence"] = {f"reserve:{seat}": 0.0}  # and says it is unsure
    return frames


def unordered(rounds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rounds with the lists whose order carries no meaning sorted (record.md)."""
    for rnd in rounds:
        for turn in rnd["turns"]:
            for key in ("court", "refill"):
                turn.get(key, []).sort()
            for colours in turn["territories"].values():
                colours.sort()
    return rounds


def test_a_refill_read_short_until_the_next_round_began_is_taken_with_its_discs() -> None:
    players, record = source(2, 11)
    frames = refill_read_short_into_round_6(stream_of(record, 11, **CALM).snapshots)
    referee, events = referee_run(players, frames)
    assert [e.message for e in events if e.kind == "illegal"] == []
    followed = referee.record()
    assert followed is not None
    assert unordered(followed.to_json()["rounds"]) == unordered(record.to_json()["rounds"])


def test_discs_laid_back_beside_a_heap_read_short_and_sure_are_no_alarm() -> None:
    """After a fifth round the refiller may lay his discs back before his last cube is
    in his heap: discs laid back are no sign that his refill is over, discs chosen are."""
    players, record = source(2, 11)
    frames = refill_read_short_into_round_6(
        stream_of(record, 11, **CALM).snapshots, doubt=False)
    laid_back = [i for i, f in enumerate(frames) if not f["occluded"]
                 and all(len(f["discs"][s]) == 5 for s in ("south", "north"))]
    _, events = referee_run(players, frames[: laid_back[-1] + 1])
    assert [e.kind for e in events if e.kind == "illegal"] == []
    _, events = referee_run(players, frames)
    assert [e.code for e in events if e.kind == "illegal"] == ["refill-count"]


def bob_refilled_one_short(doubt: float) -> Camera:
    """Round 1 played to Bob's refill; the camera (``doubt`` about his heap) misses the
    second pink he draws, and the players go on: both discs of round 2 laid."""
    camera = anna_to_move()
    camera.doubts = {"reserve:north": doubt}
    for _ in range(3):
        camera.cube("south", "red", "south")
    camera.cylinder("red", "south")
    camera.emperor(2)
    for colour in ("blue", "green", "green"):
        camera.refill("south", colour)
    for colour, to in (("green", "north"), ("yellow", "north"), ("blue", 5)):
        camera.cube("north", colour, to)
    camera.cylinder("green", "north")
    camera.cylinder("yellow", "north")
    camera.emperor(3)
    camera.castle(3, "black")
    camera.refill("north", "red")
    camera.refill("north", "pink")
    camera.show()  # the second pink, drawn unseen: the heap reads one short
    camera.disc("south", 1)
    camera.disc("north", 4)
    return camera


def test_a_refill_read_short_when_the_next_round_begins_is_asked_about() -> None:
    """Waiting for the rest of his refill, the referee took Anna's first cube of round 2
    for one played out of turn (3-player hard camera game 900387, Bob's pink)."""
    camera = bob_refilled_one_short(doubt=0.1)
    question = camera.referee.question
    assert question is not None and question.zone == "reserve:north"
    assert question.code == "refill-count"
    assert "illegal" not in kinds(camera.events)
    camera.doubts = {}
    events = camera.referee.correct(
        "reserve north", {"red": 1, "yellow": 1, "blue": 2, "pink": 3})
    assert {"refilled", "disc-chosen", "turn-started"} <= set(kinds(events))
    camera.mat.reserves["north"][COLOURS.index("pink")] += 1  # read right at last
    camera.cube("south", "green", 7)
    assert "illegal" not in kinds(camera.events)
    game = camera.referee.game
    assert game is not None and game.round == 2 and game.to_move == "Anna"


def test_a_refill_short_where_the_camera_is_sure_buzzes() -> None:
    """Read sure, a heap one short when the next round begins is a refill nobody
    finished: that is said, not waited for."""
    camera = bob_refilled_one_short(doubt=1.0)
    camera.wait(3)
    illegal = [e for e in camera.events if e.kind == "illegal"]
    assert [e.code for e in illegal] == ["refill-count"]
    assert illegal[0].message == "Bob took 2 cubes into his reserve; the refill is 3"
