"""Fit how many cubes a blob of foreground holds, read against the bare table.

    .venv/bin/python scripts/fit_cubes.py            # writes vision/fitted/cubes.json

Labelled data: rendered tables of the widest variety (`vision.render`, seeds
`FIRST_SEED` on, tuning only — the benchmarks report on seeds 900000 and up), mild and
hard light alternately: tile art of every palette (the cube colours themselves among
them), pieces of varied size and shade, crowded tiles. Each frame is read by a reader
calibrated on its own calibration frame (so against its bare table); every single-
coloured blob the reader finds on a territory or a reserve is labelled with the number
of true cubes of its colour whose middle it covers. Those blobs are the model
(`vision.cube_count`). The report counts the blobs of the last third of the frames
exactly right by a model fitted on the first two thirds only.

The model also holds the blobs of a piece's colour of a path tracer's tuning frames
(Blender's Cycles, kept as data by `scripts/cycles_cubes.py`: Blender is no part of the
product): its shadows are lit by the room, not the lamp, and on a white reserve card a
small bluish one reads as a piece's colour, a kind of blob our renderer never draws. The
report checks the path tracer's last tuning seeds (`CYCLES_CHECK_FROM` on) by a model
fitted without them.

How much each feature weighs in the distance between blobs is searched for on the same
blobs (`vision.cube_count.fit_weights`: the fewest counted wrong by models fitted without
their fold of frames); the reports' weights are searched for on the first two thirds of
the frames only, so what they report was in no search.

How sure a count is comes from the same blobs: every one is counted again by a model
fitted without its fold of frames, and the share of those counts that were right, per
count voted for and number of agreeing neighbours, is kept with the model
(`vision.vote_trust`). The report says how many held-out wrong counts the referee would
still take as sure and how many right ones it would ask about.

Two bounds of the search for cubes dyed like their field come from the same frames'
territory pixels well away from every piece, where only light changed: `shade`, the
darkening light alone reaches in one pixel in a thousand (less a margin), where a patch
starts, and `stir`, the change either way it exceeds in one pixel in a hundred, which
a patch grows into.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from referee.table.snapshot import DOUBTFUL  # noqa: E402
from scripts.fitting import fit_command, labelled_frames  # noqa: E402
from scripts.labelled import VARIETY, calibrated_table, cubes_in_blobs  # noqa: E402
from vision import cube_count, vote_trust  # noqa: E402
from vision.cube_count import FEATURES, FITTED, CubeCount  # noqa: E402
from vision.layout import CUBE_COLOURS, Layout, load_layout  # noqa: E402
from vision.reader import Reader  # noqa: E402
from vision.render import scene as scenes  # noqa: E402
from vision.render.pieces import Piece, varied  # noqa: E402

CYCLES_CUBES = ROOT / "scripts" / "data" / "cycles-cubes.json"
_SHADE = FEATURES.index("shade")
#: Path-traced tuning seeds from this one on are the report's check, fitted without.
CYCLES_CHECK_FROM = 10
FIRST_SEED = 33000
CHECK_FRAMES = 1
CLUSTERS = 4
SHADE_QUANTILE = 0.001
SHADE_MARGIN = 0.97
#: Light alone changes all but this share of pixels less than `stir` (|log ratio|).
STIR_QUANTILE = 0.99
COMMAND = "scripts/fit_cubes.py"


def with_clusters(layout: Layout, pieces: list[Piece], rng: np.random.Generator
                  ) -> list[Piece]:
    """`CLUSTERS` territories cleared and given cubes pushed together as people push
    them on a crowded tile: 2 to 4 of one colour in a row, an L or a block, touching or
    a hair apart, turned any way. Random scenes seldom make them, and they are where a
    count by area goes wrong."""
    emperor = [p for p in pieces if p.kind == "emperor"]
    free = [z for n, z in sorted(layout.territories().items())
            if not any(z.contains(p.x, p.y) for p in emperor)]
    zones = [free[int(i)] for i in rng.choice(len(free), size=min(CLUSTERS, len(free)),
                                              replace=False)]
    kept = [p for p in pieces if not any(z.contains(p.x, p.y) for z in zones)]
    side = layout.pieces_mm["cube"]
    shapes = {2: [(0, 0), (1, 0)], 3: [(0, 0), (1, 0), (2, 0)], 4: [(0, 0), (1, 0), (0, 1),
                                                                   (1, 1)]}
    for zone in zones:
        n = int(rng.integers(2, 5))
        cells = shapes[n] if n != 3 or rng.random() < 0.5 else [(0, 0), (1, 0), (0, 1)]
        colour = str(rng.choice(CUBE_COLOURS))
        cx, cy = zone.raw.get("centre_mm", zone.centre())
        turn = float(rng.uniform(0, 90))
        c, s = np.cos(np.radians(turn)), np.sin(np.radians(turn))
        for i, j in cells:
            gap = side * float(rng.uniform(1.0, 1.12))
            u, v = (i - 0.5) * gap, (j - 0.5) * gap
            piece = Piece("cube", colour, float(cx) + c * u - s * v, float(cy) + s * u + c * v,
                          turn + float(rng.uniform(-6, 6)))
            kept.append(varied(piece, rng))
    return kept


@dataclasses.dataclass
class Frame:
    """One labelled frame: the table drawn, and a reader calibrated on its own light."""

    table: scenes.Scene
    frame: np.ndarray
    reader: Reader


def frame_of(seed: int, hard: bool) -> Frame:
    layout = load_layout(None)
    table, reader = calibrated_table(layout, seed, hard)
    table.pieces = with_clusters(layout, table.pieces, np.random.default_rng([seed, 7]))
    return Frame(table, scenes.render(layout, table, seed), reader)


def background_light(item: Frame) -> np.ndarray:
    """Brightness over the bare table's on territory pixels well away from every piece
    (and its shadow): how far light alone moves a pixel, sampled."""
    reader = item.reader
    reader.read(item.frame)                     # sets the pose
    atlas = reader.atlas.cut(item.frame)
    reader.balance(item.frame, atlas)
    comparison = reader._comparison
    assert comparison is not None
    _, ratio = comparison.features(atlas, comparison.gains(atlas))
    rows = ratio.shape[0]
    away = np.zeros(ratio.shape, np.uint8)
    cells = reader.atlas.of_kind("territory")
    for cell in cells:
        if cell.y >= rows:
            continue
        h = min(cell.h, rows - cell.y)
        away[cell.y:cell.y + h, cell.x:cell.x + cell.w][cell.mask[:h]] = 1
    reach = 2.0 * reader.layout.pieces_mm["castle"]
    for piece in item.table.pieces:
        for cell in cells:
            if cell.zone.contains(piece.x, piece.y):
                iy, ix = cell.px(np.array([piece.x]), np.array([piece.y]), reader.scale)
                cv2.circle(away, (int(ix[0]), int(iy[0])), int(reach * reader.scale), 0, -1)
    values = ratio[away.view(bool)]
    return values[:: max(1, len(values) // 20000)]


def blobs_of(item: Frame, shade: float, stir: float
             ) -> tuple[list[np.ndarray], list[int], list[tuple[str, str, int, int]]]:
    """Features and true cube counts of every blob the reader weighs in one frame, and
    how many true cubes lie in no blob at all (no model can count those)."""
    reader, table = item.reader, item.table
    reader.cubes = None
    reader.shade = shade
    reader.stir = stir
    reader.collect = []
    reader.steady.reset()
    reader.read(item.frame)
    counts, lost = cubes_in_blobs(reader, table.pieces)
    features = [feats for _, _, feats, box, _ in reader.collect if box is not None]
    return features, counts, lost


def gather(frames: int, first_seed: int
           ) -> tuple[np.ndarray, np.ndarray, list[int], int, float, float]:
    """All labelled blobs, where each frame's blobs begin, the cubes in no blob, the
    fitted shade (the `SHADE_QUANTILE` of light's own darkening, times `SHADE_MARGIN`)
    and stir (the `STIR_QUANTILE` of light's own change, either way)."""
    drawn = []
    light = []
    for seed, hard in labelled_frames(frames, first_seed):
        drawn.append(frame_of(seed, hard))
        light.append(background_light(drawn[-1]))
    light_alone = np.concatenate(light)
    shade = round(float(np.quantile(light_alone, SHADE_QUANTILE)) * SHADE_MARGIN, 4)
    stir = round(float(np.quantile(np.abs(np.log(np.maximum(light_alone, 1e-3))),
                                   STIR_QUANTILE)), 4)
    features: list[np.ndarray] = []
    counts: list[int] = []
    starts = []
    unseen = 0
    for item in drawn:
        starts.append(len(counts))
        f, c, lost = blobs_of(item, shade, stir)
        features += f
        counts += c
        unseen += len(lost)
    samples = np.array(features, np.float32).reshape(-1, len(FEATURES))
    return samples, np.array(counts, np.int64), starts, unseen, shade, stir


@dataclasses.dataclass(frozen=True)
class PathTraced:
    """The path tracer's labelled blobs (`scripts/cycles_cubes.py`)."""

    samples: np.ndarray
    counts: np.ndarray
    seeds: np.ndarray
    scenes: list[str]
    command: str


def path_traced(path: Path = CYCLES_CUBES) -> PathTraced:
    """The kept blobs; SystemExit with a sentence naming the file when they cannot be
    used (missing, broken, or measured with other features than this reader's)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        fields = data["fields"]
        expected = ["seed", "light", "zone", "colour", "true_cubes", *FEATURES]
        if fields != expected:
            raise SystemExit(f"fit_cubes: {path}: measured as {fields}, this reader's "
                             f"cube count needs {expected}; run scripts/cycles_cubes.py")
        # Only the blobs of a piece's colour: a patch found by its darkness alone is
        # found against bounds of light's own drift fitted on our renderer (`shade`,
        # `stir`), which the path tracer's light does not follow.
        rows = [row for row in data["blobs"] if not row[5 + _SHADE]]
        samples = np.array([row[5:] for row in rows], np.float32).reshape(-1, len(FEATURES))
        return PathTraced(samples, np.array([row[4] for row in rows], np.int64),
                          np.array([row[0] for row in rows], np.int64), list(data["seeds"]),
                          str(data["command"]))
    except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
        raise SystemExit(f"fit_cubes: {path}: cannot be used ({exc}); run "
                         "scripts/cycles_cubes.py") from exc


def _checked(model: CubeCount, samples: np.ndarray, truth: np.ndarray) -> dict[str, Any]:
    read = np.array([model.count(f)[0] for f in samples], np.int64)
    return {"blobs_exact": f"{int((read == truth).sum())} of {len(truth)}",
            "cubes_missed": int(np.clip(truth - read, 0, None).sum()),
            "cubes_extra": int(np.clip(read - truth, 0, None).sum())}


def _trusted(model: CubeCount, samples: np.ndarray, counts: np.ndarray, groups: np.ndarray
             ) -> dict[str, Any]:
    """What the trust table does on the held-out votes it was made from: wrong counts
    the referee would still take as sure, right ones it would ask about."""
    def vote(train: np.ndarray, test: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        part = CubeCount.fit(samples[train], counts[train], model.shade, model.stir,
                             weights=model.weights)
        votes = np.array([part.vote(f) for f in samples[test]], np.int64).reshape(-1, 2)
        return votes[:, 0], votes[:, 1]

    won, agreeing, right = vote_trust.held_out_votes(groups, counts, vote)
    assert model.trust is not None
    trust = model.trust
    sure = np.array([vote_trust.worth(trust, str(n), a)
                     for n, a in zip(won, agreeing, strict=True)]) >= DOUBTFUL
    return {"folds": f"{vote_trust.FOLDS} folds of frames, each counted by a model fitted "
                     "on the others",
            "tolerated": vote_trust.TOLERATED,
            "wrong_counts": int((~right).sum()),
            "wrong_taken_as_sure": int((~right & sure).sum()),
            "right_asked_about": f"{int((right & ~sure).sum())} of {int(right.sum())}"}


def fit(frames: int, first_seed: int = FIRST_SEED) -> dict[str, Any]:
    stored = cube_count.stored
    _without_stored_model()
    try:
        samples, counts, starts, unseen, shade, stir = gather(frames, first_seed)
    finally:
        cube_count.stored = stored  # type: ignore[method-assign]
    report: dict[str, Any] = {"blobs": len(counts), "cubes_in_no_blob": unseen,
                              "by_true_count": {str(k): int(v) for k, v in
                                                enumerate(np.bincount(counts)) if v}}
    ours = np.searchsorted(starts, np.arange(len(counts)), side="right")
    # The reports' weights are searched for on the frames they do not report on: the
    # first two thirds of ours (with fewer than three frames, all of them).
    cut = starts[frames - frames // 3] if frames >= 3 else len(counts)
    weights = cube_count.fit_weights(samples[:cut], counts[:cut], ours[:cut], _progress)
    if frames >= 3:
        held = CubeCount.fit(samples[:cut], counts[:cut], shade, stir, weights=weights)
        read = np.array([held.count(f)[0] for f in samples[cut:]])
        truth = counts[cut:]
        report["held_out"] = {
            "frames": f"last {frames // 3} of {frames}, model fitted on the others",
            "blobs_exact": f"{int((read == truth).sum())} of {len(truth)}",
            "cubes_missed": int(np.clip(truth - read, 0, None).sum()),
            "cubes_extra": int(np.clip(read - truth, 0, None).sum())}
    traced = path_traced()
    later = traced.seeds >= CYCLES_CHECK_FROM
    report["path_traced"] = {
        "blobs": len(traced.counts),
        "by_true_count": {str(k): int(v) for k, v in enumerate(np.bincount(traced.counts))
                          if v},
        "held_out": {
            "seeds": f"{CYCLES_CHECK_FROM} on, mild and hard; fitted on ours and the others",
            "ours_alone": _checked(CubeCount.fit(samples, counts, shade, stir,
                                                 weights=weights),
                                   traced.samples[later], traced.counts[later]),
            "both": _checked(CubeCount.fit(np.concatenate([samples, traced.samples[~later]]),
                                           np.concatenate([counts, traced.counts[~later]]),
                                           shade, stir, weights=weights),
                             traced.samples[later], traced.counts[later])}}
    # Each of our frames is a scene of its own; a path-traced scene's blobs in both its
    # lights are one (the same pieces would vouch for each other).
    groups = np.concatenate([ours, -traced.seeds])
    model = CubeCount.fit(np.concatenate([samples, traced.samples]),
                          np.concatenate([counts, traced.counts]), shade, stir, groups,
                          progress=_progress)
    report["trust"] = _trusted(model, np.concatenate([samples, traced.samples]),
                               np.concatenate([counts, traced.counts]), groups)
    return {
        "command": f".venv/bin/python {COMMAND} --frames {frames} --first-seed {first_seed}",
        "data": {"renderer": "vision.render", "variety": VARIETY, "frames": frames,
                 "seeds": [first_seed, first_seed + 10 * (frames - 1)],
                 "light": "mild and hard alternately",
                 "path_traced": {"file": str(CYCLES_CUBES.relative_to(ROOT)),
                                 "command": traced.command, "scenes": traced.scenes}},
        "report": {"shade": shade, "stir": stir, **report},
        "model": model.to_json(),
    }


def _progress(line: str) -> None:
    """The search for the features' weights takes minutes after the last frame is read."""
    print(f"  {line}", file=sys.stderr)


def _without_stored_model() -> None:
    """Readers here must not load the stored model: it is what is being made (and may
    have been fitted on other features)."""
    cube_count.stored = lambda: None  # type: ignore[assignment]


def main(argv: list[str] | None = None) -> int:
    return fit_command("fit_cubes", __doc__ or "", fit, out=FITTED, frames=30,
                       first_seed=FIRST_SEED, check_frames=CHECK_FRAMES, argv=argv, compact=True,
                       show=("report",))


if __name__ == "__main__":
    raise SystemExit(main())
