"""Keep the cube blobs of the path-traced tuning frames as labelled data for `fit_lit`.

    .venv/bin/python scripts/cycles_lit.py --seeds 1-13
    # writes scripts/data/cycles-lit.json

The frames are Blender Cycles renders of our tables (`benchmarks/cycles_bench.py`, kept in
its cache): hours of rendering that neither the product nor the test suite can redo, so
what the reader measured of each blob (how bright and colourful its top is over its
colour, `vision.lit`)
and how many true cubes it holds are kept instead, with the command that made it. Each
scene is calibrated on its calibration frame, then its play frame is read. Only tuning
seeds (below 10000) may be used; the held-out ones are for reporting.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
for where in (ROOT, ROOT / "benchmarks"):
    if str(where) not in sys.path:
        sys.path.insert(0, str(where))

from cycles_bench import (  # noqa: E402
    CACHE,
    LIGHTS,
    SAMPLES,
    _load,
    frame_path,
    parse_seeds,
    scene_specs,
    seed_split,
)

from scripts.fit_lit import CYCLES_LIT, blobs_lit  # noqa: E402
from vision.calibration import calibrate, reader_for  # noqa: E402
from vision.layout import load_layout  # noqa: E402
from vision.render import scene as sc  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", nargs="+", default=["1-13"], help="tuning seeds or ranges")
    ap.add_argument("--cache", type=Path, default=CACHE)
    ap.add_argument("--out", type=Path, default=CYCLES_LIT)
    args = ap.parse_args(argv)
    seeds = parse_seeds(args.seeds)
    if any(seed_split(s) != "tuning" for s in seeds):
        ap.error("only tuning seeds (below 10000) may be fitted on")
    layout = load_layout()
    blobs: list[list[object]] = []
    used: list[str] = []
    for seed in seeds:
        for light in LIGHTS:
            specs = scene_specs(layout, seed, light, 1, SAMPLES, args.cache)
            missing = [frame_path(s, args.cache) for s in specs
                       if not frame_path(s, args.cache).exists()]
            if missing:
                print(f"cycles_lit: seed {seed} {light} not rendered ({missing[0]}); "
                      "skipped", file=sys.stderr)
                continue
            reader = reader_for(layout, calibrate(_load(frame_path(specs[0], args.cache)),
                                                  layout))
            # The play frame's pieces, as `cycles_bench.scene_specs` placed them.
            pieces = sc.random_scene(layout, np.random.default_rng(seed),
                                     variety="wide").pieces
            found = blobs_lit(reader, _load(frame_path(specs[1], args.cache)), pieces)
            blobs += [list(b) for b in found]
            used.append(f"{seed} {light}")
            print(f"  seed {seed} {light}: {len(found)} blobs", file=sys.stderr)
    if not blobs:
        print("cycles_lit: no rendered frame found; render them with "
              "benchmarks/cycles_bench.py --render-only first", file=sys.stderr)
        return 2
    command = " ".join([".venv/bin/python scripts/cycles_lit.py --seeds", *args.seeds])
    text = json.dumps({"command": command, "renderer": "Blender Cycles "
                       "(benchmarks/cycles/scene.py)", "seeds": used,
                       "fields": ["lit", "colour_shown", "true_cubes", "colour"], "blobs": blobs},
                      separators=(",", ":"))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text + "\n", encoding="utf-8")
    print(f"cycles_lit: {len(blobs)} blobs from {len(used)} frames -> {args.out}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
