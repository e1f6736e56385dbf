"""Two versions of `vision/` timed against each other in one process, interleaved (issue 14).

The bench (`vision_bench.py`) times one version; on a shared host two runs of it, one
after the other, differ by more than a speed change of a few per cent. Here both
readers read the same frames in the same process, one right after the other, the order
of the versions reversed every other pass, each read next to `cv2.imdecode` of the same
frame's JPEG:

    nice .venv/bin/python benchmarks/vision_interleave.py --old /tmp/wt-base --new .

``--old`` and ``--new`` are checkouts: each one's ``vision/`` is copied to a temporary
package of its own name (``vision_old``, ``vision_new``; its imports of itself renamed),
so the two never share a module. The frames are the bench's sequence (`vision_bench`'s
`sequence_timing`: seed 940000, wide variety, 2304 x 1296, 12 table states and each
state's next frame 0.2 s later, the set-up frame for the reader against the bare table),
rendered once by ``--new``'s renderer and kept as JPEGs under ``--cache``.

Per frame and version, as the bench does: a full read (the table changed since the
last frame), the next frame (nothing changed), and the next frame again with nothing
kept (`Steady.reset`: every zone counted). Printed per reader (plain, against the bare
table) and read: the median over the frames of each frame's median over the passes and
of its fastest pass, in ms and as a multiple of that frame's decode, and the load
average before and after.

    nice .venv/bin/python benchmarks/vision_interleave.py --old /tmp/wt-base --stages

``--stages`` then also says where ``--new``'s full read against the bare table goes:
its main steps wrapped in timers (nested steps are inside their callers' figures), each
step's total over the sequence's full reads in its fastest pass, per read.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pickle
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent.parent
CACHE = Path("/var/tmp/carolus-interleave/sequence-940000.pkl")
#: The reads timed per frame, in the bench's order.
READS = ("full", "same", "every")
_SELF = re.compile(r"\b(from|import)\s+vision\b|files\(\"vision\"\)")


def renamed_copy(root: Path, name: str, into: Path) -> ModuleType:
    """`root`'s ``vision`` package, importable as `name` (its imports of itself renamed)."""
    target = into / name
    shutil.copytree(root / "vision", target,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for path in target.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        path.write_text(_SELF.sub(lambda m: m.group(0).replace("vision", name), text),
                        encoding="utf-8")
    if str(into) not in sys.path:
        sys.path.insert(0, str(into))
    return importlib.import_module(name)


def frames(cache: Path, count: int = 12) -> dict[str, Any]:
    """The bench's sequence as JPEGs (rendered once with this checkout's renderer)."""
    if cache.exists():
        with cache.open("rb") as f:
            kept: dict[str, Any] = pickle.load(f)
        return kept
    sys.path.insert(0, str(HERE))
    from benchmarks import vision_bench as vb
    from vision.layout import load_layout
    from vision.render.table import TableRenderer

    width, height, ppm = vb.RESOLUTIONS[0]
    renderer = TableRenderer(load_layout(), seed=vb.SEQUENCE_SEED, width=width,
                             height=height, px_per_mm=ppm, variety="wide")
    pairs = []
    for state in vb.game_states(count, vb.SEQUENCE_SEED):
        t = float(state.get("t") or 0.0)
        pairs.append([vb._jpeg(renderer.frame(state, seed=0, t=t + d)) for d in (0.0, 0.2)])
    data = {"pairs": pairs, "setup": vb._jpeg(renderer.calibration_frame(seed=0, t=0.0))}
    cache.parent.mkdir(parents=True, exist_ok=True)
    with cache.open("wb") as f:
        pickle.dump(data, f, protocol=pickle.HIGHEST_PROTOCOL)
    return data


def _decode(jpeg: bytes) -> np.ndarray:
    return np.asarray(cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR))


def readers(vision: ModuleType, setup: np.ndarray) -> dict[str, Any]:
    """A plain reader and one against the bare table, from one copy of `vision`."""
    name = vision.__name__
    calibration = importlib.import_module(name + ".calibration")
    layout = importlib.import_module(name + ".layout").load_layout()
    reader = importlib.import_module(name + ".reader")
    return {"plain": reader.Reader(layout),
            "bare": calibration.reader_for(layout, calibration.calibrate(setup, layout))}


def run(versions: dict[str, ModuleType], data: dict[str, Any], passes: int
        ) -> tuple[list[list[float]], dict[tuple[str, str, str], list[list[float]]]]:
    """Seconds per frame and pass: the decodes, and each (version, reader, read)."""
    jpegs = [pair[0] for pair in data["pairs"]]
    pairs = [(_decode(a), _decode(b)) for a, b in data["pairs"]]
    setup = _decode(data["setup"])
    every = {v: readers(vision, setup) for v, vision in versions.items()}
    for both in every.values():
        for reader in both.values():
            reader.read(pairs[-1][1])    # the marker search, once, as the appliance starts
    decode: list[list[float]] = [[] for _ in pairs]
    times: dict[tuple[str, str, str], list[list[float]]] = {
        (v, r, read): [[] for _ in pairs] for v in every for r in ("plain", "bare")
        for read in READS}
    order = list(every)
    for p in range(passes):
        for i, (jpeg, (frame, twin)) in enumerate(zip(jpegs, pairs, strict=True)):
            buf = np.frombuffer(jpeg, np.uint8)
            t0 = time.perf_counter()
            cv2.imdecode(buf, cv2.IMREAD_COLOR)
            decode[i].append(time.perf_counter() - t0)
            for v in (order if p % 2 == 0 else order[::-1]):
                for r, reader in every[v].items():
                    t1 = time.perf_counter()
                    reader.read(frame)
                    t2 = time.perf_counter()
                    reader.read(twin)
                    t3 = time.perf_counter()
                    reader.steady.reset()
                    t4 = time.perf_counter()
                    reader.read(twin)
                    t5 = time.perf_counter()
                    for read, dt in zip(READS, (t2 - t1, t3 - t2, t5 - t4), strict=True):
                        times[(v, r, read)][i].append(dt)
    return decode, times


