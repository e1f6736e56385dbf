"""How many cubes one single-coloured blob of foreground holds: a fitted model.

Against the bare table a cube is what differs from the tile under it, and what differs is
not always the whole cube: on art of its own colour (a red cube on a red roof) only its
shaded sides and shadow differ, and cubes crowded on a tile hide each other's sides, so
a blob of three touching cubes is smaller than three free ones. Hand-set bands of area
over one cube's footprint were fitted one failing frame at a time on our own renderer;
here the number is decided by the blobs of labelled frames most like this one (their
size, their shape, how solid they are), measured by ``scripts/fit_cubes.py`` and stored
as data (``vision/fitted/cubes.json``).

The neighbours also say how sure the count is: how often a vote for that count with
that many agreeing neighbours was right on labelled frames held out of the fit
(`vision.vote_trust`) is the zone's confidence, so a count that is wrong now and then is
asked about rather than called a move.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from vision import vote_trust
from vision.model_file import read_model

FITTED = Path(__file__).with_name("fitted") / "cubes.json"
#: What the model is told of a blob, in this order (all free of the camera's scale).
FEATURES = ("area", "hull", "solidity", "radius", "long", "short", "paper", "shade",
            "attached", "coloured", "darkness", "likeness", "lit", "shown", "cast",
            "beyond", "upwind")
#: Neighbours that vote on a blob's count.
NEIGHBOURS = 9
#: What each feature's weight in the distance may be set to, then multiplied by, in the
#: two rounds of the search for the weights (`fit_weights`): a coarse grid, so the
#: search cannot chase one fold's handful of blobs.
WEIGHT_STEPS = (0.0, 0.5, 2.0, 3.0)
WEIGHT_ROUNDS = 2


class Patch(NamedTuple):
    """What else a patch found by its darkness alone may be (a cube dyed like its field
    shows no colour of its own, so only this tells it from a shadow).

    `attached` is the share of it that touches another piece, whose shadow it may be;
    `tinted` the share that shows a piece's colour (a cube dyed like its field leaves
    specks of its own colour beside its dark sides; a shadow leaves none). A patch
    holds nothing of where the plainly seen pieces' shadows fall (`vision.cast`): what
    is left of a shadow there is its fringe, a cube's own sides and shadow are whole.
    `cast` is the share of its surroundings (half a cube's side around it) where those
    shadows fall, and `beyond` its size in cube tops. `dyed` is how far from
    a tie between two cube colours the field around it is (1 - the runner-up's share
    over the winner's): a cube found this way is given the field's colour, and on the
    line between a pink and a yellow field either may be right. It is no feature of
    the count, only of how sure its colour is. `upwind` is how much the frame changed
    (mean |log(frame / bare table)|) one shadow offset toward the lamp from the patch,
    where a shadow's caster stands (a piece, much changed) and a dyed cube's own top
    (the art's colour, hardly changed).
    """

    attached: float
    tinted: float
    cast: float = 0.0
    beyond: float = 0.0
    dyed: float = 1.0
    upwind: float = 0.0


class CubeCountError(ValueError):
    """A stored cube-count model that cannot be used; the message says why."""


def blob_features(blob: np.ndarray, cube_px: float, side_px: float, on_paper: bool,
                  patch: Patch | None = None, darkness: float = 0.0, likeness: float = 0.0,
                  top: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """The blob as the model sees it.

    `cube_px` is one cube's expected blob area here (top and visible sides), `side_px`
    its side in atlas pixels: area and hull in cubes, the largest inscribed disc's
    radius in sides, so the same cube gives the same numbers at any camera height.
    `patch` is given for a blob found by its darkness alone (a cube on art of its own
    colour): what else it may be (`Patch`). `darkness` is the mean of -log(frame /
    bare table) over it: a shadow darkens all it covers, a cube's lit top next to its
    dark sides much less. `likeness` is the correlation of the frame's brightness with
    the bare table's over the blob: a shadow scales the art under it and keeps its
    pattern, a cube's painted faces replace it.
    `top` is how bright and how colourful its brightest tenth is over its colour on the
    swatches (`vision.lit`), for a blob of a piece's colour (0, 0 for a patch found by
    its darkness, whose top is the art's): a cube whose shaded sides are lost in the art
    still shows a whole lit top, small as its blob is; a sliver where a piece's edge
    blends with the art shows a dim or greyish one.
    """
    # OpenCV's counts and extrema rather than numpy's reductions: the same numbers, with
    # less overhead on a blob of a few hundred pixels (a read weighs about a hundred).
    mask = blob.astype(np.uint8)
    area = float(cv2.countNonZero(mask))
    points = cv2.findNonZero(mask)
    hull = float(cv2.contourArea(cv2.convexHull(points))) if points is not None else 0.0
    hull = max(hull, area)
    padded = cv2.copyMakeBorder(mask, 2, 2, 2, 2, cv2.BORDER_CONSTANT, value=0)
    radius = float(cv2.minMaxLoc(cv2.distanceTransform(padded, cv2.DIST_L2, 3))[1])
    # The tightest rectangle around it, in cube sides: a row of three is three long.
    long = short = 0.0
    if points is not None and len(points) >= 3:
        w, h = cv2.minAreaRect(points)[1]
        long, short = max(w, h) / max(1.0, side_px), min(w, h) / max(1.0, side_px)
    return np.array([area / cube_px, hull / cube_px, area / max(1.0, hull),
                     radius / max(1.0, side_px), long, short, float(on_paper),
                     float(patch is not None), 0.0 if patch is None else patch.attached,
                     1.0 if patch is None else patch.tinted, float(darkness),
                     float(likeness), float(top[0]), float(top[1]),
                     0.0 if patch is None else patch.cast,
                     0.0 if patch is None else patch.beyond,
                     0.0 if patch is None else patch.upwind], np.float32)


@dataclass
class CubeCount:
    """Labelled blobs (features, true count) and the scaling that makes them comparable.

    `per_cube` is the area (in cubes' footprints) one cube adds to a blob bigger than
    any the data held, where no neighbour can vote. `shade` is the brightness over the
    bare table's below which a pixel is darker than light drifts away from any piece.
    `stir` is the |log(frame / bare table)| that light alone leaves in all but one
    pixel in a hundred: a weaker change, which a patch found by `shade` grows into (the
    rest of a cube's dark sides and shadow, its edges against the field). `trust`, per
    count voted for and number of agreeing neighbours, is how often such a vote was
    right on held-out frames (`vision.vote_trust`); None in a model fitted before it was
    kept, whose confidence is the vote's margin. `weights` scale each (standardised)
    feature in the distance, found on folds of labelled frames (`fit_weights`); None in
    a model fitted before they were, whose features all weigh the same.
    """

    samples: np.ndarray
    counts: np.ndarray
    mean: np.ndarray
    scale: np.ndarray
    per_cube: float
    largest: float
    shade: float
    stir: float
    trust: dict[str, tuple[float, ...]] | None = None
    weights: np.ndarray | None = None
    _scaled_samples: np.ndarray | None = field(default=None, repr=False)
    _norms: np.ndarray | None = field(default=None, repr=False)

    def count(self, features: np.ndarray) -> tuple[int, float]:
        """(cubes, confidence): the neighbours' majority and what such a vote was worth
        on held-out frames (without a trust table: how far it is from a tie, 1 when all
        agree, 0 when the winner has no more votes than the rest)."""
        if features[0] > self.largest:
            n = max(1, round(float(features[0]) / self.per_cube))
            return n, 0.5
        n, agreeing = self.vote(features)
        if self.trust is not None:
            return n, vote_trust.worth(self.trust, str(n), agreeing)
        share = agreeing / min(NEIGHBOURS, len(self.counts))
        # min and max, not np.clip: the same number without numpy's call on a scalar.
        return n, min(1.0, max(0.0, float(2.0 * share - 1.0)))

    def vote(self, features: np.ndarray) -> tuple[int, int]:
        """(cubes, how many of the nearest labelled blobs say so)."""
        scaled, norms = self._prepared()
        k = min(NEIGHBOURS, len(self.counts))
        # |s - q|² less |q|², the same for every sample: one matrix-vector product.
        distance = norms - 2.0 * (scaled @ self._scaled(features))
        # The k nearest without sorting them all (a frame weighs a hundred blobs). Only
        # which samples they are decides (their votes are tallied, in any order): where
        # the k-th distance is not tied, those not farther than it, found by a partition
        # of the distances alone (quicker than an indirect one); where it is tied,
        # numpy's indirect partition picks among the tied, as it always did.
        nearest = _not_beyond_kth(distance, k)
        if len(nearest) != k:
            nearest = np.argpartition(distance, k - 1)[:k]
        tally = np.bincount(self.counts[nearest])
        n = int(tally.argmax())
        return n, int(tally[n])

    def share_of_none(self, features: np.ndarray) -> float:
        """The share of a blob's nearest labelled blobs that hold no cube: how sure a
        reading that leaves it out may be, whatever the vote's winner."""
        tally = self.tallies(features)[0]
        return float(tally[0]) / max(1, int(tally.sum()))

    def votes(self, features: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`vote` for many blobs at once (rows of `features`): what the search for the
        weights asks of every held-out blob, many times over. A tie at the k-th
        distance may pick other neighbours than `vote` does."""
        tally = self.tallies(features)
        if len(tally) == 0:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        return tally.argmax(axis=1), tally.max(axis=1)

    def tallies(self, features: np.ndarray) -> np.ndarray:
        """For each blob (rows of `features`), how many of its nearest labelled blobs
        vote for each count (columns 0 to the largest count labelled): all of a vote,
        not only its winner, for whoever weighs it against another count's."""
        features = np.asarray(features, np.float32).reshape(-1, len(FEATURES))
        labels = int(self.counts.max()) + 1
        tally = np.zeros((len(features), labels), np.int64)
        scaled, norms = self._prepared()
        k = min(NEIGHBOURS, len(self.counts))
        for start in range(0, len(features), 1024):
            query = self._scaled(features[start:start + 1024])
            distance = norms[None, :] - 2.0 * (query @ scaled.T)
            nearest = np.argpartition(distance, k - 1, axis=1)[:, :k]
            np.add.at(tally[start:start + len(query)],
                      (np.arange(len(query))[:, None], self.counts[nearest]), 1)
        return tally

    def _prepared(self) -> tuple[np.ndarray, np.ndarray]:
        """The labelled blobs as the distance sees them, and their squared norms: made
        once, on the first count."""
        if self._scaled_samples is None or self._norms is None:
            self._scaled_samples = self._scaled(self.samples)
            self._norms = (self._scaled_samples**2).sum(axis=1)
        return self._scaled_samples, self._norms

    def _scaled(self, x: np.ndarray) -> np.ndarray:
        scaled: np.ndarray = ((x - self.mean) / self.scale).astype(np.float32)
        if self.weights is not None:
            scaled *= self.weights
        return scaled

    @classmethod
    def fit(cls, samples: np.ndarray, counts: np.ndarray, shade: float, stir: float,
            groups: np.ndarray | None = None, weights: np.ndarray | None = None,
            progress: Callable[[str], None] | None = None) -> CubeCount:
        """The model of these labelled blobs; with `groups` (each blob's frame), the
        features' weights found on folds of frames (`fit_weights`) unless `weights` are
        given, and its votes' trust measured by leaving each fold of frames out
        (`vision.vote_trust`)."""
        samples = np.asarray(samples, np.float32).reshape(-1, len(FEATURES))
        counts = np.asarray(counts, np.int64)
        if len(counts) < NEIGHBOURS:
            raise CubeCountError(f"{len(counts)} labelled blobs are too few to fit on")
        mean = samples.mean(axis=0)
        scale = samples.std(axis=0)
        scale[scale < 1e-6] = 1.0
        many = counts >= 3
        per_cube = (float(np.median(samples[many, 0] / counts[many])) if many.any()
                    else 1.0)
        if groups is not None and weights is None:
            weights = fit_weights(samples, counts, groups, progress)
        model = cls(samples, counts, mean, scale, per_cube, float(samples[:, 0].max()),
                    float(shade), float(stir), weights=weights)
        if groups is None:
            return model

        def vote(train: np.ndarray, test: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            part = cls.fit(samples[train], counts[train], shade, stir, weights=weights)
            votes = np.array([part.vote(f) for f in samples[test]], np.int64).reshape(-1, 2)
            return votes[:, 0], votes[:, 1]

        won, agreeing, right = vote_trust.held_out_votes(groups, counts, vote)
        model.trust = {str(n): tuple(row) for n, row in enumerate(vote_trust.trust_table(
            won, agreeing, right, NEIGHBOURS))}
        return model

    def to_json(self) -> dict[str, object]:
        return {"features": list(FEATURES), "neighbours": NEIGHBOURS,
                "per_cube": round(self.per_cube, 4), "largest": round(self.largest, 4),
                "shade": round(self.shade, 4), "stir": round(self.stir, 4),
                **({} if self.trust is None else
                   {"trust": {n: list(row) for n, row in self.trust.items()}}),
                **({} if self.weights is None else
                   {"weights": dict(zip(FEATURES, (float(w) for w in self.weights),
                                        strict=True))}),
                "mean": [round(float(v), 4) for v in self.mean],
                "scale": [round(float(v), 4) for v in self.scale],
                "samples": [[round(float(v), 3) for v in row] for row in self.samples],
                "counts": [int(c) for c in self.counts]}

    @classmethod
    def from_json(cls, data: dict[str, object], where: str = "cube-count model") -> CubeCount:
        try:
            if data["features"] != list(FEATURES):
                raise CubeCountError(f"{where}: fitted on features {data['features']}, "
                                     f"this reader measures {list(FEATURES)}")
            samples = np.asarray(data["samples"], np.float32).reshape(-1, len(FEATURES))
            counts = np.asarray(data["counts"], np.int64)
            if len(samples) != len(counts) or len(counts) == 0:
                raise CubeCountError(f"{where}: {len(samples)} samples, {len(counts)} counts")
            raw = data.get("trust")
            trust = None if raw is None else vote_trust.read_table(raw, NEIGHBOURS)
            given = data.get("weights")
            if given is not None and (not isinstance(given, dict)
                                      or sorted(given) != sorted(FEATURES)):
                raise CubeCountError(f"{where}: weights for {given}, this reader measures "
                                     f"{list(FEATURES)}")
            weights = (None if given is None else
                       np.array([float(given[f]) for f in FEATURES], np.float32))
            return cls(samples, counts, np.asarray(data["mean"], np.float32),
                       np.asarray(data["scale"], np.float32), float(str(data["per_cube"])),
                       float(str(data["largest"])), float(str(data["shade"])),
                       float(str(data["stir"])), trust, weights)
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, CubeCountError):
                raise
            raise CubeCountError(f"{where}: broken ({exc})") from exc

    @classmethod
    def load(cls, path: Path = FITTED) -> CubeCount:
        return cls.from_json(read_model(path, CubeCountError), str(path))


def fit_weights(samples: np.ndarray, counts: np.ndarray, groups: np.ndarray,
                progress: Callable[[str], None] | None = None) -> np.ndarray:
    """How much each standardised feature weighs in the distance between blobs: the
    weights with which the fewest labelled blobs are counted wrong by models fitted
    without their fold of frames (`vision.vote_trust.held_out_votes`).

    Why weigh them: standardised alike, every feature counts the same, and some say
    little of a blob's count (whether it lies on a reserve's paper, how long it is
    beside its area) yet pull its nearest neighbours away from the blobs that are
    like it. Found by a greedy search, one feature at a time, over a coarse grid
    (`WEIGHT_STEPS`, `WEIGHT_ROUNDS`); a step is kept only if it counts fewer blobs
    wrong. On a fitting script's thousands of blobs this takes minutes: `progress` is
    told of each feature weighed."""
    samples = np.asarray(samples, np.float32).reshape(-1, len(FEATURES))
    counts = np.asarray(counts, np.int64)

    def wrong(weights: np.ndarray) -> int:
        def vote(train: np.ndarray, test: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            part = CubeCount.fit(samples[train], counts[train], 0.0, 0.0, weights=weights)
            return part.votes(samples[test])

        return int((~vote_trust.held_out_votes(groups, counts, vote)[2]).sum())

    weights = np.ones(len(FEATURES), np.float32)
    best = wrong(weights)
    for round_ in range(WEIGHT_ROUNDS):
        for j in range(len(FEATURES)):
            if progress is not None:
                progress(f"weighing {FEATURES[j]} (round {round_ + 1} of {WEIGHT_ROUNDS}, "
                         f"{best} of {len(counts)} blobs miscounted)")
            for step in WEIGHT_STEPS:
                tried = weights.copy()
                tried[j] = weights[j] * step if round_ else step
                if tried[j] == weights[j]:
                    continue
                score = wrong(tried)
                if score < best:
                    best, weights = score, tried
    return weights


def _not_beyond_kth(values: np.ndarray, k: int) -> np.ndarray:
    """Where `values` are not above their `k`-th smallest: ``np.flatnonzero(values <=
    np.partition(values, k - 1)[k - 1])`` exactly, in a third of its time on the model's
    4741 distances. The largest of the minima of `k` disjoint chunks has at least `k`
    values not above it, and only a few dozen: those alone are partitioned."""
    n = len(values) // k * k
    if n >= 8 * k:
        bound = values[:n].reshape(k, -1).min(axis=1).max()
        some = np.flatnonzero(values <= bound)
        if len(some) >= k:          # fewer: NaNs, which numpy's partition puts last
            few = values[some]
            found: np.ndarray = some[few <= np.partition(few, k - 1)[k - 1]]
            return found
    return np.flatnonzero(values <= np.partition(values, k - 1)[k - 1])


@functools.cache
def stored() -> CubeCount | None:
    """The model this release ships (None before ``scripts/fit_cubes.py`` first ran):
    read once, every reader shares it (it is never changed after loading)."""
    return CubeCount.load() if FITTED.exists() else None
