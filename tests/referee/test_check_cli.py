"""`carolus check` as a user runs it: verdicts, exit codes, fault codes and positions,
malformed files, and words for people (``docs/record.md``)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from firmware.cli import main

REPO = Path(__file__).resolve().parents[2]
SPEC = REPO / "docs" / "record.md"   # the project's own copy of the record format
GOLDEN = REPO / "tests" / "golden" / "records"

Run = Callable[..., tuple[int, str, str]]
Judge = Callable[[Any], tuple[int, dict[str, Any]]]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    """``carolus ARGS...`` in-process: (exit status, stdout, stderr)."""

    def go(*args: str) -> tuple[int, str, str]:
        status = main(list(args))
        captured = capsys.readouterr()
        return status, captured.out, captured.err

    return go


@pytest.fixture
def judge(run: Run, tmp_path: Path, records: Any) -> Judge:
    """Write ``data`` as a record file and return (status, the --json verdict)."""

    def go(data: Any) -> tuple[int, dict[str, Any]]:
        path = tmp_path / "game.json"
        if isinstance(data, str):
            path.write_text(data, encoding="utf-8")
        else:
            records.write(path, data)
        status, out, err = run("check", "--json", str(path))
        assert "Traceback" not in out + err
        lines = out.splitlines()
        assert len(lines) == 1, out
        return status, json.loads(lines[0])

    return go


def fault(verdict: dict[str, Any]) -> tuple[str, int, int, str | None]:
    error = verdict["error"]
    return error["code"], error["round"], error["turn"], error["player"]


# ---------------------------------------------------------------- the example


def spec_blocks() -> list[str]:
    return re.findall(r"```json\n(.*?)```", SPEC.read_text(encoding="utf-8"), re.S)


def test_the_example_record_of_the_spec_gives_the_example_verdict(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record, verdict = (json.loads(block) for block in spec_blocks()[:2])
    monkeypatch.chdir(tmp_path)
    Path("example.json").write_text(json.dumps(record), encoding="utf-8")
    status, out, _ = run("check", "--json", "example.json")
    assert status == 0
    assert json.loads(out) == verdict


def test_the_example_record_is_the_one_in_the_spec(records: Any) -> None:
    assert json.loads(spec_blocks()[0]) == records.example()


def test_a_real_carolus_process_checks_the_example(tmp_path: Path, records: Any) -> None:
    path = records.write(tmp_path / "example.json", records.example())
    broken = records.write(tmp_path / "broken.json", {"format": "carolus-record/1"})
    carolus = REPO / ".venv" / "bin" / "carolus"
    command = [str(carolus)] if carolus.exists() else [sys.executable, "-m", "firmware"]
    done = subprocess.run(
        [*command, "check", "--json", str(path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["final"]["owners"] == {"6": "white"}
    done = subprocess.run(
        [*command, "check", str(path), str(broken)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stdout + done.stderr
    assert "players" in done.stdout + done.stderr


# -------------------------------------------------------------- exit statuses


def test_exit_statuses_and_2_outranks_1(run: Run, tmp_path: Path, records: Any) -> None:
    legal = records.write(tmp_path / "legal.json", records.example())
    bad_rule = records.example()
    bad_rule["rounds"][0]["turns"][0]["emperor"] = 9
    illegal = records.write(tmp_path / "illegal.json", bad_rule)
    malformed = tmp_path / "malformed.json"
    malformed.write_text("{not json", encoding="utf-8")

    assert run("check", str(legal))[0] == 0
    assert run("check", str(legal), str(legal))[0] == 0
    assert run("check", str(illegal))[0] == 1
    assert run("check", str(legal), str(illegal))[0] == 1
    assert run("check", str(malformed))[0] == 2
    assert run("check", str(malformed), str(illegal))[0] == 2
    assert run("check", str(illegal), str(malformed), str(legal))[0] == 2


def test_json_gives_one_verdict_per_record_in_order(run: Run, tmp_path: Path, records: Any) -> None:
    a = records.write(tmp_path / "a.json", records.example())
    b = tmp_path / "b.json"
    b.write_text("[]", encoding="utf-8")
    status, out, _ = run("check", "--json", str(a), str(b), str(a))
    verdicts = [json.loads(line) for line in out.splitlines()]
    assert [(v["file"], v["legal"]) for v in verdicts] == [
        (str(a), True),
        (str(b), None),
        (str(a), True),
    ]
    assert status == 2


# ------------------------------------------------------------------ malformed


def without(data: dict[str, Any], *path: Any) -> dict[str, Any]:
    target = data
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    return data


def replaced(data: dict[str, Any], value: Any, *path: Any) -> dict[str, Any]:
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


MISSING = [
    (("format",), "format"),
    (("players",), "players"),
    (("setup",), "setup"),
    (("rounds",), "rounds"),
    (("setup", "territories"), "setup.territories"),
    (("setup", "emperor"), "setup.emperor"),
    (("setup", "reserves"), "setup.reserves"),
    (("players", 1, "name"), "players[1].name"),
    (("players", 0, "castles"), "players[0].castles"),
    (("rounds", 0, "discs"), "rounds[0].discs"),
    (("rounds", 0, "turns"), "rounds[0].turns"),
    (("rounds", 0, "turns", 1, "player"), "rounds[0].turns[1].player"),
    (("rounds", 0, "turns", 0, "court"), "rounds[0].turns[0].court"),
    (("rounds", 0, "turns", 0, "territories"), "rounds[0].turns[0].territories"),
    (("rounds", 0, "turns", 1, "emperor"), "rounds[0].turns[1].emperor"),
]


@pytest.mark.parametrize(("path", "field"), MISSING)
def test_a_missing_required_field_is_malformed(
    judge: Judge, records: Any, path: tuple[Any, ...], field: str
) -> None:
    status, verdict = judge(without(records.example(), *path))
    assert status == 2
    assert verdict["legal"] is None
    assert verdict["error"]["code"] == "malformed"
    assert verdict["error"]["field"] == field
    assert verdict["final"] is None
    assert verdict["events"] == []


WRONG_TYPES = [
    ("2", ("rounds", 0, "turns", 0, "emperor"), "rounds[0].turns[0].emperor"),
    (True, ("rounds", 0, "turns", 0, "emperor"), "rounds[0].turns[0].emperor"),
    (2.5, ("rounds", 0, "turns", 0, "emperor"), "rounds[0].turns[0].emperor"),
    ("1", ("setup", "emperor"), "setup.emperor"),
    (False, ("setup", "cubes_per_colour"), "setup.cubes_per_colour"),
    ("3", ("rounds", 0, "discs", 0, 1), "rounds[0].discs[0][1]"),
    (True, ("rounds", 0, "discs", 1, 1), "rounds[0].discs[1][1]"),
    (7, ("rounds", 0, "discs", 0, 0), "rounds[0].discs[0][0]"),
    (["Anna", 3, 1], ("rounds", 0, "discs", 0), "rounds[0].discs[0]"),
    ({"green": 2}, ("rounds", 0, "turns", 0, "court"), "rounds[0].turns[0].court"),
    ({}, ("rounds",), "rounds"),
    ({"1": "red"}, ("setup", "territories"), "setup.territories"),
    (["red"], ("rounds", 0, "turns", 0, "territories"), "rounds[0].turns[0].territories"),
    ("red", ("rounds", 0, "turns", 0, "territories", "4"), "rounds[0].turns[0].territories.4"),
    ("yellow", ("rounds", 0, "turns", 0, "refill"), "rounds[0].turns[0].refill"),
    ([1, 2], ("rounds", 0, "turns", 1, "court"), "rounds[0].turns[1].court[0]"),
    ({"green": "2"}, ("rounds", 0, "turns", 0, "returned"), "rounds[0].turns[0].returned.green"),
    (["green"], ("rounds", 0, "turns", 0, "returned"), "rounds[0].turns[0].returned"),
    (None, ("rounds", 0, "turns", 0, "player"), "rounds[0].turns[0].player"),
    ("Anna", ("players", 0), "players[0]"),
    (["red"] * 7, ("setup", "reserves"), "setup.reserves"),
    ("red red", ("setup", "reserves", "Bob"), "setup.reserves.Bob"),
    ("meta", ("meta",), "meta"),
    ("carolus-record/2", ("format",), "format"),
]


@pytest.mark.parametrize(("value", "path", "field"), WRONG_TYPES)
def test_a_field_of_the_wrong_json_type_is_malformed(
    judge: Judge, records: Any, value: Any, path: tuple[Any, ...], field: str
) -> None:
    status, verdict = judge(replaced(records.example(), value, *path))
    assert status == 2
    assert verdict["error"]["code"] == "malformed"
    assert verdict["error"]["field"] == field
    assert verdict["error"]["message"]


@pytest.mark.parametrize(
    "text",
    ["", "{not json", "[]", "null", "42", '"record"', "[" * 100_000, "1" * 5000, "\ufeff{}"],
)
def test_files_that_are_not_records_are_malformed(judge: Judge, text: str) -> None:
    status, verdict = judge(text)
    assert status == 2
    assert verdict["error"]["code"] == "malformed"
    assert verdict["final"] is None


def test_a_json_value_that_is_not_an_object_names_the_record(judge: Judge) -> None:
    _, verdict = judge("[1, 2]")
    assert verdict["error"]["field"] == "record"


def test_a_malformed_field_anywhere_wins_over_an_earlier_rule_fault(
    judge: Judge, records: Any
) -> None:
    data = records.example()
    data["rounds"][0]["turns"][0]["emperor"] = 9  # a rule fault in turn 1
    data["rounds"][0]["turns"][1]["emperor"] = "3"  # and a type error in turn 2
    status, verdict = judge(data)
    assert status == 2
    assert verdict["error"]["field"] == "rounds[0].turns[1].emperor"


@pytest.mark.parametrize("kind", ["missing", "directory", "binary", "latin-1"])
def test_unreadable_files_are_malformed_without_a_traceback(
    run: Run, tmp_path: Path, kind: str
) -> None:
    path = tmp_path / "game.json"
    if kind == "directory":
        path.mkdir()
    elif kind == "binary":
        path.write_bytes(bytes(range(256)) * 4)
    elif kind == "latin-1":
        path.write_bytes('{"format": "carolus-record/1", "notes": "Café"}'.encode("latin-1"))
    for args in (("check", str(path)), ("check", "--json", str(path))):
        status, out, err = run(*args)
        assert status == 2
        assert "Traceback" not in out + err
        assert str(path) in out + err
    verdict = json.loads(run("check", "--json", str(path))[1])
    assert verdict["error"]["code"] == "malformed"
    assert verdict["legal"] is None


# ---------------------------------------------------------------- rule faults


BOB, ANNA = 0, 1  # turn positions in the example's round 1

# (description, how to break the example, expected (code, round, turn, player))
FAULTS: list[tuple[str, Callable[[dict[str, Any]], None], tuple[str, int, int, str | None]]] = [
    (
        "unknown colour",
        lambda d: d["rounds"][0]["turns"][BOB].update(court=["green", "purple"]),
        ("unknown-colour", 1, 1, "Bob"),
    ),
    (
        "territory 16",
        lambda d: d["rounds"][0]["turns"][BOB].update(territories={"16": ["red"]}),
        ("unknown-territory", 1, 1, "Bob"),
    ),
    (
        "territory 0",
        lambda d: d["rounds"][0]["turns"][ANNA].update(
            court=["red", "red"], territories={"0": ["pink"]}
        ),
        ("unknown-territory", 1, 2, "Anna"),
    ),
    (
        "territory abc",
        lambda d: d["rounds"][0]["turns"][BOB].update(territories={"abc": ["red"]}),
        ("unknown-territory", 1, 1, "Bob"),
    ),
    (
        "zero steps",
        lambda d: d["rounds"][0]["turns"][BOB].update(emperor=0),
        ("emperor-steps", 1, 1, "Bob"),
    ),
    (
        "negative steps",
        lambda d: d["rounds"][0]["turns"][ANNA].update(emperor=-1),
        ("emperor-steps", 1, 2, "Anna"),
    ),
    (
        "more steps than disc 2",
        lambda d: d["rounds"][0]["turns"][BOB].update(emperor=3),
        ("emperor-steps", 1, 1, "Bob"),
    ),
    (
        "unknown player in discs",
        lambda d: d["rounds"][0]["discs"][1].__setitem__(0, "Zed"),
        ("disc-order", 1, 0, "Zed"),
    ),
    (
        "a player twice in discs",
        lambda d: d["rounds"][0].update(discs=[["Anna", 3], ["Anna", 2]]),
        ("disc-order", 1, 0, "Anna"),
    ),
    (
        "a player missing in discs",
        lambda d: d["rounds"][0].update(discs=[["Anna", 3]]),
        ("disc-order", 1, 0, "Bob"),
    ),
    (
        "a third disc for two players",
        lambda d: d["rounds"][0]["discs"].append(["Anna", 4]),
        ("disc-order", 1, 0, "Anna"),
    ),
    (
        "disc 6",
        lambda d: d["rounds"][0]["discs"][0].__setitem__(1, 6),
        ("disc-unavailable", 1, 0, "Anna"),
    ),
    (
        "disc 0",
        lambda d: d["rounds"][0]["discs"][1].__setitem__(1, 0),
        ("disc-unavailable", 1, 0, "Bob"),
    ),
    (
        "disc taken",
        lambda d: d["rounds"][0]["discs"][1].__setitem__(1, 3),
        ("disc-taken", 1, 0, "Bob"),
    ),
    (
        "unknown player in turns",
        lambda d: d["rounds"][0]["turns"][BOB].update(player="Zed"),
        ("turn-order", 1, 1, "Bob"),
    ),
    (
        "wrong player first",
        lambda d: d["rounds"][0].update(turns=d["rounds"][0]["turns"][::-1]),
        ("turn-order", 1, 1, "Bob"),
    ),
    (
        "a player twice in turns",
        lambda d: d["rounds"][0]["turns"][ANNA].update(d["rounds"][0]["turns"][BOB]),
        ("turn-order", 1, 2, "Anna"),
    ),
    (
        "more turns than players",
        lambda d: d["rounds"][0]["turns"].append(dict(d["rounds"][0]["turns"][BOB])),
        ("turn-order", 1, 3, None),
    ),
    (
        "two cubes",
        lambda d: d["rounds"][0]["turns"][BOB].update(territories={}),
        ("cube-count", 1, 1, "Bob"),
    ),
    (
        "four cubes",
        lambda d: d["rounds"][0]["turns"][ANNA].update(territories={"9": ["blue"]}),
        ("cube-count", 1, 2, "Anna"),
    ),
    (
        "not in reserve",
        lambda d: d["rounds"][0]["turns"][BOB].update(court=["pink", "green"]),
        ("not-in-reserve", 1, 1, "Bob"),
    ),
    (
        "short refill",
        lambda d: d["rounds"][0]["turns"][BOB].update(refill=["yellow", "blue"]),
        ("refill-count", 1, 1, "Bob"),
    ),
    (
        "long refill",
        lambda d: d["rounds"][0]["turns"][ANNA]["refill"].append("red"),
        ("refill-count", 1, 2, "Anna"),
    ),
    (
        "refill missing on a turn that does not end the game",
        lambda d: d["rounds"][0]["turns"][BOB].pop("refill"),
        ("refill-count", 1, 1, "Bob"),
    ),
    (
        "null refill",
        lambda d: d["rounds"][0]["turns"][ANNA].update(refill=None),
        ("refill-count", 1, 2, "Anna"),
    ),
    (
        "unknown colour in refill",
        lambda d: d["rounds"][0]["turns"][BOB].update(refill=["yellow", "blue", "gold"]),
        ("refill-count", 1, 1, "Bob"),
    ),
    (
        "a return nobody called for",
        lambda d: d["rounds"][0]["turns"][BOB].update(returned={"yellow": 1}),
        ("bad-return", 1, 1, "Bob"),
    ),
    (
        "a return of an unknown colour",
        lambda d: d["rounds"][0]["turns"][ANNA].update(returned={"purple": 1}),
        ("bad-return", 1, 2, "Anna"),
    ),
]


@pytest.mark.parametrize(("why", "breaks", "expected"), FAULTS, ids=[f[0] for f in FAULTS])
def test_rule_faults_name_code_round_turn_and_player(
    judge: Judge,
    records: Any,
    why: str,
    breaks: Callable[[dict[str, Any]], None],
    expected: tuple[str, int, int, str | None],
) -> None:
    data = records.example()
    breaks(data)
    status, verdict = judge(data)
    assert status == 1, verdict
    assert verdict["legal"] is False
    assert fault(verdict) == expected
    assert verdict["error"]["message"]
    assert verdict["final"] is not None


def example_round_2(records: Any, discs: list[list[Any]]) -> dict[str, Any]:
    data: dict[str, Any] = records.example()
    data["rounds"].append({"discs": discs, "turns": []})
    return data


def test_round_2_chooses_in_the_order_of_play_of_round_1(judge: Judge, records: Any) -> None:
    # round 1 played Bob (disc 2) then Anna (disc 3): Bob chooses first in round 2
    status, verdict = judge(example_round_2(records, [["Bob", 1], ["Anna", 2]]))
    assert status == 0
    status, verdict = judge(example_round_2(records, [["Anna", 1], ["Bob", 1]]))
    assert status == 1
    assert fault(verdict)[:3] == ("disc-order", 2, 0)
    assert fault(verdict)[3] in ("Anna", "Bob")
    assert verdict["final"]["round"] == 1


def test_a_disc_reused_within_the_cycle_is_unavailable(judge: Judge, records: Any) -> None:
    status, verdict = judge(example_round_2(records, [["Bob", 2], ["Anna", 1]]))
    assert (status, fault(verdict)) == (1, ("disc-unavailable", 2, 0, "Bob"))


def test_a_non_last_round_with_turns_missing(judge: Judge, records: Any) -> None:
    data = example_round_2(records, [["Bob", 1], ["Anna", 2]])
    data["rounds"][0]["turns"].pop()  # Anna's turn
    status, verdict = judge(data)
    assert (status, fault(verdict)) == (1, ("turn-order", 1, 2, "Anna"))
    # a last round may stop early: the record was saved mid-game
    data["rounds"].pop()
    status, verdict = judge(data)
    assert status == 0
    assert verdict["final"]["round"] == 1


def test_a_round_with_no_turns_at_all_before_another(judge: Judge, records: Any) -> None:
    data = example_round_2(records, [["Bob", 1], ["Anna", 2]])
    data["rounds"][0]["turns"] = []
    status, verdict = judge(data)
    assert (status, fault(verdict)) == (1, ("turn-order", 1, 1, "Bob"))
    assert verdict["final"]["round"] == 0


def short_of_green(records: Any) -> dict[str, Any]:
    """7 cubes a colour: when Anna refills 2 green, the supply has none left and Bob's
    court holds 2 green, so every player returns k=2 (k=1 would cover only 1)."""
    data: dict[str, Any] = records.example()
    data["setup"]["cubes_per_colour"] = 7
    data["rounds"][0]["turns"][ANNA]["refill"] = ["green", "green", "red"]
    return data


def test_the_canonical_return_is_accepted(judge: Judge, records: Any) -> None:
    data = short_of_green(records)
    data["rounds"][0]["turns"][ANNA]["returned"] = {"green": 2}
    status, verdict = judge(data)
    assert status == 0
    assert verdict["events"][-1] == {
        "round": 1,
        "turn": 2,
        "kind": "returned",
        "colour": "green",
        "k": 2,
    }
    assert verdict["final"]["players"]["Bob"]["control"] == ["green"]  # 0-0 tie keeps it


@pytest.mark.parametrize("k", [1, 3])
def test_a_wrong_k_is_a_bad_return(judge: Judge, records: Any, k: int) -> None:
    data = short_of_green(records)
    data["rounds"][0]["turns"][ANNA]["returned"] = {"green": k}
    status, verdict = judge(data)
    assert (status, fault(verdict)) == (1, ("bad-return", 1, 2, "Anna"))


def test_a_missing_return_is_supply_empty(judge: Judge, records: Any) -> None:
    status, verdict = judge(short_of_green(records))
    assert (status, fault(verdict)) == (1, ("supply-empty", 1, 2, "Anna"))


def test_a_refill_of_a_colour_nobody_can_return_is_supply_empty(judge: Judge, records: Any) -> None:
    data = records.example()
    data["setup"]["cubes_per_colour"] = 7
    # blue: 6 at the start, Bob takes the 7th; nobody has blue in court
    data["rounds"][0]["turns"][ANNA]["refill"] = ["blue", "pink", "pink"]
    status, verdict = judge(data)
    assert (status, fault(verdict)) == (1, ("supply-empty", 1, 2, "Anna"))


BAD_SETUPS: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
    ("4 red on the ring", lambda d: d["setup"]["territories"].__setitem__(1, "red")),
    ("14 territories", lambda d: d["setup"]["territories"].pop()),
    ("a purple territory", lambda d: d["setup"]["territories"].__setitem__(0, "purple")),
    ("reserve of 6", lambda d: d["setup"]["reserves"]["Anna"].pop()),
    ("reserve of 8", lambda d: d["setup"]["reserves"]["Bob"].append("red")),
    ("emperor 0", lambda d: d["setup"].update(emperor=0)),
    ("emperor 16", lambda d: d["setup"].update(emperor=16)),
    ("duplicate players", lambda d: d["players"][1].update(name="Anna")),
    ("one player", lambda d: d["players"].pop()),
    ("both white", lambda d: d["players"][1].update(castles="white")),
    ("castles gold", lambda d: d["players"][1].update(castles="gold")),
    ("reserve of a stranger", lambda d: d["setup"]["reserves"].update(Zed=["red"] * 7)),
    ("no reserve for Bob", lambda d: d["setup"]["reserves"].pop("Bob")),
    ("too few cubes in the game", lambda d: d["setup"].update(cubes_per_colour=6)),
]


@pytest.mark.parametrize(("why", "breaks"), BAD_SETUPS, ids=[b[0] for b in BAD_SETUPS])
def test_bad_setup_is_round_0_turn_0_with_no_final(
    judge: Judge, records: Any, why: str, breaks: Callable[[dict[str, Any]], None]
) -> None:
    data = records.example()
    breaks(data)
    status, verdict = judge(data)
    assert status == 1
    assert verdict["legal"] is False
    assert verdict["error"]["code"] == "bad-setup"
    assert (verdict["error"]["round"], verdict["error"]["turn"]) == (0, 0)
    assert verdict["final"] is None
    assert verdict["events"] == []


def test_four_players_need_two_castle_colours_twice_each(judge: Judge, records: Any) -> None:
    data = records.example()
    data["players"] += [{"name": "Carl", "castles": "grey"}, {"name": "Dora", "castles": "black"}]
    data["setup"]["reserves"].update(Carl=["red"] * 7, Dora=["red"] * 7)
    status, verdict = judge(data)
    assert (status, verdict["error"]["code"]) == (1, "bad-setup")
    data["players"][2]["castles"] = "white"
    assert judge(data)[1]["error"]["code"] != "bad-setup"


def golden(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / name).read_text(encoding="utf-8"))
    return data


def test_a_turn_after_the_end_is_after_end(judge: Judge) -> None:
    data = golden("ends-in-a-draw.json")  # ends on turn 2 of round 4
    data["rounds"][-1]["turns"].append(
        {"player": "Bob", "court": ["blue"], "territories": {}, "emperor": 1}
    )
    status, verdict = judge(data)
    assert (status, fault(verdict)) == (1, ("after-end", 4, 3, "Bob"))
    assert verdict["final"]["finished"] is True
    assert verdict["final"]["winner"] == "draw"
    assert verdict["events"][-1]["kind"] == "game-over"


def test_discs_after_the_end_are_after_end(judge: Judge) -> None:
    data = golden("ends-on-castles.json")
    data["rounds"].append({"discs": [["Bob", 1]], "turns": []})
    status, verdict = judge(data)
    assert (status, fault(verdict)) == (1, ("after-end", 6, 0, "Bob"))


def test_the_turn_that_ends_the_game_may_keep_its_refill(judge: Judge) -> None:
    data = golden("ends-on-castles.json")
    data["rounds"][-1]["turns"][-1]["refill"] = ["gold"]  # ignored there
    status, verdict = judge(data)
    assert status == 0
    assert verdict["final"]["players"]["Bob"]["reserve"] == 4


# ------------------------------------------------- what `final` and events hold


def test_a_faulty_turn_contributes_nothing_to_final_or_events(judge: Judge, records: Any) -> None:
    data = records.example()
    # Anna's turn plays to court (gaining red and pink) and builds, then refills badly
    data["rounds"][0]["turns"][ANNA]["refill"] = ["green"]
    _status, verdict = judge(data)
    assert fault(verdict) == ("refill-count", 1, 2, "Anna")
    final = verdict["final"]
    assert final["players"] == {
        "Anna": {"castles": 0, "control": [], "reserve": 7},
        "Bob": {"castles": 0, "control": ["green"], "reserve": 7},
    }
    assert final["owners"] == {}
    assert final["emperor"] == 3
    assert final["round"] == 1
    assert [e["kind"] for e in verdict["events"]] == ["control-gained"]


def test_a_faulty_opening_phase_contributes_nothing(judge: Judge, records: Any) -> None:
    data = example_round_2(records, [["Bob", 1], ["Anna", 1]])  # Anna holds 2 free
    _status, verdict = judge(data)
    assert fault(verdict) == ("disc-taken", 2, 0, "Anna")
    legal = judge(records.example())[1]
    assert verdict["final"] == legal["final"]
    assert verdict["events"] == legal["events"]


def test_a_fault_in_the_first_turn_leaves_the_set_up(judge: Judge, records: Any) -> None:
    data = records.example()
    data["rounds"][0]["turns"][BOB]["emperor"] = 5
    _, verdict = judge(data)
    final = verdict["final"]
    assert final["round"] == 0
    assert final["emperor"] == 1
    assert final["units"] == [[t] for t in range(1, 16)]
    assert final["players"]["Bob"] == {"castles": 0, "control": [], "reserve": 7}
    assert verdict["events"] == []


# ------------------------------------------------------------ error precedence

# Each case breaks one turn in two ways; the earlier code in record.md's table wins.
PRECEDENCE: list[tuple[str, dict[str, Any], str]] = [
    (
        "turn-order before unknown-territory",
        {"player": "Anna", "territories": {"16": ["red"]}},
        "turn-order",
    ),
    (
        "unknown-territory before unknown-colour",
        {"court": ["purple", "green"], "territories": {"16": ["red"]}},
        "unknown-territory",
    ),
    (
        "unknown-colour before cube-count",
        {"court": ["purple"], "territories": {}},
        "unknown-colour",
    ),
    ("cube-count before not-in-reserve", {"court": ["pink"], "territories": {}}, "cube-count"),
    (
        "not-in-reserve before emperor-steps",
        {"court": ["pink", "green"], "emperor": 9},
        "not-in-reserve",
    ),
    ("emperor-steps before refill-count", {"emperor": 9, "refill": []}, "emperor-steps"),
    (
        "refill-count before bad-return",
        {"refill": ["blue"], "returned": {"blue": 1}},
        "refill-count",
    ),
]


@pytest.mark.parametrize(("why", "change", "code"), PRECEDENCE, ids=[p[0] for p in PRECEDENCE])
def test_checks_within_a_turn_run_in_the_table_order(
    judge: Judge, records: Any, why: str, change: dict[str, Any], code: str
) -> None:
    data = records.example()
    data["rounds"][0]["turns"][BOB].update(change)
    status, verdict = judge(data)
    assert status == 1
    assert verdict["error"]["code"] == code
    assert (verdict["error"]["round"], verdict["error"]["turn"]) == (1, 1)


def test_refill_count_before_supply_empty(judge: Judge, records: Any) -> None:
    data = records.example()
    data["setup"]["cubes_per_colour"] = 7  # 6 blue at the start: the supply has 1
    data["rounds"][0]["turns"][BOB]["refill"] = ["blue", "blue"]
    _, verdict = judge(data)
    assert fault(verdict) == ("refill-count", 1, 1, "Bob")
    data["rounds"][0]["turns"][BOB]["refill"] = ["blue", "blue", "yellow"]
    _, verdict = judge(data)
    assert fault(verdict) == ("supply-empty", 1, 1, "Bob")


def test_bad_return_before_supply_empty(judge: Judge, records: Any) -> None:
    data = short_of_green(records)
    data["rounds"][0]["turns"][ANNA]["refill"] = ["green", "green", "blue"]
    data["rounds"][0]["turns"][ANNA]["returned"] = {"green": 1}
    data["setup"]["cubes_per_colour"] = 7  # blue is out too
    _status, verdict = judge(data)
    assert verdict["error"]["code"] == "bad-return"


def test_the_opening_phase_comes_before_the_turns(judge: Judge, records: Any) -> None:
    data = records.example()
    data["rounds"][0]["discs"][1][1] = 7
    data["rounds"][0]["turns"][BOB]["emperor"] = 9
    _, verdict = judge(data)
    assert fault(verdict) == ("disc-unavailable", 1, 0, "Bob")


def test_the_first_fault_in_play_order_is_reported(judge: Judge, records: Any) -> None:
    data = records.example()
    data["rounds"][0]["turns"][ANNA]["emperor"] = 9
    data["rounds"][0]["turns"][BOB]["refill"] = ["gold"] * 3
    _, verdict = judge(data)
    assert fault(verdict) == ("refill-count", 1, 1, "Bob")


# ---------------------------------------------------------- words for people


def test_a_legal_record_is_said_to_be_legal_with_the_table(
    run: Run, tmp_path: Path, records: Any
) -> None:
    path = records.write(tmp_path / "club.json", records.example())
    status, out, _err = run("check", str(path))
    assert status == 0
    assert str(path) in out
    assert "legal" in out
    assert "Anna (white): 1 castle" in out
    assert "Ring" in out


def test_an_illegal_record_names_rule_player_round_turn_and_shows_the_table(
    run: Run, tmp_path: Path, records: Any
) -> None:
    data = records.example()
    data["rounds"][0]["turns"][ANNA]["emperor"] = 4
    path = records.write(tmp_path / "club.json", data)
    status, out, err = run("check", str(path))
    assert status == 1
    text = out + err
    assert "emperor-steps" in text
    assert "Anna" in text
    assert "round 1" in text
    assert "turn 2" in text
    assert "disc 3" in text  # why 4 steps are too many
    assert "Bob (black): 0 castles, controls green" in text  # the table after Bob's turn
    assert "Ring" in text
    assert "Traceback" not in text


def test_an_opening_phase_fault_says_so(run: Run, tmp_path: Path, records: Any) -> None:
    data = records.example()
    data["rounds"][0]["discs"][1][1] = 3
    path = records.write(tmp_path / "club.json", data)
    status, out, err = run("check", str(path))
    assert status == 1
    assert "opening phase" in out + err
    assert "disc-taken" in out + err


def test_bad_setup_and_malformed_are_one_clear_line(run: Run, tmp_path: Path, records: Any) -> None:
    data = records.example()
    data["setup"]["emperor"] = 16
    bad = records.write(tmp_path / "bad.json", data)
    status, out, err = run("check", str(bad))
    assert status == 1
    assert "set-up" in out + err and "16" in out + err
    data = records.example()
    data["rounds"][0]["turns"][0]["emperor"] = "2"
    broken = records.write(tmp_path / "broken.json", data)
    status, out, err = run("check", str(broken))
    assert status == 2
    text = (out + err).strip()
    assert len(text.splitlines()) == 1
    assert "rounds[0].turns[0].emperor" in text
    assert str(broken) in text
    assert "'2'" in text or '"2"' in text


# ------------------------------------------------------------ records from games


def test_an_unknown_territory_key_is_a_fault_even_with_no_cubes(judge: Judge, records: Any) -> None:
    data = records.example()
    data["rounds"][0]["turns"][BOB]["territories"] = {"4": ["red"], "16": []}
    _, verdict = judge(data)
    assert fault(verdict) == ("unknown-territory", 1, 1, "Bob")
    data["rounds"][0]["turns"][BOB]["territories"] = {"4": ["red"], "5": []}
    assert judge(data)[0] == 0


def test_a_game_saved_while_discs_are_being_chosen_is_a_legal_record(
    table: Any, judge: Judge
) -> None:
    from referee.record import Record

    game = table.game()
    table.discs(game, ("Anna", 3), ("Bob", 2))
    table.turn(game, "Bob", court=["red", "green"], territories={4: ["yellow"]}, steps=2)
    table.turn(game, "Anna", court=["red", "red", "green"], steps=3)
    table.discs(game, ("Bob", 1))  # round 2 half chosen
    record = Record.from_game(game)
    assert [len(r.discs) for r in record.rounds] == [2]
    status, verdict = judge(record.to_json())
    assert status == 0
    assert verdict["final"]["round"] == 1


def test_the_verdict_in_hungarian(run: Run) -> None:
    """``--language hu``: the verdict, the table lines and the rule broken in Hungarian
    (issue 17); the rule's code stays as ``--json`` gives it."""
    status, out, _ = run("check", "--language", "hu", str(GOLDEN / "illegal-after-end.json"))
    assert status == 1
    assert out.splitlines()[0].endswith(
        "illegal-after-end.json: TILOS a(z) 6. fordulóban, korongválasztáskor (Anna) — "
        "after-end: Anna a játék vége után választott korongot (Anna nyer (várak 10 "
        "tartományon))"
    )
    assert "  Az asztal az utolsó szabályos kör után: 5. forduló, 2. kör – Anna nyer" in out
    assert "  Bob (fekete): 0 vár, nincs befolyása; várlap: semmit; " in out
    for english in ("ILLEGAL", "round", "turn", "castle", "court", "reserve", "Ring"):
        assert english not in out, english


def test_a_malformed_record_in_hungarian(run: Run, tmp_path: Path) -> None:
    """``--language hu``: why a file is not a record is Hungarian too (issue 17); the
    field's path stays as it is in the file."""
    record = json.loads((GOLDEN / "illegal-after-end.json").read_text())
    record["setup"]["emperor"] = "7"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    status, out, _ = run("check", "--language", "hu", str(path))
    assert status != 0
    assert out.strip().endswith(
        "bad.json: érvénytelen játékjegyzőkönyv (mező: setup.emperor): "
        "egész szám kell, nem szöveg: '7'"
    ), out
    status, out, _ = run("check", "--language", "hu", str(tmp_path))
    assert "nem közönséges fájl (mappa)" in out, out
