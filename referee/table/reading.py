"""Reading the table against the game: what a settled table says about each player.

The referee, the judge of illegal acts and the announcements all compare a `Table`
with the accepted `Game` through one `Reading`, which knows who sits where.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from referee.game import Game
from referee.moves import Move, PlayCubes, Refill
from referee.pieces import CASTLE_COLOURS, NO_CUBES, Cubes
from referee.setup import Player
from referee.table.snapshot import Castles, Table

DISCS: Final = frozenset(range(1, 6))
NO_CASTLE: Final[Castles] = (0, 0, 0)


def castle_of(side: str | None) -> Castles:
    """The castles a territory owned by ``side`` shows: one of its colour."""
    if side is None:
        return NO_CASTLE
    counts = [0, 0, 0]
    counts[CASTLE_COLOURS.index(side)] = 1  # type: ignore[arg-type,unused-ignore]
    return (counts[0], counts[1], counts[2])


def gained(cubes: Cubes) -> Cubes:
    """The positive part of a difference of counts."""
    return Cubes(n if n > 0 else 0 for n in cubes)


def lost(cubes: Cubes) -> Cubes:
    """The negative part of a difference of counts, as positive counts."""
    return Cubes(-n if n < 0 else 0 for n in cubes)


@dataclass(frozen=True)
class Chores:
    """Physical actions the rules called for that the table has not shown yet, and the
    disc trays' memory; saved with every accepted move so that a take-back restores it."""

    #: territory -> (castle colour before, castle colour the rules put there)
    castles: Mapping[int, tuple[str | None, str]] = field(default_factory=dict)
    castles_by: str | None = None
    castles_at: int = 0  # length of the move stack right after the emperor's move
    #: colour -> where its cylinder stood when control changed (seat or "pool")
    cylinders: Mapping[str, str] = field(default_factory=dict)
    #: seat -> discs seen back in the tray in this cycle of 5 rounds
    back: Mapping[str, frozenset[int]] = field(default_factory=dict)
    #: the tile the emperor stood on when the table was last judged (None: unknown)
    emperor_tile: int | None = None


@dataclass
class Placement:
    """What one player has put down so far in his cube step, as the table shows it."""

    player: str
    taken: Cubes  # left his reserve
    court: Cubes  # arrived in his court
    territories: dict[int, Cubes]

    @property
    def placed(self) -> Cubes:
        return sum(self.territories.values(), self.court)

    def move(self) -> PlayCubes:
        return PlayCubes.of(
            self.player,
            self.court.colours(),
            {t: c.colours() for t, c in sorted(self.territories.items())},
        )


class Reading:
    """Compares tables with games for one seating of players."""

    def __init__(self, players: Sequence[Player]) -> None:
        self.players: Final = tuple(players)
        self.seat: Final[dict[str, str]] = {p.name: p.seat or "" for p in players}

    def placement(self, game: Game, table: Table, player: str) -> Placement:
        seat = self.seat[player]
        taken = game.reserve(player) - table.reserves.get(seat, NO_CUBES)
        court = table.courts.get(seat, NO_CUBES) - game.court(player)
        territories = {}
        for t in range(1, 16):
            diff = table.territories[t - 1] - game.territory(t)
            if any(diff):
                territories[t] = diff
        return Placement(player, taken, court, territories)

    def emperor_steps(self, game: Game, table: Table) -> int:
        if table.emperor is None:
            return 0
        units = game.units()
        index = {t: i for i, unit in enumerate(units) for t in unit}
        here = index[game.emperor]
        return (index[table.emperor] - here) % len(units)

    def missing_discs(
        self, game: Game, table: Table, player: str, back: Mapping[str, frozenset[int]]
    ) -> set[int]:
        """Discs that left ``player``'s tray: in his hand, seen back in the tray this
        cycle (``back``), not there now."""
        seat = self.seat[player]
        tray = table.discs.get(seat, frozenset())
        known = game.discs_in_hand(player) & back.get(seat, frozenset())
        return set(known - tray)

    def next_player(self, game: Game) -> str | None:
        """Who plays after the player now refilling (None: the round ends)."""
        order = game.order_of_play()
        turn = game.turn_number
        return order[turn] if turn < len(order) else None

    def cylinder_place(self, game: Game, colour: str) -> str:
        holder = game.controller(colour)  # type: ignore[arg-type]
        return "pool" if holder is None else self.seat[holder]

    def place_name(self, place: str | None) -> str:
        if place == "pool":
            return "the pool"
        for name, seat in self.seat.items():
            if seat == place:
                return f"{name}'s court"
        return f"the {place} court"

    def cylinder_words(self, game: Game, colour: str) -> str:
        return f"move the {colour} cylinder to {self.place_name(self.cylinder_place(game, colour))}"

    def castle_words(self, castles: Mapping[int, tuple[str | None, str]]) -> str:
        places = sorted(castles)
        olds = {old for old, _ in castles.values()}
        side = next(iter(castles.values()))[1]
        where = f"territor{'ies' if len(places) > 1 else 'y'} {and_list(places)}"
        if olds == {None}:
            return f"build a {side} castle on {where}"
        old = next(iter(olds))
        return f"swap the {old} castle{'s' if len(places) > 1 else ''} on {where} for {side}"


def cubes_played(game: Game) -> int:
    for move in reversed(game.move_stack):
        if isinstance(move, PlayCubes):
            return move.count()
    return 0


def sentence(words: str) -> str:
    return words[:1].upper() + words[1:] + "."


def and_list(items: Sequence[object]) -> str:
    words = [str(i) for i in items]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def automatic(move: Move) -> bool:
    """A move the referee plays without anyone touching the table (no cubes left)."""
    if isinstance(move, PlayCubes):
        return move.count() == 0
    return isinstance(move, Refill) and not move.colours
