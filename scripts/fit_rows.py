"""Fit how long a court row's colour is for n cubes, read against the bare table.

    .venv/bin/python scripts/fit_rows.py            # writes vision/fitted/rows.json

Labelled data from two renderers of different kinds, tuning seeds only (the benchmarks
report on seeds 900000 and up):

- our own (`vision.render`): tables of the widest variety, seeds `FIRST_SEED` on, mild
  and hard light alternately, court rows laid as people lay them (gaps, a wider gap after
  every fifth cube, crooked, starting on the card's edge), rendered here;
- a path tracer (Blender's Cycles, `benchmarks/cycles_bench.py`): the same placement
  under light and on materials nobody drew by hand. Its rows are kept as data
  (`CYCLES_ROWS`, written by `scripts/cycles_rows.py` from the cached frames), since
  rendering them takes an hour and Blender is no part of the product.

Each frame is read by a reader calibrated on its own calibration frame (so against its
bare table); every court row gives its colour's share across the row at each sample
along it, and the true count. The model (`vision.reference.RowModel`) counts each run of
the colour on its own: run length + offset over a length a cube.

Each run also carries its seams' pitch (`vision.seams`, measured on the row's strip of
the atlas as the reader measures it): how much that pitch weighs in a long run's length
a cube, and from how many cubes on, are searched too (`PITCH_WEIGHTS`, `MEASURED_FROM`;
weight 0 is the model without it), and at which pitches it is weighed at all
(`PITCH_LEAST_MM`, `PITCH_MOST_MM`): under a hard lamp a run's strongest repetition may
be its cubes' shadows and lit edges, at a pitch no row of touching cubes has.

The share that makes a sample the colour, the length a cube and the offset are searched
on a grid; kept is the point that counts the most rows exactly, each renderer's rows
weighing the same whatever their number, so the numbers fit both kinds of picture and
neither alone. A run n samples long is weighed as n ± half a sample (`SHIFTS_MM`): a
flip from n to n + 1 cubes on a whole length would be decided by rounding, and one
frame's sample more or less would flip a row that holds still.

The row's whole extent less fitted lengths for its wide gaps and the camera's lean (the
model before) counted our rows well and the path tracer's worse than the extent alone:
both terms described our renderer.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from referee.table.snapshot import DOUBTFUL  # noqa: E402
from scripts.fitting import fit_command, labelled_frames  # noqa: E402
from scripts.labelled import VARIETY, calibrated_table  # noqa: E402
from vision import seams  # noqa: E402
from vision.layout import load_layout  # noqa: E402
from vision.reader import Reader  # noqa: E402
from vision.reference import ROWS_FITTED, RowModel  # noqa: E402
from vision.render import scene as scenes  # noqa: E402

FIRST_SEED = 32000
CHECK_FRAMES = 2
#: Shares (of a row's width) tried for a sample to be the row's colour.
SHARES = (0.2, 0.3, 0.4, 0.5)
#: Lengths a cube (mm) and offsets (mm) tried.
PER_CUBE_MM = tuple(round(8.6 + 0.1 * k, 1) for k in range(17))
OFFSET_MM = tuple(-2.0 + 0.25 * k for k in range(25))
#: Weights of a run's seams' pitch in its length a cube, and the runs (in cubes by the
#: fitted length) from which it is measured, tried (`RowModel.pitch_weight`,
#: `RowModel.measured_from`); weight 0 is the model without the pitch.
PITCH_WEIGHTS = (0.0, 0.25, 0.5, 0.75, 1.0)
MEASURED_FROM = (3.0, 5.0, 8.0)
#: The least and the most pitch (mm) a run's seams are weighed at, tried
#: (`RowModel.pitch_least_mm`, `RowModel.pitch_most_mm`): from a little less than a
#: cube's side (cubes of a set differ) to a side and a half, which `vision.seams`
#: already looks within (7 to 12 mm: the first pair is no bound).
PITCH_LEAST_MM = (7.0, 7.25, 7.5, 7.75, 8.0)
PITCH_MOST_MM = (12.0, 11.5, 11.0, 10.5, 10.0, 9.5)
COMMAND = "scripts/fit_rows.py"
#: Court rows of the path-traced tuning frames (`scripts/cycles_rows.py` writes it).
CYCLES_ROWS = ROOT / "scripts" / "data" / "cycles-court-rows.json"

#: One run of a row's colour: its length (mm) and its seams' pitch (mm; None where too
#: short to measure).
Run = tuple[float, float | None]


class Row(NamedTuple):
    """One court row as the reader saw it, and its truth."""

    runs: tuple[tuple[Run, ...], ...]       # its runs at each of `SHARES`
    cubes: int                              # the true count


def row_runs(share: np.ndarray, strip: np.ndarray, scale: float, side_mm: float
             ) -> tuple[tuple[Run, ...], ...]:
    """A row's runs at each share tried, with their pitches (`vision.seams`) measured
    on the row's `strip` of the atlas as the reader measures them."""
    change = seams.edges(strip, scale)
    return tuple(tuple(((b - a) / scale, seams.pitch(change[a:b], scale, side_mm))
                       for a, b in RowModel(1.0, 0.0, s).spans(share, scale))
                 for s in SHARES)


