"""The README's "Try it on the examples" commands run on the shipped files and say
something sensible (issue 15: nothing shipped to try `follow` or `vision read` on)."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def readme_commands() -> list[list[str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Try it on the examples", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None
    return [shlex.split(line) for line in block.group(1).splitlines() if line.strip()]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, subprocess.CompletedProcess[str]]:
    """Each README command, run from the repository's root as written, /tmp moved to a
    folder of the test's own."""
    tmp = tmp_path_factory.mktemp("try")
    out: dict[str, subprocess.CompletedProcess[str]] = {}
    for argv in readme_commands():
        assert argv[0] == "carolus"
        args = [a.replace("/tmp/", f"{tmp}/") for a in argv[1:]]
        name = " ".join(args[:2]) if args[0] == "vision" else args[0]
        out[name] = subprocess.run([sys.executable, "-m", "firmware", *args], cwd=ROOT,
                                   capture_output=True, text=True, timeout=300)
    out["tmp"] = subprocess.CompletedProcess([], 0, str(tmp), "")
    return out


def same_game(record: dict) -> str:  # type: ignore[type-arg]
    """The record's setup and rounds with every list of colours sorted."""

    def norm(value: object) -> object:
        if isinstance(value, dict):
            return {k: norm(v) for k, v in value.items()}
        if isinstance(value, list):
            items = [norm(v) for v in value]
            return sorted(items) if all(isinstance(v, str) for v in items) else items
        return value

    return json.dumps(norm({"setup": record["setup"], "rounds": record["rounds"]}), sort_keys=True)


def test_the_readme_lists_the_commands_on_shipped_files() -> None:
    commands = readme_commands()
    assert [c[1] for c in commands] == ["check", "follow", "vision", "vision"]
    for argv in commands:
        for arg in argv:
            if arg.startswith("examples/"):
                assert (ROOT / arg).is_file(), arg
    size = sum(p.stat().st_size for p in EXAMPLES.rglob("*") if p.is_file())
    assert size < 3_000_000


def test_follow_referees_the_stream_into_the_record(
    runs: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    follow = runs["follow"]
    assert follow.returncode == 0, follow.stderr
    assert "Set-up accepted" in follow.stdout
    assert "White builds a castle on territory 6" in follow.stdout
    record = json.loads((Path(runs["tmp"].stdout) / "club-night.json").read_text())
    shipped = json.loads((EXAMPLES / "club-night.json").read_text())
    assert same_game(record) == same_game(shipped)   # the order inside a list carries nothing
    check = runs["check"]
    assert check.returncode == 0, check.stdout + check.stderr


def test_calibrate_then_read_the_frames(
    runs: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    calibrate = runs["vision calibrate"]
    assert calibrate.returncode == 0, calibrate.stderr
    assert "24 markers" in calibrate.stderr
    read = runs["vision read"]
    assert read.returncode == 0, read.stderr
    got = [json.loads(line) for line in read.stdout.splitlines()]
    expected = [json.loads(line) for line in
                (EXAMPLES / "frames" / "expected.jsonl").read_text().splitlines()]
    assert len(got) == len(expected) == 3
    for snap, want in zip(got, expected, strict=True):
        assert snap["format"] == "carolus-snapshot/1" and snap["mat"] is True
        assert snap["emperor"] == want["emperor"], want["image"]
        wrong = 0
        for number, tile in want["territories"].items():
            assert snap["territories"][number]["castles"] == tile["castles"], want["image"]
            wrong += sum(abs(snap["territories"][number]["cubes"][c] - n)
                         for c, n in tile["cubes"].items())
        for kind in ("courts", "reserves"):
            for seat in ("south", "north"):
                wrong += sum(abs(snap[kind][seat][c] - n) for c, n in want[kind][seat].items())
        assert wrong <= 2, (want["image"], wrong)   # a rendered frame reads (nearly) exactly
    assert got[-1]["territories"]["6"]["castles"]["white"] == 1
