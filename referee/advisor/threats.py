"""Threats: what the player about to act, and the next one, can do this turn.

The rules tell players to watch the opponents' reserves; the appliance sees them all.
For each of the two players it lists every colour whose cylinder his reserve can take
this turn, and every territory or region within the emperor's reach that he can build
on or take over, with the cubes it would cost (`cheapest_capture`). The next player's
reach is counted from where the emperor stands now, over every stop the player before
him may choose.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.advisor.board import Board
from referee.advisor.capture import cheapest_capture, colour_need
from referee.advisor.words import both, counted, score
from referee.announcements import Said, clause, said
from referee.game import Game, Phase, Step
from referee.pieces import COLOURS


@dataclass(frozen=True)
class Actor:
    """A player who may act soon, and where the emperor may stop for him: ``first`` to
    ``last`` units ahead of where it stands now."""

    player: int
    first: int
    last: int
    budget: int
    disc: int | None  # None: not chosen yet (reach up to the highest disc in his hand)


def actors(game: Game, board: Board) -> list[Actor]:
    """The player about to act and the next one (in the opening phase: everyone, with
    the discs still in hand)."""

    def budget(i: int) -> int:
        return min(board.per_turn, sum(board.reserves[i]))

    def top_disc(name: str) -> int:
        return max(game.discs_in_hand(name), default=5)

    if game.phase is Phase.OPENING:
        return [
            Actor(i, 1, top_disc(n), budget(i), game.disc(n)) for i, n in enumerate(board.names)
        ]
    if game.phase is not Phase.ACTION:
        return []
    order = game.order_of_play()
    now = game.turn_number - 1
    current = order[now]
    d = game.disc(current) or 1
    cubes_left = budget(board.player(current)) if game.step is Step.CUBES else 0
    out = [Actor(board.player(current), 1, d, cubes_left, d)]
    if now + 1 < len(order):
        nxt = order[now + 1]
        dn = game.disc(nxt) or 1
        out.append(Actor(board.player(nxt), 2, d + dn, budget(board.player(nxt)), dn))
    else:  # last of the round: the next round's order is not known yet
        for i, n in enumerate(board.names):
            if n != current:
                out.append(Actor(i, 2, d + top_disc(n), budget(i), None))
    return out


def window(board: Board, first: int, last: int) -> dict[int, int]:
    """Units the emperor may stop on ``first``..``last`` units ahead -> nearest distance."""
    seen: dict[int, int] = {}
    for distance in range(first, last + 1):
        seen.setdefault(board.reach(distance), distance)
    return seen


@dataclass(frozen=True)
class ColourThreat:
    """``player`` can win ``colour`` this turn from ``holder``'s court (or unheld)."""

    player: str
    colour: str
    holder: str | None
    lead: int  # holder's court minus the player's (0 for nobody)
    needs: int  # cubes of the colour into the player's court to take it
    holds: int  # cubes of the colour he can play (reserve, capped by the turn)
    defence: int | None  # cubes the holder must add first to keep it (tie keeps)

    def text(self, you: str | None = None) -> Said:
        """The threat in words, to ``you`` (the player asked for) where it is his."""
        yours = you is not None and self.holder == you
        if self.holder is None:
            tail = said(
                "%(colour)s (nobody's) is won with %(count)s", colour=self.colour, count=self.needs
            )
        elif self.defence is None:
            tail = (
                said("your %(colour)s lead of %(count)s falls", colour=self.colour, count=self.lead)
                if yours
                else said(
                    "%(player)s's %(colour)s lead of %(count)s falls",
                    player=self.holder,
                    colour=self.colour,
                    count=self.lead,
                )
            )
        elif yours:
            tail = said(
                "your %(colour)s lead of %(count)s falls unless you add %(count2)s",
                colour=self.colour,
                count=self.lead,
                count2=self.defence,
            )
        else:
            tail = said(
                "%(player)s's %(colour)s lead of %(count)s falls unless %(player)s adds %(count2)s",
                player=self.holder,
                colour=self.colour,
                count=self.lead,
                count2=self.defence,
            )
        if you is not None and self.player == you:
            return said(
                "You hold %(count)s %(colour)s in reserve: %(clause)s",
                count=self.holds,
                colour=self.colour,
                clause=clause(tail),
            )
        return said(
            "%(player)s holds %(count)s %(colour)s in reserve: %(clause)s",
            player=self.player.capitalize(),
            count=self.holds,
            colour=self.colour,
            clause=clause(tail),
        )

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class UnitThreat:
    """``player``'s side can build on or take over a unit if the emperor stops there."""

    player: str
    side: str
    territories: tuple[int, ...]
    owner: str | None
    distance: int  # units ahead of where the emperor stands now
    court: dict[str, int]
    placed: dict[str, int]
    strengths: dict[str, int]

    @property
    def cubes(self) -> int:
        return sum(self.court.values()) + sum(self.placed.values())

    @property
    def action(self) -> str:
        return "build" if self.owner is None else "take over"

    def where(self) -> Said:
        """``territory 6``, or ``region 5+6+7 (black, 3 castles)`` where there are castles."""
        unit = self.territories
        if not self.owner:
            return said("%(where)s", where=unit)
        if len(unit) > 1:
            return said(
                "%(where)s (%(side)s, %(count)s castles)",
                where=unit,
                side=self.owner,
                count=len(unit),
            )
        return said("%(where)s (%(side)s, %(count)s castle)", where=unit, side=self.owner, count=1)

    def text(self, you: str | None = None) -> Said:
        """The threat in words, to ``you`` (the player asked for) where it is his."""
        court = (
            said("%(counted)s to the court", counted=counted(self.court)) if self.court else None
        )
        placed = said("%(counted)s there", counted=counted(self.placed)) if self.placed else None
        how = both(court, placed, said("no cubes (the majority is already there)"))
        if self.distance > 1:
            away = said("%(count)s units past the emperor", count=self.distance)
        else:
            away = said("%(count)s unit past the emperor", count=self.distance)
        words: dict[str, object] = {
            "clause": clause(self.where()),
            "clause2": clause(how),
            "clause3": clause(away),
            "clause4": score(list(self.strengths.values())),
        }
        mine = you is not None and self.player == you
        if self.owner is None:
            if mine:
                return said(
                    "You can build on %(clause)s with %(clause2)s, %(clause3)s: %(clause4)s",
                    **words,
                )
            return said(
                "%(player)s can build on %(clause)s with %(clause2)s, %(clause3)s: %(clause4)s",
                player=self.player.capitalize(),
                **words,
            )
        if mine:
            return said(
                "You can take over %(clause)s with %(clause2)s, %(clause3)s: %(clause4)s", **words
            )
        return said(
            "%(player)s can take over %(clause)s with %(clause2)s, %(clause3)s: %(clause4)s",
            player=self.player.capitalize(),
            **words,
        )

    def to_json(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data["territories"] = list(self.territories)
        data["cubes"] = self.cubes
        return data


@dataclass(frozen=True)
class Threats:
    colours: tuple[ColourThreat, ...]
    units: tuple[UnitThreat, ...]

    def lines(self, you: str | None = None) -> list[Said]:
        return [t.text(you) for t in self.colours] + [t.text(you) for t in self.units]

    def to_json(self) -> dict[str, Any]:
        return {
            "colours": [t.to_json() for t in self.colours],
            "units": [t.to_json() for t in self.units],
        }


def colour_threats(board: Board, actor: Actor) -> list[ColourThreat]:
    p = actor.player
    found = []
    for c in range(5):
        holder = board.control[c]
        if holder == p or (holder >= 0 and board.side_of[holder] == board.side_of[p]):
            continue  # his own, or his partner's: no strength changes hands
        need = colour_need(board, p, c)
        holds = min(board.reserves[p][c], actor.budget)
        if need > holds:
            continue
        mine = board.courts[p][c]
        lead = board.courts[holder][c] - mine if holder >= 0 else 0
        defence = mine + holds - board.courts[holder][c] if holder >= 0 else None
        found.append(
            ColourThreat(
                board.names[p],
                COLOURS[c],
                board.names[holder] if holder >= 0 else None,
                lead,
                need,
                holds,
                defence,
            )
        )
    return found


def unit_threats(board: Board, actor: Actor) -> list[UnitThreat]:
    p = actor.player
    found = []
    for u, distance in window(board, actor.first, actor.last).items():
        capture = cheapest_capture(board, p, u, board.reserves[p], actor.budget)
        if capture is None:
            continue
        owner = board.owner[u]
        found.append(
            UnitThreat(
                board.names[p],
                board.sides[board.side_of[p]],
                board.units[u],
                board.sides[owner] if owner >= 0 else None,
                distance,
                _counts(capture.court),
                _counts(capture.placed),
                dict(zip(board.sides, capture.strengths, strict=True)),
            )
        )
    return found


def threats(game: Game) -> Threats:
    """Threats for the player about to act and for the next one, in that order."""
    board = Board.of(game)
    colours: list[ColourThreat] = []
    units: list[UnitThreat] = []
    if game.is_over:
        return Threats((), ())
    for actor in actors(game, board):
        colours += colour_threats(board, actor)
        units += unit_threats(board, actor)
    return Threats(tuple(colours), tuple(units))


def _counts(vec: tuple[int, ...]) -> dict[str, int]:
    return {COLOURS[c]: n for c, n in enumerate(vec) if n}
