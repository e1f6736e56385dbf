"""Which castles one colourless blob of foreground holds: a fitted model.

Against the bare table a castle is what differs from the tile and has no colour. So
does a castle's shadow, a grey road the castle stands on, and, under a low bulb, the
castle's own shaded sides: brightness bands set between the calibration's white, grey
and black swatch castles read a grey castle's lit top as white and its long shadow as a
black castle (the path tracer's commonest castle errors; on the swatches the castles
stand on white paper and are lit as no castle on a tile is). Here the blob's castles are
decided by the labelled blobs most like it — its size and shape, how bright its pixels
are at several depths, how much of it is a darkening that keeps the tile's pattern (a
shadow) — measured by ``scripts/fit_castles.py`` on two renderers of different kinds and
stored as data (``vision/fitted/castles.json``).

The neighbours also say how sure the reading is: how often a vote for those castles
with that many agreeing neighbours was right on labelled frames held out of the fit
(`vision.vote_trust`) is the zone's confidence, so a reading wrong now and then is asked
about rather than called a move.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision import vote_trust
from vision.model_file import read_model

FITTED = Path(__file__).with_name("fitted") / "castles.json"
#: What the model is told of a blob, in this order (free of the camera's scale; the
#: brightness is the white-balanced atlas's, where the bare paper reads `PAPER`).
FEATURES = ("area", "radius", "long", "short", "solidity", "dark10", "dark50", "top80",
            "top95", "scaled80", "blue", "darkness", "likeness")
#: Neighbours that vote on a blob's castles.
NEIGHBOURS = 7
#: The bare paper's brightness after white balance.
PAPER = 235.0
#: The castle colours a reading may hold, in the order a label lists them.
COLOURS = ("white", "grey", "black")


class CastleCountError(ValueError):
    """A stored castle model that cannot be used; the message says why."""


def label(castles: list[str]) -> str:
    """A blob's castles as one word the model votes on: "" (none), "grey", "black+white"."""
    return "+".join(sorted(castles))


def castles_of(word: str) -> list[str]:
    """The castles a label names (`label`'s inverse)."""
    return [c for c in word.split("+") if c]


def castle_features(pixels: np.ndarray, blob: np.ndarray, castle_px: float, side_px: float,
                    swatches: tuple[float, float], darkness: float, likeness: float
                    ) -> np.ndarray:
    """The blob as the model sees it.

    `pixels` are the blob's white-balanced BGR pixels, `blob` its mask in its box,
    `castle_px` one castle's expected blob area here, `side_px` its side in atlas
    pixels. `swatches` are the calibration's grey bounds (white-grey, grey-black
    midpoints of its swatch castles' tops): the blob's 80th brightness percentile is
    placed on that scale too (0 at the black bound, 1 at the white), so a lamp that
    lights every castle alike moves the samples with it. `darkness` and `likeness` are
    how the blob darkened the bare table and how much of the tile's pattern it kept
    (`Reader._change`): a shadow darkens and keeps it, a castle replaces it.
    """
    mask = blob.astype(np.uint8)
    area = float(cv2.countNonZero(mask))
    points = cv2.findNonZero(mask)
    hull = float(cv2.contourArea(cv2.convexHull(points))) if points is not None else 0.0
    padded = cv2.copyMakeBorder(mask, 2, 2, 2, 2, cv2.BORDER_CONSTANT, value=0)
    radius = float(cv2.minMaxLoc(cv2.distanceTransform(padded, cv2.DIST_L2, 3))[1])
    long = short = 0.0
    if points is not None and len(points) >= 3:
        w, h = cv2.minAreaRect(points)[1]
        long, short = max(w, h) / max(1.0, side_px), min(w, h) / max(1.0, side_px)
    values = pixels.astype(np.float32)
    bright = values.max(axis=1)
    dark10, dark50, top80, top95 = (float(v) / PAPER for v in
                                    np.percentile(bright, [10, 50, 80, 95]))
    white, black = swatches
    scaled = (top80 * PAPER - black) / max(1.0, white - black)
    total = np.maximum(values.sum(axis=1), 1.0)
    blue = float(((values[:, 0] - values[:, 2]) / total).mean())
    return np.array([area / castle_px, radius / max(1.0, side_px), long, short,
                     area / max(1.0, hull, area), dark10, dark50, top80, top95, scaled,
                     blue, darkness, likeness], np.float32)


