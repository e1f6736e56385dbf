"""Players and set-up: who sits at the table and what lies on it before round 1."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from referee.announcements import said
from referee.errors import BadSetupError
from referee.pieces import (
    CASTLE_COLOURS,
    COLOURS,
    SEATS,
    Colour,
    Cubes,
    is_castle_colour,
    is_colour,
    is_seat,
)

#: Faces of a die: the five colours and a crown (the roller's choice).
DIE_FACES: tuple[str, ...] = (*COLOURS, "crown")
#: the territories start with one cube each, this many of each colour
TILES_PER_COLOUR = 3


@dataclass(frozen=True)
class Player:
    """One player: a unique name, the castle colour of his side, and where he sits."""

    name: str
    castles: str
    seat: str | None = None


def reserve_size(players: int) -> int:
    """Cubes in a reserve: 9 with three players, else 7."""
    return 9 if players == 3 else 7


def cubes_per_turn(players: int) -> int:
    """Cubes played (and refilled) each turn: 4 with three players, else 3."""
    return 4 if players == 3 else 3


def castle_goal(players: int) -> int:
    """Territories under one side's castles that win at once: 8 with three players."""
    return 8 if players == 3 else 10


@dataclass(frozen=True)
class Setup:
    """The table before round 1, as a record states it (values unchecked until `check`)."""

    players: tuple[Player, ...]
    territories: tuple[str, ...]
    emperor: int
    reserves: Mapping[str, Sequence[str]] = field(default_factory=dict)
    cubes_per_colour: int = 40

    def check(self) -> None:
        """Raise `BadSetupError` naming the first thing that is wrong."""
        n = len(self.players)
        if not 2 <= n <= 4:
            raise BadSetupError(
                said("Carolus Magnus is for 2, 3 or 4 players, not %(count)s", count=n)
            )
        names = [p.name for p in self.players]
        for name, times in Counter(names).items():
            if times > 1:
                raise BadSetupError(
                    said(
                        "player name %(given)s is used %(count)s times",
                        given=repr(name),
                        count=times,
                    ),
                    name,
                )
        for p in self.players:
            if not p.name:
                raise BadSetupError(said("a player has an empty name"))
            if not is_castle_colour(p.castles):
                raise BadSetupError(
                    said(
                        "%(player)s's castle colour %(given)s is not one of %(sides)s",
                        player=p.name,
                        given=repr(p.castles),
                        sides=list(CASTLE_COLOURS),
                    ),
                    p.name,
                )
            if p.seat is not None and not is_seat(p.seat):
                raise BadSetupError(
                    said(
                        "%(player)s's seat %(given)s is not one of %(seats)s",
                        player=p.name,
                        given=repr(p.seat),
                        seats=list(SEATS),
                    ),
                    p.name,
                )
        seats = Counter(p.seat for p in self.players if p.seat is not None)
        for seat, times in seats.items():
            if times > 1:
                raise BadSetupError(
                    said(
                        "seat %(given)s is taken by %(count)s players",
                        given=repr(seat),
                        count=times,
                    )
                )
        castles = Counter(p.castles for p in self.players)
        if n == 4:
            if len(castles) != 2 or set(castles.values()) != {2}:
                raise BadSetupError(
                    said(
                        "with 4 players exactly two castle colours are used, twice each "
                        "(partners share one); got %(given)s",
                        given=str(dict(castles)),
                    )
                )
        elif len(castles) != n:
            raise BadSetupError(
                said(
                    "with %(players)s players each needs a castle colour of his own; got %(given)s",
                    players=n,
                    given=str(dict(castles)),
                )
            )
        if len(self.territories) != 15:
            raise BadSetupError(
                said(
                    "set-up needs a cube on each of the 15 territories, got %(count)s",
                    count=len(self.territories),
                )
            )
        for i, colour in enumerate(self.territories, start=1):
            if not is_colour(colour):
                raise BadSetupError(
                    said(
                        "territory %(territory)s holds an unknown colour %(given)s",
                        territory=i,
                        given=repr(colour),
                    )
                )
        for colour, times in Counter(self.territories).items():
            if times != TILES_PER_COLOUR:
                raise BadSetupError(
                    said(
                        "the territories start with exactly 3 cubes of each colour; "
                        "%(colour)s has %(count)s",
                        colour=colour,
                        count=times,
                    )
                )
        if not 1 <= self.emperor <= 15:
            raise BadSetupError(
                said(
                    "the emperor must start on territory 1..15, not %(given)s",
                    given=str(self.emperor),
                )
            )
        unknown = sorted(set(self.reserves) - set(names))
        if unknown:
            raise BadSetupError(
                said("a reserve belongs to an unknown player %(given)s", given=repr(unknown[0]))
            )
        size = reserve_size(n)
        on_table = Cubes.of(self.territories)
        for name in names:
            if name not in self.reserves:
                raise BadSetupError(said("%(player)s has no reserve", player=name), name)
            reserve = self.reserves[name]
            for colour in reserve:
                if not is_colour(colour):
                    raise BadSetupError(
                        said(
                            "%(player)s's reserve holds an unknown colour %(given)s",
                            player=name,
                            given=repr(colour),
                        ),
                        name,
                    )
            if len(reserve) != size:
                raise BadSetupError(
                    said(
                        "%(player)s's reserve holds %(count)s cubes; with %(players)s players "
                        "it starts with %(size)s",
                        player=name,
                        count=len(reserve),
                        players=n,
                        size=size,
                    ),
                    name,
                )
            on_table = on_table + Cubes.of(reserve)
        for colour, count in zip(COLOURS, on_table, strict=True):
            if count > self.cubes_per_colour:
                raise BadSetupError(
                    said(
                        "the set-up uses %(count)s %(colour)s cubes but the game has only "
                        "%(each)s of each colour",
                        count=count,
                        colour=colour,
                        each=self.cubes_per_colour,
                    )
                )

    @classmethod
    def random(
        cls, players: Sequence[Player], rng: random.Random | None = None, emperor: int | None = None
    ) -> Setup:
        """A set-up as the rules deal it: 3 cubes of each colour shuffled onto the ring,
        and reserves rolled with the dice (a crown picks a random colour)."""
        rng = rng or random.Random()
        territories: list[str] = [c for c in COLOURS for _ in range(3)]
        rng.shuffle(territories)
        size = reserve_size(len(players))
        reserves = {p.name: roll(rng, size) for p in players}
        start = emperor if emperor is not None else rng.randint(1, 15)
        return cls(tuple(players), tuple(territories), start, reserves)


def roll(rng: random.Random, dice: int) -> list[Colour]:
    """Roll ``dice`` dice; a crown is taken as a colour chosen at random."""
    faces = [rng.choice(DIE_FACES) for _ in range(dice)]
    return [rng.choice(COLOURS) if f == "crown" else f for f in faces]  # type: ignore[misc]
