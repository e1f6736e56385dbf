"""Game records, ``carolus-record/1``: read, write, and make one from a game.

A record holds what players and chance decided and nothing the rules derive; it is to
Carolus Magnus what PGN is to chess (``docs/record.md``). Reading checks the JSON
*shape* only — a value of the right type that breaks a rule is the referee's business —
and names the field of any misfit (``rounds[2].turns[0].emperor``).
"""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from referee.announcements import N_, clause, said
from referee.game import Game
from referee.moves import (
    ChooseDisc,
    Move,
    MoveEmperor,
    MoveFormatError,
    PlayCubes,
    Refill,
    move_from_json,
    move_to_json,
)
from referee.setup import Player, Setup

FORMAT = "carolus-record/1"

#: The largest record file read, in bytes. A whole game of four players is some 60 KB;
#: the cap only keeps a wrong path (``/dev/zero``, a video) from eating the memory.
MAX_RECORD_BYTES = 4 * 1024 * 1024

#: The ``meta`` key that carries the steps of a turn still in progress when the record
#: was made: the format holds whole turns only, and the log must not lose a step.
UNFINISHED_TURN = "unfinished_turn"

#: Why those steps sit in ``meta``, written next to them for whoever reads the file.
UNFINISHED_WHY = (
    "carolus-record/1 holds whole turns only: these steps of the turn in progress when "
    "the record was made are kept here, outside the rounds; carolus check does not judge "
    "them, carolus games import replays them after the last whole turn"
)


