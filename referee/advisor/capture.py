"""The cheapest way for one player to win one unit: the question under every threat.

A player changes a unit's majority in two ways only: cubes into his court win colours
(which then count for his side there, and stop counting for the side that held them),
and cubes of colours his side controls into the unit. `cheapest_capture` tries every
set of colours worth winning (at most 32) and tops the rest up with cubes, so its answer
is exact for one turn: the fewest cubes, within the reserve and the turn's count when
they are given, that make his side build or take over the unit.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.advisor.board import ZERO, Board, Vec


@dataclass(frozen=True)
class Capture:
    """Cubes that make ``player``'s side win unit ``unit``: ``court`` (colours won) and
    ``placed`` (cubes put there), and the strengths per side afterwards."""

    player: int
    unit: int
    court: Vec
    placed: Vec
    strengths: tuple[int, ...]

    @property
    def cubes(self) -> int:
        return sum(self.court) + sum(self.placed)

    def colours_won(self) -> tuple[int, ...]:
        return tuple(c for c in range(5) if self.court[c])


def colour_need(board: Board, p: int, c: int) -> int:
    """Cubes of colour ``c`` player ``p`` must add to his court to control it
    (0 when he already does)."""
    if board.control[c] == p:
        return 0
    mine = board.courts[p][c]
    best_other = max(court[c] for q, court in enumerate(board.courts) if q != p)
    return max(1, best_other - mine + 1)


def cheapest_capture(
    board: Board, p: int, u: int, reserve: Vec | None = None, budget: int | None = None
) -> Capture | None:
    """The fewest cubes with which player ``p`` makes his side build on or take over
    unit ``u`` when the emperor stops there; ``None`` when he cannot (or his side owns
    it). ``reserve``/``budget`` bound the cubes (``None``: unbounded, for exposure)."""
    side = board.side_of[p]
    if board.owner[u] == side:
        return None
    flips: list[tuple[int, int]] = []
    for c in range(5):
        holder = board.control[c]
        if holder >= 0 and board.side_of[holder] == side:
            continue  # his side already counts it
        need = colour_need(board, p, c)
        if reserve is not None and need > reserve[c]:
            continue
        if budget is not None and need > budget:
            continue
        flips.append((c, need))
    best: Capture | None = None
    for mask in range(1 << len(flips)):
        court = [0, 0, 0, 0, 0]
        control = list(board.control)
        cost = 0
        for i, (c, need) in enumerate(flips):
            if mask >> i & 1:
                court[c] = need
                cost += need
                control[c] = p
        if budget is not None and cost > budget:
            continue
        if best is not None and cost > best.cubes:
            continue
        ctl = tuple(control)
        totals = board.strengths(u, ctl)
        mine = totals[side]
        others = max(t for s, t in enumerate(totals) if s != side)
        deficit = max(0, others - mine + 1)
        placed = [0, 0, 0, 0, 0]
        if deficit:
            helpful = [c for c in range(5) if ctl[c] >= 0 and board.side_of[ctl[c]] == side]
            if reserve is None:
                if not helpful:
                    continue
                # unbounded: the colour his side holds most safely
                placed[max(helpful, key=lambda c: _margin(board, ctl, c))] = deficit
            else:
                left = deficit
                for c in sorted(helpful, key=lambda c: (court[c] - reserve[c], not court[c])):
                    take = min(left, reserve[c] - court[c])
                    placed[c] += take
                    left -= take
                if left:
                    continue
        total = cost + deficit
        if budget is not None and total > budget:
            continue
        if best is not None and (total, cost) >= (best.cubes, sum(best.court)):
            continue
        after = list(totals)
        after[side] += deficit
        best = Capture(p, u, _v(court), _v(placed), tuple(after))
    return best


def _margin(board: Board, control: tuple[int, ...], c: int) -> int:
    holder = control[c]
    return board.courts[holder][c] - max(
        (court[c] for q, court in enumerate(board.courts) if q != holder), default=0
    )


def _v(counts: list[int]) -> Vec:
    return (counts[0], counts[1], counts[2], counts[3], counts[4]) if any(counts) else ZERO
