"""The harness that tries a new blob feature without refitting
(`benchmarks/blob_feature_study.py`) must tell a feature that knows the count from one
that knows nothing; if it could not, its "no help" would mean nothing."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import blob_feature_study as study


@pytest.fixture(scope="module")
def blobs() -> list[study.Blob]:
    return study.gather(2)


def test_a_feature_that_knows_the_count_is_found_to_help_and_noise_is_not(
        blobs: list[study.Blob]) -> None:
    """Two labelled tuning frames, each counted by a vote on the other: the stored
    features miscount some blobs; given the true count as a feature, weighed heavily,
    the vote miscounts fewer than half as many (only counts the other frame never
    held stay wrong); given noise, no fewer than that."""
    truth = np.array([b.true for b in blobs], np.float32)
    noise = np.random.default_rng(0).normal(size=len(blobs)).astype(np.float32)
    base = study.miscounted(blobs)[0]
    knowing = study.miscounted(blobs, truth, 20.0)[0]
    assert base > 0
    assert knowing < base / 2
    assert study.miscounted(blobs, noise, 20.0)[0] > knowing


def test_each_candidate_is_reported_at_each_weight_against_the_stored_features(
        blobs: list[study.Blob]) -> None:
    lines = study.study(blobs, study.CANDIDATES)
    assert lines[1].startswith("stored features: ")
    assert len(lines) == 2 + len(study.CANDIDATES) * len(study.WEIGHTS)
    assert all(any(line.startswith(f"+ {name} x") for line in lines)
               for name in study.CANDIDATES)


def test_held_out_seeds_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        study.main(["--first-seed", "899990", "--frames", "2"])
    assert stop.value.code == 2
    assert "held out" in capsys.readouterr().err
