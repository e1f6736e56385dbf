"""The rules engine: a game of Carolus Magnus as a state you push moves onto.

Modelled on python-chess's ``Board``: `Game.play` checks a move and raises the
`IllegalMoveError` subclass naming the broken rule, `Game.push` applies it and returns
the events it caused, `Game.pop` takes it back, and `Game.legal_moves` is a lazy view.
The flow of play is data: a round is an opening phase (discs chosen one by one) and an
action phase (each player's turn in disc order, as three steps).

>>> from referee.setup import Player, Setup
>>> setup = Setup(
...     players=(Player("Anna", "white"), Player("Bob", "black")),
...     territories=("red", "green", "yellow", "blue", "pink") * 3,
...     emperor=1,
...     reserves={"Anna": ["red", "red", "green", "yellow", "blue", "pink", "pink"],
...               "Bob": ["green", "green", "green", "yellow", "blue", "blue", "red"]})
>>> game = Game(setup)
>>> _ = game.push(ChooseDisc("Anna", 3)); _ = game.push(ChooseDisc("Bob", 2))
>>> game.to_move
'Bob'
>>> [e.kind for e in game.push(PlayCubes.of("Bob", ["green", "green"], {4: ["red"]}))]
['cubes-played', 'control-gained']
>>> game.push(MoveEmperor("Bob", 9))
Traceback (most recent call last):
...
referee.errors.EmperorStepsError: Bob played disc 2: the emperor moves 1 to 2 steps, not 9
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Final

from referee.errors import (
    AfterEndError,
    BadReturnError,
    CubeCountError,
    DiscOrderError,
    DiscTakenError,
    DiscUnavailableError,
    EmperorStepsError,
    IllegalMoveError,
    NotInReserveError,
    RefillCountError,
    SupplyEmptyError,
    TurnOrderError,
    UnknownColourError,
    UnknownTerritoryError,
)
from referee.events import (
    CastleBuilt,
    CastleTaken,
    ControlGained,
    CubesPlayed,
    DiscChosen,
    EmperorMoved,
    Event,
    GameOver,
    Merged,
    Refilled,
    Returned,
    TurnStarted,
)
from referee.moves import ChooseDisc, Move, MoveEmperor, PlayCubes, Refill
from referee.pieces import COLOUR_INDEX, COLOURS, NO_CUBES, Colour, Cubes
from referee.setup import Player, Setup, castle_goal, cubes_per_turn

DISCS: Final = frozenset(range(1, 6))
_TERRITORY_KEYS: Final = {str(t): t for t in range(1, 16)}


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
class Strength:
    """One side's strength in a unit, and what it is made of."""

    side: str
    players: tuple[str, ...]
    cubes: Cubes  # the cubes that count: colours one of the side's players controls
    castles: int

    @property
    def total(self) -> int:
        return self.cubes.total() + self.castles

    def describe(self) -> str:
        parts = [f"{n} {c}" for c, n in zip(COLOURS, self.cubes, strict=True) if n]
        if self.castles:
            parts.append(f"{self.castles} castle{'s' if self.castles > 1 else ''}")
        return f"{self.side} {self.total}" + (f" ({' + '.join(parts)})" if parts else "")


@dataclass(frozen=True)
class Majority:
    """Each side's strength in one territory or region: the rules' "check majorities".

    ``outcome`` says what the emperor would do if he stopped there now:
    ``build``, ``take``, ``keep`` (owner holds) or ``nothing``; ``side`` who gains.
    """

    territories: tuple[int, ...]
    owner: str | None
    cubes: Cubes  # every cube in the unit
    strengths: tuple[Strength, ...]
    outcome: str
    side: str | None

    @property
    def margin(self) -> int:
        """How far the leader is ahead of the runner-up (0 on a tie): small is contested."""
        totals = sorted((s.total for s in self.strengths), reverse=True)
        return totals[0] - totals[1] if len(totals) > 1 else totals[0]

    def describe(self, happened: bool = False) -> str:
        """The strengths and the verdict. A majority taken where the emperor stopped,
        before his stop was resolved, is told with ``happened`` as what the stop did;
        taken afterwards it would only say that the new owner keeps what he just built.
        """
        where = _unit_name(self.territories)
        owner = (
            f", castle{'s' if len(self.territories) > 1 else ''} {self.owner}" if self.owner else ""
        )
        lines = [f"{where}{owner}: {self.cubes.describe()}"]
        lines += [f"  {s.describe()}" for s in self.strengths]
        if happened:
            verdict = {
                "build": f"  -> {self.side} built a castle",
                "take": f"  -> {self.side} took it over from {self.owner}",
                "keep": f"  -> {self.owner} kept it",
                "nothing": "  -> nothing happened",
            }[self.outcome]
        else:
            verdict = {
                "build": f"  -> {self.side} would build a castle",
                "take": f"  -> {self.side} would take it over",
                "keep": f"  -> {self.owner} keeps it",
                "nothing": "  -> nothing would happen",
            }[self.outcome]
        return "\n".join([*lines, verdict])


