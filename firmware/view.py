"""The view model: the live table as plain JSON-able data, for every screen.

The OLED screens, the web page (``GET /api/state``) and the voice all draw from this one
dict, so they never disagree. It is a pure function of the engine's `Game` plus the
table referee's status (what is illegal or pending right now).

Shape (fields may be added, never renamed)::

    {"round": 3, "phase": "action", "step": "emperor", "to_move": "Anna", "cubes_to_play": 3,
     "choosers": [], "order": ["Anna", "Bob"], "discs_chosen": [["Bob", 2], ["Anna", 1]],
     "players": [{"name", "castles", "seat", "court": {colour: n}, "reserve": {colour: n},
                  "control": [colour...], "discs": [numbers in hand], "disc": n | null,
                  "territories": n, "score": n}],
     "units": [{"territories": [4, 5], "owner": "white" | null,
                "cubes": {colour: n}, "emperor": bool, "reachable": bool}],
     "territories": {"1": {"cubes": {colour: n}, "owner": ..., "unit": 0}},
     "emperor": 4, "supply": {colour: n},
     "finished": false, "winner": null, "reason": null,
     "table": {"legal": true, "illegal": null | {"code", "message", "player"},
               "question": null | {"zone", "counts", "message", "code", "player"},
               "pending": [{"kind": "cylinder", "colour", "player", "seat", "message"} |
                           {"kind": "castle", "territories", "side", "from", "message"}]},
     "status": {"camera": "ok" | "lost" | "demo" | "none", "message": ""}}

Each pending chore also carries its msgid and fields (``say``, ``words``) and ``texts``:
its sentence in every language of the page, from the one renderer (`web.announce.texts`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.game import Game, Phase, Step
from referee.pieces import COLOURS
from web.announce import texts


def game_view(
    game: Game,
    *,
    illegal: Mapping[str, Any] | None = None,
    pending: Sequence[Mapping[str, Any]] = (),
    camera: str = "none",
    message: str = "",
    question: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The view model of ``game`` and the table around it. ``question``: the referee
    doubts the camera and waits for the players' yes or no (the table is not illegal)."""
    to_move = game.to_move
    reach: set[int] = set()
    if game.phase is Phase.ACTION and game.step is Step.EMPEROR and to_move is not None:
        disc = game.disc(to_move) or 0
        reach = {game.emperor_reach(steps) for steps in range(1, disc + 1)}
    units = []
    territories: dict[str, Any] = {}
    for index, unit in enumerate(game.units()):
        owner = game.owner(unit[0])
        cubes = [game.territory(t) for t in unit]
        total = [sum(c[i] for c in cubes) for i in range(5)]
        units.append(
            {
                "territories": list(unit),
                "owner": owner,
                "cubes": _colours(total),
                "emperor": game.emperor == unit[0],
                "reachable": unit[0] in reach,
            }
        )
        for t in unit:
            territories[str(t)] = {
                "cubes": game.territory(t).as_dict(),
                "owner": owner,
                "unit": index,
            }
    players = []
    for p in game.players:
        players.append(
            {
                "name": p.name,
                "castles": p.castles,
                "seat": p.seat,
                "court": game.court(p.name).as_dict(),
                "reserve": game.reserve(p.name).as_dict(),
                "control": list(game.control(p.name)),
                "discs": sorted(game.discs_in_hand(p.name)),
                "disc": game.disc(p.name),
                "territories": game.castles(p.castles),
                "score": game.score(p.castles),
            }
        )
    return {
        "round": game.round,
        "phase": game.phase.value,
        "step": game.step.value if game.phase is Phase.ACTION else None,
        "to_move": to_move,
        "cubes_to_play": game.cubes_to_play(to_move)
        if to_move is not None
        else game.cubes_per_turn,
        "choosers": list(game.choosers()),
        "order": list(game.order_of_play()),
        "discs_chosen": [[name, disc] for name, disc in game.chosen_discs()],
        "players": players,
        "units": units,
        "territories": territories,
        "emperor": game.emperor,
        "supply": game.supply().as_dict(),
        "finished": game.is_over,
        "winner": game.winner,
        "reason": game.reason,
        "table": {
            "legal": illegal is None,
            "illegal": dict(illegal) if illegal is not None else None,
            "question": dict(question) if question is not None else None,
            "pending": [{**p, "texts": texts(p)} for p in pending],
        },
        "status": {"camera": camera, "message": message},
    }


#: The fields of a standing question the screens and the page show.
QUESTION_FIELDS = ("zone", "part", "counts", "message", "code", "player")


def question_view(question: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The referee's standing ``question`` event as the view shows it."""
    return None if question is None else {k: question.get(k) for k in QUESTION_FIELDS}


def majority_view(game: Game, territory: int) -> dict[str, Any]:
    """`Game.explain` as data: each side's strength and what it is made of."""
    majority = game.explain(territory)
    return {
        "territories": list(majority.territories),
        "owner": majority.owner,
        "cubes": majority.cubes.as_dict(),
        "sides": [
            {
                "side": s.side,
                "players": list(s.players),
                "cubes": {c: n for c, n in s.cubes.as_dict().items() if n},
                "castles": s.castles,
                "total": s.total,
            }
            for s in majority.strengths
        ],
        "outcome": majority.outcome,
        "side": majority.side,
        "margin": majority.margin,
        "text": majority.describe(),
    }


def majorities_view(game: Game) -> list[dict[str, Any]]:
    """Every unit's majority, most contested (smallest margin) first."""
    views = [majority_view(game, unit[0]) for unit in game.units()]
    return sorted(views, key=lambda v: (v["margin"], v["territories"][0]))


def _colours(counts: Sequence[int]) -> dict[str, int]:
    return dict(zip(COLOURS, counts, strict=True))
