"""The table referee: settled tables in, the refereed game out.

It holds the last accepted game (the engine `Game`) and judges every settled table
*against that game*, not against the previous frame: what differs must be progress of
the rules' current step (cubes leaving the active player's reserve, the emperor moving
forward, the refill arriving), a physical chore the rules called for and the players
have not done yet (a castle to build or swap, a cylinder to move, discs to take back),
or else an illegal act. A step that the table shows complete is played on the engine
and the record grows; several may complete at once after a long occlusion. Moves are
played tentatively and taken back when anything else on the table is wrong, so nothing
undone by the players ever reaches the record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from referee.errors import BadSetupError, EmperorStepsError, IllegalMoveError
from referee.events import CastleBuilt, CastleTaken, ControlGained, Event
from referee.game import Game, Phase, Step
from referee.moves import ChooseDisc, Move, MoveEmperor, PlayCubes, Refill
from referee.pieces import CASTLE_COLOURS, COLOURS, NO_CUBES, SEATS, Colour, Cubes
from referee.record import Record
from referee.setup import Player, Setup
from referee.table.corrections import Corrections
from referee.table.events import TableEvent, stamp, table_event
from referee.table.settle import Settler
from referee.table.snapshot import Castles, Snapshot, Table

DISCS: Final = frozenset(range(1, 6))
NO_CASTLE: Final[Castles] = (0, 0, 0)


def castle_of(side: str | None) -> Castles:
    """The castles a territory owned by ``side`` shows: one of its colour."""
    if side is None:
        return NO_CASTLE
    counts = [0, 0, 0]
    counts[CASTLE_COLOURS.index(side)] = 1  # type: ignore[arg-type,unused-ignore]
    return (counts[0], counts[1], counts[2])


def _words(cubes: Cubes) -> str:
    return cubes.describe()


def _plus(cubes: Cubes) -> Cubes:
    return Cubes(n if n > 0 else 0 for n in cubes)


def _minus(cubes: Cubes) -> Cubes:
    return Cubes(-n if n < 0 else 0 for n in cubes)


@dataclass(frozen=True)
class Problem:
    """An illegal act on the table: the rule's code, words, and who did it."""

    code: str
    message: str
    player: str | None


