"""``carolus play``: a game typed in at the terminal, refereed move by move.

Handy at a table without the camera, and the proof that the engine can be driven live.
Each prompt asks for the step the rules expect; anything refused is explained and asked
again. ``help`` lists what else may be typed at any prompt.
"""

from __future__ import annotations

import argparse
import random
import re
from pathlib import Path
from typing import TextIO

from referee.announcements import ENGLISH, N_, Translator, clause, said, say, say_move, translated
from referee.check import judge, table_lines
from referee.errors import IllegalMoveError
from referee.events import Event
from referee.game import Game, Majority, Phase, Step
from referee.moves import ChooseDisc, MoveEmperor, PlayCubes, Refill
from referee.pieces import CASTLE_COLOURS, COLOURS
from referee.record import MalformedRecordError, Record, load
from referee.selfplay import roll_refill
from referee.setup import Player, Setup
from referee.terminal import for_terminal

HELP = N_("""\
At any prompt:
  show          the table: castles, emperor, courts, reserves
  majority N    each side's strength in the territory or region holding N
  majorities    every unit, most contested first
  undo          take back the last move
  save FILE     write the game record
  quit          stop (the record is saved if --record was given)
Steps:
  disc:     NAME N   (or just N when one player chooses)
  cubes:    court red red; 4 blue      (colours may be r g y b p; ';' or ',' between places)
  emperor:  a number of steps
  refill:   red green blue   or   roll   (the dice are rolled for you)
""")

_SHORT = {c[0]: c for c in COLOURS}


class InputError(ValueError):
    """What was typed does not parse."""


def parse_colours(words: list[str]) -> list[str]:
    colours: list[str] = []
    for word in words:
        colour = _SHORT.get(word.lower(), word.lower())
        if colour not in COLOURS:
            raise InputError(
                said(
                    "%(given)s is not a colour (%(colours)s)",
                    given=repr(word),
                    colours=list(COLOURS),
                )
            )
        colours.append(colour)
    return colours


def parse_cubes(player: str, text: str) -> PlayCubes:
    """``court red red; 4 blue`` -> a cube play."""
    court: list[str] = []
    territories: dict[int, list[str]] = {}
    for group in re.split(r"[;,]", text):
        words = group.split()
        if not words:
            continue
        place, colours = words[0].lower(), parse_colours(words[1:])
        if not colours:
            raise InputError(said("no colours after %(given)s", given=repr(words[0])))
        if place in ("court", "c"):
            court += colours
        elif place.isdigit():
            territories.setdefault(int(place), []).extend(colours)
        else:
            raise InputError(
                said("%(given)s is neither 'court' nor a territory number", given=repr(words[0]))
            )
    return PlayCubes.of(player, court, territories)


def parse_players(text: str) -> list[Player]:
    players = []
    for item in text.split(","):
        name, _, castles = item.strip().partition(":")
        if not name or castles not in CASTLE_COLOURS:
            raise InputError(
                said(
                    "%(option)s wants %(form)s with castles %(sides)s; got %(given)s",
                    option="--players",
                    form="NAME:CASTLES,...",
                    sides=list(CASTLE_COLOURS),
                    given=repr(item.strip()),
                )
            )
        players.append(Player(name, castles))
    return players


