"""The verdict on a record: replay it through the rules and say where it breaks.

This is ``carolus check`` without the command line: `judge` folds the record's moves
over the set-up with `referee.replay.replay`, as the game log and the table referee do,
and reports the first broken rule in play order, the state after the last whole legal
turn, and the events of the game (``docs/record.md``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict

from referee.announcements import ENGLISH, Said, Translator, clause, said, translated
from referee.errors import (
    AfterEndError,
    DiscOrderError,
    IllegalMoveError,
    TurnOrderError,
)
from referee.events import RECORD_KINDS, Event
from referee.game import Game, Phase, castle_count
from referee.moves import ChooseDisc, Move
from referee.pieces import NO_CUBES
from referee.record import MalformedRecordError, Record, load
from referee.replay import replay


class ErrorJSON(TypedDict, total=False):
    """The ``error`` of a verdict, as ``carolus check --json`` writes it and the
    commands that judge a record read it: a rule broken (`Fault.to_json`: ``code``,
    ``round``, ``turn``, ``player``, ``message``) or a file that is no record (``code``
    ``malformed``, ``field``, ``message``). Every key is optional to the type, so a
    reader's ``verdict.error or {}`` is one too; ``code`` and ``message`` are always
    there."""

    code: str
    round: int
    turn: int
    player: str | None
    field: str | None
    message: str


@dataclass
class Fault:
    """The first rule a record breaks."""

    code: str
    round: int
    turn: int
    player: str | None
    message: str

    def to_json(self) -> ErrorJSON:
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
    error: ErrorJSON | None = None
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
    where = _Where()
    done = replay(game, _moves(record, game, where))
    fault = where.fault
    if done.refused is not None:
        refused = done.refused
        fault = Fault(
            refused.code, where.round, where.turn, refused.player or where.player, refused.message
        )
        while len(game.move_stack) > where.depth:  # a turn is taken whole or not at all
            game.pop()
    # the events of the whole turns; discs are not announced by check
    events = [
        event
        for move, played in zip(game.move_stack, done.events, strict=False)
        if not isinstance(move, ChooseDisc)
        for event in played
    ]
    if fault is None:
        return Verdict(name, True, None, game, events)
    return Verdict(name, False, fault.to_json(), game, events)


@dataclass
class _Where:
    """Where in the record the move being replayed stands, and the fault of the
    record's own shape (a round short of turns, too many discs …) that ended it."""

    round: int = 0
    turn: int = 0  # 0: the opening phase
    player: str | None = None
    depth: int = 0  # moves pushed before this disc or turn
    fault: Fault | None = None


def _moves(record: Record, game: Game, where: _Where) -> Iterator[Move]:
    """The record's moves in play order, read as `replay` pushes them on ``game``:
    each round's discs, then its turns as three steps. A round that does not fit the
    game as replayed so far ends the moves, with the fault in ``where``."""
    players = len(game.players)
    for r, rnd in enumerate(record.rounds, start=1):
        if r > 1 and not game.is_over and game.round != r:
            where.fault = Fault(
                TurnOrderError.code,
                r - 1,
                game.turn_number,
                game.to_move,
                said(
                    "round %(round)s is missing turns: %(player)s had not played when round "
                    "%(next)s began",
                    round=r - 1,
                    player=game.to_move,
                    next=r,
                ),
            )
            return
        # the opening phase of round r
        for name, number in rnd.discs:
            if game.is_over:
                where.fault = Fault(
                    AfterEndError.code,
                    r,
                    0,
                    name,
                    said(
                        "%(player)s chose a disc after the game ended (%(clause)s)",
                        player=name,
                        clause=clause(game.describe_result()),
                    ),
                )
                return
            if game.phase is not Phase.OPENING:
                where.fault = Fault(
                    DiscOrderError.code,
                    r,
                    0,
                    name,
                    said(
                        "round %(round)s lists more discs than the %(players)s players",
                        round=r,
                        players=players,
                    ),
                )
                return
            where.round, where.turn, where.player = r, 0, name
            where.depth = len(game.move_stack)
            yield ChooseDisc(name, number)
        if not game.is_over and game.phase is Phase.OPENING:
            missing = game.choosers()
            who = missing[0] if missing else None
            where.fault = Fault(
                DiscOrderError.code,
                r,
                0,
                who,
                said(
                    "round %(round)s lists 1 disc for %(players)s players: %(names)s chose none",
                    round=r,
                    players=players,
                    names=", ".join(missing),
                )
                if len(rnd.discs) == 1
                else said(
                    "round %(round)s lists %(count)s discs for %(players)s players: %(names)s "
                    "chose none",
                    round=r,
                    count=len(rnd.discs),
                    players=players,
                    names=", ".join(missing),
                ),
            )
            return
        for t, turn in enumerate(rnd.turns, start=1):
            if game.is_over:
                where.fault = Fault(
                    AfterEndError.code,
                    r,
                    t,
                    turn.player,
                    said(
                        "%(player)s played a turn after the game ended (%(clause)s)",
                        player=turn.player,
                        clause=clause(game.describe_result()),
                    ),
                )
                return
            if game.phase is not Phase.ACTION or game.round != r:
                where.fault = Fault(
                    TurnOrderError.code,
                    r,
                    t,
                    None,
                    said(
                        "round %(round)s lists more turns than the %(players)s players",
                        round=r,
                        players=players,
                    ),
                )
                return
            where.round, where.turn, where.player = r, t, turn.player
            where.depth = len(game.move_stack)
            yield turn.cube_play()
            yield turn.emperor_move()
            if not game.is_over:
                yield turn.refill_move()


