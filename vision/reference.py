"""The bare table: the mat, the tiles and the court cards with no piece on them.

We cannot know what a real table's tiles look like (busy illustrations of wheat fields,
red roofs, rivers and flowers, in the cube colours themselves) nor the lamp above them.
So before any piece is placed the appliance looks at the bare table once and keeps that
picture, in mat (atlas) coordinates and white-balanced like every frame. A piece is then
whatever differs from it, and only that is classified: tile art is never a piece because
it is the reference, whatever its colours.

The comparison must survive what changes between the reference and a frame without any
piece being placed: the light (a lamp drifting, a cloud, glare), the shadows that pieces
and hands cast, and sensor noise. Per zone the frame is first brought to the reference's
light (a gain and an offset per channel, fitted on the pixels that still look like the
reference).
A pixel is then a piece's when its colour changed beyond what a change of brightness
explains, or its brightness changed more than any shadow or drift does. The thresholds
are fitted by ``scripts/fit_difference.py`` from labelled frames and stored as data
(``vision/fitted/difference.json``), never set by hand.
"""

from __future__ import annotations

import base64
import functools
import json
import math
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from vision import colours
from vision.atlas import Atlas

FITTED = Path(__file__).with_name("fitted") / "difference.json"
#: A cell's own light is measured on every `SAMPLE`-th pixel: plenty for a median.
SAMPLE = 5
_ONES = np.ones((1, 3), np.float32)
#: Atlas rows compared at a time (the temporaries of a read are a band's worth).
BAND_ROWS = 64
#: How far (atlas pixels each way) a nudged tile is looked for.
NUDGE_PX = 4
#: A zone's light, gain and offset per channel (`Comparison.gains`), is fitted in this
#: many rounds on the pixels it brings within `AFFINE_NEAR` grey levels and
#: `AFFINE_SHARE` of the reference, if at least `AFFINE_LEAST` of the samples; a channel
#: varying less than `AFFINE_SPREAD` (grey levels squared) keeps a gain alone. These
#: say what noise is (a JPEG's few grey levels), not what a table looks like.
AFFINE_ROUNDS = 2
AFFINE_NEAR = 6.0
AFFINE_SHARE = 0.06
AFFINE_LEAST = 24
AFFINE_SPREAD = 25.0
#: Where `scripts/fit_light.py` stores the share of a channel's variance among those
#: pixels that the bare table must explain for the zone's light line to be used
#: (`Comparison.explained`).
LIGHT_FITTED = FITTED.with_name("light.json")
#: A fitted gain outside these multiples of the zone's plain gain (the median ratio) is
#: a piece among the samples, not light: the plain gain is kept. A guard, not a fit.
AFFINE_RANGE = (0.3, 3.0)


#: The private PNG chunks (ancillary, safe to copy) that keep the border and the glare,
#: and their headers.
BORDER_CHUNK = b"cbRd"
BORDER_TAG = b"carolus-border/1\0"
GLARE_CHUNK = b"cbGl"
GLARE_TAG = b"carolus-glare/1\0"
_AFTER_HEADER = 8 + 25          # the signature and the IHDR chunk


def _chunk_in(png: bytes, kind_wanted: bytes, tag: bytes) -> bytes | None:
    """The values of a private chunk of a bare table's PNG (after its tag), or None
    (none kept, or damaged)."""
    at = 8
    while at + 12 <= len(png):
        (length,) = struct.unpack(">I", png[at:at + 4])
        kind, body = png[at + 4:at + 8], png[at + 8:at + 8 + length]
        if kind == b"IDAT" or len(body) < length:
            return None
        crc = png[at + 8 + length:at + 12 + length]
        if kind == kind_wanted and body.startswith(tag):
            if crc != struct.pack(">I", zlib.crc32(kind + body)):
                return None
            return body[len(tag):]
        at += 12 + length
    return None


def _chunk(kind: bytes, body: bytes) -> bytes:
    return (struct.pack(">I", len(body)) + kind + body
            + struct.pack(">I", zlib.crc32(kind + body)))


def _border_in(png: bytes) -> np.ndarray | None:
    """The border kept in a bare table's PNG, or None (none kept, or damaged)."""
    values = _chunk_in(png, BORDER_CHUNK, BORDER_TAG)
    if values is None or len(values) % 6:
        return None
    return np.frombuffer(values, "<f2").astype(np.float32).reshape(-1, 3)


