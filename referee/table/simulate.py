"""A simulated table: a recorded game played onto the mat the way people play it.

For tests, benchmarks and the appliance's demo: `simulate` turns a game record into a
``carolus-snapshot/1`` stream. People move one piece at a time; while a hand is over the
mat the frames are flagged occluded and their counts are garbage; now and then the
camera misreads a settled table for one or two frames without noticing. Cylinders are
often moved late, castles of a takeover are swapped one by one, the next player may put
down his first cube before the refill is complete, and illegal acts (a fourth cube, a
cube into another court, the emperor too far …) can be injected and then undone; the
stream says when each stood so that a test can check the referee flagged it.

The stream keeps the promises of ``docs/table.md``: at least 5 frames per real
state, unflagged misreads of at most 2 frames.
"""

from __future__ import annotations

import copy
import dataclasses
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from referee.events import CastleBuilt, CastleTaken, ControlGained, Event
from referee.game import Game, Phase
from referee.moves import ChooseDisc, Move, MoveEmperor, PlayCubes, Refill
from referee.pieces import CASTLE_COLOURS, COLOURS, SEATS
from referee.record import Record
from referee.table.snapshot import FORMAT

SEAT_ORDER = SEATS


@dataclass
class Mat:
    """The pieces on the simulated mat, as mutable counts."""

    territories: list[list[int]] = field(default_factory=lambda: [[0] * 5 for _ in range(15)])
    castles: list[list[int]] = field(default_factory=lambda: [[0] * 3 for _ in range(15)])
    emperor: int | None = None
    courts: dict[str, list[int]] = field(default_factory=lambda: {s: [0] * 5 for s in SEATS})
    reserves: dict[str, list[int]] = field(default_factory=lambda: {s: [0] * 5 for s in SEATS})
    cylinders: list[str | None] = field(default_factory=lambda: ["pool"] * 5)
    discs: dict[str, set[int]] = field(default_factory=lambda: {s: set() for s in SEATS})

    def to_json(self) -> dict[str, Any]:
        return {
            "territories": {
                str(i + 1): {
                    "cubes": dict(zip(COLOURS, self.territories[i], strict=True)),
                    "castles": dict(zip(CASTLE_COLOURS, self.castles[i], strict=True)),
                }
                for i in range(15)
            },
            "emperor": self.emperor,
            "courts": {s: dict(zip(COLOURS, c, strict=True)) for s, c in self.courts.items()},
            "reserves": {s: dict(zip(COLOURS, c, strict=True)) for s, c in self.reserves.items()},
            "cylinders": dict(zip(COLOURS, self.cylinders, strict=True)),
            "discs": {s: sorted(d) for s, d in self.discs.items()},
        }


Act = Callable[[Mat], None]


@dataclass
class Action:
    """One thing a person does on the mat (one piece, usually)."""

    act: Act
    what: str
    cylinder: str | None = None  # colour, for a cylinder move (may be done late)
    illegal: str | None = None  # expected code while the state it leaves stands
    undoes: bool = False  # this action ends an illegal act
    move: int = -1  # the move of the record it belongs to (-1: set-up and extras)


@dataclass
class IllegalAct:
    """An injected illegal act: what the referee must say while it stands."""

    code: str
    what: str
    start: float  # t of the first frame that shows it
    end: float  # t of the first frame of the act that puts it right


@dataclass
class Stream:
    snapshots: list[dict[str, Any]]
    illegal: list[IllegalAct]


@dataclass
class Options:
    flicker: float = 0.3  # chance that a settled state shows a 1-2 frame misread
    blind: float = 0.05  # chance of a frame without the mat while a hand moves
    late_cylinders: float = 0.5
    interleave: float = 0.5  # next player's first cube before the refill is complete
    illegal: float = 0.0  # chance of an injected illegal act at each opportunity
    fps: float = 5.0
    kinds: tuple[str, ...] | None = None  # illegal acts to inject (None: all)
    merge: float = 0.0  # chance that a hand goes straight on to the next piece of a move


