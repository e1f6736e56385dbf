"""``carolus games``: what a user sees when listing, showing, replaying and counting."""

from __future__ import annotations

import csv
import io
import json
import random
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from gamelog_play import four_players, log_game, two_players

from firmware.cli import main
from firmware.gamelog.store import GameLog
from referee.game import Game
from referee.moves import PlayCubes
from referee.setup import Player, Setup

DAY = 86_400.0
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "club-night.json"
T0 = 1_790_000_000.0  # 2026-09-21


def three_players(seed: int) -> Setup:
    players = [Player("Cleo", "white"), Player("Dirk", "black"), Player("Anna", "grey")]
    return Setup.random(players, random.Random(seed))


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[int, Game]]:
    """Five finished games on five days, one stopped early, one still running: the log
    written once for the module, and the games by id."""
    db = tmp_path_factory.mktemp("log") / "games.sqlite3"
    games = {}
    with GameLog(db) as log:
        for day, (make, seed) in enumerate(
            [
                (two_players, 1),
                (two_players, 2),
                (three_players, 3),
                (four_players, 4),
                (two_players, 5),
            ]
        ):
            game_id, game = log_game(log, make(seed), seed=seed, t0=T0 + day * DAY)
            games[game_id] = game
        game_id, game = log_game(log, three_players(6), seed=6, moves=20, t0=T0 + 5 * DAY)
        games[game_id] = game
        game_id, game = log_game(
            log, two_players(7), seed=7, moves=9, finish=False, t0=T0 + 6 * DAY
        )
        games[game_id] = game
    return db, games


@pytest.fixture
def table(logged: tuple[Path, dict[int, Game]], copy_of: Callable[[Path], Path]) -> dict[int, Game]:
    """The log of `logged`, copied to this test's ``db``; the games by id (read only)."""
    source, games = logged
    copy_of(source)
    return games


def run(db: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["games", *args, "--db", str(db)])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out


def listed(out: str) -> list[int]:
    return [int(line.split()[0]) for line in out.splitlines()[1:] if line[:4].strip()]


