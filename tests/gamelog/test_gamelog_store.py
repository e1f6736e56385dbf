"""The log keeps every step, event, correction, undo and picture, and resumes by replay."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from gamelog_play import choose, four_players, log_game, play, two_players

from firmware.gamelog import schema
from firmware.gamelog.steps import move_from_json, move_to_json
from firmware.gamelog.store import GameLog, UnknownGameError, default_path
from referee.check import final_state
from referee.errors import BadSetupError
from referee.game import Game, Phase, Step
from referee.moves import ChooseDisc, MoveEmperor, PlayCubes, Refill
from referee.record import Record

JPEG = b"\xff\xd8\xff\xe0" + bytes(200) + b"\xff\xd9"


def test_every_kind_of_move_survives_json() -> None:
    moves = [
        ChooseDisc("Anna", 3),
        PlayCubes.of("Bob", ["green", "green"], {4: ["red"], "7": ["blue"]}),
        MoveEmperor("Bob", 2),
        Refill.of("Bob", ["pink", "blue", "yellow"], {"red": 2}),
    ]
    for move in moves:
        assert move_from_json(move_to_json(move)) == move


def test_a_new_log_is_at_the_latest_schema_in_wal_mode(log: GameLog, db: Path) -> None:
    assert db.exists()
    conn = log.connection
    assert schema.version(conn) == schema.LATEST == 4
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_resume_rebuilds_the_running_game_exactly(log: GameLog, db: Path) -> None:
    setup = two_players(5)
    game_id, live = log_game(log, setup, seed=5, moves=23, finish=False)
    log.close()
    with GameLog(db) as again:
        resumed = again.open_running()
    assert resumed is not None and resumed.game_id == game_id
    game = resumed.game
    assert game.move_stack == live.move_stack
    assert final_state(game) == final_state(live)
    assert (game.round, game.phase, game.step, game.to_move) == (
        live.round,
        live.phase,
        live.step,
        live.to_move,
    )
    assert resumed.seats == {"Anna": "south", "Bob": "north"}
    assert resumed.steps == 23 and resumed.warnings == []
    # the rebuilt referee plays on: the next legal move is accepted and logged
    rng = random.Random(9)
    move = choose(game, rng)
    assert live.is_legal(move)


def test_resume_mid_turn_keeps_the_half_played_turn(log: GameLog) -> None:
    setup = two_players(2)
    game = Game(setup)
    game_id = log.start_game(setup)
    for move, events in play(game, random.Random(2)):
        log.step(game_id, move, events)
        if game.phase is Phase.ACTION and game.step is Step.REFILL:
            break
    resumed = log.resume(game_id).game
    assert resumed.step is Step.REFILL and resumed.to_move == game.to_move
    assert resumed.supply() == game.supply()


def test_undo_takes_the_step_back_but_keeps_it(log: GameLog) -> None:
    setup = two_players(4)
    game_id, live = log_game(log, setup, seed=4, moves=6, finish=False)
    undone = log.undo(game_id)
    assert undone == live.pop()
    assert log.resume(game_id).game.move_stack == live.move_stack
    assert [c["kind"] for c in log.corrections(game_id)] == ["undo"]
    assert log.corrections(game_id)[0]["move"] == move_to_json(undone)
    # the events of the undone step are still there, marked
    assert any(e["undone"] for e in log.events(game_id))
    # a new step after the undo replaces it in the replay
    move = choose(live, random.Random(1))
    log.step(game_id, move, live.push(move))
    assert log.moves(game_id) == live.move_stack


def test_events_and_corrections_are_kept_with_their_time(log: GameLog) -> None:
    setup = two_players(6)
    game_id, _live = log_game(log, setup, seed=6, moves=9, finish=False)
    log.event(game_id, {"kind": "cube-put-back", "territory": 4}, t=123.5)
    log.correction(game_id, "moved-cube", {"from": 4, "to": 5, "agreed": True}, t=124.0)
    events = log.events(game_id)
    assert events[-1]["kind"] == "cube-put-back" and events[-1]["t"] == 123.5
    assert events[-1]["seq"] == 9
    kinds = [e["kind"] for e in events]
    assert "disc-chosen" in kinds and "cubes-played" in kinds
    assert log.corrections(game_id) == [
        {"t": 124.0, "kind": "moved-cube", "from": 4, "to": 5, "agreed": True}
    ]


def test_turn_images_capped_and_optional(db: Path) -> None:
    with GameLog(db, image_cap=1000) as log:
        game_id = log.start_game(two_players(1))
        assert log.turn_image(game_id, 1, 1, JPEG)
        assert not log.turn_image(game_id, 1, 2, JPEG + bytes(2000))
        assert any("cap" in w for w in log.warnings)
        with pytest.raises(ValueError, match="JPEG"):
            log.turn_image(game_id, 1, 3, b"PNG....")
        assert log.turn_images(game_id) == [(1, 1, JPEG)]
    with GameLog(db, images=False) as log:
        assert not log.turn_image(game_id, 2, 1, JPEG)
        assert len(log.turn_images(game_id)) == 1


def test_finish_stores_record_result_and_scores(log: GameLog) -> None:
    game_id, live = log_game(log, two_players(3), seed=3)
    assert live.is_over
    row = log.game(game_id)
    assert row.status == "finished" and row.winner == live.winner
    assert row.rounds == live.last_turn_round
    by_name = {s.name: s for s in row.seats}
    for p in live.players:
        assert by_name[p.name].territories == live.castles(p.castles)
        assert by_name[p.name].won == int(live.winner == p.name)
    assert log.record(game_id).to_json() == Record.from_game(live).to_json()
    assert log.open_running() is None


def test_four_player_teams_win_together(log: GameLog) -> None:
    game_id, live = log_game(log, four_players(2), seed=2)
    row = log.game(game_id)
    winners = {s.name for s in row.seats if s.won}
    if live.winner in ("white", "black"):
        assert winners == set(live.players_of(live.winner))
    else:
        assert winners == set()


def test_a_game_stopped_early_is_kept_unfinished(log: GameLog) -> None:
    game_id, _live = log_game(log, two_players(8), seed=8, moves=12)
    assert log.game(game_id).status == "unfinished"
    assert log.game(game_id).winner is None


def test_bad_setup_and_unknown_games_are_refused(log: GameLog) -> None:
    setup = two_players(1)
    bad = type(setup)(setup.players, setup.territories[:14], 1, setup.reserves)
    with pytest.raises(BadSetupError):
        log.start_game(bad)
    with pytest.raises(UnknownGameError):
        log.step(42, ChooseDisc("Anna", 1))
    with pytest.raises(UnknownGameError):
        log.resume(42)
    assert log.games() == []


def test_a_step_the_referee_refuses_stops_the_fold_with_a_warning(log: GameLog) -> None:
    game_id, live = log_game(log, two_players(1), seed=1, moves=5, finish=False)
    log.step(game_id, MoveEmperor("Nobody", 9))
    resumed = log.resume(game_id)
    assert resumed.game.move_stack == live.move_stack
    assert "step 6 not replayed" in resumed.warnings[0]


def test_db_path_from_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CAROLUS_DB", str(tmp_path / "x.db"))
    assert default_path() == tmp_path / "x.db"
    monkeypatch.delenv("CAROLUS_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_path() == tmp_path / "carolus" / "games.sqlite3"


def test_step_is_committed_when_it_returns(log: GameLog, db: Path) -> None:
    setup = two_players(1)
    game_id = log.start_game(setup)
    game = Game(setup)
    move, events = next(play(game, random.Random(1)))
    log.step(game_id, move, events)
    other = sqlite3.connect(db)  # another connection sees it at once
    assert other.execute("SELECT count(*) FROM steps").fetchone()[0] == 1
    other.close()