def moves_of(record: Record) -> Iterator[Move]:
    for rnd in record.rounds:
        for player, number in rnd.discs:
            yield ChooseDisc(player, number)
        for turn in rnd.turns:
            yield turn.cube_play()
            yield turn.emperor_move()
            if turn.refill is not None:
                yield turn.refill_move()


ILLEGAL_KINDS = (
    "disc-order",
    "wrong-court",
    "not-in-reserve",
    "cube-count",
    "turn-order",
    "emperor-steps",
    "cube-moved",
    "castle-unearned",
    "castle-missing",
    "cylinder-wrong",
)


def simulate(record: Record, rng: random.Random, options: Options | None = None) -> Stream:
    """The snapshot stream of ``record`` played on a simulated mat."""
    sim = Simulator(record, rng, options or Options())
    sim.plan()
    sim.run()
    return Stream(sim.frames, sim.illegal)


class Simulator:
    def __init__(self, record: Record, rng: random.Random, options: Options) -> None:
        self.record = record
        self.rng = rng
        self.options = options
        self.players = record.setup.players
        self.seat = {p.name: p.seat or "" for p in self.players}
        self.mat = Mat()  # the mat as the frames show it
        self.planned = Mat()  # the mat as planned so far
        for p in self.players:
            self.mat.discs[self.seat[p.name]] = set(range(1, 6))
            self.planned.discs[self.seat[p.name]] = set(range(1, 6))
        self.actions: list[Action] = []
        self.move_index = -1
        self.deferred: list[list[Any]] = []  # [countdown, cylinder action]
        self.frames: list[dict[str, Any]] = []
        self.illegal: list[IllegalAct] = []

    # ------------------------------------------------------------- frames

    @property
    def t(self) -> float:
        return round(len(self.frames) / self.options.fps, 3)

    def _frame(self, table: dict[str, Any], occluded: bool = False, mat: bool = True) -> None:
        self.frames.append(
            {"format": FORMAT, "t": self.t, "mat": mat, "occluded": occluded, **table}
        )

    def hold(self, frames: int | None = None) -> None:
        """The state stands for 5-7 frames, perhaps with one short misread inside."""
        frames = frames or self.rng.randint(5, 7)
        clean = self.mat.to_json()
        burst_at, burst = -1, 0
        if self.rng.random() < self.options.flicker:
            burst = self.rng.randint(1, 2)
            burst_at = self.rng.randint(1, frames - burst)
        misread = self._misread(clean) if burst else clean
        for i in range(frames):
            self._frame(misread if burst_at <= i < burst_at + burst else clean)

    def hand(self) -> None:
        """A hand over the mat: 1-3 occluded frames of garbage (or no mat at all)."""
        for _ in range(self.rng.randint(1, 3)):
            if self.rng.random() < self.options.blind:
                self._frame(_garbage(self.rng, zero=True), mat=False)
            else:
                self._frame(_garbage(self.rng), occluded=True)

    def _misread(self, clean: dict[str, Any]) -> dict[str, Any]:
        """The clean table with one zone read wrong."""
        rng = self.rng
        table = copy.deepcopy(clean)
        kind = rng.choice(
            ("territory", "reserve", "court", "emperor", "cylinder", "disc", "castle")
        )
        colour = rng.choice(COLOURS)
        if kind in ("territory", "castle"):
            spot = table["territories"][str(rng.randint(1, 15))]
            if kind == "territory":
                cubes = spot["cubes"]
                cubes[colour] = cubes[colour] - 1 if cubes[colour] else 1
            else:
                spot["castles"]["grey"] += 1
        elif kind in ("reserve", "court"):
            cubes = table[kind + "s"][rng.choice(SEATS)]
            cubes[colour] = cubes[colour] - 1 if cubes[colour] else 1
        elif kind == "emperor":
            table["emperor"] = None if table["emperor"] is not None else 1
        elif kind == "cylinder":
            table["cylinders"][colour] = None if table["cylinders"][colour] else "pool"
        else:
            seat = rng.choice(SEATS)
            discs = set(table["discs"][seat]) ^ {rng.randint(1, 5)}
            table["discs"][seat] = sorted(discs)
        return table

    def run(self) -> None:
        """Play the planned actions onto the mat, frame by frame."""
        self.hold(8)
        standing: tuple[str, str, float] | None = None
        for n, action in enumerate(self.actions):
            if standing is not None and action.undoes:
                code, what, start = standing
                self.illegal.append(IllegalAct(code, what, start, self.t))
                standing = None
            self.hand()
            action.act(self.mat)
            if action.illegal is not None:
                standing = (action.illegal, action.what, self.t)
            following = self.actions[n + 1] if n + 1 < len(self.actions) else None
            if (
                standing is None
                and not action.undoes
                and following is not None
                and following.illegal is None
                and following.move == action.move >= 0
                and self.chance(self.options.merge)
            ):
                continue  # the hand stays over the mat for the next piece
            self.hold()
        self.hold(10)

    # ----------------------------------------------------------- planning

    def emit(self, action: Action, flush: bool = False) -> None:
        if action.move < 0 and action.cylinder is None:
            action.move = self.move_index
        self.actions.append(action)
        action.act(self.planned)
        if action.cylinder is None and not action.illegal and not action.undoes:
            for entry in self.deferred:
                entry[0] -= 1
            due = [e for e in self.deferred if e[0] <= 0]
            self.deferred = [e for e in self.deferred if e[0] > 0]
            for _, cylinder in due:
                self.emit(cylinder)
        if flush:
            self.flush()

    def flush(self) -> None:
        due, self.deferred = self.deferred, []
        for _, cylinder in due:
            self.emit(cylinder)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def plan(self) -> None:
        setup = self.record.setup
        for lo in (0, 5, 10):
            self.emit(
                Action(_put_setup(setup.territories, lo, lo + 5), f"set-up {lo + 1}-{lo + 5}")
            )
        self.emit(Action(_set_emperor(setup.emperor), "emperor placed"))
        for p in self.players:
            self.emit(Action(_fill_reserve(self.seat[p.name], setup.reserves[p.name]), "reserve"))
        game = Game(setup)
        moves = list(moves_of(self.record))
        early: dict[int, Action] = {}  # first cube of a play, already done
        i = 0
        while i < len(moves):
            move = moves[i]
            self.move_index = i
            if isinstance(move, ChooseDisc):
                done = early.pop(i, None)
                if not game.chosen_discs() and done is None:
                    self._maybe_disc_order(game)
                game.push(move)
                if done is None:
                    self.emit(Action(_take_disc(self.seat[move.player], move.number), "disc"))
            elif isinstance(move, PlayCubes):
                self._play(game, move, early.pop(i, None))
            elif isinstance(move, MoveEmperor):
                castles = self._emperor(game, move)
                refill = i + 1 < len(moves) and isinstance(moves[i + 1], Refill)
                after = moves[i + 2] if i + 2 < len(moves) else None
                if (
                    castles
                    and refill
                    and isinstance(after, PlayCubes)
                    and after.count() > 0
                    and self._inject("castle-missing")
                ):
                    first = self._cube_actions(after)[0]
                    first.illegal = "castle-missing"
                    early[i + 2] = first
                    self.emit(first)
                    castles[-1].undoes = True
                for action in castles:
                    self.emit(action)
                if not game.is_over and refill:
                    self._maybe_castle_unearned(game)
            else:
                assert isinstance(move, Refill)
                after = moves[i + 1] if i + 1 < len(moves) else None
                first = None
                if (
                    isinstance(after, PlayCubes)
                    and after.count() > 0
                    and i + 1 not in early
                    and self.chance(self.options.interleave)
                ):
                    first = self._cube_actions(after)[0]
                    early[i + 1] = first
                elif (
                    isinstance(after, ChooseDisc)
                    and game.round % 5
                    and self.chance(self.options.interleave)
                ):
                    # the next round's first disc taken while the refill arrives
                    seat = self.seat[after.player]
                    first = Action(_take_disc(seat, after.number), "disc")
                    early[i + 1] = first
                self._refill(game, move, first)
            i += 1
        self.flush()

    def _inject(self, kind: str) -> bool:
        allowed = self.options.kinds if self.options.kinds is not None else ILLEGAL_KINDS
        return kind in allowed and self.chance(self.options.illegal)

    def _cube_actions(self, move: PlayCubes) -> list[Action]:
        seat = self.seat[move.player]
        places: list[tuple[str, int | None]] = [(c, None) for c in move.court]
        places += [(c, int(t)) for t, colours in move.territories for c in colours]
        self.rng.shuffle(places)
        return [Action(_place_cube(seat, c, t), f"cube {c} to {t or 'court'}") for c, t in places]

    def _play(self, game: Game, move: PlayCubes, done: Action | None) -> None:
        seat = self.seat[move.player]
        actions = self._cube_actions(move)
        if done is not None:
            # the first cube was put down early: play the others (same cubes, minus it)
            actions = self._without(actions, done)
        events = game.push(move)
        for n, action in enumerate(actions):
            self.emit(action)
            if n == 0 and len(actions) > 1 and done is None:
                self._maybe_mid_play(game, move)
        self._cylinders(events)
        self._maybe_after_play(game, move, seat)

    def _without(self, actions: list[Action], done: Action) -> list[Action]:
        for n, action in enumerate(actions):
            if action.what == done.what:
                return actions[:n] + actions[n + 1 :]
        raise AssertionError("the early cube is not part of the play")

    def _cylinders(self, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, ControlGained):
                action = Action(
                    _set_cylinder(event.colour, self.seat[event.player]),
                    f"{event.colour} cylinder",
                    cylinder=event.colour,
                )
                delay = self.rng.randint(1, 6) if self.chance(self.options.late_cylinders) else 0
                same = [e for e in self.deferred if e[1].cylinder == event.colour]
                if same:
                    same[0][1] = action  # it never went to the first new holder
                elif delay:
                    self.deferred.append([delay, action])
                else:
                    self.emit(action)

    def _emperor(self, game: Game, move: MoveEmperor) -> list[Action]:
        units = game.units()
        index = {t: n for n, unit in enumerate(units) for t in unit}
        here = index[game.emperor]
        self._maybe_emperor_steps(game, move, units, here)
        target = units[(here + move.steps) % len(units)]
        tile = self.rng.choice(target)
        events = game.push(move)
        self.emit(Action(_set_emperor(tile), f"emperor to {tile}"))
        castles: list[Action] = []
        for event in events:
            if isinstance(event, CastleBuilt):
                for t in event.territories:
                    castles.append(Action(_castle(t, event.side, 1), f"build {event.side} on {t}"))
            elif isinstance(event, CastleTaken):
                spots = list(event.territories)
                self.rng.shuffle(spots)
                for t in spots:
                    swap = [
                        Action(_castle(t, event.previous, -1), f"lift {event.previous} from {t}"),
                        Action(_castle(t, event.side, 1), f"put {event.side} on {t}"),
                    ]
                    if self.chance(0.5):
                        swap.reverse()
                    castles += swap
        return castles

    def _refill(self, game: Game, move: Refill, early: Action | None) -> None:
        for colour, k in move.returned:
            for p in self.players:
                held = game.court(p.name)[COLOURS.index(colour)]
                if held:
                    self.emit(
                        Action(
                            _place_cube(self.seat[p.name], colour, None, -min(k, held)),
                            f"{p.name} returns {colour}",
                        )
                    )
        events = game.push(move)
        seat = self.seat[move.player]
        colours = list(move.colours)
        self.rng.shuffle(colours)
        for n, colour in enumerate(colours):
            if early is not None and n == len(colours) - 1:
                self.emit(early)
            self.emit(Action(_refill_cube(seat, colour), f"refill {colour}"))
        if early is not None and not colours:
            self.emit(early)
        self._cylinders(events)
        if game.phase is Phase.OPENING and (game.round - 1) % 5 == 0:
            for p in self.players:
                self.emit(Action(_discs_back(self.seat[p.name]), "discs back"))

    # ------------------------------------------------------ illegal acts

    def _pair(self, code: str, what: str, do: Act, undo: Act) -> None:
        self.flush()
        self.emit(Action(do, what, illegal=code))
        self.emit(Action(undo, f"undo {what}", undoes=True))

    def _maybe_disc_order(self, game: Game) -> None:
        order = game.choosing_order()
        if order is None or not self._inject("disc-order"):
            return
        second = order[1]
        disc = self.rng.choice(sorted(game.discs_in_hand(second)))
        seat = self.seat[second]
        self._pair(
            "disc-order",
            f"{second} chose out of turn",
            _take_disc(seat, disc),
            _put_disc(seat, disc),
        )

    def _spare(self, seat: str, keep: list[int] | None = None) -> str | None:
        reserve = list(self.planned.reserves[seat])
        if keep:
            reserve = [a - b for a, b in zip(reserve, keep, strict=True)]
        colours = [c for c, n in zip(COLOURS, reserve, strict=True) if n > 0]
        return self.rng.choice(colours) if colours else None

    def _maybe_mid_play(self, game: Game, move: PlayCubes) -> None:
        """After the first cube of a play: a cube into another court, or from another
        reserve."""
        seat = self.seat[move.player]
        others = [p.name for p in self.players if p.name != move.player]
        other = self.seat[self.rng.choice(others)]
        rest = [0] * 5
        for c in move.colours():
            rest[COLOURS.index(c)] += 1
        if self._inject("wrong-court"):
            colour = self._spare(seat, rest)
            if colour:
                self._pair(
                    "wrong-court",
                    f"{move.player} played into {other}'s court",
                    _move_cube(seat, colour, ("court", other)),
                    _move_cube(seat, colour, ("court", other), back=True),
                )
        elif self._inject("not-in-reserve"):
            colour = self._spare(other)
            if colour:
                self._pair(
                    "not-in-reserve",
                    f"{move.player} took from {other}'s reserve",
                    _move_cube(other, colour, ("court", seat)),
                    _move_cube(other, colour, ("court", seat), back=True),
                )

    def _maybe_after_play(self, game: Game, move: PlayCubes, seat: str) -> None:
        """Between the last cube and the emperor: a 4th cube, someone else's cube, a
        played cube moved, a cylinder on the wrong court."""
        kinds = ["cube-count", "turn-order", "cube-moved", "cylinder-wrong"]
        self.rng.shuffle(kinds)
        for kind in kinds:
            if not self._inject(kind):
                continue
            t = self.rng.randint(1, 15)
            if kind == "cube-count":
                colour = self._spare(seat)
                if colour:
                    self._pair(
                        kind,
                        f"{move.player} played a 4th cube",
                        _move_cube(seat, colour, ("territory", t)),
                        _move_cube(seat, colour, ("territory", t), back=True),
                    )
                    return
            elif kind == "turn-order":
                other = self.rng.choice([p.name for p in self.players if p.name != move.player])
                colour = self._spare(self.seat[other])
                if colour:
                    self._pair(
                        kind,
                        f"{other} played out of turn",
                        _move_cube(self.seat[other], colour, ("territory", t)),
                        _move_cube(self.seat[other], colour, ("territory", t), back=True),
                    )
                    return
            elif kind == "cube-moved":
                self.flush()
                full = [n for n in range(15) if any(self.planned.territories[n])]
                spot = self.rng.choice(full)
                colour = self.rng.choice(
                    [c for c, k in zip(COLOURS, self.planned.territories[spot], strict=True) if k]
                )
                self._pair(
                    kind,
                    f"a cube taken off territory {spot + 1}",
                    _place_cube(None, colour, spot + 1, -1),
                    _place_cube(None, colour, spot + 1, 1),
                )
                return
            else:
                self.flush()
                colour = self.rng.choice(COLOURS)
                holder = game.controller(colour)
                rightful = "pool" if holder is None else self.seat[holder]
                if self.planned.cylinders[COLOURS.index(colour)] != rightful:
                    continue
                seats = [self.seat[p.name] for p in self.players if self.seat[p.name] != rightful]
                wrong = self.rng.choice(seats)
                self._pair(
                    kind,
                    f"{colour} cylinder on {wrong}",
                    _set_cylinder(colour, wrong),
                    _set_cylinder(colour, rightful),
                )
                return

    def _maybe_emperor_steps(
        self, game: Game, move: MoveEmperor, units: list[tuple[int, ...]], here: int
    ) -> None:
        disc = game.disc(move.player) or 0
        wrong = [k for k in range(1, len(units)) if k > disc]
        if not wrong or not self._inject("emperor-steps"):
            return
        steps = self.rng.choice(wrong)
        tile = self.rng.choice(units[(here + steps) % len(units)])
        back = self.planned.emperor
        assert back is not None
        self._pair(
            "emperor-steps", f"emperor moved {steps} steps", _set_emperor(tile), _set_emperor(back)
        )

    def _maybe_castle_unearned(self, game: Game) -> None:
        free = [t for t in range(1, 16) if game.owner(t) is None]
        if not free or not self._inject("castle-unearned"):
            return
        t = self.rng.choice(free)
        side = self.rng.choice(game.sides)
        self._pair(
            "castle-unearned", f"{side} castle on {t}", _castle(t, side, 1), _castle(t, side, -1)
        )


