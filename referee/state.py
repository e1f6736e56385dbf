"""A game's position as one value, the rules' numbers by name, the flow of play as data.

`Game` keeps its whole position in one frozen `GameState`: `Game.push` puts the state it
leaves on a stack and `Game.pop` takes it back, as python-chess keeps ``_BoardState``;
nothing is copied field by field. Which move is played when, and what follows it, is the
table `STAGES` (with `NEXT_PHASE`), as boardgame.io lists a phase's moves and the turn's
stages: changing the order of play means changing data, not the engine's ``if``\\ s.

>>> STAGES[PlayCubes].then, STAGES[Refill].then
(<Step.EMPEROR: 'emperor'>, None)
>>> NEXT_PHASE[Phase.ACTION]
<Phase.OPENING: 'opening'>
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from referee.moves import ChooseDisc, Move, MoveEmperor, PlayCubes, Refill
from referee.pieces import COLOURS, TERRITORIES, Cubes

# The rules' numbers (docs/rules.md), each named after the rule.

#: "Components": 15 territory tiles in a ring, numbered 1-15 clockwise.
RING: Final = len(TERRITORIES)
#: "Components": paladin cubes come in 5 colours.
COLOUR_COUNT: Final = len(COLOURS)
#: "Components": each player's set of numbered discs, 1 to 5.
DISCS: Final = frozenset(range(1, 6))
#: "Opening phase": after every 5th round each player takes all 5 discs back.
DISC_CYCLE: Final = 5
#: "End of the game": the game ends when fewer than 4 territories/regions remain.
FEW_UNITS: Final = 4
#: "Four players": the players who play as two teams (a winner is then a team's colour).
TEAM_GAME: Final = 4
#: "End of the game", score: points per castle (5 with three players), at most 40.
POINTS_PER_CASTLE: Final = 4
POINTS_PER_CASTLE_THREE: Final = 5
POINTS_MAX: Final = 40


class Phase(Enum):
    OPENING = "opening"
    ACTION = "action"
    OVER = "over"


class Step(Enum):
    """The three actions of a turn, in order."""

    CUBES = "cubes"
    EMPEROR = "emperor"
    REFILL = "refill"


@dataclass(frozen=True)
class GameState:
    """Everything a move can change, and nothing else: the setup and the players are
    the `Game`'s, fixed. Players, colours and units are numbered by their index."""

    territory: tuple[Cubes, ...]  # the cubes on territory t at t - 1
    units: tuple[tuple[int, ...], ...]  # the ring's territories and regions, clockwise
    owner: tuple[str | None, ...]  # the castle colour on each unit
    unit_of: tuple[int, ...]  # territory -> the index of its unit (0 unused)
    emperor: int  # the index of the unit the emperor stands on
    courts: tuple[Cubes, ...]
    reserves: tuple[Cubes, ...]
    control: tuple[int | None, ...]  # colour -> the player holding its cylinder
    used: tuple[frozenset[int], ...]  # the discs each player laid in this cycle of rounds
    round: int
    phase: Phase
    choosing: tuple[int, ...] | None  # this round's choosing order (None: any, round 1)
    chosen: tuple[tuple[int, int], ...]  # (player, disc) in the order they were laid
    order: tuple[int, ...]  # this round's order of play
    turn: int  # the place in the order of play of the player acting
    step: Step
    played: int  # cubes played this turn, what the refill brings back
    winner: str | None
    reason: str | None
    last_turn_round: int

    def evolve(self, **changes: Any) -> GameState:
        """A copy with ``changes``: `dataclasses.replace` without its checks, as
        `referee.advisor.board.Board.evolve` (every move makes a few, a search thousands).

        >>> from referee.setup import Player, Setup
        >>> from referee.game import Game
        >>> state = Game(Setup.random([Player("A", "white"), Player("B", "black")])).state
        >>> state.evolve(round=2).round, state.round
        (2, 1)
        """
        new = object.__new__(GameState)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new


def units_index(units: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """Territory -> the index of the unit holding it (index 0 unused).

    >>> units_index(((1, 2), (3,)) + tuple((t,) for t in range(4, 16)))[:4]
    (0, 0, 0, 1)
    """
    unit_of = [0] * (RING + 1)
    for i, unit in enumerate(units):
        for t in unit:
            unit_of[t] = i
    return tuple(unit_of)


@dataclass(frozen=True)
class Stage:
    """Where one kind of move is played and what follows it in the turn."""

    phase: Phase
    step: Step | None  # the step of a turn the move is (None: not a step of a turn)
    then: Step | None  # the step that follows it (None: the turn, or the choice, ends)


#: The flow of a round as data. A round is an opening phase, each player laying a disc,
#: then an action phase, each player's turn in disc order as three steps ("A round",
#: "Action phase"). A phase ends when every player has had his part: every disc is laid,
#: every turn is over; then `NEXT_PHASE` begins (the opening of the next round).
STAGES: Final[Mapping[type[Move], Stage]] = {
    ChooseDisc: Stage(Phase.OPENING, None, None),
    PlayCubes: Stage(Phase.ACTION, Step.CUBES, Step.EMPEROR),
    MoveEmperor: Stage(Phase.ACTION, Step.EMPEROR, Step.REFILL),
    Refill: Stage(Phase.ACTION, Step.REFILL, None),
}
NEXT_PHASE: Final[Mapping[Phase, Phase]] = {
    Phase.OPENING: Phase.ACTION,
    Phase.ACTION: Phase.OPENING,
}
#: The step every turn begins with.
FIRST_STEP: Final = Step.CUBES
