"""One frame to one `carolus-snapshot/1`.

The frame is cut into the top-down atlas of zones, white-balanced against the mat's
own paper, classified by colour through a lookup table, and counted: blobs by area in
territories and reserves, runs along each court row, coloured area on the court dots
and in the pool for cylinders, and texture on the striped disc slots.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision import cast, castle_count, colours, cube_count, lit, seams
from vision.atlas import ATLAS_KINDS, CATCH_MM, Atlas, Cell
from vision.castle_count import CastleCount, castle_features
from vision.cube_count import CubeCount, Patch, blob_features
from vision.glare import GlareMap
from vision.layout import Layout
from vision.markers import MatLocator
from vision.mat import STRIPE_MM
from vision.occlusion import BorderWatch, MotionWatch, WhiteField
from vision.reference import (
    ROW_SHARE,
    BareTable,
    Comparison,
    Difference,
    RowModel,
    margin,
    stored_model,
)
from vision.snapshot import Snapshot, SnapshotJSON, empty_snapshot
from vision.steady import Steady

FITTED_DIR = Path(__file__).with_name("fitted")

CUBE_PITCH_MM = 8.32      # cubes lined up in a court row, nearly touching
ROW_SHORT_MM = 0.44       # a row's coloured run falls short of n pitches by this (fitted)
ROW_START_MM = 15.5       # where the row samples begin, from the dot
#: How much longer than the cubes each colour's run reads (fitted on tuning frames): pink's
#: shaded sides still read pink, green and yellow fade into the board's print sooner.
ROW_COLOUR_MM = {"red": 0.2, "green": -0.5, "yellow": -0.5, "blue": -0.1, "pink": 0.7}
DOT_REACH_MM = 10.0      # how far from a court dot a cylinder's pixels are looked for
MERGED_CUBE_AREA = 1.4    # blob area per cube of touching cubes over the footprint model:
                          # their shaded sides and shadows join in (fitted on tuning frames:
                          # two cubes 2.2-3.3, three 3.75-4.7, four 5.7)
CAMERA_HEIGHT_MM = 1100.0
ON_PAPER = ("reserve", "pool")   # zones on bare paper, read with the paper colour table
PAPER_BLOB = 1.12         # there a cube's shaded sides keep their colour: blobs are bigger
WHITE_SIDES = 0.6         # grey-looking side pixels of a white castle per lit top pixel
LEAST_REFERENCE_BLOB = 0.15   # smallest blob (in cubes) shown to the fitted count
SOLID_CUBE_PX = {"red": 3.0, "pink": 3.0}   # a small blob's least inner radius to be a cube
CLIPPED = 250            # a frame channel this bright may be saturated
#: The thinnest a piece's seen colour can be, over a cube's side: its top alone is a
#: square (inner radius half the side); half of that is left when another piece hides
#: part of it. Geometry, not fitted.
THINNEST = 0.25
#: The emperor's least blob, over his footprint: what `_emperor_area` weighs and what a
#: still zone's blob must stay under to be skipped (`_not_emperor`).
EMPEROR_LEAST = 0.45
DIM_PAPER = 160.0        # paper this dark (in its brightest channel): a dim room, a noisy frame


@dataclass
class Tuning:
    """Thresholds the calibration may adjust; defaults suit the shipped mat."""

    castle_white: float = 160.0       # brightness (paper = 235) of a castle's lit top
    castle_black: float = 92.0
    camera_height_mm: float = CAMERA_HEIGHT_MM
    disc_stripes: float = 0.1         # stripe contrast: an empty slot shows 0.2-0.5, a disc ~0
    extra: dict[str, Any] = field(default_factory=dict)


#: A blob to count: its colour class, area (px), centre (atlas px), mask, box (x, y, w, h)
#: and, for a patch found by its change alone, what else it may be (`Patch`).
Blob = tuple[int, float, float, float, np.ndarray, tuple[int, ...], Patch | None]
#: A yellow territory blob: its zone, where it lies (mm), its area, the cubes it gave,
#: whether it is a patch found by its darkness alone, its box (x, y, w, h) and the blob.
Yellow = tuple[Cell, float, float, float, int, bool, tuple[int, ...], np.ndarray]
#: Where the emperor reaches in the atlas: his foot (atlas px), how far and which way his
#: top appears from it (px), and his base's radius (px).
Reach = tuple[tuple[float, float], tuple[float, float], float]
EMPEROR_FITTED = FITTED_DIR / "emperor.json"


DISCS_FITTED = FITTED_DIR / "discs.json"


@dataclass(frozen=True)
class DiscBound:
    """When a disc slot is empty, against the bare table (fitted by
    ``scripts/fit_discs.py``). `kept`: the least share of the bare table's stripes
    (`_follows`) an empty slot shows; `striped`: the least share of its ring's variance
    (`_striped`) at which the bare table's own ring is taken to show the print (else a
    disc lay there when the bare table was learnt, and the stripes' contrast decides).
    `empty_least` and `covered_most`: the least share any empty slot and the most any
    covered one showed in the labelled frames; a slot read between them is doubted
    (`sure`), the more the nearer to `kept`."""

    kept: float
    striped: float
    empty_least: float = 1.0
    covered_most: float = 0.0

    @classmethod
    def load(cls, path: Path = DISCS_FITTED) -> DiscBound | None:
        model = stored_model(path, ("kept", "striped"))
        if model is None:
            return None
        extremes = stored_model(path, ("empty_least", "covered_most")) or {}
        return cls(**model, **extremes)

    def sure(self, share: float) -> float:
        """How sure a slot read from its share of the stripes is (0: a coin flip, 1: as
        sure as any labelled slot of its kind was): a disc half over its slot, or a
        shadow's edge across the ring, leaves part of the stripes, and the slot is then
        asked about rather than taken as read."""
        if share >= self.kept:
            room = (share - self.kept) / max(1e-6, self.empty_least - self.kept)
        else:
            room = (self.kept - share) / max(1e-6, self.kept - self.covered_most)
        return min(1.0, max(0.0, room))


def emperor_disc() -> float | None:
    """The fitted least radius (mm) of the largest disc inside the emperor's blob (None
    before it is fitted)."""
    try:
        model = json.loads(EMPEROR_FITTED.read_text(encoding="utf-8"))["model"]
    except FileNotFoundError:
        return None
    return float(model["least_disc_mm"])


class Reader:
    """Reads frames from one fixed camera; keeps the pose and maps between frames."""

    def __init__(self, layout: Layout, table: np.ndarray | None = None,
                 tuning: Tuning | None = None, scale: float = 1.0,
                 swatches: bool = False, pieces_table: np.ndarray | None = None,
                 piece_colours: Mapping[str, tuple[float, ...]] | None = None) -> None:
        self.layout = layout
        self.seats = layout.seats()
        self.scale = scale
        self.table = colours.default_table() if table is None else table
        # Reserves and the pool lie on bare paper: with the default colours they are read
        # without the tiles' (a dim yellow cube matched the ochre fields), and a cube's
        # shaded sides keep their colour there. A calibrated table is kept for them too.
        on_paper = table is None
        self.paper_table = colours.paper_table() if on_paper else self.table
        self._paper_blob = PAPER_BLOB if on_paper else 1.0
        self.tuning = tuning or Tuning()
        self.locator = MatLocator(layout)
        kinds = ATLAS_KINDS if swatches else tuple(k for k in ATLAS_KINDS if k != "swatch")
        self.atlas = Atlas(layout, scale, kinds)
        self.border = BorderWatch(layout)
        self.glare = GlareMap(layout)
        self._cell_centres = np.array([c.zone.centre() for c in self.atlas.cells], np.float64)
        self.motion = MotionWatch()
        self._pose_id: int | None = None
        self.dim = False                 # the last frame came from a dim, noisy room
        self._nadir = (layout.size_mm[0] / 2, layout.size_mm[1] / 2)
        self._sizes = layout.pieces_mm
        self._kernel = np.ones((2, 2), np.uint8)
        self._kernel3 = np.ones((3, 3), np.uint8)
        self._kernel5 = np.ones((5, 5), np.uint8)
        core = round(0.55 * self._sizes["castle"] * scale) | 1
        self._castle_core = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (core, core))
        #: How many times as far as a cube's a castle's shadow falls.
        self._castle_height = layout.height_mm("castle") / layout.height_mm("cube")
        self._emperor_height = layout.height_mm("emperor") / layout.height_mm("cube")
        self._offset = (0.0, 0.0)
        rows = self.atlas.blob_rows
        territory = np.array([False] + [c.zone.kind == "territory" for c in self.atlas.cells])
        self._territory_rows: np.ndarray = territory[self.atlas.zone_index[:rows]]
        self._on_paper = ([c for c in self.atlas.cells if c.zone.kind in ON_PAPER]
                          if on_paper else [])
        self.debug: list[tuple[Any, ...]] | None = None
        self._pieces_table = (colours.paper_table() if table is None
                              else self.table if pieces_table is None else pieces_table)
        self._comparison: Comparison | None = None
        self.bare: BareTable | None = None
        #: see `_bare_rings`
        self._rings: list[tuple[np.ndarray, float, complex, float]] | None = None
        self._confidence: dict[str, float] = {}
        self._cards: set[str] = set()
        self._cardless: list[Cell] = []
        self.difference = Difference.load()
        self.rows = RowModel.load()
        #: When a disc slot still shows the bare table's stripes (fitted by
        #: ``scripts/fit_discs.py``; None before it is fitted: stripe contrast alone).
        self.discs: DiscBound | None = DiscBound.load()
        #: How wide a disc (radius, mm) the roundest yellow blob must hold to be taken for
        #: the emperor when no blob looks like him (fitted by ``scripts/fit_emperor.py``).
        self.emperor_disc: float | None = emperor_disc()
        #: Labelled-data hook of ``scripts/fit_emperor.py``: every yellow territory blob.
        #: (zone, size over his footprint, where, blob, box, a patch found by its change)
        self.collect_yellow: list[tuple[str, float, tuple[float, float], np.ndarray,
                                        tuple[int, ...], bool]] | None = None
        self.cubes: CubeCount | None = cube_count.stored()
        #: Which castles a colourless blob holds against the bare table (fitted by
        #: ``scripts/fit_castles.py``; None before it is: the swatches' brightness bands).
        self.castle_model: CastleCount | None = castle_count.stored()
        #: Labelled-data hook of ``scripts/fit_castles.py``: every castle blob weighed
        #: against the bare table (zone, features, box, blob).
        self.collect_castles: list[tuple[str, np.ndarray, tuple[int, ...],
                                         np.ndarray]] | None = None
        #: The pieces' own colours after white balance (the calibration's swatches).
        self.piece_colours = dict(colours.DEFAULT_PIECES, **(piece_colours or {}))
        #: How bright a cube's top must be over its colour (fitted by
        #: ``scripts/fit_lit.py``; None before it is: no blob is dropped for it).
        self.lit_bound: lit.LitBound | None = lit.stored()
        #: The white-balanced atlas of the frame being read against the bare table.
        self._atlas: np.ndarray | None = None
        #: Darker than the bare table by more than light drifts (fitted with the count).
        self.shade: float | None = None if self.cubes is None else self.cubes.shade
        #: A weaker change that a dark patch grows into (fitted with the count).
        self.stir: float | None = None if self.cubes is None else self.cubes.stir
        self._shade: tuple[np.ndarray, np.ndarray] | None = None
        #: Labelled-data hook of ``scripts/fit_cubes.py``: every blob the model is asked of.
        self.collect: list[tuple[str, str, np.ndarray, tuple[int, ...] | None,
                                 np.ndarray]] | None = None
        # A zone is read again once a quarter of a cube's worth of its pixels moved.
        self.steady = Steady(self.atlas, self.difference.changed,
                             0.25 * self._sizes["cube"] ** 2 * scale**2)
        #: Per atlas cell index, whether this read's counts of the zone stand (`_counted`);
        #: None: every zone's do.
        self._moved: np.ndarray | None = None
        #: This read took the emperor to be the widest yellow blob (`_emperor_among`).
        self._guessed = False
        #: Per atlas cell index, the zones this read compares with the bare table
        #: (`_compared`); None: every one.
        self._compared_zones: np.ndarray | None = None
        #: Per atlas cell index, the shadow offsets of the pieces last seen in the zone
        #: (`_measure_offset`).
        self._cast: dict[int, np.ndarray] = {}
        #: The integral image of the blob rows' pixels in zones counted (`_still`).
        self._counted_sum: np.ndarray | None = None
        self._pool = [c.index for c in self.atlas.of_kind("pool")]

    # -- the bare table ----------------------------------------------------------------
    def learn_bare(self, frame: np.ndarray) -> BareTable:
        """The table without pieces, as this reader's atlas sees it after white balance.

        Raises `ValueError` when the mat is not found in the frame.
        """
        pose = self.locator.locate(frame)
        if pose is None:
            raise ValueError("the mat's markers are not found in the frame")
        if self._pose_id != id(pose):
            self._set_pose(pose.homography, frame.shape)
            self._pose_id = id(pose)
        atlas = self.atlas.cut(frame)
        fixed = self.glare.fixed            # the picture's own glare, measured on it
        self.glare.fix(None)
        self.balance(frame, atlas)
        glare = self.glare.kept()
        self.glare.fix(fixed)
        return BareTable(atlas, self.border.profile(), glare)

    def use_bare(self, bare: BareTable | None, difference: Difference | None = None) -> None:
        """Read pieces as what differs from `bare` (None: back to absolute colours)."""
        self.bare = bare
        self._rings = None
        self.border.learn(None if bare is None else bare.border)
        self.glare.fix(None if bare is None else bare.glare)
        self.steady.reset()
        self._comparison = None if bare is None else Comparison(
            bare, self.atlas, difference or self.difference)
        self._cards = set() if bare is None else self._cards_in(bare)
        self._cardless = [] if bare is None else [
            c for c in self.atlas.of_kind("court") if c.zone.seat not in self._cards]

    def _cards_in(self, bare: BareTable) -> set[str]:
        """Seats whose court card the bare table shows: its print differs from the bare
        paper of the reserves as a piece would (colour or brightness beyond the fitted
        bounds), away from the dots; or, whatever its print, its dots show (`_dots_in`).

        A card printed near the mat's own paper (a grey or cream stock under a warm lamp)
        does not differ from it as a piece would, and its rows were then read by colour
        alone from where an empty row was guessed to begin: the four long rows of one
        court each read a cube more, sure of it (tuning table 23007, a blue-grey card)."""
        paper = np.vstack([bare.atlas[c.y:c.y + c.h, c.x:c.x + c.w][c.mask]
                           for c in self.atlas.of_kind("reserve")]).astype(np.float32)
        white = np.median(paper, axis=0) + 1.0
        d = self._comparison.difference if self._comparison else self.difference
        cards = set()
        for cell in self.atlas.of_kind("court"):
            board = cell.zone.raw.get("board_mm")
            if not board:
                continue
            xs, ys = np.meshgrid(np.arange(min(p[0] for p in board) + 3,
                                           max(p[0] for p in board) - 3, 2.0),
                                 np.arange(min(p[1] for p in board) + 3,
                                           max(p[1] for p in board) - 3, 2.0))
            dots = np.asarray([r[0] for r in cell.zone.raw.get("rows_mm", {}).values()])
            keep = np.ones(xs.shape, bool)
            for dx, dy in dots:
                keep &= np.hypot(xs - dx, ys - dy) > 6.0
            if not keep.any():
                continue
            iy, ix = cell.px(xs[keep], ys[keep], self.scale)
            seen = np.median(bare.atlas[iy, ix].astype(np.float32), axis=0) + 1.0
            ratio = float(seen.sum() / white.sum())
            off = float(np.abs(seen - white * ratio).sum() / (seen.sum() + 30.0))
            printed = off > d.chroma or not 1.0 / d.brighter <= ratio <= d.brighter
            if printed or self._dots_in(bare, cell) > len(cell.zone.raw.get("rows_mm", {})) / 2:
                cards.add(str(cell.zone.seat))
        return cards

    def _dots_in(self, bare: BareTable, cell: Cell) -> int:
        """How many of a court's coloured dots the bare table shows: at least half a
        dot's area of its own colour within a cylinder's reach of where it is printed
        (a card is laid by hand, a few millimetres off). The mat there is paper and a
        ruled line, never five colours at their places: a majority of the dots is a
        card, whatever it is printed on. Geometry, not fitted."""
        half_dot = np.pi * (self.layout.court_dot_mm() / 2) ** 2 / 2 * self.scale**2
        dx, dy = _dot_reach(self.scale)
        shown = 0
        for colour, (start, _) in cell.zone.raw.get("rows_mm", {}).items():
            iy, ix = cell.px(start[0] + dx, start[1] + dy, self.scale)
            seen = np.take(self.table, colours.table_index(bare.atlas[iy, ix][:, None]))
            shown += int((seen == colours.CLASS_OF[colour]).sum() >= half_dot)
        return shown

    # -- geometry -------------------------------------------------------------------
    def _set_pose(self, homography: np.ndarray, frame_shape: tuple[int, ...]) -> None:
        self.atlas.set_homography(homography)
        self.border.set_homography(homography)
        self.glare.set_homography(homography)
        h, w = frame_shape[:2]
        inv = np.linalg.inv(homography)
        nadir = cv2.perspectiveTransform(np.array([[[w / 2, h / 2]]], np.float32), inv)[0, 0]
        self._nadir = (float(nadir[0]), float(nadir[1]))
        self._build_samplers()

    def parallax(self, x: float, y: float, height: float) -> tuple[float, float]:
        """How far (mm, on the mat) the top of a piece of `height` appears shifted."""
        k = height / max(1.0, self.tuning.camera_height_mm - height)
        return ((x - self._nadir[0]) * k, (y - self._nadir[1]) * k)

    def _footprint_px(self, piece: str, x: float, y: float) -> float:
        """Expected blob area of one piece here: top face plus the visible sides."""
        a = self._sizes[piece]
        dx, dy = self.parallax(x, y, self.layout.height_mm(piece))
        if piece in ("cube", "castle"):
            return (a * a + a * (abs(dx) + abs(dy)) * 0.85) * self.scale**2
        side = 0.6 if piece == "emperor" else 1.0        # the emperor narrows upwards
        return (np.pi * a * a / 4 + side * a * float(np.hypot(dx, dy))) * self.scale**2

    def _build_samplers(self) -> None:
        """Atlas indices for court rows, court dots and disc annuli for this pose."""
        self._rows: list[tuple[Cell, str, np.ndarray, np.ndarray, float]] = []
        self._dots: list[tuple[Cell, str, tuple[np.ndarray, np.ndarray]]] = []
        dot_x, dot_y = (d[None, :] for d in _dot_reach(self.scale))   # 2-D for _stack
        for cell in self.atlas.of_kind("court"):
            for colour, ((x0, y0), (x1, y1)) in cell.zone.raw.get("rows_mm", {}).items():
                d = np.array([x1 - x0, y1 - y0], float)
                length = float(np.linalg.norm(d))
                d /= length
                n = np.array([-d[1], d[0]])
                ts = np.arange(ROW_START_MM, length, 1.0 / self.scale)
                ss = np.arange(-4.0, 4.01, 1.0 / self.scale)
                tt, s2 = np.meshgrid(ts, ss, indexing="ij")
                xm, ym = x0 + d[0] * tt + n[0] * s2, y0 + d[1] * tt + n[1] * s2
                iy, ix = cell.px(xm, ym, self.scale)
                mid = (x0 + d[0] * length / 2, y0 + d[1] * length / 2)
                px, py = self.parallax(mid[0], mid[1], self.layout.height_mm("cube"))
                self._rows.append((cell, colour, iy, ix, abs(px * d[0] + py * d[1])))
                # A cylinder on the dot leans away from the camera's nadir: look around
                # the middle of its height.
                lx, ly = self.parallax(x0, y0, 0.5 * self.layout.height_mm("cylinder"))
                self._dots.append((cell, colour, cell.px(x0 + lx + dot_x, y0 + ly + dot_y,
                                                         self.scale)))
        self._rows_stack = _stack([(iy, ix, c) for _, c, iy, ix, _ in self._rows])
        self._dots_stack = _stack([(iy, ix, c) for _, c, (iy, ix) in self._dots])
        self._discs: list[tuple[Cell, tuple[np.ndarray, np.ndarray], np.ndarray]] = []
        self._rings = None
        for cell in self.atlas.of_kind("disc-slot"):
            cx, cy = cell.zone.raw.get("centre_mm", cell.zone.centre())
            ys, xs = np.mgrid[0:cell.h, 0:cell.w]
            xm = cell.origin_mm[0] + (xs + 0.5) / self.scale
            ym = cell.origin_mm[1] + (ys + 0.5) / self.scale
            r = np.hypot(xm - cx, ym - cy)
            ring = (r >= 7.0) & (r <= 12.0)
            angle = np.pi * (xm[ring] + ym[ring]) / STRIPE_MM
            wave = np.exp(1j * angle) / ring.sum()
            self._discs.append((cell, (ys[ring] + cell.y, xs[ring] + cell.x), wave))

    # -- reading ----------------------------------------------------------------------
    def read(self, frame: np.ndarray, t: float | None = None) -> Snapshot:
        """What `frame` shows (`t`: seconds since the stream started, if any).

        The counting fills a `SnapshotJSON` dict, and the zones that did not move are
        copied into it from the last frame's; the dict becomes the `Snapshot` only here,
        once (see `vision.snapshot` for why).
        """
        if frame is None or frame.ndim != 3 or frame.shape[2] != 3:
            raise ValueError("frame must be a BGR image")
        moving = self.motion.check_frame(frame)
        assert self.motion.last is not None       # the thumbnail check_frame just took
        still = self.steady.still(self.motion.last)
        if still is not None:
            if t is not None:
                still["t"] = round(float(t), 3)
            return Snapshot.from_json(still)
        pose = self.locator.locate(frame)
        snap = empty_snapshot(self.seats, mat=pose is not None)
        if t is not None:
            snap["t"] = round(float(t), 3)
        if pose is None:
            self._pose_id = None
            self.steady.reset()
            return Snapshot.from_json(snap)
        if self._pose_id != id(pose):
            self._set_pose(pose.homography, frame.shape)
            self._pose_id = id(pose)
            self.steady.reset()
        atlas = self.atlas.cut(frame)
        white = self.balance(frame, atlas)
        changed = self.steady.changed(atlas)
        # The zones that did not move get their last counts back (`Steady.merge`): their
        # pieces are not counted again (`_counted`), unless a fitting script collects them.
        hooked = (self.debug, self.collect, self.collect_yellow,
                  self.collect_castles) != (None, None, None, None)
        self._moved = None if hooked else self.steady.moved(changed)
        self._counted_sum = None
        self._confidence = {}
        self._guessed = False  # the emperor taken to be the widest yellow blob
        self._offset = (0.0, 0.0)  # which way a cube's shadow falls (`_shaded_cubes`)
        self._compared_zones = None
        hand = self.border.covered(frame, white, t)
        snap["occluded"] = bool(moving or hand or self.locator.hidden_markers > 0)
        index = colours.table_index(atlas[: self.atlas.colour_rows])
        if self._comparison is not None:
            # Against the bare table, tile art is the reference itself: the pixels that
            # differ are classified among the pieces' colours only.
            snap["reader"] = "reference"
            labels = np.take(self._pieces_table, index)
            piece_like = labels != colours.NONE
            compared = self._compared_zones = self._compared()
            gains = self._comparison.gains(atlas, compared)
            unexplained, ratio = self._comparison.features(atlas, gains, compared)
            fg = self._comparison.difference.decide(unexplained, ratio, piece_like)
            stale = self._comparison.stale(fg, piece_like)
            # Under a hand every tile it covers looks like another one: a nudged tile is
            # looked for once the hand has gone, or it would never be looked for again.
            if (stale.any() and not snap["occluded"]
                    and self._comparison.reregister(atlas, gains, stale, piece_like)):
                unexplained, ratio = self._comparison.features(atlas, gains, compared)
                fg = self._comparison.difference.decide(unexplained, ratio, piece_like)
                stale = self._comparison.stale(fg, piece_like)
            self._shade = (ratio, stale)
            self._atlas = atlas
            # Castles are judged on all that differs and has no colour; a cube's colour
            # only inside what differs: the rim blends a piece's edge with the art behind
            # it, in colours of neither (a yellow cube's edge on blue water reads green).
            neutral = fg & (labels == colours.NONE) | (labels == colours.NEUTRAL)
            # NEUTRAL where both hold, NONE (0) elsewhere: the flags' bytes times NEUTRAL
            # (np.where of two ints makes a 64-bit image first: fifteen times slower).
            castle_labels = (fg & neutral).view(np.uint8) * np.uint8(colours.NEUTRAL)
            core = cv2.erode(fg.view(np.uint8), self._kernel3).view(bool)
            # NONE (0) outside the core: the labels times its flags (numpy's boolean
            # assignment to nearly every pixel took twenty times as long).
            np.multiply(labels, core, out=labels)
            absolute = None
            for cell in self._cardless:
                # A court whose card was laid after the bare table: read by colour alone.
                absolute = np.take(self.table, index) if absolute is None else absolute
                box = (slice(cell.y, cell.y + cell.h), slice(cell.x, cell.x + cell.w))
                labels[box] = absolute[box]
            if stale.any():
                absolute = np.take(self.table, index) if absolute is None else absolute
                # Read without the reference, and say the camera cannot vouch for it.
                for cell in self.atlas.cells:
                    if stale[cell.index]:
                        self._doubt(cell, 0.0)
                where = stale[self.atlas.zone_index[: self.atlas.colour_rows]]
                labels[where] = absolute[where]
                castle_labels[where] = np.where(absolute[where] == colours.NEUTRAL,
                                                colours.NEUTRAL, colours.NONE)
        else:
            snap["reader"] = "absolute"
            self._shade = None
            self._atlas = None
            castle_labels = None
            labels = np.take(self.table, index)
            for cell in self._on_paper:
                box = (slice(cell.y, cell.y + cell.h), slice(cell.x, cell.x + cell.w))
                labels[box] = np.take(self.paper_table, index[box])
        self._count_blobs(snap, atlas, labels, castle_labels)
        self._count_courts(snap, atlas, labels, index)
        self._count_discs(snap, atlas)
        snap["confidence"] = {k: round(v, 2) for k, v in sorted(self._confidence.items())
                              if v < 1.0}
        return Snapshot.from_json(self.steady.merge(snap, atlas, changed, self._guessed))

    def balance(self, frame: np.ndarray, atlas: np.ndarray) -> WhiteField:
        """White-balance the atlas in place so paper reads `WHITE_LEVEL` in every channel.

        Each zone is scaled by the room light at its centre; where glare lies on a zone,
        the glare is first taken off pixel by pixel (it adds white: W (1 - g) + 255 g).
        Near full scale the brightest pieces clip: a clipped channel is taken to be at
        least as bright as the pixel's others, so white stays white instead of tinted.
        """
        white = self.border.white_field(frame, self.atlas, atlas)
        glare = self.glare.measure(frame, white) > 0
        refs = white.at(self._cell_centres[:, 0], self._cell_centres[:, 1])
        self.dim = float(np.median(refs.max(axis=1))) < DIM_PAPER
        clipped = None
        if int(atlas.max()) >= CLIPPED:
            # OpenCV's stubs allow no scalar to compare with, which it takes.
            clipped = [cv2.compare(c, CLIPPED - 1, cv2.CMP_GT)  # type: ignore[call-overload]
                       for c in cv2.split(atlas)]
        for cell, ref in zip(self.atlas.cells, refs, strict=True):
            if cell.zone.kind == "reference":
                continue
            roi = atlas[cell.y:cell.y + cell.h, cell.x:cell.x + cell.w]
            g = self.glare.over(cell.origin_mm, cell.h, cell.w, self.scale) if glare else None
            if g is None:
                # A tuple per channel is a scalar to OpenCV; its stubs before 5.1 say
                # only arrays, those after say both: typed loosely to suit either.
                gains: Any = (*tuple(float(colours.WHITE_LEVEL / max(8.0, v)) for v in ref),
                              0.0)
                cv2.multiply(roi, gains, dst=roi)
                continue
            # (pixel - 255 g) / max(0.1, 1 - g) * gain, in float32 as numpy's broadcast
            # over the channels computed it, but by OpenCV on whole channels: the glare's
            # two planes worked out once, not once per channel.
            glare3 = cv2.merge((255.0 * g,) * 3)
            keep3 = cv2.merge((np.maximum(0.1, 1.0 - g),) * 3)
            lit = cv2.divide(cv2.subtract(roi.astype(np.float32), glare3), keep3)
            gain = (colours.WHITE_LEVEL / np.maximum(8.0, ref)).astype(np.float32)
            # The gain on the diagonal of OpenCV's transform: the float32 products of a
            # multiply by it, in a third of the time (see `Comparison.features`).
            cv2.transform(lit, np.diag(gain), dst=lit)
            roi[:] = np.clip(lit, 0, 255).astype(np.uint8)
        if clipped is not None:
            # A glared frame clips in some 40 000 channels: OpenCV's whole channels are
            # quicker than numpy's indexing of them.
            channels = list(cv2.split(atlas))
            brightest = cv2.max(cv2.max(channels[0], channels[1]), channels[2])
            for channel, mask in zip(channels, clipped, strict=True):
                cv2.copyTo(brightest, mask, channel)
            cv2.merge(channels, atlas)
        return white

    def _count_blobs(self, snap: SnapshotJSON, atlas: np.ndarray, labels: np.ndarray,
                     castle_labels: np.ndarray | None = None) -> None:
        """Territories, reserves and the pool: one labelling of all coloured pixels.

        Components holding more than one colour (two cubes touching) are split by
        colour inside their bounding box; everything else is counted directly.
        """
        rows = self.atlas.blob_rows
        zone_index = self.atlas.zone_index[:rows]
        lab = labels[:rows]
        inside = zone_index > 0
        mask = ((lab > 0) & (lab != colours.NEUTRAL) & inside).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, self._kernel3)
        if castle_labels is not None:
            self._count_castles(snap, atlas, castle_labels[:rows], inside & self._territory_rows)
        elif self.dim:
            # A dim room's sensor noise speckles a castle's grey with colour; castles are
            # big enough to be looked for in a slightly smoothed copy.
            smooth = cv2.GaussianBlur(atlas[:rows], (5, 5), 0)
            self._count_castles(snap, atlas, colours.classify(smooth, self.table),
                                inside & self._territory_rows)
        else:
            self._count_castles(snap, atlas, lab, inside & self._territory_rows)
        _, cc, stats, cents = _components(mask)
        smallest = 0.35 * self._footprint_px("cube", *self._nadir)
        # Against the bare table a cube on art of its own colour may differ only in a
        # sliver: smaller blobs go to the fitted count, which knows specks too.
        least = (LEAST_REFERENCE_BLOB if self._comparison is not None else 0.35
                 ) * self._footprint_px("cube", *self._nadir)
        big = np.flatnonzero(stats[:, cv2.CC_STAT_AREA] >= least)
        big = big[big > 0]
        dyed = self._shade is not None and self.shade is not None and self.stir is not None
        speck = np.zeros(len(stats), bool)
        if dyed:
            # Specks of colour on a territory are weighed with the changes around them (a
            # cube dyed like its field shows a sliver of colour beside its dark sides), not
            # alone: alone, neither is a cube's worth.
            cx = np.clip(cents[:, 0].astype(np.intp), 0, zone_index.shape[1] - 1)
            cy = np.clip(cents[:, 1].astype(np.intp), 0, rows - 1)
            speck = (stats[:, cv2.CC_STAT_AREA] < smallest) & self._territory_rows[cy, cx]
            speck[0] = False
            big = big[~speck[big]]
        blobs: list[Blob] = []
        # A blob of still zones is looked at only when it may be the emperor, and then
        # only if it is yellow.
        boxed = self._in_still_zones(stats, big)
        looked = ~(boxed & self._not_emperor(stats, big))
        yellow = colours.CLASS_OF["yellow"]
        for k, only_yellow in zip(big[looked], boxed[looked], strict=True):
            bx, by, bw, bh = (int(v) for v in stats[k, :4])
            blob = cc[by:by + bh, bx:bx + bw] == k
            sub_lab = lab[by:by + bh, bx:bx + bw]
            hist = np.bincount(sub_lab[blob], minlength=8)
            colours_here = np.flatnonzero(hist[1:colours.NEUTRAL] >= smallest) + 1
            if len(colours_here) <= 1:
                cls = int(colours_here[0]) if len(colours_here) else int(
                    hist[1:colours.NEUTRAL].argmax() + 1)
                if only_yellow and cls != yellow:
                    continue
                ax, ay = cents[k]
                blobs.append((cls, float(stats[k, cv2.CC_STAT_AREA]), ax, ay, blob,
                              (bx, by, bw, bh), None))
                continue
            if only_yellow and yellow not in colours_here:
                continue
            for each in colours_here:
                part = (blob & (sub_lab == each)).astype(np.uint8)
                m, pcc, pst, pce = _components(part)
                for j in range(1, m):
                    if pst[j, cv2.CC_STAT_AREA] < least:
                        continue
                    px, py, pw, ph = (int(v) for v in pst[j, :4])
                    blobs.append((int(each), float(pst[j, cv2.CC_STAT_AREA]), bx + pce[j][0],
                                  by + pce[j][1], pcc[py:py + ph, px:px + pw] == j,
                                  (bx + px, by + py, pw, ph), None))
        if dyed:
            # Pieces whose shadow a dark patch may be: blobs of colour as big as a third
            # of a cube (a cube dyed like its field leaves specks of its own colour,
            # which must not make its shaded sides look like another piece's shadow).
            keep = np.zeros(len(stats), bool)
            keep[1:] = stats[1:, cv2.CC_STAT_AREA] >= smallest
            pieces, specks = _label_flags(cc, keep, speck)
            blobs += self._shaded_cubes(pieces, specks, castle_labels,
                                        inside & self._territory_rows, least,
                                        (stats[keep], cents[keep]), lab)
        self._interpret(snap, atlas, blobs)

    def _shaded_cubes(self, coloured: np.ndarray, specks: np.ndarray,
                      castle_labels: np.ndarray | None, territories: np.ndarray,
                      least: float, plain: tuple[np.ndarray, np.ndarray],
                      lab: np.ndarray) -> list[Blob]:
        """Cubes on art of their own colour: where the frame is darker than the bare
        table by more than light drifts (`self.shade`, fitted), apart from every other
        piece, a cube's shaded sides may be all that differs; specks of a piece's colour
        too small to be a cube say the same. From there the patch grows into every
        touching pixel changed more than light changes all but one pixel in a hundred
        (`stir`, fitted: the rest of the cube's sides, its shadow, its edges), as a
        hysteresis threshold grows an edge from its strong pixels. Each patch is a blob
        of the colour under and beside it, for the fitted count to judge; how much of it
        touches another piece (whose shadow it may be), how much of it shows a piece's
        colour, how much of its surroundings lies where the shadows of the pieces seen
        plainly fall (`vision.cast`; the patch itself stops there), how dark it is and
        how well it keeps the art's pattern go with it. `lab` is the blob rows' colour
        classes: pieces of the emperor's colour cut no patch (see the cut below)."""
        assert self._shade is not None and self.shade is not None and self.stir is not None
        ratio, stale = self._shade
        assert self._comparison is not None
        rows = self.atlas.blob_rows
        shaded = (ratio[:rows] < self.shade) & territories
        dark = shaded & ~stale[self.atlas.zone_index[:rows]] if stale.any() else shaded
        dark = cv2.morphologyEx(dark.view(np.uint8), cv2.MORPH_OPEN, self._kernel3)
        seeds = dark.view(bool) | specks
        if not seeds.any():
            # No dark patch in the zones compared: their pieces cast no shadow worth
            # measuring now, and what was measured of them before no longer holds.
            self._forget_offsets()
            return []
        side_px = self._sizes["cube"] * self.scale
        pieces = coloured.copy()
        # the coloured blobs' boxes and middles (`plain`), and the castles', for
        # `cast.caster_offsets`
        casters = [(*plain, 1.0)]
        castles: np.ndarray | None = None
        if castle_labels is not None:
            # Colourless blobs as big as half a castle (smaller ones may be the cube's
            # own shaded sides).
            grey = (castle_labels[:rows] == colours.NEUTRAL).view(np.uint8)
            m, gcc, gstats, gcents = _components(grey)
            keep = np.zeros(m, bool)
            keep[1:] = gstats[1:, cv2.CC_STAT_AREA] >= 0.5 * self._footprint_px(
                "castle", *self._nadir)
            castles = _label_flags(gcc, keep)[0]
            pieces |= castles
            casters.append((gstats[keep], gcents[keep], self._castle_height))
        self._measure_offset(pieces, casters, shaded, side_px)
        stir = float(np.exp(self.stir))
        weak = ((ratio[:rows] < 1.0 / stir) | (ratio[:rows] > stir)) & territories
        if stale.any():
            weak &= ~stale[self.atlas.zone_index[:rows]]
        near = cv2.dilate(pieces.view(np.uint8), self._kernel5).view(bool)
        reach = max(3, round(0.5 * self._sizes["cube"] * self.scale)) | 1
        grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))
        # Only as far as a cube's own parts lie from each other: half its side each way.
        side = round(self._sizes["cube"] * self.scale) | 1
        close = cv2.dilate(seeds.view(np.uint8), cv2.getStructuringElement(
            cv2.MORPH_ELLIPSE, (side, side))).view(bool)
        # Where the shadows of the pieces seen plainly fall (`vision.cast`) is no part of
        # a patch: a cube dyed like its field beside other pieces left one patch of its
        # sides and their shadows, which the count took for a shadow (or a shadow with a
        # dyed cube's sides in it for a cube). Cut there, its own parts are its patch,
        # and how much of the patch's surroundings such shadows cover says what else
        # stands beside it. Pieces of the emperor's colour cut nothing: he is taller than
        # the cube whose shadow the cut assumes, and on a field of his yellow that shadow
        # of his visible parts covers his own shaded side, which must stay whole for him
        # to be found (`_emperor_among`).
        shadows = self._shadows(
            castles, (coloured & (lab != colours.CLASS_OF["yellow"])) | ~territories)
        grown = (((weak & close & ~pieces) | seeds) & ~shadows).view(np.uint8)
        n, cc, stats, cents = _components(grown)
        if n <= 1:
            return []
        # The components holding a seed: a count of the seeds' labels (no sort, as
        # np.unique's).
        hit = np.bincount(cc[seeds], minlength=n) > 0
        hit[0] = False
        found: list[Blob] = []
        ks = np.flatnonzero(hit)
        for k in ks[~self._still(stats, ks)]:
            area = float(stats[k, cv2.CC_STAT_AREA])
            if area < least:
                continue
            bx, by, bw, bh = (int(v) for v in stats[k, :4])
            blob = cc[by:by + bh, bx:bx + bw] == k
            attached = _share(near[by:by + bh, bx:bx + bw][blob])
            tinted = _share(specks[by:by + bh, bx:bx + bw][blob])
            # This search is for a cube dyed like its field: its colour is the field's,
            # on the bare table under and beside it (a shadow on a field of no piece's
            # colour is no cube; a dark shadow's own colour says nothing).
            pad = reach
            y0, x0 = max(0, by - pad), max(0, bx - pad)
            y1, x1 = min(rows, by + bh + pad), min(ratio.shape[1], bx + bw + pad)
            around = cv2.dilate(cv2.copyMakeBorder(blob.view(np.uint8), by - y0, y1 - by - bh,
                                                   bx - x0, x1 - bx - bw,
                                                   cv2.BORDER_CONSTANT, value=0), grow)
            field = np.take(self._pieces_table, self._comparison.picture_index(y0, y1, x0, x1))
            hist = np.bincount(field[around.view(bool)], minlength=8)
            cubes = hist[1:colours.NEUTRAL]
            if cubes.max() == 0:
                # No cube is dyed like this field; a castle is. Its lit top is the art's
                # own white (snow) or grey (rock), and only its shaded sides and shadow
                # differ, darker, as a shadow does: so no colourless blob is seen, and
                # the tile read "no castle" as if sure. A patch that could hold a castle
                # (its footprint, a castle's top and sides) is no count, but a doubt.
                self._doubt_castle_patch(area, cents[k])
                continue
            cls = int(cubes.argmax() + 1)
            # its surroundings: the patch grown by half a cube's side, less the patch
            ring = around.view(bool).copy()
            ring[by - y0:by - y0 + bh, bx - x0:bx - x0 + bw] &= ~blob
            explained = _share(shadows[y0:y1, x0:x1][ring])
            beyond = area / (side_px * side_px)
            # On the line between two fields of cube colours either may be its dye.
            runner_up = float(np.partition(cubes, -2)[-2]) / float(cubes.max())
            found.append((cls, area, float(cents[k][0]), float(cents[k][1]), blob,
                          (bx, by, bw, bh),
                          Patch(attached, tinted, explained, beyond, 1.0 - runner_up,
                                cast.change_toward_lamp(ratio[:rows], blob,
                                                        (bx, by, bw, bh), self._offset))))
        return found

    def _doubt_castle_patch(self, area: float, middle: np.ndarray) -> None:
        """Doubt the tile under a dark patch on a field of no cube's colour (`_shaded_cubes`)
        when the patch could hold a castle: as big as a castle's footprint there. A shadow
        that big on such a field is mostly cast by a piece seen plainly and cut away
        (`_shadows`); what is left of one is asked about, not buzzed. 4-player hard camera
        game 900431 raised `castle-missing` for a white castle built on a tile's snow,
        read as no castle with confidence 0.93."""
        ax, ay = float(middle[0]), float(middle[1])
        zone = int(self.atlas.zone_index[int(ay), int(ax)])
        if zone == 0:
            return
        cell = self.atlas.cells[zone - 1]
        if cell.zone.kind == "territory" and area >= self._footprint_px(
                "castle", *cell.mm(ax, ay, self.scale)):
            self._doubt(cell, 0.0)

    def _measure_offset(self, pieces: np.ndarray,
                        casters: Sequence[tuple[np.ndarray, np.ndarray, float]],
                        shaded: np.ndarray, side_px: float) -> None:
        """Which way and how far the pieces' shadows fall (`vision.cast`), for this
        read's `_shadows` and the emperor's (`_interpret`): the median over the pieces
        of every zone, those of the zones this read compares as measured now and the
        others' as measured when they were last compared with a dark patch among them
        (their pixels have not moved since: a hand that moves one piece leaves the lamp
        where it was)."""
        middles, offsets = cast.caster_offsets(pieces, casters, shaded, side_px)
        self._forget_offsets()
        zone = self.atlas.zone_index[middles[:, 1].astype(np.intp),
                                     middles[:, 0].astype(np.intp)]
        for k in np.unique(zone):
            self._cast[int(k)] = offsets[zone == k]
        kept = list(self._cast.values())
        self._offset = cast.median_offset(np.concatenate(kept) if kept else offsets)

    def _forget_offsets(self) -> None:
        """Drop the kept shadow offsets of the zones this read compares (every zone's
        when it compares all): their pixels moved since they were measured."""
        if self._compared_zones is None:
            self._cast.clear()
        else:
            for k in np.flatnonzero(self._compared_zones):
                self._cast.pop(int(k), None)
        self._cast.pop(0, None)      # a piece beside every zone: one read's alone

    def _shadows(self, castles: np.ndarray | None, cubes: np.ndarray) -> np.ndarray:
        """Where the shadows of the pieces seen plainly fall (`vision.cast`), the way
        `_measure_offset` found: `cubes` casts as far as a cube: the coloured blobs, and
        all beyond the tiles, since a tile's cell in the atlas shows none of what stands
        beyond it and a shadow may come in over its edge from there."""
        shadows = cast.cast_shadows(cubes, self._offset)
        if castles is not None and castles.any():
            shadows |= cast.cast_shadows(castles, self._offset, self._castle_height)
        return shadows

    def _count_castles(self, snap: SnapshotJSON, atlas: np.ndarray, lab: np.ndarray,
                       inside: np.ndarray) -> None:
        """Castles: colourless blobs as big as a castle on the territories."""
        mask = ((lab == colours.NEUTRAL) & inside).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, self._kernel3)
        _, cc, stats, cents = _components(mask)
        cells = self.atlas.cells
        big = np.flatnonzero(stats[:, cv2.CC_STAT_AREA] >= 40 * self.scale**2)
        big = big[big > 0]
        for k in big[~self._in_still_zones(stats, big)]:
            area = float(stats[k, cv2.CC_STAT_AREA])
            ax, ay = cents[k]
            bx, by, bw, bh = (int(v) for v in stats[k, :4])
            blob = cc[by:by + bh, bx:bx + bw] == k
            zi = int(self.atlas.zone_index[int(ay), int(ax)])
            if zi == 0:
                sub = self.atlas.zone_index[by:by + bh, bx:bx + bw][blob]
                zi = int(np.bincount(sub, minlength=2)[1:].argmax() + 1)
            cell = cells[zi - 1]
            if not self._counted(cell):
                continue
            x, y = cell.mm(ax, ay, self.scale)
            self._castles(snap, cell, atlas, blob, (bx, by, bw, bh), area, x, y)

    def _interpret(self, snap: SnapshotJSON, atlas: np.ndarray, blobs: list[Blob]) -> None:
        cells = self.atlas.cells
        zone_index = self.atlas.zone_index
        best_cylinder: dict[str, float] = {}
        emperors: list[tuple[float, float, Cell, np.ndarray, tuple[int, ...], float, float,
                             float]] = []
        # Yellow blobs on territories are counted once the emperor is known: when none
        # looks like him, the biggest of them is he (he is always on the table).
        yellows: list[Yellow] = []
        for cls, area, ax, ay, blob, box, shade in blobs:
            zi = int(zone_index[int(ay), int(ax)])
            if zi == 0:
                bx, by, bw, bh = box
                sub = zone_index[by:by + bh, bx:bx + bw][blob]
                zi = int(np.bincount(sub, minlength=2)[1:].argmax() + 1)
            cell = cells[zi - 1]
            x, y = cell.mm(ax, ay, self.scale)
            kind = cell.zone.kind
            if kind in CATCH_MM:
                # Judge by the piece's foot: what the camera sees leans away from it.
                dx, dy = self.parallax(x, y, 0.5 * self.layout.height_mm("cube"))
                if not cell.zone.contains(x - dx, y - dy):
                    continue            # a piece beside the zone, seen in its margin
            colour = "neutral" if cls == colours.NEUTRAL else colours.COLOUR_OF[cls]
            # A still zone's counts are its last (`_counted`); its yellow blobs are still
            # looked at, for the emperor (the cubes they give there do not matter).
            counted = self._counted(cell)
            if shade is not None:
                if kind == "territory" and colour == "yellow":
                    if self.collect_yellow is not None:
                        self.collect_yellow.append((cell.zone.name, area / self._footprint_px(
                            "emperor", x, y), (ax, ay), blob, box, True))
                    yellows.append((cell, x, y, area, self._yellow_counted(
                        snap, cell, blob, x, y, area, box, shade) if counted else 0, True,
                        box, blob))
                elif kind == "territory" and counted:
                    self._count_cube_blob(snap, cell, colour, blob, x, y, area, box=box,
                                          shade=shade)
                continue
            if kind == "pool":
                if colour != "neutral":
                    need = 0.55 * self._footprint_px("cylinder", x, y)
                    if area >= need and area > best_cylinder.get(colour, 0):
                        best_cylinder[colour] = area
                continue
            if colour == "neutral":
                if kind == "territory" and counted:
                    self._castles(snap, cell, atlas, blob, box, area, x, y)
                continue
            if colour == "yellow" and kind == "territory":
                emp, inner = self._emperor_area(blob, area, x, y)
                if self.collect_yellow is not None:
                    self.collect_yellow.append((cell.zone.name, area / self._footprint_px(
                        "emperor", x, y), (ax, ay), blob, box, False))
                if emp > 0:
                    emperors.append((inner, emp, cell, blob, box, x, y, area))
                    continue
                yellows.append((cell, x, y, area, self._yellow_counted(
                    snap, cell, blob, x, y, area, box, None) if counted else 0, False, box,
                    blob))
                continue
            if counted:
                self._count_cube_blob(snap, cell, colour, blob, x, y, area, box=box)
        if not emperors and self._comparison is not None:
            self._emperor_among(snap, yellows)
        # There is one emperor: the roundest of the yellow blobs big enough for him (a
        # block of yellow cubes pushed together is big enough too, but square).
        emperors.sort(key=lambda e: (e[0], e[1]), reverse=True)
        for i, (_, _, cell, blob, box, x, y, area) in enumerate(emperors):
            if i > 0:
                if self._counted(cell):
                    self._count_cube_blob(snap, cell, "yellow", blob, x, y, area, box=box)
                continue
            snap["emperor"] = int(cell.zone.raw["territory"])
            if not self._counted(cell):
                continue
            # the yellow blobs of his tile no further from his blob than his base is wide
            # (of his colour: a dark patch holds his shadow, which lies away from his foot)
            mine = [(b, m) for other, ox, oy, _, _, patch, b, m in yellows
                    if other is cell and not patch
                    and np.hypot(ox - x, oy - y) <= self._sizes["emperor"]]
            reach = self._reach(cell, self._foot(blob, box, mine))
            for part, (px, py) in self._beside_emperor(blob, box):
                # only what shows past his reach is weighed as a cube (a cube touching
                # him stands out of it by most of its width, a sliver of him does not)
                part &= ~_reached(part, box, reach)
                if part.any():
                    self._count_cube_blob(snap, cell, "yellow", part,
                                          *cell.mm(px, py, self.scale), beside=True)
            # A yellow blob apart from his body but mostly within his reach is the rest
            # of him (his leaning top cut off by glare or a shadow), not a cube; so is
            # a dark patch mostly within his reach and his shadow, which falls the way
            # the others' do (`vision.cast`), as much further as he is taller (on a
            # field of his own dye both are a dark yellow patch; a yellow cube lying in
            # his shadow is still a yellow blob, and still a cube).
            shadow = ((reach[0], (cast.REACH[-1] * self._emperor_height * self._offset[0],
                                  cast.REACH[-1] * self._emperor_height * self._offset[1]),
                       reach[2]))
            cubes = snap["territories"][str(cell.zone.raw["territory"])]["cubes"]
            for other, _, _, _, n, patch, other_box, other_blob in yellows:
                if other is cell and n and _within(other_blob, other_box, reach,
                                                   *((shadow,) if patch else ())) >= 0.5:
                    cubes["yellow"] -= n
        for colour in best_cylinder:
            if snap["cylinders"][colour] is None:
                snap["cylinders"][colour] = "pool"

    def _yellow_counted(self, snap: SnapshotJSON, cell: Cell, blob: np.ndarray,
                        x: float, y: float, area: float, box: tuple[int, ...],
                        shade: Patch | None) -> int:
        """Count a yellow territory blob as cubes and say how many it gave (taken back
        if the blob turns out to be part of the emperor)."""
        cubes = snap["territories"][str(cell.zone.raw["territory"])]["cubes"]
        before = cubes["yellow"]
        self._count_cube_blob(snap, cell, "yellow", blob, x, y, area, box=box, shade=shade)
        return int(cubes["yellow"] - before)

    def _emperor_among(self, snap: SnapshotJSON, yellows: list[Yellow]) -> None:
        """The emperor when no yellow blob looks like him; his blobs' cubes taken back.

        On ochre or yellow art, or in hard light, he differs from the bare table only in
        pieces: a sliver of his colour and a patch of his shaded side, neither round nor
        big enough to pass for him, and each was counted as cubes. But there is always
        exactly one emperor on a set-up table, and his body is far wider than a cube:
        the yellow blob holding the widest disc is he, if that disc is as wide as his
        blobs hold in labelled frames (`emperor_disc`), and so is every yellow blob of
        his tile within his reach (his radius and his lean) of it. The disc is measured
        on the blobs touching it together (`joined_discs`): his sliver of colour and his
        shaded side are two blobs side by side, neither as wide as he is.
        """
        if self.emperor_disc is None or not yellows:
            return
        discs = joined_discs([(y[0].zone.name, y[6], y[7]) for y in yellows])
        best = int(np.argmax(discs))
        if discs[best] < self.emperor_disc * self.scale:
            return
        cell, x0, y0, *_ = yellows[best]
        snap["emperor"] = int(cell.zone.raw["territory"])
        self._guessed = True
        dx, dy = self.parallax(x0, y0, self.layout.height_mm("emperor"))
        reach = 0.5 * self._sizes["emperor"] + float(np.hypot(dx, dy))
        cubes = snap["territories"][str(cell.zone.raw["territory"])]["cubes"]
        for other, x, y, _, n, *_ in yellows:
            if other is cell and np.hypot(x - x0, y - y0) <= reach:
                cubes["yellow"] -= n

    def _count_cube_blob(self, snap: SnapshotJSON, cell: Cell, colour: str, blob: np.ndarray,
                         x: float, y: float, area: float | None = None,
                         beside: bool = False, box: tuple[int, ...] | None = None,
                         shade: Patch | None = None) -> None:
        """Cubes in one single-coloured blob, by its area over one cube's footprint here.

        Beside the emperor a cube is partly hidden by him, so less of it must show.
        """
        if area is None:
            area = float(blob.sum())
        cube = self._footprint_px("cube", x, y)
        if cell.zone.kind in ON_PAPER:
            cube *= self._paper_blob
        if self.debug is not None:
            self.debug.append(("cube", cell.zone.raw.get("territory", cell.zone.seat), colour,
                               area / cube, x, y))
        if self._comparison is not None and not beside:
            # Against the bare table what differs of a cube depends on the art under it
            # and on its neighbours: the fitted model of labelled blobs counts it.
            darkness = likeness = 0.0
            if shade is not None and box is not None and self._shade is not None:
                # Only a patch found by its change alone is weighed by how it changed: a
                # blob of a piece's colour is a piece's whatever the art behind it.
                darkness, likeness = self._change(blob, box)
            # The top of a patch found by its darkness alone is the art's, of the same
            # colour as the cube it may be: only a blob of a piece's colour is weighed by it.
            seen = (self.top(colour, blob, box) if shade is None and box is not None
                    and self._atlas is not None else None)
            features = blob_features(blob, cube, self._sizes["cube"] * self.scale,
                                     cell.zone.kind in ON_PAPER,
                                     shade, darkness, likeness,
                                     (0.0, 0.0) if seen is None else (seen.lit, seen.colour))
            if self.collect is not None:
                self.collect.append((cell.zone.name, colour, features, box, blob))
            if (seen is not None and self.lit_bound is not None
                    and not self.lit_bound.shows_top(seen)):
                # No top as bright as its colour under this lamp: a shadow the colour
                # table took for a dark cube (see `vision.lit`). The bound is the
                # dimmest top the labelled cubes showed, and a set's darker dye under a
                # lamp drifted since the calibration may show a dimmer one: where the
                # blob is a cube by everything else the count weighs, it is left out as
                # unsure as its nearest labelled blobs are that it holds no cube (a vote
                # for a cube, however unsure, never vouches for its absence), and a move
                # it would make is asked about rather than taken for the camera's word.
                if self.cubes is not None:
                    n, _ = self.cubes.count(features)
                    if n > 0:
                        self._doubt(cell, self.cubes.share_of_none(features))
                return
            if self.cubes is not None:
                n, sure = self.cubes.count(features)
                self._doubt(cell, sure)
                if n > 0:
                    if shade is not None:
                        # its colour is the field's: as sure as the field is of one dye
                        self._doubt(cell, shade.dyed)
                    self._add_cubes(snap, cell, colour, n)
                return
            if _inner_radius(blob, close=True) < THINNEST * self._sizes["cube"] * self.scale:
                # A thin ring of colour is the blend of another piece's edge with the
                # art, never a cube's top.
                return
        least = 0.35 if beside else 0.5
        # A cube is solid: holes and cracks that noise or light leave in it do not make
        # it a speck. Where its shaded sides lose their colour (blue's read black, yellow's
        # ochre like the fields) only its top shows, so a small blob may still be a cube;
        # only red and pink art (roofs, flowers) leaves specks nearly as thick.
        solid = 2.0 if beside else SOLID_CUBE_PX.get(colour, 2.6)
        if area < least * cube or (area < 0.9 * cube and _inner_radius(blob, mend=True)
                                   < solid * self.scale):
            if 0.5 * least * cube <= area < least * cube:
                # Nearly a cube's least size: perhaps a cube the art hides.
                self._doubt(cell, 2.0 * (1.0 - area / (least * cube)))
            return
        ratio = area / cube
        if 1.7 <= ratio < 2.4:
            # One cube with a touching speck of art, or two cubes: area cannot tell, but two
            # cubes side by side make a blob twice as long as it is wide.
            aspect = _elongation(blob)
            n = 2 if aspect >= 1.95 or (aspect >= 1.7 and ratio >= 1.95) else 1
            self._doubt(cell, margin(aspect, 1.7 if n == 2 else 1.0, 1.95 if n == 1
                                      else 4.0))
        elif ratio < 1.7:
            n = 1
            self._doubt(cell, margin(ratio, least, 1.7))
        else:
            n = max(1, round(ratio / MERGED_CUBE_AREA))
            self._doubt(cell, margin(ratio / MERGED_CUBE_AREA, n - 0.5, n + 0.5))
        self._add_cubes(snap, cell, colour, n)

    def top(self, colour: str, blob: np.ndarray, box: tuple[int, ...]) -> lit.Top:
        """`vision.lit.top` of a blob of the atlas last read against the bare table."""
        assert self._atlas is not None
        bx, by, bw, bh = box[:4]
        return lit.top(self._atlas[by:by + bh, bx:bx + bw][blob], self.piece_colours[colour])

    def _change(self, blob: np.ndarray, box: tuple[int, ...]) -> tuple[float, float]:
        """How a blob differs from the bare table: its mean darkening (-log of the
        brightness ratio) and the correlation of its brightness with the bare table's
        (1: the same pattern, scaled, as a shadow leaves it; near 0: another surface,
        or art with no pattern to keep)."""
        assert self._shade is not None and self._comparison is not None
        assert self._atlas is not None
        ratio = self._shade[0]
        bx, by, bw, bh = box
        seen = ratio[by:by + bh, bx:bx + bw][blob]
        if seen.size < 3:
            return 0.0, 0.0
        darkness = float(-np.log(np.maximum(seen, 1e-3)).mean())
        # The blob's brightness, summed over its box only (not the whole atlas's, of
        # which a few boxes are read).
        now = _channel_sum(self._atlas[by:by + bh, bx:bx + bw])[blob]
        now = now - now.mean()
        bare = self._comparison.picture_sum(by, by + bh, bx, bx + bw)[blob]
        bare -= bare.mean()
        spread = float(np.sqrt((now @ now) * (bare @ bare)))
        return darkness, float(now @ bare) / spread if spread > 1e-6 else 0.0

    def _beside_emperor(self, blob: np.ndarray, box: tuple[int, ...]
                        ) -> list[tuple[np.ndarray, tuple[float, float]]]:
        """Parts of a yellow blob outside the emperor's round body: yellow cubes touching
        him, or the narrower top of him leaning away (`_reach`).

        An opening (holes filled) with a disc wider than a cube keeps only his body;
        what the opening removes, away from his outline, is cubes (or nothing). Each part
        is a mask in ``box`` with its centre (atlas px)."""
        d = round(0.55 * self._sizes["emperor"] * self.scale) | 1
        pad = d // 2 + 2
        mask: np.ndarray = cv2.copyMakeBorder(blob.astype(np.uint8), pad, pad, pad, pad,
                                              cv2.BORDER_CONSTANT, value=0)
        contours, _ = cv2.findContours(self._close_ring(mask), cv2.RETR_EXTERNAL,
                                       cv2.CHAIN_APPROX_SIMPLE)
        hull = np.zeros_like(mask)
        cv2.drawContours(hull, contours, -1, 1, -1)       # his darker top is a hole
        mask = mask | hull
        body = cv2.morphologyEx(mask, cv2.MORPH_OPEN,
                                cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d)))
        body = cv2.dilate(body, self._kernel3)
        rest = (mask & (1 - body))[pad:-pad, pad:-pad]
        rest = cv2.morphologyEx(rest, cv2.MORPH_OPEN, self._kernel)
        n, cc, stats, cents = _components(rest)
        bx, by = box[0], box[1]
        return [(cc == k, (bx + float(cents[k][0]), by + float(cents[k][1])))
                for k in range(1, n) if stats[k, cv2.CC_STAT_AREA] >= 4 * self.scale**2]

    def _foot(self, blob: np.ndarray, box: tuple[int, ...],
              near: Sequence[tuple[tuple[int, ...], np.ndarray]]) -> tuple[float, float]:
        """Where the emperor stands (atlas px): the middle of the disc of his base's size
        holding the most of his blob and of the yellow blobs ``near`` it (boxes and
        masks). Glare or art breaks his ring into pieces, his lit side is thicker than
        the rest, and cubes touch him: neither his widest inner disc nor his blob's
        centroid is as steady."""
        k = 2 * int(np.ceil(0.5 * self._sizes["emperor"] * self.scale)) + 1
        x0, y0 = box[0] - k, box[1] - k
        canvas = np.zeros((box[3] + 2 * k, box[2] + 2 * k), np.float32)
        for (bx, by, bw, bh), mask in [(box[:4], blob), *((b[:4], m) for b, m in near)]:
            left, top = max(bx, x0), max(by, y0)
            right = min(bx + bw, x0 + canvas.shape[1])
            bottom = min(by + bh, y0 + canvas.shape[0])
            if right > left and bottom > top:
                canvas[top - y0:bottom - y0, left - x0:right - x0] += mask[
                    top - by:bottom - by, left - bx:right - bx]
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)).astype(np.float32)
        held = cv2.filter2D(canvas, -1, disc, borderType=cv2.BORDER_CONSTANT)
        _, _, _, (mx, my) = cv2.minMaxLoc(held)
        return float(x0 + mx), float(y0 + my)

    def _reach(self, cell: Cell, foot: tuple[float, float]) -> Reach:
        """Where the emperor whose foot is at ``foot`` (atlas px) can show: his base's
        disc swept from his foot to where the camera sees his top. He is far taller than
        a cube, so away from the camera's nadir his top leans out of his base by more
        than a cube's width; what shows of it past his round body is him."""
        x, y = cell.mm(*foot, self.scale)
        dx, dy = self.parallax(x, y, self.layout.height_mm("emperor"))
        return (foot, (dx * self.scale, dy * self.scale),
                0.5 * self._sizes["emperor"] * self.scale)

    def _close_ring(self, mask: np.ndarray) -> np.ndarray:
        """Seen from above the emperor is a yellow ring round his darker top; a notch in
        the ring (glare, a shadow) opens it. Closing mends the notch (`mask` padded)."""
        k = round(0.3 * self._sizes["emperor"] * self.scale) | 1
        return cv2.morphologyEx(mask, cv2.MORPH_CLOSE,
                                cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))

    def _add_cubes(self, snap: SnapshotJSON, cell: Cell, colour: str, n: int) -> None:
        if n <= 0:
            return
        zone = cell.zone
        if zone.kind == "territory":
            snap["territories"][str(zone.raw["territory"])]["cubes"][colour] += n
        elif zone.kind == "reserve" and zone.seat in snap["reserves"]:
            snap["reserves"][zone.seat][colour] += n

    def _emperor_area(self, blob: np.ndarray, area: float, x: float, y: float
                      ) -> tuple[float, float]:
        """The emperor's share of a yellow blob (0 if the blob is only cubes), and the
        radius of the largest disc inside it."""
        expected = self._footprint_px("emperor", x, y)
        if area < EMPEROR_LEAST * expected:
            return 0.0, 0.0
        need = 0.3 * self._sizes["emperor"] * self.scale
        inner = _inner_radius(blob, fill=True)
        if inner < need:
            k = round(0.3 * self._sizes["emperor"] * self.scale) | 1
            ring = cv2.copyMakeBorder(blob.astype(np.uint8), k, k, k, k,
                                      cv2.BORDER_CONSTANT, value=0)
            inner = _inner_radius(self._close_ring(ring), fill=True)
        if inner < need:
            return 0.0, inner
        return min(area, expected), inner

    def _castles(self, snap: SnapshotJSON, cell: Cell, atlas: np.ndarray, blob: np.ndarray,
                 box: tuple[int, ...], area: float, x: float, y: float) -> None:
        one = self._footprint_px("castle", x, y)
        if area < 0.4 * one:
            return
        if area < one:
            # Small, and thin (or, smoothed in a dim room, long): a road or river in the
            # tile's art. However broken up, a castle's body holds a disc of nearly a
            # fifth of its side, and is never 2.5 times longer than wide; a road joined
            # into a network can be as big as one castle but never that thick.
            side = self._sizes["castle"] * self.scale
            inner = _inner_radius(blob)
            if inner < 0.19 * side or (area < 0.5 * one and inner < 0.25 * side):
                return
            if area < 0.7 * one:
                long = _elongation(blob)
                if long >= 2.5 or (self.dim and inner < 0.33 * side and long >= 1.5):
                    return
        bx, by, bw, bh = box
        if (self._comparison is not None and self._shade is not None
                and (self.castle_model, self.collect_castles) != (None, None)):
            features = castle_features(
                atlas[by:by + bh, bx:bx + bw][blob], blob, one,
                self._sizes["castle"] * self.scale,
                (self.tuning.castle_white, self.tuning.castle_black), *self._change(blob, box))
            if self.collect_castles is not None:
                self.collect_castles.append((cell.zone.name, features, box, blob))
            if self.castle_model is not None:
                # Against the bare table the labelled blobs most like this one decide
                # (`vision.castle_count`): a castle's shadow is no black castle.
                found, sure = self.castle_model.castles(features)
                # Sure only if the blob's size agrees too, as the bands' count did (a
                # castle and its shadow reach 1.8 footprints, each castle more one
                # more): a blob the size of another count of castles than the vote's
                # (a castle with a cube lost in its shadow) is asked about, however
                # alike the neighbours voted.
                n = len(found)
                self._doubt(cell, min(sure, margin(area / one - 0.4, n - 0.5, n + 0.5)))
                counted = snap["territories"][str(cell.zone.raw["territory"])]["castles"]
                for colour in found:
                    counted[colour] += 1
                return
        brightness = atlas[by:by + bh, bx:bx + bw].max(axis=2)
        bright = brightness[blob]
        top = _percentile(bright, 80)
        if self.debug is not None:
            self.debug.append(("castle", cell.zone.raw["territory"], top, area / one, x, y))
        tune = self.tuning
        castles = snap["territories"][str(cell.zone.raw["territory"])]["castles"]
        n = max(1, round(area / one - 0.4))    # a castle and its shadow reach 1.8
        if n == 1 and area >= 1.55 * one and _elongation(blob) >= 1.95:
            n = 2       # two castles side by side: one with its shadow is never so long
        if n >= 2:
            # Touching castles: each colour whose lit tops fill most of a castle counts.
            top_px = 0.5 * self._sizes["castle"] ** 2 * self.scale**2
            # Stricter bands than for one castle: shaded sides of a grey castle must not
            # pass for a black one's top, nor a grey top for a white one.
            white = int((bright >= tune.castle_white + 15).sum())
            # A white castle's shaded sides read grey: they must not pass for a grey top.
            bands = {"white": white,
                     "black": int((bright < tune.castle_black - 12).sum()),
                     "grey": int(((bright >= tune.castle_black + 3)
                                  & (bright < tune.castle_white - 10)).sum()
                                 - WHITE_SIDES * white)}
            found = [c for c, k in sorted(bands.items(), key=lambda kv: -kv[1]) if k >= top_px]
            if len(found) >= 2:
                for colour in found[:n]:
                    castles[colour] += 1
                return
        if n == 1:
            # One castle's colour is judged on its body: grey art (roads, faded fields)
            # joined to it is thinner than a castle and opens away.
            body = cv2.morphologyEx(blob.astype(np.uint8), cv2.MORPH_OPEN, self._castle_core)
            if int(body.sum()) >= 0.5 * one:
                top = _percentile(brightness[body.astype(bool)], 80)
        colour = ("white" if top >= tune.castle_white else "black" if top < tune.castle_black
                  else "grey")
        self._doubt(cell, min(margin(area / one - 0.4, n - 0.5, n + 0.5),
                              margin(top, *{"white": (tune.castle_white, 255.0),
                                             "grey": (tune.castle_black, tune.castle_white),
                                             "black": (0.0, tune.castle_black)}[colour])))
        castles[colour] += n

    def _count_courts(self, snap: SnapshotJSON, atlas: np.ndarray, labels: np.ndarray,
                      index: np.ndarray) -> None:
        """Cubes by the length of each row's colour run; cylinders by colour on the dots."""
        pitch = CUBE_PITCH_MM * self.scale
        shares = _stacked_hits(labels, self._rows_stack, 0.0)
        for r, (cell, colour, iy, ix, along) in enumerate(self._rows):
            if cell.zone.seat not in snap["courts"] or not self._counted(cell):
                continue
            share = (shares[r] if shares is not None
                     else (labels[iy, ix] == colours.CLASS_OF[colour]).mean(axis=1))
            if self._comparison is not None and cell.zone.seat in self._cards:
                # Against the bare table the row's colour is the cubes alone: each run of
                # it between the gaps that show counts its own cubes (`RowModel`).
                spans = self.rows.spans(share, self.scale)
                runs = [(b - a) / self.scale for a, b in spans]
                n, each = self.rows.count(runs, self._pitches(atlas[iy, ix], spans, runs))
                for k, x in each:
                    # A run counted one cube however short it is is doubted only when it
                    # is nearly long enough for two; a long one, also as its length errs.
                    self._doubt(cell, self.rows.confidence(k, x))
                if self.debug is not None:
                    seen = np.flatnonzero(share >= self.rows.share)
                    covered = float(seen[-1] - seen[0] + 1) / self.scale if len(seen) else 0.0
                    self.debug.append(("row", cell.zone.seat, colour, covered, along, n,
                                       np.asarray(share, np.float32), atlas[iy, ix]))
                snap["courts"][cell.zone.seat][colour] = n
                continue
            run = _run_length(share >= ROW_SHARE, gap=2, from_start=True)
            # The last cube may lie in shadow: a weaker trace of the colour carries the
            # row on, up to one cube.
            end, reach = int(run), int(run + CUBE_PITCH_MM * self.scale)
            while run and end < min(reach, len(share)) and share[end] >= 0.12:
                end += 1
            length = end + ROW_START_MM * self.scale
            length -= (self._row_start(cell) + ROW_COLOUR_MM[colour]) * self.scale
            cubes = (length + (ROW_SHORT_MM - along) * self.scale) / pitch
            n = round(cubes) if length >= 4 else 0
            if n:
                self._doubt(cell, margin(cubes, n - 0.5, n + 0.5))
            if self.debug is not None:
                self.debug.append(("row", cell.zone.seat, colour, length, along, n))
            snap["courts"][cell.zone.seat][colour] = max(0, n)
        best: dict[str, float] = {}
        # Where the cylinder of each colour was seen so far: the pool, by its blobs.
        sightings: dict[str, list[str | None]] = {
            c: ["pool"] for c, place in snap["cylinders"].items() if place == "pool"}
        stack = self._dots_stack
        # A cylinder stands on its card's dot of its own colour. Where the bare table shows
        # the card, the dot is background; a card laid after it (a calibration frame may
        # show the tiles only) is told from a cylinder by size, in colour alone.
        blind = self._comparison is not None and len(self._cards) < len(self.seats)
        areas = _stacked_hits(labels, stack, None)
        by_colour = (np.take(self.table, index[stack[0], stack[1]]) == stack[2]).sum(
            axis=(1, 2)) if blind and stack is not None else areas
        for d, (cell, colour, (iy, ix)) in enumerate(self._dots):
            on_card = self._comparison is None or cell.zone.seat in self._cards
            if areas is not None and by_colour is not None:
                area = float((areas if on_card else by_colour)[d])
            else:
                seen = labels[iy, ix] if on_card else np.take(self.table, index[iy, ix])
                area = float((seen == colours.CLASS_OF[colour]).sum())
            x, y = cell.zone.raw["rows_mm"][colour][0]
            need = 0.4 * self._footprint_px("cylinder", x, y)
            if area < need:
                continue
            sightings.setdefault(colour, []).append(cell.zone.seat)
            if area > best.get(colour, 0):
                best[colour] = area
                snap["cylinders"][colour] = cell.zone.seat
        for colour, places in sightings.items():
            if len(places) > 1:
                # One piece seen in two places: one sighting is wrong, and which, the
                # camera cannot say (900211 hard: a shaded card's green dot read as the
                # green cylinder, which stood in the pool, seen there too). The referee
                # asks rather than buzz a cylinder on a court that does not control it.
                self._confidence[f"cylinder:{colour}"] = 0.0

    def _pitches(self, strip: np.ndarray, spans: list[tuple[int, int]], runs: list[float]
                 ) -> list[float | None]:
        """Per run of a court row (`spans` of the row's `strip` of the atlas, `runs` their
        lengths), its seams' pitch where the row model counts it by them (`seams`)."""
        change: np.ndarray | None = None
        pitches: list[float | None] = []
        for (a, b), mm in zip(spans, runs, strict=True):
            if not self.rows.measures(mm):
                pitches.append(None)
                continue
            change = seams.edges(strip, self.scale) if change is None else change
            pitches.append(seams.pitch(change[a:b], self.scale, self._sizes["cube"]))
        return pitches

    def _compared(self) -> np.ndarray | None:
        """Per atlas cell index, the zones this read compares with the bare table (None:
        every one). A zone whose counts `Steady.merge` puts back need not be: only the
        zones that moved, and what may decide another zone's counts, the pool (a
        cylinder there may stand for a court's) and the tile the emperor stands on (he is
        one for the whole table: not seen on his tile, he would be looked for on
        another). Most reads, where a hand moved one piece, compare a few zones of fifty."""
        if self._moved is None:
            return None
        zones = self._moved.copy()
        zones[self._pool] = True
        zones[self.steady.emperor_cells()] = True
        if self.steady.unkept():
            # the last read had a hand over the table: the cylinders are looked for on
            # every court card's dots again (`_count_courts`)
            zones[[cell.index for cell, _, _ in self._dots]] = True
        return zones

    def _counted(self, cell: Cell) -> bool:
        """Do this read's counts of `cell` stand? Not for a zone that did not move since
        it was last read: `Steady.merge` puts its last counts and doubts back, so its
        pieces are not counted (only what may decide another zone's counts is looked at:
        the emperor, who is one for the whole table, and the cylinders in the pool)."""
        return self._moved is None or bool(self._moved[cell.index])

    def _still(self, stats: np.ndarray, ks: np.ndarray) -> np.ndarray:
        """Per component `ks` of a labelling of the blob rows (`stats` as OpenCV gives
        them): True where looking at it cannot change this read's snapshot, whatever its
        colour: it lies in still zones (`_in_still_zones`) and cannot be the emperor
        (`_not_emperor`)."""
        still: np.ndarray = self._in_still_zones(stats, ks) & self._not_emperor(stats, ks)
        return still

    def _not_emperor(self, stats: np.ndarray, ks: np.ndarray) -> np.ndarray:
        """Per component `ks`: True where it, and every blob split from it, is too small
        to be the emperor (`_emperor_area`: never under `EMPEROR_LEAST` of his footprint
        right below the camera) and too narrow to hold the disc that picks him among yellow blobs
        (`_emperor_among`: no pixel of a box w wide lies further than (w + 1) / 2 from
        outside it)."""
        w, h = stats[ks, cv2.CC_STAT_WIDTH], stats[ks, cv2.CC_STAT_HEIGHT]
        small: np.ndarray = stats[ks, cv2.CC_STAT_AREA] < EMPEROR_LEAST * self._footprint_px(
            "emperor", *self._nadir)
        if self._comparison is not None and self.emperor_disc is not None:
            small &= (np.minimum(w, h) + 1) / 2 < self.emperor_disc * self.scale
        return small

    def _in_still_zones(self, stats: np.ndarray, ks: np.ndarray) -> np.ndarray:
        """Per component `ks`: True where its box lies in zones that did not move
        (`_counted`) and not in the pool (a cylinder there may stand for a court's), so
        that it and every blob split from it belong to zones whose counts are put back;
        only the emperor, who is one for the whole table, may then still matter."""
        if self._moved is None or not len(ks):
            return np.zeros(len(ks), bool)
        if self._counted_sum is None:
            lut = np.zeros(256, np.uint8)
            lut[:len(self._moved)] = self._moved
            lut[self._pool] = 1
            counted = cv2.LUT(self.atlas.zone_index[:self.atlas.blob_rows], lut)
            self._counted_sum = cv2.integral(counted)
        total = self._counted_sum
        x, y, w, h = (stats[ks, i].astype(np.intp) for i in range(4))
        still: np.ndarray = (total[y + h, x + w] - total[y, x + w] - total[y + h, x]
                             + total[y, x]) == 0
        return still

    def _doubt(self, cell: Cell, confidence: float) -> None:
        """Lower a zone's confidence to `confidence` (0: a coin flip, 1: sure)."""
        key = cell.zone.name
        if cell.zone.kind == "pool":
            return      # a cylinder there is doubted on its colour, not on the pool
        if confidence < self._confidence.get(key, 1.0):
            self._confidence[key] = confidence

    def _row_start(self, cell: Cell) -> float:
        """Distance from the dot to the board's edge, where the first cube begins."""
        return float(cell.zone.raw.get("row_start_mm", 17.0))

    def _bare_rings(self) -> list[tuple[np.ndarray, float, complex, float]] | None:
        """Per disc slot (as in `_discs`): the bare table's ring, the share of its
        variance that is stripes (`_striped`), its stripes (`_wave`) and its mean. The
        same on every frame, so worked out once for a bare table and a pose (`use_bare`
        and `_build_samplers` forget it)."""
        if self.bare is None or self.discs is None:
            return None
        if self._rings is None:
            bare = self.bare.atlas[..., 1]
            self._rings = []
            for _, ring, wave in self._discs:
                then = bare[ring].astype(np.float32)
                self._rings.append((then, _striped(then, wave), _wave(then, wave),
                                    float(then.mean())))
        return self._rings

    def _count_discs(self, snap: SnapshotJSON, atlas: np.ndarray) -> None:
        """A slot is empty while its printed stripes show.

        Against the bare table: while the ring around the slot's centre still shows the
        bare table's stripes (`_follows`, which no change of light alters) at least as
        strongly as the fitted `discs.kept`. Without one, or where the bare table showed no
        stripes there (a disc left in the tray when it was learnt, `discs.striped`): the
        stripes' frequency in the ring, whatever their phase (so a slightly off homography or
        lens distortion does not matter), against the calibration's contrast bound."""
        grey = atlas[..., 1]
        rings = self._bare_rings()
        for i, (cell, ring, wave) in enumerate(self._discs):
            if cell.zone.seat not in snap["discs"] or not self._counted(cell):
                continue
            values = grey[ring].astype(np.float32)
            now = _wave(values, wave)
            contrast = _contrast(now)
            taken = contrast < self.tuning.disc_stripes
            if rings is not None and self.discs is not None:
                _, striped, before, then_level = rings[i]
                if striped >= self.discs.striped:
                    share = _kept_share(now, float(values.mean()), before, then_level)
                    taken = share < self.discs.kept
                    self._doubt(cell, self.discs.sure(share))
            if self.debug is not None:
                self.debug.append(("disc", cell.zone.seat, cell.zone.raw["disc"], contrast))
            if taken:
                snap["discs"][cell.zone.seat].append(int(cell.zone.raw["disc"]))
        for seat in snap["discs"]:
            snap["discs"][seat].sort()


