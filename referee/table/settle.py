"""Debouncing: a table state is trusted only once it has settled.

The stream's promises (``docs/table.md``): every real state lasts at least 5
snapshots, an unflagged misread at most 2. So among the last 5 trusted frames (mat seen,
not occluded) a real state soon holds a majority of 3, and a misread never does.
Occluded frames and frames without the mat are skipped, not counted.

A real camera breaks the second promise now and then: busy tile art can hold a phantom
cube, or hide a castle, for as long as the light stays. What it cannot fake is the hand:
every real change of the table is made by a hand, and the vision flags a frame with a
hand (or an arm over the markers) as untrusted. So the settler also says whether an
untrusted frame came between the last settled table and the new one (`touched`); the
referee acts only on changes that were touched (see `referee.table.referee`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import Final

from referee.table.snapshot import NO_DOUBTS, Snapshot, Table, table_of

WINDOW: Final = 5
MAJORITY: Final = 3
#: How long an untouched change (no hand since the last settled table) may stand before
#: the referee asks the players about it, in seconds of snapshots.
UNTOUCHED_SECONDS: Final = 5.0


class Settler:
    """Feed it frames; it answers with a table each time a new one has settled."""

    def __init__(self, window: int = WINDOW, majority: int = MAJORITY) -> None:
        #: the last trusted frames, each as the table it saw and the doubts it had
        self._recent: deque[tuple[Table, Mapping[str, float] | None]] = deque(maxlen=window)
        self._majority = majority
        self._hand = False  # an untrusted frame since the last settled table
        self.settled: Table | None = None
        #: whether a hand (an untrusted frame) came before the last settled table
        self.touched = False
        #: the vision's doubts about the last settled table: per zone, the least
        #: confidence among the frames that settled it
        self.confidence: Mapping[str, float] = NO_DOUBTS
        #: the last trusted frame's table and the vision's doubts about it
        self.last: tuple[Table, Mapping[str, float]] | None = None

    def feed(self, snapshot: Snapshot) -> Table | None:
        """The newly settled table, or ``None`` when nothing changed."""
        if not snapshot.trusted:
            self._hand = True
            return None
        table = table_of(snapshot)
        self._recent.append((table, snapshot.confidence))
        self.last = (table, snapshot.confidence or NO_DOUBTS)
        if table == self.settled:
            return None
        agreeing = [doubts for seen, doubts in self._recent if seen == table]
        if len(agreeing) >= self._majority:
            self.settled = table
            self.touched, self._hand = self._hand, False
            self.confidence = _least(agreeing)
            return table
        return None


def _least(doubts: list[Mapping[str, float] | None]) -> Mapping[str, float]:
    """Per zone, the lowest confidence any of the frames gave it: a doubt in one of
    the frames that settled a table is a doubt about the table."""
    if not any(doubts):
        return NO_DOUBTS
    least: dict[str, float] = {}
    for frame in doubts:
        for zone, level in (frame or NO_DOUBTS).items():
            least[zone] = min(level, least.get(zone, 1.0))
    return least
