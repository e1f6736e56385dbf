"""Debouncing: a table state is trusted only once it has settled.

The stream's promises (``shared/spec/table.md``): every real state lasts at least 5
snapshots, an unflagged misread at most 2. So among the last 5 trusted frames (mat seen,
not occluded) a real state soon holds a majority of 3, and a misread never does.
Occluded frames and frames without the mat are skipped, not counted.
"""

from __future__ import annotations

from collections import deque
from typing import Final

from referee.table.snapshot import Snapshot, Table

WINDOW: Final = 5
MAJORITY: Final = 3


class Settler:
    """Feed it frames; it answers with a table each time a new one has settled."""

    def __init__(self, window: int = WINDOW, majority: int = MAJORITY) -> None:
        self._recent: deque[Table] = deque(maxlen=window)
        self._majority = majority
        self.settled: Table | None = None

    def feed(self, snapshot: Snapshot) -> Table | None:
        """The newly settled table, or ``None`` when nothing changed."""
        if not snapshot.trusted:
            return None
        table = snapshot.table
        self._recent.append(table)
        if table == self.settled:
            return None
        if sum(1 for seen in self._recent if seen == table) >= self._majority:
            self.settled = table
            return table
        return None
