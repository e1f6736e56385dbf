"""Hints: the best play for the player to move — cubes and emperor steps — in one line.

The search cannot walk `legal_moves.cube_plays()` (over a million plays), so it builds
its candidates from what can matter this turn:

* **court part** — every handful of the reserve (up to the turn's count) sent to the
  court; it fixes who controls what;
* **board part** — the remaining cubes must be of colours the player's side controls
  afterwards (any other cube counts for nobody or for an opponent, so it goes to the
  court instead, where it never hurts), spread in every way over the unit the emperor
  stops on and up to two units the following opponents threaten; colours are taken
  safest-held first (the threatened units are those the following opponents could
  win, within their reach from where this step leaves the emperor);
* **emperor** — every step count the disc allows.

Each candidate is played on a light `Board` and scored for the player's side:
castles (10 a territory, ahead of the best other side; a win is decisive), colours held
(weighted by their cubes on the ring) and their court margins, and each unit's majority
lead. The best few dozen are then scored again after the **opponents' likely replies**:
the next player (and, at half weight, the one after him) is assumed to make the most
damaging capture his reserve and the emperor's reach allow (`cheapest_capture`, exact
for one turn); a partner's best capture counts for the side. The search looks one
reply deep and ignores the dice of the refill.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from referee.advisor.board import Board, Vec, minus, plus
from referee.advisor.capture import cheapest_capture
from referee.advisor.words import counted, score
from referee.announcements import Said, clause, said
from referee.game import Game, Phase, Step
from referee.moves import PlayCubes
from referee.pieces import COLOUR_INDEX, COLOURS

CASTLE = 10.0
WIN = 1000.0
REPLY_WEIGHT = 0.8
SECOND_REPLY_WEIGHT = 0.4
FINALISTS = 32
KEEP = 8


@dataclass(frozen=True)
class Hint:
    """A suggested turn: ``play`` and ``steps``, its ``score`` and why, in one line."""

    play: PlayCubes
    steps: int
    score: float
    stop: tuple[int, ...]  # the unit the emperor stops on
    outcome: str  # "build", "take" or "nothing" at the stop
    why: str  # a `said` message: English, with its msgid and fields

    def to_json(self) -> dict[str, Any]:
        said_as = (
            {"say": self.why.msgid, "words": self.why.words} if isinstance(self.why, Said) else {}
        )
        return {
            "player": self.play.player,
            "court": list(self.play.court),
            "territories": {str(k): list(v) for k, v in self.play.territories},
            "emperor": self.steps,
            "score": round(self.score, 2),
            "stop": list(self.stop),
            "outcome": self.outcome,
            "why": self.why,
            **said_as,  # the why's msgid and fields: said again in any language
        }


@dataclass(frozen=True)
class _Candidate:
    court: Vec
    placed: tuple[tuple[int, Vec], ...]  # unit index -> cubes
    steps: int
    board: Board  # after the turn
    score: float


@dataclass(frozen=True)
class _Follower:
    player: int
    first: int  # steps past our stop
    last: int
    weight: float


class Search:
    """One hint search from the position of ``game`` (the player to move, cube step)."""

    def __init__(self, game: Game, replies: bool = True) -> None:
        if game.phase is not Phase.ACTION or game.step is not Step.CUBES:
            raise ValueError("a hint needs a player about to play cubes (discs are chosen)")
        player = game.to_move
        assert player is not None
        self.game = game
        self.board = Board.of(game)
        self.p = self.board.player(player)
        self.side = self.board.side_of[self.p]
        self.disc = game.disc(player) or 1
        self.cubes = game.cubes_to_play(player)
        self.replies = replies  # False: no look-ahead (for measuring what it is worth)
        self.followers = self._followers(game)
        self.guard: dict[int, str] = {}  # unit -> the opponent who threatens it
        self.defence = self._defence_units()
        self._colour_memo: dict[object, float] = {}
        self._unit_memo: dict[object, float] = {}
        self._capture_memo: dict[object, bool] = {}
        self.ring = tuple(sum(cubes[c] for cubes in self.board.cubes) for c in range(5))

    # ------------------------------------------------------------- who replies

    def _followers(self, game: Game) -> list[list[_Follower]]:
        """Groups of players who may act next; each group costs its worst reply."""
        board = self.board
        order = [board.player(n) for n in game.order_of_play()]
        now = game.turn_number - 1
        later = order[now + 1 :]
        if not later:  # last of the round: anyone may act next, discs still in hand
            return [
                [
                    _Follower(
                        q, 1, max(game.discs_in_hand(board.names[q]), default=5), REPLY_WEIGHT
                    )
                    for q in range(len(board.names))
                    if q != self.p
                ]
            ]
        first = later[0]
        d1 = game.disc(board.names[first]) or 1
        groups = [[_Follower(first, 1, d1, REPLY_WEIGHT)]]
        if len(later) > 1:
            second = later[1]
            d2 = game.disc(board.names[second]) or 1
            groups.append([_Follower(second, 2, d1 + d2, SECOND_REPLY_WEIGHT)])
        return groups

    def _defence_units(self) -> dict[int, list[int]]:
        """For each emperor step: up to two units the following opponents could win
        from where the emperor then stands, largest first (and ours before theirs)."""
        board = self.board
        value: dict[tuple[int, int], int] = {}  # (follower, unit) -> worth guarding
        for group in self.followers:
            for f in group:
                if board.side_of[f.player] == self.side:
                    continue
                budget = min(board.per_turn, sum(board.reserves[f.player]))
                for u in range(len(board.units)):
                    if cheapest_capture(board, f.player, u, board.reserves[f.player], budget):
                        mine = board.owner[u] == self.side
                        value[f.player, u] = len(board.units[u]) * (2 if mine else 1)
        by_step: dict[int, list[int]] = {}
        for steps in range(1, self.disc + 1):
            stop = board.reach(steps)
            threatened: dict[int, int] = {}
            for group in self.followers:
                for f in group:
                    for distance in range(f.first, f.last + 1):
                        u = board.reach(distance, stop)
                        worth = value.get((f.player, u), 0)
                        if u != stop and worth > threatened.get(u, 0):
                            threatened[u] = worth
                            self.guard[u] = board.names[f.player]
            by_step[steps] = sorted(threatened, key=lambda u: (-threatened[u], u))[:2]
        return by_step

    # -------------------------------------------------------------- candidates

    def candidates(self) -> Iterator[_Candidate]:
        board, p = self.board, self.p
        reserve = board.reserves[p]
        for court in _handfuls(reserve, self.cubes):
            after_court = board.with_court(p, court)
            useful = [
                c
                for c in range(5)
                if after_court.control[c] >= 0
                and board.side_of[after_court.control[c]] == self.side
            ]
            left = self.cubes - sum(court)
            rest = [reserve[c] - court[c] for c in range(5)]
            if sum(rest[c] for c in useful) < left:
                continue  # other cubes would have to go to the court: another handful
            useful.sort(key=lambda c: -_margin(after_court, c))
            pool = [c for c in useful for _ in range(rest[c])][:left]
            leads = [self._lead(after_court, u) for u in range(len(after_court.units))]
            base = (leads, sum(leads))
            for steps in range(1, self.disc + 1):
                target = board.reach(steps)
                places = [target, *self.defence[steps]]
                for split in _compositions(left, len(places)):
                    placed: dict[int, list[int]] = {}
                    ring = list(self.ring)
                    i = 0
                    for u, n in zip(places, split, strict=True):
                        if n:
                            counts = [0, 0, 0, 0, 0]
                            for c in pool[i : i + n]:
                                counts[c] += 1
                                ring[c] += 1
                            placed[u] = counts
                            i += n
                    vecs = tuple((u, _vec5(v)) for u, v in placed.items())
                    after = _play(after_court, p, court, vecs, steps)
                    changed = {*placed, target}
                    score = self.static(after, tuple(ring), base, changed)
                    yield _Candidate(court, vecs, steps, after, score)

    # ----------------------------------------------------------------- scoring

    def static(
        self,
        board: Board,
        ring: tuple[int, ...] | None = None,
        base: tuple[list[float], float] | None = None,
        changed: set[int] | None = None,
    ) -> float:
        """The position for our side, without look-ahead. ``ring`` (cubes per colour on
        the ring) and ``base`` (unit leads before the cubes went down, with the
        ``changed`` units) only save time; parts are memoised across candidates."""
        side = self.side
        score = 0.0
        castles = [0] * len(board.sides)
        for unit, owner in zip(board.units, board.owner, strict=True):
            if owner >= 0:
                castles[owner] += len(unit)
        if board.over:
            score += WIN if board.winner == side else (0.0 if board.winner == -2 else -WIN)
        score += CASTLE * (castles[side] - max(c for s, c in enumerate(castles) if s != side))
        if ring is None:
            ring = tuple(sum(cubes[c] for cubes in board.cubes) for c in range(5))
        key = (board.control, board.courts, ring)
        colours = self._colour_memo.get(key)
        if colours is None:
            colours = 0.0
            for c in range(5):
                holder = board.control[c]
                if holder < 0:
                    continue
                sign = 1.0 if board.side_of[holder] == side else -1.0
                colours += sign * (0.5 + 0.15 * ring[c] + 0.4 * min(_margin(board, c), 3))
            self._colour_memo[key] = colours
        score += colours
        if base is not None and changed is not None and len(base[0]) == len(board.units):
            leads, total = base
            for u in changed:
                total += self._lead(board, u) - leads[u]
            return score + total
        return score + sum(self._lead(board, u) for u in range(len(board.units)))

    def _lead(self, board: Board, u: int) -> float:
        """How far our side leads in unit ``u`` (clipped to 2), by its size."""
        n = len(board.units[u])
        key = (board.control, board.cubes[u], board.owner[u], n)
        lead = self._unit_memo.get(key)
        if lead is None:
            totals = board.strengths(u)
            mine = totals[self.side]
            other = max(t for s, t in enumerate(totals) if s != self.side)
            lead = 0.3 * n * max(-2, min(2, mine - other))
            self._unit_memo[key] = lead
        return lead

    def reply_cost(self, board: Board) -> float:
        """What the following players' best captures cost our side (negative: gain)."""
        if board.over or not self.replies:
            return 0.0
        total = 0.0
        for group in self.followers:
            worst = None
            for f in group:
                loss, _ = self._best_capture_loss(board, f)
                if worst is None or loss > worst:
                    worst = loss
            total += group[0].weight * (worst or 0.0)
        return total

    def _best_capture_loss(self, board: Board, f: _Follower) -> tuple[float, int]:
        """The most damaging capture ``f`` can make (for a partner: the most useful),
        as a loss for our side, and its unit (-1: none)."""
        q = f.player
        partner = board.side_of[q] == self.side
        budget = min(board.per_turn, sum(board.reserves[q]))
        base = CASTLE * _castle_lead(board, self.side)
        best = 0.0
        where = -1
        seen: set[int] = set()
        for steps in range(f.first, f.last + 1):
            u = board.reach(steps)
            if u in seen:
                continue
            seen.add(u)
            key = (
                q,
                board.control,
                board.courts,
                board.cubes[u],
                board.owner[u],
                len(board.units[u]),
                board.reserves[q],
            )
            can = self._capture_memo.get(key)
            if can is None:
                can = cheapest_capture(board, q, u, board.reserves[q], budget) is not None
                self._capture_memo[key] = can
            if not can:
                continue
            owner = list(board.owner)
            owner[u] = board.side_of[q]
            taken = board.evolve(owner=tuple(owner))
            lead = CASTLE * _castle_lead(taken, self.side)
            if taken.castles(board.side_of[q]) >= board.goal:
                lead += WIN if partner else -WIN
            loss = base - lead
            if (loss < best) if partner else (loss > best):
                best, where = loss, u
        return best, where

    def reply_words(self, board: Board) -> str:
        """The next opponent's most damaging capture after our turn, in words (a `said`
        message; empty when nobody replies)."""
        if board.over or not self.replies:
            return ""
        worst: tuple[float, int, int] | None = None
        for f in self.followers[0]:
            if board.side_of[f.player] == self.side:
                continue
            loss, u = self._best_capture_loss(board, f)
            if worst is None or loss > worst[0]:
                worst = (loss, u, f.player)
        if worst is None:
            return ""
        loss, u, q = worst
        name = board.names[q]
        if u < 0 or loss <= 0:
            return said("%(player)s then has no capture that hurts", player=name)
        unit = board.units[u]
        wins = loss >= WIN / 2
        if board.owner[u] < 0:
            if wins:
                return said(
                    "%(player)s could then build on %(where)s and win", player=name, where=unit
                )
            return said("%(player)s could then build on %(where)s", player=name, where=unit)
        if wins:
            return said(
                "%(player)s could then take over %(where)s and win", player=name, where=unit
            )
        return said("%(player)s could then take over %(where)s", player=name, where=unit)

    # ------------------------------------------------------------------ search

    def run(self, finalists: int = FINALISTS, keep: int = KEEP) -> list[Hint]:
        """The best ``keep`` plays, best first: every candidate scored without
        look-ahead, the best ``finalists`` again after the replies."""
        pool = sorted(self.candidates(), key=lambda c: -c.score)[:finalists]
        scored = [replace(c, score=c.score - self.reply_cost(c.board)) for c in pool]
        scored.sort(key=lambda c: -c.score)
        return [self._hint(c) for c in scored[:keep]]

    def score_play(self, play: PlayCubes, steps: int) -> float:
        """The score (with replies) of a given legal play, to compare with the hints."""
        after = self.after_play(play, steps)
        return self.static(after) - self.reply_cost(after)

    def after_play(self, play: PlayCubes, steps: int) -> Board:
        """The board after a given legal play and emperor move."""
        board = self.board
        court = [0, 0, 0, 0, 0]
        for colour in play.court:
            court[COLOUR_INDEX[colour]] += 1
        placed: dict[int, list[int]] = {}
        for key, colours in play.territories:
            counts = placed.setdefault(_unit_of(board, int(key)), [0, 0, 0, 0, 0])
            for colour in colours:
                counts[COLOUR_INDEX[colour]] += 1
        vecs = tuple((u, _vec5(v)) for u, v in placed.items())
        court_vec = _vec5(court)
        return _play(board.with_court(self.p, court_vec), self.p, court_vec, vecs, steps)

    def _hint(self, c: _Candidate) -> Hint:
        board = self.board
        name = board.names[self.p]
        territories: dict[int, list[str]] = {}
        for u, vec in c.placed:
            territories[board.key(u)] = [COLOURS[i] for i in range(5) for _ in range(vec[i])]
        court = [COLOURS[i] for i in range(5) for _ in range(c.court[i])]
        play = PlayCubes.of(name, court, territories)
        stop = board.reach(c.steps)
        gainer = board.with_court(self.p, c.court)
        placed = dict(c.placed)
        cubes = list(gainer.cubes)
        if stop in placed:
            cubes[stop] = plus(cubes[stop], placed[stop])
        before_stop = gainer.evolve(cubes=tuple(cubes))
        side = before_stop.gainer(stop)
        outcome = "nothing" if side < 0 else ("build" if board.owner[stop] < 0 else "take")
        why = self._why(c, play, stop, before_stop, side, outcome)
        return Hint(play, c.steps, c.score, board.units[stop], outcome, why)

    def _why(
        self, c: _Candidate, play: PlayCubes, stop: int, before: Board, side: int, outcome: str
    ) -> Said:
        board = self.board
        parts: list[dict[str, object] | str] = []
        won = [
            clause(
                said(
                    "win %(colour)s from %(player)s", colour=COLOURS[i], player=board.names[holder]
                )
                if (holder := board.control[i]) >= 0
                else said("win %(colour)s", colour=COLOURS[i])
            )
            for i in range(5)
            if before.control[i] == self.p and board.control[i] != self.p
        ]
        if play.court:
            court = counted(play.court)
            parts.append(
                clause(
                    said("%(counted)s to your court (%(items)s)", counted=court, items=won)
                    if won
                    else said("%(counted)s to your court", counted=court)
                )
            )
        for key, colours in play.territories:
            u = _unit_of(board, int(key))
            unit = board.units[u]
            if u in self.guard and u != stop:
                onto = said(
                    "%(counted)s onto %(where)s (against %(player)s)",
                    counted=counted(colours),
                    where=unit,
                    player=self.guard[u],
                )
            else:
                onto = said("%(counted)s onto %(where)s", counted=counted(colours), where=unit)
            parts.append(clause(onto))
        points = score(before.strengths(stop))
        where = board.units[stop]
        if outcome == "nothing":
            result = said("nothing changes on %(where)s", where=where)
        elif side == self.side:
            if outcome == "build":
                result = said("you build on %(where)s (%(clause)s)", where=where, clause=points)
            else:
                result = said("you take over %(where)s (%(clause)s)", where=where, clause=points)
            merged = [u for u in c.board.units if set(board.units[stop]) < set(u)]
            if merged:
                result = said(
                    "%(clause)s, merging into a %(count)s-castle region",
                    clause=clause(result),
                    count=len(merged[0]),
                )
        elif outcome == "build":
            result = said(
                "%(side)s builds on %(where)s (%(clause)s)",
                side=board.sides[side],
                where=where,
                clause=points,
            )
        else:
            result = said(
                "%(side)s takes over %(where)s (%(clause)s)",
                side=board.sides[side],
                where=where,
                clause=points,
            )
        if c.board.over and c.board.winner == self.side:
            if side == self.side:
                result = said("%(clause)s and win the game", clause=clause(result))
            else:
                result = said("%(clause)s, and your side wins", clause=clause(result))
        if c.steps > 1:
            steps = said("emperor %(count)s steps", count=c.steps)
        else:
            steps = said("emperor %(count)s step", count=c.steps)
        reply = self.reply_words(c.board)
        cubes = parts or [clause(said("no cubes to play"))]
        if reply:
            return said(
                "%(items)s; %(clause)s: %(clause2)s; %(clause3)s",
                items=cubes,
                clause=clause(steps),
                clause2=clause(result),
                clause3=clause(reply),
            )
        return said(
            "%(items)s; %(clause)s: %(clause2)s",
            items=cubes,
            clause=clause(steps),
            clause2=clause(result),
        )


