"""The study of a count that looks at a blob's pixels (`benchmarks/crop_count_study.py`):
its baseline is the product's count, its pictures show the blob they are of, and without
torch it says what it needs instead of failing."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import crop_count_study

from vision import cube_count


def test_the_baseline_votes_as_the_products_count_does() -> None:
    """The nearest-neighbour shares the study compares the network with win where the
    stored model's weighing of the features, fitted on the same blobs, votes
    (`CubeCount.votes`), by as many neighbours: the study's baseline is the product's
    count, not one of its own."""
    stored = cube_count.stored()
    assert stored is not None and stored.weights is not None
    samples, counts = stored.samples, stored.counts
    rng = np.random.default_rng(3)
    test = rng.choice(len(counts), size=400, replace=False)
    train = np.setdiff1d(np.arange(len(counts)), test)
    shares = crop_count_study.knn_tallies(samples[train], counts[train], samples[test])
    model = cube_count.CubeCount.fit(samples[train], counts[train], 0.0, 0.0,
                                     weights=stored.weights)
    won, agreeing = model.votes(samples[test])
    assert np.allclose(shares.sum(axis=1), 1.0)
    clear = shares.max(axis=1) > 0.5        # no tie a neighbour's order may break
    assert clear.sum() > 300
    assert (shares.argmax(axis=1)[clear] == np.minimum(won[clear], 4)).all()
    assert np.allclose(shares.max(axis=1)[clear] * cube_count.NEIGHBOURS, agreeing[clear])


def test_a_blobs_picture_is_centred_on_it_and_holds_it() -> None:
    """Each labelled blob's picture shows its own pixels (the fifth layer) with its box's
    middle at the picture's, and a dark patch darker than the bare table there (the
    first layer, log brightness over the bare table's)."""
    blobs = crop_count_study.ours((False, 23004))
    assert blobs and {b.patch for b in blobs} == {True, False}
    half = crop_count_study.HALF
    for b in blobs:
        assert b.picture.shape == (5, 2 * half, 2 * half)
        ys, xs = np.nonzero(b.picture[4])
        assert len(ys)
        if min(ys.min(), xs.min()) > 0 and max(ys.max(), xs.max()) < 2 * half - 1:
            assert abs((ys.min() + ys.max() + 1) / 2 - half) <= 1
            assert abs((xs.min() + xs.max() + 1) / 2 - half) <= 1
    patches = [b for b in blobs if b.patch and b.picture[4].sum() > 20]
    assert patches
    for b in patches:
        inside = b.picture[4] > 0
        assert b.picture[0][inside].mean() < b.picture[0][~inside].mean()


def test_without_torch_it_says_what_it_needs(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)
    assert crop_count_study.main(["--frames", "5"]) == 2
    assert "pip install torch" in capsys.readouterr().err


def test_bad_options_are_named(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, named in ((["--path-traced", "nine"], "--path-traced nine"),
                        (["--width", "0"], "--width 0"), (["--frames", "2"], "--frames 2")):
        with pytest.raises(SystemExit) as stop:
            crop_count_study.main(argv)
        assert stop.value.code == 2
        assert named in capsys.readouterr().err