@dataclass(frozen=True)
class Progress:
    """Where a game stands in its rounds and turns: the one answer every view gives
    (``check``, ``advise``, ``play``, ``games list/show/export --csv``, the History page),
    so that one game never reads as round 0 in one place and round 12 in another.

    The rules make a round an opening phase (each player lays a disc) followed by an
    action phase (each player's turn, in disc order); rounds follow each other without a
    gap. So:

    - ``round`` is the round being played, counted from 1. A game with no move yet is
      in round 1 (the set-up is done once a `Game` exists). Round N+1 begins the moment
      the last refill of round N ends it: while its discs are being chosen the game is
      in round N+1 already. A finished game stays in the round that ended it.
    - ``turn`` is the place of the player acting in the round's order of play, counted
      from 1; 0 while the round's discs are being chosen. A finished game stays at the
      turn that ended it.

    The check verdict's JSON ``final.round`` ("the round of the last turn applied", fixed
    by the record format) is a different quantity and is not shown as "the round".

    >>> str(Progress(12, 0)), str(Progress(11, 2))
    ('round 12, discs being chosen', 'round 11, turn 2')
    """

    round: int
    turn: int

    def __str__(self) -> str:
        return f"round {self.round}, " + (
            "discs being chosen" if self.turn == 0 else f"turn {self.turn}"
        )


def _unit_name(territories: tuple[int, ...]) -> str:
    if len(territories) == 1:
        return f"territory {territories[0]}"
    return f"region {'+'.join(str(t) for t in territories)}"


