"""Would a count that looks at a blob's pixels count better than the fitted count? (issue 14)

    .venv/bin/pip install torch==2.13.0 onnx   # the study's own extras, not the product's
    .venv/bin/python benchmarks/crop_count_study.py --frames 120 --jobs 2 \
        [--path-traced 900000-900012] [--width 16] [--timing]

The cube count (`vision.cube_count`) votes among the labelled blobs nearest to a blob by
sixteen measures of it (its size, shape, how dark, how like the art...). Whatever those
measures leave out it cannot see: the rim a cube dyed like its field leaves around its
top, the way its sides shade. Here every blob the reader weighs on the per-frame tuning
tables (as `cube_blobs.py` draws and labels them: seeds `TUNING_SEED` on, the widest
variety, each table read against its own bare table) is also cut out as a small picture
of what changed there (`crop`: brightness and each channel over the bare table's, and
the blob's own pixels), and a small convolutional network is trained on those pictures
with the sixteen measures beside them.

Both are judged the same way, on folds of frames: the nearest-neighbour vote of the
stored model's weights over the other folds' blobs (`knn_tallies`: the product's count
refitted on our blobs only), the network trained on the other folds, and the two
averaged. With ``--path-traced`` both are also fitted on every table drawn here and
judged on the path tracer's cached held-out frames (`cycles_bench.py` draws them): the
network must not have learnt our renderer's way of drawing a cube.

``--timing`` times the network as the product would run it (OpenCV's dnn, which reads
the network exported by torch to ONNX), one thread, each frame's blobs at once.

A study, not the product: nothing here is stored or used by the reader, and torch (and
onnx, for ``--timing``) are needed only to run it.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
for _where in (ROOT, ROOT / "benchmarks"):
    if str(_where) not in sys.path:
        sys.path.insert(0, str(_where))

from benchmarks.vision_bench import TUNING_SEED, calibrated_table  # noqa: E402
from scripts.labelled import cubes_in_blobs  # noqa: E402
from vision import cube_count  # noqa: E402
from vision.cube_count import FEATURES, NEIGHBOURS  # noqa: E402
from vision.layout import load_layout  # noqa: E402
from vision.reader import Reader  # noqa: E402

#: Half the side of a blob's picture, in atlas pixels (a cube's side is about ten).
HALF = 16
#: Counts the network tells apart (a blob of more is counted as four).
CLASSES = 5
FOLDS = 5
_SHADE = FEATURES.index("shade")


@dataclass(frozen=True)
class Blob:
    """One blob the reader weighed, labelled, with what each count is told of it."""

    seed: int
    light: str
    patch: bool            # found by its darkness alone (else of a piece's colour)
    true: int
    features: np.ndarray   # the fitted count's sixteen measures
    picture: np.ndarray    # 5 x 32 x 32: `crop`


def crop(reader: Reader, box: tuple[int, ...], blob: np.ndarray) -> np.ndarray:
    """What changed around a blob of the frame `reader` just read against its bare table:
    log brightness over the bare table's (light balanced, `Comparison.features`), log of
    each channel over the bare table's less its median over the picture (a lamp's colour
    is no piece's), and the blob's own pixels; centred on the blob's box."""
    assert reader._shade is not None and reader._atlas is not None
    assert reader._comparison is not None
    ratio = reader._shade[0]
    rows, width = ratio.shape
    bx, by, bw, bh = (int(v) for v in box[:4])
    cx, cy = bx + bw // 2, by + bh // 2
    y0, y1, x0, x1 = cy - HALF, cy + HALF, cx - HALF, cx + HALF
    inside = (slice(max(0, y0), min(rows, y1)), slice(max(0, x0), min(width, x1)))
    at = (slice(inside[0].start - y0, inside[0].stop - y0),
          slice(inside[1].start - x0, inside[1].stop - x0))
    picture = np.zeros((5, 2 * HALF, 2 * HALF), np.float32)
    picture[0][at] = np.log(np.clip(ratio[inside], 0.05, 20.0))
    frame = reader._atlas[inside].astype(np.float32)
    bare = reader._comparison.bare.atlas[inside].astype(np.float32)
    channels = np.log((frame + 4.0) / (bare + 4.0))
    channels -= np.median(channels.reshape(-1, 3), axis=0)
    picture[1:4][(slice(None), *at)] = channels.transpose(2, 0, 1)
    mask = np.zeros((rows, width), np.float32)
    mask[by:by + bh, bx:bx + bw][blob] = 1.0
    picture[4][at] = mask[inside]
    return picture


