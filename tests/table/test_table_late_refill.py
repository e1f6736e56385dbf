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

from referee.pieces import COLOURS

CALM = {"flicker": 0.0, "blind": 0.0, "late_cylinders": 0.0, "interleave": 0.0}


def seen(frames: list[dict[str, Any]]) -> list[int]:
    return [i for i, f in enumerate(frames) if not f["occluded"]]


def cubes_down(frame: dict[str, Any]) -> int:
    on_tiles = sum(sum(t["cubes"].values()) for t in frame["territories"].values())
    return on_tiles + sum(sum(c.values()) for c in frame["courts"].values())


def refill_read_short_into_round_6(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``frames`` with the last cube of the fifth round's last refill unseen in its heap
    until the sixth round's first cube is down (the frame showing that cube reads it
    right again)."""
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