def _glare_in(png: bytes) -> np.ndarray | None:
    """The glare map kept in a bare table's PNG (rows, columns, then the values), or
    None (none kept, or damaged)."""
    values = _chunk_in(png, GLARE_CHUNK, GLARE_TAG)
    if values is None or len(values) < 4:
        return None
    rows, cols = struct.unpack("<HH", values[:4])
    if len(values) != 4 + 2 * rows * cols:
        return None
    return np.frombuffer(values[4:], "<f2").astype(np.float32).reshape(rows, cols)


class BareTableError(ValueError):
    """A stored bare-table picture that cannot be used; the message says why."""


@dataclass(frozen=True)
class BareTable:
    """The white-balanced atlas of the table without pieces.

    `atlas_shape` ties it to the atlas it was cut with: a picture learnt with another
    layout or scale cannot be compared pixel for pixel and is refused on use.
    `border`: the mat's paper border as it was then (`vision.occlusion.BorderWatch.profile`),
    against which arms reaching in are told from the lamp's own patches; None when it was
    not kept (a picture stored before it was).
    `glare`: the glare map that was undone in the picture (`vision.glare.GlareMap.grid`
    over the mat; all zeros where there was none). A lamp's reflection stays where it is
    while camera and lamp do, so every frame compared with the picture has the same map
    undone: measured again on each frame it came and went with the light of the border
    paper, and a tile under it, its art's contrast stretched in one frame and not in the
    next, differed from its picture all over (3-player hard camera game 900328: a blue
    river read as up to 42 blue cubes). None when it was not kept (a picture stored
    before it was): each frame's own map, as then.
    """

    atlas: np.ndarray
    border: np.ndarray | None = field(default=None, compare=False)
    glare: np.ndarray | None = field(default=None, compare=False)

    @property
    def shape(self) -> tuple[int, int]:
        return (int(self.atlas.shape[0]), int(self.atlas.shape[1]))

    def to_bytes(self) -> bytes:
        """Lossless PNG: the reference is compared pixel for pixel, JPEG would blur it.
        The border rides in a private chunk, so the file stays one PNG any viewer opens."""
        ok, buf = cv2.imencode(".png", self.atlas, [cv2.IMWRITE_PNG_COMPRESSION, 6])
        if not ok:
            raise BareTableError("the bare table could not be encoded")
        png = bytes(buf)
        chunks = b""
        if self.border is not None:
            chunks += _chunk(BORDER_CHUNK, BORDER_TAG + self.border.astype("<f2").tobytes())
        if self.glare is not None:
            rows, cols = self.glare.shape
            chunks += _chunk(GLARE_CHUNK, GLARE_TAG + struct.pack("<HH", rows, cols)
                             + self.glare.astype("<f2").tobytes())
        return png[:_AFTER_HEADER] + chunks + png[_AFTER_HEADER:]

    @classmethod
    def from_bytes(cls, data: bytes) -> BareTable:
        img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
        if img is None:
            raise BareTableError("the stored bare table is not a PNG image")
        return cls(img, _border_in(data), _glare_in(data))

    def to_text(self) -> str:
        """Base64 of the PNG, for JSON files (the calibration)."""
        return base64.b64encode(self.to_bytes()).decode("ascii")

    @classmethod
    def from_text(cls, text: str) -> BareTable:
        try:
            data = base64.b64decode(text.encode("ascii"), validate=True)
        except (ValueError, UnicodeEncodeError) as exc:
            raise BareTableError("the stored bare table is not base64 text") from exc
        return cls.from_bytes(data)


@dataclass(frozen=True)
class Difference:
    """How far a pixel must differ from the bare table to be a piece's (fitted).

    `chroma`: change of colour not explained by a change of brightness, as a share of
    the pixel's brightness (a shadow scales all channels alike and changes none);
    `chroma_coloured`: the same for a pixel whose colour is a piece colour (the table's
    pixels of those colours vary less than its art at large); `brighter` / `darker`:
    brightness over the reference's beyond which no drift, glare or shadow reaches;
    `changed`: grey levels a pixel must move to count as a change of its zone since the
    zone was last read; `stale`: share of a zone's pixels differing in no piece's colour
    beyond which the bare table no longer shows that zone.
    """

    chroma: float
    brighter: float
    darker: float
    chroma_coloured: float = 1.0
    changed: float = 24.0
    stale: float = 1.0

    def decide(self, unexplained: np.ndarray, ratio: np.ndarray, coloured: np.ndarray
               ) -> np.ndarray:
        """Which pixels are a piece's, from their features."""
        return ((unexplained > self.chroma) | (ratio > self.brighter) | (ratio < self.darker)
                | (coloured & (unexplained > self.chroma_coloured)))

    @classmethod
    def load(cls, path: Path = FITTED) -> Difference:
        return cls(**_fitted(path, "thresholds"))


