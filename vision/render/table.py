"""A given table drawn as the camera would see it: snapshots in, frames out.

The demo and the end-to-end tests play a game onto a simulated table
(`referee.table.simulate`) as ``carolus-snapshot/1`` counts; this module lays those
counts out as real pieces — cubes scattered on their tiles and in reserves, lined up in
court rows, castles, the emperor, cylinders, discs in their trays — and renders the frame
that the real vision then reads.

Pieces on tiles and in reserves are laid the way people lay them: a piece put down gets a
spot the first time it appears (drawn from a seed of its zone, kind, colour and number)
and keeps it for as long as it stays, whatever comes or goes around it; a new piece is put
where it overlaps nothing the camera sees — the pieces standing there now, tall ones with
the side the camera sees of them (`GAP_MM` apart), and, while there is room, the spots of
pieces that stood there before and may come back (the emperor). A crowded tile pushes a
new piece towards its rim, never onto another piece. Nothing is held back for a piece
that is not on the table. So what is drawn depends on the order tables are asked for:
one renderer draws one game, in order.

With ``variety="wide"`` the tiles, cards, pieces, court rows and camera are those of a
wide `random_scene`; every piece keeps its look (size, paint, edges) from frame to frame,
and a court row keeps its cubes in place as it grows. ``frame(..., t=...)`` lets the room
light drift slowly over a game; ``calibration_frame`` and ``bare_frame`` show the set-up
step (tiles and court cards, with or without the calibration pieces).
"""

from __future__ import annotations

import logging
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from vision.layout import CASTLE_COLOURS, CUBE_COLOURS, Layout, Zone
from vision.render import art, hands, optics
from vision.render.pieces import Light, Piece, kept, varied
from vision.render.scene import Scene, court_row, random_scene, render, with_changes

#: Free space (mm) kept between what the camera sees of two pieces: their footprints and,
#: for tall pieces, the sides leaning away from the camera. Less and the vision sees two
#: cubes as one blob.
GAP_MM = 1.5
#: The free space people leave between pieces while a tile has room, and the wider berth
#: kept round the emperor (tall, seen leaning, a long shadow, and as yellow as a yellow
#: cube): a small camera sees 1.5 mm as one pixel, and two yellows a pixel apart as one.
ROOMY_GAP_MM = 4.0
BERTH_MM = {"emperor": 6.0, "castle": 1.0}
#: Candidate spots tried for a new piece at each step of `TableRenderer._place`.
CANDIDATES = 1500
#: One piece: (zone key, kind, colour, its number among the pieces of that kind and
#: colour in the zone).
Identity = tuple[str, str, str, int]
log = logging.getLogger("carolus")


@dataclass(frozen=True)
class Spot:
    """Where a laid piece stands, and what of the mat the camera sees it cover: a capsule
    of `radius` round the segment from (x, y) to (x + lean_x, y + lean_y), the point the
    top's centre is seen over."""

    x: float
    y: float
    rot: float
    radius: float
    lean_x: float
    lean_y: float
    berth: float = 0.0


