"""The referee's journal says the same as comparing the move stacks before and after:
the appliance logs it instead of diffing, so the log must not change by a step."""

from __future__ import annotations

import random

from referee.moves import Move, MoveEmperor
from referee.table.journal import Changes, Journal


def diffed(before: list[Move], after: list[Move]) -> Changes:
    """What the appliance used to work out: the stacks' common start kept, the rest of
    ``before`` undone (last first), the rest of ``after`` stored."""
    same = 0
    while same < len(before) and same < len(after) and before[same] == after[same]:
        same += 1
    return Changes(tuple(reversed(before[same:])), tuple(after[same:]))


def test_the_journal_says_what_diffing_the_stacks_said() -> None:
    rng = random.Random(17)
    moves = [MoveEmperor("Anna", steps) for steps in (1, 2, 3)]  # few moves: many repeats
    for _ in range(2000):
        stack = [rng.choice(moves) for _ in range(rng.randint(0, 4))]
        before = list(stack)
        journal = Journal()
        for _ in range(rng.randint(0, 12)):
            if stack and rng.random() < 0.5:
                journal.pop(stack.pop())
            else:
                move = rng.choice(moves)
                stack.append(move)
                journal.push(move)
        assert journal.take() == diffed(before, stack)
        assert journal.take() == Changes()


def test_what_the_referee_takes_back_and_plays_again_unchanged_is_no_change() -> None:
    journal = Journal()
    journal.pop(MoveEmperor("Anna", 2))
    journal.push(MoveEmperor("Anna", 2))
    assert not journal.take()
