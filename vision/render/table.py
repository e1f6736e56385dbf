"""A given table drawn as the camera would see it: snapshots in, frames out.

The demo and the end-to-end tests play a game onto a simulated table
(`referee.table.simulate`) as ``carolus-snapshot/1`` counts; this module lays those
counts out as real pieces — cubes scattered on their tiles and in reserves, lined up in
court rows, castles, the emperor, cylinders, discs in their trays — and renders the frame
that the real vision then reads. Each piece keeps its spot from frame to frame (it is
chosen by a seed per zone and slot), so one cube added moves nothing else.

With ``variety="wide"`` the tiles, cards, pieces, court rows and camera are those of a
wide `random_scene`; every piece keeps its look (size, paint, edges) from frame to frame,
and a court row keeps its cubes in place as it grows. ``frame(..., t=...)`` lets the room
light drift slowly over a game; ``calibration_frame`` and ``bare_frame`` show the set-up
step (tiles and court cards, with or without the calibration pieces).
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from vision.layout import CASTLE_COLOURS, CUBE_COLOURS, Layout, Zone
from vision.render import art, hands, optics
from vision.render.pieces import Light, Piece, varied
from vision.render.scene import Scene, court_row, random_scene, render, with_changes

CUBE_SLOTS = 24  # cubes a tile has places for; more are stacked on the last places


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
        self._spots: dict[tuple[str, int], tuple[float, float, float, float]] = {}
        self._rows: dict[tuple[str, str, int], list[Piece]] = {}
        sizes = layout.pieces_mm
        # Every spot is chosen up front, the tall pieces first, so where a piece stands
        # never depends on what came before it in the game.
        for number, zone in layout.territories().items():
            key = f"territory {number}"
            # the emperor is tall: seen at an angle it would hide a cube close to it
            self._spot(key, 0, zone, room=sizes["emperor"] * 1.3)
            for slot in range(1, 4):
                self._spot(key, slot, zone, room=sizes["castle"])
            for slot in range(8, 8 + CUBE_SLOTS):
                self._spot(key, slot, zone)

    def scene(self, snapshot: Mapping[str, Any]) -> Scene:
        """The pieces of ``snapshot`` on this camera's mat (an occluded one gets a hand)."""
        layout = self.layout
        placed: list[Piece] = []
        for number, zone in layout.territories().items():
            t = snapshot["territories"][str(number)]
            key = f"territory {number}"
            slot = 0
            if snapshot.get("emperor") == number:
                x, y, _ = self._spot(key, slot, zone)
                placed.append(self._look(key, slot, Piece("emperor", "yellow", x, y)))
            slot += 1
            for colour in CASTLE_COLOURS:
                for _ in range(t["castles"][colour]):
                    x, y, rot = self._spot(key, min(slot, 3), zone)
                    placed.append(self._look(key, slot, Piece("castle", colour, x, y, rot)))
                    slot += 1
            slot = 8
            for colour in CUBE_COLOURS:
                for _ in range(t["cubes"][colour]):
                    x, y, rot = self._spot(key, min(slot, 8 + CUBE_SLOTS - 1), zone)
                    placed.append(self._look(key, slot, Piece("cube", colour, x, y, rot)))
                    slot += 1
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
            slot = 0
            for colour in CUBE_COLOURS:
                for _ in range(snapshot["reserves"][seat][colour]):
                    x, y, rot = self._spot(f"reserve {seat}", slot, reserve)
                    placed.append(self._look(f"reserve {seat}", slot,
                                             Piece("cube", colour, x, y, rot)))
                    slot += 1
            castles = "white"
            for slot_zone in layout.of_kind("disc-slot"):
                number = int(slot_zone.raw["disc"])
                if slot_zone.seat == seat and number in snapshot["discs"].get(seat, []):
                    cx, cy = slot_zone.raw.get("centre_mm", slot_zone.centre())
                    placed.append(Piece("disc", castles, cx, cy, 0.0, number))
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
        """A wide renderer's piece with the size, paint and edges it keeps all game."""
        if self.variety != "wide":
            return piece
        colour = (*CUBE_COLOURS, *CASTLE_COLOURS).index(piece.colour)
        rng = np.random.default_rng([self.seed, zlib.crc32(key.encode()), slot, colour, 7])
        return varied(piece, rng)

    def _row(self, court: Zone, colour: str, n: int) -> list[Piece]:
        """The first `n` cubes of this court row as laid out for the whole game."""
        if n == 0:
            return []
        length = max(15, n)
        name = (str(court.seat), colour, length)
        if name not in self._rows:
            rng = np.random.default_rng([self.seed, zlib.crc32(f"row {court.seat}".encode()),
                                         CUBE_COLOURS.index(colour)])
            self._rows[name] = court_row(court, colour, length, self.layout.pieces_mm["cube"],
                                         rng)
        return [replace(p) for p in self._rows[name][:n]]

    def _spot(
        self, key: str, slot: int, zone: Zone, room: float | None = None
    ) -> tuple[float, float, float]:
        """A fixed free place for the ``slot``-th piece of a zone."""
        name = (key, slot)
        if name not in self._spots:
            rng = np.random.default_rng([self.seed, zlib.crc32(key.encode()), slot])
            taken = [(v[0], v[1], v[3]) for (k, _), v in self._spots.items() if k == key]
            cube = self.layout.pieces_mm["cube"]
            # tall pieces keep a wide berth: seen at an angle they hide what stands close
            room = room if room is not None else cube * 0.75 + 0.6
            centre = zone.raw.get("centre_mm")
            radius = art.tile_radius(self.layout) - 8 if zone.kind == "territory" else None
            spot = (0.0, 0.0, 0.0, room)
            for _ in range(400):
                if radius is not None and centre is not None:
                    r = radius * np.sqrt(rng.uniform(0, 1))
                    a = rng.uniform(0, 2 * np.pi)
                    x, y = centre[0] + r * np.cos(a), centre[1] + r * np.sin(a)
                else:
                    x0, y0, x1, y1 = zone.bbox()
                    x, y = rng.uniform(x0 + 8, x1 - 8), rng.uniform(y0 + 8, y1 - 8)
                if all(np.hypot(x - tx, y - ty) > room + tr for tx, ty, tr in taken):
                    spot = (float(x), float(y), float(rng.uniform(0, 90)), room)
                    break
                room *= 0.995
            self._spots[name] = spot
        x, y, rot, _ = self._spots[name]
        return x, y, rot