# ---------------------------------------------------------------- acts


def _put_setup(territories: tuple[str, ...], lo: int, hi: int) -> Act:
    def act(mat: Mat) -> None:
        for n in range(lo, hi):
            mat.territories[n][COLOURS.index(territories[n])] += 1  # type: ignore[arg-type,unused-ignore]

    return act


def _set_emperor(tile: int | None) -> Act:
    def act(mat: Mat) -> None:
        mat.emperor = tile

    return act


def _fill_reserve(seat: str, colours: Any) -> Act:
    def act(mat: Mat) -> None:
        for c in colours:
            mat.reserves[seat][COLOURS.index(c)] += 1

    return act


def _take_disc(seat: str, number: int) -> Act:
    def act(mat: Mat) -> None:
        mat.discs[seat].discard(number)

    return act


def _put_disc(seat: str, number: int) -> Act:
    def act(mat: Mat) -> None:
        mat.discs[seat].add(number)

    return act


def _discs_back(seat: str) -> Act:
    def act(mat: Mat) -> None:
        mat.discs[seat] = set(range(1, 6))

    return act


def _place_cube(seat: str | None, colour: str, territory: int | None, n: int = 1) -> Act:
    """``n`` cubes from ``seat``'s reserve to its court (``territory`` None) or a
    territory; a negative ``n`` takes cubes off to the supply; ``seat`` None: the cubes
    come from (or go to) the supply."""
    i = COLOURS.index(colour)  # type: ignore[arg-type,unused-ignore]

    def act(mat: Mat) -> None:
        if seat is not None and n > 0:
            mat.reserves[seat][i] -= n
        if territory is None:
            assert seat is not None
            mat.courts[seat][i] += n
        else:
            mat.territories[territory - 1][i] += n

    return act


