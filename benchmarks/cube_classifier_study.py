"""Is the cube count limited by its classifier, by its data, or by what it is told?

    .venv/bin/pip install scikit-learn    # for this study only; no part of the product
    .venv/bin/python benchmarks/cube_classifier_study.py

The stored cube model (`vision/fitted/cubes.json`) keeps every labelled blob of our
renderer in frame order, and its report says how many blobs the last third of the
frames held (`report.held_out`). This fits on the first two thirds and counts the last
third's blobs with

- the nearest-neighbour vote the reader uses, with the stored weights (a little
  optimistic: those weights were searched on all the frames);
- the same vote fitted on a quarter and a half of the training blobs (a learning curve:
  does more of the same data help?);
- a random forest and extra trees (scikit-learn), which weigh the features their own way;
- the vote in a linear metric learnt by neighbourhood components analysis (scikit-learn)
  instead of the stored weights' greedy search.

If other classifiers and more data miscount about as many blobs, the count is limited by
what the blob features say, and the next gain is in the features or in how blobs are cut,
not in the fit. Prints one line per model: blobs miscounted of those held out; for the
vote on all the training blobs, which counts are taken for which.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from vision.cube_count import FEATURES, FITTED, NEIGHBOURS, CubeCount  # noqa: E402


def confusions(voted: np.ndarray, truth: np.ndarray, patch: np.ndarray) -> None:
    """Which counts are taken for which, and how often a blob found by its darkness
    alone (a cube dyed like its field, `Patch`) is miscounted beside one of a piece's
    colour: where the errors are tells what to look at next."""
    wrong = voted != truth
    pairs = Counter(zip(truth[wrong].tolist(), voted[wrong].tolist(), strict=True))
    print("  miscounted (true -> voted: blobs): " + ", ".join(
        f"{t} -> {v}: {n}" for (t, v), n in pairs.most_common()))
    print(f"  found by darkness alone: {int((wrong & patch).sum())} of {int(patch.sum())} "
          f"miscounted; of a piece's colour: {int((wrong & ~patch).sum())} of "
          f"{int((~patch).sum())}")


def main() -> int:
    stored = json.loads(FITTED.read_text(encoding="utf-8"))
    model = CubeCount.from_json(stored["model"], str(FITTED))
    report = stored["report"]
    ours = int(report["blobs"])
    held = int(str(report["held_out"]["blobs_exact"]).split(" of ")[1])
    cut = ours - held
    x, y = model.samples[:ours], model.counts[:ours]
    test_x, test_y = x[cut:], y[cut:]
    print(f"{FITTED.name}: {ours} blobs of our renderer; fitted on the first {cut}, "
          f"counted the last {held} (the fit report's held-out frames)")
    for share in (0.25, 0.5, 1.0):
        n = int(cut * share)
        part = CubeCount.fit(x[cut - n:cut], y[cut - n:cut], 0.0, 0.0, weights=model.weights)
        voted = part.votes(test_x)[0]
        wrong = int((voted != test_y).sum())
        print(f"nearest neighbours, stored weights, {n} training blobs: {wrong} miscounted")
    confusions(voted, test_y, test_x[:, FEATURES.index("shade")] > 0)
    try:
        from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier
    except ImportError:
        print("scikit-learn is not installed: .venv/bin/pip install scikit-learn "
              "(for this study only)", file=sys.stderr)
        return 1
    for name, forest in (("random forest", RandomForestClassifier),
                         ("extra trees", ExtraTreesClassifier)):
        fitted = forest(n_estimators=300, random_state=0, n_jobs=1).fit(x[:cut], y[:cut])
        wrong = int((fitted.predict(test_x) != test_y).sum())
        print(f"{name}, 300 trees, {cut} training blobs: {wrong} miscounted")
    wrong = metric_learnt(x[:cut], y[:cut], test_x, test_y, model)
    print(f"nearest neighbours, a metric learnt by NCA on {NCA_BLOBS} of them, {cut} "
          f"training blobs: {wrong} miscounted")
    return 0


#: Training blobs NCA learns its metric on (its every step weighs all pairs of them).
NCA_BLOBS = 5000


def metric_learnt(x: np.ndarray, y: np.ndarray, test_x: np.ndarray, test_y: np.ndarray,
                  model: CubeCount) -> int:
    """The vote the reader uses, but in a linear metric scikit-learn's neighbourhood
    components analysis learns (a smooth leave-one-out objective, where the stored
    weights come from a greedy search of a count of errors), started from the stored
    weights: is a learnt metric better than the searched weights?"""
    from sklearn.neighbors import NeighborhoodComponentsAnalysis

    weights = np.ones(len(FEATURES)) if model.weights is None else model.weights
    start = np.diag(weights.astype(np.float64))
    pick = np.random.default_rng(0).permutation(len(y))[:NCA_BLOBS]
    scaled = (x - model.mean) / model.scale
    nca = NeighborhoodComponentsAnalysis(init=start, max_iter=50, random_state=0)
    nca.fit(scaled[pick], y[pick])
    learnt = nca.components_.T.astype(np.float32)
    train = (scaled @ learnt).astype(np.float32)
    test = (((test_x - model.mean) / model.scale) @ learnt).astype(np.float32)
    return int((nearest_vote(train, y, test) != test_y).sum())


def nearest_vote(train: np.ndarray, counts: np.ndarray, query: np.ndarray) -> np.ndarray:
    """The nearest-neighbour majority of each query row (ties to the smaller count), in
    the space the rows are given in: the reader's vote, for a study's own metric."""
    k = min(NEIGHBOURS, len(counts))
    norms = (train**2).sum(axis=1)
    voted = np.empty(len(query), np.int64)
    for start in range(0, len(query), 512):
        distance = norms[None, :] - 2.0 * (query[start:start + 512] @ train.T)
        nearest = np.argpartition(distance, k - 1, axis=1)[:, :k]
        voted[start:start + 512] = [int(np.bincount(counts[row]).argmax())
                                    for row in nearest]
    return voted


if __name__ == "__main__":
    raise SystemExit(main())
