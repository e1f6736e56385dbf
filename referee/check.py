"""The verdict on a record: replay it through the rules and say where it breaks.

This is ``carolus check`` without the command line: `judge` folds the record's moves
over the set-up and reports the first broken rule in play order, the state after the
last whole legal turn, and the events of the game (``docs/record.md``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.errors import (
    AfterEndError,
    DiscOrderError,
    IllegalMoveError,
    TurnOrderError,
)
from referee.events import RECORD_KINDS, Event
from referee.game import Game, Phase
from referee.moves import ChooseDisc
from referee.pieces import COLOURS, NO_CUBES
from referee.record import MalformedRecordError, Record, load


@dataclass
class Fault:
    """The first rule a record breaks."""

    code: str
    round: int
    turn: int
    player: str | None
    message: str

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "round": self.round,
            "turn": self.turn,
            "player": self.player,
            "message": self.message,
        }


@dataclass
class Verdict:
    """What ``carolus check`` says of one file."""

    file: str
    legal: bool | None
    error: dict[str, Any] | None = None
    game: Game | None = None
    events: list[Event] = field(default_factory=list)

    @property
    def malformed(self) -> bool:
        return self.legal is None

    @property
    def exit_code(self) -> int:
        return 0 if self.legal else (2 if self.legal is None else 1)

    def final(self) -> dict[str, Any] | None:
        return None if self.game is None else final_state(self.game)

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "legal": self.legal,
            "error": self.error,
            "final": self.final(),
            "events": [e.to_json() for e in self.events if e.kind in RECORD_KINDS],
        }


def final_state(game: Game) -> dict[str, Any]:
    """The ``final`` object of the check verdict for the position of ``game``."""
    return {
        "players": {
            p.name: {
                "castles": game.castles(p.castles),
                "control": list(game.control(p.name)),
                "reserve": game.reserve(p.name).total(),
            }
            for p in game.players
        },
        "units": [list(u) for u in game.units()],
        "owners": {str(t): side for t, side in sorted(game.owners().items())},
        "emperor": game.emperor,
        "round": game.last_turn_round,
        "finished": game.is_over,
        "winner": game.winner,
        "reason": game.reason,
    }


def check_file(path: str | Path) -> Verdict:
    """Judge the record in ``path``; never raises for a bad file."""
    name = str(path)
    try:
        record = load(path)
    except MalformedRecordError as exc:
        return Verdict(
            name,
            None,
            {"code": "malformed", "field": exc.field, "message": exc.message},
        )
    return judge(record, name)


def judge(record: Record, name: str = "<record>") -> Verdict:
    """Replay ``record``; the verdict holds the game after its last whole legal turn."""
    try:
        game = Game(record.setup)
    except IllegalMoveError as exc:
        return Verdict(name, False, Fault(exc.code, 0, 0, exc.player, exc.message).to_json())
    events: list[Event] = []
    fault = _replay(record, game, events)
    if fault is None:
        return Verdict(name, True, None, game, events)
    return Verdict(name, False, fault.to_json(), game, events)


def _replay(record: Record, game: Game, events: list[Event]) -> Fault | None:
    players = len(game.players)
    for r, rnd in enumerate(record.rounds, start=1):
        if r > 1 and not game.is_over and game.round != r:
            return Fault(
                TurnOrderError.code,
                r - 1,
                game.turn_number,
                game.to_move,
                f"round {r - 1} is missing turns: {game.to_move} had not played when round "
                f"{r} began",
            )
        # the opening phase of round r; discs are not announced by check
        for name, number in rnd.discs:
            if game.is_over:
                return Fault(
                    AfterEndError.code,
                    r,
                    0,
                    name,
                    f"{name} chose a disc after the game ended ({game.describe_result()})",
                )
            if game.phase is not Phase.OPENING:
                return Fault(
                    DiscOrderError.code,
                    r,
                    0,
                    name,
                    f"round {r} lists more discs than the {players} players",
                )
            try:
                game.push(ChooseDisc(name, number))
            except IllegalMoveError as exc:
                return Fault(exc.code, r, 0, exc.player or name, exc.message)
        if not game.is_over and game.phase is Phase.OPENING:
            missing = game.choosers()
            who = missing[0] if missing else None
            return Fault(
                DiscOrderError.code,
                r,
                0,
                who,
                f"round {r} lists {len(rnd.discs)} disc{'s' if len(rnd.discs) != 1 else ''} "
                f"for {players} players: {', '.join(missing)} chose none",
            )
        for t, turn in enumerate(rnd.turns, start=1):
            if game.is_over:
                return Fault(
                    AfterEndError.code,
                    r,
                    t,
                    turn.player,
                    f"{turn.player} played a turn after the game ended ({game.describe_result()})",
                )
            if game.phase is not Phase.ACTION or game.round != r:
                return Fault(
                    TurnOrderError.code,
                    r,
                    t,
                    None,
                    f"round {r} lists more turns than the {players} players",
                )
            depth = len(game.move_stack)
            played: list[Event] = []
            try:
                played += game.push(turn.cube_play())
                played += game.push(turn.emperor_move())
                if not game.is_over:
                    played += game.push(turn.refill_move())
            except IllegalMoveError as exc:
                while len(game.move_stack) > depth:
                    game.pop()
                return Fault(exc.code, r, t, exc.player or turn.player, exc.message)
            events += played
    return None


# -------------------------------------------------------------------- words


def describe(verdict: Verdict) -> str:
    """The verdict as a referee would say it."""
    head = verdict.file
    if verdict.malformed:
        assert verdict.error is not None
        where = f" in {verdict.error['field']}" if verdict.error.get("field") else ""
        return f"{head}: not a valid record{where}: {verdict.error['message']}"
    lines: list[str] = []
    if verdict.legal:
        game = verdict.game
        assert game is not None
        lines.append(f"{head}: legal. {_progress(game)}")
    else:
        error = verdict.error
        assert error is not None
        if error["code"] == "bad-setup":
            lines.append(f"{head}: bad set-up: {error['message']}")
            return "\n".join(lines)
        when = f"round {error['round']}, " + (
            "opening phase" if error["turn"] == 0 else f"turn {error['turn']}"
        )
        who = f" ({error['player']})" if error["player"] else ""
        lines.append(f"{head}: ILLEGAL in {when}{who} — {error['code']}: {error['message']}")
        game = verdict.game
        assert game is not None
        lines.append(f"  The table after the last legal turn: {_progress(game)}")
    lines += ["  " + line for line in table_lines(game)]
    return "\n".join(lines)


def _progress(game: Game) -> str:
    """Where the game stands, as every other view says it (`Game.progress`)."""
    return f"{str(game.progress).capitalize()}; {game.describe_result()}."


def table_lines(game: Game) -> list[str]:
    """What the table should look like: castles, emperor, each player's court."""
    lines = []
    for p in game.players:
        court = game.court(p.name)
        control = ", ".join(game.control(p.name)) or "no colour"
        castles = game.castles(p.castles)
        lines.append(
            f"{p.name} ({p.castles}): {castles} castle{'s' if castles != 1 else ''}, "
            f"controls {control}; court {court.describe()}; reserve "
            f"{game.reserve(p.name).describe()}"
        )
    ring = []
    for unit in game.units():
        owner = game.owner(unit[0])
        name = "+".join(str(t) for t in unit)
        cubes = sum((game.territory(t) for t in unit), NO_CUBES)
        mark = f"[{owner}]" if owner else ""
        emperor = "*" if game.emperor == unit[0] else ""
        counts = "".join(f"{c[0].upper()}{n}" for c, n in zip(COLOURS, cubes, strict=True) if n)
        ring.append(f"{emperor}{name}{mark}:{counts or '-'}")
    lines.append("Ring (clockwise, * emperor): " + " ".join(ring))
    return lines