Stack = tuple[np.ndarray, np.ndarray, np.ndarray] | None


def _stripes(values: np.ndarray, wave: np.ndarray) -> float:
    """Contrast of the printed stripes in a disc slot's ring (0: none, ~0.3 on paper)."""
    return _contrast(_wave(values, wave))


def _contrast(stripes: complex) -> float:
    """`_stripes` from the ring's `_wave`."""
    return 2 * abs(stripes) / colours.WHITE_LEVEL


def _striped(values: np.ndarray, wave: np.ndarray) -> float:
    """The share of a ring's variance that is the mat's stripes (about 1 for the print,
    however soft the camera draws it; small for a disc's face)."""
    spread = float(values.var())
    return 2 * abs(complex((values - values.mean()) @ wave)) ** 2 / spread if spread > 0 else 0.0


def _follows(values: np.ndarray, then: np.ndarray, wave: np.ndarray) -> float:
    """How much of the bare table's stripes a slot's ring still shows, relative to the
    ring's light (1: all of them, under any lamp; about 0 once a disc covers them).
    Only the stripes' own frequency is looked at, so a shadow's slow gradient across
    the ring changes little. Their strength is compared, not their phase: the tray
    moved a fraction of a millimetre after the bare table was learnt (a camera or a
    mat bumped) turns the stripes' phase by tens of degrees and keeps their strength;
    weighed in phase, such an empty slot read as taken (tuning table 23089, hard:
    0.40 of the stripes kept in phase, 1.00 of their strength)."""
    return _kept_share(_wave(values, wave), float(values.mean()), _wave(then, wave),
                       float(then.mean()))


