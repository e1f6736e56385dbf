"""Bit-identity check for speed work on `vision/` (issue 14): every snapshot the reader
gives on a fixed set of tuning frames, to compare one version of `vision/` with another.

Not a test and not a benchmark of accuracy: a change meant to make the reader faster must
leave every snapshot the same, and this reads the same frames, in the same order, with
the same readers, and writes each snapshot's JSON (with its confidences) one a line.

    .venv/bin/python benchmarks/vision_identity.py make             # render the frames once
    .venv/bin/python benchmarks/vision_identity.py read --out new.jsonl
    cd OLD && python /work/main/benchmarks/vision_identity.py read --root . --out old.jsonl
    cmp old.jsonl new.jsonl

The frames (kept under ``--cache``): the bench's sequence (seed 940000, wide, 12 states
and each state's next frame) and a tuning one (seed 7100); labelled tables of
`scripts.labelled` (seeds 5100-5105 mild, 5200-5205 hard, with their set-up frames);
drifted tables (seeds 5300-5303); and the Blender set's tuning seeds 1-13 (mild and hard,
calibration and play frame) where cached under /var/tmp/carolus-cycles/frames.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path
from typing import Any

CACHE = Path("/var/tmp/carolus-identity/frames.pkl")
CYCLES = Path("/var/tmp/carolus-cycles/frames")
HERE = Path(__file__).resolve().parent.parent


def make(cache: Path) -> None:
    sys.path.insert(0, str(HERE))
    import cv2
    import numpy as np

    from benchmarks import vision_bench as vb
    from scripts import labelled
    from vision.layout import load_layout
    from vision.render import scene as scenes
    from vision.render.table import TableRenderer

    layout = load_layout()
    out: dict[str, Any] = {"sequences": [], "tables": [], "drifted": [], "cycles": []}
    for seed in (940_000, 7100):
        renderer = TableRenderer(layout, seed=seed, width=2304, height=1296, px_per_mm=1.30,
                                 variety="wide")
        pairs = []
        for state in vb.game_states(12, seed):
            t = float(state.get("t") or 0.0)
            pairs.append([vb._decode(vb._jpeg(renderer.frame(state, seed=0, t=t + d)))
                          for d in (0.0, 0.2)])
        setup = vb._decode(vb._jpeg(renderer.calibration_frame(seed=0, t=0.0)))
        out["sequences"].append({"seed": seed, "setup": setup, "pairs": pairs})
        print("sequence", seed, file=sys.stderr)
    for seed, hard in [(s, False) for s in range(5100, 5106)] + [(s, True) for s in
                                                                  range(5200, 5206)]:
        table = scenes.random_scene(layout, np.random.default_rng(seed), hard=hard,
                                    variety="wide")
        table.hands = []
        import dataclasses
        calib_scene = scenes.calibration_scene(layout, np.random.default_rng(seed + 1),
                                               hard=hard, boards=True, variety="wide")
        calib_scene = dataclasses.replace(
            calib_scene, camera=table.camera, lighting=table.lighting, light=table.light,
            tile_seed=table.tile_seed)
        out["tables"].append({"seed": seed,
                              "setup": scenes.render(layout, calib_scene, seed + 2),
                              "frame": scenes.render(layout, table, seed)})
        print("table", seed, file=sys.stderr)
    for seed in range(5300, 5304):
        rng = np.random.default_rng(seed)
        scene = scenes.random_scene(layout, rng, hard=seed % 2 == 1, variety="wide",
                                    hand_probability=0.3)
        bare_scene = scenes.with_changes(scene, [])
        bare_scene.hands = []
        bare = scenes.render(layout, bare_scene, seed + 1)
        scene.lighting = labelled._drifted(scene.lighting, rng)
        out["drifted"].append({"seed": seed, "bare": bare,
                               "frame": scenes.render(layout, scene, seed)})
        print("drifted", seed, file=sys.stderr)
    for seed in range(1, 14):
        for light in ("mild", "hard"):
            cal = sorted(CYCLES.glob(f"{seed}-{light}-0-*.jpg"))
            plays = sorted(CYCLES.glob(f"{seed}-{light}-[1-9]-*.jpg"))
            if cal and plays:
                out["cycles"].append({"name": f"{seed}-{light}",
                                      "setup": cv2.imread(str(cal[0]), cv2.IMREAD_COLOR),
                                      "plays": [cv2.imread(str(p), cv2.IMREAD_COLOR)
                                                for p in plays]})
    cache.parent.mkdir(parents=True, exist_ok=True)
    with cache.open("wb") as f:
        pickle.dump(out, f, protocol=pickle.HIGHEST_PROTOCOL)
    print("frames kept in", cache, file=sys.stderr)


def read(cache: Path, root: Path, out_path: Path) -> None:
    sys.path.insert(0, str(root.resolve()))
    import cv2

    from vision.calibration import calibrate, reader_for
    from vision.layout import load_layout
    from vision.reader import Reader

    cv2.setNumThreads(1)
    with cache.open("rb") as f:
        data = pickle.load(f)
    layout = load_layout()
    lines: list[str] = []

    def note(tag: str, reader: Any, frame: Any) -> None:
        snap = reader.read(frame).to_json()
        lines.append(tag + " " + json.dumps(snap, sort_keys=True))

    for seq in data["sequences"]:
        readers = {"plain": Reader(layout),
                   "bare": reader_for(layout, calibrate(seq["setup"], layout))}
        for name, reader in readers.items():
            for i, (frame, twin) in enumerate(seq["pairs"]):
                tag = f"seq{seq['seed']}/{name}/{i}"
                note(tag + "/full", reader, frame)
                note(tag + "/twin", reader, twin)
                reader.steady.reset()
                note(tag + "/every", reader, twin)
            # the same frames in another order: other zones move between reads
            for i in (5, 0, 11, 3, 7):
                note(f"seq{seq['seed']}/{name}/jump{i}", reader, seq["pairs"][i][0])
    for t in data["tables"]:
        note(f"table{t['seed']}/plain", Reader(layout), t["frame"])
        reader = reader_for(layout, calibrate(t["setup"], layout))
        note(f"table{t['seed']}/bare", reader, t["frame"])
        note(f"table{t['seed']}/bare-setup", reader, t["setup"])
    for d in data["drifted"]:
        reader = Reader(layout)
        reader.use_bare(reader.learn_bare(d["bare"]))
        note(f"drifted{d['seed']}", reader, d["frame"])
    for c in data["cycles"]:
        reader = reader_for(layout, calibrate(c["setup"], layout))
        for k, play in enumerate(c["plays"]):
            note(f"cycles{c['name']}/{k}", reader, play)
            note(f"cycles{c['name']}/{k}/plain", Reader(layout), play)
    out_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(len(lines), "snapshots written to", out_path, file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("make", "read"))
    parser.add_argument("--cache", type=Path, default=CACHE)
    parser.add_argument("--root", type=Path, default=HERE,
                        help="the checkout whose `vision` reads (read)")
    parser.add_argument("--out", type=Path, help="where the snapshots go (read)")
    args = parser.parse_args()
    if args.what == "make":
        make(args.cache)
    else:
        if args.out is None:
            parser.error("read: --out")
        read(args.cache, args.root, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
