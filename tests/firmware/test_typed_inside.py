"""Typed inside, JSON at the edges (issue 17): what the panel says it shows (`Shown`),
the demo's snapshots (`SnapshotJSON`), a verdict's error (`ErrorJSON`) and the
settings' flags hold the keys and values their types declare, and read as before."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from luma.core.device import dummy

from firmware.config import add_arguments, overrides_from_args
from firmware.demo import Snapshots, demo_record, first_turns
from firmware.display.panel import Display, Shown
from firmware.view import game_view, majorities_view
from referee.advisor import advise
from referee.check import ErrorJSON, check_file, judge
from referee.game import Game
from referee.moves import PlayCubes
from referee.record import Record, loads
from referee.selfplay import play_game, table_players
from referee.table.simulate import Options, simulate
from vision.snapshot import SnapshotJSON


def _declared(kind: Any, optional: set[str]) -> tuple[set[str], set[str]]:
    """The keys ``kind`` requires and the keys it knows. (At run time a TypedDict of a
    module with postponed annotations takes every key for required on Python 3.11, so
    the optional ones are named here, as the type says them.)"""
    declared = set(kind.__annotations__)
    assert optional <= declared
    return declared - optional, declared


def test_what_the_panel_shows_has_the_keys_shown_declares() -> None:
    required, declared = _declared(Shown, {"page", "of", "territories", "player"})
    game = check_file("examples/club-night.json").game
    assert game is not None
    display = Display(dummy(width=128, height=64, mode="1"))
    display.update(game_view(game))
    pages = majorities_view(game)
    advice = advise(game.copy()).to_json()
    shown = [display.page_majorities(pages, advice=advice) for _ in range(len(pages) + 2)]
    shown.append(display.live())
    assert {s["screen"] for s in shown} == {"advice", "majority", "turn"}
    for said in shown:
        assert required <= set(said) <= declared, said
    assert shown[0] == {"screen": "advice", "page": 1, "of": len(pages) + 1, "player": None}
    assert list(shown[1]) == ["screen", "page", "of", "territories"]  # as it always read


def test_the_demos_snapshots_are_snapshot_json_and_read_back_the_same() -> None:
    required, declared = _declared(SnapshotJSON, {"t", "reader", "confidence"})
    record = first_turns(demo_record(), 2)
    snapshots = simulate(record, random.Random(3), Options()).snapshots
    kept = Snapshots(snapshots)
    assert list(kept) == snapshots
    for snapshot in kept:
        assert required <= set(snapshot) <= declared, sorted(snapshot)


def test_a_verdicts_error_has_the_keys_error_json_declares(tmp_path: Path) -> None:
    declared = set(ErrorJSON.__annotations__)
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    malformed = check_file(bad).error
    assert malformed is not None and set(malformed) <= declared
    assert malformed["code"] == "malformed" and malformed["field"] == "format"
    record = json.loads(Path("examples/club-night.json").read_text())
    record["rounds"][0]["turns"][0]["emperor"] = 9  # more steps than the disc allows
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(record))
    fault = check_file(broken).error
    assert fault is not None and list(fault) == ["code", "round", "turn", "player", "message"]


def test_a_record_of_a_game_is_the_same_turns_again() -> None:
    """`Record.from_game` puts each turn together from its steps, typed; the record
    judges to the same game."""
    for players, seed in [(2, 11), (3, 12), (4, 13)]:
        played = play_game(table_players(players), random.Random(seed))
        record = Record.from_game(played)
        again = judge(loads(record.dumps())).game
        assert again is not None and again.move_stack == played.move_stack
        game = Game(played.setup)
        cubes = max(i for i, m in enumerate(played.move_stack) if isinstance(m, PlayCubes))
        for move in played.move_stack[: cubes + 1]:  # stopped in the middle of a turn
            game.push(move)
        stopped = Record.from_game(game)
        whole = judge(loads(stopped.dumps())).game
        assert whole is not None and stopped.unfinished_moves()
        assert whole.move_stack + stopped.unfinished_moves() == game.move_stack


def test_the_flags_are_text_or_switches() -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(
        ["--set", "web.port=9000", "--language", "de", "--no-voice", "--no-gpio"]
    )
    assert overrides_from_args(args) == {
        "web.port": "9000",
        "language": "de",
        "voice.enabled": False,
        "gpio.enabled": False,
    }
