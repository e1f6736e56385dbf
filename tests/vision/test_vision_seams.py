"""A court row counted in its own cubes: the pitch of its seams, measured on the row."""

from __future__ import annotations

import math

import numpy as np
import pytest
from calibrated import bench_table, calibration_for

from vision import seams
from vision.calibration import reader_for
from vision.layout import load_layout
from vision.reference import RowModel
from vision.render import scene as scenes
from vision.render.pieces import Piece

LAYOUT = load_layout(None)
CUBE_MM = LAYOUT.pieces_mm["cube"]


def _strip(pitch_mm: float, cubes: int, scale: float, seam: int) -> np.ndarray:
    """A row's strip (along × across × BGR): tops of one paint, each cube's edges `seam`
    darker or lighter, cubes `pitch_mm` apart."""
    along = math.ceil((cubes * pitch_mm + 6) * scale)
    strip = np.full((along, 9, 3), 120, np.int16)
    for k in range(cubes):
        for edge in (3 + k * pitch_mm, 3 + k * pitch_mm + CUBE_MM):
            strip[round(edge * scale)] += seam
    return np.clip(strip, 0, 255).astype(np.uint8)


@pytest.mark.parametrize(("pitch_mm", "seam"), [(8.0, -60), (9.3, 40), (10.6, -25)])
def test_the_seams_pitch_is_measured_whatever_the_gap_and_whether_seams_are_dark(
        pitch_mm: float, seam: int) -> None:
    strip = _strip(pitch_mm, 12, 1.3, seam)
    found = seams.pitch(seams.edges(strip, 1.3), 1.3, CUBE_MM)
    assert found == pytest.approx(pitch_mm, abs=0.15)


def test_a_run_too_short_to_repeat_has_no_pitch() -> None:
    assert seams.pitch(np.zeros(3, np.float32), 1.3, CUBE_MM) is None


def test_a_run_repeating_beyond_any_pitch_of_cubes_has_none() -> None:
    """Strongest at the band's edge is no pitch of cubes, only what lies beyond it (a
    speck of glare on a run whose seams do not show): the row is counted by the fitted
    length a cube instead of by a pitch it does not have."""
    at_mm = np.arange(130) / 1.3
    glare = 40.0 * np.exp(-0.5 * ((at_mm - 50.0) / 2.5) ** 2)
    assert seams.pitch(glare.astype(np.float32), 1.3, CUBE_MM) is None


def test_the_stored_row_model_counts_long_runs_by_their_seams() -> None:
    """Fifteen cubes laid tight are 120 mm: in fitted lengths a cube (gaps included)
    fewer than fifteen; by their seams' pitch, fifteen."""
    model = RowModel.load()
    assert model.pitch_weight > 0 and model.measures(120.0)
    assert model.count([120.0], [8.0])[0] == 15
    assert model.count([120.0])[0] < 15


def test_a_run_repeating_at_no_pitch_of_cubes_in_a_row_is_counted_by_its_length() -> None:
    """Cubes a run holds with no gap showing lie a side apart or a little more; a run whose
    seams repeat most strongly well beyond (a hard lamp's shadows and lit edges) or well
    within that (smaller than a cube) is counted by the fitted length a cube, as if its
    pitch had not been measured. Within the fitted pitches the pitch weighs as before."""
    model = RowModel.load()
    assert 0 < model.pitch_least_mm <= CUBE_MM < model.pitch_most_mm
    run = 14 * model.per_cube_mm - model.offset_mm       # 14 cubes by their length
    assert model.measures(run) and model.count([run])[0] == 14
    for stray in (model.pitch_most_mm + 0.25, model.pitch_least_mm - 0.25):
        assert model.count([run], [stray])[0] == 14
    within = model.pitch_most_mm - 0.05
    assert model.count([run], [within])[0] < 14


def test_a_hard_lamps_shadows_repeating_along_a_court_row_do_not_lose_its_cubes() -> None:
    """Per-frame tuning table 23059 (hard light): the south court's red row of fourteen
    cubes repeated most strongly at 11.8 mm, its green row of ten at 11.1 mm, and the
    pitch made them twelve and nine; their lengths said fourteen and ten."""
    table, reader, frame = bench_table(23059, hard=True)
    courts = reader.read(frame).to_json()["courts"]["south"]
    truth = scenes.truth(LAYOUT, table)["courts"]["south"]
    assert (courts["red"], courts["green"]) == (truth["red"], truth["green"]) == (14, 10)


def _row(seat: str, colour: str, n: int, gap_mm: float) -> list[Piece]:
    """`n` cubes on `seat`'s court row of `colour`, from the card's edge, `gap_mm` apart
    and square to the row, as a tidy player lays them."""
    zone = next(z for z in LAYOUT.of_kind("court") if z.seat == seat)
    (x0, y0), (x1, y1) = zone.raw["rows_mm"][colour]
    d = np.array([x1 - x0, y1 - y0], float)
    d /= np.linalg.norm(d)
    angle = float(np.degrees(np.arctan2(d[1], d[0])))
    start = scenes.row_start_mm(zone) + CUBE_MM / 2
    return [Piece("cube", colour, *(np.array([x0, y0]) + d * (start + k * (CUBE_MM + gap_mm))),
                  angle) for k in range(n)]


@pytest.mark.parametrize("hard", [False, True])
def test_long_rows_laid_tight_or_with_small_gaps_are_counted_cube_for_cube(hard: bool) -> None:
    """Fifteen cubes pushed together, fourteen a millimetre apart, thirteen with gaps of
    a millimetre and a half: each row's length in a fitted length a cube (what the
    reader counted by before) is a cube or two off; in its own seams', it is not."""
    table = scenes.random_scene(LAYOUT, np.random.default_rng(8181), hard=hard,
                                variety="wide")
    table.hands = []
    reader = reader_for(LAYOUT, calibration_for(table, 71, 72, hard))
    rows = {"red": (15, 0.0), "blue": (14, 1.0), "green": (13, 1.5)}
    pieces = [p for colour, (n, gap) in rows.items() for p in _row("south", colour, n, gap)]
    snap = reader.read(scenes.render(LAYOUT, scenes.with_changes(table, pieces), 73))
    assert snap.reader == "reference"
    counts = {colour: snap.to_json()["courts"]["south"][colour] for colour in rows}
    assert counts == {colour: n for colour, (n, _) in rows.items()}
