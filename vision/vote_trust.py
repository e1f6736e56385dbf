"""How far a fitted model's vote may be trusted, measured on labelled blobs it never saw.

The fitted counts (`vision.cube_count`) are decided by the labelled blobs most like the
one read: k neighbours vote. How many of them agreed used to be the confidence itself
(``2 * share - 1``), so 8 of 9 agreeing read as 0.78, well above the referee's
`DOUBTFUL`. On blobs held out of the fit such a count was wrong about one time in ten:
two touching cubes read as one were buzzed as an illegal act instead of asked about.
Here the confidence is what a vote for that count with that many agreeing neighbours
was worth on held-out frames (a fit without each fold of frames, counting that fold),
kept with the model as data by the fitting script. Per count, because counts differ:
a blob all nine neighbours call one cube was right 99.6 % of the time, one they all
call two cubes 92 % (crowded cubes hide each other), so only the second is asked about.

How often a count may be wrong before the referee should rather ask is a choice of the
product, not a fitted number: `TOLERATED`. A vote that was right exactly that often
gets the confidence `DOUBTFUL` (0.5) stands for; one never wrong gets 1.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

#: A count wrong more often than once in fifty held-out blobs is a doubt: a question for
#: the players costs one answer, a wrong alarm or a wrong record costs their trust.
TOLERATED = 0.02
#: Folds of labelled frames: each is counted by a model fitted on the others.
FOLDS = 5


def trust_table(won: np.ndarray, agreeing: np.ndarray, right: np.ndarray, k: int
                ) -> list[list[float]]:
    """Per count voted for (0 up to the largest), per number of agreeing neighbours
    (0..k): the share of held-out blobs counted right, with one right and one wrong
    count added to each tally (a vote seen a few times is not sure), and never less
    than a vote for the same count with fewer agreeing neighbours had (more agreement is
    not less sure: the tallies of rare votes are noise)."""
    won = np.asarray(won, np.int64)
    agreeing = np.asarray(agreeing, np.int64)
    right = np.asarray(right, bool)
    tables = []
    for n in range(int(won.max()) + 1 if len(won) else 1):
        mine = won == n
        seen = np.bincount(agreeing[mine], minlength=k + 1)[: k + 1]
        good = np.bincount(agreeing[mine & right], minlength=k + 1)[: k + 1]
        share = (good + 1.0) / (seen + 2.0)
        tables.append([round(float(v), 4) for v in np.maximum.accumulate(share)])
    return tables


def confidence(trust: float) -> float:
    """The zone confidence of a count right with chance `trust`: 1 when never wrong,
    0.5 (`DOUBTFUL`) when wrong `TOLERATED` of the time, 0 from twice that on."""
    return min(1.0, max(0.0, 1.0 - (1.0 - trust) / (2.0 * TOLERATED)))


def read_table(raw: object, k: int) -> dict[str, tuple[float, ...]]:
    """A stored trust table: per label voted for (a word), one share per number of
    agreeing neighbours (0..k). Raises `ValueError` saying what is wrong with it."""
    if not isinstance(raw, dict) or not raw or any(
            not isinstance(row, list) or len(row) != k + 1 for row in raw.values()):
        raise ValueError(f"trust {raw!r} is not, per label voted for, one share per "
                         f"number of agreeing neighbours (0 to {k})")
    return {str(w): tuple(float(v) for v in row) for w, row in raw.items()}


def worth(table: dict[str, tuple[float, ...]], label: str, agreeing: int) -> float:
    """The zone confidence of a vote for `label` with `agreeing` neighbours: 0 for a
    label no held-out blob was voted (nothing says such a vote is ever right)."""
    row = table.get(label)
    return 0.0 if row is None else confidence(row[agreeing])


def held_out_votes(groups: np.ndarray, labels: np.ndarray,
                   vote: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(label voted for, agreeing neighbours, counted right) for every labelled blob,
    each counted by a model fitted without its fold of frames. `groups` names each
    blob's frame (a scene's blobs stay together: the same piece in two lights would
    vouch for itself); ``vote(train, test)`` fits on the blobs at indices `train` and
    returns the winning label and its agreeing neighbours for those at `test`."""
    groups = np.asarray(groups)
    names = np.unique(groups)
    fold_of = {name: i % FOLDS for i, name in enumerate(names)}
    fold = np.array([fold_of[g] for g in groups], np.int64)
    won = np.zeros(len(labels), np.int64)
    agreeing = np.zeros(len(labels), np.int64)
    for f in range(min(FOLDS, len(names))):
        test = np.flatnonzero(fold == f)
        train = np.flatnonzero(fold != f)
        if len(test) == 0 or len(train) == 0:
            continue
        won[test], agreeing[test] = vote(train, test)
    return won, agreeing, won == np.asarray(labels)
