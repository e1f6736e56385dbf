"""The fitting scripts' shared command line refuses what would make a stored number
untrustworthy (held-out seeds) or lost (a file it cannot write), in a sentence."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scripts.fitting import fit_command


def _fit(frames: int, first_seed: int) -> dict[str, Any]:
    return {"model": {"frames": frames, "first_seed": first_seed}, "report": {}}


def test_the_result_and_its_small_check_are_written(tmp_path: Path) -> None:
    out = tmp_path / "fitted.json"
    status = fit_command("fit_x", "Fit x.", _fit, out=out, frames=5, first_seed=100,
                         check_frames=2, argv=[])
    assert status == 0
    stored = json.loads(out.read_text(encoding="utf-8"))
    assert stored["model"] == {"frames": 5, "first_seed": 100}
    assert stored["check"] == {"frames": 2, "model": {"frames": 2, "first_seed": 100}}


def test_held_out_seeds_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        fit_command("fit_x", "Fit x.", _fit, out=tmp_path / "f.json", frames=5, first_seed=100,
                    check_frames=2, argv=["--first-seed", "899990"])
    assert exit_.value.code == 2
    assert "held out" in capsys.readouterr().err
    assert not (tmp_path / "f.json").exists()


def test_a_file_that_cannot_be_written_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "missing" / "f.json"
    status = fit_command("fit_x", "Fit x.", _fit, out=out, frames=1, first_seed=100,
                         check_frames=1, argv=[])
    assert status == 2
    assert f"fit_x: cannot write {out}" in capsys.readouterr().err
