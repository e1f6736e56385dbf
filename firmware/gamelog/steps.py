"""Moves as JSON, so the log stores what was decided and replays it through the referee.

A stored step is the move itself, not the position it made: resuming folds the moves
over the set-up again, so a log written by an older referee is judged by the current one.

>>> from referee.moves import PlayCubes
>>> move = PlayCubes.of("Bob", ["green"], {4: ["red"]})
>>> move_to_json(move)
{'move': 'cubes', 'player': 'Bob', 'court': ['green'], 'territories': [[4, ['red']]]}
>>> move_from_json(move_to_json(move)) == move
True
"""

from __future__ import annotations

import json
from typing import Any

from referee.moves import Move, MoveFormatError, move_from_json, move_to_json
from referee.setup import Player, Setup

#: A stored step that is not a move this referee knows.
BadStepError = MoveFormatError

__all__ = ["BadStepError", "dumps_move", "loads_move", "move_from_json", "move_to_json"]


def dumps_move(move: Move) -> str:
    return json.dumps(move_to_json(move), ensure_ascii=False, separators=(",", ":"))


def loads_move(text: str) -> Move:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadStepError(f"stored step is not JSON: {exc.msg}") from None
    return move_from_json(data)


def setup_to_json(setup: Setup) -> dict[str, Any]:
    """The set-up as the record's ``players`` and ``setup`` fields."""
    return {
        "players": [
            {"name": p.name, "castles": p.castles, **({"seat": p.seat} if p.seat else {})}
            for p in setup.players
        ],
        "setup": {
            "territories": list(setup.territories),
            "emperor": setup.emperor,
            "reserves": {name: list(r) for name, r in setup.reserves.items()},
            "cubes_per_colour": setup.cubes_per_colour,
        },
    }


def setup_from_json(data: Any) -> Setup:
    try:
        players = tuple(Player(p["name"], p["castles"], p.get("seat")) for p in data["players"])
        s = data["setup"]
        return Setup(
            players,
            tuple(s["territories"]),
            int(s["emperor"]),
            {name: tuple(r) for name, r in s["reserves"].items()},
            int(s.get("cubes_per_colour", 40)),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise BadStepError(f"stored set-up is not a set-up: {exc}") from None
