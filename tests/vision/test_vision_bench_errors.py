"""The per-frame benchmark's list of zones read wrong (`benchmarks/vision_bench.py
--errors`): what a session mending the reader starts from, so it must name every zone the
figures count wrong, and say what each holds and what was read."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import vision_bench

from referee.table.snapshot import DOUBTFUL


@pytest.fixture(scope="module")
def hard_tables(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The bench's list and figures for hard tuning tables 23000-23001 (read once)."""
    where = tmp_path_factory.mktemp("bench")
    errors, figures = where / "hard.jsonl", where / "hard.json"
    assert vision_bench.main(["--tuning", "--sets", "hard", "--variety", "wide", "--frames",
                              "2", "--jobs", "1", "--errors", str(errors),
                              "--json", str(figures)]) == 0
    return errors, figures


def test_every_zone_counted_wrong_is_written_with_what_it_holds_and_what_was_read(
        hard_tables: tuple[Path, Path]) -> None:
    errors, figures = hard_tables
    wrong = json.loads(figures.read_text())["hard_calibrated"]["wrong_by_kind"]
    lines = [json.loads(line) for line in errors.read_text().splitlines()]
    # tuning tables 23000 and 23001 under the hard lamp: a court and two tiles wrong
    assert lines, "the hard tuning tables 23000-23001 read some zone wrong"
    assert sum(wrong.values()) == len(lines)
    for line in lines:
        assert line["light"] == "hard"
        assert line["seed"] in (vision_bench.TUNING_SEED, vision_bench.TUNING_SEED + 1)
        assert line["zone"].split(":")[0] in wrong
        assert line["truth"] != line["read"]
        assert 0.0 <= line["confidence"] <= 1.0


def test_the_zones_the_reader_doubted_are_counted_apart_from_those_it_was_sure_of(
        hard_tables: tuple[Path, Path]) -> None:
    """A zone read wrong and doubted becomes a question in a game; one read wrong and sure,
    a move or a buzz. The figures say how many of each, and they agree with the list."""
    errors, figures = hard_tables
    hard = json.loads(figures.read_text())["hard_calibrated"]
    lines = [json.loads(line) for line in errors.read_text().splitlines()]
    doubted = hard["doubted"]
    assert doubted["wrong_zones"] == len(lines)
    assert doubted["wrong"] == sum(line["confidence"] < DOUBTFUL for line in lines)
    assert doubted["right_zones"] + doubted["wrong_zones"] == hard["zones"]
    assert 0 < doubted["right"] < doubted["right_zones"]


def test_tables_with_shadows_lit_by_a_fill_light_are_read_and_said_so(
        tmp_path: Path) -> None:
    figures = tmp_path / "fill.json"
    assert vision_bench.main(["--tuning", "--sets", "hard", "--variety", "wide", "--frames",
                              "1", "--jobs", "1", "--fill-light",
                              "--json", str(figures)]) == 0
    out = json.loads(figures.read_text())
    assert "fill light" in out["scenes"]
    assert out["hard_calibrated"]["zones"] > 0


def test_a_fill_light_is_refused_on_the_classic_tables(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        vision_bench.main(["--sets", "hard", "--fill-light"])
    assert stop.value.code == 2
    assert "--fill-light: only with --variety wide" in capsys.readouterr().err