class TableRenderer:
    """Frames of one camera over one mat, for any table state."""

    def __init__(
        self,
        layout: Layout,
        seed: int = 0,
        width: int | None = None,
        height: int | None = None,
        px_per_mm: float | None = None,
        variety: str = "classic",
        hard: bool = False,
    ) -> None:
        """`variety` and `hard` as in `random_scene`; a size or scale left out is the
        classic 2304 x 1296 at 1.3 px/mm, or for a wide renderer drawn from `seed`."""
        self.layout = layout
        self.seed = seed
        self.variety = variety
        rng = np.random.default_rng(seed)
        base = random_scene(layout, rng, hard=hard, width=width, height=height,
                            px_per_mm=px_per_mm, variety=variety)
        base.hands = []
        self.base = base
        self._rows: dict[tuple[str, str, int], list[Piece]] = {}
        #: Every piece's spot since it was first laid, kept while it is away too.
        self._laid: dict[Identity, Spot] = {}
        #: The pieces of the table drawn last: they never move.
        self._shown: set[Identity] = set()
        #: How often a piece had to be laid anew (its old spot was taken while it was away).
        self._relaid: dict[Identity, int] = {}

    def scene(self, snapshot: Mapping[str, Any]) -> Scene:
        """The pieces of ``snapshot`` on this camera's mat (an occluded one gets a hand)."""
        layout = self.layout
        placed: list[Piece] = []
        wanted: list[tuple[Identity, Zone]] = []
        for number, zone in layout.territories().items():
            t = snapshot["territories"][str(number)]
            key = f"territory {number}"
            # the tall pieces first: a tile laid out at once keeps its roomiest spots
            # for the pieces that need the most room
            if snapshot.get("emperor") == number:
                wanted.append(((key, "emperor", "yellow", 0), zone))
            for colour in CASTLE_COLOURS:
                wanted += [((key, "castle", colour, i), zone) for i in range(t["castles"][colour])]
            for colour in CUBE_COLOURS:
                wanted += [((key, "cube", colour, i), zone) for i in range(t["cubes"][colour])]
        seats = [s for s in layout.seats() if s in snapshot["courts"]]
        cylinders = snapshot.get("cylinders", {})
        pool = layout.of_kind("pool")[0]
        for i, colour in enumerate(CUBE_COLOURS):
            if cylinders.get(colour) == "pool":
                x0, y0, x1, y1 = pool.bbox()
                x = x0 + (x1 - x0) * (i + 1) / 6
                placed.append(self._look("pool", i, Piece("cylinder", colour, x, (y0 + y1) / 2)))
        for seat in seats:
            court = next(z for z in layout.of_kind("court") if z.seat == seat)
            for colour in CUBE_COLOURS:
                (x0, y0), (x1, y1) = court.raw["rows_mm"][colour]
                d = np.array([x1 - x0, y1 - y0], dtype=float)
                d /= np.linalg.norm(d)
                angle = float(np.degrees(np.arctan2(d[1], d[0])))
                if cylinders.get(colour) == seat:
                    placed.append(self._look(f"court {seat}", CUBE_COLOURS.index(colour),
                                             Piece("cylinder", colour, x0, y0)))
                if self.variety == "wide":
                    placed += self._row(court, colour, snapshot["courts"][seat][colour])
                    continue
                step = layout.pieces_mm["cube"] + 0.4
                for n in range(snapshot["courts"][seat][colour]):
                    along = 21.0 + n * step
                    placed.append(
                        Piece("cube", colour, x0 + d[0] * along, y0 + d[1] * along, angle)
                    )
            reserve = next(z for z in layout.of_kind("reserve") if z.seat == seat)
            for colour in CUBE_COLOURS:
                wanted += [((f"reserve {seat}", "cube", colour, i), reserve)
                           for i in range(snapshot["reserves"][seat][colour])]
            castles = "white"
            for slot_zone in layout.of_kind("disc-slot"):
                number = int(slot_zone.raw["disc"])
                if slot_zone.seat == seat and number in snapshot["discs"].get(seat, []):
                    cx, cy = slot_zone.raw.get("centre_mm", slot_zone.centre())
                    placed.append(self._look(f"disc {seat}", number,
                                             Piece("disc", castles, cx, cy, 0.0, number)))
        # under a hand the counts may be anything: drawn, but nothing of them remembered
        placed += self._lay(wanted, remember=not snapshot.get("occluded"))
        scene = with_changes(self.base, placed)
        scene.seats = tuple(seats)
        if snapshot.get("occluded"):
            rng = np.random.default_rng(int(float(snapshot.get("t") or 0) * 1000))
            scene.hands = [hands.random_hand(rng, layout.size_mm[0])]
        return scene

    def frame(self, snapshot: Mapping[str, Any], seed: int = 0,
              t: float | None = None) -> np.ndarray:
        """The camera frame of ``snapshot`` (BGR); with `t` (seconds into the game) under
        the light as it has drifted by then (`optics.drift`), the same `t` the same light."""
        return render(self.layout, self._at(self.scene(snapshot), t), seed)

    def calibration_frame(self, seed: int = 0, t: float | None = None,
                          seats: Sequence[str] | None = None) -> np.ndarray:
        """The set-up step: tiles and court cards laid out, every swatch holding its piece,
        nothing else (cards for `seats`, by default every seat of the layout)."""
        pieces_list = []
        for i, zone in enumerate(self.layout.of_kind("swatch")):
            x, y = zone.centre()
            rng = np.random.default_rng([self.seed, zlib.crc32(b"swatch"), i])
            piece = Piece(zone.raw["piece"], zone.raw["colour"], x, y, float(rng.uniform(0, 90)))
            pieces_list.append(self._look("swatch", i, piece))
        return render(self.layout, self._at(self._bare(seats, pieces_list), t), seed)

    def bare_frame(self, seed: int = 0, t: float | None = None,
                   seats: Sequence[str] | None = None) -> np.ndarray:
        """The bare table a reader may learn as its reference: the tiles and the court
        cards of `calibration_frame`, and not one piece. In a wide renderer the two frames
        of one seed differ only where the swatches' pieces stand."""
        return render(self.layout, self._at(self._bare(seats, []), t), seed)

    def _bare(self, seats: Sequence[str] | None, pieces_list: list[Piece]) -> Scene:
        scene = with_changes(self.base, pieces_list)
        scene.seats = tuple(self.layout.seats() if seats is None else seats)
        scene.with_boards = True
        scene.hands = []
        return scene

    def _at(self, scene: Scene, t: float | None) -> Scene:
        """The scene under the light of time `t` (unchanged when `t` is None)."""
        if t is None:
            return scene
        phase = np.random.default_rng([self.seed, 0x11647]).uniform(0, 2 * np.pi)
        scene.lighting = optics.drift(scene.lighting, t, self.seed)
        # the sun or a lamp moving a little turns the shadows with it
        swing = float(np.sin(2 * np.pi * t / 1500.0 + phase))
        scene.light = Light(scene.light.azimuth + 12 * swing,
                            float(np.clip(scene.light.elevation + 4 * swing, 25, 85)))
        return scene

    def _look(self, key: str, slot: int, piece: Piece) -> Piece:
        """A wide renderer's piece with the size, paint and edges it keeps all game, and
        its colour too: a cube whose dye strayed anew in each frame (as a random table's
        does, drawn once) flickered across the line between two colours with another
        piece laid elsewhere, which no real cube does."""
        if self.variety != "wide":
            return piece
        colour = (*CUBE_COLOURS, *CASTLE_COLOURS).index(piece.colour)
        rng = np.random.default_rng([self.seed, zlib.crc32(key.encode()), slot, colour, 7])
        return kept(varied(piece, rng), rng)

    def _row(self, court: Zone, colour: str, n: int) -> list[Piece]:
        """The first `n` cubes of this court row as laid out for the whole game."""
        if n == 0:
            return []
        length = max(15, n)
        name = (str(court.seat), colour, length)
        if name not in self._rows:
            rng = np.random.default_rng([self.seed, zlib.crc32(f"row {court.seat}".encode()),
                                         CUBE_COLOURS.index(colour)])
            row = court_row(court, colour, length, self.layout.pieces_mm["cube"], rng)
            self._rows[name] = [kept(p, rng) for p in row]
        return [replace(p) for p in self._rows[name][:n]]

    def spots(self) -> dict[Identity, Spot]:
        """Where each piece on a tile or in a reserve of the table drawn last stands."""
        return {i: self._laid[i] for i in self._shown}

    def _lay(self, wanted: list[tuple[Identity, Zone]], remember: bool = True) -> list[Piece]:
        """The pieces of one table, each on its spot; new ones laid in the order given.
        Not `remember`ing, new pieces are laid for this table only and the table drawn
        last stays the one the next is laid against: what a hand's frame shows never
        takes a spot from a piece that is really there."""
        hard = {i: self._laid[i] for i, _ in wanted if i in self._shown and i in self._laid}
        present = {i for i, _ in wanted}
        pieces: list[Piece] = []
        for ident, zone in wanted:
            key, kind, colour, index = ident
            look = self._look(f"{key} {kind}", index, Piece(kind, colour, 0.0, 0.0))
            spot = hard.get(ident)
            if spot is None:
                spot = self._laid.get(ident)
                # back after a while: its spot may have been given away meanwhile
                if spot is not None and self._clearance(
                    np.array([[spot.x, spot.y]]), spot.radius, np.array([[spot.lean_x,
                                                                           spot.lean_y]]),
                    list(hard.values()),
                )[0] < GAP_MM:
                    if remember:
                        self._relaid[ident] = self._relaid.get(ident, 0) + 1
                    spot = None
                if spot is None:
                    away = [v for i, v in self._laid.items() if i[0] == key and i not in present]
                    spot = self._place(ident, zone, look.size, list(hard.values()), away,
                                       draws=CANDIDATES if remember else CANDIDATES // 10,
                                       salt=0 if remember else 1)
                if remember:
                    self._laid[ident] = spot
                hard[ident] = spot
            pieces.append(replace(look, x=spot.x, y=spot.y, rot=spot.rot))
        if remember:
            self._shown = present
        return pieces

    def _place(self, ident: Identity, zone: Zone, size: float, standing: list[Spot],
               away: list[Spot], draws: int = CANDIDATES, salt: int = 0) -> Spot:
        """A spot for a new piece: free of what stands and, while there is room, of the
        spots of pieces away; on the tile's inner part if it can, else further out; closer
        than `GAP_MM` only when nothing else is left, and on top of a piece never (short
        of a zone with no room at all, which is logged)."""
        key, kind, colour, index = ident
        rng = np.random.default_rng([self.seed, zlib.crc32(key.encode()),
                                     zlib.crc32(f"{kind} {colour}".encode()), index,
                                     self._relaid.get(ident, 0), *([salt] if salt else [])])
        radius = self._footprint(kind) * size
        height = self.layout.height_mm(kind) * size
        if zone.kind == "territory":
            cx, cy = zone.raw.get("centre_mm", zone.centre())
            corners = np.asarray(zone.polygon, np.float64) - (cx, cy)
            inner = float(np.hypot(*corners.T).min() * np.cos(np.pi / len(corners)))
            reaches = (art.tile_radius(self.layout) - 8, inner - radius - 1.0)

            def sample(reach: float) -> np.ndarray:
                r = reach * np.sqrt(rng.uniform(0, 1, draws))
                a = rng.uniform(0, 2 * np.pi, draws)
                return np.stack([cx + r * np.cos(a), cy + r * np.sin(a)], 1)
        else:
            x0, y0, x1, y1 = zone.bbox()
            reaches = (8.0, radius + 1.0)

            def sample(reach: float) -> np.ndarray:
                return np.stack([rng.uniform(x0 + reach, x1 - reach, draws),
                                 rng.uniform(y0 + reach, y1 - reach, draws)], 1)

        berth = BERTH_MM.get(kind, 0.0)
        # only pieces near enough to matter: the zone's and its neighbours' nearest ones
        x0, y0, x1, y1 = zone.bbox()
        near = 50.0  # the longest reach: the emperor leaning out, and his berth
        standing = [o for o in standing
                    if x0 - near < o.x < x1 + near and y0 - near < o.y < y1 + near]
        away = [o for o in away if x0 - near < o.x < x1 + near and y0 - near < o.y < y1 + near]
        steps = [(reaches[0], True, ROOMY_GAP_MM), (reaches[1], True, ROOMY_GAP_MM),
                 (reaches[0], True, GAP_MM), (reaches[1], True, GAP_MM),
                 (reaches[0], False, GAP_MM), (reaches[1], False, GAP_MM),
                 (reaches[1], False, 0.5), (reaches[1], False, 0.0)]
        for reach, keep_away, gap in steps:
            points = sample(reach)
            leans = self._leans(points, height)
            others = standing + (away if keep_away else [])
            roomy = gap >= ROOMY_GAP_MM
            room = self._clearance(points, radius, leans, others, berth if roomy else None)
            ok = np.flatnonzero(room >= gap)
            if len(ok):
                # with room to spare anywhere will do; short of it, snug against the
                # others, as people push pieces together to make room on a full tile
                best = int(ok[0]) if roomy else int(ok[np.argmin(room[ok])])
                break
        else:
            best = int(np.argmax(room))
            log.warning("render: no room for %s on %s; it overlaps another piece", ident, key)
        rot = float(rng.uniform(0, 90))
        return Spot(float(points[best, 0]), float(points[best, 1]), rot, radius,
                    float(leans[best, 0]), float(leans[best, 1]), berth)

    def _footprint(self, kind: str) -> float:
        """The radius of the circle round a piece's footprint (any way it is turned)."""
        side = self.layout.pieces_mm[kind]
        return side / 2 * float(np.sqrt(2)) if kind in ("cube", "castle") else side / 2

    def _leans(self, points: np.ndarray, height: float) -> np.ndarray:
        """Where the camera sees the top of a piece of `height` at each point, relative to
        its foot: away from the point under the lens, the more the further out."""
        cam = self.base.camera
        above = abs(cam.centre_mm[2])
        nadir = np.asarray(cam.centre_mm[:2], np.float64)
        return np.asarray((points - nadir) * (height / max(above - height, 1.0)), np.float64)

    @staticmethod
    def _clearance(points: np.ndarray, radius: float, leans: np.ndarray,
                   others: list[Spot], berth: float | None = None) -> np.ndarray:
        """For each candidate (points, leans), the free space between what the camera sees
        of it and of the nearest of `others` (negative: they overlap); +inf when alone.
        With `berth` (the candidate's own), less the wider of the two pieces' berths."""
        if not others:
            return np.full(len(points), np.inf)
        a = np.array([[o.x, o.y] for o in others])[None]
        b = a + np.array([[o.lean_x, o.lean_y] for o in others])[None]
        r = np.array([o.radius for o in others])[None]
        if berth is not None:
            r = r + np.maximum(np.array([o.berth for o in others])[None], berth)
        p = points[:, None]
        q = p + leans[:, None]
        # two short segments in a plane that do not cross are nearest at an end of one
        near = np.minimum.reduce([_to_segment(p, a, b), _to_segment(q, a, b),
                                  _to_segment(a, p, q), _to_segment(b, p, q)])
        return np.asarray((near - r - radius).min(axis=1), np.float64)


def _to_segment(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance from points `p` to segments `a`-`b` (broadcast over leading axes)."""
    ab = b - a
    t = np.clip(((p - a) * ab).sum(-1) / np.maximum((ab * ab).sum(-1), 1e-12), 0.0, 1.0)
    return np.asarray(np.hypot(*np.moveaxis(p - a - ab * t[..., None], -1, 0)), np.float64)