#: The steps `stages` times: (module, class or None, function).
STAGES = [
    ("atlas", "Atlas", "cut"), ("reader", "Reader", "balance"),
    ("occlusion", "BorderWatch", "white_field"), ("glare", "GlareMap", "measure"),
    ("steady", "Steady", "changed"), ("occlusion", "BorderWatch", "covered"),
    ("colours", None, "table_index"), ("reference", "Comparison", "gains"),
    ("reference", "Comparison", "features"), ("reference", "Difference", "decide"),
    ("reference", "Comparison", "stale"), ("reader", "Reader", "_count_blobs"),
    ("reader", None, "_components"), ("reader", "Reader", "_count_castles"),
    ("reader", "Reader", "_shaded_cubes"), ("reader", "Reader", "_interpret"),
    ("reader", "Reader", "_count_cube_blob"), ("reader", None, "blob_features"),
    ("reader", "Reader", "top"), ("reader", "Reader", "_change"),
    ("cube_count", "CubeCount", "count"), ("reader", "Reader", "_count_courts"),
    ("reader", "Reader", "_count_discs"), ("steady", "Steady", "merge"),
    ("markers", "MatLocator", "locate"), ("reader", "Reader", "read")]


def stages(vision: ModuleType, data: dict[str, Any], passes: int) -> str:
    """Milliseconds per full read against the bare table in each of `STAGES` (the
    fastest pass's total over the frames, per frame), and how many calls a read."""
    spent: dict[str, float] = {}
    calls: dict[str, int] = {}
    timing = [False]

    def timed(name: str, function: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if not timing[0]:
                return function(*args, **kwargs)
            t0 = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent[name] = spent.get(name, 0.0) + time.perf_counter() - t0
                calls[name] = calls.get(name, 0) + 1
        return wrapper

    for module, owner, name in STAGES:
        where = importlib.import_module(f"{vision.__name__}.{module}")
        target = getattr(where, owner) if owner else where
        setattr(target, name, timed(f"{owner or module}.{name}", getattr(target, name)))
    pairs = [(_decode(a), _decode(b)) for a, b in data["pairs"]]
    reader = readers(vision, _decode(data["setup"]))["bare"]
    reader.read(pairs[-1][1])
    best: dict[str, float] = {}
    for _ in range(passes):
        spent.clear()
        calls.clear()
        for frame, twin in pairs:
            timing[0] = True
            reader.read(frame)
            timing[0] = False
            reader.read(twin)
            reader.steady.reset()
            reader.read(twin)
        for name, total in spent.items():
            best[name] = min(best.get(name, total), total)
    lines = ["| step (nested in those above it) | ms a full read | calls a read |",
             "|---|---|---|"]
    for module, owner, name in STAGES:
        key = f"{owner or module}.{name}"
        lines.append(f"| {key} | {1000 * best.get(key, 0.0) / len(pairs):.2f} | "
                     f"{calls.get(key, 0) / len(pairs):.1f} |")
    return "\n".join(lines)


def report(decode: list[list[float]], times: dict[tuple[str, str, str], list[list[float]]],
           labels: dict[str, str]) -> str:
    dec = [statistics.median(d) for d in decode]
    lines = [f"decode: median {1000 * statistics.median(dec):.2f} ms",
             "| reader | read | version | median ms | × decode | fastest ms | × decode |",
             "|---|---|---|---|---|---|---|"]
    for r in ("bare", "plain"):
        for read in READS:
            for v, label in labels.items():
                per = times[(v, r, read)]
                med = [statistics.median(t) for t in per]
                low = [min(t) for t in per]
                lines.append(
                    f"| {r} | {read} | {label} | {1000 * statistics.median(med):.1f} | "
                    f"{statistics.median(m / d for m, d in zip(med, dec, strict=True)):.2f} | "
                    f"{1000 * statistics.median(low):.1f} | "
                    f"{statistics.median(m / d for m, d in zip(low, dec, strict=True)):.2f} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, required=True, help="checkout of the old vision/")
    parser.add_argument("--new", type=Path, default=HERE, help="checkout of the new vision/")
    parser.add_argument("--passes", type=int, default=9)
    parser.add_argument("--cache", type=Path, default=CACHE, help="the sequence's JPEGs")
    parser.add_argument("--stages", action="store_true",
                        help="then time the new version's steps of a full read")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    data = frames(args.cache)
    with tempfile.TemporaryDirectory(prefix="carolus-interleave-") as tmp:
        versions = {v: renamed_copy(root.resolve(), f"vision_{v}", Path(tmp))
                    for v, root in (("old", args.old), ("new", args.new))}
        before = os.getloadavg()
        t0 = time.strftime("%H:%M:%S", time.gmtime())
        decode, times = run(versions, data, args.passes)
        after = os.getloadavg()
        print(f"{args.passes} passes, {len(decode)} frames, {t0}-"
              f"{time.strftime('%H:%M:%S', time.gmtime())} UTC, load average "
              f"{before[0]:.2f}/{before[1]:.2f} before, {after[0]:.2f}/{after[1]:.2f} after")
        print(report(decode, times, {"old": str(args.old), "new": str(args.new)}))
        if args.stages:
            print(f"\nwhere a full read against the bare table goes ({args.new}):")
            print(stages(versions["new"], data, args.passes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
