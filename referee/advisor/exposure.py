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
from referee.advisor.words import both, counted
from referee.announcements import Said, clause, said
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

    def text(self) -> Said:
        court = (
            said("%(counted)s to his court", counted=counted(self.court)) if self.court else None
        )
        placed = said("%(counted)s there", counted=counted(self.placed)) if self.placed else None
        how = both(court, placed, said("no cubes"))
        words: dict[str, object] = {
            "player": self.player,
            "side": self.side,
            "count": self.cubes,
            "clause": clause(how),
        }
        if self.within_reserve:
            return said(
                "%(player)s (%(side)s) with %(count)s: %(clause)s (his reserve has them)", **words
            )
        return said("%(player)s (%(side)s) with %(count)s: %(clause)s", **words)


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

    def text(self) -> Said:
        if self.distance > 1:
            reach = said("emperor %(count)s steps away", count=self.distance)
        else:
            reach = said("emperor %(count)s step away", count=self.distance)
        best = self.smallest
        unit = self.territories
        if self.owner is not None and self.holder not in (None, self.owner):
            return said(
                "%(where)s (%(side)s): %(side2)s would take it over now (%(clause)s)",
                where=unit,
                side=self.owner,
                side2=self.holder,
                clause=clause(reach),
            )
        if best is None:
            if self.owner:
                return said(
                    "%(where)s (%(side)s): no side can flip it (%(clause)s)",
                    where=unit,
                    side=self.owner,
                    clause=clause(reach),
                )
            return said(
                "%(where)s: no side can flip it (%(clause)s)", where=unit, clause=clause(reach)
            )
        if self.owner:
            return said(
                "%(where)s (%(side)s): flips for %(clause)s; %(clause2)s",
                where=unit,
                side=self.owner,
                clause=clause(best.text()),
                clause2=clause(reach),
            )
        return said(
            "%(where)s: flips for %(clause)s; %(clause2)s",
            where=unit,
            clause=clause(best.text()),
            clause2=clause(reach),
        )

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