def _fitted(path: Path, key: str) -> dict[str, float]:
    """The numbers a fitting script stored under `key` in `path`."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {k: float(v) for k, v in data[key].items()}
    except (OSError, KeyError, TypeError, ValueError, AttributeError) as exc:
        raise BareTableError(f"{path}: fitted {key!r} missing or broken ({exc})") from exc


@functools.cache
def stored_explained(path: Path = LIGHT_FITTED) -> float:
    """The share of variance fitted by ``scripts/fit_light.py`` (`Comparison.explained`)."""
    return _fitted(path, "model")["explained"]


def stored_model(path: Path, keys: tuple[str, ...]) -> dict[str, float] | None:
    """The numbers `keys` of the `model` a fitting script stored in `path`; None before it
    is fitted (or when the file lacks one of them): the reader then keeps to what it did
    without them."""
    try:
        model = json.loads(path.read_text(encoding="utf-8"))["model"]
        return {k: float(model[k]) for k in keys}
    except (OSError, KeyError, TypeError, ValueError):
        return None


ROWS_FITTED = FITTED.with_name("rows.json")
#: A sample along a court row is the row's colour when at least this share of its pixels
#: across the row is (the plain reader's rule; against the bare table the share is fitted,
#: `RowModel.share`).
ROW_SHARE = 0.3
#: A run of a row's colour shorter than this (mm) is a speck, not a cube (a cube is 8 mm;
#: blur at a seam or a neighbour's rim leaves a millimetre or two of colour). Set, not
#: fitted: the fit found the same counts with 2, 3 or 4.
SHORTEST_RUN_MM = 3.0


def margin(value: float, low: float, high: float) -> float:
    """How safely `value` lies inside the band [low, high) that decided a count: 1 at a
    quarter of the band's width from either edge or further in, 0 on an edge."""
    quarter = max(1e-6, (high - low) / 4)
    return min(1.0, max(0.0, float(min(value - low, high - value) / quarter)))


