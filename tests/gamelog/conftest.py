"""Fixtures of the game-log tests: a fresh log file and games logged into it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from gamelog_play import play, two_players

from firmware.gamelog.store import GameLog
from referee.game import Game
from referee.setup import Setup


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "log" / "games.sqlite3"


@pytest.fixture
def log(db: Path) -> Iterator[GameLog]:
    with GameLog(db) as opened:
        yield opened


def log_game(
    log: GameLog,
    setup: Setup,
    seed: int,
    moves: int | None = None,
    finish: bool = True,
    t0: float = 1_790_000_000.0,
) -> tuple[int, Game]:
    """Play a random game into ``log`` as the appliance would; its id and the live game."""
    game_id = log.start_game(setup, t=t0)
    game = Game(setup)
    for i, (move, events) in enumerate(play(game, random.Random(seed), moves)):
        log.step(game_id, move, events, t=t0 + i)
    if finish:
        log.finish(game_id, t=t0 + 10_000)
    return game_id, game


@pytest.fixture
def finished(log: GameLog) -> tuple[int, Game]:
    return log_game(log, two_players(3), seed=3)