def search(game: Game, finalists: int = FINALISTS, keep: int = KEEP) -> list[Hint]:
    """Hints for the player to move, best first (see `Search.run`)."""
    return Search(game).run(finalists, keep)


def best_play(game: Game) -> Hint:
    return search(game)[0]


def hint_player(game: Game, rng: random.Random) -> tuple[PlayCubes, int]:
    """A self-play `Strategy`: the best hint's play and steps."""
    hint = best_play(game)
    return hint.play, hint.steps


def score_play(game: Game, play: PlayCubes, steps: int) -> float:
    """The search's score (with replies) of a given legal play, to compare with hints."""
    return Search(game).score_play(play, steps)


# ---------------------------------------------------------------------- helpers


def _play(
    board: Board, p: int, court: Vec, placed: tuple[tuple[int, Vec], ...], steps: int
) -> Board:
    """Cubes onto units (the court part already applied), then the emperor's stop."""
    cubes = list(board.cubes)
    spent = court
    for u, vec in placed:
        cubes[u] = plus(cubes[u], vec)
        spent = plus(spent, vec)
    reserves = list(board.reserves)
    reserves[p] = minus(reserves[p], spent)
    moved = board.evolve(cubes=tuple(cubes), reserves=tuple(reserves))
    return moved.stop(moved.reach(steps))


def _castle_lead(board: Board, side: int) -> int:
    mine = board.castles(side)
    return mine - max(board.castles(s) for s in range(len(board.sides)) if s != side)


def _margin(board: Board, c: int) -> int:
    holder = board.control[c]
    if holder < 0:
        return 0
    return board.courts[holder][c] - max(
        court[c] for q, court in enumerate(board.courts) if q != holder
    )


def _handfuls(reserve: Vec, most: int) -> Iterator[Vec]:
    """Every handful of at most ``most`` cubes the reserve can give."""
    ranges = [range(min(n, most) + 1) for n in reserve]
    for counts in itertools.product(*ranges):
        if sum(counts) <= most:
            yield _vec5(list(counts))


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to split ``total`` cubes over ``parts`` places."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


def _unit_of(board: Board, territory: int) -> int:
    return next(i for i, u in enumerate(board.units) if territory in u)


def _vec5(counts: list[int] | tuple[int, ...]) -> Vec:
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


__all__ = ["Hint", "Search", "best_play", "hint_player", "score_play", "search"]
