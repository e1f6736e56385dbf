"""One replay: a game's moves folded over its set-up, as boardgame.io replays its log.

`carolus check` (`referee.check.judge`), the game log (`GameLog.rebuild` and the import
of a record's unfinished turn in `firmware.gamelog.store`) and the table referee carrying
on a rebuilt game (`TableReferee.resume`) all rebuild a position through `replay`, so
they cannot disagree about it; they differ only in what they say about a move refused.

>>> from referee.moves import ChooseDisc, MoveEmperor
>>> from referee.setup import Player, Setup
>>> setup = Setup.random([Player("Anna", "white"), Player("Bob", "black")])
>>> done = replay(setup, [ChooseDisc("Anna", 3), ChooseDisc("Bob", 2), MoveEmperor("Bob", 1)])
>>> done.pushed, done.refused.code
(2, 'turn-order')
>>> [e.kind for e in done.events[1]]
['disc-chosen', 'turn-started']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from referee.errors import IllegalMoveError
from referee.events import Event
from referee.game import Game
from referee.moves import Move
from referee.setup import Setup


@dataclass
class Replay:
    """What a replay left: the game, the events of every move it pushed (one list a
    move, in order), and the first move the rules refused, if one stopped it."""

    game: Game
    events: list[list[Event]]
    refused: IllegalMoveError | None = None
    #: the refused move (None when every move was pushed)
    move: Move | None = None

    @property
    def pushed(self) -> int:
        """How many of the moves were pushed: the index of the refused one."""
        return len(self.events)


def replay(
    start: Setup | Game,
    moves: Iterable[Move],
    then: Callable[[Game, Move, list[Event]], None] | None = None,
) -> Replay:
    """Push ``moves`` in order on a new game of ``start`` (or on ``start`` itself, a
    game, to carry it on) until the rules refuse one; ``then`` is told of each move
    pushed, with the game as that move left it.

    ``moves`` is read one move at a time, after the one before was pushed: a reader
    that looks at the game to decide what comes next (a record's rounds, in
    `referee.check`) may end the fold by stopping.
    """
    game = start if isinstance(start, Game) else Game(start)
    events: list[list[Event]] = []
    for move in moves:
        try:
            played = game.push(move)
        except IllegalMoveError as exc:
            return Replay(game, events, exc, move)
        events.append(played)
        if then is not None:
            then(game, move, played)
    return Replay(game, events)
