"""Random table states with their ground truth, and rendering them into camera frames."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.layout import CASTLE_COLOURS, CUBE_COLOURS, Layout, Zone
from vision.mat import render_mat
from vision.reader import empty_snapshot
from vision.render import art, hands, optics, pieces
from vision.render.camera import Camera, overhead_camera
from vision.render.hands import Hand
from vision.render.pieces import Light, Piece


@dataclass
class Scene:
    """Everything needed to draw one frame, and what a perfect reader would report."""

    pieces: list[Piece]
    camera: Camera
    light: Light
    lighting: optics.Lighting
    tile_seed: int
    hands: list[Hand] = field(default_factory=list)
    seats: tuple[str, ...] = ("south", "west", "north", "east")
    with_boards: bool = True


def _inset_point(rng: np.random.Generator, zone: Zone, margin: float) -> tuple[float, float]:
    x0, y0, x1, y1 = zone.bbox()
    return (float(rng.uniform(x0 + margin, x1 - margin)), float(rng.uniform(y0 + margin,
                                                                             y1 - margin)))


def _scatter(rng: np.random.Generator, n: int, sample: Any, taken: list[tuple[float, float, float]],
             radius: float) -> list[tuple[float, float]]:
    """Up to n non-overlapping spots (centre distance > radii sum) from `sample()`."""
    out = []
    for _ in range(n):
        for _try in range(200):
            x, y = sample()
            if all((x - a) ** 2 + (y - b) ** 2 > (radius + r) ** 2 for a, b, r in taken):
                taken.append((x, y, radius))
                out.append((x, y))
                break
    return out


def random_scene(layout: Layout, rng: np.random.Generator, hard: bool = False,
                 hand_probability: float = 0.0, width: int = 2304, height: int = 1296,
                 px_per_mm: float = 1.3, crowded: float = 0.15) -> Scene:
    """A plausible mid-game table: cubes everywhere, castles, the emperor, cylinders, discs."""
    sizes = layout.pieces_mm
    cube_r = sizes["cube"] / 2 * np.sqrt(2) + 0.3
    placed: list[Piece] = []
    territories = layout.territories()
    emperor_on = int(rng.integers(1, 16))
    tile_r = art.tile_radius(layout) - 7
    for number, zone in territories.items():
        cx, cy = zone.raw.get("centre_mm", zone.centre())
        taken: list[tuple[float, float, float]] = []

        def in_tile(cx: float = cx, cy: float = cy) -> tuple[float, float]:
            r = tile_r * np.sqrt(rng.uniform(0, 1))
            a = rng.uniform(0, 2 * np.pi)
            return cx + r * np.cos(a), cy + r * np.sin(a)

        if number == emperor_on:
            for x, y in _scatter(rng, 1, in_tile, taken, sizes["emperor"] / 2 + 1):
                placed.append(Piece("emperor", "yellow", x, y))
        castles = int(rng.choice([0, 0, 1, 1, 1, 2])) if rng.random() < 0.6 else 0
        for x, y in _scatter(rng, castles, in_tile, taken, sizes["castle"] / 2 * 1.42 + 0.5):
            colour = CASTLE_COLOURS[int(rng.integers(3))]
            placed.append(Piece("castle", colour, x, y, float(rng.uniform(0, 90))))
        n = int(rng.integers(10, 15)) if rng.random() < crowded else int(rng.integers(0, 6))
        for x, y in _scatter(rng, n, in_tile, taken, cube_r):
            placed.append(Piece("cube", CUBE_COLOURS[int(rng.integers(5))], x, y,
                                float(rng.uniform(0, 90))))
    seats = tuple(layout.seats())
    holder = {c: str(rng.choice([*seats, "pool"])) for c in CUBE_COLOURS}
    pool = layout.of_kind("pool")[0]
    pool_taken: list[tuple[float, float, float]] = []
    for colour in CUBE_COLOURS:
        if holder[colour] == "pool":
            for x, y in _scatter(rng, 1, lambda: _inset_point(rng, pool, 8), pool_taken, 7.5):
                placed.append(Piece("cylinder", colour, x, y))
    for seat in seats:
        court = next(z for z in layout.of_kind("court") if z.seat == seat)
        for colour in CUBE_COLOURS:
            (x0, y0), (x1, y1) = court.raw["rows_mm"][colour]
            d = np.array([x1 - x0, y1 - y0])
            d /= np.linalg.norm(d)
            if holder[colour] == seat:
                placed.append(Piece("cylinder", colour, x0 + rng.uniform(-1, 1),
                                    y0 + rng.uniform(-1, 1)))
            n = int(rng.integers(0, 16)) if rng.random() < 0.7 else 0
            start = 21.0 + rng.uniform(-1, 2)
            angle = float(np.degrees(np.arctan2(d[1], d[0])))
            t = start
            for _ in range(n):
                placed.append(Piece("cube", colour, x0 + d[0] * t + rng.uniform(-0.7, 0.7),
                                    y0 + d[1] * t + rng.uniform(-0.7, 0.7),
                                    angle + rng.uniform(-4, 4)))
                t += sizes["cube"] + rng.uniform(0.0, 0.6)
        reserve = next(z for z in layout.of_kind("reserve") if z.seat == seat)
        taken = []
        n = int(rng.integers(0, 13))
        for x, y in _scatter(rng, n, lambda z=reserve: _inset_point(rng, z, 8), taken, cube_r):
            placed.append(Piece("cube", CUBE_COLOURS[int(rng.integers(5))], x, y,
                                float(rng.uniform(0, 90))))
        disc_colour = CASTLE_COLOURS[int(rng.integers(3))]
        for slot in layout.of_kind("disc-slot"):
            if slot.seat == seat and rng.random() < 0.6:
                cx, cy = slot.raw.get("centre_mm", slot.centre())
                placed.append(Piece("disc", disc_colour, cx + rng.uniform(-2, 2),
                                    cy + rng.uniform(-2, 2), 0.0, int(slot.raw["disc"])))
    hands_list = [hands.random_hand(rng, layout.size_mm[0])] if rng.random() < hand_probability \
        else []
    cam = overhead_camera(rng, width, height, px_per_mm,
                          tilt_deg=5.0 if hard else 2.0, roll_jitter_deg=5.0 if hard else 2.0,
                          k1_range=(-0.06, 0.02) if hard else (-0.01, 0.01))
    return Scene(placed, cam, Light(float(rng.uniform(0, 360)), float(rng.uniform(35, 75))),
                 optics.random_lighting(rng, width, height, hard), int(rng.integers(1 << 30)),
                 hands_list, seats)


def calibration_scene(layout: Layout, rng: np.random.Generator, **kwargs: Any) -> Scene:
    """Tiles only, and every swatch holding the piece it names (court boards off)."""
    scene = random_scene(layout, rng, **kwargs)
    scene.pieces = []
    scene.with_boards = False
    scene.hands = []
    for zone in layout.of_kind("swatch"):
        x, y = zone.centre()
        scene.pieces.append(Piece(zone.raw["piece"], zone.raw["colour"], x, y,
                                  float(rng.uniform(0, 90))))
    return scene


def with_changes(scene: Scene, pieces_list: list[Piece]) -> Scene:
    """The same table, camera and light with other pieces."""
    return Scene(pieces_list, scene.camera, scene.light, scene.lighting, scene.tile_seed,
                 list(scene.hands), scene.seats, scene.with_boards)


_PRINTS: dict[tuple[int, float], np.ndarray] = {}


def _mat_print(layout: Layout, px_per_mm: float) -> np.ndarray:
    key = (id(layout), px_per_mm)
    if key not in _PRINTS:
        _PRINTS.clear()
        _PRINTS[key] = render_mat(layout, px_per_mm)
    return _PRINTS[key]


def _texture(layout: Layout, scene: Scene, s: float) -> np.ndarray:
    tex = _mat_print(layout, s).copy()
    rng = np.random.default_rng(scene.tile_seed)
    for zone in layout.territories().values():
        cx, cy = zone.raw.get("centre_mm", zone.centre())
        art.paste_tile(tex, s, (cx + rng.uniform(-2, 2), cy + rng.uniform(-2, 2)),
                       art.tile_radius(layout), rng)
    if scene.with_boards:
        for court in layout.of_kind("court"):
            if court.seat in scene.seats:
                art.paste_court_board(tex, s, court.raw, rng, float(layout.raw.get(
                    "court_dot_mm", 7)))
    return tex


def render(layout: Layout, scene: Scene, seed: int = 0) -> np.ndarray:
    """Draw the scene as the camera sees it: a BGR uint8 frame."""
    rng = np.random.default_rng(seed)
    cam = scene.camera
    ppm = cam.focal_px / abs(cam.centre_mm[2])
    s = 2.0 if ppm <= 1.6 else 4.0
    tex = _texture(layout, scene, s)
    frame = art.table_background(cam.width, cam.height, rng)
    h = cam.mat_homography() @ np.diag([1 / s, 1 / s, 1.0])
    cv2.warpPerspective(tex, h, (cam.width, cam.height), dst=frame, flags=cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_TRANSPARENT)
    sizes = layout.pieces_mm
    heights = {k: layout.height_mm(k) for k in ("cube", "castle", "emperor", "cylinder", "disc")}
    shade = np.zeros(frame.shape[:2], np.float32)
    for p in scene.pieces:
        pieces.shadow(shade, cam, p, scene.light, sizes, heights)
    push = -scene.light.vector()[:2] / max(1e-3, -scene.light.vector()[2])
    for hand in scene.hands:
        hands.draw_shadow(shade, cam, hand, push)
    shade = cv2.GaussianBlur(shade, (0, 0), 1.2)
    frame = (frame * (1 - 0.45 * np.minimum(shade, 1))[..., None]).astype(np.uint8)
    nadir = np.asarray(cam.centre_mm[:2])
    for p in sorted(scene.pieces, key=lambda p: -np.hypot(p.x - nadir[0], p.y - nadir[1])):
        pieces.draw(frame, cam, p, scene.light, sizes, heights, rng)
    for hand in scene.hands:
        hands.draw(frame, cam, hand, rng)
    return optics.expose(frame, cam, scene.lighting, rng)


def truth(layout: Layout, scene: Scene) -> dict[str, Any]:
    """The snapshot a perfect reader returns for this scene (without `t`)."""
    seats = list(scene.seats)
    snap = empty_snapshot(seats, mat=True)
    snap["occluded"] = any(hands.covers_mat(scene.camera, h, layout.size_mm[0])
                           for h in scene.hands)
    for p in scene.pieces:
        zone = layout.zone_at(p.x, p.y)
        if zone is None:
            continue
        if zone.kind == "territory":
            t = snap["territories"][str(zone.raw["territory"])]
            if p.kind == "cube":
                t["cubes"][p.colour] += 1
            elif p.kind == "castle":
                t["castles"][p.colour] += 1
            elif p.kind == "emperor":
                snap["emperor"] = int(zone.raw["territory"])
        elif zone.kind == "court" and zone.seat in seats:
            if p.kind == "cube":
                snap["courts"][zone.seat][p.colour] += 1
            elif p.kind == "cylinder":
                snap["cylinders"][p.colour] = zone.seat
        elif zone.kind == "reserve" and zone.seat in seats and p.kind == "cube":
            snap["reserves"][zone.seat][p.colour] += 1
        elif zone.kind == "pool" and p.kind == "cylinder":
            snap["cylinders"][p.colour] = "pool"
        elif zone.kind == "disc-slot" and zone.seat in seats and p.kind == "disc":
            snap["discs"][zone.seat].append(int(zone.raw["disc"]))
    for seat in seats:
        snap["discs"][seat].sort()
    return snap


def territory_centre(layout: Layout, n: int) -> tuple[float, float]:
    """Centre of territory spot `n`, for placing pieces by hand in tests."""
    x, y = layout.territories()[n].raw.get("centre_mm", layout.territories()[n].centre())
    return float(x), float(y)


def zone_centre(layout: Layout, kind: str, seat: str) -> tuple[float, float]:
    """Centre of a seat's zone of `kind` (court, reserve)."""
    zone = next(z for z in layout.of_kind(kind) if z.seat == seat)
    return zone.centre()
