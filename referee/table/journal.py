"""What the table referee pushed and popped, said as it happened, net.

The referee plays moves tentatively and takes them back (`referee.table.referee`), so the
game log must not hear every push and pop, only what changed since it last wrote:
the moves taken back from what it holds, then the moves played after them. A move
taken back and played again unchanged, or played and taken back before anyone asked,
is no change at all.

>>> from referee.moves import ChooseDisc, MoveEmperor
>>> journal = Journal()
>>> journal.push(ChooseDisc("Anna", 3)); journal.push(MoveEmperor("Anna", 1))
>>> len(journal.take().pushed)
2
>>> journal.pop(MoveEmperor("Anna", 1)); journal.push(MoveEmperor("Anna", 1))
>>> journal.take()
Changes(popped=(), pushed=())
>>> journal.pop(MoveEmperor("Anna", 1)); journal.push(MoveEmperor("Anna", 2))
>>> changes = journal.take()
>>> changes.popped, changes.pushed
((MoveEmperor(player='Anna', steps=1),), (MoveEmperor(player='Anna', steps=2),))
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.moves import Move


@dataclass(frozen=True)
class Changes:
    """The moves taken back (the last played first), then the moves played, in order."""

    popped: tuple[Move, ...] = ()
    pushed: tuple[Move, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.popped or self.pushed)


class Journal:
    """The net change of a game's move stack since the last `take`.

    The stack as last taken, less ``popped`` from its top, plus ``pushed``: the first
    move pushed is never the last one popped (that push undoes the pop), so the
    popped moves are exactly those the two stacks do not share.
    """

    def __init__(self) -> None:
        self._popped: list[Move] = []
        self._pushed: list[Move] = []

    def push(self, move: Move) -> None:
        if not self._pushed and self._popped and self._popped[-1] == move:
            self._popped.pop()
        else:
            self._pushed.append(move)

    def pop(self, move: Move) -> None:
        if self._pushed:
            self._pushed.pop()
        else:
            self._popped.append(move)

    def take(self) -> Changes:
        """The changes since the last `take`, and a fresh start from here."""
        changes = Changes(tuple(self._popped), tuple(self._pushed))
        self._popped, self._pushed = [], []
        return changes