@dataclass(frozen=True)
class RowModel:
    """How many cubes a court row holds, from the runs of its colour along its line
    (fitted by ``scripts/fit_rows.py`` on two renderers of different kinds).

    People leave gaps (a millimetre or two, a wider one after every fifth cube); where a
    gap shows, the row's colour breaks into runs, and each run is counted on its own:
    `per_cube_mm` a cube, less `offset_mm` for what the camera adds or loses at a run's
    ends (a cube's side, its shadow, the blur). Counting run by run, a row's gaps never
    add up to a phantom cube, and a length's error is a run's, not the row's. The model
    counts every run of at least `SHORTEST_RUN_MM` as at least one cube.

    A run of `measured_from` cubes or more is counted in its own cubes as well: the pitch
    of its seams (`vision.seams`) weighs `pitch_weight` in the length a cube, the fitted
    one the rest. Fifteen cubes of a real set, with the gaps people leave, are their own
    length, a cube more or less than fifteen fitted ones.

    It used to be the row's whole extent, less a fitted length for each wide gap and for
    the camera's lean: both terms explained our own renderer's rows and counted path-traced
    rows worse than no term at all (on the path tracer a cube's side in the lamp's shade is
    not its colour, and its seams dip like gaps), so the renderer they taught was ours.
    """

    per_cube_mm: float
    offset_mm: float
    share: float = ROW_SHARE
    #: How far a long run's estimate strays, a share of its length (the rows' root mean
    #: square relative error, fitted): a row's own cubes and gaps differ from the fitted
    #: length a cube by a few per cent, so a run of twelve is a third of a cube off as
    #: often as not, however squarely it rounds. 0: no such doubt.
    spread: float = 0.0
    #: How much of a long run's length a cube is its seams' measured pitch (0: none).
    pitch_weight: float = 0.0
    #: From how many cubes (by the fitted length) a run's pitch is measured.
    measured_from: float = 0.0
    #: The pitches (mm) a run of cubes can show, fitted: a run whose seams repeat most
    #: strongly at a pitch outside them is counted by its length alone. Cubes a run holds
    #: with no gap showing lie at least a side apart and not much more; under a hard lamp
    #: a cube's shadow and its lit side edge repeat at other spacings, and a pitch of
    #: 11.8 mm made a run of 14 cubes 12 (per-frame tuning table 23059). 0: no bound.
    pitch_least_mm: float = 0.0
    pitch_most_mm: float = 0.0

    def spans(self, share: np.ndarray, scale: float) -> list[tuple[int, int]]:
        """The runs of the row's colour, as [start, end) samples (`scale` a mm): where
        at least `share` of the row's width is the colour, specks left out."""
        on = np.concatenate(([0], (share >= self.share).astype(np.int8), [0]))
        edges = np.diff(on)
        starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
        return [(int(a), int(b)) for a, b in zip(starts, ends, strict=True)
                if (b - a) / scale >= SHORTEST_RUN_MM]

    def runs(self, share: np.ndarray, scale: float) -> list[float]:
        """The lengths (mm) of the runs of the row's colour (`spans`)."""
        return [(b - a) / scale for a, b in self.spans(share, scale)]

    def measures(self, run_mm: float) -> bool:
        """Is a run this long counted by its own seams' pitch too?"""
        return self.pitch_weight > 0 and (run_mm + self.offset_mm) / self.per_cube_mm >= (
            self.measured_from)

    def estimates(self, runs_mm: np.ndarray, pitches_mm: np.ndarray) -> np.ndarray:
        """The cubes (not rounded) each run holds, its seams' pitch given where measured
        (NaN: not), for any number of runs at once: the reader's rows and the fit's
        thousands are counted by the same arithmetic."""
        x: np.ndarray = (runs_mm + self.offset_mm) / self.per_cube_mm
        if self.pitch_weight > 0:
            use = (x >= self.measured_from) & ~np.isnan(pitches_mm)
            if self.pitch_most_mm > 0:
                # (NaN compares False: a pitch not measured stays unused)
                use &= (pitches_mm >= self.pitch_least_mm) & (pitches_mm <= self.pitch_most_mm)
            per_cube = np.where(use, self.pitch_weight * pitches_mm
                                + (1 - self.pitch_weight) * self.per_cube_mm, 1.0)
            x = np.where(use, (runs_mm + self.offset_mm) / per_cube, x)
        return x

    def count(self, runs: list[float], pitches: Sequence[float | None] | None = None
              ) -> tuple[int, list[tuple[int, float]]]:
        """The row's cubes, and each run's cubes with its unrounded estimate (for the
        doubt); `pitches`, if given, each run's seams' pitch (None: not measured)."""
        measured = [np.nan] * len(runs) if pitches is None else [
            np.nan if p is None else p for p in pitches]
        xs = self.estimates(np.asarray(runs, np.float64), np.asarray(measured, np.float64))
        each = [(max(1, int(np.floor(x + 0.5))), float(x)) for x in xs]
        return sum(k for k, _ in each), each

    def sure(self, k: int, x: float) -> float:
        """How sure a run counted `k` cubes from its estimate `x` is (0: a coin flip,
        1: sure): twice the chance, less one, that an error of `spread` × `x` (normal)
        leaves the rounding as it is. The count's doubt grows with the run, where one
        cube more or less is a few per cent of its length; a run counted one cube is
        never none (`runs` leaves specks out), so only its upper edge counts."""
        if self.spread <= 0:
            return 1.0
        room = 0.5 if k == 1 and x < 1 else 0.5 - abs(x - k)
        if room <= 0:
            return 0.0
        return max(0.0, 2.0 * math.erf(room / (self.spread * max(x, 1.0) * math.sqrt(2)))
                   - 1.0)

    def confidence(self, k: int, x: float) -> float:
        """How sure the reader is of a run counted `k` cubes from its estimate `x`: a run
        counted one cube however short it is is doubted only when it is nearly long
        enough for two; any run near the edge of its count's band (`margin`), and a long
        one also as its length errs (`sure`)."""
        return min(margin(x, k - 0.5 if k > 1 else -1.0, k + 0.5), self.sure(k, x))

    @classmethod
    def load(cls, path: Path = ROWS_FITTED) -> RowModel:
        return cls(**_fitted(path, "model"))


def _median(values: np.ndarray) -> np.ndarray:
    """Per row, the median of float32 columns: `np.median(values, axis=1)` exactly (the
    middle value, or the mean of the middle two in float32), without its overhead, which
    was most of a read's light measurement (two medians a zone, some fifty zones)."""
    ordered = np.sort(values, axis=1)
    middle = values.shape[1] // 2
    if values.shape[1] % 2:
        odd: np.ndarray = ordered[:, middle]
        return odd
    even: np.ndarray = (ordered[:, middle - 1] + ordered[:, middle]) / np.float32(2)
    return even