def rows_read(reader: Reader, frame: np.ndarray, courts: dict[str, dict[str, int]]
              ) -> list[Row]:
    """Every court row of `frame` (courts of seats in `courts`, the truth), as read."""
    reader.debug = []
    reader.read(frame)
    rows = [entry for entry in reader.debug if entry[0] == "row" and len(entry) == 8]
    reader.debug = None
    side = reader.layout.pieces_mm["cube"]
    return [Row(row_runs(share, strip, reader.scale, side), int(courts[seat][colour]))
            for _, seat, colour, _, _, _, share, strip in rows if seat in courts]


def rows_of(seed: int, hard: bool) -> list[Row]:
    """The court rows of one labelled frame of our renderer."""
    layout = load_layout(None)
    table, reader = calibrated_table(layout, seed, hard)
    frame = scenes.render(layout, table, seed)
    return rows_read(reader, frame, scenes.truth(layout, table)["courts"])


def cycles_rows(path: Path = CYCLES_ROWS) -> list[Row]:
    """The path-traced tuning rows kept as data."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if [float(s) for s in data["shares"]] != list(SHARES) or "pitch" not in data["fields"][0]:
        raise SystemExit(f"{path}: kept at shares {data['shares']} without the pitch "
                         f"({data['fields'][0]}), not as fitted now; run "
                         "scripts/cycles_rows.py again")
    return [Row(tuple(tuple((float(mm), None if p is None else float(p)) for mm, p in runs)
                      for runs in r[0]), int(r[1]))
            for r in data["rows"]]


def _pitches(runs: Sequence[Run]) -> list[float | None]:
    return [p for _, p in runs]


def _lengths(runs: Sequence[Run]) -> list[float]:
    return [mm for mm, _ in runs]


def counted(model: RowModel, rows: Sequence[Row]) -> int:
    """Rows the model counts exactly."""
    k = SHARES.index(model.share)
    return sum(model.count(_lengths(r.runs[k]), _pitches(r.runs[k]))[0] == r.cubes
               for r in rows)


#: A run measured n samples long is n ± half a sample: the search weighs each row at
#: these shifts of all its runs (mm), so a model whose flip from n to n + 1 cubes falls
#: on a whole length scores only half for the rows there, which one sample more or less
#: would flip.
SHIFTS_MM = (-0.25, 0.25)


class Flat(NamedTuple):
    """One kind's rows at one share, flattened for the search: every run's length,
    pitch (NaN: not measured) and row, and each row's truth."""

    mm: np.ndarray
    pitch: np.ndarray
    row: np.ndarray
    cubes: np.ndarray


