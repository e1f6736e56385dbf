"""The advisor's sentences: `said` messages with named fields (issue 17).

Every reason the advisor gives — a threat, a unit's exposure, a hint's why, a review's
line — is a message of the catalogs (``said(msgid, **fields)``, `referee.announcements`),
whole sentences whose parts are other messages (``clause``): it reads as the English it
always was, and `referee.announcements.translated` says it again in any language. Cubes
by colour go in as a ``counted`` field (``2 yellow + 1 red``), a unit as ``where``
(``territory 6``, ``region 4+5+6``), a side as ``side``; players' names as they are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypedDict

from referee.announcements import Said, clause, said
from referee.moves import PlayCubes


class Counted(TypedDict):
    """A ``counted`` field of a message: cubes by colour and castles, as
    `referee.announcements` says a strength (``2 yellow + 1 red``); the same fields
    `referee.game.Strength.said` gives it."""

    cubes: list[str]
    castles: int


def counted(counts: Mapping[str, int] | Sequence[str]) -> Counted:
    """Cubes as a ``counted`` field: ``{"yellow": 2, "red": 1}`` or
    ``["yellow", "red", "yellow"]`` -> said ``1 red + 2 yellow`` (colour order)."""
    if isinstance(counts, Mapping):
        colours = [c for c, n in counts.items() for _ in range(n)]
    else:
        colours = list(counts)
    return {"cubes": colours, "castles": 0}


def score(values: Sequence[int]) -> dict[str, object] | str:
    """The two highest strengths, ``5 to 3``, as a clause."""
    top = sorted(values, reverse=True)[:2]
    if len(top) < 2:
        return " to ".join(str(v) for v in top)
    return clause(said("%(count)s to %(count2)s", count=top[0], count2=top[1]))


def both(first: Said | None, second: Said | None, none: Said) -> Said:
    """``A and B``, one of them, or ``none``."""
    if first is not None and second is not None:
        return said("%(clause)s and %(clause2)s", clause=clause(first), clause2=clause(second))
    return first or second or none


def play_words(play: PlayCubes, steps: int) -> Said:
    """A turn in words: ``2 yellow to the court, 1 yellow onto 6; emperor 3 steps``."""
    parts = []
    if play.court:
        parts.append(clause(said("%(counted)s to the court", counted=counted(play.court))))
    for key, colours in play.territories:
        parts.append(
            clause(said("%(counted)s onto %(territory)s", counted=counted(colours), territory=key))
        )
    if steps == 1:
        return said("%(items)s; emperor %(count)s step", items=parts, count=steps)
    return said("%(items)s; emperor %(count)s steps", items=parts, count=steps)