class ProblemFound(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


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

    def key(self) -> tuple[object, ...]:
        return (self.player, self.court, tuple(sorted(self.territories.items())))


class TableReferee:
    """Referee a table from its snapshots: `feed` each frame, read the events.

    ``players`` carry their seats (``Player("Anna", "white", "south")``), in the order
    the record lists them.
    """

    def __init__(self, players: Sequence[Player], cubes_per_colour: int = 40) -> None:
        if not 2 <= len(players) <= 4:
            raise ValueError(f"Carolus Magnus is for 2, 3 or 4 players, not {len(players)}")
        for p in players:
            if p.seat not in SEATS:
                raise ValueError(f"{p.name} needs a seat ({', '.join(SEATS)}), not {p.seat!r}")
        try:
            _probe = Setup(
                tuple(players),
                tuple(c for c in COLOURS for _ in range(3)),
                1,
                {p.name: ["red"] * (9 if len(players) == 3 else 7) for p in players},
            )
            _probe.check()
        except BadSetupError as exc:
            raise ValueError(str(exc)) from None
        self.players: Final = tuple(players)
        self.cubes_per_colour: Final = cubes_per_colour
        self._seat: Final[dict[str, str]] = {p.name: p.seat or "" for p in players}
        self.game: Game | None = None
        self.settler = Settler()
        self.corrections = Corrections()
        self.t: float | None = None
        self.table: Table | None = None  # last settled table, as the camera saw it
        self.illegal: TableEvent | None = None  # the illegal act standing now
        self._candidate: Table | None = None  # last settled table with every tray full
        self._chores = Chores()
        self._chores_stack: list[Chores] = []
        self._ignore: Table | None = None
        self._emperor_tile: int | None = None  # the tile he stood on in the last judged table
        self._placed_key: tuple[object, ...] | None = None
        self._cylinders_said: frozenset[str] = frozenset()
        self.events: list[TableEvent] = []

    # ------------------------------------------------------------------ public

    def feed(self, snapshot: Snapshot) -> list[TableEvent]:
        """Consume one frame; the events it caused (usually none)."""
        if snapshot.t is not None:
            self.t = snapshot.t
        settled = self.settler.feed(snapshot)
        if settled is None:
            return []
        self.table = settled
        if self._ignore is not None:
            if settled == self._ignore:
                return []
            self._ignore = None
        return self._log(self._judge(self.corrections.apply(settled)))

    def record(self, meta: Mapping[str, object] | None = None) -> Record | None:
        """The game record so far (whole turns; a half-chosen round of discs left out)."""
        game = self.game
        if game is None:
            return None
        taken: list[Move] = []
        if game.phase is Phase.OPENING:
            while game.move_stack and isinstance(game.move_stack[-1], ChooseDisc):
                taken.append(game.pop())
        record = Record.from_game(game, meta)
        for move in reversed(taken):
            game.push(move)
        return record

    def undo(self) -> list[TableEvent]:
        """Take back the last accepted step; then ignore the table until it changes."""
        game = self.game
        if game is None or not game.move_stack:
            return self._log([table_event("undone", self.t, "Nothing to undo.", move=None)])
        move = game.pop()
        self._chores = self._chores_stack.pop()
        self._ignore = self.table
        events = [
            table_event("undone", self.t, f"Undone: {_say_move(move)}.", move=_move_json(move))
        ]
        if self.illegal is not None:
            events.append(self._resolved())
        return self._log(events)

    def confirm(self) -> list[TableEvent]:
        """The players say the pending castles and cylinders are in place, though the
        camera does not see them: from now on read those zones as the rules want them."""
        game, table = self.game, self.table
        if game is None or table is None:
            return []
        done: list[str] = []
        for t, (_, side) in self._chores.castles.items():
            self.corrections.set(f"castles {t}", table, castle_of(side))
            done.append(f"a {side} castle on territory {t}")
        for colour in self._chores.cylinders:
            place = self._cylinder_place(game, colour)
            self.corrections.set(f"cylinder {colour}", table, place)
            done.append(f"the {colour} cylinder on {self._place_name(place)}")
        message = "Confirmed: " + ("; ".join(done) if done else "nothing was pending") + "."
        events = [table_event("confirmed", self.t, message, done=done)]
        events += self._judge(self.corrections.apply(table))
        return self._log(events)

    def correct(self, zone: str, value: object) -> list[TableEvent]:
        """Override what the camera believes of one zone, e.g. ``correct("territory 7",
        {"red": 3})``; it holds while the camera keeps reading that zone the same way.
        Zones: ``territory N``, ``castles N``, ``court SEAT``, ``reserve SEAT``,
        ``emperor``, ``cylinder COLOUR``, ``discs SEAT``. Raises `ValueError`."""
        table = self.table
        if table is None:
            raise ValueError("no table has settled yet: nothing to correct")
        before = self.corrections.apply(table)
        self.corrections.set(zone, table, value)
        after = self.corrections.apply(table)
        message = f"Corrected {zone}: {self.corrections.describe(zone, before, after)}."
        events = [table_event("corrected", self.t, message, zone=zone)]
        self._ignore = None
        events += self._judge(after)
        return self._log(events)

    def status(self) -> dict[str, object]:
        """What a display shows now: whose turn and step, what is wrong, what is owed."""
        game = self.game
        if game is None:
            return {
                "phase": "setup",
                "illegal": self.illegal,
                "pending": [],
                "message": "Lay out the table; the game begins when the first disc is taken.",
            }
        step = game.step.value if game.phase is Phase.ACTION else None
        return {
            "phase": game.phase.value,
            "round": game.round,
            "to_move": game.to_move,
            "step": step,
            "illegal": self.illegal,
            "pending": self.pending(),
            "winner": game.winner,
            "reason": game.reason,
        }

    def pending(self) -> list[str]:
        """The chores the table still owes, in words (for the display)."""
        game, table = self.game, self.table
        if game is None or table is None:
            return []
        words = []
        castles = self._chores.castles
        if castles:
            words.append(self._castle_words(castles))
        for colour in self._chores.cylinders:
            words.append(self._cylinder_words(game, colour))
        return words

    # --------------------------------------------------------------- judging

    def _log(self, events: list[TableEvent]) -> list[TableEvent]:
        self.events += events
        return events

    def _resolved(self) -> TableEvent:
        standing = self.illegal or {}
        self.illegal = None
        return table_event(
            "resolved",
            self.t,
            "The table is back in order.",
            code=standing.get("code"),
            player=standing.get("player"),
        )

    def _raise(self, problem: Problem) -> list[TableEvent]:
        standing = self.illegal
        if (
            standing is not None
            and standing["code"] == problem.code
            and standing["message"] == problem.message
        ):
            return []
        game = self.game
        self.illegal = table_event(
            "illegal",
            self.t,
            problem.message,
            code=problem.code,
            player=problem.player,
            round=game.round if game else 0,
            turn=game.turn_number if game else 0,
        )
        return [self.illegal]

    def _judge(self, table: Table) -> list[TableEvent]:
        if self.game is None:
            return self._judge_setup(table)
        game = self.game
        if game.is_over:
            return self._announce(table, [])
        out: list[TableEvent] = self._revise_emperor(game, table)
        pushed: list[list[Event]] = []
        problem: Problem | None = None
        while True:
            try:
                move = self._complete_move(game, table)
                if move is None:
                    break
                try:
                    events = game.push(move)
                except IllegalMoveError as exc:
                    raise ProblemFound(Problem(exc.code, exc.message, exc.player)) from None
            except ProblemFound as found:
                problem = found.problem
                break
            self._chores_stack.append(self._chores)
            self._after_push(game, move, events)
            pushed.append(events)
            if game.is_over:
                break
        if problem is None and not game.is_over:
            problem = self._problem(game, table)
        if problem is not None:
            for _ in pushed:
                game.pop()
                self._chores = self._chores_stack.pop()
            return out + self._raise(problem)
        if self.illegal is not None:
            out.append(self._resolved())
        for events in pushed:
            for event in events:
                out.append(stamp(event, self.t))
                if isinstance(event, CastleBuilt | CastleTaken) and self._chores.castles:
                    out.append(
                        table_event(
                            "castle-pending",
                            self.t,
                            _sentence(self._castle_words(self._chores.castles)),
                            territories=sorted(self._chores.castles),
                            side=event.side,
                        )
                    )
        return self._announce(table, out)

    def _revise_emperor(self, game: Game, table: Table) -> list[TableEvent]:
        """People count the emperor's steps by hopping him along: when he moves on before
        anything else happened (no castle touched, no refill, the next player idle), his
        first stop is taken back and the whole move judged again."""
        if game.phase is not Phase.ACTION or game.step is not Step.REFILL:
            return []
        last = game.move_stack[-1] if game.move_stack else None
        if not isinstance(last, MoveEmperor) or not self._emperor_steps(game, table):
            return []
        seat = self._seat[last.player]
        if table.reserves.get(seat, NO_CUBES) != game.reserve(last.player):
            return []
        following = self._next_player(game)
        if following is not None and (
            not game.cubes_to_play(following)
            or table.reserves.get(self._seat[following], NO_CUBES) != game.reserve(following)
        ):
            return []
        for t, (old, _) in self._chores.castles.items():
            if table.castles[t - 1] != castle_of(old):
                return []
        stop = game.emperor
        game.pop()
        self._chores = self._chores_stack.pop()
        if self._emperor_steps(game, table):
            message = (
                f"The emperor goes on from territory {stop}: {last.player}'s move is judged again."
            )
        else:
            message = f"The emperor is back where he stood: {last.player}'s move is taken back."
        return [table_event("undone", self.t, message, move=_move_json(last))]

    # ---------------------------------------------------------- set-up phase

    def _judge_setup(self, table: Table) -> list[TableEvent]:
        full = all(table.discs.get(self._seat[p.name], frozenset()) >= DISCS for p in self.players)
        if full:
            self._candidate = table
            return [self._resolved()] if self.illegal is not None else []
        if self._candidate is None:
            return []  # the players are still laying out the table
        setup: Setup | None = None
        error: BadSetupError | None = None
        for base in (self._candidate, table):
            try:
                setup = self._setup_from(base)
                break
            except BadSetupError as exc:
                error = exc  # the table now is what the players put right
        if setup is None:
            assert error is not None
            return self._raise(Problem(error.code, error.message, error.player))
        self.game = Game(setup)
        self._chores = Chores(back={p.seat or "": DISCS for p in self.players})
        out = [] if self.illegal is None else [self._resolved()]
        out.append(
            table_event(
                "setup",
                self.t,
                "Set-up accepted: "
                + ", ".join(
                    f"{p.name} ({p.castles}, {p.seat}) "
                    f"{Cubes.of(setup.reserves[p.name]).describe()}"
                    for p in self.players
                )
                + f"; the emperor stands on territory {setup.emperor}.",
                territories=list(setup.territories),
                emperor=setup.emperor,
                reserves={name: list(r) for name, r in setup.reserves.items()},
            )
        )
        return out + self._judge(table)

    def _setup_from(self, table: Table) -> Setup:
        territories: list[str] = []
        for number, cubes in enumerate(table.territories, start=1):
            if cubes.total() != 1:
                raise BadSetupError(
                    f"territory {number} holds {cubes.describe()}; the set-up puts exactly "
                    f"one cube on each territory"
                )
            territories.append(cubes.colours()[0])
            if table.castles[number - 1] != NO_CASTLE:
                raise BadSetupError(f"a castle stands on territory {number} before the game")
        if table.emperor is None:
            raise BadSetupError("the emperor is not on a territory")
        reserves: dict[str, list[str]] = {}
        for p in self.players:
            seat = self._seat[p.name]
            court = table.courts.get(seat, NO_CUBES)
            if court.total():
                raise BadSetupError(
                    f"{p.name}'s court holds {court.describe()}; courts start empty", p.name
                )
            reserves[p.name] = list(table.reserves.get(seat, NO_CUBES).colours())
        for colour, place in zip(COLOURS, table.cylinders, strict=True):
            if place not in (None, "pool"):
                raise BadSetupError(
                    f"the {colour} cylinder stands on the {place} court; cylinders start in "
                    f"the pool"
                )
        setup = Setup(
            self.players, tuple(territories), table.emperor, reserves, self.cubes_per_colour
        )
        setup.check()
        return setup

    # -------------------------------------------------------- reading steps

    def _placement(self, game: Game, table: Table, player: str) -> Placement:
        seat = self._seat[player]
        taken = game.reserve(player) - table.reserves.get(seat, NO_CUBES)
        court = table.courts.get(seat, NO_CUBES) - game.court(player)
        territories = {}
        for t in range(1, 16):
            diff = table.territories[t - 1] - game.territory(t)
            if any(diff):
                territories[t] = diff
        return Placement(player, taken, court, territories)

    def _complete_move(self, game: Game, table: Table) -> Move | None:
        """The move the table shows complete for the current step, if any."""
        if game.phase is Phase.OPENING:
            return self._disc_choice(game, table)
        player = game.to_move
        assert player is not None
        if game.step is Step.CUBES:
            placement = self._placement(game, table, player)
            placed = placement.placed
            want = game.cubes_to_play(player)
            if (
                placed.total() != want
                or any(n < 0 for n in placement.court)
                or any(n < 0 for c in placement.territories.values() for n in c)
                or not game.reserve(player).covers(placed)
            ):
                return None
            # the reserve may already show refill cubes when a hand hid the whole turn
            refilled = placed - placement.taken
            if any(n < 0 for n in refilled):
                return None
            if any(refilled) and not self._emperor_steps(game, table):
                return None
            return placement.move()
        if game.step is Step.EMPEROR:
            steps = self._emperor_steps(game, table)
            disc = game.disc(player) or 0
            units = len(game.units())
            if not steps:
                if disc >= units and self._full_circle(game, table, player):
                    return MoveEmperor(player, units)
                return None
            if steps > disc and units - steps < steps:
                raise ProblemFound(
                    Problem(
                        EmperorStepsError.code,
                        f"{player} moved the emperor backwards; it moves clockwise, 1 to "
                        f"{disc} step{'s' if disc > 1 else ''}",
                        player,
                    )
                )
            return MoveEmperor(player, steps)
        return self._refill(game, table, player)

    def _full_circle(self, game: Game, table: Table, player: str) -> bool:
        """With few units left the emperor may go all the way round to his own unit
        (rules, Reading): seen when he stands on another tile of it, or when the refill
        begins while he seems not to have moved."""
        if table.emperor is not None and table.emperor != self._emperor_tile:
            return True
        grown = table.reserves.get(self._seat[player], NO_CUBES) - game.reserve(player)
        if any(n > 0 for n in grown):
            return True
        return any(
            any(n < 0 for n in table.courts.get(self._seat[p.name], NO_CUBES) - game.court(p.name))
            for p in self.players
        )

    def _emperor_steps(self, game: Game, table: Table) -> int:
        if table.emperor is None:
            return 0
        units = game.units()
        index = {t: i for i, unit in enumerate(units) for t in unit}
        here = index[game.emperor]
        return (index[table.emperor] - here) % len(units)

    def _refill(self, game: Game, table: Table, player: str) -> Refill | None:
        grown = table.reserves.get(self._seat[player], NO_CUBES) - game.reserve(player)
        if any(n < 0 for n in grown):
            return None
        played = _cubes_played(game)
        returned: dict[str, int] = {}
        back = 0
        for i, colour in enumerate(COLOURS):
            k = 0
            for p in self.players:
                gone = game.court(p.name)[i] - table.courts.get(self._seat[p.name], NO_CUBES)[i]
                if gone > 0:
                    k = max(k, gone)
                    back += gone
            if k:
                returned[colour] = k
        need = min(played, game.supply().total() + back)
        if grown.total() != need:
            return None
        if need < played and not self._next_done(game, table):
            return None  # a short refill is over only when the game moves on
        return Refill.of(player, grown.colours(), returned)

    def _next_done(self, game: Game, table: Table) -> bool:
        """Whether the game has clearly moved on past a short refill: the next player has
        put down all his cubes (or moved the emperor), or everyone has taken his disc for
        the next round (or, after a fifth round, his discs back). Merely starting is not
        enough: the refill and its returns may still be under way."""
        if self._emperor_steps(game, table):
            return True
        following = self._next_player(game)
        if following is not None:
            want = game.cubes_to_play(following)
            placed = self._placement(game, table, following).placed.total()
            return want > 0 and placed >= want
        if game.round % 5 == 0:
            return all(
                table.discs.get(self._seat[p.name], frozenset()) - game.discs_in_hand(p.name)
                for p in self.players
            )
        return all(self._missing_discs(game, table, p.name) for p in self.players)

    def _disc_choice(self, game: Game, table: Table) -> ChooseDisc | None:
        chosen = {name for name, _ in game.chosen_discs()}
        candidates: list[ChooseDisc] = []
        for p in self.players:
            missing = self._missing_discs(game, table, p.name)
            if not missing:
                continue
            if p.name in chosen:
                raise ProblemFound(
                    Problem(
                        "disc-order",
                        f"{p.name} has already chosen disc {game.disc(p.name)} this round "
                        f"and took disc {min(missing)} too",
                        p.name,
                    )
                )
            if len(missing) > 1:
                raise ProblemFound(
                    Problem(
                        "disc-order",
                        f"{p.name} took discs {_and(sorted(missing))} from the tray; choose one",
                        p.name,
                    )
                )
            candidates.append(ChooseDisc(p.name, min(missing)))
        if not candidates:
            return None
        expected = game.to_move
        for move in candidates:
            if move.player == expected:
                return move
        return candidates[0]

    def _missing_discs(self, game: Game, table: Table, player: str) -> set[int]:
        seat = self._seat[player]
        tray = table.discs.get(seat, frozenset())
        known = game.discs_in_hand(player) & self._chores.back.get(seat, frozenset())
        return set(known - tray)

    # -------------------------------------------------------- after a move

    def _after_push(self, game: Game, move: Move, events: list[Event]) -> None:
        chores = self._chores
        castles = dict(chores.castles)
        cylinders = dict(chores.cylinders)
        back = dict(chores.back)
        castles_by, castles_at = chores.castles_by, chores.castles_at
        for event in events:
            if isinstance(event, ControlGained) and event.colour not in cylinders:
                cylinders[event.colour] = (
                    "pool" if event.previous is None else self._seat[event.previous]
                )
            elif isinstance(event, CastleBuilt):
                castles = {t: (None, event.side) for t in event.territories}
                castles_by, castles_at = move.player, len(game.move_stack)
            elif isinstance(event, CastleTaken):
                castles = {t: (event.previous, event.side) for t in event.territories}
                castles_by, castles_at = move.player, len(game.move_stack)
        if isinstance(move, Refill) and game.phase is Phase.OPENING and (game.round - 1) % 5 == 0:
            back = {p.seat or "": frozenset() for p in self.players}
        self._chores = Chores(castles, castles_by, castles_at, cylinders, back)

    def _cylinder_place(self, game: Game, colour: str) -> str:
        holder = game.controller(colour)  # type: ignore[arg-type]
        return "pool" if holder is None else self._seat[holder]

    def _place_name(self, place: str | None) -> str:
        if place == "pool":
            return "the pool"
        for name, seat in self._seat.items():
            if seat == place:
                return f"{name}'s court"
        return f"the {place} court"

    def _cylinder_words(self, game: Game, colour: str) -> str:
        return (
            f"move the {colour} cylinder to {self._place_name(self._cylinder_place(game, colour))}"
        )

    def _castle_words(self, castles: Mapping[int, tuple[str | None, str]]) -> str:
        places = sorted(castles)
        olds = {old for old, _ in castles.values()}
        side = next(iter(castles.values()))[1]
        where = f"territor{'ies' if len(places) > 1 else 'y'} {_and(places)}"
        if olds == {None}:
            return f"build a {side} castle on {where}"
        old = next(iter(olds))
        return f"swap the {old} castle{'s' if len(places) > 1 else ''} on {where} for {side}"

    # ---------------------------------------------------------- announcing

    def _announce(self, table: Table, out: list[TableEvent]) -> list[TableEvent]:
        """Commit what the accepted table shows: chores done, cubes placed so far."""
        game = self.game
        assert game is not None
        chores = self._chores
        castles = {
            t: change
            for t, change in chores.castles.items()
            if table.castles[t - 1] != castle_of(change[1])
        }
        if chores.castles and not castles:
            out.append(
                table_event(
                    "castles-placed",
                    self.t,
                    "The castles stand as the rules say.",
                    territories=sorted(chores.castles),
                )
            )
        cylinders = {}
        for colour, origin in chores.cylinders.items():
            place = self._cylinder_place(game, colour)
            seen = table.cylinders[COLOURS.index(colour)]
            if seen == place:
                if colour in self._cylinders_said:
                    out.append(
                        table_event(
                            "cylinder-moved",
                            self.t,
                            f"The {colour} cylinder is on {self._place_name(place)}.",
                            colour=colour,
                            to=place,
                        )
                    )
            else:
                cylinders[colour] = origin
        said = set()
        for colour in cylinders:
            said.add(colour)
            if colour not in self._cylinders_said:
                out.append(
                    table_event(
                        "cylinder-pending",
                        self.t,
                        _sentence(self._cylinder_words(game, colour)),
                        colour=colour,
                        to=self._cylinder_place(game, colour),
                    )
                )
        self._cylinders_said = frozenset(said)
        back = dict(chores.back)
        for p in self.players:
            tray = self._seat[p.name]
            in_tray = table.discs.get(tray, frozenset()) & game.discs_in_hand(p.name)
            if not in_tray <= back.get(tray, frozenset()):
                back[tray] = back.get(tray, frozenset()) | in_tray
        self._chores = replace(chores, castles=castles, cylinders=cylinders, back=back)
        if table.emperor is not None:
            self._emperor_tile = table.emperor
        if game.phase is Phase.ACTION and not game.is_over:
            actor = game.to_move if game.step is Step.CUBES else self._next_player(game)
            if actor is not None:
                placement = self._placement(game, table, actor)
                key = placement.key()
                if placement.placed.total() and key != self._placed_key:
                    self._placed_key = key
                    placed = placement.placed.total()
                    where = (
                        [f"{placement.court.describe()} to the court"]
                        if any(placement.court)
                        else []
                    )
                    where += [
                        f"{c.describe()} on territory {t}"
                        for t, c in sorted(placement.territories.items())
                    ]
                    out.append(
                        table_event(
                            "cubes-placed",
                            self.t,
                            f"{actor} has placed {placed} of "
                            f"{game.cubes_to_play(actor)} cubes: {'; '.join(where)}.",
                            player=actor,
                            court=placement.court.colours(),
                            territories={
                                str(t): c.colours()
                                for t, c in sorted(placement.territories.items())
                            },
                            count=placed,
                            of=game.cubes_to_play(actor),
                        )
                    )
        return out

    def _next_player(self, game: Game) -> str | None:
        """Who plays after the player now refilling (None: the round ends)."""
        order = game.order_of_play()
        turn = game.turn_number
        return order[turn] if turn < len(order) else None

    # ------------------------------------------------------------- problems

    def _problem(self, game: Game, table: Table) -> Problem | None:
        """The first illegal thing on ``table`` given the accepted ``game``, or None."""
        phase, step, mover = game.phase, game.step, game.to_move
        action = phase is Phase.ACTION
        refiller = mover if action and step is Step.REFILL else None
        done = mover if action and step in (Step.EMPEROR, Step.REFILL) else None
        actor: str | None = None
        if action and step is Step.CUBES:
            actor = mover
        elif refiller is not None:
            actor = self._next_player(game)
        choosing = phase is Phase.OPENING or (
            refiller is not None and self._next_player(game) is None
        )
        who = actor or mover or (game.choosers() or (None,))[0]

        # discs
        next_started = False
        if choosing and phase is not Phase.OPENING:
            # the next round's discs, chosen in this round's order of play
            order = game.order_of_play()
            took = [name for name in order if self._missing_discs(game, table, name)]
            if took != list(order[: len(took)]):
                first = next(name for name in order if name not in took)
                return Problem(
                    "disc-order",
                    f"{first} chooses next, not {took[-1]} (round {game.round + 1} chooses in "
                    f"round {game.round}'s order of play: {', '.join(order)})",
                    first,
                )
        for p in self.players:
            missing = self._missing_discs(game, table, p.name)
            if not missing:
                continue
            if choosing and phase is not Phase.OPENING and len(missing) == 1:
                next_started = True
                continue
            if phase is Phase.OPENING:
                if game.disc(p.name) is not None:
                    return Problem(
                        "disc-order",
                        f"{p.name} has already chosen disc {game.disc(p.name)} this round and "
                        f"took disc {min(missing)} too",
                        p.name,
                    )
                return Problem(
                    "disc-order",
                    f"{p.name} took discs {_and(sorted(missing))} from the tray; choose one",
                    p.name,
                )
            return Problem(
                "disc-order",
                f"{p.name} took disc {_and(sorted(missing))} from the tray during round "
                f"{game.round}'s action phase; discs are chosen before the turns",
                p.name,
            )

        # cubes
        supply = game.supply()
        played = _cubes_played(game) if refiller is not None else 0
        for t in range(1, 16):
            gone = _minus(table.territories[t - 1] - game.territory(t))
            if gone.total():
                return Problem(
                    "cube-moved",
                    f"{gone.describe()} left territory {t}; played cubes never move",
                    who,
                )
        taken: dict[str, Cubes] = {}
        for p in self.players:
            seat = self._seat[p.name]
            court = table.courts.get(seat, NO_CUBES) - game.court(p.name)
            gone = _minus(court)
            if refiller is not None:
                gone = Cubes(n if supply[i] >= played else 0 for i, n in enumerate(gone))
            if gone.total():
                return Problem(
                    "cube-moved",
                    f"{gone.describe()} left {p.name}'s court; played cubes never move",
                    who,
                )
            taken[p.name] = game.reserve(p.name) - table.reserves.get(seat, NO_CUBES)
        for p in self.players:
            name = p.name
            grown = _minus(taken[name])
            if grown.total():
                if name == refiller:
                    if grown.total() > played:
                        return Problem(
                            "refill-count",
                            f"{name} took {grown.total()} cubes into his reserve; the refill is "
                            f"{played}",
                            name,
                        )
                elif action and step is Step.EMPEROR and name == mover:
                    return Problem(
                        "turn-order", f"{name} must move the emperor before refilling", name
                    )
                else:
                    return Problem(
                        "refill-count",
                        f"{name}'s reserve gained {grown.describe()} outside a refill",
                        name,
                    )
            out = _plus(taken[name])
            if not out.total():
                continue
            if name == actor:
                want = game.cubes_to_play(name)
                if out.total() > want:
                    return Problem(
                        "cube-count",
                        f"{name} took {out.total()} cubes from his reserve; a turn plays "
                        f"exactly {want}",
                        name,
                    )
                if name != self._chores.castles_by:
                    next_started = True
            elif name == done:
                return Problem(
                    "cube-count",
                    f"{name} played a cube more after his {_cubes_played(game)}; a turn plays "
                    f"exactly {game.cubes_per_turn}",
                    name,
                )
            else:
                if actor is not None:
                    own = self._placement(game, table, actor)
                    if not _plus(own.taken).covers(_plus(own.placed)):
                        return Problem(
                            "not-in-reserve",
                            f"{actor} took {out.describe()} from {name}'s reserve; cubes come "
                            f"from one's own reserve",
                            actor,
                        )
                if phase is Phase.OPENING:
                    message = (
                        f"{name} cannot play cubes yet: the discs of round {game.round} are "
                        f"being chosen"
                    )
                elif step is Step.EMPEROR and self._next_player(game) == name:
                    message = f"{name} must wait: {mover} has not moved the emperor yet"
                else:
                    message = f"it is {actor or mover}'s turn, not {name}'s"
                return Problem("turn-order", message, name)
        for p in self.players:
            court_up = _plus(table.courts.get(self._seat[p.name], NO_CUBES) - game.court(p.name))
            if court_up.total() and p.name != actor:
                return Problem(
                    "wrong-court",
                    f"{court_up.describe()} went into {p.name}'s court; each player plays only "
                    f"to his own court",
                    who,
                )
        if actor is not None:
            own = self._placement(game, table, actor)
            if not _plus(own.taken).covers(_plus(own.placed)):
                extra = _plus(own.placed - _plus(own.taken))
                return Problem(
                    "not-in-reserve",
                    f"{extra.describe()} came onto the table but not from {actor}'s reserve",
                    actor,
                )
        else:
            arrived = sum(
                (_plus(table.territories[t - 1] - game.territory(t)) for t in range(1, 16)),
                NO_CUBES,
            )
            if arrived.total():
                if done is not None:
                    return Problem(
                        "cube-count",
                        f"{arrived.describe()} more on the ring after {done}'s "
                        f"{_cubes_played(game)} cubes; a turn plays exactly "
                        f"{game.cubes_per_turn}",
                        done,
                    )
                return Problem(
                    "turn-order",
                    f"{arrived.describe()} arrived on the ring outside a player's turn",
                    who,
                )

        # the emperor
        if self._emperor_steps(game, table):
            if phase is Phase.OPENING:
                return Problem(
                    "turn-order",
                    "the emperor moved while the discs are being chosen",
                    who,
                )
            if step is Step.CUBES:
                return Problem(
                    "turn-order",
                    f"{mover} must play his {game.cubes_to_play(mover or '')} cubes before "
                    f"moving the emperor",
                    mover,
                )
            if refiller is not None:
                if actor is None:
                    return Problem(
                        "turn-order",
                        f"the emperor moved again after {refiller}'s move",
                        refiller,
                    )
                own = self._placement(game, table, actor)
                if own.placed.total() < game.cubes_to_play(actor):
                    return Problem(
                        "turn-order",
                        f"{actor} must play his {game.cubes_to_play(actor)} cubes before moving "
                        f"the emperor",
                        actor,
                    )

        # castles
        chores = self._chores
        late = bool(chores.castles) and (
            next_started or any(not _automatic(m) for m in game.move_stack[chores.castles_at + 1 :])
        )
        for t in range(1, 16):
            seen = table.castles[t - 1]
            if t in chores.castles:
                old, new = chores.castles[t]
                allowed = {
                    castle_of(old),
                    NO_CASTLE,
                    castle_of(new),
                    tuple(a + b for a, b in zip(castle_of(old), castle_of(new), strict=True)),
                }
                if seen in allowed:
                    continue
            else:
                rightful = castle_of(game.owner(t))
                if seen == rightful:
                    continue
                if all(s <= w for s, w in zip(seen, rightful, strict=True)):
                    continue  # missing: judged below
            intruders = [
                c
                for c, s, w in zip(CASTLE_COLOURS, seen, castle_of(game.owner(t)), strict=True)
                if s > w
            ]
            intruder = intruders[0] if intruders else "second"
            return Problem(
                "castle-unearned",
                f"a {intruder} castle stands on territory {t}, where the rules built none",
                who,
            )
        for t in range(1, 16):
            seen = table.castles[t - 1]
            if t in chores.castles:
                if late and seen != castle_of(chores.castles[t][1]):
                    who_next = actor or mover or chores.castles_by
                    return Problem(
                        "castle-missing",
                        f"{who_next}'s turn began before the castles were done: "
                        f"{self._castle_words(chores.castles)}",
                        chores.castles_by,
                    )
                continue
            side = game.owner(t)
            if side is not None and seen != castle_of(side):
                return Problem(
                    "castle-missing",
                    f"the {side} castle on territory {t} is missing",
                    who,
                )

        # cylinders
        for i, hue in enumerate(COLOURS):
            seen_place = table.cylinders[i]
            if seen_place is None or seen_place == "pool":
                continue
            place = self._cylinder_place(game, hue)
            if seen_place in (place, chores.cylinders.get(hue)):
                continue
            if actor is not None and self._seat[actor] == seen_place:
                counts = {s: table.courts.get(s, NO_CUBES)[i] for s in self._seat.values()}
                mine = counts.pop(seen_place)
                if all(mine > n for n in counts.values()):
                    continue  # he is about to gain it
            return Problem(
                "cylinder-wrong",
                f"the {hue} cylinder stands on {self._place_name(seen_place)}, which does "
                f"not control {hue}; it belongs {'in' if place == 'pool' else 'on'} "
                f"{self._place_name(place)}",
                who,
            )
        return None


def _cubes_played(game: Game) -> int:
    for move in reversed(game.move_stack):
        if isinstance(move, PlayCubes):
            return move.count()
    return 0


def _automatic(move: Move) -> bool:
    """A move the referee plays without anyone touching the table (no cubes left)."""
    if isinstance(move, PlayCubes):
        return move.count() == 0
    return isinstance(move, Refill) and not move.colours


def _sentence(words: str) -> str:
    return words[:1].upper() + words[1:] + "."


def _and(items: Sequence[object]) -> str:
    words = [str(i) for i in items]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _say_move(move: Move) -> str:
    if isinstance(move, ChooseDisc):
        return f"{move.player} chose disc {move.number}"
    if isinstance(move, PlayCubes):
        return f"{move.player} played {Cubes.of(move.colours()).describe()}"
    if isinstance(move, MoveEmperor):
        return f"{move.player} moved the emperor {move.steps} step{'s' if move.steps > 1 else ''}"
    return f"{move.player} refilled {Cubes.of(move.colours).describe()}"


def _move_json(move: Move) -> dict[str, object]:
    if isinstance(move, ChooseDisc):
        return {"move": "disc", "player": move.player, "number": move.number}
    if isinstance(move, PlayCubes):
        return {
            "move": "cubes",
            "player": move.player,
            "court": list(move.court),
            "territories": {str(k): list(c) for k, c in move.territories},
        }
    if isinstance(move, MoveEmperor):
        return {"move": "emperor", "player": move.player, "steps": move.steps}
    return {"move": "refill", "player": move.player, "colours": list(move.colours)}


__all__ = ["Colour", "Problem", "Snapshot", "TableReferee", "castle_of"]
