"""Is something over the mat, or is the table moving? Cheap checks on few pixels.

A hand or arm always reaches in over the mat's edge, so a band of bare paper all round
the border (between and beside the markers) is sampled: paper that suddenly reads dark
or skin-coloured means an arm. The same samples give the light falling on the mat (its
shape a plane, its colour per channel), which the reader uses for white balance. Motion is a tiny
strided thumbnail compared with the previous frame's.

A lamp is not a plane: a warm spot, a patch of glare or the shade of a shelf lies on the
border of every frame the same way. Judged against the plane alone, such a stretch reads
"off-colour" for the whole evening and every frame is taken for a hand (a whole game
never began so). With the bare table learnt, each border sample is judged against what
it showed then (`BorderWatch.learn`): only what changed since is a hand. The bounds of
that test are fitted by ``scripts/fit_hands.py`` (``vision/fitted/hands.json``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.layout import Layout
from vision.reference import stored_model

STEP_MM = 4.0
DARK = 0.82          # paper darker than this fraction of the fitted white: covered
CLUSTER_MM = 60.0    # size of the border stretch the covered samples must crowd into
MIN_COVERED = 8      # covered samples before the frame counts as occluded
MOTION = 3.5         # mean grey-level change of the thumbnail
CLIPPED = 250.0      # a paper channel this bright may be saturated
#: A border stretch that reads covered, and has not changed as an arm changes paper, for
#: this long is no arm: an arm over the table moves (the longest reach of a hand in the
#: camera games is under a second). It is light that changed there since the bare table
#: was learnt (a lamp's spot drifted, a shade fell), and what it shows now becomes that
#: stretch's reference.
HELD_SECONDS = 5.0
HANDS_FITTED = Path(__file__).with_name("fitted") / "hands.json"


@dataclass(frozen=True)
class HandBounds:
    """How far a border sample may move from the bare table's before it is an arm's
    (fitted by ``scripts/fit_hands.py``): `dark`, its brightest channel over the bare
    table's, both over the fitted light; `chroma`, the spread of its three channels'
    ratios (a shadow scales them alike, a sleeve or skin does not), among samples that
    did not grow brighter (see `hand_like`)."""

    dark: float
    chroma: float

    @classmethod
    def load(cls, path: Path = HANDS_FITTED) -> HandBounds | None:
        """The stored bounds, or None before they are fitted."""
        model = stored_model(path, ("dark", "chroma"))
        return None if model is None else cls(**model)


def border_points(layout: Layout) -> np.ndarray:
    """Bare-paper points in two lines around the border, clear of the markers."""
    w, h = layout.size_mm
    boxes = [(min(p[0] for p in c) - 4, min(p[1] for p in c) - 4,
              max(p[0] for p in c) + 4, max(p[1] for p in c) + 4)
             for c in layout.markers.values()]
    pts = []
    for inset in (30.0, 56.0):
        for t in np.arange(inset, w - inset, STEP_MM):
            pts += [(t, inset), (t, h - inset)]
        for t in np.arange(inset + STEP_MM, h - inset, STEP_MM):
            pts += [(inset, t), (w - inset, t)]
    # A point lies in no zone unless it lies in the zone's bounding box: the exact test
    # (`Zone.contains`) is asked only there, not of every zone for every point (some 9000
    # tests in Python, most of a second of every reader's start).
    at = np.asarray(pts, np.float64)
    bbox = np.asarray([z.bbox() for z in layout.zones], np.float64).reshape(-1, 4)
    near = ((bbox[:, 0] <= at[:, :1]) & (at[:, :1] <= bbox[:, 2])
            & (bbox[:, 1] <= at[:, 1:]) & (at[:, 1:] <= bbox[:, 3]))
    keep = [p for p, maybe in zip(pts, near, strict=True)
            if not any(x0 <= p[0] <= x1 and y0 <= p[1] <= y1 for x0, y0, x1, y1 in boxes)
            and not any(layout.zones[k].contains(*p) for k in np.flatnonzero(maybe))]
    return np.asarray(keep, np.float32)


class WhiteField:
    """Paper colour the room light gives each point of the mat (glare aside): a plane
    a + b x + c y per channel, fitted to the border. May exceed 255 where paper clipped."""

    def __init__(self, coef: np.ndarray) -> None:
        self.coef = np.asarray(coef, np.float64)

    def at(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """Paper colour (n x 3) at mat points `xs`, `ys` (mm)."""
        xs = np.asarray(xs, np.float64).reshape(-1)
        ys = np.asarray(ys, np.float64).reshape(-1)
        paper: np.ndarray = np.maximum(
            8.0, np.c_[np.ones(len(xs)), xs / 900.0, ys / 900.0] @ self.coef)
        return paper


def hand_like(moved: np.ndarray, bounds: HandBounds) -> np.ndarray:
    """Border samples an arm may cover, from each one's paper over the bare table's
    (n x 3). Darker beyond `bounds.dark`, or off-colour beyond `bounds.chroma` without
    growing brighter: skin and sleeves are darker than white paper under the same lamp,
    while glare that grows as the lamp drifts brightens the paper and whitens it."""
    brightest = moved.max(axis=1)
    spread = brightest - moved.min(axis=1)
    result: np.ndarray = (brightest < bounds.dark) | ((spread > bounds.chroma)
                                                      & (brightest <= 1.0))
    return result


class BorderWatch:
    """Samples the paper border: white field for balance, dark runs for hands."""

    def __init__(self, layout: Layout) -> None:
        self.points_mm = border_points(layout)
        self.refs = [z for z in layout.of_kind("reference") if z.raw.get("shade") == "white"]
        self.px: np.ndarray | None = None
        self.valid: np.ndarray | None = None
        #: Each border point's paper over the fitted light on the bare table (NaN where
        #: the camera did not see it); None: judged against the plane alone.
        self.reference: np.ndarray | None = None
        self.bounds = HandBounds.load()
        self._seen: np.ndarray | None = None
        #: per border point, since when nothing changed there as an arm changes paper
        #: (NaN: not watched yet), its paper then, and its paper in the last frame
        self._since = np.full(len(self.points_mm), np.nan)
        self._then = np.full((len(self.points_mm), 3), np.nan, np.float32)
        self._last = np.full((len(self.points_mm), 3), np.nan, np.float32)
        #: the last white field's samples: design matrix, plane, values (None before one)
        self._fit: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def set_homography(self, homography: np.ndarray) -> None:
        pts = cv2.perspectiveTransform(self.points_mm.reshape(-1, 1, 2), homography)
        self.px = np.round(pts.reshape(-1, 2)).astype(np.int64)

    def samples(self, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """BGR values at the border points inside the frame, and those points in mm."""
        assert self.px is not None
        h, w = frame.shape[:2]
        ok = (self.px[:, 0] >= 0) & (self.px[:, 0] < w) & (self.px[:, 1] >= 0) & (
            self.px[:, 1] < h)
        px = self.px[ok]
        self._seen = ok
        return frame[px[:, 1], px[:, 0]].astype(np.float32), self.points_mm[ok]

    def white_field(self, frame: np.ndarray, atlas: object, atlas_img: np.ndarray
                    ) -> WhiteField:
        """Paper colour as a plane a + b x + c y per channel, fitted robustly."""
        values, pts = self.samples(frame)
        self._border_count = len(values)
        extra_v, extra_p = [], []
        for cell in getattr(atlas, "cells", []):
            if cell.zone.kind == "reference" and cell.zone.raw.get("shade") == "white":
                roi = atlas_img[cell.y + 4:cell.y + cell.h - 4, cell.x + 4:cell.x + cell.w - 4]
                if roi.size:
                    extra_v.append(np.median(roi.reshape(-1, 3), axis=0))
                    extra_p.append(cell.zone.centre())
        if extra_v:
            values = np.vstack([values, np.asarray(extra_v, np.float32)])
            pts = np.vstack([pts, np.asarray(extra_p, np.float32)])
        if len(values) < 6:
            mean = values.mean(axis=0) if len(values) else np.full(3, 235.0, np.float32)
            return WhiteField(np.vstack([mean, np.zeros((2, 3))]))
        design = np.c_[np.ones(len(pts)), pts[:, 0] / 900.0, pts[:, 1] / 900.0]
        # Clipped paper is brighter than it reads, so each channel is judged only where it
        # did not clip. The light has one shape (a plane) and one colour: the shape comes
        # from the channel that clipped least, each channel's level from its own samples.
        unclipped = values < CLIPPED
        ch = int(np.argmax(unclipped.sum(axis=0)))
        usable = unclipped[:, ch] if unclipped[:, ch].sum() >= 6 else np.ones(len(values), bool)
        keep = usable.copy()
        shape = np.zeros(3)
        for round_ in range(3):
            shape = np.linalg.lstsq(design[keep], values[keep, ch], rcond=None)[0]
            ratio = values[:, ch] / np.maximum(1.0, design @ shape)
            # First drop what is darker (hands, shadows), then glare as well.
            keep = ((np.abs(ratio - 1) < 0.08) if round_ else (ratio > 0.85)) & usable
            if keep.sum() < 6:
                keep = usable
                break
        shape = shape / max(1.0, float(np.array([1.0, 0.5, 0.5]) @ shape))
        along = np.maximum(1e-3, design @ shape)
        level = np.full(3, np.nan)
        for c in range(3):
            sel = keep & unclipped[:, c]
            # A channel that clipped in places: the samples left are the darker ones, so
            # its level would come out low. The grey patches tell it instead.
            if sel.sum() >= 6 and sel.sum() >= 0.95 * keep.sum():
                level[c] = float(np.median(values[sel, c] / along[sel]))
        if np.isnan(level).any():
            greys = self._grey_references(atlas, atlas_img)
            known = np.flatnonzero(~np.isnan(level))
            if greys is not None and len(known):
                ref = int(known[np.argmax(greys[known])])
                level = np.where(np.isnan(level), level[ref] * greys / max(1.0, greys[ref]),
                                 level)
            # Clipped everywhere and nothing to go by: at least as bright as full scale.
            level = np.where(np.isnan(level), 255.0 / float(along[keep].min()), level)
        coef = np.outer(shape, level)
        self._fit = (design, coef, values)
        return WhiteField(coef)

    @staticmethod
    def _grey_references(atlas: object, atlas_img: np.ndarray) -> np.ndarray | None:
        """Median colour of the grey patches (which never clip), or None."""
        found = []
        for cell in getattr(atlas, "cells", []):
            if cell.zone.kind == "reference" and cell.zone.raw.get("shade") == "grey":
                roi = atlas_img[cell.y + 4:cell.y + cell.h - 4, cell.x + 4:cell.x + cell.w - 4]
                if roi.size:
                    found.append(np.median(roi.reshape(-1, 3), axis=0))
        if len(found) < 2:
            return None
        return np.median(np.asarray(found, np.float32), axis=0)

    def profile(self) -> np.ndarray | None:
        """The last frame's border paper over its fitted light, one row per border point
        (NaN where the frame did not show it): what `learn` keeps."""
        if self._fit is None or self._seen is None:
            return None
        design, coef, values = self._fit
        n = self._border_count
        balanced = values[:n] / np.maximum(1.0, np.minimum(255.0, design[:n] @ coef))
        out = np.full((len(self.points_mm), 3), np.nan, np.float32)
        out[self._seen] = balanced
        return out

    def learn(self, reference: np.ndarray | None) -> None:
        """Judge the border against `reference` (a `profile` of the bare table) from now on;
        None: against the fitted plane alone. A profile of another layout is ignored."""
        ok = reference is not None and reference.shape == (len(self.points_mm), 3)
        self.reference = reference if ok else None
        self._since[:] = np.nan             # what held still was held against the old one

    def covered(self, frame: np.ndarray, white: WhiteField, t: float | None = None) -> bool:
        """True when enough border paper is dark or off-colour: an arm over the edge.

        With the bare table's border learnt and the stream's time `t` given, a covered
        border where nothing changed as an arm changes it for `HELD_SECONDS` is taken
        into the reference: from then on only what changes again there is an arm.
        Without that, a lamp that drifts during the evening could leave a stretch a few
        per cent darker for good, and every later frame would be taken for a hand: the
        referee would never see the table still again (2-player hard camera game 900205
        lost its last 70 seconds so). An arm moves: a point whose paper changed as an arm
        changes it since the last frame is one an arm is coming over or leaving, and is
        not timed then (`_held_still`)."""
        if self._fit is None:
            return False
        design, coef, values = self._fit
        fitted = np.minimum(255.0, design[: len(values)] @ coef)
        n = self._border_count
        v, f = values[:n], fitted[:n]
        bright = v.max(axis=1) / np.maximum(1.0, f.max(axis=1))
        balanced = v / np.maximum(1.0, f)
        chroma = balanced.max(axis=1) - balanced.min(axis=1)
        bad = (bright < DARK) | (chroma > 0.2)
        if self.reference is None or self.bounds is None or self._seen is None:
            return self._crowded(design[:n][bad])
        ref = self.reference[self._seen]
        known = ~np.isnan(ref).any(axis=1)
        # The paper less what the whole border did alike (`common_change`), here and in
        # what is kept of it: a stretch taken into the reference is then in the bare
        # table's terms like every other, and the common change stays one for all.
        paper = balanced / common_change(balanced[known], ref[known])
        bad[known] = hand_like(_over(paper[known], ref[known]), self.bounds)
        armed = self._crowded(design[:n][bad])
        if t is None:
            return armed
        # In a frame an arm is taken to cover, only what reads covered is learnt: the
        # rest of the border waits for a frame with nothing over it. What is learnt
        # reads covered no more; fewer covered points than crowded none.
        held = self._held_still(np.flatnonzero(self._seen), paper, t, bad if armed else None)
        return armed and self._crowded(design[:n][bad & ~held])

    def _held_still(self, where: np.ndarray, balanced: np.ndarray, t: float,
                    learnable: np.ndarray | None = None) -> np.ndarray:
        """Which of the border points `where` (paper `balanced`) have not changed as an
        arm changes paper for `HELD_SECONDS` by time `t`: background, whose paper becomes
        the reference there (each point timed on its own: an arm reaching in elsewhere
        does not reset the others).

        An arm leaving is such a change as much as an arm coming: timed from the arm's
        first frame alone, an arm that came back to the same stretch five seconds later
        matched its own old paper there and became background, and the reach went
        unflagged (4-player hard camera game 900407: a disc taken with no hand seen, so
        held back as a misread while the next player took theirs).

        But a point an arm is passing over (its paper changed as an arm changes it since
        the last frame, coming or going) is not timed in that frame: an arm that crossed
        a shade the drifting lamp laid on the border and was gone left the shade as it
        was, yet restarted its clock; where players reach in every second or two the
        shade never became background and was taken for an arm for as long as the game
        went on there (3-player hard camera game 900328: 23 seconds).

        And only the points `learnable` (None: all) are taken into the reference in this
        frame; the others stay due, and are taken in the next frame that allows them.
        Where an arm covers much of the border, what the frame says of the rest is judged
        against a white field and a common change the arm moved: in 3-player hard camera
        game 900394 (15.4 s) such a frame read a still stretch of the south border some 7 %
        redder than it was, just within what an arm's coming changes, and that stretch was
        taken into the reference so; back to its own colour it read off-colour against
        it, an arm for five seconds with none there, and two discs chosen in that time
        were recorded in the wrong order. `covered` lets such a frame teach only the
        points that read covered (a shade that fell there is one of them)."""
        assert self.reference is not None and self.bounds is not None
        since, then, last = self._since[where], self._then[where], self._last[where]
        self._last[where] = balanced
        known = ~np.isnan(last).any(axis=1)
        passing = np.zeros(len(where), bool)
        passing[known] = _changed(balanced[known], last[known], self.bounds)
        timed = ~np.isnan(since) & (since <= t)
        stirred = np.zeros(len(where), bool)
        stirred[timed] = _changed(balanced[timed], then[timed], self.bounds)
        restart = (~timed | stirred) & ~passing
        since[restart] = t
        then[restart] = balanced[restart]
        held: np.ndarray = (t - since >= HELD_SECONDS) & ~passing
        if learnable is not None:
            held &= learnable
        since[held] = t
        then[held] = balanced[held]
        self._since[where], self._then[where] = since, then
        if held.any():
            self.reference = self.reference.copy()
            self.reference[where[held]] = balanced[held]
        return held

    @staticmethod
    def _crowded(bad: np.ndarray) -> bool:
        """Do the covered samples (rows of the white field's design matrix) crowd into
        one stretch of the border, as an arm does (it is one place)?"""
        if len(bad) < MIN_COVERED:
            return False
        pts = bad[:, 1:] * 900.0 / CLUSTER_MM
        cells = np.floor(pts).astype(np.int64)
        _, counts = np.unique(cells[:, 0] * 1000 + cells[:, 1], return_counts=True)
        return int(counts.max()) >= MIN_COVERED


def _changed(paper: np.ndarray, before: np.ndarray, bounds: HandBounds) -> np.ndarray:
    """Which border points' paper (n x 3) changed from `before` as an arm's coming or
    leaving changes it."""
    result: np.ndarray = (hand_like(_over(paper, before), bounds)
                          | hand_like(_over(before, paper), bounds))
    return result


def common_change(paper: np.ndarray, bare: np.ndarray) -> np.ndarray:
    """What the whole border's paper did alike since the bare table (per channel: the
    median of each point's paper over its bare paper, n x 3 each; 1 with no point).

    An arm covers one stretch of the border; what every stretch did alike is the light:
    a lamp that drifted warmer, or a channel's level guessed anew (a paper channel that
    clips in a few per cent of the border is levelled by the grey patches, and the two
    ways of levelling it differ by a per cent or two). Judged point by point, that common
    change reached the fitted bounds along the whole border, and for seconds every frame
    was taken for a hand (4-player hard camera game 900441, from 117.6 s: a cylinder put
    on the wrong court then went unjudged). A stretch an arm covers cannot move the
    median while it is less than half of the border."""
    if not len(paper):
        return np.ones(3, np.float32)
    common: np.ndarray = np.maximum(1e-3, np.median(_over(paper, bare), axis=0))
    return common


def against_bare(paper: np.ndarray, bare: np.ndarray) -> np.ndarray:
    """Border paper over the bare table's (n x 3 each), less the `common_change`: what
    `hand_like` judges."""
    return _over(paper / common_change(paper, bare), bare)


def _over(paper: np.ndarray, before: np.ndarray) -> np.ndarray:
    """Border paper over what it was (n x 3 each): what `hand_like` judges (a point
    that read black before counts as 2 % of white, not as nothing)."""
    moved: np.ndarray = paper / np.maximum(0.02, before)
    return moved


class MotionWatch:
    """Frame-to-frame change of a strided grey thumbnail: the 'anything changed?' check."""

    def __init__(self, stride: int = 8) -> None:
        self.stride = stride
        self.last: np.ndarray | None = None
        self.change = 0.0

    def check_frame(self, frame: np.ndarray) -> bool:
        """Has anything changed since the last frame? Looks at one pixel in 64."""
        h, w = frame.shape[:2]
        if h % self.stride == 0 and w % self.stride == 0:
            # Nearest-neighbour shrinking by a whole factor takes exactly the pixels the
            # strided view holds, and gathers them five times faster than numpy's copy
            # of that view (this is most of a frame where nothing changed).
            thumb = cv2.resize(frame, (w // self.stride, h // self.stride),
                               interpolation=cv2.INTER_NEAREST)
        else:
            thumb = np.ascontiguousarray(frame[:: self.stride, :: self.stride])
        return self.update(cv2.cvtColor(thumb, cv2.COLOR_BGR2GRAY), strided=True)

    def update(self, gray: np.ndarray, strided: bool = False) -> bool:
        thumb = gray if strided else gray[:: self.stride, :: self.stride]
        moving = False
        if self.last is not None and self.last.shape == thumb.shape:
            self.change = float(cv2.absdiff(thumb, self.last).mean())
            moving = self.change > MOTION
        self.last = thumb.copy()
        return moving