class Game:
    """A game in progress. Mutable, with a history to `pop`; `copy` for look-ahead."""

    def __init__(self, setup: Setup) -> None:
        setup.check()
        self.setup: Final = setup
        self.players: Final[tuple[Player, ...]] = setup.players
        n = len(setup.players)
        self._n: Final = n
        self._names: Final = tuple(p.name for p in setup.players)
        self._index: Final = {name: i for i, name in enumerate(self._names)}
        self._side_of: Final = tuple(p.castles for p in setup.players)
        self.sides: Final[tuple[str, ...]] = tuple(dict.fromkeys(self._side_of))
        self.cubes_per_turn: Final = cubes_per_turn(n)
        self.goal: Final = castle_goal(n)
        self._total: Final = setup.cubes_per_colour

        self._territory: list[Cubes] = [Cubes.of([c]) for c in setup.territories]
        self._units: list[tuple[int, ...]] = [(t,) for t in range(1, 16)]
        self._owner: list[str | None] = [None] * 15
        self._unit_of: list[int] = []
        self._reindex()
        self._emperor = self._unit_of[setup.emperor]
        self._courts: list[Cubes] = [NO_CUBES] * n
        self._reserves: list[Cubes] = [Cubes.of(setup.reserves[name]) for name in self._names]
        self._control: list[int | None] = [None] * 5
        self._used: list[frozenset[int]] = [frozenset()] * n
        self.round = 1
        self.phase = Phase.OPENING
        self._choosing: tuple[int, ...] | None = None  # None: any order (round 1)
        self._chosen: list[tuple[int, int]] = []
        self._order: tuple[int, ...] = ()
        self._turn = 0
        self.step = Step.CUBES
        self._played = 0
        self.winner: str | None = None
        self.reason: str | None = None
        self.last_turn_round = 0
        self.move_stack: list[Move] = []
        self._stack: list[tuple[object, ...]] = []
        self._planned: tuple[Refill, dict[int, int]] | None = None

    # ------------------------------------------------------------------ state

    def _save(self) -> tuple[object, ...]:
        return (
            list(self._territory),
            list(self._units),
            list(self._owner),
            list(self._unit_of),
            self._emperor,
            list(self._courts),
            list(self._reserves),
            list(self._control),
            list(self._used),
            self.round,
            self.phase,
            self._choosing,
            list(self._chosen),
            self._order,
            self._turn,
            self.step,
            self._played,
            self.winner,
            self.reason,
            self.last_turn_round,
        )

    def _restore(self, saved: tuple[object, ...]) -> None:
        (
            self._territory,
            self._units,
            self._owner,
            self._unit_of,
            self._emperor,
            self._courts,
            self._reserves,
            self._control,
            self._used,
            self.round,
            self.phase,
            self._choosing,
            self._chosen,
            self._order,
            self._turn,
            self.step,
            self._played,
            self.winner,
            self.reason,
            self.last_turn_round,
        ) = saved  # type: ignore[assignment]

    def copy(self) -> Game:
        """An independent game in the same position (history not kept)."""
        clone = Game.__new__(Game)
        clone.__dict__.update(self.__dict__)
        clone._restore(self._save())
        clone.move_stack = []
        clone._stack = []
        return clone

    def arrange(
        self,
        *,
        territories: Mapping[int, Iterable[str]] | None = None,
        regions: Iterable[Iterable[int]] = (),
        owners: Mapping[int, str] | None = None,
        courts: Mapping[str, Iterable[str]] | None = None,
        reserves: Mapping[str, Iterable[str]] | None = None,
        control: Mapping[str, str | None] | None = None,
        emperor: int | None = None,
    ) -> None:
        """Lay out a position by hand, like python-chess's ``set_fen``: for puzzles,
        tests and the advisor. What is not given stays as it is; history is cleared.

        ``regions`` are clockwise arcs of territories (``[15, 1, 2]`` wraps); ``owners``
        maps any territory of a unit to its castle colour. When ``courts`` are given,
        control follows them by the strict-majority rule unless ``control`` names a holder
        (needed for ties); without ``courts`` the cylinders stay where they are.

        >>> from referee.setup import Player, Setup
        >>> game = Game(Setup.random([Player("W", "white"), Player("B", "black")]))
        >>> game.arrange(regions=[[15, 1, 2]], owners={1: "black"}, emperor=2)
        >>> game.units()[0], game.owner(15), game.emperor
        ((1, 2, 15), 'black', 1)
        """
        if territories is not None:
            for number, colours in territories.items():
                self._territory[number - 1] = Cubes.of(colours)
        arcs = [tuple(arc) for arc in regions]
        if arcs:
            standing = min(self._units[self._emperor])
            covered = [t for arc in arcs for t in arc]
            if len(set(covered)) != len(covered):
                raise ValueError("regions overlap")
            for arc in arcs:
                if any((b - a) % 15 != 1 for a, b in itertools.pairwise(arc)):
                    raise ValueError(f"region {list(arc)} is not a clockwise arc")
            units: list[tuple[int, ...]] = []
            t = 1
            while any(t in arc[1:] for arc in arcs):  # start outside a region's middle
                t = t % 15 + 1
            start = t
            while True:
                arc = next((a for a in arcs if a[0] == t), (t,))
                units.append(arc)
                t = arc[-1] % 15 + 1
                if t == start:
                    break
            self._units = units
            self._owner = [None] * len(units)
            self._reindex()
            self._emperor = self._unit_of[standing]
        for number, side in (owners or {}).items():
            if side not in self.sides:
                raise ValueError(f"no side plays {side!r} castles")
            self._owner[self._unit_of[number]] = side
        for name, colours in (courts or {}).items():
            self._courts[self._player(name)] = Cubes.of(colours)
        for name, colours in (reserves or {}).items():
            self._reserves[self._player(name)] = Cubes.of(colours)
        if courts is not None:
            for i in range(5):
                counts = [court[i] for court in self._courts]
                leaders = [p for p, n in enumerate(counts) if n == max(counts)]
                self._control[i] = leaders[0] if len(leaders) == 1 else None
        for colour, holder in (control or {}).items():
            self._control[COLOUR_INDEX[colour]] = None if holder is None else self._player(holder)
        if emperor is not None:
            self._emperor = self._unit_of[emperor]
        if any(n < 0 for n in self.supply()):
            raise ValueError(f"more cubes on the table than the game has: supply {self.supply()}")
        self.move_stack.clear()
        self._stack.clear()

    def _reindex(self) -> None:
        unit_of = [0] * 16
        for i, unit in enumerate(self._units):
            for t in unit:
                unit_of[t] = i
        self._unit_of = unit_of

    # -------------------------------------------------------------- questions

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def to_move(self) -> str | None:
        """The player whose action it is, or who must choose a disc next (``None`` when
        anyone still to choose may, as in round 1, or when the game is over)."""
        if self.phase is Phase.ACTION:
            return self._names[self._order[self._turn]]
        if self.phase is Phase.OPENING and self._choosing is not None:
            return self._names[self._choosing[len(self._chosen)]]
        return None

    @property
    def turn_number(self) -> int:
        """1-based position of the current turn in the round's order of play (0 in the
        opening phase)."""
        return self._turn + 1 if self.phase is not Phase.OPENING else 0

    @property
    def progress(self) -> Progress:
        """The round and turn every view shows (see `Progress` for the definition).

        >>> from referee.setup import Player, Setup
        >>> game = Game(Setup.random([Player("Anna", "white"), Player("Bob", "black")]))
        >>> str(game.progress)
        'round 1, discs being chosen'
        >>> _ = game.push(ChooseDisc("Anna", 3)); _ = game.push(ChooseDisc("Bob", 2))
        >>> game.progress
        Progress(round=1, turn=1)
        """
        return Progress(self.round, self.turn_number)

    def choosers(self) -> tuple[str, ...]:
        """Who may choose a disc now."""
        if self.phase is not Phase.OPENING:
            return ()
        if self._choosing is not None:
            return (self._names[self._choosing[len(self._chosen)]],)
        chosen = {p for p, _ in self._chosen}
        return tuple(name for i, name in enumerate(self._names) if i not in chosen)

    def choosing_order(self) -> tuple[str, ...] | None:
        """This round's required choosing order (``None`` in round 1: any order)."""
        return None if self._choosing is None else tuple(self._names[i] for i in self._choosing)

    def chosen_discs(self) -> list[tuple[str, int]]:
        """Discs laid this round, in choosing order."""
        return [(self._names[p], d) for p, d in self._chosen]

    def order_of_play(self) -> tuple[str, ...]:
        return tuple(self._names[i] for i in self._order)

    def disc(self, player: str) -> int | None:
        """The disc ``player`` laid this round, if any."""
        index = self._player(player)
        return next((d for p, d in self._chosen if p == index), None)

    def discs_in_hand(self, player: str) -> frozenset[int]:
        return DISCS - self._used[self._player(player)]

    def side_of(self, player: str) -> str:
        return self._side_of[self._player(player)]

    def players_of(self, side: str) -> tuple[str, ...]:
        return tuple(n for n, s in zip(self._names, self._side_of, strict=True) if s == side)

    def court(self, player: str) -> Cubes:
        return self._courts[self._player(player)]

    def reserve(self, player: str) -> Cubes:
        return self._reserves[self._player(player)]

    def controller(self, colour: Colour) -> str | None:
        holder = self._control[COLOUR_INDEX[colour]]
        return None if holder is None else self._names[holder]

    def control(self, player: str) -> list[Colour]:
        """Colours ``player`` controls, in colour order."""
        index = self._player(player)
        return [c for c, h in zip(COLOURS, self._control, strict=True) if h == index]

    def territory(self, number: int) -> Cubes:
        return self._territory[number - 1]

    def units(self) -> list[tuple[int, ...]]:
        """Territories and regions clockwise from the one holding territory 1, each sorted."""
        start = self._unit_of[1]
        ring = self._units[start:] + self._units[:start]
        return [tuple(sorted(u)) for u in ring]

    def unit(self, territory: int) -> tuple[int, ...]:
        """The territory or region holding ``territory``, sorted."""
        return tuple(sorted(self._units[self._unit_of[territory]]))

    def owner(self, territory: int) -> str | None:
        """Castle colour standing on ``territory`` (each territory of a region has one)."""
        return self._owner[self._unit_of[territory]]

    def owners(self) -> dict[int, str]:
        """Lowest territory of each owned unit -> its castle colour."""
        return {min(u): owner for u, owner in zip(self._units, self._owner, strict=True) if owner}

    @property
    def emperor(self) -> int:
        """Lowest territory of the unit the emperor stands on."""
        return min(self._units[self._emperor])

    def emperor_reach(self, steps: int) -> int:
        """Where the emperor stops after ``steps`` (lowest territory of that unit)."""
        return min(self._units[(self._emperor + steps) % len(self._units)])

    def castles(self, side: str) -> int:
        """Territories under ``side``'s castles (a region of n territories counts n)."""
        return sum(
            len(u) for u, owner in zip(self._units, self._owner, strict=True) if owner == side
        )

    def score(self, side: str) -> int:
        """Points for tables that keep a score: 4 a castle (5 with 3 players), at most 40."""
        return min(40, self.castles(side) * (5 if self._n == 3 else 4))

    def supply(self) -> Cubes:
        """Cubes in the middle of the ring: the game's cubes less all on the table."""
        used = Cubes.sum([*self._territory, *self._courts, *self._reserves])
        total = self._total
        return Cubes(
            (total - used[0], total - used[1], total - used[2], total - used[3], total - used[4])
        )

    def cubes_to_play(self, player: str) -> int:
        """Cubes ``player`` must play this turn: 3 (4 with three players), or his whole
        reserve if the exhausted supply left him fewer."""
        return min(self.cubes_per_turn, self._reserves[self._player(player)].total())

    def explain(self, territory: int) -> Majority:
        """Each side's strength in the unit holding ``territory``, and what the emperor
        would do there now."""
        return self._majority(self._unit_of[territory])

    def majorities(self) -> list[Majority]:
        """`explain` for every unit, clockwise from territory 1."""
        return [self.explain(min(u)) for u in self.units()]

    # ----------------------------------------------------------------- moves

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self)

    def is_legal(self, move: Move) -> bool:
        try:
            self._check(move)
        except IllegalMoveError:
            return False
        return True

    def play(self, move: Move) -> list[Event]:
        """Check ``move`` and apply it; raise the precise `IllegalMoveError` otherwise."""
        return self.push(move)

    def push(self, move: Move) -> list[Event]:
        self._check(move)
        self._stack.append(self._save())
        self.move_stack.append(move)
        return self._apply(move)

    def pop(self) -> Move:
        """Take back the last move."""
        move = self.move_stack.pop()
        self._restore(self._stack.pop())
        return move

    def _player(self, name: str) -> int:
        try:
            return self._index[name]
        except KeyError:
            raise KeyError(f"unknown player {name!r}") from None

    # ------------------------------------------------------------- checking

    def _check(self, move: Move) -> None:
        if self.phase is Phase.OVER:
            raise AfterEndError(
                f"the game is over ({self.describe_result()}); no more moves", move.player
            )
        if isinstance(move, ChooseDisc):
            self._check_disc(move)
        elif isinstance(move, PlayCubes):
            self._check_cubes(move)
        elif isinstance(move, MoveEmperor):
            self._check_emperor(move)
        else:
            self._check_refill(move)

    def _check_actor(self, player: str, step: Step) -> int:
        if self.phase is Phase.OPENING:
            raise TurnOrderError(
                f"{player} cannot act yet: the discs of round {self.round} are still being chosen",
                self.to_move or (self.choosers() or (None,))[0],
            )
        expected = self._names[self._order[self._turn]]
        if player != expected:
            raise TurnOrderError(
                f"it is {expected}'s turn (disc {self._chosen_disc(self._order[self._turn])}), "
                f"not {player}'s",
                expected,
            )
        if self.step is not step:
            todo = {
                Step.CUBES: "play cubes",
                Step.EMPEROR: "move the emperor",
                Step.REFILL: "refill the reserve",
            }[self.step]
            raise TurnOrderError(f"{player} must {todo} first", expected)
        return self._index[player]

    def _chosen_disc(self, index: int) -> int:
        return next(d for p, d in self._chosen if p == index)

    def _check_disc(self, move: ChooseDisc) -> None:
        if self.phase is not Phase.OPENING:
            raise DiscOrderError(
                f"{move.player} cannot choose a disc now: round {self.round} is in its action "
                f"phase",
                move.player,
            )
        if move.player not in self._index:
            raise DiscOrderError(f"{move.player!r} is not a player of this game", move.player)
        index = self._index[move.player]
        if any(p == index for p, _ in self._chosen):
            raise DiscOrderError(
                f"{move.player} has already chosen a disc in round {self.round}", move.player
            )
        if self._choosing is not None:
            expected = self._choosing[len(self._chosen)]
            if expected != index:
                order = ", ".join(self._names[i] for i in self._choosing)
                raise DiscOrderError(
                    f"{self._names[expected]} chooses next, not {move.player} (round "
                    f"{self.round} chooses in the previous round's order of play: {order})",
                    self._names[expected],
                )
        in_hand = DISCS - self._used[index]
        number = move.number
        if isinstance(number, bool) or number not in DISCS:
            raise DiscUnavailableError(
                f"{move.player} chose disc {number!r}; discs are numbered 1 to 5", move.player
            )
        if number not in in_hand:
            raise DiscUnavailableError(
                f"{move.player} has already played disc {number} in this cycle of 5 rounds; "
                f"he holds {_list(sorted(in_hand))}",
                move.player,
            )
        taken = {d for _, d in self._chosen}
        free = in_hand - taken
        if number in taken and free:
            raise DiscTakenError(
                f"disc {number} is already chosen this round; {move.player} still holds "
                f"{_list(sorted(free))}, not yet chosen",
                move.player,
            )

    def _check_cubes(self, move: PlayCubes) -> None:
        index = self._check_actor(move.player, Step.CUBES)
        for key, _ in move.territories:
            if self._territory_number(key) is None:
                raise UnknownTerritoryError(
                    f"{move.player} played onto territory {key!r}; territories are 1 to 15",
                    move.player,
                )
        for colour in move.colours():
            if colour not in COLOUR_INDEX:
                raise UnknownColourError(
                    f"{move.player} played a {colour!r} cube; the colours are {', '.join(COLOURS)}",
                    move.player,
                )
        want = self.cubes_to_play(move.player)
        if move.count() != want:
            raise CubeCountError(
                f"{move.player} played {move.count()} cube{'s' if move.count() != 1 else ''}; "
                f"each turn plays exactly {want}",
                move.player,
            )
        played = Cubes.of(move.colours())
        reserve = self._reserves[index]
        if not reserve.covers(played):
            raise NotInReserveError(
                f"{move.player} played {played.describe()} but his reserve holds "
                f"{reserve.describe()}",
                move.player,
            )

    @staticmethod
    def _territory_number(key: int | str) -> int | None:
        if isinstance(key, str):
            return _TERRITORY_KEYS.get(key)
        if isinstance(key, int) and not isinstance(key, bool) and 1 <= key <= 15:
            return key
        return None

    def _check_emperor(self, move: MoveEmperor) -> None:
        index = self._check_actor(move.player, Step.EMPEROR)
        disc = self._chosen_disc(index)
        steps = move.steps
        if isinstance(steps, bool) or not isinstance(steps, int) or not 1 <= steps <= disc:
            raise EmperorStepsError(
                f"{move.player} played disc {disc}: the emperor moves 1 to {disc} step"
                f"{'s' if disc > 1 else ''}, not {steps}",
                move.player,
            )

    def _check_refill(self, move: Refill) -> None:
        self._check_actor(move.player, Step.REFILL)
        self._planned = (move, self._plan_refill(move))  # `push` applies it without replanning

    def _plan_refill(self, move: Refill) -> dict[int, int]:
        """Check a refill; return the returns it calls for (colour index -> k)."""
        played = self._played
        unknown = [c for c in move.colours if c not in COLOUR_INDEX]
        if unknown or len(move.colours) > played:
            raise RefillCountError(
                f"{move.player} must refill exactly {played} cubes of the five colours, "
                f"not {_list(list(move.colours)) or 'nothing'}",
                move.player,
            )
        need = Cubes.of(move.colours)
        supply = self.supply()
        canonical = {
            i: self.canonical_return(COLOURS[i], need[i] - supply[i])
            for i in range(5)
            if need[i] > supply[i]
        }
        canonical = {i: k for i, k in canonical.items() if k > 0}
        if len(move.colours) < played:
            # a short refill is only right when even the returns the rules call for
            # leave the supply empty (record.md checks the count before the returns)
            returnable = sum(
                min(k, court[i]) for i, k in canonical.items() for court in self._courts
            )
            if supply.total() + returnable - len(move.colours) > 0:
                raise RefillCountError(
                    f"{move.player} must refill exactly {played} cubes, not {len(move.colours)}",
                    move.player,
                )
        returns: dict[int, int] = {}
        for colour, k in move.returned:
            i = COLOUR_INDEX.get(colour)
            if i is None or i not in canonical:
                raise BadReturnError(
                    f"the supply does not run short of {colour} for this refill, so no "
                    f"{colour} cubes are returned",
                    move.player,
                )
            if k != canonical[i]:
                raise BadReturnError(
                    f"the supply runs short of {colour}: every player returns "
                    f"{canonical[i]} (not {k}) {colour} cubes from his court",
                    move.player,
                )
            returns[i] = k
        back = [0] * 5
        for i, k in returns.items():
            back[i] = sum(min(k, court[i]) for court in self._courts)
        for i in range(5):
            if need[i] > supply[i] + back[i]:
                hint = (
                    f" (every player must first return {canonical[i]} {COLOURS[i]} from his court)"
                    if i in canonical and i not in returns
                    else "; take a colour the supply still has instead"
                )
                raise SupplyEmptyError(
                    f"{move.player} takes {need[i]} {COLOURS[i]} but the supply holds only "
                    f"{supply[i] + back[i]}{hint}",
                    move.player,
                )
        return returns

    def canonical_return(self, colour: Colour, shortfall: int) -> int:
        """The *k* every player returns of ``colour`` to cover ``shortfall``: the smallest
        equal number that covers it, or everyone's all when nothing does (0: none held)."""
        i = COLOUR_INDEX[colour]
        held = [court[i] for court in self._courts]
        for k in range(1, max(held, default=0) + 1):
            if sum(min(k, h) for h in held) >= shortfall:
                return k
        return max(held, default=0)

    # -------------------------------------------------------------- applying

    def _apply(self, move: Move) -> list[Event]:
        if isinstance(move, ChooseDisc):
            return self._apply_disc(move)
        if isinstance(move, PlayCubes):
            return self._apply_cubes(move)
        if isinstance(move, MoveEmperor):
            return self._apply_emperor(move)
        return self._apply_refill(move)

    def _apply_disc(self, move: ChooseDisc) -> list[Event]:
        index = self._index[move.player]
        self._used[index] = self._used[index] | {move.number}
        self._chosen.append((index, move.number))
        events: list[Event] = [DiscChosen(self.round, 0, move.player, move.number)]
        if len(self._chosen) == self._n:
            position = {p: i for i, (p, _) in enumerate(self._chosen)}
            self._order = tuple(
                sorted(
                    (p for p, _ in self._chosen), key=lambda p: (self._chosen_disc(p), position[p])
                )
            )
            self.phase = Phase.ACTION
            self._turn = 0
            self.step = Step.CUBES
            events.append(self._turn_started())
        return events

    def _turn_started(self) -> TurnStarted:
        player = self._order[self._turn]
        return TurnStarted(
            self.round, self._turn + 1, self._names[player], self._chosen_disc(player)
        )

    def _apply_cubes(self, move: PlayCubes) -> list[Event]:
        index = self._index[move.player]
        played = Cubes.of(move.colours())
        self._reserves[index] = self._reserves[index] - played
        for key, colours in move.territories:
            number = self._territory_number(key)
            assert number is not None
            self._territory[number - 1] = self._territory[number - 1] + Cubes.of(colours)
        court = Cubes.of(move.court)
        self._courts[index] = self._courts[index] + court
        self._played = move.count()
        self.step = Step.EMPEROR
        rnd, turn = self.round, self._turn + 1
        events: list[Event] = [
            CubesPlayed(
                rnd,
                turn,
                move.player,
                move.court,
                {str(self._territory_number(k)): list(c) for k, c in move.territories},
            )
        ]
        events += self._update_control(court)
        return events

    def _update_control(self, changed: Cubes) -> list[Event]:
        """Re-evaluate control of the colours in ``changed``: strictly most cubes wins,
        a tie keeps the holder."""
        events: list[Event] = []
        for i in range(5):
            if not changed[i]:
                continue
            counts = [court[i] for court in self._courts]
            best = max(counts)
            leaders = [p for p, n in enumerate(counts) if n == best]
            holder = self._control[i]
            if len(leaders) == 1 and leaders[0] != holder:
                self._control[i] = leaders[0]
                events.append(
                    ControlGained(
                        self.round,
                        self._turn + 1,
                        COLOURS[i],
                        self._names[leaders[0]],
                        None if holder is None else self._names[holder],
                    )
                )
        return events

    def _apply_emperor(self, move: MoveEmperor) -> list[Event]:
        self._emperor = (self._emperor + move.steps) % len(self._units)
        self.step = Step.REFILL
        self.last_turn_round = self.round
        events: list[Event] = [
            EmperorMoved(self.round, self._turn + 1, move.player, move.steps, self.emperor)
        ]
        events += self._resolve()
        return events

    def _majority(self, u: int) -> Majority:
        unit = self._units[u]
        cubes = sum((self._territory[t - 1] for t in unit), NO_CUBES)
        owner = self._owner[u]
        strengths = []
        for team in self.sides:
            members = [i for i in range(self._n) if self._side_of[i] == team]
            counted = Cubes(cubes[c] if self._control[c] in members else 0 for c in range(5))
            strengths.append(
                Strength(
                    team,
                    tuple(self._names[i] for i in members),
                    counted,
                    len(unit) if owner == team else 0,
                )
            )
        totals = [s.total for s in strengths]
        best = max(totals)
        leaders = [s.side for s in strengths if s.total == best]
        leader = leaders[0] if len(leaders) == 1 and best > 0 else None
        side: str | None
        if owner is None:
            outcome, side = ("build", leader) if leader else ("nothing", None)
        elif leader is not None and leader != owner:
            outcome, side = "take", leader
        else:
            outcome, side = "keep", owner
        return Majority(tuple(sorted(unit)), owner, cubes, tuple(strengths), outcome, side)

    def _resolve(self) -> list[Event]:
        u = self._emperor
        majority = self._majority(u)
        rnd, turn = self.round, self._turn + 1
        events: list[Event] = []
        side = majority.side
        if majority.outcome == "build" and side is not None:
            self._owner[u] = side
            events.append(CastleBuilt(rnd, turn, majority.territories, side))
        elif majority.outcome == "take" and side is not None and majority.owner is not None:
            self._owner[u] = side
            events.append(CastleTaken(rnd, turn, majority.territories, side, majority.owner))
        else:
            return events
        merged = self._merge(u, side)
        if merged is not None:
            events.append(Merged(rnd, turn, merged, side))
        events += self._check_end()
        return events

    def _merge(self, u: int, side: str) -> tuple[int, ...] | None:
        """Merge unit ``u`` with each ring neighbour owned by ``side``."""
        count = len(self._units)
        left, right = (u - 1) % count, (u + 1) % count
        take_left = left != u and self._owner[left] == side
        take_right = right != u and right != left and self._owner[right] == side
        if not (take_left or take_right):
            return None
        start = left if take_left else u
        pieces = 1 + take_left + take_right
        ring = self._units[start:] + self._units[:start]
        owners = self._owner[start:] + self._owner[:start]
        region = tuple(t for unit in ring[:pieces] for t in unit)
        self._units = [region, *ring[pieces:]]
        self._owner = [side, *owners[pieces:]]
        self._emperor = 0
        self._reindex()
        return tuple(sorted(region))

    def _check_end(self) -> list[Event]:
        for side in self.sides:
            if self.castles(side) >= self.goal:
                return self._finish(self._side_name(side), "castles")
        if len(self._units) < 4:
            counts = {side: self.castles(side) for side in self.sides}
            best = max(counts.values())
            leaders = [s for s, c in counts.items() if c == best]
            winner = self._side_name(leaders[0]) if len(leaders) == 1 else "draw"
            return self._finish(winner, "few-territories")
        return []

    def _side_name(self, side: str) -> str:
        """How a winner is named: the player (2-3 players) or the team's colour (4)."""
        if self._n == 4:
            return side
        return self._names[self._side_of.index(side)]

    def _finish(self, winner: str, reason: str) -> list[Event]:
        self.winner, self.reason = winner, reason
        self.phase = Phase.OVER
        return [GameOver(self.round, self._turn + 1, winner, reason)]

    def _apply_refill(self, move: Refill) -> list[Event]:
        index = self._index[move.player]
        planned = self._planned
        returns = planned[1] if planned and planned[0] is move else self._plan_refill(move)
        self._planned = None
        rnd, turn = self.round, self._turn + 1
        events: list[Event] = []
        for i in sorted(returns):
            k = returns[i]
            back = [0, 0, 0, 0, 0]
            for p, court in enumerate(self._courts):
                back[i] = min(k, court[i])
                self._courts[p] = court - Cubes(back)
            events.append(Returned(rnd, turn, COLOURS[i], k))
        if returns:
            events += self._update_control(Cubes(1 if i in returns else 0 for i in range(5)))
        self._reserves[index] = self._reserves[index] + Cubes.of(move.colours)
        events.append(Refilled(rnd, turn, move.player, move.colours))
        self._turn += 1
        self.step = Step.CUBES
        self._played = 0
        if self._turn < self._n:
            events.append(self._turn_started())
            return events
        # the round is over: the next one chooses in this round's order of play
        self.round += 1
        self.phase = Phase.OPENING
        self._choosing = self._order
        self._chosen = []
        self._order = ()
        self._turn = 0
        if (self.round - 1) % 5 == 0:
            self._used = [frozenset()] * self._n
        return events

    # ---------------------------------------------------------------- words

    def describe_result(self) -> str:
        if self.winner is None:
            return "the game goes on"
        how = {
            "castles": f"castles on {self.goal} territories",
            "few-territories": "fewer than 4 territories left",
        }.get(self.reason or "", self.reason or "")
        if self.winner == "draw":
            return f"a draw ({how})"
        return f"{self.winner} wins ({how})"