class Console:
    """The read–referee–explain loop over text streams (so tests can drive it)."""

    def __init__(
        self,
        game: Game,
        out: TextIO,
        rng: random.Random,
        record_path: Path | None = None,
        tr: Translator = ENGLISH,
    ) -> None:
        self.tr = tr  # the language of what the referee says (the typed words are English)
        self.game = game
        self.out = out
        self.rng = rng
        self.record_path = record_path

    def say(self, text: str = "") -> None:
        print(for_terminal(text), file=self.out, flush=True)

    def prompt(self) -> str:
        """What the referee asks for now, in its language (the typed words stay
        English: ``court``, ``roll``, the colours' initials)."""
        game, tr = self.game, self.tr
        progress = game.progress
        if progress.turn == 0:
            where = said("[round %(round)s, discs being chosen]", round=progress.round)
        else:
            where = said(
                "[round %(round)s, turn %(turn)s]", round=progress.round, turn=progress.turn
            )
        if game.phase is Phase.OPENING:
            choosers = game.choosers()
            who = choosers[0]
            for other in choosers[1:]:
                who = tr.gettext("%(player)s or %(other)s") % {"player": who, "other": other}
            ask = said("%(clause)s %(player)s, choose a disc> ", clause=clause(where), player=who)
            return translated(ask, tr)
        player = game.to_move
        assert player is not None
        if game.step is Step.CUBES:
            ask = said(
                "%(clause)s %(player)s plays %(count)s cubes from %(pieces)s> ",
                clause=clause(where),
                player=player,
                count=game.cubes_to_play(player),
                pieces=game.reserve(player).colours(),
            )
        elif game.step is Step.EMPEROR:
            ask = said(
                "%(clause)s %(player)s, emperor steps (1-%(disc)s)> ",
                clause=clause(where),
                player=player,
                disc=game.disc(player),
            )
        else:
            ask = said(
                "%(clause)s %(player)s, refill colours or 'roll'> ",
                clause=clause(where),
                player=player,
            )
        return translated(ask, tr)

    def run(self, lines: TextIO) -> int:
        players = len(self.game.players)
        hello = self.tr.gettext("Carolus Magnus, %(players)s players. Type 'help' for help.")
        self.say(hello % {"players": players})
        self.show()
        while not self.game.is_over:
            self.out.write(for_terminal(self.prompt()))
            self.out.flush()
            line = lines.readline()
            if not line:
                self.say()
                break
            text = line.strip()
            if not text:
                continue
            if text in ("quit", "exit", "q"):
                break
            try:
                self.handle(text)
            except InputError as exc:
                text = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
                self.say(f"  ! {translated(text, self.tr)}")
            except IllegalMoveError as exc:
                self.say(f"  ! {translated(exc.message, self.tr)}")
        if self.game.is_over:
            self.say(self._game_over())
        try:
            self.save()
        except InputError as exc:
            self.say(f"  ! {translated(str(exc.args[0]), self.tr)}")
            return 1
        return 0

    def handle(self, text: str) -> None:
        command, _, rest = text.partition(" ")
        game = self.game
        if command == "help":
            self.say(self.tr.gettext(HELP))
        elif command == "show":
            self.show()
        elif command == "majority":
            if not rest.strip().isdigit() or not 1 <= int(rest) <= 15:
                raise InputError(said("majority wants a territory number 1-15"))
            self.say(game.explain(int(rest)).describe(tr=self.tr))
        elif command == "majorities":
            for majority in sorted(game.majorities(), key=lambda m: m.margin):
                self.say(majority.describe(tr=self.tr))
        elif command == "undo":
            if not game.move_stack:
                raise InputError(said("nothing to undo"))
            told = say_move(game.move_stack[-1], game, self.tr)  # said as it was made
            player = game.pop().player
            took = self.tr.gettext("took back %(player)s's move: %(move)s")
            self.say("  " + took % {"player": player, "move": told})
        elif command == "save":
            if not rest.strip():
                raise InputError(said("save wants a file name"))
            write_record(game, Path(rest.strip()))
            self.say("  " + translated(said("saved %(given)s", given=rest.strip()), self.tr))
        else:
            self.step(text)

    def step(self, text: str) -> None:
        game = self.game
        if game.phase is Phase.OPENING:
            words = text.split()
            choosers = game.choosers()
            if len(words) == 1 and len(choosers) == 1:
                words = [choosers[0], words[0]]
            if len(words) != 2 or not words[1].isdigit():
                raise InputError(said("type the chooser's name and a disc number, e.g. 'Anna 3'"))
            self.push(ChooseDisc(words[0], int(words[1])))
            return
        player = game.to_move
        assert player is not None
        if game.step is Step.CUBES:
            self.push(parse_cubes(player, text))
        elif game.step is Step.EMPEROR:
            if not text.isdigit():
                raise InputError(said("type a number of steps"))
            self.push(MoveEmperor(player, int(text)))
        elif text == "roll":
            self.push(roll_refill(game, self.rng))
        else:
            colours = parse_colours(text.split())
            self.push(Refill.of(player, colours, self._returns_for(colours)))

    def _returns_for(self, colours: list[str]) -> dict[str, int]:
        """The returns the rules call for when the supply is short (people don't count)."""
        supply = self.game.supply()
        returns: dict[str, int] = {}
        for i, colour in enumerate(COLOURS):
            short = colours.count(colour) - supply[i]
            if short > 0:
                k = self.game.canonical_return(colour, short)
                if k:
                    returns[colour] = k
        return returns

    def push(self, move: ChooseDisc | PlayCubes | MoveEmperor | Refill) -> None:
        # the stop's majority as the emperor found it: once resolved, a castle just
        # built would read as one its owner merely keeps
        stop = (
            self.game.explain(self.game.emperor_reach(move.steps))
            if isinstance(move, MoveEmperor) and self.game.is_legal(move)
            else None
        )
        events = self.game.push(move)
        self.announce(events, stop)
        if isinstance(move, Refill) or self.game.is_over:
            self.save()

    def announce(self, events: list[Event], stop: Majority | None = None) -> None:
        for event in events:
            if event.kind in ("disc-chosen", "cubes-played"):
                continue
            self.say(f"  {say(event, self.tr)}")
            if event.kind == "emperor-moved" and stop is not None:
                self.say("  " + stop.describe(happened=True, tr=self.tr).replace("\n", "\n  "))
            if event.kind == "turn-started":
                self.show()

    def _game_over(self) -> str:
        """``The game is over: white wins (castles on 10 territories) in round 7, turn 2.``"""
        tr, progress = self.tr, self.game.progress
        where = tr.gettext("round %(round)s, turn %(turn)s") % {
            "round": progress.round,
            "turn": progress.turn,
        }
        return tr.gettext("The game is over: %(result)s in %(progress)s.") % {
            "result": translated(self.game.describe_result(), tr),
            "progress": where,
        }

    def show(self) -> None:
        for line in table_lines(self.game, self.tr):
            self.say(f"  {line}")

    def save(self) -> None:
        if self.record_path is not None:
            write_record(self.game, self.record_path)


