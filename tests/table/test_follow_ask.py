"""``carolus follow --ask``: a person answers the referee's questions on stdin.

The stream is a simulated game whose camera misses the set-up cube on one tile (a cube
on tile art of its own colour) and doubts that tile: nobody answering, the game never
begins; a person answering "no" gives the tile the cube the set-up rules leave, and the
whole game is followed.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from table_games import source, stream_of

from firmware.cli import main
from referee.pieces import COLOURS
from referee.record import load

PLAYERS = "south=Anna:white,north=Bob:black"


@pytest.fixture(scope="module")
def missed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object], int]:
    """The stream with territory 5's set-up cube unseen (and doubted) while it lies
    alone there, and the record that was played."""
    _, record = source(2, 4)
    colour = record.setup.territories[4]
    lines = []
    for snapshot in stream_of(record, 7, illegal=0.0).snapshots:
        tile = snapshot["territories"]["5"]["cubes"] if snapshot["mat"] else {}
        if tile and sum(tile.values()) == 1 and tile[colour] == 1:
            tile[colour] = 0
            snapshot["confidence"] = {"territory:5": 0.3}
        lines.append(json.dumps(snapshot))
    path = tmp_path_factory.mktemp("ask") / "table.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path, record.to_json(), COLOURS.index(colour)


def follow(
    path: Path, out: Path, answers: str | None, monkeypatch: pytest.MonkeyPatch, *extra: str
) -> int:
    command = ["follow", str(path), "--players", PLAYERS, "--record", str(out), *extra]
    if answers is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(answers))
        command.append("--ask")
    return main(command)


def test_nobody_answering_the_game_never_begins(
    missed: tuple[Path, dict[str, object], int],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, _, _ = missed
    assert follow(path, tmp_path / "r.json", None, monkeypatch, "--json") == 1
    captured = capsys.readouterr()
    events = [json.loads(line) for line in captured.out.splitlines()]
    assert events[0]["kind"] == "question" and events[0]["zone"] == "territory:5"
    assert not any(e["kind"] == "setup" for e in events)
    assert "no game began: the set-up waits for an answer to '" in captured.err
    assert "--ask" in captured.err


def test_no_on_stdin_puts_the_cube_there_and_the_whole_game_is_followed(
    missed: tuple[Path, dict[str, object], int],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, played, _ = missed
    out = tmp_path / "r.json"
    assert follow(path, out, "maybe\nterritory 99 = red\nn\n", monkeypatch, "--json") == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    kinds = [e["kind"] for e in lines]
    assert kinds[:6] == ["question", "ask", "answer-refused", "ask", "answer-refused", "ask"]
    assert lines[1]["zone"] == "territory:5" and lines[1]["question"] == "No cubes on territory 5?"
    assert "not an answer" in lines[2]["message"] and lines[2]["message"].endswith(".")
    assert "not a zone" in lines[4]["message"]
    assert kinds[6:9] == ["answered", "resolved", "setup"]
    assert load(out).to_json() == played


def test_a_correction_on_stdin_and_a_readable_prompt_without_json(
    missed: tuple[Path, dict[str, object], int],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, played, colour = missed
    out = tmp_path / "r.json"
    assert follow(path, out, f"territory 5 = 1 {COLOURS[colour]}\n", monkeypatch) == 0
    text = capsys.readouterr().out
    assert "QUESTION (bad-setup): No cubes on territory 5?" in text
    assert "Answer y if the camera is right" in text
    assert f"Corrected territory 5: 1 {COLOURS[colour]}" in text
    assert load(out).to_json() == played


def test_end_of_input_stops_asking(
    missed: tuple[Path, dict[str, object], int],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, _, _ = missed
    assert follow(path, tmp_path / "r.json", "", monkeypatch, "--json") == 1
    kinds = [json.loads(line)["kind"] for line in capsys.readouterr().out.splitlines()]
    assert kinds.count("ask") == 1 and "setup" not in kinds


def test_a_correction_typo_is_explained_in_the_language_asked_for(
    missed: tuple[Path, dict[str, object], int],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--language hu``: the question, the prompt, an answer it cannot take and a colour
    mistyped are in Hungarian, the words to type kept as they are typed (issue 17)."""
    path, _, _ = missed
    out = tmp_path / "r.json"
    answers = "maybe\nterritory 5 = 1 pinc\nn\n"
    assert follow(path, out, answers, monkeypatch, "--language", "hu") == 0
    text = capsys.readouterr().out
    assert (
        "  Nincs lovag a(z) 5. tartományban? Válaszolj így: y, ha a kamera jól látja; "
        "n, ha téved; egy javítást, például territory 7 = 1 pink; vagy skip a kihagyáshoz." in text
    )
    assert "'maybe' nem válasz: írd ezek egyikét: y, n vagy ZONE = VALUE" in text
    assert (
        "Territory 5: 'pinc' nincs ezek között: red, green, yellow, blue, pink "
        "(írd például így: territory 5 = 2 red, 1 pink)." in text
    )
