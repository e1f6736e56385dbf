"""`carolus games show ID --review`: the post-game review from the game log."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from firmware.cli import main
from referee.record import Record
from referee.selfplay import greedy_player, play_game, random_player, table_players


def test_games_show_review_names_the_losers_costly_turns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = play_game(table_players(2), random.Random(3), [greedy_player, random_player])
    assert game.winner == "Anna"
    record = tmp_path / "game.json"
    record.write_text(Record.from_game(game).dumps())
    db = str(tmp_path / "log.db")
    assert main(["games", "--db", db, "import", str(record)]) == 0
    capsys.readouterr()
    assert main(["games", "--db", db, "show", "1", "--review"]) == 0
    out = capsys.readouterr().out
    review = out.split("Review (the costliest turns, with a better play):", 1)[1]
    lines = [line for line in review.splitlines() if line.strip()]
    assert lines and all("Bob played" in line and "Better:" in line for line in lines)