def flat(rows: Sequence[Row], k: int) -> Flat:
    runs = [(mm, np.nan if p is None else p, i)
            for i, r in enumerate(rows) for mm, p in r.runs[k]]
    table = np.asarray(runs, np.float64).reshape(-1, 3)
    return Flat(table[:, 0], table[:, 1], table[:, 2].astype(np.intp),
                np.asarray([r.cubes for r in rows], np.intp))


def weighed(model: RowModel, rows: Flat) -> float:
    """The share of rows counted exactly, on average over `SHIFTS_MM` (`RowModel.count`'s
    estimates, for all runs at once)."""
    right = 0
    for shift in SHIFTS_MM:
        each = np.maximum(1, np.floor(model.estimates(rows.mm + shift, rows.pitch) + 0.5))
        total = np.bincount(rows.row, each, minlength=len(rows.cubes))
        right += int((np.rint(total).astype(np.intp) == rows.cubes).sum())
    return right / len(SHIFTS_MM) / len(rows.cubes)


#: Runs of at least this many cubes give the spread of a run's estimate: there the length
#: a cube decides the count, not what the camera adds at a run's ends (the margin of
#: `vision.reader` doubts short runs by those).
LONG_RUN = 5


def spread(model: RowModel, kinds: Sequence[Sequence[Row]]) -> float:
    """The root mean square of a long run's error over its estimate, on the rows that
    are one run (whose truth is that run's), each renderer weighing the same."""
    k = SHARES.index(model.share)
    squares = []
    for rows in kinds:
        errors = [(x - r.cubes) / x for r in rows if r.cubes >= LONG_RUN
                  for each in [model.count(_lengths(r.runs[k]), _pitches(r.runs[k]))[1]]
                  if len(each) == 1 for _, x in each]
        if errors:
            squares.append(float(np.mean(np.square(errors))))
    return round(float(np.sqrt(np.mean(squares))), 4) if squares else 0.0


def doubted(model: RowModel, rows: Sequence[Row]) -> str:
    """How many rows counted wrong, and right, the reader would doubt (some run of the row
    below `DOUBTFUL`: `RowModel.confidence`)."""
    k = SHARES.index(model.share)
    wrong = right = wrong_doubted = right_doubted = 0
    for r in rows:
        n, each = model.count(_lengths(r.runs[k]), _pitches(r.runs[k]))
        sure = min((model.confidence(c, x) for c, x in each), default=1.0)
        if n == r.cubes:
            right, right_doubted = right + 1, right_doubted + (sure < DOUBTFUL)
        else:
            wrong, wrong_doubted = wrong + 1, wrong_doubted + (sure < DOUBTFUL)
    return (f"wrong {wrong_doubted} of {wrong}, right {right_doubted} of {right} "
            f"({sum(r.cubes > 0 for r in rows)} rows hold cubes)")


def _search(kinds: Sequence[Sequence[Row]]) -> RowModel:
    """The model that counts the most rows: the length a cube, its offset and the share
    searched with the pitch weighed at any pitch `vision.seams` finds, then the pitches
    it is weighed at with how much and from how long a run (the rest kept), and the
    lengths again with those, until neither search changes the model (a few rounds)."""
    model = _lengths_search(kinds, None)
    for _ in range(4):
        banded = _band_search(kinds, model)
        again = _lengths_search(kinds, banded)
        if again == model:
            break
        model = again
    return model


def _lengths_search(kinds: Sequence[Sequence[Row]], band: RowModel | None) -> RowModel:
    """The best share, length a cube and offset, with the pitch's weight, start and
    band from `band` (None: weight and start searched too, no band)."""
    best: tuple[float, RowModel] | None = None
    for k, share in enumerate(SHARES):
        flats = [flat(rows, k) for rows in kinds]
        for per_cube in PER_CUBE_MM:
            for offset in OFFSET_MM:
                for weight, start, least, most in _pitch_uses(band):
                    model = RowModel(per_cube_mm=per_cube, offset_mm=offset, share=share,
                                     pitch_weight=weight, measured_from=start,
                                     pitch_least_mm=least, pitch_most_mm=most)
                    score = sum(weighed(model, rows) for rows in flats)
                    if best is None or score > best[0]:
                        best = (score, model)
    assert best is not None
    return best[1]


