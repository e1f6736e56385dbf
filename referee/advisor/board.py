"""A light copy of the table for look-ahead: the advisor's own fast model of one turn.

`Game.push`/`pop` check every move and keep a history; the hint search tries thousands
of plays, so it works on this flat snapshot instead: courts, cylinders, the ring of
units with their cubes and castles, and the emperor. `Board.after` plays one turn's
cubes and emperor stop by the rules (control, build/take, merge, end of game) and is
checked against the engine in the tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.game import Game
from referee.pieces import COLOURS, NO_CUBES, Cubes

Vec = tuple[int, int, int, int, int]


@dataclass(frozen=True)
class Board:
    """The table as plain numbers. Players, sides and units are indices.

    ``units`` run clockwise from the unit holding territory 1; ``owner`` is a side index
    or -1; ``control`` a player index or -1.
    """

    names: tuple[str, ...]
    side_of: tuple[int, ...]  # player -> side
    sides: tuple[str, ...]
    courts: tuple[Vec, ...]
    reserves: tuple[Vec, ...]
    control: tuple[int, ...]
    units: tuple[tuple[int, ...], ...]
    cubes: tuple[Vec, ...]
    owner: tuple[int, ...]
    emperor: int
    goal: int
    per_turn: int
    winner: int | None = None  # side index; -2 for a draw
    over: bool = False

    @classmethod
    def of(cls, game: Game) -> Board:
        names = tuple(p.name for p in game.players)
        sides = tuple(game.sides)
        side_index = {s: i for i, s in enumerate(sides)}
        units = tuple(game.units())
        cubes = tuple(_vec(Cubes.sum([game.territory(t) for t in u]) or NO_CUBES) for u in units)
        owner = tuple(side_index[o] if (o := game.owner(u[0])) is not None else -1 for u in units)
        index = {n: i for i, n in enumerate(names)}
        control = tuple(index[h] if (h := game.controller(c)) is not None else -1 for c in COLOURS)
        emperor = next(i for i, u in enumerate(units) if u[0] == game.emperor)
        return cls(
            names=names,
            side_of=tuple(side_index[game.side_of(n)] for n in names),
            sides=sides,
            courts=tuple(_vec(game.court(n)) for n in names),
            reserves=tuple(_vec(game.reserve(n)) for n in names),
            control=control,
            units=units,
            cubes=cubes,
            owner=owner,
            emperor=emperor,
            goal=game.goal,
            per_turn=game.cubes_per_turn,
        )

    def evolve(self, **changes: Any) -> Board:
        """A copy with ``changes`` (`dataclasses.replace` without its checks: the search
        makes thousands of these)."""
        new = object.__new__(Board)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    # ---------------------------------------------------------------- questions

    def player(self, name: str) -> int:
        return self.names.index(name)

    def strengths(self, u: int, control: tuple[int, ...] | None = None) -> list[int]:
        """Each side's strength in unit ``u`` (cubes of colours its players control plus
        its castles), under ``control`` (default: the board's)."""
        ctl = self.control if control is None else control
        totals = [0] * len(self.sides)
        cubes = self.cubes[u]
        for c in range(5):
            holder = ctl[c]
            if holder >= 0 and cubes[c]:
                totals[self.side_of[holder]] += cubes[c]
        if self.owner[u] >= 0:
            totals[self.owner[u]] += len(self.units[u])
        return totals

    def gainer(self, u: int, control: tuple[int, ...] | None = None) -> int:
        """The side that would build or take over unit ``u`` now, or -1 (nothing changes)."""
        totals = self.strengths(u, control)
        best = max(totals)
        if best <= 0 or totals.count(best) > 1:
            return -1
        leader = totals.index(best)
        return -1 if leader == self.owner[u] else leader

    def castles(self, side: int) -> int:
        return sum(len(u) for u, o in zip(self.units, self.owner, strict=True) if o == side)

    def reach(self, steps: int, start: int | None = None) -> int:
        """The unit the emperor stops on after ``steps`` from ``start`` (default: now)."""
        return ((self.emperor if start is None else start) + steps) % len(self.units)

    def name(self, u: int) -> str:
        unit = self.units[u]
        if len(unit) == 1:
            return f"territory {unit[0]}"
        return "region " + "+".join(str(t) for t in unit)

    def key(self, u: int) -> int:
        """How a play names unit ``u``: its lowest territory."""
        return min(self.units[u])

    # ---------------------------------------------------------------- one turn

    def with_court(self, p: int, court: Vec) -> Board:
        """Cubes added to player ``p``'s court, control re-evaluated (ties keep)."""
        if not any(court):
            return self
        courts = list(self.courts)
        new = plus(courts[p], court)
        courts[p] = new
        control = list(self.control)
        for c in range(5):
            if (
                court[c]
                and control[c] != p
                and all(new[c] > other[c] for q, other in enumerate(courts) if q != p)
            ):
                control[c] = p
        return self.evolve(courts=tuple(courts), control=tuple(control))

    def after(self, p: int, court: Vec, placed: dict[int, Vec], steps: int) -> Board:
        """The board after player ``p`` plays ``court`` cubes and ``placed`` (unit ->
        cubes) from his reserve and moves the emperor ``steps``."""
        board = self.with_court(p, court)
        cubes = list(board.cubes)
        spent = court
        for u, vec in placed.items():
            cubes[u] = plus(cubes[u], vec)
            spent = plus(spent, vec)
        reserves = list(board.reserves)
        reserves[p] = minus(reserves[p], spent)
        board = board.evolve(cubes=tuple(cubes), reserves=tuple(reserves))
        return board.stop(board.reach(steps))

    def stop(self, u: int) -> Board:
        """The emperor stops on unit ``u``: build or take over, merge, check the end."""
        side = self.gainer(u)
        if side < 0:
            return self.evolve(emperor=u)
        owner = list(self.owner)
        owner[u] = side
        units, cubes = list(self.units), list(self.cubes)
        n = len(units)
        left, right = (u - 1) % n, (u + 1) % n
        take_left = left != u and owner[left] == side
        take_right = right != u and right != left and owner[right] == side
        emperor = u
        if take_left or take_right:
            first = left if take_left else u
            pieces = 1 + take_left + take_right
            idx = [(first + i) % n for i in range(pieces)]
            merged_unit = tuple(sorted(t for i in idx for t in units[i]))
            merged_cubes = Cubes.sum([cubes[i] for i in idx])
            entries: list[tuple[tuple[int, ...], Vec, int]] = []
            for i in range(n):
                if i == idx[0]:
                    entries.append((merged_unit, _vec(merged_cubes), side))
                elif i not in idx:
                    entries.append((units[i], cubes[i], owner[i]))
            start = next(k for k, e in enumerate(entries) if 1 in e[0])
            entries = entries[start:] + entries[:start]
            units = [e[0] for e in entries]
            cubes = [e[1] for e in entries]
            owner = [e[2] for e in entries]
            emperor = next(k for k, e in enumerate(entries) if e[0] == merged_unit)
        board = self.evolve(
            units=tuple(units), cubes=tuple(cubes), owner=tuple(owner), emperor=emperor
        )
        return board.ended()

    def ended(self) -> Board:
        for s in range(len(self.sides)):
            if self.castles(s) >= self.goal:
                return self.evolve(winner=s, over=True)
        if len(self.units) < 4:
            counts = [self.castles(s) for s in range(len(self.sides))]
            best = max(counts)
            winner = counts.index(best) if counts.count(best) == 1 else -2
            return self.evolve(winner=winner, over=True)
        return self


def _vec(cubes: tuple[int, ...]) -> Vec:
    return (cubes[0], cubes[1], cubes[2], cubes[3], cubes[4])


def plus(a: Vec, b: Vec) -> Vec:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4])


def minus(a: Vec, b: Vec) -> Vec:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3], a[4] - b[4])


ZERO: Vec = (0, 0, 0, 0, 0)
