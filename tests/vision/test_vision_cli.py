"""`carolus vision read|calibrate` as a user runs them, including bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from firmware.cli import main
from vision.render import scene as sc


@pytest.fixture(scope="module")
def frames(tmp_path_factory, layout) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("frames")
    rng = np.random.default_rng(71)
    base = sc.random_scene(layout, rng)
    cal = sc.with_changes(base, sc.calibration_scene(layout, rng).pieces)
    cal.with_boards = False
    cv2.imwrite(str(folder / "calib.png"), sc.render(layout, cal, 72))
    cv2.imwrite(str(folder / "table.jpg"), sc.render(layout, base, 73))
    (folder / "truth.json").write_text(json.dumps(sc.truth(layout, base)))
    cv2.imwrite(str(folder / "nomat.png"), np.full((300, 400, 3), 90, np.uint8))
    (folder / "notes.txt").write_text("not an image")
    return {p.stem: p for p in folder.iterdir()}


def test_read_prints_one_snapshot_per_image(frames, capsys) -> None:
    code = main(["vision", "read", str(frames["table"]), str(frames["nomat"]), "--fps", "4"])
    assert code == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["format"] == "carolus-snapshot/1" and first["mat"] is True
    assert first["t"] == 0.0 and second["t"] == 0.25
    assert second["mat"] is False
    truth = json.loads(frames["truth"].read_text())
    assert first["emperor"] == truth["emperor"]
    assert set(first["territories"]) == {str(n) for n in range(1, 16)}


def test_calibrate_then_read(frames, tmp_path, capsys) -> None:
    out = tmp_path / "cal.json"
    assert main(["vision", "calibrate", str(frames["calib"]), "--out", str(out)]) == 0
    assert json.loads(out.read_text())["format"] == "carolus-calibration/1"
    assert main(["vision", "read", str(frames["table"]), "--calibration", str(out)]) == 0
    snap = json.loads(capsys.readouterr().out)
    truth = json.loads(frames["truth"].read_text())
    assert snap["discs"] == truth["discs"]


@pytest.mark.parametrize("args, named", [
    (["vision", "read", "{notes}"], "notes.txt"),
    (["vision", "read", "{missing}"], "missing.png"),
    (["vision", "read", "{table}", "--layout", "{notes}"], "notes.txt"),
    (["vision", "read", "{table}", "--calibration", "{truth}"], "truth.json"),
    (["vision", "calibrate", "{nomat}", "--out", "{out}"], "nomat.png"),
    (["vision", "calibrate", "{notes}", "--out", "{out}"], "notes.txt"),
])
def test_bad_input_exits_2_naming_the_file(frames, tmp_path, capsys, args, named) -> None:
    paths = {k: str(v) for k, v in frames.items()}
    paths.update(missing=str(tmp_path / "missing.png"), out=str(tmp_path / "o.json"))
    assert main([a.format(**paths) for a in args]) == 2
    err = capsys.readouterr().err
    assert named in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_wrong_layout_from_the_real_command(frames, tmp_path) -> None:
    layout = tmp_path / "layout.json"
    layout.write_text(json.dumps({"format": "carolus-layout/1", "size_mm": [900, 900]}))
    proc = subprocess.run([sys.executable, "-m", "firmware.cli", "vision", "read",
                           str(frames["table"]), "--layout", str(layout)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "layout.json" in proc.stderr and "Traceback" not in proc.stderr


def test_cli_module_does_not_import_opencv() -> None:
    code = "import sys, vision.cli; print('cv2' in sys.modules, 'numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60).stdout
    assert out.split() == ["False", "False"]
