"""What the scripts that keep path-traced measurements as data share: the command line
(tuning seeds only, the frame cache, the output file), each cached tuning scene read as
`carolus vision calibrate` then `read` would, and the file written with the command that
made it.

The frames are Blender Cycles renders of our tables (`benchmarks/cycles_bench.py`, kept in
its cache): hours of rendering that neither the product nor the test suite can redo, so
what the reader measured on them is kept instead. Only tuning seeds (below 10000) may be
used; the held-out ones are for reporting.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

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

from vision.calibration import calibrate, reader_for  # noqa: E402
from vision.layout import load_layout  # noqa: E402
from vision.reader import Reader  # noqa: E402
from vision.render import scene as sc  # noqa: E402
from vision.render.pieces import Piece  # noqa: E402


def play_pieces(spec: dict[str, Any]) -> list[Piece]:
    """The pieces of a scene's play frame, as `cycles_bench.scene_specs` placed them (the
    truth a measurement is labelled with)."""
    return sc.random_scene(load_layout(), np.random.default_rng(spec["seed"]),
                           variety="wide").pieces


#: One scene's measurements: the calibrated reader, the play frame and its spec (the
#: truth, the pieces' seed) -> the items kept.
Measure = Callable[[Reader, np.ndarray, dict[str, Any]], Sequence[Sequence[object]]]


def keep(name: str, doc: str, measure: Measure, *, out: Path, default_seeds: str,
         key: str, fields: Sequence[str], extra: dict[str, object] | None = None,
         argv: list[str] | None = None) -> int:
    """Parse `argv`, measure every cached tuning scene of both lights, write the items to
    ``--out`` as {"command", "renderer", "seeds", "fields", **extra, key: items}; exit
    status 2 with a sentence when no frame is cached."""
    ap = argparse.ArgumentParser(prog=name, description=doc.split("\n\n")[0])
    ap.add_argument("--seeds", nargs="+", default=[default_seeds],
                    help="tuning seeds or ranges")
    ap.add_argument("--cache", type=Path, default=CACHE)
    ap.add_argument("--out", type=Path, default=out)
    args = ap.parse_args(argv)
    seeds = parse_seeds(args.seeds)
    if any(seed_split(s) != "tuning" for s in seeds):
        ap.error("only tuning seeds (below 10000) may be fitted on")
    layout = load_layout()
    items: list[list[object]] = []
    used: list[str] = []
    for seed in seeds:
        for light in LIGHTS:
            specs = scene_specs(layout, seed, light, 1, SAMPLES, args.cache)
            missing = [frame_path(s, args.cache) for s in specs
                       if not frame_path(s, args.cache).exists()]
            if missing:
                print(f"{name}: seed {seed} {light} not rendered ({missing[0]}); skipped",
                      file=sys.stderr)
                continue
            reader = reader_for(layout, calibrate(_load(frame_path(specs[0], args.cache)),
                                                  layout))
            found = measure(reader, _load(frame_path(specs[1], args.cache)), specs[1])
            items += [list(item) for item in found]
            used.append(f"{seed} {light}")
            print(f"  seed {seed} {light}: {len(found)}", file=sys.stderr)
    if not items:
        print(f"{name}: no rendered frame found; render them with "
              "benchmarks/cycles_bench.py --render-only first", file=sys.stderr)
        return 2
    command = " ".join([f".venv/bin/python scripts/{name}.py --seeds", *args.seeds])
    text = json.dumps({"command": command, "renderer": "Blender Cycles "
                       "(benchmarks/cycles/scene.py)", "seeds": used, "fields": list(fields),
                       **(extra or {}), key: items}, separators=(",", ":"))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text + "\n", encoding="utf-8")
    print(f"{name}: {len(items)} from {len(used)} frames -> {args.out}", file=sys.stderr)
    return 0