def _move_cube(seat: str, colour: str, to: tuple[str, Any], back: bool = False) -> Act:
    i = COLOURS.index(colour)  # type: ignore[arg-type,unused-ignore]
    sign = -1 if back else 1

    def act(mat: Mat) -> None:
        mat.reserves[seat][i] -= sign
        if to[0] == "court":
            mat.courts[to[1]][i] += sign
        else:
            mat.territories[to[1] - 1][i] += sign

    return act


def _refill_cube(seat: str, colour: str) -> Act:
    i = COLOURS.index(colour)  # type: ignore[arg-type,unused-ignore]

    def act(mat: Mat) -> None:
        mat.reserves[seat][i] += 1

    return act


def _castle(territory: int, side: str, n: int) -> Act:
    i = CASTLE_COLOURS.index(side)  # type: ignore[arg-type,unused-ignore]

    def act(mat: Mat) -> None:
        mat.castles[territory - 1][i] += n

    return act


def _set_cylinder(colour: str, place: str) -> Act:
    i = COLOURS.index(colour)  # type: ignore[arg-type,unused-ignore]

    def act(mat: Mat) -> None:
        mat.cylinders[i] = place

    return act


def _garbage(rng: random.Random, zero: bool = False) -> dict[str, Any]:
    """What the camera makes of a mat under a hand (or, ``zero``, of no mat at all)."""

    def cubes() -> dict[str, int]:
        return {c: 0 if zero else rng.choice((0, 0, 0, 1, 2)) for c in COLOURS}

    return {
        "territories": {
            str(t): {
                "cubes": cubes(),
                "castles": {c: 0 if zero else rng.choice((0, 0, 1)) for c in CASTLE_COLOURS},
            }
            for t in range(1, 16)
        },
        "emperor": None if zero else rng.choice((None, rng.randint(1, 15))),
        "courts": {s: cubes() for s in SEATS},
        "reserves": {s: cubes() for s in SEATS},
        "cylinders": {c: None if zero else rng.choice((None, "pool", *SEATS)) for c in COLOURS},
        "discs": {
            s: [] if zero else sorted(rng.sample(range(1, 6), rng.randint(0, 5))) for s in SEATS
        },
    }


