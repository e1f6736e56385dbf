"""Golden verdicts: ``carolus check --json`` on each record in ``records/`` must print
exactly ``expected/<same name>`` and exit with the matching status.

Regenerate after a deliberate change with ``CAROLUS_UPDATE_GOLDEN=1`` (see README.md),
then review the diff: every expected file was first checked by hand against the rules.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from firmware.cli import main

HERE = Path(__file__).parent
RECORDS = HERE / "records"
EXPECTED = HERE / "expected"
UPDATE = os.environ.get("CAROLUS_UPDATE_GOLDEN") == "1"

NAMES = sorted(p.name for p in RECORDS.glob("*.json"))


def exit_status(verdict: dict[str, object]) -> int:
    return {True: 0, False: 1, None: 2}[verdict["legal"]]  # type: ignore[index]


def test_there_are_golden_records() -> None:
    assert len(NAMES) >= 10
    assert {p.name for p in EXPECTED.glob("*.json")} == set(NAMES) or UPDATE


@pytest.mark.parametrize("name", NAMES)
def test_check_json_matches_the_golden_verdict(
    name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(RECORDS)
    status = main(["check", "--json", name])
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert len(lines) == 1, out
    verdict = json.loads(lines[0])
    expected_file = EXPECTED / name
    if UPDATE:
        expected_file.write_text(json.dumps(verdict, indent=1, ensure_ascii=False) + "\n")
    expected = json.loads(expected_file.read_text(encoding="utf-8"))
    assert verdict == expected
    assert status == exit_status(expected)


def normalised_rounds(data: dict[str, object]) -> list[object]:
    """Rounds with the meaningless order inside court, territory lists and refill removed."""
    rounds: list[object] = []
    for rnd in data["rounds"]:  # type: ignore[attr-defined]
        turns = []
        for turn in rnd["turns"]:
            turns.append(
                {
                    "player": turn["player"],
                    "court": sorted(turn["court"]),
                    "territories": {k: sorted(v) for k, v in turn["territories"].items() if v},
                    "emperor": turn["emperor"],
                    "refill": sorted(turn["refill"]) if turn.get("refill") is not None else None,
                    "returned": turn.get("returned") or {},
                }
            )
        rounds.append({"discs": rnd["discs"], "turns": turns})
    return rounds


LEGAL = [n for n in NAMES if json.loads((EXPECTED / n).read_text())["legal"]] if not UPDATE else []


@pytest.mark.parametrize("name", LEGAL)
def test_a_legal_record_is_written_back_the_same_by_from_game(name: str) -> None:
    from referee.check import judge
    from referee.record import Record, load

    record = load(RECORDS / name)
    verdict = judge(record, name)
    assert verdict.game is not None
    written = Record.from_game(verdict.game).to_json()
    original = json.loads((RECORDS / name).read_text(encoding="utf-8"))
    if verdict.game.is_over:  # the refill of the last turn is left out, as the spec allows
        original["rounds"][-1]["turns"][-1].pop("refill", None)
    assert normalised_rounds(written) == normalised_rounds(original)
    assert written["setup"]["territories"] == original["setup"]["territories"]
    assert written["players"] == original["players"]
