"""The harness that tries a new blob feature without refitting
(`benchmarks/blob_feature_study.py`) must tell a feature that knows the count from one
that knows nothing; if it could not, its "no help" would mean nothing."""

from __future__ import annotations

import dataclasses
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


def _patch(offset: tuple[float, float], caster: tuple[int, int]) -> study.Blob:
    """A 6 x 6 patch found by its darkness, and a cube-sized piece seen plainly at
    `caster` (its window's top-left corner, in the `REACH` window)."""
    features = np.zeros(len(study.FEATURES), np.float32)
    features[study._SHADE] = 1.0
    mask = np.ones((6, 6), bool)
    wide = (6 + 2 * study.REACH, 6 + 2 * study.REACH)
    pieces = np.zeros(wide, bool)
    y, x = caster
    pieces[y:y + 6, x:x + 6] = True
    ratio = np.ones(wide, np.float32)
    ratio[pieces] = 1.6
    pad = np.zeros((6 + 2 * study.PAD, 6 + 2 * study.PAD, 3), np.uint8)
    return study.Blob(0, features, 0, mask, pad, pad, 8.0, offset, pieces, ratio)


def test_a_patch_with_a_piece_toward_the_lamp_looks_like_its_shadow() -> None:
    """The shadow falls 6 px to the right: a piece 6 px to the patch's left is where its
    caster would stand; one 6 px to its right is not (a dyed cube's own top would be
    on the left, and it looks like the art)."""
    r = study.REACH
    left = _patch((6.0, 0.0), (r, r - 6))
    right = _patch((6.0, 0.0), (r, r + 6))
    assert study.upwind(left) == 1.0 and study.upwind(right) == 0.0
    assert study.upwind_change(left) > 0.4 > study.upwind_change(right) == 0.0


def test_a_blob_of_a_piece_s_colour_is_measured_toward_the_lamp_too() -> None:
    """The fiftieth session's candidates: a castle's shadow darkening a meadow reads
    green, and its caster stands toward the lamp from it (`upwind_coloured`) and casts
    over it (`cast_on_coloured`); a patch found by its darkness is left to `upwind`."""
    r = study.REACH
    patch = _patch((6.0, 0.0), (r, r - 6))
    coloured = dataclasses.replace(patch, features=np.zeros_like(patch.features))
    away = dataclasses.replace(_patch((6.0, 0.0), (r, r + 8)),
                               features=np.zeros_like(patch.features))
    assert study.upwind_coloured(coloured) > 0.4 > study.upwind_coloured(away) == 0.0
    assert study.upwind_coloured(patch) == 0.0 == study.cast_on_coloured(patch)
    assert study.cast_on_coloured(coloured) == 1.0
    assert study.cast_on_coloured(away) == 0.0
