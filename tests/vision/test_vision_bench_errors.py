"""The per-frame benchmark's list of zones read wrong (`benchmarks/vision_bench.py
--errors`): what a session mending the reader starts from, so it must name every zone the
figures count wrong, and say what each holds and what was read."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import vision_bench


def test_every_zone_counted_wrong_is_written_with_what_it_holds_and_what_was_read(
        tmp_path: Path) -> None:
    errors, figures = tmp_path / "hard.jsonl", tmp_path / "hard.json"
    assert vision_bench.main(["--tuning", "--sets", "hard", "--variety", "wide", "--frames",
                              "2", "--jobs", "1", "--errors", str(errors),
                              "--json", str(figures)]) == 0
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
