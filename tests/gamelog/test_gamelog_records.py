"""Records in and out: import judged by the referee, export identical to what came in."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gamelog_play import four_players, log_game, two_players

from firmware.cli import main
from firmware.gamelog.store import GameLog, ImportRejectedError
from referee.check import final_state
from referee.record import Record

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "club-night.json"


def carolus(db: Path, *args: str) -> int:
    return main(["games", *args, "--db", str(db)])


def write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return path


def test_example_record_round_trips_through_the_log(db: Path, tmp_path: Path) -> None:
    assert carolus(db, "import", str(EXAMPLE)) == 0
    out = tmp_path / "out"
    assert carolus(db, "export", "1", "--out", str(out)) == 0
    exported = json.loads((out / "carolus-game-0001.json").read_text())
    assert exported == json.loads(EXAMPLE.read_text())


@pytest.mark.parametrize("make", [two_players, four_players])
def test_logged_games_round_trip_record_import_export(make: object, tmp_path: Path) -> None:
    """A game logged at the table -> its record -> imported into another log -> exported:
    the same JSON, and the imported steps replay to the same final position."""
    with GameLog(tmp_path / "table.db") as table:
        finished_id, _ = log_game(table, make(11), seed=11)  # type: ignore[operator]
        running_id, _ = log_game(table, make(12), seed=12, moves=40, finish=False)  # type: ignore[operator]
        records = [table.record(finished_id), table.record(running_id)]
    files = []
    for i, record in enumerate(records):
        record = Record(record.setup, record.rounds, {"date": "2026-11-0" + str(i + 1)})
        files.append(write(tmp_path / f"r{i}.json", record.to_json()))
    home = tmp_path / "home.db"
    assert carolus(home, "import", *map(str, files)) == 0
    assert carolus(home, "export", "--all", "--out", str(tmp_path / "out")) == 0
    for i, original in enumerate(files, start=1):
        exported = tmp_path / "out" / f"carolus-game-{i:04d}.json"
        assert json.loads(exported.read_text()) == json.loads(original.read_text())
    with GameLog(home) as log:
        rows = log.games()
        assert [r.status for r in rows] == ["finished", "unfinished"]
        for row, record in zip(rows, records, strict=True):
            game, warnings = log.rebuild(row.id)
            assert warnings == []
            assert Record.from_game(game).rounds == record.rounds


def test_importing_the_same_game_twice_keeps_it_once(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert carolus(db, "import", str(EXAMPLE)) == 0
    assert carolus(db, "import", str(EXAMPLE)) == 0
    assert "already in the log as game 1" in capsys.readouterr().out
    with GameLog(db) as log:
        assert len(log.games()) == 1


MALFORMED = {
    "not-json.json": ("{ this is not json", "not JSON"),
    "no-players.json": ({"format": "carolus-record/1"}, "players"),
    "wrong-type.json": (None, "rounds[0].turns[0].emperor"),
    "wrong-format.json": ({"format": "pgn"}, "format"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_records_are_rejected_with_the_reason(
    name: str, db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, reason = MALFORMED[name]
    if data is None:
        data = json.loads(EXAMPLE.read_text())
        data["rounds"][0]["turns"][0]["emperor"] = "two"
    path = write(tmp_path / name, data)
    assert carolus(db, "import", str(path)) == 2
    err = capsys.readouterr().err
    assert name in err and reason in err and "Traceback" not in err
    assert err.count("\n") == 1
    with GameLog(db) as log:
        assert log.games() == []


def test_illegal_record_is_rejected_with_the_rule(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(EXAMPLE.read_text())
    data["rounds"][0]["turns"][1]["emperor"] = 5  # Anna laid disc 3
    path = write(tmp_path / "cheat.json", data)
    assert carolus(db, "import", str(path), str(EXAMPLE)) == 1
    captured = capsys.readouterr()
    assert "cheat.json" in captured.err and "emperor-steps" in captured.err
    assert "round 1, turn 2" in captured.err
    assert "kept as game 1" in captured.out  # the legal one is still kept
    with GameLog(db) as log:
        assert len(log.games()) == 1


def test_malformed_outranks_illegal_in_the_exit_status(db: Path, tmp_path: Path) -> None:
    data = json.loads(EXAMPLE.read_text())
    data["setup"]["emperor"] = 16
    illegal = write(tmp_path / "bad-setup.json", data)
    broken = write(tmp_path / "broken.json", "[]")
    assert carolus(db, "import", str(illegal), str(broken)) == 2
    assert carolus(db, "import", str(illegal)) == 1
    assert carolus(db, "import", str(tmp_path / "missing.json")) == 2


def test_import_api_reports_the_code(log: GameLog) -> None:
    data = json.loads(EXAMPLE.read_text())
    data["rounds"][0]["discs"] = [["Anna", 3], ["Anna", 2]]
    with pytest.raises(ImportRejectedError) as caught:
        log.import_record(data, "x.json")
    assert caught.value.code == "disc-order" and caught.value.exit_code == 1
    with pytest.raises(ImportRejectedError) as caught:
        log.import_record({"format": "carolus-record/1"}, "y.json")
    assert caught.value.code == "malformed" and caught.value.exit_code == 2


def test_a_game_where_the_supply_ran_short_round_trips(tmp_path: Path) -> None:
    """Refills with ``returned`` (every player gives cubes back) survive the log."""
    with GameLog(tmp_path / "table.db") as table:
        game_id, live = log_game(table, two_players(0, cubes_per_colour=12), seed=0)
        assert any(e["kind"] == "returned" for e in table.events(game_id))
        data = table.record(game_id).to_json()
        assert table.resume(game_id).game.move_stack == live.move_stack
    assert any("returned" in t for r in data["rounds"] for t in r["turns"])
    path = write(tmp_path / "short.json", data)
    home = tmp_path / "home.db"
    assert carolus(home, "import", str(path)) == 0
    assert carolus(home, "export", "1", "--out", str(tmp_path / "out")) == 0
    assert json.loads((tmp_path / "out" / "carolus-game-0001.json").read_text()) == data


GOLDEN = Path(__file__).resolve().parents[1] / "golden"


@pytest.mark.parametrize(
    "name", sorted(p.name for p in (GOLDEN / "records").glob("*.json")) or ["none"]
)
def test_golden_records_import_as_their_hand_checked_verdicts(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Legal golden records are kept, rebuild to the verdict's final position and export
    as they came; illegal and malformed ones are refused with the verdict's code."""
    record = GOLDEN / "records" / name
    if not record.exists():
        pytest.skip("no golden records")
    expected = json.loads((GOLDEN / "expected" / name).read_text())
    db = tmp_path / "g.db"
    code = carolus(db, "import", str(record))
    err = capsys.readouterr().err
    with GameLog(db) as log:
        if expected["legal"]:
            assert code == 0, err
            (row,) = log.games()
            game, _ = log.rebuild(row.id)
            assert final_state(game) == expected["final"]
            assert row.status == ("finished" if expected["final"]["finished"] else "unfinished")
            assert row.winner == expected["final"]["winner"]
            assert log.record_json(row.id) == json.loads(record.read_text())
            # the same game in the referee's canonical layout is not a new game
            assert log.import_record(log.record(row.id).to_json()).duplicate
        else:
            assert code == (2 if expected["legal"] is None else 1)
            assert expected["error"]["code"] in err or expected["legal"] is None
            assert log.games() == []


