"""Exposure: for each territory or region, the smallest change that flips it.

"Flips" means that a stop of the emperor would give the unit to a different side than
now: a castle taken over, or a build going to another side. The change is counted in
cubes — into a player's court (to win colours) and into the unit — from an unbounded
supply, so it measures the unit, not today's reserves; the emperor's reach is the
number of units between him and it. Whether someone's reserve already suffices is
what `threats` answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.advisor.board import Board
from referee.advisor.capture import cheapest_capture
from referee.advisor.words import cubes_words, unit_words
from referee.game import Game
from referee.pieces import COLOURS


@dataclass(frozen=True)
class Flip:
    """The cubes with which ``player`` would make his side win the unit."""

    player: str
    side: str
    court: dict[str, int]
    placed: dict[str, int]
    within_reserve: bool  # his reserve and one turn's cubes would do it now

    @property
    def cubes(self) -> int:
        return sum(self.court.values()) + sum(self.placed.values())

    def text(self) -> str:
        parts = []
        if self.court:
            parts.append(f"{cubes_words(self.court)} to his court")
        if self.placed:
            parts.append(f"{cubes_words(self.placed)} there")
        how = " and ".join(parts) or "no cubes"
        mark = " (his reserve has them)" if self.within_reserve else ""
        return f"{self.player} ({self.side}) with {self.cubes}: {how}{mark}"


@dataclass(frozen=True)
class Exposure:
    territories: tuple[int, ...]
    owner: str | None
    holder: str | None  # who it goes to if the emperor stops now (the owner if kept)
    distance: int  # units from the emperor (the unit he stands on: a full lap)
    flips: tuple[Flip, ...]  # cheapest first

    @property
    def smallest(self) -> Flip | None:
        return self.flips[0] if self.flips else None

    def text(self) -> str:
        where = unit_words(self.territories)
        now = f" ({self.owner})" if self.owner else ""
        reach = f"emperor {self.distance} step{'s' if self.distance > 1 else ''} away"
        best = self.smallest
        if self.owner is not None and self.holder not in (None, self.owner):
            return f"{where}{now}: {self.holder} would take it over now ({reach})"
        if best is None:
            return f"{where}{now}: no side can flip it ({reach})"
        return f"{where}{now}: flips for {best.text()}; {reach}"

    def to_json(self) -> dict[str, Any]:
        return {
            "territories": list(self.territories),
            "owner": self.owner,
            "holder": self.holder,
            "distance": self.distance,
            "flips": [{**f.__dict__, "cubes": f.cubes} for f in self.flips],
        }


def exposure(game: Game) -> list[Exposure]:
    """Every unit, clockwise from territory 1, with its cheapest flips."""
    board = Board.of(game)
    found = []
    for u in range(len(board.units)):
        gainer = board.gainer(u)
        holder = gainer if gainer >= 0 else board.owner[u]
        flips = []
        for p in range(len(board.names)):
            side = board.side_of[p]
            if side == holder:
                continue
            capture = cheapest_capture(board, p, u)
            if capture is None:
                continue
            budget = min(board.per_turn, sum(board.reserves[p]))
            ready = cheapest_capture(board, p, u, board.reserves[p], budget) is not None
            flips.append(
                Flip(
                    board.names[p],
                    board.sides[side],
                    {COLOURS[c]: n for c, n in enumerate(capture.court) if n},
                    {COLOURS[c]: n for c, n in enumerate(capture.placed) if n},
                    ready,
                )
            )
        flips.sort(key=lambda f: (f.cubes, not f.within_reserve))
        distance = (u - board.emperor) % len(board.units) or len(board.units)
        found.append(
            Exposure(
                board.units[u],
                board.sides[board.owner[u]] if board.owner[u] >= 0 else None,
                board.sides[holder] if holder >= 0 else None,
                distance,
                tuple(flips),
            )
        )
    return found
