"""The blob-by-blob look at the cube count's errors (`benchmarks/cube_blobs.py`): every
true cube is accounted for, and held-out frames are not looked at."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from vision.layout import Layout
from vision.render import scene as sc
from vision.render.score import zone_results

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import cube_blobs
import vision_bench


def test_every_true_cube_is_in_a_blob_or_said_to_be_in_none(layout: Layout) -> None:
    """A blob's true count and the cubes in no blob add up to the table's cubes on its
    territories and reserves (hard light, a tuning frame where three red cubes on red
    roofs show in no blob): an error the report cannot place would hide where the count
    goes wrong."""
    seed = 23001
    blobs = cube_blobs.weighed((True, seed))
    truth = sc.truth(layout, sc.random_scene(
        layout, np.random.default_rng(seed), hard=True, width=2304, height=1296,
        px_per_mm=1.3, variety="wide"))
    on_table = sum(sum(t["cubes"].values()) for t in truth["territories"].values())
    on_table += sum(sum(r.values()) for r in truth["reserves"].values())
    assert sum(b.true for b in blobs) == on_table
    assert {b.kind for b in blobs} == {"colour", "patch", "none"}
    report = cube_blobs.report(blobs, "hard", seed, 1, listed=True)
    wrong = [b for b in blobs if b.voted != b.true]
    assert f"| {sum(b.kind == 'colour' for b in blobs)} |" in report
    assert all(f"| {b.seed} | {b.zone} | {b.colour} | {b.kind} |" in report for b in wrong)


def test_held_out_seeds_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        cube_blobs.main(["--first-seed", "899990", "--frames", "20"])
    assert stop.value.code == 2
    assert "900000 on are held out" in capsys.readouterr().err


def test_the_bench_reads_the_tuning_tables_when_asked(
        layout: Layout, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`vision_bench.py --tuning` reads the calibrated tables a change is judged on (the
    ones this report looks at), not the held-out ones, and only those: its figures are
    what reading those tables, each against its own calibration, gives."""
    monkeypatch.setattr(vision_bench, "VARIETY", {})        # main() sets the variety
    out = tmp_path / "tuning.json"
    assert vision_bench.main(["--tuning", "--sets", "hard,hands", "--frames", "2",
                              "--variety", "wide", "--jobs", "1", "--json", str(out)]) == 0
    figures = json.loads(out.read_text(encoding="utf-8"))
    seeds = (cube_blobs.FIRST_SEED, cube_blobs.FIRST_SEED + 1)
    assert figures["seeds"] == f"tuning, {seeds[0]} to {seeds[1]} in each light"
    assert not {"hard", "mild_calibrated", "hands"} & set(figures)
    results = []
    for seed in seeds:
        scene, reader, frame = vision_bench.calibrated_table(layout, True, seed,
                                                             variety={"variety": "wide"})
        results.append(zone_results(reader.read(frame), sc.truth(layout, scene)))
    right = sum(sum(r.values()) for r in results) / sum(len(r) for r in results)
    assert figures["hard_calibrated"]["zone_accuracy"] == right
    assert figures["hard_calibrated"]["frames"] == 2
