"""The advisor (training mode): threats, exposure, hints and a post-game review.

The appliance sees every reserve, so it can do the watching the rules ask of players —
but only when asked: an `Advisor` is off unless a game turns training mode on.

What the hint search considers: for the player to move, every handful of his reserve
sent to his court (which fixes who controls what), the rest of the turn's cubes — only
colours his side then controls — spread over the unit the emperor stops on and up to two
units the following opponents could win from there, and every emperor step his disc allows. Each
candidate is played on a light copy of the table (`board.Board`, checked against the
engine) and scored: castles ahead of the best other side (a win decides), colours held
(weighted by their cubes on the ring) and court margins, and every unit's majority
lead. The best few dozen are scored again after the opponents' likely replies: the
next player (and at half weight the one after) makes the most damaging build or
takeover his reserve and the emperor's reach allow, computed exactly for one turn; a
partner's best capture counts for the side. It looks one reply deep, ignores the dice,
and never puts a cube that counts for nobody or for an opponent onto the ring.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.advisor.exposure import Exposure, exposure
from referee.advisor.hints import Hint, best_play, hint_player, score_play, search
from referee.advisor.review import ReviewItem, review
from referee.advisor.threats import Threats, threats
from referee.game import Game, Phase, Step


@dataclass(frozen=True)
class Advice:
    """Everything the advisor says about one position."""

    threats: Threats
    exposure: list[Exposure]
    hints: list[Hint] = field(default_factory=list)  # best first; empty before the cubes

    @property
    def hint(self) -> Hint | None:
        return self.hints[0] if self.hints else None

    def to_json(self) -> dict[str, Any]:
        return {
            "threats": self.threats.to_json(),
            "exposure": [e.to_json() for e in self.exposure],
            "hint": self.hint.to_json() if self.hint else None,
            "alternatives": [h.to_json() for h in self.hints[1:4]],
        }


def advise(game: Game, hints: int = 4) -> Advice:
    """Threats, exposure and (for a player about to play cubes) the best ``hints``."""
    found: list[Hint] = []
    if game.phase is Phase.ACTION and game.step is Step.CUBES:
        found = search(game)[:hints]
    return Advice(threats(game), exposure(game), found)


class Advisor:
    """Training mode for one game: off by default; when on, it answers when asked."""

    def __init__(self, enabled: bool = False) -> None:
        self.enabled = enabled

    def advise(self, game: Game) -> Advice | None:
        return advise(game) if self.enabled else None


__all__ = [
    "Advice",
    "Advisor",
    "Exposure",
    "Hint",
    "ReviewItem",
    "Threats",
    "advise",
    "best_play",
    "exposure",
    "hint_player",
    "review",
    "score_play",
    "search",
    "threats",
]