@dataclass
class CastleCount:
    """Labelled blobs (features, castles) and the scaling that makes them comparable.

    `trust`, per label voted for and number of agreeing neighbours, is how often such a
    vote was right on held-out frames (`vision.vote_trust`); None in a model fitted
    before it was kept, whose confidence is the vote's margin.
    """

    samples: np.ndarray
    labels: list[str]
    mean: np.ndarray
    scale: np.ndarray
    trust: dict[str, tuple[float, ...]] | None = None
    _scaled: np.ndarray | None = field(default=None, repr=False)

    def castles(self, features: np.ndarray) -> tuple[list[str], float]:
        """(castles, confidence): the neighbours' majority and what such a vote was worth
        on held-out frames (without a trust table: how far it is from a tie, 1 when all
        agree, 0 when the winner has no more votes than the rest)."""
        winner, agreeing = self.vote(features)
        if self.trust is not None:
            return castles_of(winner), vote_trust.worth(self.trust, winner, agreeing)
        share = agreeing / min(NEIGHBOURS, len(self.labels))
        return castles_of(winner), min(1.0, max(0.0, 2.0 * share - 1.0))

    def vote(self, features: np.ndarray) -> tuple[str, int]:
        """(label, how many of the nearest labelled blobs say so)."""
        if self._scaled is None:
            self._scaled = (self.samples - self.mean) / self.scale
        query = (np.asarray(features, np.float32) - self.mean) / self.scale
        distance = ((self._scaled - query) ** 2).sum(axis=1)
        k = min(NEIGHBOURS, len(self.labels))
        nearest = np.argsort(distance, kind="stable")[:k]
        votes: dict[str, int] = {}
        for i in nearest:                       # nearest first
            votes[self.labels[i]] = votes.get(self.labels[i], 0) + 1
        # The most votes; between equals, the one whose nearest neighbour is nearer
        # (`max` keeps the first of equals, and the tally is in order of nearness).
        winner = max(votes, key=votes.__getitem__)
        return winner, votes[winner]

    @classmethod
    def fit(cls, samples: np.ndarray, labels: list[str], groups: np.ndarray | None = None
            ) -> CastleCount:
        """The model of these labelled blobs; with `groups` (each blob's frame), its
        votes' trust measured by leaving each fold of frames out (`vision.vote_trust`)."""
        samples = np.asarray(samples, np.float32).reshape(-1, len(FEATURES))
        if len(labels) != len(samples):
            raise CastleCountError(f"{len(samples)} samples, {len(labels)} labels")
        if len(labels) < NEIGHBOURS:
            raise CastleCountError(f"{len(labels)} labelled blobs are too few to fit on")
        mean = samples.mean(axis=0)
        scale = samples.std(axis=0)
        scale[scale < 1e-6] = 1.0
        model = cls(samples, list(labels), mean, scale)
        if groups is None:
            return model
        names = sorted(set(labels))
        index = np.array([names.index(w) for w in labels], np.int64)

        def vote(train: np.ndarray, test: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            part = cls.fit(samples[train], [labels[i] for i in train])
            votes = [part.vote(samples[i]) for i in test]
            return (np.array([names.index(w) for w, _ in votes], np.int64),
                    np.array([n for _, n in votes], np.int64))

        won, agreeing, right = vote_trust.held_out_votes(groups, index, vote)
        rows = vote_trust.trust_table(won, agreeing, right, NEIGHBOURS)
        model.trust = {names[i]: tuple(row) for i, row in enumerate(rows)}
        return model

    def to_json(self) -> dict[str, object]:
        return {"features": list(FEATURES), "neighbours": NEIGHBOURS,
                "mean": [round(float(v), 4) for v in self.mean],
                "scale": [round(float(v), 4) for v in self.scale],
                "samples": [[round(float(v), 3) for v in row] for row in self.samples],
                "labels": list(self.labels),
                **({} if self.trust is None else
                   {"trust": {w: list(row) for w, row in sorted(self.trust.items())}})}

    @classmethod
    def from_json(cls, data: dict[str, object], where: str = "castle model") -> CastleCount:
        try:
            if data["features"] != list(FEATURES):
                raise CastleCountError(f"{where}: fitted on features {data['features']}, "
                                       f"this reader measures {list(FEATURES)}")
            samples = np.asarray(data["samples"], np.float32).reshape(-1, len(FEATURES))
            labels = [str(w) for w in data["labels"]]  # type: ignore[attr-defined]
            if len(samples) != len(labels) or not labels:
                raise CastleCountError(f"{where}: {len(samples)} samples, {len(labels)} labels")
            bad = [w for w in labels if any(c not in COLOURS for c in castles_of(w))]
            if bad:
                raise CastleCountError(f"{where}: unknown castles {bad[0]!r}")
            raw = data.get("trust")
            trust = None if raw is None else vote_trust.read_table(raw, NEIGHBOURS)
            return cls(samples, labels, np.asarray(data["mean"], np.float32),
                       np.asarray(data["scale"], np.float32), trust)
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, CastleCountError):
                raise
            raise CastleCountError(f"{where}: broken ({exc})") from exc

    @classmethod
    def load(cls, path: Path = FITTED) -> CastleCount:
        return cls.from_json(read_model(path, CastleCountError), str(path))


@functools.cache
def stored() -> CastleCount | None:
    """The model this release ships (None before ``scripts/fit_castles.py`` first ran):
    read once, every reader shares it (it is never changed after loading)."""
    return CastleCount.load() if FITTED.exists() else None