class LegalMoves:
    """A lazy view of the legal moves now, like python-chess's ``board.legal_moves``.

    Cube plays put each cube on the court or on a unit (named by its lowest territory),
    so two plays that only differ by which tile of a region got the cube count once.
    """

    def __init__(self, game: Game) -> None:
        self._game = game

    def __iter__(self) -> Iterator[Move]:
        game = self._game
        if game.phase is Phase.OPENING:
            yield from self.discs()
        elif game.phase is Phase.ACTION:
            if game.step is Step.CUBES:
                yield from self.cube_plays()
            elif game.step is Step.EMPEROR:
                yield from self.emperor_moves()

    def __contains__(self, move: object) -> bool:
        return isinstance(
            move, ChooseDisc | PlayCubes | MoveEmperor | Refill
        ) and self._game.is_legal(move)

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def count(self) -> int:
        return sum(1 for _ in self)

    def discs(self) -> Iterator[ChooseDisc]:
        game = self._game
        taken = {d for _, d in game.chosen_discs()}
        for player in game.choosers():
            in_hand = game.discs_in_hand(player)
            free = in_hand - taken
            for number in sorted(free or in_hand):
                yield ChooseDisc(player, number)

    def emperor_moves(self) -> Iterator[MoveEmperor]:
        game = self._game
        if game.phase is not Phase.ACTION or game.step is not Step.EMPEROR:
            return
        player = game.to_move
        assert player is not None
        disc = game.disc(player) or 0
        for steps in range(1, disc + 1):
            yield MoveEmperor(player, steps)

    def cube_plays(self) -> Iterator[PlayCubes]:
        """Every way to play the turn's cubes from the reserve to court and units."""
        game = self._game
        if game.phase is not Phase.ACTION or game.step is not Step.CUBES:
            return
        player = game.to_move
        assert player is not None
        reserve = game.reserve(player)
        want = game.cubes_to_play(player)
        places: list[int] = [0, *(min(u) for u in game.units())]  # 0 is the court
        for hand in _hands(reserve, want):
            per_colour = [list(itertools.combinations_with_replacement(places, n)) for n in hand]
            for split in itertools.product(*per_colour):
                court: list[str] = []
                territories: dict[int, list[str]] = {}
                for colour, spots in zip(COLOURS, split, strict=True):
                    for spot in spots:
                        if spot == 0:
                            court.append(colour)
                        else:
                            territories.setdefault(spot, []).append(colour)
                yield PlayCubes.of(player, court, territories)


def _hands(reserve: Cubes, size: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``size`` cubes the reserve can give, as counts per colour."""

    def build(i: int, left: int) -> Iterator[tuple[int, ...]]:
        if i == 4:
            if left <= reserve[4]:
                yield (left,)
            return
        for n in range(min(left, reserve[i]), -1, -1):
            for rest in build(i + 1, left - n):
                yield (n, *rest)

    yield from build(0, size)


def _list(items: list[object] | list[int] | list[str]) -> str:
    words = [str(i) for i in items]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
