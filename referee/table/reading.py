"""Reading the table against the game: what a settled table says about each player.

The referee, the judge of illegal acts and the announcements all compare a `Table`
with the accepted `Game` through one `Reading`, which knows who sits where.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from referee.announcements import N_, Said, said
from referee.game import Game, Phase, Step
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
    #: colour -> the courts its cylinder was asked to go to earlier while the move is
    #: still owed: control changed hands again before anyone moved it, and a player
    #: carrying out the first announcement late is not breaking a rule
    asked: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: seat -> discs seen in the tray while the refill that ends a cycle was under way:
    #: laid back before the game knew they were due, they are back once it ends
    returning: Mapping[str, frozenset[int]] = field(default_factory=dict)


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

    def unaccounted(self, game: Game, table: Table) -> Cubes:
        """Cubes that left a reserve and lie on no tile and in no court.

        A cube leaves a reserve only for a tile or a court (cubes go back to the supply
        from courts, never from reserves), so on a table no hand is over, a cube
        missing this way is in someone's hand out of sight or, far more often, one the
        camera does not see: a blue cube on a blue lake, or a reserve misread.
        """
        left, arrived = self._flows(game, table)
        return gained(left - arrived)

    def unsourced(self, game: Game, table: Table) -> Cubes:
        """Cubes new on a tile or in a court that no reserve gave: the other side of
        `unaccounted`. Every cube played comes out of a reserve, so such a cube is a
        phantom or a cube missed in a reserve's heap, never a move."""
        left, arrived = self._flows(game, table)
        return gained(arrived - left)

    def vanished(self, game: Game, table: Table) -> Cubes:
        """Cubes gone from the tiles that lie on no other tile and in no court beyond
        what those held.

        A hand may take a played cube away, but a cube the camera lost in its tile's art
        leaves the same reading, and gave the vision no blob to doubt. What a reserve
        gained is no sign of where it went: during a refill it comes from the bag."""
        gone = NO_CUBES
        found = NO_CUBES
        for t in range(1, 16):
            change = table.territories[t - 1] - game.territory(t)
            gone += lost(change)
            found += gained(change)
        for p in self.players:
            seat = self.seat[p.name]
            found += gained(table.courts.get(seat, NO_CUBES) - game.court(p.name))
        return gained(gone - found)

    def gaining(self, game: Game, table: Table, cubes: Cubes) -> list[str]:
        """The tiles and courts (vision zones) the table shows with more cubes of a
        colour among ``cubes`` than the game has there: where cubes of those colours
        seem to have gone."""
        out = []
        for t in range(1, 16):
            new = gained(table.territories[t - 1] - game.territory(t))
            if any(n and c for n, c in zip(new, cubes, strict=True)):
                out.append(f"territory:{t}")
        for p in self.players:
            seat = self.seat[p.name]
            new = gained(table.courts.get(seat, NO_CUBES) - game.court(p.name))
            if any(n and c for n, c in zip(new, cubes, strict=True)):
                out.append(f"court:{seat}")
        return out

    def _flows(self, game: Game, table: Table) -> tuple[Cubes, Cubes]:
        """The cubes gone from the reserves and those new on the tiles and in the courts,
        by colour, between ``game`` and ``table``."""
        left = NO_CUBES
        arrived = NO_CUBES
        for p in self.players:
            seat = self.seat[p.name]
            left += gained(game.reserve(p.name) - table.reserves.get(seat, NO_CUBES))
            arrived += gained(table.courts.get(seat, NO_CUBES) - game.court(p.name))
        for t in range(1, 16):
            arrived += gained(table.territories[t - 1] - game.territory(t))
        return left, arrived

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

    def actor(self, game: Game) -> str | None:
        """Who may put cubes down now: the mover in his cube step, the next player while
        the mover refills (he may start before the refill is done); nobody while the
        emperor is due or the discs are chosen."""
        if game.phase is not Phase.ACTION:
            return None
        if game.step is Step.CUBES:
            return game.to_move
        if game.step is Step.REFILL:
            return self.next_player(game)
        return None

    def cylinder_place(self, game: Game, colour: str) -> str:
        holder = game.controller(colour)  # type: ignore[arg-type]
        return "pool" if holder is None else self.seat[holder]

    def holder(self, place: str | None) -> str:
        """Who a seat's court belongs to: the name of the player sitting there, else the
        seat itself (nobody sits there); ``pool`` stays. It is the ``place`` field of a
        message (`referee.announcements`): ``Anna's court``, ``the north court``, ``the
        pool`` in every language."""
        for name, seat in self.seat.items():
            if seat == place:
                return name
        return str(place)

    def cylinder_words(self, game: Game, colour: str, sentence: bool = False) -> Said:
        """The chore of moving ``colour``'s cylinder to where control put it:
        ``move the red cylinder to Anna's court`` (``sentence``: ``Move … court.``)."""
        place = self.holder(self.cylinder_place(game, colour))
        if sentence:
            return said("Move the %(colour)s cylinder to %(place)s.", colour=colour, place=place)
        return said("move the %(colour)s cylinder to %(place)s", colour=colour, place=place)

    def castle_words(
        self, castles: Mapping[int, tuple[str | None, str]], sentence: bool = False
    ) -> Said:
        """The chore of building or swapping castles: ``build a white castle on
        territory 6``, ``swap the black castles on territories 4 and 5 for white``
        (``sentence``: capitalised, with a full stop)."""
        places = sorted(castles)
        olds = {old for old, _ in castles.values()}
        side = next(iter(castles.values()))[1]
        if olds == {None}:
            msgid = _BUILD[sentence]
            return said(msgid, side=side, territories=places)
        msgid = _SWAP[(sentence, len(places) > 1)]
        return said(msgid, old=next(iter(olds)), territories=places, side=side)


_BUILD = {
    False: N_("build a %(side)s castle on %(territories)s"),
    True: N_("Build a %(side)s castle on %(territories)s."),
}
_SWAP = {
    (False, False): N_("swap the %(old)s castle on %(territories)s for %(side)s"),
    (False, True): N_("swap the %(old)s castles on %(territories)s for %(side)s"),
    (True, False): N_("Swap the %(old)s castle on %(territories)s for %(side)s."),
    (True, True): N_("Swap the %(old)s castles on %(territories)s for %(side)s."),
}


def cubes_played(game: Game) -> int:
    for move in reversed(game.move_stack):
        if isinstance(move, PlayCubes):
            return move.count()
    return 0


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
