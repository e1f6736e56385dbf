"""The log in words: a game's story (``show``), its moves one turn at a time (``replay``),
what many games say (``stats``), and a results table (CSV).

Everything here is derived by replaying the stored moves through the referee, so an
imported game and a refereed one are told the same way.
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

from firmware.gamelog.store import GameLog, GameRow
from referee.announcements import say, say_move
from referee.check import table_lines
from referee.events import RECORD_KINDS, Event
from referee.game import Game
from referee.moves import ChooseDisc, Move, PlayCubes


def names(row: GameRow) -> str:
    return ", ".join(f"{s.name} ({s.castles}{', ' + s.seat if s.seat else ''})" for s in row.seats)


def result_words(row: GameRow) -> str:
    """Who won how, and where the game stands (`referee.game.Progress`, as every view)."""
    if row.status == "running":
        return f"running, {row.progress}"
    if row.winner is None:
        return f"unfinished in {row.progress}"
    goal = 8 if len(row.seats) == 3 else 10
    how = {
        "castles": f"castles on {goal} territories",
        "few-territories": "fewer than 4 territories left",
    }.get(row.reason or "", row.reason or "")
    lead = "draw" if row.winner == "draw" else f"{row.winner} wins"
    return f"{lead} ({how}) in {row.progress}"


def list_lines(rows: list[GameRow]) -> list[str]:
    lines = [f"{'id':>4}  {'date':10}  {'source':6}  players / result"]
    for row in rows:
        lines.append(f"{row.id:>4}  {row.date:10}  {row.source:6}  {names(row)}")
        lines.append(f"{'':24}  {result_words(row)}")
    return lines


# ---------------------------------------------------------------- turns


@dataclass
class Turn:
    """A unit of replay: a round's disc choices, or one player's turn (up to 3 moves)."""

    round: int
    turn: int  # 0: the opening phase
    lines: list[str]
    events: list[Event]


def move_words(move: Move, game: Game) -> str:
    """What ``move`` did, said after it was pushed on ``game``: the referee's one sentence
    for a move (`referee.announcements.say_move`), as the table and ``carolus play`` say it."""
    return say_move(move, game)


def event_words(event: Event) -> str | None:
    """A fact of the rules the story tells (`referee.events.RECORD_KINDS`), as the
    referee announced it; None for steps of play, which `move_words` tells."""
    return say(event) if event.kind in RECORD_KINDS else None


def turns(setup: Any, moves: list[Move]) -> Iterator[tuple[Turn, Game]]:
    """Replay ``moves`` and yield each turn with the game after it (the same object)."""
    game = Game(setup)
    current: Turn | None = None
    for move in moves:
        key = (game.round, game.turn_number if not isinstance(move, ChooseDisc) else 0)
        if current is not None and (current.round, current.turn) != key:
            yield current, game
            current = None
        events = game.push(move)
        if current is None:
            current = Turn(key[0], key[1], [], [])
        current.lines.append(move_words(move, game))
        current.events += events
        current.lines += [w for w in map(event_words, events) if w]
    if current is not None:
        yield current, game


def replay_lines(turn: Turn, game: Game) -> list[str]:
    head = f"Round {turn.round}, " + ("discs" if turn.turn == 0 else f"turn {turn.turn}")
    return [head, *("  " + line for line in turn.lines), *("    " + t for t in table_lines(game))]


# ---------------------------------------------------------------- show


def show_lines(log: GameLog, game_id: int) -> list[str]:
    row = log.game(game_id)
    setup = log.setup(game_id)
    moves = log.moves(game_id)
    header = f"Game {row.id}: {row.status}, {row.source}"
    when = row.started or "undated"
    place = row.meta.get("place")
    lines = [header + f" ({when}{', ' + str(place) if place else ''})", f"Players: {names(row)}"]
    sides = list(dict.fromkeys(s.castles for s in row.seats))
    per_round: list[tuple[int, list[int]]] = []
    takeovers: list[str] = []
    last: Game | None = None
    for turn, game in turns(setup, moves):
        last = game
        for event in turn.events:
            if event.kind == "castle-taken":
                words = event_words(event)
                takeovers.append(f"round {event.round}, turn {event.turn}: {words}")
        if turn.turn:
            counts = [game.castles(side) for side in sides]
            if per_round and per_round[-1][0] == turn.round:
                per_round[-1] = (turn.round, counts)
            else:
                per_round.append((turn.round, counts))
    game = last or Game(setup)
    lines.append(f"Result: {result_words(row) if row.status != 'running' else _live(game)}")
    lines.append("Territories under castles at the end of each round:")
    lines.append("  round " + "".join(f"{side:>7}" for side in sides))
    for rnd, counts in per_round:
        lines.append(f"  {rnd:>5} " + "".join(f"{c:>7}" for c in counts))
    if not per_round:
        lines.append("  (no round completed)")
    lines.append("Key takeovers:" if takeovers else "Key takeovers: none")
    lines += ["  " + t for t in takeovers]
    notes = row.meta.get("notes")
    if notes:
        lines.append(f"Notes: {notes}")
    lines.append("The table at the end:")
    lines += ["  " + line for line in table_lines(game)]
    return lines


def _live(game: Game) -> str:
    return f"running, {game.progress}; {game.describe_result()}"


# ---------------------------------------------------------------- stats


def first_player(log: GameLog, game_id: int) -> str | None:
    """Who played the first turn of round 1."""
    return next((m.player for m in log.moves(game_id) if isinstance(m, PlayCubes)), None)


def stats_lines(log: GameLog) -> list[str]:
    rows = log.games()
    status = Counter(r.status for r in rows)
    lines = [
        f"Games: {len(rows)} ({status['finished']} finished, {status['unfinished']} "
        f"unfinished, {status['running']} running)"
    ]
    finished = [r for r in rows if r.status == "finished"]
    played: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    colour_played: Counter[str] = Counter()
    colour_wins: Counter[str] = Counter()
    for row in finished:
        for side in {s.castles for s in row.seats}:
            colour_played[side] += 1
        for s in row.seats:
            played[s.name] += 1
            wins[s.name] += s.won or 0
        for side in {s.castles for s in row.seats if s.won}:
            colour_wins[side] += 1
    lines.append("Wins per player (finished games):")
    for name, n in sorted(played.items(), key=lambda kv: (-wins[kv[0]], kv[0])):
        lines.append(f"  {name:<16} {wins[name]:>3} of {n:<3} {_pct(wins[name], n)}")
    if not played:
        lines.append("  (none yet)")
    lines.append("Wins per castle colour:")
    for side, n in sorted(colour_played.items()):
        lines.append(f"  {side:<16} {colour_wins[side]:>3} of {n:<3} {_pct(colour_wins[side], n)}")
    if not colour_played:
        lines.append("  (none yet)")
    if finished:
        mean = sum(r.rounds for r in finished) / len(finished)
        lines.append(f"Average length: {mean:.1f} rounds over {len(finished)} finished games")
    decided = [r for r in finished if r.winner != "draw"]
    first_wins, chance = 0, 0.0
    for row in decided:
        first = first_player(log, row.id)
        seat = next((s for s in row.seats if s.name == first), None)
        first_wins += bool(seat and seat.won)
        chance += 1 / len({s.castles for s in row.seats})
    if decided:
        lines.append(
            f"First player (first turn of round 1): won {first_wins} of {len(decided)} decided "
            f"games {_pct(first_wins, len(decided))}; even chances would give "
            f"{100 * chance / len(decided):.0f}%"
        )
    return lines


def _pct(k: int, n: int) -> str:
    return f"({100 * k / n:.0f}%)" if n else ""


# ---------------------------------------------------------------- csv

CSV_FIELDS = (
    "game",
    "date",
    "source",
    "status",
    "rounds",  # the round of `referee.game.Progress`, as every view shows it
    "turn",
    "winner",
    "reason",
    "player",
    "castles",
    "seat",
    "territories",
    "score",
    "won",
)


def write_csv(rows: list[GameRow], out: IO[str]) -> int:
    """One line per player per game; the number of lines written."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    n = 0
    for row in rows:
        for s in row.seats:
            writer.writerow(
                [
                    row.id,
                    row.date,
                    row.source,
                    row.status,
                    row.progress.round,
                    row.progress.turn,
                    row.winner or "",
                    row.reason or "",
                    s.name,
                    s.castles,
                    s.seat or "",
                    "" if s.territories is None else s.territories,
                    "" if s.score is None else s.score,
                    "" if s.won is None else s.won,
                ]
            )
            n += 1
    return n