def _wave(values: np.ndarray, wave: np.ndarray) -> complex:
    """A ring's stripes: its values less their mean, at the stripes' frequency."""
    return complex((values - values.mean()) @ wave)


def _kept_share(now: complex, level: float, before: complex, then_level: float) -> float:
    """`_follows` from each ring's stripes (`_wave`) and mean: a read takes the bare
    table's side once (`Reader._bare_rings`) and its own side once for both tests."""
    strength = abs(before) * level / max(1.0, then_level)
    return abs(now) / strength if strength > 0 else 0.0


_ONES = np.ones((1, 3), np.float32)


def _share(flags: np.ndarray) -> float:
    """The share of true values: numpy's ``mean`` of booleans exactly (a whole count
    over the size, divided once), without its overhead."""
    return int(np.count_nonzero(flags)) / flags.size


def _channel_sum(image: np.ndarray) -> np.ndarray:
    """A colour image's three channels added, as float32: exactly numpy's
    ``sum(axis=2, dtype=np.float32)`` (small integers add exactly), in a thirtieth of
    its time (numpy reduces each pixel's three bytes one at a time)."""
    summed: np.ndarray = cv2.transform(image.astype(np.float32), _ONES)
    return summed


#: A mask's stats are worked out from its set pixels (`_components`) when at most one in
#: this many is set, and it has at least `SPARSE_LEAST` pixels: where OpenCV's own stats,
#: which visit every pixel, cost more (a read against the bare table sets a few thousand
#: of the blob rows' 250 000; the plain reader's masks, a blob's parts, are denser or
#: smaller: there OpenCV is quicker).
SPARSE = 40
SPARSE_LEAST = 20_000


