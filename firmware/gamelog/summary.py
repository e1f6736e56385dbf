"""The log in words: a game's story (``show``), its moves one turn at a time (``replay``),
what many games say (``stats``), and a results table (CSV).

Everything here is derived by replaying the stored moves through the referee, so an
imported game and a refereed one are told the same way. Every line is said in the
reader's language (issue 17): each is a `said` message with named fields, put into
words by the catalog given (``tr``; English without one, word for word what it was),
the moves and the rules' facts with the referee's own sentences
(`referee.announcements`). Numbers and dates are shown as the log keeps them (ISO
dates, digits), as every other box shows them.
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO

from firmware.gamelog.store import GameLog, GameRow
from referee.announcements import (
    ENGLISH,
    N_,
    Said,
    Translator,
    clause,
    mark,
    said,
    say,
    say_move,
    side,
    translated,
)
from referee.check import table_lines
from referee.events import RECORD_KINDS, Event
from referee.game import Game, Progress
from referee.moves import ChooseDisc, Move, PlayCubes
from referee.setup import Setup
from referee.state import FEW_UNITS

#: The statuses of a logged game, as the page says them.
STATUS = {"running": N_("running"), "finished": N_("finished"), "unfinished": N_("unfinished")}

#: Where a game came from (the log's ``source``), as the list and the story say it.
SOURCES = (mark("source", "table"), mark("source", "import"))


def status_clause(status: str) -> dict[str, object] | str:
    """A game's status as a clause: said in the language of the sentence round it."""
    return clause(said(STATUS[status])) if status in STATUS else status


def source_words(tr: Translator, source: str) -> str:
    """Where a game came from (``table``, ``import``) in the reader's language."""
    return str(tr.pgettext("source", source)) if ("source", source) in SOURCES else source


def seat_words(row: GameRow, tr: Translator = ENGLISH) -> list[str]:
    """``Anna (white, south)``: each seat's player, castle colour and seat."""
    return [
        translated(
            said("%(player)s (%(side)s, %(seat)s)", player=s.name, side=s.castles, seat=s.seat), tr
        )
        if s.seat
        else translated(said("%(player)s (%(side)s)", player=s.name, side=s.castles), tr)
        for s in row.seats
    ]


def names(row: GameRow, tr: Translator = ENGLISH) -> str:
    return ", ".join(seat_words(row, tr))


def progress_clause(progress: Progress) -> Said:
    """``round 3, turn 2``, ``round 4, discs being chosen``: where a game stands, as
    `referee.game.Progress` says it."""
    if progress.turn == 0:
        return said("round %(round)s, discs being chosen", round=progress.round)
    return said("round %(round)s, turn %(turn)s", round=progress.round, turn=progress.turn)


#: How a game ended, by its reason: (a side wins, a draw).
_ENDS = {
    "castles": (
        N_("%(side)s wins (castles on %(goal)s territories)"),
        N_("draw (castles on %(goal)s territories)"),
    ),
    "few-territories": (
        N_("%(side)s wins (fewer than %(few)s territories left)"),
        N_("draw (fewer than %(few)s territories left)"),
    ),
}


def _ended(row: GameRow) -> Said:
    """``Bob wins (castles on 10 territories)``, ``draw (fewer than 4 territories left)``."""
    draw = row.winner == "draw"
    goal = 8 if len(row.seats) == 3 else 10
    if row.reason in _ENDS:
        return said(_ENDS[str(row.reason)][draw], side=row.winner, goal=goal, few=FEW_UNITS)
    if draw:  # a reason the rules do not give: shown as stored
        return said("draw (%(reason)s)", reason=row.reason or "")
    return said("%(side)s wins (%(reason)s)", side=row.winner, reason=row.reason or "")


def result_said(row: GameRow) -> Said:
    """Who won how, and where the game stands (`referee.game.Progress`, as every view)."""
    where = clause(progress_clause(row.progress))
    if row.status == "running":
        return said("running, %(clause)s", clause=where)
    if row.winner is None:
        return said("unfinished in %(clause)s", clause=where)
    return said("%(clause)s in %(clause2)s", clause=clause(_ended(row)), clause2=where)


def result_words(row: GameRow, tr: Translator = ENGLISH) -> str:
    """Who won how, and where the game stands, in ``tr``'s language."""
    return translated(result_said(row), tr)


