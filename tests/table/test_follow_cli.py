"""``carolus follow`` on recorded snapshot streams: the record, the events, and bad input
(a clear one-line message, exit 2, never a traceback, the game so far kept)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from table_games import source, stream_of

from firmware.cli import main
from referee.record import load

PLAYERS = "south=Anna:white,north=Bob:black"


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object], list[str]]:
    _, record = source(2, 4)
    stream = stream_of(record, 7, illegal=0.1)
    folder = tmp_path_factory.mktemp("follow")
    path = folder / "table.jsonl"
    lines = [json.dumps(s) for s in stream.snapshots]
    path.write_text("\n".join(lines) + "\n")
    return path, record.to_json(), lines


def test_follow_writes_the_record_and_prints_one_json_event_per_line(
    game: tuple[Path, dict[str, object], list[str]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, source_record, _ = game
    out = tmp_path / "game.json"
    status = main(["follow", str(path), "--players", PLAYERS, "--record", str(out), "--json"])
    captured = capsys.readouterr()
    assert status == 0
    assert load(out).to_json() == source_record
    events = [json.loads(line) for line in captured.out.splitlines()]
    assert events and all("kind" in e and "t" in e for e in events)
    assert events[-1]["kind"] in ("game-over", "castles-placed", "cylinder-moved")
    assert any(e["kind"] == "game-over" for e in events)
    assert captured.err == ""  # no progress indicator when stderr is not a terminal


def test_follow_without_json_gives_a_readable_commentary(
    game: tuple[Path, dict[str, object], list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _, _ = game
    assert main(["follow", str(path), "--players", PLAYERS]) == 0
    text = capsys.readouterr().out
    assert "Set-up accepted" in text
    assert "Round 1: " in text and "Game over" in text
    assert not text.lstrip().startswith("{")


def test_a_truncated_file_is_exit_2_with_the_line_and_the_game_so_far_kept(
    game: tuple[Path, dict[str, object], list[str]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, source_record, lines = game
    cut = tmp_path / "cut.jsonl"
    keep = len(lines) * 2 // 3
    cut.write_text("\n".join(lines[:keep]) + "\n" + lines[keep][:40])
    out = tmp_path / "partial.json"
    status = main(["follow", str(cut), "--players", PLAYERS, "--record", str(out)])
    err = capsys.readouterr().err
    assert status == 2
    assert f"cut.jsonl:{keep + 1}: not JSON" in err and "truncated" in err
    assert "Traceback" not in err
    partial = load(out).to_json()
    rounds, full = partial["rounds"], source_record["rounds"]
    assert 1 < len(rounds) < len(full)  # type: ignore[arg-type]
    assert rounds[:-1] == full[: len(rounds) - 1]  # type: ignore[index]
    last, whole = rounds[-1], full[len(rounds) - 1]  # type: ignore[index]
    assert last["discs"] == whole["discs"]
    assert last["turns"] == whole["turns"][: len(last["turns"])]


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("middle=Anna:white,north=Bob:black", "unknown seat 'middle'"),
        ("south=Anna:white,south=Bob:black", "seat"),
        ("south=Anna:purple,north=Bob:black", "castles 'purple'"),
        ("south=Anna", "not SEAT=NAME:CASTLES"),
        ("south=Anna:white", "2, 3 or 4 players"),
    ],
)
def test_bad_players_are_exit_2(
    game: tuple[Path, dict[str, object], list[str]],
    players: str,
    message: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, _, _ = game
    assert main(["follow", str(path), "--players", players]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_snapshot_missing_a_field_is_exit_2_naming_it(
    game: tuple[Path, dict[str, object], list[str]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, _, lines = game
    bad = json.loads(lines[3])
    del bad["reserves"]["north"]["pink"]
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join([*lines[:3], json.dumps(bad), *lines[4:10]]) + "\n")
    assert main(["follow", str(path), "--players", PLAYERS]) == 2
    assert "bad.jsonl:4: reserves.north.pink: required field is missing" in capsys.readouterr().err


def test_a_stream_where_no_game_begins_says_so(
    game: tuple[Path, dict[str, object], list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _, _ = game
    assert main(["follow", str(path), "--players", "south=Anna:white,west=Bob:black"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "no game began" in captured.err and "seats" in captured.err


def test_missing_input_and_an_empty_image_folder_are_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["follow", str(tmp_path / "nothing.jsonl"), "--players", PLAYERS]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["follow", str(tmp_path), "--players", PLAYERS]) == 2
    assert "no images" in capsys.readouterr().err


def test_the_progress_indicator_overwrites_one_line() -> None:
    import io

    from firmware.follow import Progress

    stream = io.StringIO()
    progress = Progress(stream)
    progress.show(12.5, 0.5)
    progress.show(13.0, 0.6)  # too soon: not redrawn
    progress.clear()
    text = stream.getvalue()
    assert "50.0%" in text and "12.5s" in text and "60.0%" not in text
    assert text.endswith("\r") and "\n" not in text


def test_a_bundled_record_played_onto_the_simulated_table_is_followed_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from referee.table.simulate import main as simulate_main

    example = Path(__file__).parents[2] / "examples" / "club-night.json"
    stream = tmp_path / "club.jsonl"
    assert simulate_main([str(example), str(stream), "--seed", "5", "--illegal", "0.3"]) == 0
    assert "carolus follow" in capsys.readouterr().err
    out = tmp_path / "club.json"
    assert main(["follow", str(stream), "--players", PLAYERS, "--record", str(out)]) == 0
    source, followed = load(example).to_json(), load(out).to_json()
    assert unordered(followed["rounds"]) == unordered(source["rounds"])
    assert followed["setup"]["territories"] == source["setup"]["territories"]


def unordered(rounds: object) -> object:
    """Rounds with the lists whose order carries no meaning sorted (record.md)."""
    for rnd in rounds:  # type: ignore[attr-defined]
        for turn in rnd["turns"]:
            turn["court"].sort()
            turn["refill"].sort()
            for colours in turn["territories"].values():
                colours.sort()
    return rounds