def weighed(reader: Reader, frame: np.ndarray, pieces: list[Any], seed: int, light: str
            ) -> list[Blob]:
    """Every blob `reader` weighs in `frame`, labelled with its true cubes."""
    reader.collect = []
    reader.steady.reset()
    reader.read(frame)
    counts, _ = cubes_in_blobs(reader, pieces)
    kept = [c for c in reader.collect if c[3] is not None]
    reader.collect = None
    return [Blob(seed, light, bool(features[_SHADE]), int(true),
                 np.asarray(features, np.float32), crop(reader, box, blob))
            for (_, _, features, box, blob), true in zip(kept, counts, strict=True)]


def ours(job: tuple[bool, int]) -> list[Blob]:
    """The blobs of per-frame tuning table `seed` (a worker's job)."""
    hard, seed = job
    cv2.setNumThreads(1)
    scene, reader, frame = calibrated_table(load_layout(), hard, seed,
                                            variety={"variety": "wide"})
    return weighed(reader, frame, scene.pieces, seed, "hard" if hard else "mild")


def path_traced(first: int, last: int) -> list[Blob]:
    """The blobs of the path tracer's cached held-out frames (none when none is cached)."""
    from cycles_bench import CACHE, LIGHTS, SAMPLES, _load, frame_path, scene_specs

    from scripts.cycles_kept import play_pieces
    from vision.calibration import calibrate, reader_for

    layout = load_layout()
    found: list[Blob] = []
    for seed in range(first, last + 1):
        for light in LIGHTS:
            specs = scene_specs(layout, seed, light, 1, SAMPLES, CACHE)
            if not all(frame_path(s, CACHE).exists() for s in specs):
                continue
            reader = reader_for(layout, calibrate(_load(frame_path(specs[0], CACHE)), layout))
            found += weighed(reader, _load(frame_path(specs[1], CACHE)),
                             play_pieces(specs[1]), seed, light)
    return found


def knn_tallies(train: np.ndarray, counts: np.ndarray, test: np.ndarray) -> np.ndarray:
    """Share of the `NEIGHBOURS` nearest training blobs voting for each count
    (`CubeCount.tallies`; more than four cubes counted as four), with the stored model's
    weighing of the features (its standardising refitted on `train`)."""
    stored = cube_count.stored()
    assert stored is not None and stored.weights is not None
    model = cube_count.CubeCount.fit(train, counts, 0.0, 0.0, weights=stored.weights)
    tally = model.tallies(test)
    shares = np.zeros((len(test), CLASSES), np.float32)
    few = min(tally.shape[1], CLASSES - 1)
    shares[:, :few] = tally[:, :few]
    shares[:, CLASSES - 1] += tally[:, CLASSES - 1:].sum(axis=1)
    result: np.ndarray = shares / NEIGHBOURS
    return result


