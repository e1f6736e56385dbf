"""What a screen of fields draws, read from a typed event in one place.

Three screens draw an event's fields rather than its sentence: the cubes a player
played (or has placed so far), a castle (built, taken over, still to place) and a
cylinder (control gained, still to move). Each is a small frozen card, made here from
the event's class (`of_event`: the rules' events come `referee.table.events.Stamped`
around their `referee.events` value) or from a chore of the view model (`of_chore`,
the view's JSON: the page gets the same chores), so `firmware.display.screens` draws
from named fields and a kind the panel does not draw this way has no card at all.

>>> from referee.events import CastleBuilt
>>> from referee.table.events import stamp
>>> of_event(stamp(CastleBuilt(2, 1, (4, 5), "white"), 9.0))
Castle(side='white', territories=(4, 5), title='castle-built')
>>> of_event(stamp(CastleBuilt(2, 1, (4, 5), "white"), 9.0)).screen
'castle'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from referee.events import CastleBuilt, CastleTaken, ControlGained, CubesPlayed
from referee.table.events import CastlePending, CubesPlaced, CylinderPending, Stamped, TableEvent


@dataclass(frozen=True)
class Cubes:
    """A player's cubes: where each went (``court``, then territory by territory)."""

    player: str
    court: tuple[str, ...]
    #: (territory number as text, the cubes put there), in the order they were given
    territories: tuple[tuple[str, tuple[str, ...]], ...]
    screen = "cubes"


@dataclass(frozen=True)
class Castle:
    """A castle of ``side`` that stands, or must stand, on ``territories``."""

    side: str
    territories: tuple[int, ...]
    #: the announcement whose title the bar shows (``castle-built``, ``castle-taken``);
    #: None: a castle still to place, under the screen's own title
    title: str | None
    screen = "castle"


@dataclass(frozen=True)
class Cylinder:
    """The ``colour`` cylinder, which goes ``to`` a player (or a seat, or the pool)."""

    colour: str
    to: str
    #: ``control-gained`` for the announcement; None: a cylinder still to move
    title: str | None
    screen = "cylinder"


#: A screen's card.
Card = Cubes | Castle | Cylinder


def of_event(event: TableEvent) -> Card | None:
    """The card of an announced event, None for one the panel says in a sentence."""
    match event:
        case Stamped(engine=CubesPlayed() as played):
            return _cubes(played.player, played.court, played.territories)
        case CubesPlaced():
            return _cubes(event.player, event.court, event.territories)
        case Stamped(engine=CastleBuilt() | CastleTaken() as castle):
            return Castle(castle.side, tuple(castle.territories), castle.kind)
        case CastlePending():
            return Castle(event.side, tuple(event.territories), None)
        case Stamped(engine=ControlGained() as gained):
            return Cylinder(gained.colour, gained.player, gained.kind)
        case CylinderPending():
            return Cylinder(event.colour, event.to, None)
    return None


def of_chore(chore: Mapping[str, object]) -> Card | None:
    """The card of a chore the view carries (`referee.table.referee.TableReferee.chores`:
    ``kind`` ``castle`` or ``cylinder``); None for one given in words only."""
    kind = chore.get("kind")
    side, colour = chore.get("side"), chore.get("colour")
    if kind == "castle" and isinstance(side, str) and side:
        numbers = chore.get("territories")
        territories = numbers if isinstance(numbers, list | tuple) else ()
        return Castle(side, tuple(int(t) for t in territories), None)
    if kind == "cylinder" and isinstance(colour, str) and colour:
        return Cylinder(colour, str(chore.get("player") or ""), None)
    return None


def _cubes(
    player: str, court: tuple[str, ...], territories: Mapping[str, object]
) -> Cubes:
    places = tuple(
        (str(number), tuple(str(c) for c in colours))
        for number, colours in territories.items()
        if isinstance(colours, list | tuple)
    )
    return Cubes(player, tuple(court), places)
