"""``carolus advise RECORD``: the advice on the position at the end of a record."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import pytest

from referee.advisor import cli
from referee.advisor.hints import hint_player
from referee.game import Game, Phase
from referee.moves import MoveEmperor
from referee.record import Record
from referee.selfplay import choose_disc, random_player, roll_refill, table_players
from referee.setup import Setup


def advise(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="carolus")
    cli.register(parser.add_subparsers())
    args = parser.parse_args(["advise", *argv])
    code: int = args.handler(args)
    return code


def mid_round_record(tmp_path: Path) -> Path:
    """A 2-player game stopped after the first turn of round 3: Bob or Anna to play."""
    rng = random.Random(4)
    game = Game(Setup.random(table_players(2), rng))
    while game.round < 3 or game.phase is Phase.OPENING or game.turn_number < 2:
        if game.phase is Phase.OPENING:
            game.push(choose_disc(game, rng))
            continue
        play, steps = random_player(game, rng)
        game.push(play)
        game.push(MoveEmperor(play.player, steps))
        game.push(roll_refill(game, rng))
    path = tmp_path / "game.json"
    path.write_text(Record.from_game(game).dumps(), encoding="utf-8")
    return path


def test_advise_prints_threats_exposure_and_a_hint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = mid_round_record(tmp_path)
    assert advise(str(path)) == 0
    out = capsys.readouterr().out
    assert "to play." in out and "Threats:" in out and "Exposure" in out
    assert "Hint for " in out and "emperor" in out


def test_advise_json_holds_a_legal_hint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = mid_round_record(tmp_path)
    assert advise(str(path), "--json", "--player", "Anna") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["player"] == "Anna" and data["phase"] == "action"
    assert len(data["exposure"]) == 15
    hint = data["hint"]
    assert hint["player"] == data["to_move"]
    played = len(hint["court"]) + sum(len(v) for v in hint["territories"].values())
    assert played == 3 and 1 <= hint["emperor"] <= 5


def test_advise_with_review_after_a_finished_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from referee.selfplay import play_game

    game = play_game(table_players(2), random.Random(11), [hint_player, random_player])
    path = tmp_path / "done.json"
    path.write_text(Record.from_game(game).dumps(), encoding="utf-8")
    assert advise(str(path), "--review") == 0
    out = capsys.readouterr().out
    assert out.startswith("The game is over: Anna wins")
    assert "Review:" in out and "Bob played" in out


def test_bad_input_is_one_line_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.json"
    junk.write_text("{not json", encoding="utf-8")
    assert advise(str(junk)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "junk.json" in err
    path = mid_round_record(tmp_path)
    assert advise(str(path), "--player", "Zoe") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'Zoe'" in err
    broken = json.loads(path.read_text(encoding="utf-8"))
    broken["rounds"][0]["turns"][0]["emperor"] = 9
    path.write_text(json.dumps(broken), encoding="utf-8")
    assert advise(str(path)) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "emperor-steps" in err


def test_between_rounds_there_are_threats_but_no_hint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = random.Random(8)
    game = Game(Setup.random(table_players(2), rng))
    while game.round < 2:
        if game.phase is Phase.OPENING:
            game.push(choose_disc(game, rng))
            continue
        play, steps = random_player(game, rng)
        game.push(play)
        game.push(MoveEmperor(play.player, steps))
        game.push(roll_refill(game, rng))
    path = tmp_path / "round1.json"
    path.write_text(Record.from_game(game).dumps(), encoding="utf-8")
    assert advise(str(path), "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["phase"] == "opening" and data["hint"] is None
    assert advise(str(path)) == 0
    out = capsys.readouterr().out
    assert "discs being chosen" in out and "Hint for" not in out