def write_record(game: Game, path: Path) -> None:
    """Write ``game``'s record to ``path``; a file that cannot be written is said (the
    file and the system's reason) as an `InputError`, never a traceback: the game goes on
    and the player may ``save`` elsewhere."""
    try:
        path.write_text(Record.from_game(game).dumps(), encoding="utf-8")
    except OSError as exc:
        raise InputError(cannot_write(path, exc)) from None


def cannot_write(path: Path, exc: OSError) -> str:
    """Why ``path`` cannot be written, for the person at the terminal (the system's
    reason in its own words)."""
    return said(
        "cannot write the record to %(given)s: %(reason)s",
        given=repr(str(path)),
        reason=exc.strerror or str(exc),
    )


def writable(path: Path) -> str | None:
    """Why the record cannot be written to ``path``, or None when it can: asked before
    the game starts, so ``--record`` in a missing folder is said before any move is typed
    rather than after the first round. An existing file is opened for appending (and left
    as it was); a new one is made and taken away again."""
    existed = path.exists()
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as exc:
        return cannot_write(path, exc)
    if not existed:
        path.unlink(missing_ok=True)
    return None


def play_console(
    args: argparse.Namespace, lines: TextIO, out: TextIO, tr: Translator = ENGLISH
) -> int:
    """Entry of ``carolus play``; ``tr``: the catalog of the language it speaks."""
    import sys

    rng = random.Random(args.seed)
    if args.resume:
        try:
            record = load(args.resume)
        except MalformedRecordError as exc:
            said_here = translated(exc.message, tr)  # in the language asked for (issue 17)
            where = f"{exc.field}: " if exc.field else ""
            print(for_terminal(f"carolus play: {args.resume}: {where}{said_here}"), file=sys.stderr)
            return 2
        verdict = judge(record, args.resume)
        if not verdict.legal or verdict.game is None:
            error = verdict.error or {}
            why = error.get("message")
            message = translated(why, tr) if isinstance(why, str) else str(why)
            print(for_terminal(f"carolus play: {args.resume}: {message}"), file=sys.stderr)
            return 1
        game = verdict.game
    else:
        try:
            players = parse_players(args.players)
            game = Game(Setup.random(players, rng))
        except InputError as exc:
            text = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
            print(for_terminal(f"carolus play: {translated(text, tr)}"), file=sys.stderr)
            return 2
        except IllegalMoveError as exc:
            print(for_terminal(f"carolus play: {translated(exc.message, tr)}"), file=sys.stderr)
            return 2
    record_path = Path(args.record) if args.record else None
    if record_path is not None and (why := writable(record_path)) is not None:
        print(for_terminal(f"carolus play: --record: {translated(why, tr)}"), file=sys.stderr)
        return 2
    return Console(game, out, rng, record_path, tr).run(lines)