class _Samples(NamedTuple):
    """A zone's pixels sampled for its light: flat atlas indices, the bare table's
    channels as rows (+2, off zero), in float64 and squared, each sample's zone, and
    per zone (1-based) where its run ends (`bounds[k - 1]:bounds[k]`); the zones
    present and where each one's run starts (for `np.add.reduceat`)."""

    flat: np.ndarray
    bare: np.ndarray
    bare64: np.ndarray
    bare64_sq: np.ndarray
    zone: np.ndarray
    bounds: np.ndarray
    present: np.ndarray
    starts: np.ndarray


class Comparison:
    """One bare table compared with frames of the same atlas, zone by zone."""

    def __init__(self, bare: BareTable, atlas: Atlas, difference: Difference,
                 explained: float | None = None) -> None:
        """`explained`: the share of a channel's variance the bare table must explain for
        a zone's light line to be used (`gains`); by default the fitted one."""
        zone_index, rows = atlas.zone_index, atlas.colour_rows
        if bare.shape != zone_index.shape:
            raise BareTableError(
                f"the bare table was learnt with another layout or scale "
                f"({bare.shape[1]}x{bare.shape[0]} atlas, this reader's is "
                f"{zone_index.shape[1]}x{zone_index.shape[0]})")
        self.bare = bare
        self.rows = rows
        self.difference = difference
        self.explained = stored_explained() if explained is None else explained
        # The bare table as now compared (nudged tiles found again move in it): kept as
        # the picture's own bytes, made float a band at a time (`features`), so a read
        # holds no atlas-sized float copy of it.
        self._ref = bare.atlas[:rows].copy()
        # What reads of single pieces ask of the reference again and again (its colour
        # table index, its channels' sum): worked out for the whole reference once, and
        # again only after `reregister` moved part of it.
        self._ref_index: np.ndarray | None = None
        self._ref_sum: np.ndarray | None = None
        # Each zone's rectangle in the rows compared: its light is set zone by zone.
        self._boxes = [(c.index, c.x, c.y, c.w, min(c.h, rows - c.y)) for c in atlas.cells
                       if c.y < rows]
        # Per band of `features`, the part of each zone's rectangle in it (in the band's
        # rows): the same every read, and some thousand boxes to clip a read otherwise.
        self._band_boxes = [
            [(k, max(y, top) - top, min(y + h, top + BAND_ROWS) - top, x, x + w)
             for k, x, y, w, h in self._boxes if max(y, top) < min(y + h, top + BAND_ROWS)]
            for top in range(0, rows, BAND_ROWS)]
        index = zone_index[:rows]
        self._cells = int(zone_index.max())
        # Sampled pixels of each zone, for measuring its light against the reference:
        # zone by zone, with the bare table's side of their ratio (the same every frame).
        ys, xs = np.nonzero(index[::SAMPLE, ::SAMPLE])
        ys, xs = ys * SAMPLE, xs * SAMPLE
        cell = index[ys, xs].astype(np.intp)
        order = np.argsort(cell, kind="stable")
        ys, xs = ys[order], xs[order]
        # As flat pixel indices, and the channels as rows (numpy is quick along long
        # rows, slow across 3-wide ones).
        bare_px = np.ascontiguousarray(bare.atlas[ys, xs].T, np.float32) + 2.0
        bare64 = bare_px.astype(np.float64)
        # With the bare side's squares, for its own spread in each zone's light fit
        # (the same every read: worked out once, not twice a frame).
        self._samples = self._sample_runs(ys * zone_index.shape[1] + xs, bare_px, bare64,
                                          bare64 * bare64, cell[order])
        self._index = index
        self._zone_px = np.bincount(index.ravel(), minlength=self._cells + 1)
        self._lost: set[int] = set()
        self._territory = np.zeros(self._cells + 1, bool)
        for c in atlas.cells:
            self._territory[c.index] = c.zone.kind == "territory"

    def _sample_runs(self, flat: np.ndarray, bare: np.ndarray, bare64: np.ndarray,
                     bare64_sq: np.ndarray, zone: np.ndarray) -> _Samples:
        """Samples lying zone by zone, with where each zone's run starts and ends."""
        present = np.unique(zone)
        return _Samples(flat, bare, bare64, bare64_sq, zone,
                        np.searchsorted(zone, np.arange(1, self._cells + 2)), present,
                        np.searchsorted(zone, present))

    def _samples_of(self, zones: np.ndarray) -> _Samples:
        """The samples of `zones` (per atlas cell index) only, still zone by zone."""
        every = self._samples
        keep = np.flatnonzero(zones[every.zone])
        return self._sample_runs(every.flat[keep], every.bare[:, keep],
                                 every.bare64[:, keep], every.bare64_sq[:, keep],
                                 every.zone[keep])

    def gains(self, atlas: np.ndarray, zones: np.ndarray | None = None) -> np.ndarray:
        """Per zone, the affine map of each channel from the frame back to the
        reference's light, measured on pixels where only light changed: an array of
        shape (zones + 1, 3, 4), the rows of OpenCV's `transform` (scale per channel on
        the diagonal, offset in the last column). `zones` (per atlas cell index) limits
        the measuring to those zones; the others keep the identity map.

        A camera's exposure and the lamp's level scale every channel; glare and the
        room's stray light add to it, and a camera's black level and tone curve bend
        its dark end: on dark saturated art (a river's blue has almost no red) a gain
        alone leaves the dark channels changed in colour, and art reads as pieces. So
        each channel gets a gain and an offset, fitted on the pixels that a first gain
        (the median ratio, a second median over the pixels near it) already explains
        to within a few grey levels, then on those the fit itself explains. Pieces,
        hands and shadows cover a minority of a zone's pixels and fall outside both.
        """
        samples = self._samples if zones is None else self._samples_of(zones)
        flat, bare, bare64, bare64_sq, zone, bounds, present, starts = samples
        pixels = np.ascontiguousarray(np.take(atlas.reshape(-1, 3), flat, axis=0).T,
                                      np.float32) + 2.0
        ordered = pixels / bare
        cells = self._cells + 1
        scale = np.ones((cells, 3), np.float32)
        for k in present:
            part = ordered[:, bounds[k - 1]:bounds[k]]
            if part.shape[1] < 8:
                continue
            first = _median(part)
            near = (np.abs(part / first[:, None] - 1.0) < 0.15).all(axis=0)
            gain = _median(part[:, near]) if near.sum() >= 8 else first
            scale[k] = 1.0 / np.maximum(gain, np.float32(0.05))
        offset = np.zeros((cells, 3), np.float32)
        # The fit's sums for every zone at once: the samples lie zone by zone, so one
        # `reduceat` over their runs adds up each zone's (some fifty zones, each a few
        # hundred samples).
        pixels64 = pixels.astype(np.float64)
        for _ in range(AFFINE_ROUNDS):
            back = pixels * scale[zone].T + offset[zone].T
            good: np.ndarray = np.all(np.abs(back - bare) < AFFINE_NEAR + AFFINE_SHARE * bare,
                                      axis=0)
            # In float64: a zone's sums of squares pass what float32 holds exactly.
            f, r = pixels64 * good, bare64 * good
            sums = np.add.reduceat(np.concatenate([good[None].astype(np.float64), f, r,
                                                   f * pixels64, f * bare64,
                                                   good * bare64_sq]),
                                   starts, axis=1)
            n = np.zeros(cells, np.float64)
            n[present] = sums[0]
            enough = n >= AFFINE_LEAST
            each = np.maximum(n, 1.0)[:, None]
            moments = np.zeros((5, cells, 3), np.float64)
            moments[:, present] = sums[1:].reshape(5, 3, -1).transpose(0, 2, 1)
            fm, rm = moments[0] / each, moments[1] / each
            spread = moments[2] / each - fm * fm
            bare_spread = moments[4] / each - rm * rm
            covariance = moments[3] / each - fm * rm
            fitted = covariance / np.maximum(spread, 1e-6)
            # A channel whose pixels barely vary (plain paper) cannot tell a gain from an
            # offset: it keeps its gain. The bare table's pixels must vary, not only the
            # frame's: a lamp's fall-off or a shade's soft edge spreads the frame's paper
            # while the bare paper stays one grey, and the line fitted to that flattened
            # every colour towards the paper's (4-player hard camera game 900405: pink
            # cubes in a reserve read as paper all game, gain 0.5 and offset 110 in green).
            # Nor can a channel whose frame the bare table explains only in part: the
            # line fitted each way (the frame from the bare table, and back) then
            # disagree by that part, and the light's true line lies between them. A
            # card's print varies enough, and a penumbra over the rest of the card flattened
            # the line all the same (3-player hard camera game 900366: three pale pink
            # cubes on a white reserve card, gain 0.62 and offset 87 in green, the
            # frame's green 58 % explained, never seen).
            explained = covariance * covariance / np.maximum(spread * bare_spread, 1e-9)
            usable = np.asarray(enough[:, None] & (spread >= AFFINE_SPREAD)
                                & (bare_spread >= AFFINE_SPREAD)
                                & (explained >= self.explained)
                                & (fitted > AFFINE_RANGE[0] * scale)
                                & (fitted < AFFINE_RANGE[1] * scale))
            usable[0] = False
            scale = np.where(usable, fitted, scale).astype(np.float32)
            offset = np.where(usable, rm - scale * fm, offset).astype(np.float32)
        maps = np.zeros((cells, 3, 4), np.float32)
        maps[:, [0, 1, 2], [0, 1, 2]] = scale
        # The samples carry the +2 that keeps ratios off zero; the atlas does not.
        maps[:, :, 3] = offset + 2.0 * scale - 2.0
        return maps

    def features(self, atlas: np.ndarray, gains: np.ndarray, zones: np.ndarray | None = None
                 ) -> tuple[np.ndarray, np.ndarray]:
        """Per pixel of the first `rows` atlas rows: the colour change a change of light
        does not explain (share of brightness), and brightness over the reference's.
        `zones` (per atlas cell index) limits the comparing to those zones' rectangles:
        elsewhere nothing changed (0 and 1), as a zone whose counts a read keeps needs
        no comparing."""
        rows, width = self.rows, atlas.shape[1]
        if zones is not None:
            unexplained = np.zeros((rows, width), np.float32)
            ratio = np.ones((rows, width), np.float32)
            for k, x, y, w, h in self._boxes:
                if zones[k]:
                    self._compare(atlas, gains, [(k, 0, h, 0, w)], y, y + h, x, x + w,
                                  unexplained, ratio)
            return unexplained, ratio
        unexplained = np.empty((rows, width), np.float32)
        ratio = np.empty((rows, width), np.float32)
        # A band of rows at a time: every step is per pixel, so the result is the same as
        # for the whole atlas at once, and a read's temporaries stay a band's worth (a
        # Raspberry Pi has little memory to spare).
        for top, boxes in zip(range(0, rows, BAND_ROWS), self._band_boxes, strict=True):
            self._compare(atlas, gains, boxes, top, min(rows, top + BAND_ROWS), 0, width,
                          unexplained, ratio)
        return unexplained, ratio

    def _compare(self, atlas: np.ndarray, gains: np.ndarray,
                 boxes: Sequence[tuple[int, int, int, int, int]], y0: int, y1: int, x0: int,
                 x1: int, unexplained: np.ndarray, ratio: np.ndarray) -> None:
        """`features` of one rectangle of the atlas, each zone's `boxes` in it (in the
        rectangle's own coordinates) brought back to the reference's light by its gains."""
        f = atlas[y0:y1, x0:x1].astype(np.float32)
        for k, by0, by1, bx0, bx1 in boxes:
            box = f[by0:by1, bx0:bx1]
            cv2.transform(box, gains[k], dst=box)
        ref = self._ref[y0:y1, x0:x1].astype(np.float32)
        f_sum = cv2.transform(f, _ONES) + np.float32(3.0)
        # Written straight into the results' rows (OpenCV's dst), not copied there.
        part = cv2.divide(f_sum, self.picture_sum(y0, y1, x0, x1) + np.float32(3.0),
                          dst=ratio[y0:y1, x0:x1])
        explained = cv2.multiply(ref, cv2.merge((part, part, part)))
        cv2.divide(cv2.transform(cv2.absdiff(f, explained), _ONES), f_sum + np.float32(30.0),
                   dst=unexplained[y0:y1, x0:x1])

    def foreground(self, atlas: np.ndarray, gains: np.ndarray, coloured: np.ndarray
                   ) -> np.ndarray:
        """Pixels (of the first `rows` atlas rows) that are a piece's, not the table's.

        `coloured` marks pixels whose colour is a piece colour.
        """
        unexplained, ratio = self.features(atlas, gains)
        return self.difference.decide(unexplained, ratio, coloured)

    def picture(self, y0: int, y1: int, x0: int, x1: int) -> np.ndarray:
        """The bare table as now compared (nudged tiles found again moved with them)."""
        picture: np.ndarray = self._ref[y0:y1, x0:x1].copy()
        return picture

    def picture_index(self, y0: int, y1: int, x0: int, x1: int) -> np.ndarray:
        """`colours.table_index` of `picture` (a view: not to be written to)."""
        if self._ref_index is None:
            self._ref_index = colours.table_index(self._ref)
        return self._ref_index[y0:y1, x0:x1]

    def picture_sum(self, y0: int, y1: int, x0: int, x1: int) -> np.ndarray:
        """The three channels of `picture` added, as float32 (a view: not to be written
        to)."""
        if self._ref_sum is None:
            self._ref_sum = cv2.transform(self._ref.astype(np.float32), _ONES)
        return self._ref_sum[y0:y1, x0:x1]

    def shares(self, fg: np.ndarray, piece_like: np.ndarray) -> np.ndarray:
        """Per atlas cell index: the share of its pixels that differ from the bare table
        in a colour no piece has (tile art where the reference has other art)."""
        counts = np.bincount(self._index[fg & ~piece_like], minlength=self._cells + 1)
        share = counts / np.maximum(1, self._zone_px)
        share[0] = 0.0
        return np.asarray(share)

    def reregister(self, atlas: np.ndarray, gains: np.ndarray, cells: np.ndarray,
                   piece_like: np.ndarray) -> list[int]:
        """Find nudged tiles again: for each zone in `cells` (atlas cell indices), the
        shift of its bare picture (up to `NUDGE_PX` each way) under which the least of
        it differs in no piece's colour. A shift that brings the zone back under the
        stale bound is kept for the frames to come; the zones found are returned.

        A player's sleeve pushes a tile a few millimetres; the art then differs along
        every edge of its print, although nothing was put on it.
        """
        found = []
        for k, x, y, w, h in self._boxes:
            if not cells[k] or not self._territory[k] or k in self._lost:
                continue
            roi = (slice(y, y + h), slice(x, x + w))
            inside = self._index[roi] == k
            f = cv2.transform(atlas[roi].astype(np.float32), gains[k])
            f_sum = cv2.transform(f, _ONES) + np.float32(3.0)
            best: tuple[float, int, int] | None = None
            pad = NUDGE_PX
            source = cv2.copyMakeBorder(self.bare.atlas[roi], pad, pad, pad, pad,
                                        cv2.BORDER_REPLICATE).astype(np.float32)
            for dy in range(-pad, pad + 1):
                for dx in range(-pad, pad + 1):
                    ref = source[pad - dy:pad - dy + h, pad - dx:pad - dx + w]
                    fg = self._decide(f, f_sum, ref, piece_like[roi])
                    share = float(np.count_nonzero(fg & inside & ~piece_like[roi]))
                    if best is None or share < best[0]:
                        best = (share, dx, dy)
            if best is None or best[0] / max(1, self._zone_px[k]) > self.difference.stale:
                self._lost.add(k)       # another tile: not looked for again on every frame
                continue
            _, dx, dy = best
            ref = source[pad - dy:pad - dy + h, pad - dx:pad - dx + w]
            self._ref[roi] = ref.astype(np.uint8)
            self._ref_index = self._ref_sum = None
            found.append(k)
        return found

    def _decide(self, f: np.ndarray, f_sum: np.ndarray, ref: np.ndarray,
                piece_like: np.ndarray) -> np.ndarray:
        ratio = cv2.divide(f_sum, cv2.transform(ref, _ONES) + np.float32(3.0))
        explained = cv2.multiply(ref, cv2.merge((ratio, ratio, ratio)))
        unexplained = cv2.divide(cv2.transform(cv2.absdiff(f, explained), _ONES),
                                 f_sum + np.float32(30.0))
        return self.difference.decide(unexplained, ratio, piece_like)

    def stale(self, fg: np.ndarray, piece_like: np.ndarray) -> np.ndarray:
        """Per atlas cell index: does the bare table no longer show this zone?

        What differs from a true reference is pieces (and the blend at their rims); a
        zone where much of what differs has no piece's colour holds another tile, or the
        picture was learnt on another table. Such a zone is read without the reference.
        """
        return (self.shares(fg, piece_like) > self.difference.stale) & self._territory

    def changed_zones(self, atlas: np.ndarray, last: np.ndarray, least_px: float
                      ) -> np.ndarray:
        """Zone indices (1-based, as in the atlas) whose pixels moved since `last`."""
        rows = self.rows
        diff = cv2.absdiff(atlas[:rows], last[:rows]).max(axis=2) > self.difference.changed
        counts = np.bincount(self._index[diff], minlength=self._cells + 1)
        counts[0] = 0
        return np.flatnonzero(counts >= least_px)


__all__ = ["BareTable", "BareTableError", "Comparison", "Difference", "RowModel", "margin",
           "stored_model"]
