"""Fit which castles a colourless blob holds, read against the bare table.

    .venv/bin/python scripts/fit_castles.py        # writes vision/fitted/castles.json

Why (see `vision.castle_count`): brightness bands set between the calibration's swatch
castles read a grey castle's lit top as white and a castle's long shadow as a black
castle under a low bulb; how a castle looks on a tile depends on the lamp in ways no
band set by hand foresees.

Labelled data from two renderers of different kinds, tuning seeds only (the benchmarks
report on seeds 900000 and up):

- our own (`vision.render`): the frames `fit_cubes` labels (tables of the widest
  variety, mild and hard light alternately), rendered here;
- a path tracer (Blender's Cycles): its castle blobs kept as data (`CYCLES_CASTLES`,
  written by `scripts/cycles_castles.py` from the cached frames; Blender is no part of
  the product).

Random tables seldom stand two castles side by side, as people build them on a tile
they hold; `PAIRS` territories of each of our frames are given such a pair.

Each frame is read by a reader calibrated on its own calibration frame; every
colourless blob the reader weighs on a territory is labelled with the true castles whose
middle it covers. Those blobs are the model. The report reads the last third of our
frames and the path tracer's last tuning seeds (`CYCLES_CHECK_FROM` on) by models
fitted without them.

How sure a reading is comes from the same blobs: each is read again by a model fitted
without its fold of frames (a path-traced scene's two lights kept together), and the
share read right, per label voted for and number of agreeing neighbours, is kept with
the model (`vision.vote_trust`).
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.fit_cubes import FIRST_SEED, Frame  # noqa: E402
from scripts.fitting import fit_command, labelled_frames  # noqa: E402
from scripts.labelled import VARIETY, calibrated_table, castles_in_blobs  # noqa: E402
from vision.castle_count import COLOURS, FEATURES, FITTED, CastleCount, label  # noqa: E402
from vision.layout import Layout, load_layout  # noqa: E402
from vision.reader import Reader  # noqa: E402
from vision.render import scene as scenes  # noqa: E402
from vision.render.pieces import Piece, varied  # noqa: E402

CYCLES_CASTLES = ROOT / "scripts" / "data" / "cycles-castles.json"
#: Path-traced tuning seeds from this one on are the report's check, fitted without.
CYCLES_CHECK_FROM = 10
CHECK_FRAMES = 2
COMMAND = "scripts/fit_castles.py"
#: Territories of each of our frames given two castles side by side.
PAIRS = 3
#: Each kept path-traced blob: its scene and zone, its true castles, what the swatches'
#: brightness bands read, then the features.
FIELDS = ["seed", "light", "zone", "castles", "bands", *FEATURES]


def with_pairs(layout: Layout, pieces: list[Piece], rng: np.random.Generator
               ) -> list[Piece]:
    """`PAIRS` territories (not the emperor's) cleared of castles and given two castles of
    any colours side by side, touching or a millimetre apart, turned any way."""
    emperor = [p for p in pieces if p.kind == "emperor"]
    free = [z for _, z in sorted(layout.territories().items())
            if not any(z.contains(p.x, p.y) for p in emperor)]
    zones = [free[int(i)] for i in rng.choice(len(free), size=min(PAIRS, len(free)),
                                              replace=False)]
    kept = [p for p in pieces
            if p.kind != "castle" or not any(z.contains(p.x, p.y) for z in zones)]
    side = layout.pieces_mm["castle"]
    for zone in zones:
        cx, cy = zone.raw.get("centre_mm", zone.centre())
        turn = float(rng.uniform(0, 90))
        c, s = np.cos(np.radians(turn)), np.sin(np.radians(turn))
        gap = side * float(rng.uniform(1.0, 1.1))
        for u in (-0.5 * gap, 0.5 * gap):
            colour = str(COLOURS[int(rng.integers(len(COLOURS)))])
            piece = Piece("castle", colour, float(cx) + c * u + 4.0, float(cy) + s * u + 4.0,
                          turn + float(rng.uniform(-5, 5)))
            kept.append(varied(piece, rng))
    return kept


def frame_of(seed: int, hard: bool) -> Frame:
    layout = load_layout(None)
    table, reader = calibrated_table(layout, seed, hard)
    table.pieces = with_pairs(layout, table.pieces, np.random.default_rng([seed, 11]))
    return Frame(table, scenes.render(layout, table, seed), reader)


Kept = tuple[str, str, list[float], str]


def castle_blobs(reader: Reader, frame: np.ndarray, pieces: list[Any]
                 ) -> tuple[list[Kept], int]:
    """(zone, true castles, features, what the swatches' brightness bands read) of every
    castle blob the reader weighs in `frame`, with no castle model loaded (what is
    measured must not depend on the model being made), and how many true castles lie
    in no blob."""
    model, reader.castle_model = reader.castle_model, None
    reader.collect_castles = []
    reader.steady.reset()
    banded: list[str] = []
    judge = reader._castles

    def bands(snap: Any, cell: Any, *rest: Any) -> None:
        # What the reader without a model adds for the blob it just collected.
        counted = snap["territories"][str(cell.zone.raw["territory"])]["castles"]
        before, seen = dict(counted), len(reader.collect_castles or [])
        judge(snap, cell, *rest)
        if len(reader.collect_castles or []) > seen:
            banded.append(label([c for c in COLOURS for _ in range(counted[c] - before[c])]))

    reader._castles = bands  # type: ignore[method-assign]
    try:
        reader.read(frame)
        words, lost = castles_in_blobs(reader, pieces)
        kept = [(zone, word, [round(float(v), 4) for v in features], old)
                for (zone, features, _, _), word, old in zip(reader.collect_castles, words,
                                                             banded, strict=True)]
    finally:
        del reader._castles
        reader.collect_castles = None
        reader.castle_model = model
    return kept, lost


@dataclasses.dataclass(frozen=True)
class Labelled:
    """Labelled castle blobs: features, true castles, what the bands read, their seeds."""

    samples: np.ndarray
    labels: list[str]
    bands: list[str]
    seeds: np.ndarray

    def part(self, keep: np.ndarray) -> Labelled:
        return Labelled(self.samples[keep], [w for w, k in zip(self.labels, keep, strict=True)
                                             if k],
                        [w for w, k in zip(self.bands, keep, strict=True) if k],
                        self.seeds[keep])

    def model(self, more: Labelled | None = None) -> CastleCount:
        if more is None:
            return CastleCount.fit(self.samples, self.labels)
        return CastleCount.fit(np.concatenate([self.samples, more.samples]),
                               self.labels + more.labels)

    def checked(self, model: CastleCount | None) -> dict[str, Any]:
        """How a model (None: the swatches' brightness bands) reads these blobs."""
        read = self.bands if model is None else [label(model.castles(f)[0])
                                                 for f in self.samples]
        pairs = list(zip(read, self.labels, strict=True))
        return {"blobs_right": f"{sum(r == t for r, t in pairs)} of {len(pairs)}",
                "phantoms": sum(bool(r) and not t for r, t in pairs),
                "missed": sum(bool(t) and not r for r, t in pairs)}


def path_traced(path: Path = CYCLES_CASTLES) -> tuple[Labelled, dict[str, Any]]:
    """The kept path-traced blobs and the file's own record; SystemExit with a sentence
    naming the file when they cannot be used."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data["fields"] != FIELDS:
            raise SystemExit(f"fit_castles: {path}: measured as {data['fields']}, this "
                             f"reader's castle model needs {FIELDS}; run "
                             "scripts/cycles_castles.py")
        rows = data["blobs"]
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        return (Labelled(np.array([row[5:] for row in rows], np.float32).reshape(
                    -1, len(FEATURES)), [str(row[3]) for row in rows],
                    [str(row[4]) for row in rows], np.array([row[0] for row in rows])),
                {"file": str(shown), "command": data["command"], "scenes": data["seeds"]})
    except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
        raise SystemExit(f"fit_castles: {path}: cannot be used ({exc}); run "
                         "scripts/cycles_castles.py") from exc


def _by_label(labels: list[str]) -> dict[str, int]:
    return {w or "none": labels.count(w) for w in sorted(set(labels))}


def fit(frames: int, first_seed: int = FIRST_SEED) -> dict[str, Any]:
    kept: list[Kept] = []
    starts = []
    unseen = 0
    for seed, hard in labelled_frames(frames, first_seed):
        item = frame_of(seed, hard)
        starts.append(len(kept))
        found, lost = castle_blobs(item.reader, item.frame, item.table.pieces)
        kept += found
        unseen += lost
    ours = Labelled(np.array([k[2] for k in kept], np.float32).reshape(-1, len(FEATURES)),
                    [k[1] for k in kept], [k[3] for k in kept],
                    np.repeat(np.arange(frames), np.diff([*starts, len(kept)])))
    traced, record = path_traced()
    report: dict[str, Any] = {"blobs": len(ours.labels), "castles_in_no_blob": unseen,
                              "by_label": _by_label(ours.labels)}
    if frames >= 3:
        later = ours.seeds >= frames - frames // 3
        held = ours.part(later)
        report["held_out"] = {
            "frames": f"last {frames // 3} of {frames}, model fitted on the others",
            "model": held.checked(ours.part(~later).model()), "bands": held.checked(None)}
    later = traced.seeds >= CYCLES_CHECK_FROM
    held = traced.part(later)
    report["path_traced"] = {
        "blobs": len(traced.labels), "by_label": _by_label(traced.labels),
        "held_out": {
            "seeds": f"{CYCLES_CHECK_FROM} on, mild and hard; fitted on ours and the others",
            "ours_alone": held.checked(ours.model()),
            "both": held.checked(ours.model(traced.part(~later))),
            "bands": held.checked(None)}}
    return {
        "command": f".venv/bin/python {COMMAND} --frames {frames} --first-seed {first_seed}",
        "data": {"renderer": "vision.render", "variety": VARIETY, "frames": frames,
                 "seeds": [first_seed, first_seed + 10 * (frames - 1)],
                 "light": "mild and hard alternately", "path_traced": record},
        "report": report,
        "model": CastleCount.fit(np.concatenate([ours.samples, traced.samples]),
                                 ours.labels + traced.labels,
                                 np.concatenate([ours.seeds, -traced.seeds])).to_json(),
    }


def main(argv: list[str] | None = None) -> int:
    return fit_command("fit_castles", __doc__ or "", fit, out=FITTED, frames=40,
                       first_seed=FIRST_SEED, check_frames=CHECK_FRAMES, argv=argv,
                       compact=True, show=("report",))


if __name__ == "__main__":
    raise SystemExit(main())
