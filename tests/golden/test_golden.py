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