DEFAULT_SEATS = {2: ("south", "north"), 3: ("south", "west", "north"), 4: SEATS}


def seated(record: Record) -> Record:
    """The record with every player given a seat (the usual ones when it names none)."""
    players = record.setup.players
    if all(p.seat for p in players):
        return record
    seats = DEFAULT_SEATS.get(len(players), SEATS)
    with_seats = tuple(dataclasses.replace(p, seat=seats[i]) for i, p in enumerate(players))
    return dataclasses.replace(record, setup=dataclasses.replace(record.setup, players=with_seats))


def main(argv: list[str] | None = None) -> int:
    """``python -m referee.table.simulate RECORD OUT.jsonl``: a record played onto the
    simulated table, for demos and for trying ``carolus follow``."""
    import argparse
    import json

    from referee.record import MalformedRecordError, load

    parser = argparse.ArgumentParser(
        prog="python -m referee.table.simulate",
        description="Play a game record onto a simulated table: one snapshot per line.",
    )
    parser.add_argument("record", help="a carolus-record/1 file")
    parser.add_argument("out", help="where to write the .jsonl snapshots")
    parser.add_argument("--seed", type=int, default=0, help="seed of the simulated hands")
    parser.add_argument("--illegal", type=float, default=0.0, help="chance of illegal acts")
    parser.add_argument("--flicker", type=float, default=0.3, help="chance of a misread")
    args = parser.parse_args(argv)
    try:
        record = seated(load(args.record))
    except MalformedRecordError as exc:
        print(f"{args.record}: {exc}", file=sys.stderr)
        return 2
    stream = simulate(
        record, random.Random(args.seed), Options(illegal=args.illegal, flicker=args.flicker)
    )
    try:
        with open(args.out, "w", encoding="utf-8") as out:
            for snapshot in stream.snapshots:
                out.write(json.dumps(snapshot, separators=(",", ":")) + "\n")
    except OSError as exc:
        print(f"{args.out}: cannot write ({exc.strerror or exc})", file=sys.stderr)
        return 2
    players = ",".join(f"{p.seat}={p.name}:{p.castles}" for p in record.setup.players)
    print(
        f"{args.out}: {len(stream.snapshots)} snapshots; follow them with\n"
        f"  carolus follow {args.out} --players {players}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