def list_lines(rows: list[GameRow], tr: Translator = ENGLISH) -> list[str]:
    """The games one under another: number, date, source, seats, and the result below.
    The columns are as wide as their heading and their words in ``tr``'s language."""
    heading = (
        str(tr.pgettext("column", "id")),
        str(tr.pgettext("column", "date")),
        str(tr.pgettext("column", "source")),
    )
    sources = {row.source: source_words(tr, row.source) for row in rows}
    wide = (
        max(4, len(heading[0])),
        max(10, len(heading[1])),
        max(6, len(heading[2]), *map(len, sources.values())),
    )
    rest = tr.gettext("players / result")
    lines = [f"{heading[0]:>{wide[0]}}  {heading[1]:{wide[1]}}  {heading[2]:{wide[2]}}  {rest}"]
    indent = sum(wide) + 4
    for row in rows:
        lines.append(
            f"{row.id:>{wide[0]}}  {row.date:{wide[1]}}  {sources[row.source]:{wide[2]}}  "
            f"{names(row, tr)}"
        )
        lines.append(f"{'':{indent}}  {result_words(row, tr)}")
    return lines


# ---------------------------------------------------------------- turns


@dataclass
class Turn:
    """A unit of replay: a round's disc choices, or one player's turn (up to 3 moves)."""

    round: int
    turn: int  # 0: the opening phase
    lines: list[str]
    events: list[Event]


def move_words(move: Move, game: Game, tr: Translator = ENGLISH) -> str:
    """What ``move`` did, said after it was pushed on ``game``: the referee's one sentence
    for a move (`referee.announcements.say_move`), as the table and ``carolus play`` say it."""
    return say_move(move, game, tr)


def event_words(event: Event, tr: Translator = ENGLISH) -> str | None:
    """A fact of the rules the story tells (`referee.events.RECORD_KINDS`), as the
    referee announced it; None for steps of play, which `move_words` tells."""
    return say(event, tr) if event.kind in RECORD_KINDS else None


def turns(setup: Setup, moves: list[Move], tr: Translator = ENGLISH) -> Iterator[tuple[Turn, Game]]:
    """Replay ``moves`` and yield each turn with the game after it (the same object);
    the turn's lines in ``tr``'s language."""
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
        current.lines.append(move_words(move, game, tr))
        current.events += events
        current.lines += [w for w in (event_words(e, tr) for e in events) if w]
    if current is not None:
        yield current, game


def replay_lines(turn: Turn, game: Game, tr: Translator = ENGLISH) -> list[str]:
    head = (
        translated(said("Round %(round)s, discs", round=turn.round), tr)
        if turn.turn == 0
        else translated(
            said("Round %(round)s, turn %(turn)s", round=turn.round, turn=turn.turn), tr
        )
    )
    return [
        head,
        *("  " + line for line in turn.lines),
        *("    " + t for t in table_lines(game, tr)),
    ]


# ---------------------------------------------------------------- show


def show_lines(log: GameLog, game_id: int, tr: Translator = ENGLISH) -> list[str]:
    row = log.game(game_id)
    setup = log.setup(game_id)
    moves = log.moves(game_id)
    place = row.meta.get("place")
    head: dict[str, object] = {
        "game": row.id,
        "clause": status_clause(row.status),
        "source": source_words(tr, row.source),
        "when": row.started or tr.gettext("undated"),
    }
    lines = [
        translated(
            said(
                "Game %(game)s: %(clause)s, %(source)s (%(when)s, %(location)s)",
                **head,
                location=str(place),
            ),
            tr,
        )
        if place
        else translated(said("Game %(game)s: %(clause)s, %(source)s (%(when)s)", **head), tr),
        translated(said("Players: %(players)s", players=names(row, tr)), tr),
    ]
    sides = list(dict.fromkeys(s.castles for s in row.seats))
    per_round: list[tuple[int, list[int]]] = []
    takeovers: list[str] = []
    last: Game | None = None
    for turn, game in turns(setup, moves, tr):
        last = game
        for event in turn.events:
            if event.kind == "castle-taken":
                takeovers.append(
                    translated(
                        said(
                            "round %(round)s, turn %(turn)s: %(event)s",
                            round=event.round,
                            turn=event.turn,
                            event=event_words(event, tr),
                        ),
                        tr,
                    )
                )
        if turn.turn:
            counts = [game.castles(side) for side in sides]
            if per_round and per_round[-1][0] == turn.round:
                per_round[-1] = (turn.round, counts)
            else:
                per_round.append((turn.round, counts))
    game = last or Game(setup)
    result = result_said(row) if row.status != "running" else _live(game)
    lines.append(translated(said("Result: %(clause)s", clause=clause(result)), tr))
    lines.append(tr.gettext("Territories under castles at the end of each round:"))
    label = str(tr.pgettext("column", "round"))
    first = max(5, len(label))
    columns = [side(tr, s) for s in sides]
    widths = [max(7, len(c) + 1) for c in columns]
    lines.append(
        f"  {label:>{first}} " + "".join(f"{c:>{w}}" for c, w in zip(columns, widths, strict=True))
    )
    for rnd, counts in per_round:
        lines.append(
            f"  {rnd:>{first}} " + "".join(f"{c:>{w}}" for c, w in zip(counts, widths, strict=True))
        )
    if not per_round:
        lines.append("  " + tr.gettext("(no round completed)"))
    lines.append(tr.gettext("Key takeovers:") if takeovers else tr.gettext("Key takeovers: none"))
    lines += ["  " + t for t in takeovers]
    notes = row.meta.get("notes")
    if notes:
        lines.append(translated(said("Notes: %(notes)s", notes=str(notes)), tr))
    lines.append(tr.gettext("The table at the end:"))
    lines += ["  " + line for line in table_lines(game, tr)]
    return lines


