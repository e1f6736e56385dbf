"""The study of edges a cube leaves where the bare table has none
(`benchmarks/new_edges_study.py`) must see the plainly visible cubes of a labelled frame,
and nothing of a table compared with itself; otherwise its figures would mean nothing."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import new_edges_study as study


def test_cubes_on_a_labelled_frame_score_above_empty_places() -> None:
    """One mild tuning frame of the cube model's: its cubes' middles hold new edges far
    more often than random territory places away from every piece."""
    light, reader, pieces = next(study.ours(1))
    found = study.scores(reader, pieces, np.random.default_rng(0))
    assert light == "mild"
    assert len(found["cubes"]) > 20 and len(found["empty"]) > 20
    assert study.auc(np.asarray(found["cubes"]), np.asarray(found["empty"])) > 0.8


def test_a_picture_compared_with_itself_has_no_new_edges() -> None:
    rng = np.random.default_rng(1)
    art = rng.integers(0, 256, (40, 50, 3), dtype=np.uint8)
    assert not study.new_edge_mask(art, art).any()
    square = art.copy()
    square[10:30, 15:35] = (30, 200, 230)           # a yellow cube's top laid on it
    assert study.new_edge_mask(square, np.full_like(art, 128)).any()


def test_held_out_path_traced_scenes_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        study.main(["--cycles", "900000-900001"])
    assert stop.value.code == 2
    assert "held out" in capsys.readouterr().err
