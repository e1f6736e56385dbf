"""The rules engine: a game of Carolus Magnus as a state you push moves onto.

Modelled on python-chess's ``Board``: `Game.play` checks a move and raises the
`IllegalMoveError` subclass naming the broken rule, `Game.push` applies it and returns
the events it caused, `Game.pop` takes it back, and `Game.legal_moves` is a lazy view.
The position is one value (`referee.state.GameState`) and the flow of play is data
(`referee.state.STAGES`): a round is an opening phase (discs chosen one by one) and an
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
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from referee.announcements import ENGLISH, N_, Said, Translator, clause, said, translated
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
from referee.pieces import COLOUR_INDEX, COLOURS, NO_CUBES, TERRITORIES, Colour, Cubes
from referee.setup import Player, Setup, castle_goal, cubes_per_turn
from referee.state import (
    COLOUR_COUNT,
    DISC_CYCLE,
    DISCS,
    FEW_UNITS,
    FIRST_STEP,
    NEXT_PHASE,
    POINTS_MAX,
    POINTS_PER_CASTLE,
    POINTS_PER_CASTLE_THREE,
    RING,
    STAGES,
    TEAM_GAME,
    GameState,
    Phase,
    Stage,
    Step,
    units_index,
)

__all__ = [
    "DISCS",
    "Game",
    "GameState",
    "LegalMoves",
    "Majority",
    "Phase",
    "Progress",
    "Step",
    "Strength",
]

T = TypeVar("T")
_TERRITORY_KEYS: Final = {str(t): t for t in TERRITORIES}


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

    def describe(self, tr: Translator = ENGLISH) -> str:
        """``white 4 (2 red + 1 pink + 1 castle)`` in ``tr``'s language."""
        return translated(self.said(), tr)

    def said(self) -> Said:
        if not self.total:
            return said("%(side)s %(total)s", side=self.side, total=self.total)
        counted = {"cubes": self.cubes.colours(), "castles": self.castles}
        return said(
            "%(side)s %(total)s (%(counted)s)", side=self.side, total=self.total, counted=counted
        )


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

    def describe(self, happened: bool = False, tr: Translator = ENGLISH) -> str:
        """The strengths and the verdict, in ``tr``'s language. A majority taken where
        the emperor stopped, before his stop was resolved, is told with ``happened`` as
        what the stop did; taken afterwards it would only say that the new owner keeps
        what he just built.
        """
        where, cubes = list(self.territories), self.cubes.colours()
        if not self.owner:
            head = said("%(where)s: %(pieces)s", where=where, pieces=cubes)
        elif len(where) == 1:
            head = said(
                "%(where)s, castle %(side)s: %(pieces)s", where=where, side=self.owner, pieces=cubes
            )
        else:
            head = said(
                "%(where)s, castles %(side)s: %(pieces)s",
                where=where,
                side=self.owner,
                pieces=cubes,
            )
        side, owner = self.side, self.owner
        if happened:
            verdict = {
                "build": lambda: said("%(side)s built a castle", side=side),
                "take": lambda: said("%(side)s took it over from %(old)s", side=side, old=owner),
                "keep": lambda: said("%(side)s kept it", side=owner),
                "nothing": lambda: said("nothing happened"),
            }[self.outcome]()
        else:
            verdict = {
                "build": lambda: said("%(side)s would build a castle", side=side),
                "take": lambda: said("%(side)s would take it over", side=side),
                "keep": lambda: said("%(side)s keeps it", side=owner),
                "nothing": lambda: said("nothing would happen"),
            }[self.outcome]()
        lines = [translated(head, tr)]
        lines += [f"  {s.describe(tr)}" for s in self.strengths]
        return "\n".join([*lines, f"  -> {translated(verdict, tr)}"])


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


def castle_count(n: int) -> Said:
    """``1 castle``, ``3 castles``: how many castles a side has or a strength counts."""
    return said("1 castle") if n == 1 else said("%(count)s castles", count=n)


