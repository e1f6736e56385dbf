"""Vision benchmark: accuracy and speed of `vision.reader` on held-out rendered scenes.

Not a test: it renders fixed scene seeds that development never used (900000 and up;
the tests and tuning use seeds below 10000) and prints per-zone exact-count accuracy,
whole-frame accuracy, hand recall and false alarms, and milliseconds per frame on one
core at the Pi camera's resolutions.

    .venv/bin/python benchmarks/vision_bench.py            # full run, a few minutes
    .venv/bin/python benchmarks/vision_bench.py --quick    # smaller sets
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.calibration import calibrate, reader_for
from vision.layout import Layout, load_layout
from vision.markers import MatLocator
from vision.occlusion import MotionWatch
from vision.reader import Reader
from vision.render import scene as sc
from vision.render.score import zone_results

SEEDS = {"mild": 900_000, "hard": 910_000, "hands": 920_000, "resolution": 930_000}
RESOLUTIONS = [(2304, 1296, 1.30), (4608, 2592, 2.60), (2028, 1520, 1.55),
               (4056, 3040, 3.10)]


def _score(job: tuple[bool, int, bool, tuple[int, int, float]]) -> dict[str, bool]:
    """Zone results of one rendered frame (run in a worker process)."""
    hard, seed, calibrated, size = job
    cv2.setNumThreads(1)
    layout = load_layout()
    rng = np.random.default_rng(seed)
    scene = sc.random_scene(layout, rng, hard=hard, width=size[0], height=size[1],
                            px_per_mm=size[2])
    frame = sc.render(layout, scene, seed)
    if calibrated:
        cal_scene = sc.with_changes(scene, sc.calibration_scene(
            layout, np.random.default_rng(seed)).pieces)
        cal_scene.with_boards = False
        reader = reader_for(layout, calibrate(sc.render(layout, cal_scene, seed + 1), layout))
    else:
        reader = Reader(layout)
    return zone_results(reader.read(frame), sc.truth(layout, scene))


def accuracy(layout: Layout, hard: bool, n: int, seed0: int, calibrated: bool,
             size: tuple[int, int, float] = (2304, 1296, 1.3), jobs: int = 1
             ) -> dict[str, Any]:
    zones = zones_ok = frames_ok = 0
    wrong: dict[str, int] = {}
    work = [(hard, seed0 + i, calibrated, size) for i in range(n)]
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            results = pool.map(_score, work)
    else:
        results = [_score(job) for job in work]
    for result in results:
        zones += len(result)
        zones_ok += sum(result.values())
        frames_ok += all(result.values())
        for k, ok in result.items():
            if not ok:
                wrong[k.split()[0]] = wrong.get(k.split()[0], 0) + 1
    return {"frames": n, "zone_accuracy": zones_ok / zones, "frame_accuracy": frames_ok / n,
            "wrong_by_kind": wrong}


def hands(layout: Layout, n: int, seed0: int) -> dict[str, Any]:
    """Half the frames with a hand over the mat, half without, mild and hard light."""
    tp = fn = fp = tn = 0
    for i in range(n):
        rng = np.random.default_rng(seed0 + i)
        with_hand = i % 2 == 0
        scene = sc.random_scene(layout, rng, hard=i % 4 >= 2,
                                hand_probability=1.0 if with_hand else 0.0)
        truth = sc.truth(layout, scene)["occluded"]
        flagged = Reader(layout).read(sc.render(layout, scene, seed0 + i))["occluded"]
        tp += truth and flagged
        fn += truth and not flagged
        fp += (not truth) and flagged
        tn += (not truth) and not flagged
    return {"frames": n, "hand_frames": tp + fn, "recall": tp / max(1, tp + fn),
            "false_alarm": fp / max(1, fp + tn)}


def hard_timing(layout: Layout, seed0: int, repeats: int = 30) -> dict[str, float]:
    """Milliseconds per read at 2304x1296 in hard light: a frame with glare on the mat
    (undone pixel by pixel) and a dim one (castles sought in a smoothed copy)."""
    cv2.setNumThreads(1)
    found: dict[str, float] = {}
    for seed in range(seed0, seed0 + 200):
        scene = sc.random_scene(layout, np.random.default_rng(seed), hard=True)
        frame = sc.render(layout, scene, seed)
        reader = Reader(layout)
        reader.read(frame)
        kind = ("glare" if reader.glare.grid is not None
                else "dim" if reader.dim else None)
        if kind is None or f"{kind}_read_ms" in found:
            continue
        reads = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            reader.read(frame)
            reads.append((time.perf_counter() - t0) * 1000)
        found[f"{kind}_read_ms"] = statistics.median(reads)
        found[f"{kind}_read_min_ms"] = min(reads)
        if len(found) == 4:
            break
    return found


def timing(layout: Layout, size: tuple[int, int, float], seed: int, repeats: int = 30
           ) -> dict[str, float]:
    """Milliseconds on one core: steady-state read, the first read, the change check."""
    cv2.setNumThreads(1)
    scene = sc.random_scene(layout, np.random.default_rng(seed), width=size[0],
                            height=size[1], px_per_mm=size[2])
    frame = sc.render(layout, scene, seed)
    reader = Reader(layout)
    t0 = time.perf_counter()
    reader.read(frame)
    first = (time.perf_counter() - t0) * 1000
    reads, cpu = [], []
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.thread_time()
        reader.read(frame)
        reads.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.thread_time() - c0) * 1000)
    watch = MotionWatch()
    checks = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        watch.check_frame(frame)
        checks.append((time.perf_counter() - t0) * 1000)
    t0 = time.perf_counter()
    MatLocator(layout).detect(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    detect = (time.perf_counter() - t0) * 1000
    return {"read_ms": statistics.median(reads), "read_min_ms": min(reads),
            "read_cpu_ms": statistics.median(cpu), "first_read_ms": first,
            "marker_detect_ms": detect, "change_check_ms": statistics.median(checks)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sets")
    parser.add_argument("--frames", type=int, default=100, help="frames per light set")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--timing-only", action="store_true",
                        help="only the milliseconds per frame")
    parser.add_argument("--sets", default="mild,hard,hands,resolutions",
                        help="which parts to run (comma-separated), default all")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="processes rendering and reading the accuracy sets "
                             "(timing always runs alone, on one core)")
    args = parser.parse_args()
    if args.timing_only:
        layout = load_layout()
        for k, size in enumerate(RESOLUTIONS):
            print(f"{size[0]}x{size[1]}", json.dumps(timing(layout, size,
                                                            SEEDS["resolution"] + k)))
        print("2304x1296 hard light", json.dumps(hard_timing(layout, SEEDS["resolution"] + 50)))
        return 0
    layout = load_layout()
    n = 20 if args.quick else args.frames
    out: dict[str, Any] = {"machine": f"{platform.machine()} {platform.python_version()}",
                           "load_average": list(__import__("os").getloadavg())}
    sets = set(args.sets.split(","))
    for name, hard in (("mild", False), ("hard", True)):
        if name not in sets:
            continue
        out[name] = accuracy(layout, hard, n, SEEDS[name], False, jobs=args.jobs)
        out[name + "_calibrated"] = accuracy(layout, hard, n // 2, SEEDS[name] + 50_000,
                                             True, jobs=args.jobs)
        print(name, json.dumps(out[name]), file=sys.stderr)
        print(name + " calibrated", json.dumps(out[name + "_calibrated"]), file=sys.stderr)
    if "hands" in sets:
        out["hands"] = hands(layout, 2 * n // 2 if not args.quick else 20, SEEDS["hands"])
        print("hands", json.dumps(out["hands"]), file=sys.stderr)
    out["resolutions"] = {}
    for k, size in enumerate(RESOLUTIONS):
        if "resolutions" not in sets:
            break
        key = f"{size[0]}x{size[1]}"
        figures = timing(layout, size, SEEDS["resolution"] + k)
        figures.update(accuracy(layout, False, 5 if args.quick else max(5, n // 6),
                                SEEDS["resolution"] + 100 * (k + 1), False, size,
                                jobs=args.jobs))
        out["resolutions"][key] = figures
        print(key, json.dumps(figures), file=sys.stderr)
    if "resolutions" in sets:
        out["hard_light_timing"] = hard_timing(layout, SEEDS["resolution"] + 50)
        print("2304x1296 hard light", json.dumps(out["hard_light_timing"]), file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    print(report(out))
    return 0


def report(out: dict[str, Any]) -> str:
    lines = ["| set | frames | zones exactly right | frames all right | wrong zones by kind |",
             "|---|---|---|---|---|"]
    for key in ("mild", "mild_calibrated", "hard", "hard_calibrated"):
        if key not in out:
            continue
        r = out[key]
        lines.append(f"| {key.replace('_', ' + ')} | {r['frames']} | "
                     f"{100 * r['zone_accuracy']:.2f} % | {100 * r['frame_accuracy']:.1f} % | "
                     f"{r['wrong_by_kind'] or '-'} |")
    if "hands" in out:
        h = out["hands"]
        lines += ["", f"Hands: {h['hand_frames']} of {h['frames']} frames with a hand; "
                  f"recall {100 * h['recall']:.1f} %, false alarms {100 * h['false_alarm']:.1f} %."]
    lines += ["", "| frame size | read ms, 1 core (median / best) | first read incl. markers | "
              "marker search | change check | zones right (mild) | frames right (mild) |",
              "|---|---|---|---|---|---|---|"]
    for key, r in out["resolutions"].items():
        lines.append(f"| {key} | {r['read_ms']:.1f} / {r['read_min_ms']:.1f} | "
                     f"{r['first_read_ms']:.1f} | "
                     f"{r['marker_detect_ms']:.1f} | {r['change_check_ms']:.2f} | "
                     f"{100 * r['zone_accuracy']:.2f} % | {100 * r['frame_accuracy']:.1f} % |")
    if "hard_light_timing" in out:
        t = out["hard_light_timing"]
        lines += ["", "Hard light at 2304x1296 (median / best): " + ", ".join(
            f"{k} frame {t[k + '_read_ms']:.1f} / {t[k + '_read_min_ms']:.1f} ms"
            for k in ("glare", "dim") if k + "_read_ms" in t) + "."]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
