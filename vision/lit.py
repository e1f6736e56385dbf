"""A cube shows its top to the camera, lit by the lamp as the paper around it is.

Against the bare table a cube is what differs from the tile under it, and in a hard light
so is every shadow: a small bulb in a dark room leaves shadows lit by the room alone, so
dark that they differ from the bare table more than any drift of light does, and tinted
by the room's light (a cool window under a warm lamp makes them bluish: dark blue cubes to
a colour table). A shadow and a cube's shaded sides are lit alike, so neither colour nor
darkness tells them apart. The top does: seen from above it faces the lamp as the paper
does, and after white balance (paper = `colours.WHITE_LEVEL` in every zone) it is about
as bright as the same piece measured on the calibration's swatches — wherever it lies on
the mat and whatever the lamp's colour — and as colourful: a shadow tinted by the room,
or its lighter rim, is a greyish blue, not the cube's blue. A blob none of whose pixels
reach that is a shadow, whatever colour the table gives it.

The bounds are fitted (``scripts/fit_lit.py``: the least brightness and colour true cubes
of two renderers' labelled frames show) and stored as data; without them nothing is
dropped.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

FITTED = Path(__file__).with_name("fitted") / "lit.json"
#: Which of a blob's pixels speaks for its top: the brightest tenth. Not the brightest
#: pixel (a speck of glare or noise), not the middle (a cube's top is a third of what
#: differs of it when its sides and shadow join in).
TOP_PERCENTILE = 90.0


class LitError(ValueError):
    """A stored lit bound that cannot be used; the message says why."""


@dataclass(frozen=True)
class Top:
    """How a blob's top compares with its piece colour as calibrated (both after white
    balance). `lit`: its brightness (the three channels' sum) over the colour's;
    `colour`: how much of the colour's departure from grey it shows (its own departure
    projected on the colour's, over the colour's): 1 for the swatch itself, 0 for grey
    of any brightness."""

    lit: float
    colour: float


def top(pixels: np.ndarray, colour: Sequence[float]) -> Top:
    """`Top` of a blob's pixels (BGR, n x 3), each measure taken at its brightest tenth."""
    if pixels.size == 0:
        return Top(0.0, 0.0)
    tint, spread, own_sum = _colour(tuple(colour))
    px = np.asarray(pixels, np.float32).reshape(-1, 3)
    both = np.empty((2, len(px)), np.float32)
    if pixels.dtype == np.uint8:
        _byte_sums(px, both[0])
        # numpy's mean exactly: the float32 sum over the count, an intp (so in float64,
        # cast back to float32)
        mean = np.true_divide(both[0], np.intp(3), dtype=np.float64).astype(np.float32)
        mean = mean[:, None]
    else:
        px.sum(axis=1, out=both[0])
        mean = px.mean(axis=1, keepdims=True)
    np.divide((px - mean) @ tint, spread, out=both[1])
    lit, shown = _brightest_tenth(both)
    return Top(float(lit) / own_sum, float(shown))


@functools.lru_cache(maxsize=64)
def _colour(colour: tuple[float, ...]) -> tuple[np.ndarray, float, float]:
    """A piece colour's side of `top` (its departure from grey, that departure's square
    length and its brightness, at least 1): the same for every blob of the colour."""
    own = np.asarray(colour, np.float32)
    tint = own - own.mean()
    tint.flags.writeable = False
    return tint, max(1.0, float(tint @ tint)), max(1.0, float(own.sum()))


def _byte_sums(px: np.ndarray, out: np.ndarray) -> None:
    """Per pixel, its three channels' sum: numpy's ``sum(axis=1)`` exactly for pixels
    that were bytes (whole numbers under 766 add exactly in any order), in a fraction of
    the time numpy takes to reduce rows three wide."""
    np.add(px[:, 0], px[:, 1], out=out)
    np.add(out, px[:, 2], out=out)


def _brightest_tenth(rows: np.ndarray) -> np.ndarray:
    """Per row, `np.percentile(row, TOP_PERCENTILE)` exactly (numpy's linear method, its
    float32 arithmetic), by one partition of both rows: numpy's own call costs more than
    the rest of a blob's measures, and a read weighs some fifty blobs."""
    n = rows.shape[-1]
    index = TOP_PERCENTILE / 100.0 * (n - 1)
    lo = int(np.floor(index))
    hi = min(lo + 1, n - 1)
    part = np.partition(rows, (lo, hi) if hi != lo else lo, axis=-1)
    below, above = part[:, lo], part[:, hi]
    t = index - lo
    step = above - below
    # numpy's lerp: from the nearer end, the weight cast to the rows' float32
    within: np.ndarray = (above - step * np.float32(1 - t) if t >= 0.5
                          else below + step * np.float32(t))
    return within


@dataclass(frozen=True)
class LitBound:
    """Below `lit` or `colour` no true cube's top was seen in the labelled frames."""

    lit: float
    colour: float

    def shows_top(self, seen: Top) -> bool:
        return seen.lit >= self.lit and seen.colour >= self.colour

    @classmethod
    def load(cls, path: Path = FITTED) -> LitBound:
        try:
            model = json.loads(path.read_text(encoding="utf-8"))["model"]
            return cls(float(model["lit"]), float(model["colour"]))
        except (OSError, KeyError, TypeError, ValueError) as exc:
            raise LitError(f"{path}: fitted 'model' missing or broken ({exc})") from exc


@functools.cache
def stored() -> LitBound | None:
    """The bound this release ships (None before ``scripts/fit_lit.py`` first ran)."""
    return LitBound.load() if FITTED.exists() else None


__all__ = ["LitBound", "LitError", "Top", "stored", "top"]
