"""The truthful person of ``benchmarks/camera_games.py``: it answers ``carolus follow
--ask`` from the true table, yes / no, and a correction when the referee cannot take no.

The stream is a simulated game whose camera misses the set-up cubes of two tiles of
different colours (so "no" cannot say which is which for the first one); the truth is
the same stream as played.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from table_games import source, stream_of

from referee.record import load

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import camera_games

PLAYERS = "south=Anna:white,north=Bob:black"


def test_the_person_answers_from_the_true_table_and_the_game_is_followed(tmp_path: Path) -> None:
    _, record = source(2, 4)
    truth = stream_of(record, 7, illegal=0.0).snapshots
    (tmp_path / "snapshots.jsonl").write_text("".join(json.dumps(s) + "\n" for s in truth))
    first = 5
    second = next(
        n for n in range(6, 16) if record.setup.territories[n - 1] != record.setup.territories[4]
    )
    seen = []
    for snapshot in json.loads(json.dumps(truth)):
        for n in (first, second):
            colour = record.setup.territories[n - 1]
            tile = snapshot["territories"][str(n)]["cubes"] if snapshot["mat"] else {}
            if tile and sum(tile.values()) == 1 and tile[colour] == 1:
                tile[colour] = 0
                snapshot["confidence"] = {f"territory:{first}": 0.3, f"territory:{second}": 0.3}
        seen.append(json.dumps(snapshot) + "\n")
    (tmp_path / "camera.jsonl").write_text("".join(seen))
    person = camera_games.Oracle(tmp_path / "snapshots.jsonl")
    out = tmp_path / "record.json"
    command = [str(camera_games.carolus_command()), "follow", str(tmp_path / "camera.jsonl")]
    command += ["--players", PLAYERS, "--record", str(out), "--json"]
    stdout, status = camera_games.follow_answering(command, person, tmp_path / "stderr.txt")
    assert status == 0, (tmp_path / "stderr.txt").read_text()
    assert load(out).to_json() == record.to_json()
    assert person.figures() == {
        "asked": 2,
        "yes": 0,
        "no": 2,
        "correction": 1,
        "skip": 0,
        "refused": 1,
    }
    colour = record.setup.territories[first - 1]
    assert f"Corrected territory {first}: 1 {colour} (the camera saw no cubes)." in stdout


def test_games_kept_for_a_later_check_are_run_without_the_earlier_ones() -> None:
    args = camera_games.parse_args(
        ["--players", "2,4", "--light", "hard", "--games", "2", "--first-game", "9"])
    assert [(s.players, s.seed, s.light) for s in camera_games.game_specs(args)] == [
        (2, 900209, "hard"), (2, 900210, "hard"), (4, 900409, "hard"), (4, 900410, "hard")]


def test_a_first_game_past_the_seeds_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        camera_games.parse_args(["--games", "5", "--first-game", "97"])
    assert exit_.value.code == 2
    assert "--first-game 97: 0 to 95 with --games 5" in capsys.readouterr().err