def network(width: int = 16) -> Any:
    """The untrained network: four small convolutions over the picture (`width`, then
    twice as many, responses each), their mean and largest response beside the sixteen
    measures, two layers to the counts."""
    import torch
    from torch import nn

    class Net(nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.seen = nn.Sequential(
                nn.Conv2d(5, width, 3, padding=1), nn.ReLU(),
                nn.Conv2d(width, width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                nn.Conv2d(width, 2 * width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                nn.Conv2d(2 * width, 2 * width, 3, padding=1), nn.ReLU())
            self.count = nn.Sequential(nn.Linear(4 * width + len(FEATURES), 64), nn.ReLU(),
                                       nn.Linear(64, CLASSES))

        def forward(self, picture: Any, measures: Any) -> Any:
            h = self.seen(picture)
            return self.count(torch.cat([h.mean((2, 3)), h.amax((2, 3)), measures], 1))

    torch.manual_seed(0)
    return Net()


def network_shares(train: list[Blob], test: list[Blob], epochs: int, width: int = 16
                   ) -> np.ndarray:
    """Share the network trained on `train` gives each count of every blob of `test`."""
    import torch
    from torch import nn

    torch.set_num_threads(max(1, multiprocessing.cpu_count()))
    rng = np.random.default_rng(0)
    features = np.stack([b.features for b in train])
    mean, spread = features.mean(axis=0), features.std(axis=0) + 1e-6

    def tensors(blobs: list[Blob]) -> tuple[Any, Any]:
        return (torch.tensor(np.stack([b.picture for b in blobs])),
                torch.tensor((np.stack([b.features for b in blobs]) - mean) / spread))

    pictures, measures = tensors(train)
    truth = torch.tensor(np.minimum([b.true for b in train], CLASSES - 1))
    net = network(width)
    opt = torch.optim.Adam(net.parameters(), 2e-3)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(opt, epochs)
    for _ in range(epochs):
        net.train()
        order = rng.permutation(len(train))
        for start in range(0, len(order), 256):
            batch = torch.tensor(order[start:start + 256])
            # a cube may lie any way round: the pictures are turned and mirrored
            seen = torch.rot90(pictures[batch], int(rng.integers(4)), (2, 3))
            if rng.random() < 0.5:
                seen = torch.flip(seen, (3,))
            loss = nn.functional.cross_entropy(net(seen, measures[batch]), truth[batch])
            opt.zero_grad()
            loss.backward()
            opt.step()
        schedule.step()
    net.eval()
    pictures, measures = tensors(test)
    with torch.no_grad():
        shares: np.ndarray = torch.softmax(net(pictures, measures), 1).numpy()
    return shares


def dnn_ms(frames: list[list[Blob]], width: int = 16) -> float:
    """Median milliseconds OpenCV's dnn takes, on one thread, to run the network (its
    weights do not change the time) over each frame's blobs at once, as a reader would:
    the cost the network would add to a full read."""
    import tempfile
    import time

    import torch

    net = network(width).eval()
    cv2.setNumThreads(1)
    with tempfile.TemporaryDirectory() as where:
        path = str(Path(where) / "count.onnx")
        torch.onnx.export(net, (torch.zeros(1, 5, 2 * HALF, 2 * HALF),
                                torch.zeros(1, len(FEATURES))), path, dynamo=False,
                          input_names=["picture", "measures"], output_names=["counts"],
                          dynamic_axes={"picture": {0: "n"}, "measures": {0: "n"},
                                        "counts": {0: "n"}})
        dnn = cv2.dnn.readNetFromONNX(path)
    times = []
    for blobs in frames:
        pictures = np.stack([b.picture for b in blobs])
        measures = np.stack([b.features for b in blobs])
        start = time.perf_counter()
        dnn.setInput(pictures, "picture")
        dnn.setInput(measures, "measures")
        dnn.forward()
        times.append(1000.0 * (time.perf_counter() - start))
    return float(np.median(times))


def wrong(shares: np.ndarray, blobs: list[Blob]) -> dict[str, int]:
    voted = shares.argmax(axis=1)
    true = np.minimum([b.true for b in blobs], CLASSES - 1)
    patch = np.array([b.patch for b in blobs])
    miss = voted != true
    return {"blobs": len(blobs), "wrong": int(miss.sum()), "patches": int(miss[patch].sum()),
            "of_colour": int(miss[~patch].sum()), "too_many": int((voted > true).sum()),
            "too_few": int((voted < true).sum())}


def judged(train: list[Blob], test: list[Blob], epochs: int, width: int = 16
           ) -> dict[str, dict[str, int]]:
    counts = np.array([b.true for b in train])
    knn = knn_tallies(np.stack([b.features for b in train]), counts,
                      np.stack([b.features for b in test]))
    net = network_shares(train, test, epochs, width)
    return {"knn": wrong(knn, test), "network": wrong(net, test),
            "both": wrong(0.5 * knn + 0.5 * net, test)}


def added(total: dict[str, dict[str, int]], part: dict[str, dict[str, int]]) -> None:
    for name, figures in part.items():
        into = total.setdefault(name, {})
        for key, value in figures.items():
            into[key] = into.get(key, 0) + value


def table(title: str, results: dict[str, dict[str, int]]) -> str:
    lines = [title, "", "| count | blobs wrong | patches | of a colour | one too many | "
             "too few |", "|---|---|---|---|---|---|"]
    names = {"knn": "nearest labelled blobs (the product's)", "network": "network on the "
             "picture", "both": "the two averaged"}
    for name, f in results.items():
        lines.append(f"| {names[name]} | {f['wrong']} of {f['blobs']} | {f['patches']} | "
                     f"{f['of_colour']} | {f['too_many']} | {f['too_few']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--frames", type=int, default=120, help="tuning tables per light")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--width", type=int, default=16,
                    help="responses of the network's first convolutions (its cost grows "
                    "as the square)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--path-traced", metavar="FIRST-LAST",
                    help="also judge on these cached held-out path-traced seeds")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    ap.add_argument("--timing", action="store_true",
                    help="also time the network in OpenCV's dnn (needs onnx)")
    args = ap.parse_args(argv)
    if args.frames < FOLDS:
        ap.error(f"--frames {args.frames}: at least {FOLDS} (one a fold)")
    if args.epochs < 1 or args.width < 1:
        ap.error(f"--epochs {args.epochs}, --width {args.width}: each at least 1")
    traced_seeds: tuple[int, int] | None = None
    if args.path_traced:
        first, _, last = args.path_traced.partition("-")
        if not (first.isdigit() and (last or first).isdigit()):
            ap.error(f"--path-traced {args.path_traced}: seeds as FIRST-LAST, such as "
                     "900000-900012")
        traced_seeds = (int(first), int(last or first))
    try:
        import torch  # noqa: F401
    except ImportError:
        print("crop_count_study: torch is not installed; this study needs it "
              "(.venv/bin/pip install torch==2.13.0)", file=sys.stderr)
        return 2
    if cube_count.stored() is None:
        print("crop_count_study: no stored cube count (scripts/fit_cubes.py makes it)",
              file=sys.stderr)
        return 2
    work = [(hard, TUNING_SEED + i) for hard in (False, True) for i in range(args.frames)]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            found = pool.map(ours, work)
    else:
        found = [ours(job) for job in work]
    blobs = [b for frame in found for b in frame]
    print(f"{len(blobs)} blobs of {len(work)} tuning tables", file=sys.stderr)
    folds: dict[str, dict[str, int]] = {}
    for fold in range(FOLDS):
        test = [b for b in blobs if b.seed % FOLDS == fold]
        part = judged([b for b in blobs if b.seed % FOLDS != fold], test, args.epochs, args.width)
        added(folds, part)
        print(f"  fold {fold + 1} of {FOLDS}: " + ", ".join(
            f"{k} {v['wrong']}" for k, v in part.items()), file=sys.stderr)
    report = {"command": " ".join(["benchmarks/crop_count_study.py", *(argv or sys.argv[1:])]),
              "tuning_tables": f"{TUNING_SEED}-{TUNING_SEED + args.frames - 1}, mild and hard",
              "folds": folds}
    print(table(f"Our renderer's tuning tables ({TUNING_SEED} on, {args.frames} a light), "
                f"each fold of frames counted by what was fitted on the others:", folds))
    if traced_seeds is not None:
        traced = path_traced(*traced_seeds)
        if not traced:
            print(f"crop_count_study: no path-traced frame of seeds {args.path_traced} is "
                  "cached (benchmarks/cycles_bench.py --render-only draws them)",
                  file=sys.stderr)
            return 2
        report["path_traced"] = judged(blobs, traced, args.epochs, args.width)
        print()
        print(table(f"The path tracer's held-out frames (seeds {args.path_traced}), counted "
                    "by what was fitted on all of our renderer's tables above:",
                    report["path_traced"]))
    if args.timing:
        report["dnn_ms_per_frame"] = round(dnn_ms([f for f in found if f], args.width), 2)
        print(f"\nthe network in OpenCV's dnn, one thread, each frame's blobs at once: "
              f"median {report['dnn_ms_per_frame']} ms a frame "
              f"({np.median([len(f) for f in found]):.0f} blobs)")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
