"""`replay` is the one path: ``check``, the game log and the table referee's `resume`
rebuild the same game from the same moves, over 200 random games stopped anywhere."""

from __future__ import annotations

import random
from pathlib import Path

from firmware.gamelog.store import GameLog
from referee.check import judge
from referee.game import Phase
from referee.record import Record, loads
from referee.replay import replay
from referee.selfplay import greedy_player, play_game, random_player, table_players
from referee.setup import Setup
from referee.table.referee import TableReferee

GAMES = 200


def test_check_the_game_log_and_resume_agree_on_200_random_games(tmp_path: Path) -> None:
    rng = random.Random(20261124)
    with GameLog(tmp_path / "games.sqlite3") as log:
        for number in range(GAMES):
            players = table_players(rng.choice([2, 3, 4]))
            setup = Setup.random(players, rng)
            strategy = greedy_player if number % 20 == 0 else random_player
            moves = play_game(players, rng, [strategy] * len(players), 60, setup).move_stack
            # stopped anywhere: mid-turn, mid-opening, or at the end
            stop = len(moves) if number % 5 == 0 else rng.randint(0, len(moves))
            played = replay(setup, moves[:stop])
            assert played.refused is None
            game = played.game
            record = loads(Record.from_game(game).dumps())
            whole = len(moves[:stop]) - len(record.unfinished_moves())
            at_whole = replay(setup, moves[:whole]).game

            # check: the record's whole turns
            verdict = judge(record)
            assert verdict.legal, verdict.error
            assert verdict.game is not None
            assert verdict.game.state == at_whole.state
            assert verdict.game.move_stack == moves[:whole]

            # the game log: imported (whole turns and the unfinished steps), rebuilt
            imported = log.import_record(record)
            rebuilt, warnings = log.rebuild(imported.game_id)
            assert warnings == []
            assert rebuilt.state == game.state
            assert rebuilt.move_stack == game.move_stack

            # the table referee carries on the rebuilt game
            referee = TableReferee(players)
            referee.resume(rebuilt)
            assert referee.take_changes().pushed == ()
            assert referee.game is not None and referee.game.state == game.state
            resumed = referee.record()
            assert resumed is not None
            # the record leaves a half-chosen round of discs out; the rest is the same
            if not (game.phase is Phase.OPENING and game.chosen_discs()):
                assert resumed.to_json() == record.to_json()
            assert referee.game.state == game.state  # `record` put back what it took
            assert referee.take_changes().pushed == ()
