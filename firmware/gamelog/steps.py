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

from referee.moves import ChooseDisc, Move, MoveEmperor, PlayCubes, Refill
from referee.setup import Player, Setup


class BadStepError(ValueError):
    """A stored step that is not a move this referee knows."""


def move_to_json(move: Move) -> dict[str, Any]:
    if isinstance(move, ChooseDisc):
        return {"move": "disc", "player": move.player, "number": move.number}
    if isinstance(move, PlayCubes):
        return {
            "move": "cubes",
            "player": move.player,
            "court": list(move.court),
            "territories": [[key, list(colours)] for key, colours in move.territories],
        }
    if isinstance(move, MoveEmperor):
        return {"move": "emperor", "player": move.player, "steps": move.steps}
    if isinstance(move, Refill):
        data: dict[str, Any] = {
            "move": "refill",
            "player": move.player,
            "colours": list(move.colours),
        }
        if move.returned:
            data["returned"] = dict(move.returned)
        return data
    raise BadStepError(f"not a move: {move!r}")


def move_from_json(data: Any) -> Move:
    """The move a stored step names; `BadStepError` if it names none."""
    try:
        kind = data["move"]
        player = str(data["player"])
        if kind == "disc":
            return ChooseDisc(player, int(data["number"]))
        if kind == "cubes":
            places: dict[int | str, list[str]] = {}
            for key, colours in data["territories"]:
                places.setdefault(key, []).extend(colours)
            return PlayCubes(
                player,
                tuple(sorted(data["court"])),
                tuple((key, tuple(sorted(c))) for key, c in places.items()),
            )
        if kind == "emperor":
            return MoveEmperor(player, int(data["steps"]))
        if kind == "refill":
            return Refill.of(player, data["colours"], data.get("returned") or {})
    except (KeyError, TypeError, ValueError) as exc:
        raise BadStepError(f"stored step {data!r} is not a move: {exc}") from None
    raise BadStepError(f"stored step {data!r} is not a move: unknown kind {kind!r}")


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