def _pitch_uses(band: RowModel | None) -> list[tuple[float, float, float, float]]:
    if band is not None:
        return [(band.pitch_weight, band.measured_from, band.pitch_least_mm,
                 band.pitch_most_mm)]
    return [(weight, start if weight > 0 else 0.0, 0.0, 0.0) for weight in PITCH_WEIGHTS
            for start in (MEASURED_FROM if weight > 0 else MEASURED_FROM[:1])]


def _band_search(kinds: Sequence[Sequence[Row]], model: RowModel) -> RowModel:
    """`model` with the best pitch weight, start and band (its lengths and share kept).
    Ties keep what was tried first: no pitch at all, a lighter weight, a wider band."""
    flats = [flat(rows, SHARES.index(model.share)) for rows in kinds]
    unweighed = dataclasses.replace(model, pitch_weight=0.0, measured_from=0.0,
                                    pitch_least_mm=0.0, pitch_most_mm=0.0)
    best: tuple[float, RowModel] = (sum(weighed(unweighed, rows) for rows in flats), unweighed)
    for weight in PITCH_WEIGHTS[1:]:
        for start in MEASURED_FROM:
            for least in PITCH_LEAST_MM:
                for most in PITCH_MOST_MM:
                    tried = dataclasses.replace(model, pitch_weight=weight,
                                                measured_from=start, pitch_least_mm=least,
                                                pitch_most_mm=most)
                    score = sum(weighed(tried, rows) for rows in flats)
                    if score > best[0]:
                        best = (score, tried)
    return best[1]


def fit(frames: int, first_seed: int = FIRST_SEED) -> dict[str, Any]:
    ours: list[Row] = []
    for seed, hard in labelled_frames(frames, first_seed):
        ours += rows_of(seed, hard)
    traced = cycles_rows()
    model = _search([ours, traced])
    model = dataclasses.replace(model, spread=spread(model, [ours, traced]))
    stored = json.loads(CYCLES_ROWS.read_text(encoding="utf-8"))
    return {
        "command": f".venv/bin/python {COMMAND} --frames {frames} --first-seed {first_seed}",
        "data": {"renderer": "vision.render", "variety": VARIETY, "frames": frames,
                 "seeds": [first_seed, first_seed + 10 * (frames - 1)], "rows": len(ours),
                 "light": "mild and hard alternately",
                 "cycles": {"file": str(CYCLES_ROWS.relative_to(ROOT)),
                            "seeds": stored["seeds"], "rows": len(traced)}},
        "model": dataclasses.asdict(model),
        "report": {
            "rows_exact": {"vision.render": f"{counted(model, ours)} of {len(ours)}",
                           "cycles": f"{counted(model, traced)} of {len(traced)}"},
            "rows_doubted": {"vision.render": doubted(model, ours),
                             "cycles": doubted(model, traced)},
            "fitted_on_one_counted_on_the_other": {
                "vision.render -> cycles":
                    f"{counted(_search([ours]), traced)} of {len(traced)}",
                "cycles -> vision.render":
                    f"{counted(_search([traced]), ours)} of {len(ours)}"},
        },
    }


def main(argv: list[str] | None = None) -> int:
    return fit_command("fit_rows", __doc__ or "", fit, out=ROWS_FITTED, frames=24,
                       first_seed=FIRST_SEED, check_frames=CHECK_FRAMES, argv=argv,
                       show=("model", "report"))


if __name__ == "__main__":
    raise SystemExit(main())