@pytest.mark.parametrize(
    "moves",
    [
        9,  # two discs, two turns, then one disc of round 2: an opening phase half done
        11,  # ... round 2's opening phase done, the cubes of the next turn played
        12,  # ... and its emperor moved: the refill still to come
        22,  # well into the game, mid-turn again
    ],
)
def test_a_game_stopped_mid_turn_exports_and_reimports_every_step(
    moves: int, tmp_path: Path
) -> None:
    """Issue 16 #7: the log held 60 steps, the record 58, the re-import 58. The record
    keeps the whole turns in its rounds (as the format says) and the steps of the turn
    in progress in ``meta``, with the reason; ``carolus check`` still calls it legal."""
    with GameLog(tmp_path / "table.db") as table:
        game_id, live = log_game(table, two_players(16), seed=16, moves=moves, finish=False)
        assert len(table.moves(game_id)) == moves
        running = table.record_json(game_id)  # the download of a running game
        table.finish(game_id)  # the appliance stopped mid-turn: kept as unfinished
        stopped = table.record_json(game_id)
    assert stopped == running
    note = running["meta"]["unfinished_turn"]
    assert "whole turns only" in note["why"]
    assert len(note["steps"]) >= 1
    path = write(tmp_path / "mid-turn.json", running)
    assert main(["check", str(path)]) == 0
    home = tmp_path / "home.db"
    assert carolus(home, "import", str(path)) == 0
    with GameLog(home) as log:
        (row,) = log.games()
        assert row.status == "unfinished"
        assert log.moves(row.id) == live.move_stack  # every step, in order
        assert "unfinished_turn" not in row.meta  # the steps are steps again
        assert log.record_json(row.id) == running  # exported as it came
        again = Record.from_game(log.rebuild(row.id)[0], {"date": "x"}).to_json()
        assert again["meta"]["unfinished_turn"] == note


def test_unfinished_steps_that_do_not_replay_are_left_out_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with GameLog(tmp_path / "table.db") as table:
        game_id, live = log_game(table, two_players(16), seed=16, moves=12, finish=False)
        data = table.record_json(game_id)
    data["meta"]["unfinished_turn"]["steps"][-1]["steps"] = 99  # an emperor step too far
    path = write(tmp_path / "bad-tail.json", data)
    home = tmp_path / "home.db"
    assert carolus(home, "import", str(path)) == 0
    assert "steps of the unfinished turn were left out" in capsys.readouterr().err
    with GameLog(home) as log:
        assert log.moves(log.games()[0].id) == live.move_stack[:-1]
