"""Whole games played onto a simulated table and refereed from the snapshots alone:
the written record must be the source record, and the referee must announce the same
castles, merges, control changes and end as the rules engine replaying that record."""

from __future__ import annotations

import pytest
from table_games import announced, referee_run, rules_events, source, stream_of

# (players, seed, strategy, cubes per colour): 2, 3 and 4 players; games that end on
# castles and with fewer than 4 units; a small supply that forces court returns.
GAMES = [
    (2, 0, "greedy", 40),
    (2, 16, "greedy", 40),  # ends with fewer than 4 units
    (3, 0, "greedy", 40),
    (3, 7, "greedy", 40),  # 3 players, fewer than 4 units
    (4, 8, "greedy", 40),  # 4 players, fewer than 4 units
    (4, 1, "random", 40),
    (2, 1, "random", 14),  # supply runs short: cubes return from the courts
]


@pytest.mark.parametrize(("players", "seed", "strategy", "cubes"), GAMES)
def test_record_and_announcements_match_the_source_game(
    players: int, seed: int, strategy: str, cubes: int
) -> None:
    seated, record = source(players, seed, strategy, cubes)
    stream = stream_of(record, seed)
    referee, events = referee_run(seated, stream.snapshots, cubes)

    written = referee.record()
    assert written is not None
    assert written.to_json() == record.to_json()
    assert announced(events) == rules_events(record)
    assert not [e for e in events if e.kind == "illegal"]
    assert all(isinstance(e.t, float) for e in events)


def test_the_games_cover_both_ends_and_returns() -> None:
    reasons = set()
    returns = 0
    for players, seed, strategy, cubes in GAMES:
        _, record = source(players, seed, strategy, cubes)
        reasons.add(rules_events(record)[-1]["reason"])
        returns += sum(1 for r in record.rounds for t in r.turns if t.returned)
    assert reasons == {"castles", "few-territories"}
    assert returns > 0


def test_a_clean_stream_needs_no_flicker_tolerance_and_a_noisy_one_gets_the_same_record() -> None:
    seated, record = source(2, 4, "greedy")
    clean = stream_of(record, 1, flicker=0.0, blind=0.0, late_cylinders=0.0, interleave=0.0)
    noisy = stream_of(record, 2, flicker=0.9, blind=0.3, late_cylinders=1.0, interleave=1.0)
    hasty = stream_of(record, 3, merge=0.6)  # several pieces under one hand
    for stream in (clean, noisy, hasty):
        referee, _ = referee_run(seated, stream.snapshots)
        written = referee.record()
        assert written is not None and written.to_json() == record.to_json()
