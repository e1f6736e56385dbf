"""The hardware docs quote one set of numbers, the ones `hardware/fov.py` computes: the
camera height, the arm, the cable runs (issue 15: 1.0-1.3 m in one file, 755 mm in
another; a 650 mm boom beside a 630 mm drawing; a 500 mm cable on a 1.5 m run)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"
DOCS = [HARDWARE / "README.md", HARDWARE / "camera.md", HARDWARE / "mat.md",
        HARDWARE / "setup.md", ROOT / "README.md"]


def _fov():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("fov", HARDWARE / "fov.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


fov = _fov()
ARM = fov.arm()


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_camera_md_quotes_the_arm_table_fov_prints() -> None:
    printed = subprocess.run([sys.executable, str(HARDWARE / "fov.py")], capture_output=True,
                             text=True, check=True).stdout
    table = "\n".join(fov.arm_table(ARM))
    assert table in printed
    assert table in text(HARDWARE / "camera.md")


def test_the_camera_table_holds_fovs_heights() -> None:
    camera_md = text(HARDWARE / "camera.md")
    for _name, _h, vfov, _sizes in fov.CAMERAS:
        assert f"**{fov.height_mm(1000, vfov):.0f} mm**" in camera_md
        assert f"| {fov.height_mm(900, vfov):.0f} mm |" in camera_md


def test_every_camera_height_in_the_docs_is_one_fov_computes() -> None:
    heights = {f"{fov.height_mm(1000, v):.0f}" for _n, _h, v, _s in fov.CAMERAS}
    wide = f"{ARM['height']:.0f}"
    seen = set()
    for path in DOCS:
        for number in re.findall(r"(\d{3,4}) mm (?:above the mat|lens to mat)", text(path)):
            assert number in heights, (path.name, number)
            seen.add(number)
        assert not re.search(r"\d\.\d+\s*[–-]\s*\d\.\d+ m\b", text(path)), path.name
        assert not re.search(r"needs \d\.\d+ m", text(path)), path.name
    assert wide in seen
    assert f"lens {wide} mm above the mat" in text(HARDWARE / "mat.md").replace("\n", " ")


def test_the_arm_lengths_are_the_same_everywhere() -> None:
    boom, post = f"{ARM['boom']:.0f}", f"{ARM['post']:.0f}"
    bom = text(HARDWARE / "README.md")
    assert f"{post} mm + {boom} mm" in bom
    assert f"boom {boom} mm" in bom
    camera_md = text(HARDWARE / "camera.md")
    assert f"cut to {boom} mm" in camera_md and f"boom {boom} mm, post {post} mm" in camera_md
    for path in DOCS:
        for number in re.findall(r"\bboom[ ~]{1,2}(\d{3,4}) mm", text(path)):
            assert number == boom, (path.name, number)
        assert "650 mm" not in text(path) and "~630" not in text(path), path.name


def test_the_camera_cable_reaches_the_pi() -> None:
    assert ARM["camera_cable_run"] <= ARM["camera_cable"]
    bom = text(HARDWARE / "README.md")
    row = next(line for line in bom.splitlines() if line.startswith("| 6 |"))
    assert f"{ARM['camera_cable']:.0f} mm" in row
    assert "Pi rides on the boom" in row
    assert f"{ARM['pi_from_camera']:.0f} mm from the camera" in row
    assert f"run {ARM['camera_cable_run']:.0f} mm" in row
    lead = next(line for line in bom.splitlines() if line.startswith("| 16a |"))
    assert f"{ARM['panel_lead'] / 1000:.1f} m" in lead
    assert f"run {ARM['panel_lead_run']:.0f} mm" in lead


def test_no_part_is_left_from_memory_and_the_source_step_is_real() -> None:
    for path in DOCS:
        assert "(check" not in text(path) and "from memory" not in text(path), path.name
    setup = text(HARDWARE / "setup.md")
    assert "<the Carolus repository>" not in setup
    assert "git bundle create" in setup and "git clone --branch main /tmp/carolus.bundle" in setup
    assert "defaults.pcm.card" in setup and "espeak-ng" in setup and "aplay -l" in setup


def test_the_buzzer_row_says_which_kind_and_whether_the_diode_is_needed() -> None:
    bom = text(HARDWARE / "README.md")
    buzzer = next(line for line in bom.splitlines() if line.startswith("| 12 |"))
    diode = next(line for line in bom.splitlines() if line.startswith("| 15 |"))
    assert "magnetic" in buzzer
    assert "needed" in diode


def _sources() -> dict[str, list[str]]:
    """The rows of README.md's "Where the part facts come from" table, by their Row cell."""
    bom = text(HARDWARE / "README.md")
    assert "## Where the part facts come from" in bom
    section = bom.split("## Where the part facts come from", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, list[str]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] not in ("Row", "---"):
            rows.setdefault(cells[0], []).append(line)
    return rows


def test_every_named_part_says_where_its_facts_come_from() -> None:
    """Issue 15: parts were named "from memory". Every BOM row that names a maker's part
    is in the sources table, each fact with its source and whether it was verified; what
    was not verified says so and what to check instead."""
    rows = _sources()
    covered = {n.strip() for key in rows for n in re.split(r"[,\s]+", key.replace("–", ","))}
    covered |= {str(n) for n in range(1, 5)} if "1–4, 16, 21" in rows else set()
    for row in ("1", "2", "3", "4", "5", "5a", "5b", "6", "7", "7a", "8", "12", "15", "16", "22"):
        assert row in covered, row
    for lines in rows.values():
        for line in lines:
            status = line.strip().strip("|").split("|")[3]
            assert re.search(r"verified|reasoning", status), line
            if "not verified" in status:
                assert ":" in status, line  # what to check instead
    bom = text(HARDWARE / "README.md")
    buzzer = next(line for line in bom.splitlines() if line.startswith("| 12 |"))
    assert "Adafruit 1536" not in buzzer  # its kind (magnetic or piezo) could not be checked
    assert "30 mA" in buzzer and "2.3 kHz" in buzzer


@pytest.mark.parametrize("script", ["mount"])
def test_the_drawing_is_what_its_script_draws_now(script: str, tmp_path: Path) -> None:
    out = tmp_path / f"{script}.png"
    subprocess.run([sys.executable, str(HARDWARE / f"{script}.py"), str(out)], check=True)
    want = Image.open(HARDWARE / f"{script}.png").convert("RGB")
    got = Image.open(out).convert("RGB")
    assert want.size == got.size
    assert ImageChops.difference(want, got).getbbox() is None