def _components(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """8-connected components with stats, as OpenCV's
    ``connectedComponentsWithStats`` gives them, labelled in 16 bits: three times faster
    than OpenCV's 32-bit default here, and an opened mask cannot hold 65535 components.

    A sparse mask's labels come from OpenCV's labelling alone and its stats from the
    set pixels (`_stats`): OpenCV's stats visit every pixel, and a mask of the atlas is
    some 250 000 pixels of which a few thousand are set, so they cost twice the
    labelling. An empty mask is not labelled at all."""
    set_px = cv2.countNonZero(mask)
    if not set_px:
        return 1, np.zeros(mask.shape, np.uint16), *_background_only(mask.shape)
    if set_px * SPARSE > mask.size or mask.size < SPARSE_LEAST:
        n, cc, stats, cents = cv2.connectedComponentsWithStatsWithAlgorithm(
            mask, 8, cv2.CV_16U, cv2.CCL_DEFAULT)
        return n, cc, stats, cents
    n, cc = cv2.connectedComponentsWithAlgorithm(mask, 8, cv2.CV_16U, cv2.CCL_DEFAULT)
    # The foreground's pixels in raster order: numpy finds them quickly in one long row
    # of flags (its nonzero of an image, and OpenCV's findNonZero, cost a labelling).
    ys, xs = np.divmod(np.flatnonzero(mask.reshape(-1) != 0), mask.shape[1])
    return n, cc, *_stats(n, cc, xs, ys)


def _label_flags(cc: np.ndarray, *flags: np.ndarray) -> list[np.ndarray]:
    """Per pixel of a labelling, each label's flag: ``np.take(flag, cc)`` for each of
    `flags`, whose background (label 0) is unflagged. Set only at the labelled pixels,
    found once for all flags: they are a few thousand of the blob rows' 250 000, over
    which numpy's indexing by the labels takes a quarter of a millisecond."""
    if any(bool(f[0]) for f in flags) or not cc.flags.c_contiguous:
        return [np.take(f, cc) for f in flags]
    at = np.flatnonzero(cc.reshape(-1) != 0)
    labels = cc.reshape(-1)[at]
    out = []
    for flag in flags:
        image = np.zeros(cc.shape, bool)
        image.reshape(-1)[at[flag[labels]]] = True
        out.append(image)
    return out


def _stats(n: int, cc: np.ndarray, xs: np.ndarray, ys: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray]:
    """OpenCV's stats and centroids of a labelling `cc` with `n` labels, from its
    foreground pixels `xs`, `ys` (in raster order; at least one, and one background
    pixel).

    Exactly OpenCV's numbers (`tests/vision/test_vision_fast_paths.py` compares them):
    a label's box from its extreme pixels, its centroid its pixels' whole coordinates
    summed exactly (in int64) and divided once in float64. A stable sort by label keeps
    each label's pixels in raster order, so its first and last pixel hold its top and
    bottom."""
    h, w = cc.shape
    labels = cc[ys, xs]
    order = np.argsort(labels, kind="stable")
    xs, ys = xs[order].astype(np.int64), ys[order].astype(np.int64)
    area = np.bincount(labels, minlength=n)
    ends = np.cumsum(area[1:])
    starts = ends - area[1:]
    stats = np.empty((n, 5), np.int32)
    cents = np.empty((n, 2), np.float64)
    left, right = np.minimum.reduceat(xs, starts), np.maximum.reduceat(xs, starts)
    top, bottom = ys[starts], ys[ends - 1]
    stats[1:, cv2.CC_STAT_LEFT], stats[1:, cv2.CC_STAT_TOP] = left, top
    stats[1:, cv2.CC_STAT_WIDTH] = right - left + 1
    stats[1:, cv2.CC_STAT_HEIGHT] = bottom - top + 1
    stats[1:, cv2.CC_STAT_AREA] = area[1:]
    cents[1:, 0] = np.add.reduceat(xs, starts).astype(np.float64) / area[1:]
    cents[1:, 1] = np.add.reduceat(ys, starts).astype(np.float64) / area[1:]
    # The background: every pixel not in the foreground.
    behind = h * w - len(xs)
    cols = np.flatnonzero(np.bincount(xs, minlength=w) < h)
    rows = np.flatnonzero(np.bincount(ys, minlength=h) < w)
    stats[0] = (cols[0], rows[0], cols[-1] - cols[0] + 1, rows[-1] - rows[0] + 1, behind)
    cents[0, 0] = float(h * (w * (w - 1) // 2) - int(xs.sum())) / behind
    cents[0, 1] = float(w * (h * (h - 1) // 2) - int(ys.sum())) / behind
    return stats, cents


def _background_only(shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """OpenCV's stats and centroid of an empty mask: one label, the whole image."""
    h, w = shape[:2]
    stats = np.array([[0, 0, w, h, h * w]], np.int32)
    cents = np.array([[float(h * (w * (w - 1) // 2)) / (h * w),
                       float(w * (h * (h - 1) // 2)) / (h * w)]], np.float64)
    return stats, cents


def _dot_reach(scale: float) -> tuple[np.ndarray, np.ndarray]:
    """Offsets (mm, x and y) of the atlas samples within `DOT_REACH_MM` of a court dot,
    `scale` samples a mm: where a cylinder on it, or the dot itself, is looked for."""
    offsets = np.arange(-DOT_REACH_MM, DOT_REACH_MM + 0.01, 1.0 / scale)
    dx, dy = np.meshgrid(offsets, offsets)
    round_ = dx**2 + dy**2 <= DOT_REACH_MM**2
    return dx[round_], dy[round_]


def _stack(samplers: list[tuple[np.ndarray, np.ndarray, str]]) -> Stack:
    """Sample grids of equal shape stacked, so one indexing reads them all."""
    if not samplers or len({iy.shape for iy, _, _ in samplers}) != 1:
        return None
    cls = np.array([colours.CLASS_OF[c] for _, _, c in samplers], np.uint8)[:, None, None]
    return (np.stack([iy for iy, _, _ in samplers]), np.stack([ix for _, ix, _ in samplers]),
            cls)


def _stacked_hits(labels: np.ndarray, stack: Stack, fraction: float | None
                  ) -> np.ndarray | None:
    """Per sampler: covered positions along it (`fraction` given; 0: the share covered
    at each position) or the hit count."""
    if stack is None:
        return None
    hits = labels[stack[0], stack[1]] == stack[2]
    if fraction is None:
        counts: np.ndarray = hits.sum(axis=(1, 2))
        return counts
    share: np.ndarray = hits.mean(axis=2)
    return share if fraction <= 0 else share >= fraction


def joined_discs(blobs: Sequence[tuple[str, tuple[int, ...], np.ndarray]]) -> list[float]:
    """For each blob (its zone's name, its box in the atlas, its mask there), the radius
    of the largest disc inside it and the blobs of its zone that touch it, taken as one
    (holes filled): what the emperor's blobs hold when the art splits him into his lit
    colour and his shaded side (mild 23042: 6.7 mm and 4.8 mm apart, 13.3 mm together)."""
    discs = [0.0] * len(blobs)
    zones: dict[str, list[int]] = {}
    for i, (zone, _, _) in enumerate(blobs):
        zones.setdefault(zone, []).append(i)
    for members in zones.values():
        boxes = [blobs[i][1] for i in members]
        x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
        x1 = max(b[0] + b[2] for b in boxes)
        y1 = max(b[1] + b[3] for b in boxes)
        canvas = np.zeros((y1 - y0, x1 - x0), np.uint8)
        for i in members:
            bx, by, bw, bh = blobs[i][1][:4]
            canvas[by - y0:by - y0 + bh, bx - x0:bx - x0 + bw] |= blobs[i][2].view(np.uint8)
        _, labels = cv2.connectedComponents(canvas, connectivity=8)
        radius: dict[int, float] = {}
        for i in members:
            bx, by, bw, bh = blobs[i][1][:4]
            k = int(labels[by - y0:by - y0 + bh, bx - x0:bx - x0 + bw][blobs[i][2]][0])
            if k not in radius:
                radius[k] = _inner_radius(labels == k, fill=True)
            discs[i] = radius[k]
    return discs


def _inner_radius(blob: np.ndarray, fill: bool = False, mend: bool = False,
                  close: bool = False) -> float:
    """Radius of the largest disc inside a blob: cubes are compact, tile specks are not.

    `fill` fills holes; `mend` also closes cracks a pixel wide (a cube's edge catching
    the light can split its colour in two); `close` closes the cracks only.
    """
    padded = cv2.copyMakeBorder(blob.astype(np.uint8), 2, 2, 2, 2, cv2.BORDER_CONSTANT, value=0)
    if mend or close:
        padded = cv2.morphologyEx(padded, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    if fill or mend:
        contours, _ = cv2.findContours(padded, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        cv2.drawContours(padded, contours, -1, 1, -1)
    return float(cv2.distanceTransform(padded, cv2.DIST_L2, 3).max())


def _percentile(values: np.ndarray, q: float) -> float:
    """`np.percentile` (linear) by partial sorting: several times faster on small arrays."""
    at = (len(values) - 1) * q / 100.0
    lo = int(at)
    hi = min(lo + 1, len(values) - 1)
    part = np.partition(values, (lo, hi))
    return float(part[lo] + (at - lo) * (float(part[hi]) - float(part[lo])))


def _elongation(blob: np.ndarray) -> float:
    """Long side over short side of the tightest rotated rectangle around a blob."""
    points = cv2.findNonZero(blob.astype(np.uint8))
    w, h = cv2.minAreaRect(points)[1]
    return max(w, h) / max(1.0, min(w, h))


def _reached(blob: np.ndarray, box: Sequence[int], reach: Reach) -> np.ndarray:
    """Which of a blob's box pixels (``blob`` in its box at ``box[:2]``, atlas px) lie
    within the emperor's ``reach`` (`Reader._reach`): no further from the segment from
    his foot to his top's place than his base's radius."""
    (fx, fy), (lx, ly), radius = reach
    ys, xs = np.indices(blob.shape, dtype=np.float32)
    px = xs + (box[0] - fx)
    py = ys + (box[1] - fy)
    length = lx * lx + ly * ly
    t = np.clip((px * lx + py * ly) / length, 0.0, 1.0) if length > 1e-9 else 0.0
    return np.asarray(blob & ((px - t * lx) ** 2 + (py - t * ly) ** 2 <= radius * radius))


def _within(blob: np.ndarray, box: Sequence[int], *reaches: Reach) -> float:
    """The share of a blob's pixels within any of the ``reaches`` (`_reached`)."""
    total = int(np.count_nonzero(blob))
    if not total:
        return 0.0
    inside = np.zeros(blob.shape, bool)
    for reach in reaches:
        inside |= _reached(blob, box, reach)
    return float(np.count_nonzero(inside)) / total


def _run_length(cover: np.ndarray, gap: int, shortest: int = 3,
                from_start: bool = False) -> float:
    """Extent from the first to the last covered run, ignoring specks shorter than `shortest`."""
    idx = np.flatnonzero(cover)
    if idx.size == 0:
        return 0.0
    runs = []
    start = end = int(idx[0])
    for i in idx[1:]:
        if i - end > gap + 1:
            runs.append((start, end))
            start = int(i)
        end = int(i)
    runs.append((start, end))
    runs = [r for r in runs if r[1] - r[0] + 1 >= shortest]
    if not runs:
        return 0.0
    return float(runs[-1][1] + 1) if from_start else float(runs[-1][1] - runs[0][0] + 1)