def _live(game: Game) -> Said:
    """A running game: where it stands and how the rules see it so far."""
    return said(
        "running, %(clause)s; %(clause2)s",
        clause=clause(progress_clause(game.progress)),
        clause2=clause(game.describe_result()),
    )


# ---------------------------------------------------------------- stats


def first_player(log: GameLog, game_id: int) -> str | None:
    """Who played the first turn of round 1."""
    return next((m.player for m in log.moves(game_id) if isinstance(m, PlayCubes)), None)


def _wins(tr: Translator, name: str, wins: int, n: int) -> str:
    """``  Bob                3 of 6   (50%)``: one line of the wins tables."""
    return f"  {name:<16} " + translated(
        said(
            "%(wins)s of %(count)s (%(percent)s%%)",
            wins=f"{wins:>3}",
            count=f"{n:<3}",
            percent=_pct(wins, n),
        ),
        tr,
    )


def stats_lines(log: GameLog, tr: Translator = ENGLISH) -> list[str]:
    rows = log.games()
    status = Counter(r.status for r in rows)
    lines = [
        translated(
            said(
                "Games: %(count)s (%(finished)s finished, %(unfinished)s unfinished, "
                "%(running)s running)",
                count=len(rows),
                finished=status["finished"],
                unfinished=status["unfinished"],
                running=status["running"],
            ),
            tr,
        )
    ]
    finished = [r for r in rows if r.status == "finished"]
    played: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    colour_played: Counter[str] = Counter()
    colour_wins: Counter[str] = Counter()
    for row in finished:
        for castles in {s.castles for s in row.seats}:
            colour_played[castles] += 1
        for s in row.seats:
            played[s.name] += 1
            wins[s.name] += s.won or 0
        for castles in {s.castles for s in row.seats if s.won}:
            colour_wins[castles] += 1
    lines.append(tr.gettext("Wins per player (finished games):"))
    for name, n in sorted(played.items(), key=lambda kv: (-wins[kv[0]], kv[0])):
        lines.append(_wins(tr, name, wins[name], n))
    if not played:
        lines.append("  " + tr.gettext("(none yet)"))
    lines.append(tr.gettext("Wins per castle colour:"))
    for colour, n in sorted(colour_played.items()):
        lines.append(_wins(tr, side(tr, colour), colour_wins[colour], n))
    if not colour_played:
        lines.append("  " + tr.gettext("(none yet)"))
    if finished:
        mean = sum(r.rounds for r in finished) / len(finished)
        lines.append(
            translated(
                said(
                    "Average length: %(mean)s rounds over %(count)s finished games",
                    mean=f"{mean:.1f}",
                    count=len(finished),
                ),
                tr,
            )
        )
    decided = [r for r in finished if r.winner != "draw"]
    first_wins, chance = 0, 0.0
    for row in decided:
        first = first_player(log, row.id)
        seat = next((s for s in row.seats if s.name == first), None)
        first_wins += bool(seat and seat.won)
        chance += 1 / len({s.castles for s in row.seats})
    if decided:
        lines.append(
            translated(
                said(
                    "First player (first turn of round 1): won %(wins)s of %(count)s decided games "
                    "(%(percent)s%%); even chances would give %(chance)s%%",
                    wins=first_wins,
                    count=len(decided),
                    percent=_pct(first_wins, len(decided)),
                    chance=f"{100 * chance / len(decided):.0f}",
                ),
                tr,
            )
        )
    return lines


def _pct(k: int, n: int) -> str:
    """``50``: ``k`` of ``n`` in hundredths, rounded (the message adds the sign)."""
    return f"{100 * k / n:.0f}" if n else "0"


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