class MalformedRecordError(ValueError):
    """The file is not a record: unreadable, not JSON, or a field missing or mistyped."""

    def __init__(self, field: str | None, message: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class TurnRecord:
    player: str
    court: tuple[str, ...]
    territories: Mapping[str, tuple[str, ...]]
    emperor: int
    refill: tuple[str, ...] | None = None
    returned: Mapping[str, int] = field(default_factory=dict)

    def cube_play(self) -> PlayCubes:
        play = PlayCubes.of(self.player, self.court, self.territories)
        # `PlayCubes.of` drops keys with no cubes; keep them so that the referee still
        # sees a territory key like "16" and calls it unknown
        empty = tuple((key, ()) for key, colours in self.territories.items() if not colours)
        return PlayCubes(play.player, play.court, play.territories + empty) if empty else play

    def emperor_move(self) -> MoveEmperor:
        return MoveEmperor(self.player, self.emperor)

    def refill_move(self) -> Refill:
        return Refill.of(self.player, self.refill or (), self.returned)


@dataclass(frozen=True)
class RoundRecord:
    discs: tuple[tuple[str, int], ...]
    turns: tuple[TurnRecord, ...] = ()


@dataclass(frozen=True)
class Record:
    setup: Setup
    rounds: tuple[RoundRecord, ...] = ()
    meta: Mapping[str, Any] = field(default_factory=dict)

    # ---------------------------------------------------------------- writing

    def to_json(self) -> dict[str, Any]:
        setup = self.setup
        players = []
        for p in setup.players:
            entry: dict[str, Any] = {"name": p.name, "castles": p.castles}
            if p.seat is not None:
                entry["seat"] = p.seat
            players.append(entry)
        rounds = []
        for rnd in self.rounds:
            turns = []
            for turn in rnd.turns:
                t: dict[str, Any] = {
                    "player": turn.player,
                    "court": list(turn.court),
                    "territories": {k: list(v) for k, v in turn.territories.items()},
                    "emperor": turn.emperor,
                }
                if turn.refill is not None:
                    t["refill"] = list(turn.refill)
                if turn.returned:
                    t["returned"] = dict(turn.returned)
                turns.append(t)
            rounds.append({"discs": [[p, d] for p, d in rnd.discs], "turns": turns})
        data: dict[str, Any] = {
            "format": FORMAT,
            "players": players,
            "setup": {
                "territories": list(setup.territories),
                "emperor": setup.emperor,
                "reserves": {name: list(r) for name, r in setup.reserves.items()},
                "cubes_per_colour": setup.cubes_per_colour,
            },
            "rounds": rounds,
        }
        if self.meta:
            data["meta"] = dict(self.meta)
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_game(cls, game: Game, meta: Mapping[str, Any] | None = None) -> Record:
        """The record of everything pushed on ``game``. The rounds hold whole turns, as
        the format says; the steps after the last whole turn (a game stopped mid-turn)
        go into ``meta["unfinished_turn"]`` with the reason, so saving and re-importing
        a record never drops a step the table took (`unfinished_moves`)."""
        rounds: list[RoundRecord] = []
        discs: list[tuple[str, int]] = []
        turns: list[TurnRecord] = []
        turn: TurnRecord | None = None  # the turn being put together: cubes, emperor, refill
        players = len(game.players)
        whole = 0  # moves of the stack the rounds hold

        def close_round() -> None:
            nonlocal discs, turns
            rounds.append(RoundRecord(tuple(discs), tuple(turns)))
            discs, turns = [], []

        for i, move in enumerate(game.move_stack):
            if isinstance(move, ChooseDisc):
                if len(discs) == players:
                    close_round()
                discs.append((move.player, move.number))
                if len(discs) == players:
                    whole = i + 1
            elif isinstance(move, PlayCubes):
                territories: dict[str, tuple[str, ...]] = {}
                for key, colours in move.territories:
                    territories[str(key)] = territories.get(str(key), ()) + colours
                turn = TurnRecord(move.player, move.court, territories, emperor=0)
            elif isinstance(move, MoveEmperor):
                assert turn is not None, "the rules play the cubes before the emperor"
                turn = replace(turn, emperor=move.steps)
                if move is game.move_stack[-1] and game.is_over:
                    turns.append(turn)
                    whole = i + 1
            else:
                assert turn is not None, "the rules play the cubes before the refill"
                turns.append(replace(turn, refill=move.colours, returned=dict(move.returned)))
                whole = i + 1
        if len(discs) == players:  # discs of an unfinished opening phase are no whole turn
            close_round()
        kept = dict(meta or {})
        kept.pop(UNFINISHED_TURN, None)  # a stale note from a record this game came from
        left = game.move_stack[whole:]
        if left:
            kept[UNFINISHED_TURN] = {
                "steps": [move_to_json(m) for m in left],
                "why": UNFINISHED_WHY,
            }
        return cls(game.setup, tuple(rounds), kept)

    def unfinished_moves(self) -> list[Move]:
        """The steps after the last whole turn that `from_game` kept in ``meta``, in
        order (none for a record of whole turns). `MalformedRecordError` names the field
        when they are not moves; whether they are legal is the referee's business."""
        note = self.meta.get(UNFINISHED_TURN)
        if note is None:
            return []
        where = f"meta.{UNFINISHED_TURN}"
        steps = _list(_required(_object(note, where), "steps", f"{where}."), f"{where}.steps")
        moves = []
        for i, step in enumerate(steps):
            try:
                moves.append(move_from_json(step))
            except MoveFormatError as exc:
                raise MalformedRecordError(f"{where}.steps[{i}]", str(exc)) from None
        return moves


# -------------------------------------------------------------------- reading


def read_record_file(path: str | Path, limit: int = MAX_RECORD_BYTES) -> str:
    """The text of a record file a user named, read so that a wrong name cannot hang or
    exhaust the machine: a FIFO, a device (``/dev/zero``) or a folder is refused before
    a byte is read, and a file over ``limit`` bytes is refused too. Opened non-blocking
    and checked on the open descriptor, so nothing swapped in after a check is read.
    `MalformedRecordError` with the reason otherwise."""
    name = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a FIFO nobody writes to, a socket
            raise MalformedRecordError(
                None, said("%(file)s is not a regular file", file=name)
            ) from None
        raise MalformedRecordError(None, _unreadable(exc.strerror or exc)) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise MalformedRecordError(
                None,
                said(
                    "%(file)s is not a regular file (%(clause)s)",
                    file=name,
                    clause=clause(_what(mode)),
                ),
            )
        chunks: list[bytes] = []
        left = limit + 1  # one byte over the cap tells a file over it
        while left > 0:
            chunk = os.read(fd, min(left, 1024 * 1024))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        raise MalformedRecordError(None, _unreadable(exc.strerror or exc)) from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise MalformedRecordError(
            None,
            said(
                "%(file)s is larger than %(clause)s, the most a record may be; "
                "it is not a game record",
                file=name,
                clause=clause(_size(limit)),
            ),
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedRecordError(None, _unreadable(exc)) from None


def _unreadable(why: object) -> str:
    """``why``: the system's own words (English), kept as they are."""
    return said("cannot read the file: %(given)s", given=str(why))


def _what(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return said("a folder")
    if stat.S_ISFIFO(mode):
        return said("a named pipe")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return said("a device")
    if stat.S_ISSOCK(mode):
        return said("a socket")
    return said("not a file")


def _size(n: int) -> str:
    if n >= 1024 * 1024:
        return said("%(count)s MB", count=n // (1024 * 1024))
    return said("%(count)s bytes", count=n)


def load(path: str | Path) -> Record:
    """Read a record file; `MalformedRecordError` if it is not one."""
    return loads(read_record_file(path))


def loads(text: str) -> Record:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MalformedRecordError(
            None,
            said(
                "not JSON: %(given)s at line %(line)s, column %(column)s",
                given=exc.msg,  # the json module's words
                line=exc.lineno,
                column=exc.colno,
            ),
        ) from None
    except (ValueError, RecursionError) as exc:  # a 5000-digit number, nesting too deep
        raise MalformedRecordError(
            None, said("not a JSON document we can read: %(given)s", given=str(exc))
        ) from None
    return parse(data)


def parse(data: object) -> Record:
    """Build a `Record` from decoded JSON, checking shape and types only."""
    root = _object(data, "record")
    fmt = _required(root, "format", "")
    if fmt != FORMAT:
        raise MalformedRecordError(
            "format",
            said("expected %(expected)s, got %(given)s", expected=repr(FORMAT), given=repr(fmt)),
        )
    players = tuple(
        _player(p, f"players[{i}]")
        for i, p in enumerate(_list(_required(root, "players", ""), "players"))
    )
    setup_obj = _object(_required(root, "setup", ""), "setup")
    territories = _strings(_required(setup_obj, "territories", "setup."), "setup.territories")
    emperor = _int(_required(setup_obj, "emperor", "setup."), "setup.emperor")
    reserves_obj = _object(_required(setup_obj, "reserves", "setup."), "setup.reserves")
    reserves = {name: _strings(r, f"setup.reserves.{name}") for name, r in reserves_obj.items()}
    cubes = setup_obj.get("cubes_per_colour", 40)
    cubes_per_colour = _int(cubes, "setup.cubes_per_colour")
    setup = Setup(players, territories, emperor, reserves, cubes_per_colour)
    rounds = tuple(
        _round(r, f"rounds[{i}]")
        for i, r in enumerate(_list(_required(root, "rounds", ""), "rounds"))
    )
    meta = root.get("meta", {})
    if meta is None:
        meta = {}
    return Record(setup, rounds, _object(meta, "meta"))


def _player(value: object, where: str) -> Player:
    obj = _object(value, where)
    name = _str(_required(obj, "name", f"{where}."), f"{where}.name")
    castles = _str(_required(obj, "castles", f"{where}."), f"{where}.castles")
    seat = obj.get("seat")
    return Player(name, castles, None if seat is None else _str(seat, f"{where}.seat"))


def _round(value: object, where: str) -> RoundRecord:
    obj = _object(value, where)
    discs = []
    for i, pair in enumerate(_list(_required(obj, "discs", f"{where}."), f"{where}.discs")):
        here = f"{where}.discs[{i}]"
        items = _list(pair, here)
        if len(items) != 2:
            raise MalformedRecordError(
                here, said("expected a [player, number] pair, got %(given)s", given=repr(pair))
            )
        discs.append((_str(items[0], f"{here}[0]"), _int(items[1], f"{here}[1]")))
    turns = tuple(
        _turn(t, f"{where}.turns[{i}]")
        for i, t in enumerate(_list(_required(obj, "turns", f"{where}."), f"{where}.turns"))
    )
    return RoundRecord(tuple(discs), turns)


def _turn(value: object, where: str) -> TurnRecord:
    obj = _object(value, where)
    player = _str(_required(obj, "player", f"{where}."), f"{where}.player")
    court = _strings(_required(obj, "court", f"{where}."), f"{where}.court")
    places = _object(_required(obj, "territories", f"{where}."), f"{where}.territories")
    territories = {
        key: _strings(colours, f"{where}.territories.{key}") for key, colours in places.items()
    }
    emperor = _int(_required(obj, "emperor", f"{where}."), f"{where}.emperor")
    refill_value = obj.get("refill")
    refill = None if refill_value is None else _strings(refill_value, f"{where}.refill")
    returned_value = obj.get("returned")
    returned: dict[str, int] = {}
    if returned_value is not None:
        for colour, k in _object(returned_value, f"{where}.returned").items():
            returned[colour] = _int(k, f"{where}.returned.{colour}")
    return TurnRecord(player, court, territories, emperor, refill, returned)


def _required(obj: Mapping[str, Any], key: str, prefix: str) -> Any:
    if key not in obj:
        raise MalformedRecordError(f"{prefix}{key}", said("required field is missing"))
    return obj[key]


def _kind(value: object) -> str:
    if value is None:
        return "null"  # JSON's own word
    if isinstance(value, bool):
        return said("a boolean")
    kinds = {
        int: N_("an integer"),
        float: N_("a number"),
        str: N_("a string"),
        list: N_("a list"),
        dict: N_("an object"),
    }
    kind = kinds.get(type(value))
    return type(value).__name__ if kind is None else said(kind)


def _object(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise MalformedRecordError(
            where, said("expected an object, got %(clause)s", clause=clause(_kind(value)))
        )
    return value


def _list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise MalformedRecordError(
            where, said("expected a list, got %(clause)s", clause=clause(_kind(value)))
        )
    return value


def _str(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise MalformedRecordError(
            where,
            said(
                "expected a string, got %(clause)s %(given)s",
                clause=clause(_kind(value)),
                given=repr(value),
            ),
        )
    return value


def _int(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedRecordError(
            where,
            said(
                "expected an integer, got %(clause)s %(given)s",
                clause=clause(_kind(value)),
                given=repr(value),
            ),
        )
    return value


def _strings(value: object, where: str) -> tuple[str, ...]:
    return tuple(_str(v, f"{where}[{i}]") for i, v in enumerate(_list(value, where)))


__all__: Sequence[str] = (
    "FORMAT",
    "MAX_RECORD_BYTES",
    "UNFINISHED_TURN",
    "MalformedRecordError",
    "Record",
    "RoundRecord",
    "TurnRecord",
    "load",
    "loads",
    "parse",
    "read_record_file",
)
