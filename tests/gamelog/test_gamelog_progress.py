"""One game, one round and turn: every view says the same (`referee.game.Progress`).

Issue 15: one logged game read "Rounds 0" on the History page and in the CSV, "round 1"
in ``games list``, "Round 11" in ``check`` of its export and "round 12" in ``games
show``; ``examples/club-night.json`` was "Round 1" to ``check`` and "Round 2" to
``advise``. Each game below is logged as the appliance logs it (steps without events)
and then asked of every view.
"""

from __future__ import annotations

import csv
import io
import json
import random
import re
import sys
from pathlib import Path

import pytest
from gamelog_play import choose, two_players

from firmware.cli import main
from firmware.gamelog.store import GameLog
from referee.check import check_file
from referee.game import Game, Phase, Progress, Step
from web.history import History

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "club-night.json"
SAID = re.compile(r"round (\d+), (?:turn (\d+)|discs being chosen)", re.IGNORECASE)


def said(text: str) -> Progress:
    """The one round and turn a view's words give (it must give exactly one)."""
    found = {(int(m[1]), int(m[2] or 0)) for m in SAID.finditer(text)}
    assert len(found) == 1, text
    return Progress(*found.pop())


def log_until(log: GameLog, seed: int, stop: object) -> tuple[int, Game]:
    """A game logged step by step like the appliance (no events) until ``stop(game)``."""
    setup = two_players(seed)
    game_id = log.start_game(setup, t=1_790_000_000.0)
    game, rng = Game(setup), random.Random(seed)
    while not game.is_over and not stop(game):  # type: ignore[operator]
        move = choose(game, rng)
        game.push(move)
        log.step(game_id, move, (), t=1_790_000_001.0 + len(game.move_stack))
    return game_id, game


@pytest.fixture
def games(db: Path) -> dict[int, Progress]:
    """Game id -> the progress of the live game, for four kinds of game."""
    expected = {}
    with GameLog(db) as log:
        # stopped right after a round's last refill: the round-12-versus-11 case
        gid, game = log_until(
            log, 3, lambda g: g.round == 4 and g.phase is Phase.OPENING and not g.chosen_discs()
        )
        expected[gid] = game.progress
        # stopped mid-turn: cubes played, the emperor not yet moved
        gid, game = log_until(
            log, 4, lambda g: g.round == 3 and g.turn_number == 2 and g.step is Step.EMPEROR
        )
        expected[gid] = game.progress
        # a finished game
        gid, game = log_until(log, 5, lambda g: False)
        assert game.is_over
        log.finish(gid)
        expected[gid] = game.progress
        # the shipped example, imported
        imported = log.import_record(json.loads(EXAMPLE.read_text()), str(EXAMPLE))
        judged = check_file(EXAMPLE).game
        assert judged is not None
        expected[imported.game_id] = judged.progress
    assert len(set(expected.values())) == len(expected)  # four different answers to give
    return expected


def run(capsys: pytest.CaptureFixture[str], *args: str, stdin: str = "") -> str:
    sys.stdin = io.StringIO(stdin)
    try:
        main(list(args))
    finally:
        sys.stdin = sys.__stdin__
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return captured.out


def test_every_view_gives_the_same_round_and_turn(
    games: dict[int, Progress], db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    history = History(db)
    try:
        page = {g["id"]: g for g in history.games()}
    finally:
        history.close()
    table = list(
        csv.DictReader(
            io.StringIO(run(capsys, "games", "--db", str(db), "export", "--all", "--csv", "-"))
        )
    )
    listing = run(capsys, "games", "--db", str(db), "list").splitlines()
    for gid, progress in games.items():
        views: dict[str, Progress] = {}
        entry = page[gid]
        views["History"] = Progress(entry["round"], entry["turn"])
        assert entry["rounds"] == progress.round  # the number the page's table shows
        rows = [r for r in table if r["game"] == str(gid)]
        assert {(r["rounds"], r["turn"]) for r in rows} == {
            (str(progress.round), str(progress.turn))
        }
        views["export --csv"] = Progress(int(rows[0]["rounds"]), int(rows[0]["turn"]))
        at = next(i for i, line in enumerate(listing) if line.split()[:1] == [str(gid)])
        views["games list"] = said(listing[at + 1])
        shown = run(capsys, "games", "--db", str(db), "show", str(gid))
        views["games show"] = said(next(li for li in shown.splitlines() if "Result:" in li))
        out = tmp_path / str(gid)
        run(capsys, "games", "--db", str(db), "export", str(gid), "--out", str(out))
        (record,) = out.glob("*.json")
        views["check"] = said(run(capsys, "check", str(record)).splitlines()[0])
        views["advise"] = said(run(capsys, "advise", str(record)).splitlines()[0])
        played = run(capsys, "play", "--resume", str(record), stdin="quit\n")
        views["play"] = said(played.splitlines()[-1] if played.strip() else played)
        assert views == dict.fromkeys(views, progress), gid


def test_the_example_reads_alike_to_check_advise_and_play(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # round 1 is over, nobody has laid a disc for round 2: the game is in round 2
    checked = run(capsys, "check", str(EXAMPLE)).splitlines()[0]
    advised = run(capsys, "advise", str(EXAMPLE)).splitlines()[0]
    played = run(capsys, "play", "--resume", str(EXAMPLE), stdin="quit\n").splitlines()[-1]
    assert said(checked) == said(advised) == said(played) == Progress(2, 0)
    assert "Round 2, discs being chosen; the game goes on." in checked