class Game:
    """A game in progress. Mutable, with a history to `pop`; `copy` for look-ahead.

    Its position is one `GameState` value (`state`): `push` keeps the state it leaves
    on a stack, `pop` puts it back.
    """

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

        units = tuple((t,) for t in TERRITORIES)
        unit_of = units_index(units)
        self._state = GameState(
            territory=tuple(Cubes.of([c]) for c in setup.territories),
            units=units,
            owner=(None,) * RING,
            unit_of=unit_of,
            emperor=unit_of[setup.emperor],
            courts=(NO_CUBES,) * n,
            reserves=tuple(Cubes.of(setup.reserves[name]) for name in self._names),
            control=(None,) * COLOUR_COUNT,
            used=(frozenset(),) * n,
            round=1,
            phase=Phase.OPENING,
            choosing=None,
            chosen=(),
            order=(),
            turn=0,
            step=FIRST_STEP,
            played=0,
            winner=None,
            reason=None,
            last_turn_round=0,
        )
        self.move_stack: list[Move] = []
        self._stack: list[GameState] = []
        self._planned: tuple[Refill, dict[int, int]] | None = None

    # ------------------------------------------------------------------ state

    @property
    def state(self) -> GameState:
        """The whole position as one value: equal states are the same position.

        >>> from referee.setup import Player, Setup
        >>> game = Game(Setup.random([Player("Anna", "white"), Player("Bob", "black")]))
        >>> before = game.state
        >>> _ = game.push(ChooseDisc("Anna", 3)); _ = game.pop()
        >>> game.state == before
        True
        """
        return self._state

    @property
    def round(self) -> int:
        return self._state.round

    @property
    def phase(self) -> Phase:
        return self._state.phase

    @property
    def step(self) -> Step:
        return self._state.step

    @property
    def winner(self) -> str | None:
        return self._state.winner

    @property
    def reason(self) -> str | None:
        return self._state.reason

    @property
    def last_turn_round(self) -> int:
        """The round of the last turn whose emperor moved (0 before any)."""
        return self._state.last_turn_round

    def copy(self) -> Game:
        """An independent game in the same position (history not kept)."""
        clone = Game.__new__(Game)
        clone.__dict__.update(self.__dict__)
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
        s = self._state
        tiles = list(s.territory)
        for number, colours in (territories or {}).items():
            tiles[number - 1] = Cubes.of(colours)
        s = s.evolve(territory=tuple(tiles))
        arcs = [tuple(arc) for arc in regions]
        if arcs:
            standing = min(s.units[s.emperor])
            covered = [t for arc in arcs for t in arc]
            if len(set(covered)) != len(covered):
                raise ValueError("regions overlap")
            for arc in arcs:
                if any((b - a) % RING != 1 for a, b in itertools.pairwise(arc)):
                    raise ValueError(f"region {list(arc)} is not a clockwise arc")
            units: list[tuple[int, ...]] = []
            t = 1
            while any(t in arc[1:] for arc in arcs):  # start outside a region's middle
                t = t % RING + 1
            start = t
            while True:
                arc = next((a for a in arcs if a[0] == t), (t,))
                units.append(arc)
                t = arc[-1] % RING + 1
                if t == start:
                    break
            unit_of = units_index(tuple(units))
            s = s.evolve(
                units=tuple(units),
                owner=(None,) * len(units),
                unit_of=unit_of,
                emperor=unit_of[standing],
            )
        owner = list(s.owner)
        for number, side in (owners or {}).items():
            if side not in self.sides:
                raise ValueError(f"no side plays {side!r} castles")
            owner[s.unit_of[number]] = side
        courts_now = list(s.courts)
        for name, colours in (courts or {}).items():
            courts_now[self._player(name)] = Cubes.of(colours)
        reserves_now = list(s.reserves)
        for name, colours in (reserves or {}).items():
            reserves_now[self._player(name)] = Cubes.of(colours)
        held = list(s.control)
        if courts is not None:
            for i in range(COLOUR_COUNT):
                counts = [court[i] for court in courts_now]
                leaders = [p for p, n in enumerate(counts) if n == max(counts)]
                held[i] = leaders[0] if len(leaders) == 1 else None
        for colour, holder in (control or {}).items():
            held[COLOUR_INDEX[colour]] = None if holder is None else self._player(holder)
        s = s.evolve(
            owner=tuple(owner),
            courts=tuple(courts_now),
            reserves=tuple(reserves_now),
            control=tuple(held),
            emperor=s.emperor if emperor is None else s.unit_of[emperor],
        )
        self._state = s
        if any(n < 0 for n in self.supply()):
            raise ValueError(f"more cubes on the table than the game has: supply {self.supply()}")
        self.move_stack.clear()
        self._stack.clear()

    # -------------------------------------------------------------- questions

    @property
    def is_over(self) -> bool:
        return self._state.phase is Phase.OVER

    @property
    def to_move(self) -> str | None:
        """The player whose action it is, or who must choose a disc next (``None`` when
        anyone still to choose may, as in round 1, or when the game is over)."""
        s = self._state
        if s.phase is Phase.ACTION:
            return self._names[s.order[s.turn]]
        if s.phase is Phase.OPENING and s.choosing is not None:
            return self._names[s.choosing[len(s.chosen)]]
        return None

    @property
    def turn_number(self) -> int:
        """1-based position of the current turn in the round's order of play (0 in the
        opening phase)."""
        return self._state.turn + 1 if self._state.phase is not Phase.OPENING else 0

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
        return Progress(self._state.round, self.turn_number)

    def choosers(self) -> tuple[str, ...]:
        """Who may choose a disc now."""
        s = self._state
        if s.phase is not Phase.OPENING:
            return ()
        if s.choosing is not None:
            return (self._names[s.choosing[len(s.chosen)]],)
        chosen = {p for p, _ in s.chosen}
        return tuple(name for i, name in enumerate(self._names) if i not in chosen)

    def choosing_order(self) -> tuple[str, ...] | None:
        """This round's required choosing order (``None`` in round 1: any order)."""
        choosing = self._state.choosing
        return None if choosing is None else tuple(self._names[i] for i in choosing)

    def chosen_discs(self) -> list[tuple[str, int]]:
        """Discs laid this round, in choosing order."""
        return [(self._names[p], d) for p, d in self._state.chosen]

    def order_of_play(self) -> tuple[str, ...]:
        return tuple(self._names[i] for i in self._state.order)

    def disc(self, player: str) -> int | None:
        """The disc ``player`` laid this round, if any."""
        index = self._player(player)
        return next((d for p, d in self._state.chosen if p == index), None)

    def discs_in_hand(self, player: str) -> frozenset[int]:
        return DISCS - self._state.used[self._player(player)]

    def side_of(self, player: str) -> str:
        return self._side_of[self._player(player)]

    def players_of(self, side: str) -> tuple[str, ...]:
        return tuple(n for n, s in zip(self._names, self._side_of, strict=True) if s == side)

    def court(self, player: str) -> Cubes:
        return self._state.courts[self._player(player)]

    def reserve(self, player: str) -> Cubes:
        return self._state.reserves[self._player(player)]

    def controller(self, colour: Colour) -> str | None:
        holder = self._state.control[COLOUR_INDEX[colour]]
        return None if holder is None else self._names[holder]

    def control(self, player: str) -> list[Colour]:
        """Colours ``player`` controls, in colour order."""
        index = self._player(player)
        return [c for c, h in zip(COLOURS, self._state.control, strict=True) if h == index]

    def territory(self, number: int) -> Cubes:
        return self._state.territory[number - 1]

    def units(self) -> list[tuple[int, ...]]:
        """Territories and regions clockwise from the one holding territory 1, each sorted."""
        s = self._state
        start = s.unit_of[1]
        ring = s.units[start:] + s.units[:start]
        return [tuple(sorted(u)) for u in ring]

    def unit(self, territory: int) -> tuple[int, ...]:
        """The territory or region holding ``territory``, sorted."""
        s = self._state
        return tuple(sorted(s.units[s.unit_of[territory]]))

    def owner(self, territory: int) -> str | None:
        """Castle colour standing on ``territory`` (each territory of a region has one)."""
        s = self._state
        return s.owner[s.unit_of[territory]]

    def owners(self) -> dict[int, str]:
        """Lowest territory of each owned unit -> its castle colour."""
        s = self._state
        return {min(u): owner for u, owner in zip(s.units, s.owner, strict=True) if owner}

    @property
    def emperor(self) -> int:
        """Lowest territory of the unit the emperor stands on."""
        s = self._state
        return min(s.units[s.emperor])

    def emperor_reach(self, steps: int) -> int:
        """Where the emperor stops after ``steps`` (lowest territory of that unit)."""
        s = self._state
        return min(s.units[(s.emperor + steps) % len(s.units)])

    def castles(self, side: str) -> int:
        """Territories under ``side``'s castles (a region of n territories counts n)."""
        s = self._state
        return sum(len(u) for u, owner in zip(s.units, s.owner, strict=True) if owner == side)

    def score(self, side: str) -> int:
        """Points for tables that keep a score: 4 a castle (5 with 3 players), at most 40."""
        points = POINTS_PER_CASTLE_THREE if self._n == 3 else POINTS_PER_CASTLE
        return min(POINTS_MAX, self.castles(side) * points)

    def supply(self) -> Cubes:
        """Cubes in the middle of the ring: the game's cubes less all on the table."""
        s = self._state
        used = Cubes.sum([*s.territory, *s.courts, *s.reserves])
        total = self._total
        return Cubes(
            (total - used[0], total - used[1], total - used[2], total - used[3], total - used[4])
        )

    def cubes_to_play(self, player: str) -> int:
        """Cubes ``player`` must play this turn: 3 (4 with three players), or his whole
        reserve if the exhausted supply left him fewer."""
        return min(self.cubes_per_turn, self._state.reserves[self._player(player)].total())

    def explain(self, territory: int) -> Majority:
        """Each side's strength in the unit holding ``territory``, and what the emperor
        would do there now."""
        return self._majority(self._state.unit_of[territory])

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
        self._stack.append(self._state)
        self.move_stack.append(move)
        return self._apply(move)

    def pop(self) -> Move:
        """Take back the last move."""
        move = self.move_stack.pop()
        self._state = self._stack.pop()
        return move

    def _player(self, name: str) -> int:
        try:
            return self._index[name]
        except KeyError:
            raise KeyError(f"unknown player {name!r}") from None

    # ------------------------------------------------------------- checking

    def _check(self, move: Move) -> None:
        if self._state.phase is Phase.OVER:
            raise AfterEndError(
                said(
                    "the game is over (%(clause)s); no more moves",
                    clause=clause(self.describe_result()),
                ),
                move.player,
            )
        _RULES[type(move)].check(self, move)

    def _check_actor(self, move: PlayCubes | MoveEmperor | Refill) -> int:
        """The acting player's index, once it is his turn and the step `STAGES` gives
        his move."""
        s = self._state
        player, step = move.player, STAGES[type(move)].step
        if s.phase is Phase.OPENING:
            raise TurnOrderError(
                said(
                    "%(player)s cannot act yet: the discs of round %(round)s are still being "
                    "chosen",
                    player=player,
                    round=s.round,
                ),
                self.to_move or (self.choosers() or (None,))[0],
            )
        expected = self._names[s.order[s.turn]]
        if player != expected:
            raise TurnOrderError(
                said(
                    "it is %(expected)s's turn (disc %(disc)s), not %(player)s's",
                    expected=expected,
                    disc=self._chosen_disc(s.order[s.turn]),
                    player=player,
                ),
                expected,
            )
        if s.step is not step:
            todo = {
                Step.CUBES: N_("%(player)s must play cubes first"),
                Step.EMPEROR: N_("%(player)s must move the emperor first"),
                Step.REFILL: N_("%(player)s must refill the reserve first"),
            }[s.step]
            raise TurnOrderError(said(todo, player=player), expected)
        return self._index[player]

    def _chosen_disc(self, index: int) -> int:
        return next(d for p, d in self._state.chosen if p == index)

    def _check_disc(self, move: ChooseDisc) -> None:
        s = self._state
        if s.phase is not Phase.OPENING:
            raise DiscOrderError(
                said(
                    "%(player)s cannot choose a disc now: round %(round)s is in its action phase",
                    player=move.player,
                    round=s.round,
                ),
                move.player,
            )
        if move.player not in self._index:
            raise DiscOrderError(
                said("%(given)s is not a player of this game", given=repr(move.player)),
                move.player,
            )
        index = self._index[move.player]
        if any(p == index for p, _ in s.chosen):
            raise DiscOrderError(
                said(
                    "%(player)s has already chosen a disc in round %(round)s",
                    player=move.player,
                    round=s.round,
                ),
                move.player,
            )
        if s.choosing is not None:
            expected = s.choosing[len(s.chosen)]
            if expected != index:
                order = ", ".join(self._names[i] for i in s.choosing)
                raise DiscOrderError(
                    said(
                        "%(expected)s chooses next, not %(player)s (round %(round)s chooses in "
                        "the previous round's order of play: %(order)s)",
                        expected=self._names[expected],
                        player=move.player,
                        round=s.round,
                        order=order,
                    ),
                    self._names[expected],
                )
        in_hand = DISCS - s.used[index]
        number = move.number
        if isinstance(number, bool) or number not in DISCS:
            raise DiscUnavailableError(
                said(
                    "%(player)s chose disc %(given)s; discs are numbered %(low)s to %(high)s",
                    player=move.player,
                    given=repr(number),
                    low=min(DISCS),
                    high=max(DISCS),
                ),
                move.player,
            )
        if number not in in_hand:
            raise DiscUnavailableError(
                said(
                    "%(player)s has already played disc %(number)s in this cycle of "
                    "%(cycle)s rounds; he holds %(discs)s",
                    player=move.player,
                    number=number,
                    cycle=DISC_CYCLE,
                    discs=sorted(in_hand),
                ),
                move.player,
            )
        taken = {d for _, d in s.chosen}
        free = in_hand - taken
        if number in taken and free:
            raise DiscTakenError(
                said(
                    "disc %(number)s is already chosen this round; %(player)s still holds "
                    "%(discs)s, not yet chosen",
                    number=number,
                    player=move.player,
                    discs=sorted(free),
                ),
                move.player,
            )

    def _check_cubes(self, move: PlayCubes) -> None:
        index = self._check_actor(move)
        for key, _ in move.territories:
            if self._territory_number(key) is None:
                raise UnknownTerritoryError(
                    said(
                        "%(player)s played onto territory %(given)s; territories are 1 to %(ring)s",
                        player=move.player,
                        given=repr(key),
                        ring=RING,
                    ),
                    move.player,
                )
        for colour in move.colours():
            if colour not in COLOUR_INDEX:
                raise UnknownColourError(
                    said(
                        "%(player)s played a %(given)s cube; the colours are %(colours)s",
                        player=move.player,
                        given=repr(colour),
                        colours=list(COLOURS),
                    ),
                    move.player,
                )
        want = self.cubes_to_play(move.player)
        if move.count() != want:
            raise CubeCountError(
                said(
                    N_("%(player)s played %(count)s cubes; each turn plays exactly %(want)s")
                    if move.count() != 1
                    else N_("%(player)s played 1 cube; each turn plays exactly %(want)s"),
                    player=move.player,
                    count=move.count(),
                    want=want,
                ),
                move.player,
            )
        played = Cubes.of(move.colours())
        reserve = self._state.reserves[index]
        if not reserve.covers(played):
            raise NotInReserveError(
                said(
                    "%(player)s played %(pieces)s but his reserve holds %(pieces2)s",
                    player=move.player,
                    pieces=played.colours(),
                    pieces2=reserve.colours(),
                ),
                move.player,
            )

    @staticmethod
    def _territory_number(key: int | str) -> int | None:
        if isinstance(key, str):
            return _TERRITORY_KEYS.get(key)
        if isinstance(key, int) and not isinstance(key, bool) and 1 <= key <= RING:
            return key
        return None

    def _check_emperor(self, move: MoveEmperor) -> None:
        index = self._check_actor(move)
        disc = self._chosen_disc(index)
        steps = move.steps
        if isinstance(steps, bool) or not isinstance(steps, int) or not 1 <= steps <= disc:
            raise EmperorStepsError(
                said(
                    N_(
                        "%(player)s played disc %(disc)s: the emperor moves 1 to %(disc)s steps, "
                        "not %(given)s"
                    )
                    if disc > 1
                    else N_("%(player)s played disc 1: the emperor moves 1 step, not %(given)s"),
                    player=move.player,
                    disc=disc,
                    given=str(steps),
                ),
                move.player,
            )

    def _check_refill(self, move: Refill) -> None:
        self._check_actor(move)
        self._planned = (move, self._plan_refill(move))  # `push` applies it without replanning

    def _plan_refill(self, move: Refill) -> dict[int, int]:
        """Check a refill; return the returns it calls for (colour index -> k)."""
        s = self._state
        played = s.played
        unknown = [c for c in move.colours if c not in COLOUR_INDEX]
        if unknown or len(move.colours) > played:
            raise RefillCountError(
                said(
                    "%(player)s must refill exactly %(played)s cubes of the five colours, "
                    "not %(refilled)s",
                    player=move.player,
                    played=played,
                    refilled=[str(c) for c in move.colours],
                ),
                move.player,
            )
        need = Cubes.of(move.colours)
        supply = self.supply()
        canonical = {
            i: self.canonical_return(COLOURS[i], need[i] - supply[i])
            for i in range(COLOUR_COUNT)
            if need[i] > supply[i]
        }
        canonical = {i: k for i, k in canonical.items() if k > 0}
        if len(move.colours) < played:
            # a short refill is only right when even the returns the rules call for
            # leave the supply empty (record.md checks the count before the returns)
            returnable = sum(min(k, court[i]) for i, k in canonical.items() for court in s.courts)
            if supply.total() + returnable - len(move.colours) > 0:
                raise RefillCountError(
                    said(
                        "%(player)s must refill exactly %(played)s cubes, not %(count)s",
                        player=move.player,
                        played=played,
                        count=len(move.colours),
                    ),
                    move.player,
                )
        returns: dict[int, int] = {}
        for colour, k in move.returned:
            i = COLOUR_INDEX.get(colour)
            if i is None or i not in canonical:
                raise BadReturnError(
                    said(
                        "the supply does not run short of %(colour)s for this refill, so no "
                        "%(colour)s cubes are returned",
                        colour=colour,
                    ),
                    move.player,
                )
            if k != canonical[i]:
                raise BadReturnError(
                    said(
                        "the supply runs short of %(colour)s: every player returns %(k)s "
                        "(not %(given)s) %(colour)s cubes from his court",
                        colour=colour,
                        k=canonical[i],
                        given=k,
                    ),
                    move.player,
                )
            returns[i] = k
        back = [0] * COLOUR_COUNT
        for i, k in returns.items():
            back[i] = sum(min(k, court[i]) for court in s.courts)
        for i in range(COLOUR_COUNT):
            if need[i] > supply[i] + back[i]:
                short = (
                    N_(
                        "%(player)s takes %(count)s %(colour)s but the supply holds only "
                        "%(have)s (every player must first return %(k)s %(colour)s from his "
                        "court)"
                    )
                    if i in canonical and i not in returns
                    else N_(
                        "%(player)s takes %(count)s %(colour)s but the supply holds only "
                        "%(have)s; take a colour the supply still has instead"
                    )
                )
                raise SupplyEmptyError(
                    said(
                        short,
                        player=move.player,
                        count=need[i],
                        colour=COLOURS[i],
                        have=supply[i] + back[i],
                        k=canonical.get(i, 0),
                    ),
                    move.player,
                )
        return returns

    def canonical_return(self, colour: Colour, shortfall: int) -> int:
        """The *k* every player returns of ``colour`` to cover ``shortfall``: the smallest
        equal number that covers it, or everyone's all when nothing does (0: none held)."""
        i = COLOUR_INDEX[colour]
        held = [court[i] for court in self._state.courts]
        for k in range(1, max(held, default=0) + 1):
            if sum(min(k, h) for h in held) >= shortfall:
                return k
        return max(held, default=0)

    # -------------------------------------------------------------- applying
    #
    # Each move's own effect replaces `_state` with a new value (the one it leaves is
    # on `_stack` already); then `_follow` moves the flow on as `STAGES` says.

    def _apply(self, move: Move) -> list[Event]:
        events = _RULES[type(move)].apply(self, move)
        return events + self._follow(STAGES[type(move)])

    def _follow(self, stage: Stage) -> list[Event]:
        """The flow after a move played in ``stage``: the turn's next step, the next
        player's turn, or the next phase once every player has had his part."""
        s = self._state
        if stage.then is not None:
            self._state = s.evolve(step=stage.then)
            return []
        if stage.phase is Phase.ACTION:  # a turn ends
            s = self._state = s.evolve(turn=s.turn + 1, step=FIRST_STEP, played=0)
            if s.turn < self._n:
                return [self._turn_started()]
        elif len(s.chosen) < self._n:
            return []
        return self._begin(NEXT_PHASE[stage.phase])

    def _begin(self, phase: Phase) -> list[Event]:
        s = self._state
        if phase is Phase.ACTION:
            # lowest disc first; equal discs (the forced case) in choosing order
            position = {p: i for i, (p, _) in enumerate(s.chosen)}
            order = tuple(
                sorted((p for p, _ in s.chosen), key=lambda p: (self._chosen_disc(p), position[p]))
            )
            self._state = s.evolve(phase=phase, order=order, turn=0, step=FIRST_STEP)
            return [self._turn_started()]
        # the next round chooses in this round's order of play
        new_round = s.round + 1
        self._state = s.evolve(
            round=new_round,
            phase=phase,
            choosing=s.order,
            chosen=(),
            order=(),
            turn=0,
            used=(frozenset(),) * self._n if (new_round - 1) % DISC_CYCLE == 0 else s.used,
        )
        return []

    def _apply_disc(self, move: ChooseDisc) -> list[Event]:
        s = self._state
        index = self._index[move.player]
        self._state = s.evolve(
            used=_put(s.used, index, s.used[index] | {move.number}),
            chosen=(*s.chosen, (index, move.number)),
        )
        return [DiscChosen(s.round, 0, move.player, move.number)]

    def _turn_started(self) -> TurnStarted:
        s = self._state
        player = s.order[s.turn]
        return TurnStarted(s.round, s.turn + 1, self._names[player], self._chosen_disc(player))

    def _apply_cubes(self, move: PlayCubes) -> list[Event]:
        s = self._state
        index = self._index[move.player]
        tiles = list(s.territory)
        for key, colours in move.territories:
            number = self._territory_number(key)
            assert number is not None
            tiles[number - 1] = tiles[number - 1] + Cubes.of(colours)
        court = Cubes.of(move.court)
        self._state = s.evolve(
            territory=tuple(tiles),
            reserves=_put(s.reserves, index, s.reserves[index] - Cubes.of(move.colours())),
            courts=_put(s.courts, index, s.courts[index] + court),
            played=move.count(),
        )
        events: list[Event] = [
            CubesPlayed(
                s.round,
                s.turn + 1,
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
        s = self._state
        events: list[Event] = []
        control = list(s.control)
        for i in range(COLOUR_COUNT):
            if not changed[i]:
                continue
            counts = [court[i] for court in s.courts]
            best = max(counts)
            leaders = [p for p, n in enumerate(counts) if n == best]
            holder = control[i]
            if len(leaders) == 1 and leaders[0] != holder:
                control[i] = leaders[0]
                events.append(
                    ControlGained(
                        s.round,
                        s.turn + 1,
                        COLOURS[i],
                        self._names[leaders[0]],
                        None if holder is None else self._names[holder],
                    )
                )
        if events:
            self._state = s.evolve(control=tuple(control))
        return events

    def _apply_emperor(self, move: MoveEmperor) -> list[Event]:
        s = self._state
        s = self._state = s.evolve(
            emperor=(s.emperor + move.steps) % len(s.units), last_turn_round=s.round
        )
        events: list[Event] = [
            EmperorMoved(s.round, s.turn + 1, move.player, move.steps, self.emperor)
        ]
        events += self._resolve()
        return events

    def _majority(self, u: int) -> Majority:
        s = self._state
        unit = s.units[u]
        cubes = sum((s.territory[t - 1] for t in unit), NO_CUBES)
        owner = s.owner[u]
        strengths = []
        for team in self.sides:
            members = [i for i in range(self._n) if self._side_of[i] == team]
            counted = Cubes(cubes[c] if s.control[c] in members else 0 for c in range(COLOUR_COUNT))
            strengths.append(
                Strength(
                    team,
                    tuple(self._names[i] for i in members),
                    counted,
                    len(unit) if owner == team else 0,
                )
            )
        totals = [st.total for st in strengths]
        best = max(totals)
        leaders = [st.side for st in strengths if st.total == best]
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
        s = self._state
        u = s.emperor
        majority = self._majority(u)
        rnd, turn = s.round, s.turn + 1
        events: list[Event] = []
        side = majority.side
        if majority.outcome == "build" and side is not None:
            events.append(CastleBuilt(rnd, turn, majority.territories, side))
        elif majority.outcome == "take" and side is not None and majority.owner is not None:
            events.append(CastleTaken(rnd, turn, majority.territories, side, majority.owner))
        else:
            return events
        self._state = s.evolve(owner=_put(s.owner, u, side))
        merged = self._merge(u, side)
        if merged is not None:
            events.append(Merged(rnd, turn, merged, side))
        events += self._check_end()
        return events

    def _merge(self, u: int, side: str) -> tuple[int, ...] | None:
        """Merge unit ``u`` with each ring neighbour owned by ``side``."""
        s = self._state
        count = len(s.units)
        left, right = (u - 1) % count, (u + 1) % count
        take_left = left != u and s.owner[left] == side
        take_right = right != u and right != left and s.owner[right] == side
        if not (take_left or take_right):
            return None
        start = left if take_left else u
        pieces = 1 + take_left + take_right
        ring = s.units[start:] + s.units[:start]
        owners = s.owner[start:] + s.owner[:start]
        region = tuple(t for unit in ring[:pieces] for t in unit)
        units = (region, *ring[pieces:])
        self._state = s.evolve(
            units=units, owner=(side, *owners[pieces:]), unit_of=units_index(units), emperor=0
        )
        return tuple(sorted(region))

    def _check_end(self) -> list[Event]:
        for side in self.sides:
            if self.castles(side) >= self.goal:
                return self._finish(self._side_name(side), "castles")
        if len(self._state.units) < FEW_UNITS:
            counts = {side: self.castles(side) for side in self.sides}
            best = max(counts.values())
            leaders = [s for s, c in counts.items() if c == best]
            winner = self._side_name(leaders[0]) if len(leaders) == 1 else "draw"
            return self._finish(winner, "few-territories")
        return []

    def _side_name(self, side: str) -> str:
        """How a winner is named: the player (2-3 players) or the team's colour (4)."""
        if self._n == TEAM_GAME:
            return side
        return self._names[self._side_of.index(side)]

    def _finish(self, winner: str, reason: str) -> list[Event]:
        s = self._state = self._state.evolve(winner=winner, reason=reason, phase=Phase.OVER)
        return [GameOver(s.round, s.turn + 1, winner, reason)]

    def _apply_refill(self, move: Refill) -> list[Event]:
        index = self._index[move.player]
        planned = self._planned
        returns = planned[1] if planned and planned[0] is move else self._plan_refill(move)
        self._planned = None
        s = self._state
        rnd, turn = s.round, s.turn + 1
        events: list[Event] = []
        courts = list(s.courts)
        for i in sorted(returns):
            k = returns[i]
            back = [0] * COLOUR_COUNT
            for p, court in enumerate(courts):
                back[i] = min(k, court[i])
                courts[p] = court - Cubes(back)
            events.append(Returned(rnd, turn, COLOURS[i], k))
        self._state = s.evolve(courts=tuple(courts))
        if returns:
            events += self._update_control(
                Cubes(1 if i in returns else 0 for i in range(COLOUR_COUNT))
            )
        s = self._state
        self._state = s.evolve(
            reserves=_put(s.reserves, index, s.reserves[index] + Cubes.of(move.colours))
        )
        events.append(Refilled(rnd, turn, move.player, move.colours))
        return events

    # ---------------------------------------------------------------- words

    def describe_result(self) -> str:
        """``white wins (castles on 10 territories)``: a message with fields (`said`)."""
        if self.winner is None:
            return said("the game goes on")
        if self.reason not in _RESULTS:
            return f"{self.winner} wins ({self.reason or ''})"  # no reason the rules give
        draw = self.winner == "draw"
        return said(
            _RESULTS[str(self.reason)][draw], side=self.winner, goal=self.goal, few=FEW_UNITS
        )


#: The result in words, by the reason the game ended: (a side wins, a draw).
_RESULTS: Final = {
    "castles": (
        N_("%(side)s wins (castles on %(goal)s territories)"),
        N_("a draw (castles on %(goal)s territories)"),
    ),
    "few-territories": (
        N_("%(side)s wins (fewer than %(few)s territories left)"),
        N_("a draw (fewer than %(few)s territories left)"),
    ),
}


@dataclass(frozen=True)
class _Rule:
    """How the engine checks and applies one kind of move."""

    check: Callable[[Game, Any], None]
    apply: Callable[[Game, Any], list[Event]]


#: Dispatch by move type, in one place: `Game._check` and `Game._apply` look here.
_RULES: Final[Mapping[type[Move], _Rule]] = {
    ChooseDisc: _Rule(Game._check_disc, Game._apply_disc),
    PlayCubes: _Rule(Game._check_cubes, Game._apply_cubes),
    MoveEmperor: _Rule(Game._check_emperor, Game._apply_emperor),
    Refill: _Rule(Game._check_refill, Game._apply_refill),
}


def _put(values: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """``values`` with the one at ``i`` replaced: states are never changed in place."""
    return (*values[:i], value, *values[i + 1 :])


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
        if i == COLOUR_COUNT - 1:
            if left <= reserve[i]:
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
