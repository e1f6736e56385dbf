"""Events said in words, as a referee at the table would say them (English).

The display, the voice and the terminal use these sentences; the web page translates
its own (see the web issue).

>>> from referee.events import CastleTaken
>>> say(CastleTaken(3, 2, (5, 6, 7), "white", "black"))
'White takes over region 5+6+7 from black.'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.events import (
    CastleBuilt,
    CastleTaken,
    ControlGained,
    CubesPlayed,
    DiscChosen,
    EmperorMoved,
    Event,
    GameOver,
    Merged,
    Refilled,
    Returned,
    TurnStarted,
)
from referee.moves import ChooseDisc, Move, MoveEmperor, PlayCubes

if TYPE_CHECKING:
    from referee.game import Game


def where(territories: tuple[int, ...] | list[int]) -> str:
    """``territory 6`` or ``region 4+5+6``."""
    if len(territories) == 1:
        return f"territory {territories[0]}"
    return "region " + "+".join(str(t) for t in territories)


def _colours(colours: tuple[str, ...] | list[str]) -> str:
    counts: dict[str, int] = {}
    for colour in colours:
        counts[colour] = counts.get(colour, 0) + 1
    return ", ".join(f"{n} {c}" for c, n in counts.items()) or "nothing"


def say(event: Event) -> str:
    """One sentence for ``event``."""
    if isinstance(event, DiscChosen):
        return f"{event.player} lays disc {event.number}."
    if isinstance(event, TurnStarted):
        return f"Round {event.round}: {event.player}'s turn (disc {event.disc})."
    if isinstance(event, CubesPlayed):
        parts = []
        if event.court:
            parts.append(f"{_colours(event.court)} to his court")
        parts += [f"{_colours(c)} on territory {t}" for t, c in event.territories.items()]
        return f"{event.player} plays {'; '.join(parts) or 'no cubes'}."
    if isinstance(event, ControlGained):
        was = f" from {event.previous}" if event.previous else ""
        return (
            f"{event.player} gains control of {event.colour}{was}: "
            f"move the {event.colour} cylinder to {event.player}'s court."
        )
    if isinstance(event, EmperorMoved):
        steps = f"{event.steps} step{'s' if event.steps != 1 else ''}"
        return f"The emperor moves {steps} to {where([event.territory])}."
    if isinstance(event, CastleBuilt):
        return f"{event.side.capitalize()} builds a castle on {where(event.territories)}."
    if isinstance(event, CastleTaken):
        return (
            f"{event.side.capitalize()} takes over {where(event.territories)} "
            f"from {event.previous}."
        )
    if isinstance(event, Merged):
        return f"{where(event.territories).capitalize()} is now one {event.side} region."
    if isinstance(event, Returned):
        return (
            f"The supply ran short of {event.colour}: every player returns "
            f"{event.k} {event.colour} from his court."
        )
    if isinstance(event, Refilled):
        return f"{event.player} refills {_colours(event.colours)}."
    if isinstance(event, GameOver):
        how = "by castles" if event.reason == "castles" else "with fewer than 4 territories left"
        if event.winner == "draw":
            return f"Game over {how}: a draw."
        return f"Game over {how}: {event.winner} wins."
    return event.kind


def move_event(move: Move, game: Game) -> Event:
    """The event ``move`` causes, with ``game`` as the move left it (pushed, not yet
    taken back): the move's own part of what `Game.push` returns."""
    rnd, turn = game.round, game.turn_number
    if isinstance(move, ChooseDisc):
        return DiscChosen(rnd, 0, move.player, move.number)
    if isinstance(move, PlayCubes):
        places = {str(key): list(colours) for key, colours in move.territories}
        return CubesPlayed(rnd, turn, move.player, move.court, places)
    if isinstance(move, MoveEmperor):
        return EmperorMoved(rnd, turn, move.player, move.steps, game.emperor)
    return Refilled(rnd, turn, move.player, move.colours)


def say_move(move: Move, game: Game) -> str:
    """``move`` in words, with ``game`` as the move left it. A move is said as the event
    it causes, so a step reads the same when it is announced, replayed or taken back."""
    return say(move_event(move, game))