def test_list_filters(table: dict[int, Game], db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(db, capsys, "list")
    assert code == 0 and listed(out) == sorted(table)
    assert listed(run(db, capsys, "list", "--player", "Cleo")[1]) == [3, 4, 6]
    assert listed(run(db, capsys, "list", "--player", "Nobody")[1]) == []
    dated = run(db, capsys, "list", "--since", "2026-09-22", "--until", "2026-09-24")[1]
    assert listed(dated) == [2, 3, 4]
    assert listed(run(db, capsys, "list", "--result", "running")[1]) == [7]
    assert listed(run(db, capsys, "list", "--result", "unfinished")[1]) == [6]
    bob_won = [i for i, g in table.items() if g.winner == "Bob"]
    assert listed(run(db, capsys, "list", "--result", "Bob")[1]) == bob_won
    assert "running, round" in out and "unfinished in round" in out


def test_show_tells_who_won_how(
    table: dict[int, Game], db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = table[4]  # four players, teams
    code, out = run(db, capsys, "show", "4")
    assert code == 0
    assert "Players: Anna (white, south), Bob (black, west)" in out
    if game.winner == "draw":
        assert "draw" in out
    else:
        assert f"Result: {game.winner} wins" in out
    assert f"in round {game.last_turn_round}" in out
    rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert rows[-1] == [
        str(game.last_turn_round),
        str(game.castles("white")),
        str(game.castles("black")),
    ]
    taken = sum(1 for line in out.splitlines() if " takes " in line)
    assert taken == sum(  # every castle taken over is listed
        1 for line in run(db, capsys, "replay", "4", "--all")[1].splitlines() if " takes " in line
    )


def test_show_of_a_running_game_and_of_no_game(
    table: dict[int, Game], db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run(db, capsys, "show", "7")
    assert code == 0 and "running, round" in out
    assert main(["games", "show", "99", "--db", str(db)]) == 2
    assert "no game 99" in capsys.readouterr().err


def test_replay_all_prints_every_step(
    table: dict[int, Game], db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = table[1]
    code, out = run(db, capsys, "replay", "1", "--all")
    assert code == 0
    turns = sum(1 for m in game.move_stack if isinstance(m, PlayCubes))
    assert out.count(", turn ") == turns
    assert out.count("lays disc") == sum(
        1 for m in game.move_stack if type(m).__name__ == "ChooseDisc"
    )
    assert "Game over " in out and out.rstrip().endswith("End of the game log.")


def test_replay_steps_on_enter_and_quits_on_q(
    table: dict[int, Game],
    db: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\nq\n"))
    code, out = run(db, capsys, "replay", "1")
    assert code == 0
    assert out.count("[Enter: next turn, q: quit]") == 3
    assert "Round 1, discs" in out and "Round 1, turn 2" in out
    assert "Round 2" not in out and "End of the game log" not in out


def test_stats_count_what_the_games_say(
    table: dict[int, Game], db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run(db, capsys, "stats")
    assert code == 0
    finished = [g for g in table.values() if g.is_over]
    assert out.startswith(f"Games: 7 ({len(finished)} finished, 1 unfinished, 1 running)")
    wins: Counter[str] = Counter()
    played: Counter[str] = Counter()
    for g in finished:
        for p in g.players:
            played[p.name] += 1
            wins[p.name] += g.winner in (p.name, p.castles)
    for name in played:
        assert f"{name:<16} {wins[name]:>3} of {played[name]:<3}" in out
    mean = sum(g.last_turn_round for g in finished) / len(finished)
    assert f"Average length: {mean:.1f} rounds over {len(finished)} finished games" in out
    decided = [g for g in finished if g.winner != "draw"]
    first = 0
    for g in decided:
        opener = next(m.player for m in g.move_stack if isinstance(m, PlayCubes))
        first += g.winner in (opener, g.side_of(opener))
    assert f"won {first} of {len(decided)} decided games" in out


def test_export_csv_has_a_line_per_player_per_game(
    table: dict[int, Game], db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_csv = tmp_path / "results.csv"
    code, _ = run(db, capsys, "export", "--all", "--csv", str(out_csv))
    assert code == 0
    rows = list(csv.DictReader(out_csv.open()))
    assert len(rows) == sum(len(g.players) for g in table.values())
    for row in rows:
        game = table[int(row["game"])]
        assert row["territories"] == str(game.castles(row["castles"])) or row["status"] == "running"
        if game.is_over:
            assert row["won"] == str(int(game.winner in (row["player"], row["castles"])))
    assert not list(tmp_path.glob("*.json"))  # --csv alone writes no records


def test_export_without_ids_is_bad_usage(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "export", "--db", str(db)]) == 2
    assert "--all" in capsys.readouterr().err


HOSTILE = {"Anna": "Anna\x1b]0;pwned\x07", "Bob": "Bob\x1b[2J\x9b"}
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def test_control_characters_in_names_are_shown_never_sent_to_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 16 #10: an imported name retitled the window and cleared the screen through
    ``games list``/``show``. Every printer of the command line escapes them."""
    text = EXAMPLE.read_text(encoding="utf-8")
    for name, hostile in HOSTILE.items():
        text = text.replace(json.dumps(name), json.dumps(hostile))
    record = tmp_path / "hostile.json"
    record.write_text(text, encoding="utf-8")
    db = str(tmp_path / "log.db")
    runs = [
        ["games", "--db", db, "import", str(record)],
        ["games", "--db", db, "list"],
        ["games", "--db", db, "list", "--player", HOSTILE["Anna"]],
        ["games", "--db", db, "show", "1"],
        ["games", "--db", db, "replay", "1", "--all"],
        ["games", "--db", db, "stats"],
        ["check", str(record)],
        ["check", "--json", str(record)],
        ["advise", str(record)],
        ["advise", "--json", str(record)],
    ]
    for args in runs:
        assert main(args) == 0, args
        out = capsys.readouterr()
        shown = out.out + out.err
        assert not RAW_CONTROL.search(shown), (args, shown)
        if "--json" in args:
            for line in out.out.splitlines():  # still JSON that decodes to the names
                json.loads(line)
                assert "Anna\\u001b]0;pwned\\u0007" in line and "\\u009b" in line, line
        elif args[-1] not in ("stats", str(record)) or args[0] != "games":
            assert "Anna\\x1b]0;pwned\\x07" in shown or "Bob\\x1b[2J\\x9b" in shown, args


def test_a_list_read_by_head_ends_quietly(table: dict[int, Game], db: Path) -> None:
    """Issue 15: ``carolus games list | head -3`` ended with "the game log could not be
    read: [Errno 32] Broken pipe". A reader that stops reading is not a broken log."""
    import subprocess
    import sys

    lister = subprocess.Popen(
        [sys.executable, "-m", "firmware", "games", "--db", str(db), "list"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    assert lister.stdout is not None and lister.stderr is not None
    lister.stdout.close()  # as `head` does once it has its lines (here: before the first)
    err = lister.stderr.read().decode()
    assert lister.wait(timeout=60) == 0, err
    assert err == ""


def test_no_games_says_where_the_demos_games_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 15: after watching the demo, ``carolus games list`` said "No games." — the
    demo keeps its games in a log of its own, so the empty default log says where."""
    monkeypatch.delenv("CAROLUS_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    demo = tmp_path / "carolus" / "demo.db"
    assert main(["games", "list"]) == 0
    assert capsys.readouterr().out == "No games.\n"  # no demo watched: nothing more to say
    with GameLog(demo) as log:
        log_game(log, two_players(1), seed=1, t0=T0)
    assert main(["games", "list"]) == 0
    out = capsys.readouterr().out
    assert f"No games in {tmp_path / 'carolus' / 'games.sqlite3'}." in out
    assert f"The demo's game is in {demo}: carolus games --db {demo} list" in out
    # a log of one's own that is empty is just empty
    assert main(["games", "--db", str(tmp_path / "mine.db"), "list"]) == 0
    assert capsys.readouterr().out == "No games.\n"
    assert main(["games", "--db", str(demo), "list", "--player", "Zoe"]) == 0
    assert capsys.readouterr().out == "No games match.\n"