# -------------------------------------------------------------------- words


def describe(verdict: Verdict, tr: Translator = ENGLISH) -> str:
    """The verdict as a referee would say it, in ``tr``'s language."""
    head = verdict.file
    if verdict.malformed:
        assert verdict.error is not None
        message = verdict.error["message"]
        if verdict.error.get("field"):
            text = said(
                "%(file)s: not a valid record in %(field)s: %(clause)s",
                file=head,
                field=verdict.error["field"],
                clause=clause(message),
            )
        else:
            text = said(
                "%(file)s: not a valid record: %(clause)s", file=head, clause=clause(message)
            )
        return translated(text, tr)
    lines: list[str] = []
    if verdict.legal:
        game = verdict.game
        assert game is not None
        lines.append(
            translated(
                said("%(file)s: legal. %(clause)s", file=head, clause=clause(_progress(game))), tr
            )
        )
    else:
        error = verdict.error
        assert error is not None
        if error["code"] == "bad-setup":
            text = said(
                "%(file)s: bad set-up: %(clause)s", file=head, clause=clause(error["message"])
            )
            return translated(text, tr)
        fields = {
            "file": head,
            "round": error["round"],
            "turn": error["turn"],
            "code": error["code"],
            "clause": clause(error["message"]),
        }
        if error["player"]:
            fields["player"] = error["player"]
        if error["turn"] == 0:
            ruled = (
                said(
                    "%(file)s: ILLEGAL in round %(round)s, opening phase (%(player)s) — "
                    "%(code)s: %(clause)s",
                    **fields,
                )
                if error["player"]
                else said(
                    "%(file)s: ILLEGAL in round %(round)s, opening phase — %(code)s: %(clause)s",
                    **fields,
                )
            )
        else:
            ruled = (
                said(
                    "%(file)s: ILLEGAL in round %(round)s, turn %(turn)s (%(player)s) — "
                    "%(code)s: %(clause)s",
                    **fields,
                )
                if error["player"]
                else said(
                    "%(file)s: ILLEGAL in round %(round)s, turn %(turn)s — %(code)s: %(clause)s",
                    **fields,
                )
            )
        lines.append(translated(ruled, tr))
        game = verdict.game
        assert game is not None
        after = said(
            "The table after the last legal turn: %(clause)s", clause=clause(_progress(game))
        )
        lines.append("  " + translated(after, tr))
    lines += ["  " + line for line in table_lines(game, tr)]
    return "\n".join(lines)


def _progress(game: Game) -> Said:
    """Where the game stands, as every other view says it (`Game.progress`)."""
    progress = game.progress
    where = (
        said("Round %(round)s, discs being chosen", round=progress.round)
        if progress.turn == 0
        else said("Round %(round)s, turn %(turn)s", round=progress.round, turn=progress.turn)
    )
    return said(
        "%(clause)s; %(clause2)s.", clause=clause(where), clause2=clause(game.describe_result())
    )


def table_lines(game: Game, tr: Translator = ENGLISH) -> list[str]:
    """What the table should look like: castles, emperor, each player's court, in
    ``tr``'s language (the ring's cubes by the page's colour letters)."""
    lines = []
    for p in game.players:
        control = list(game.control(p.name))
        controls = (
            said("controls %(colours)s", colours=control) if control else said("controls no colour")
        )
        line = said(
            "%(player)s (%(side)s): %(clause)s, %(clause2)s; court %(pieces)s; reserve %(pieces2)s",
            player=p.name,
            side=p.castles,
            clause=clause(castle_count(game.castles(p.castles))),
            clause2=clause(controls),
            pieces=game.court(p.name).colours(),
            pieces2=game.reserve(p.name).colours(),
        )
        lines.append(translated(line, tr))
    ring = []
    for unit in game.units():
        cubes = sum((game.territory(t) for t in unit), NO_CUBES)
        ring.append([game.emperor == unit[0], list(unit), game.owner(unit[0]), list(cubes)])
    lines.append(translated(said("Ring (clockwise, * emperor): %(units)s", units=ring), tr))
    return lines
