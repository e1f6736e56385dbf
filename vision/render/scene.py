"""Random table states with their ground truth, and rendering them into camera frames."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.layout import CASTLE_COLOURS, CUBE_COLOURS, Layout, Zone
from vision.mat import render_mat
from vision.render import art, hands, landscape, optics, pieces
from vision.render.camera import Camera, overhead_camera
from vision.render.hands import Hand
from vision.render.pieces import Light, Piece, varied
from vision.snapshot import SnapshotJSON, empty_snapshot

#: "classic": the flat, few-coloured art and uniform pieces the reader was tuned on;
#: "wide": art, pieces, court rows, cameras and light far more varied than any real table.
VARIETIES = ("classic", "wide")
#: Camera modes of the Pi cameras a wide scene is seen through (width, height).
WIDE_MODES = ((2304, 1296), (2028, 1520))


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
    variety: str = "classic"


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


def _check_variety(variety: str) -> None:
    if variety not in VARIETIES:
        raise ValueError(f"variety must be one of {VARIETIES}, not {variety!r}")


def row_start_mm(court: Zone) -> float:
    """Distance from a row's dot to the card's edge, where people start the row (the
    layout's `row_start_mm`, with the reader's default)."""
    return float(court.raw.get("row_start_mm", 17.0))


def _room_along(court: Zone, dot: np.ndarray, d: np.ndarray) -> float:
    """How far from the dot the row's line stays inside the court zone."""
    t = 0.0
    while court.contains(*(dot + d * (t + 0.5))) and t < 1000:
        t += 0.5
    return t


def court_row(court: Zone, colour: str, n: int, cube_mm: float,
              rng: np.random.Generator) -> list[Piece]:
    """`n` cubes lined up the way people do it, each of them varied.

    The first cube starts at the card's edge or a little on it; gaps are 0-2 mm, in some
    rows wider (2-5 mm) after every fifth cube as people count in fives; the row drifts
    sideways and turns a little. Every cube's footprint stays inside the court zone (the
    gaps shrink if the row would run out of it, the drift is clamped), so `truth()`, which
    counts a cube where its centre is, counts it for this court. The k-th cube depends only
    on the generator's first draws, so with a generator seeded per row a longer row keeps
    the cubes of a shorter one where they were as long as the row fits (15 cubes do).
    """
    (x0, y0), (x1, y1) = court.raw["rows_mm"][colour]
    dot = np.array([x0, y0], np.float64)
    d = np.array([x1 - x0, y1 - y0], np.float64)
    d /= np.linalg.norm(d)
    nrm = np.array([-d[1], d[0]])
    angle = float(np.degrees(np.arctan2(d[1], d[0])))
    on_card = float(rng.uniform(-0.3, 2.5))
    fives = bool(rng.random() < 0.4)
    turn = float(rng.uniform(-2.0, 2.0))
    drift0 = float(rng.uniform(-1.0, 1.0))
    looks = [varied(Piece("cube", colour, 0.0, 0.0), rng) for _ in range(n)]
    turns = rng.uniform(-3.0, 3.0, n) + turn
    gaps = np.array([float(rng.uniform(2, 5)) if fives and i % 5 == 0 else float(
        rng.uniform(0, 2)) for i in range(n)])
    gaps[:1] = 0.0
    walk = np.cumsum(rng.normal(0, 0.3, n))
    edges = np.array([cube_mm * p.size for p in looks])
    # a turned cube reaches further along the row: keep neighbours from overlapping
    reach = edges / 2 * (np.abs(np.cos(np.radians(turns - turn))) +
                         np.abs(np.sin(np.radians(turns - turn))))
    start = row_start_mm(court) - on_card
    room = _room_along(court, dot, d) - 1.0 - start
    need = float(2 * reach.sum())
    if n and need + gaps.sum() > room:
        gaps *= max(0.0, (room - need) / max(gaps.sum(), 1e-9))
    out = []
    along = start
    limit = cube_mm * 0.72
    for i, look in enumerate(looks):
        along += gaps[i] + reach[i]
        side = float(np.clip(drift0 + np.tan(np.radians(turn)) * (along - start) + walk[i],
                             -2.5, 2.5))
        for _try in range(2):
            x, y = dot + d * along + nrm * side
            if all(court.contains(*(np.array([x, y]) + v * limit))
                   for v in (d, -d, nrm, -nrm)):
                break
            side = 0.0
        out.append(Piece("cube", colour, float(x), float(y), angle + float(turns[i]),
                         0, look.size, look.tint, look.rounding))
        along += reach[i]
    return out


#: The stream a scene's fill light is drawn from, beside its tile seed.
FILL_STREAM = 0xF111


def random_scene(layout: Layout, rng: np.random.Generator, hard: bool = False,
                 hand_probability: float = 0.0, width: int | None = None,
                 height: int | None = None, px_per_mm: float | None = None,
                 crowded: float = 0.15, variety: str = "classic",
                 fill_light: bool = False) -> Scene:
    """A plausible mid-game table: cubes everywhere, castles, the emperor, cylinders, discs.

    `variety="wide"` varies the art, the pieces and the court rows far beyond a real table,
    and when `width`, `height` or `px_per_mm` are not given picks a Pi camera mode
    (`WIDE_MODES`) and 1.0-1.6 px per mm; "classic" (the default) is 2304 x 1296 at 1.3.
    With `fill_light` a wide scene's shadows are lit by a fill light of their own
    (`optics.with_fill`), drawn from a stream of its own so that everything else of the
    scene stays as it was drawn without it.
    """
    _check_variety(variety)
    wide = variety == "wide"

    def look(p: Piece) -> Piece:
        return varied(p, rng) if wide else p

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
                placed.append(look(Piece("emperor", "yellow", x, y)))
        castles = int(rng.choice([0, 0, 1, 1, 1, 2])) if rng.random() < 0.6 else 0
        for x, y in _scatter(rng, castles, in_tile, taken, sizes["castle"] / 2 * 1.42 + 0.5):
            colour = CASTLE_COLOURS[int(rng.integers(3))]
            placed.append(look(Piece("castle", colour, x, y, float(rng.uniform(0, 90)))))
        n = int(rng.integers(10, 15)) if rng.random() < crowded else int(rng.integers(0, 6))
        for x, y in _scatter(rng, n, in_tile, taken, cube_r):
            placed.append(look(Piece("cube", CUBE_COLOURS[int(rng.integers(5))], x, y,
                                     float(rng.uniform(0, 90)))))
    seats = tuple(layout.seats())
    holder = {c: str(rng.choice([*seats, "pool"])) for c in CUBE_COLOURS}
    pool = layout.of_kind("pool")[0]
    pool_taken: list[tuple[float, float, float]] = []
    for colour in CUBE_COLOURS:
        if holder[colour] == "pool":
            for x, y in _scatter(rng, 1, lambda: _inset_point(rng, pool, 8), pool_taken, 7.5):
                placed.append(look(Piece("cylinder", colour, x, y)))
    for seat in seats:
        court = next(z for z in layout.of_kind("court") if z.seat == seat)
        for colour in CUBE_COLOURS:
            (x0, y0), (x1, y1) = court.raw["rows_mm"][colour]
            d = np.array([x1 - x0, y1 - y0])
            d /= np.linalg.norm(d)
            if holder[colour] == seat:
                placed.append(look(Piece("cylinder", colour, x0 + rng.uniform(-1, 1),
                                         y0 + rng.uniform(-1, 1))))
            n = int(rng.integers(0, 16)) if rng.random() < 0.7 else 0
            if wide:
                placed += court_row(court, colour, n, sizes["cube"], rng)
                continue
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
            placed.append(look(Piece("cube", CUBE_COLOURS[int(rng.integers(5))], x, y,
                                     float(rng.uniform(0, 90)))))
        disc_colour = CASTLE_COLOURS[int(rng.integers(3))]
        for slot in layout.of_kind("disc-slot"):
            if slot.seat == seat and rng.random() < 0.6:
                cx, cy = slot.raw.get("centre_mm", slot.centre())
                placed.append(Piece("disc", disc_colour, cx + rng.uniform(-2, 2),
                                    cy + rng.uniform(-2, 2), 0.0, int(slot.raw["disc"])))
    hands_list = [hands.random_hand(rng, layout.size_mm[0])] if rng.random() < hand_probability \
        else []
    if wide:
        mode = WIDE_MODES[int(rng.integers(len(WIDE_MODES)))]
        width = mode[0] if width is None else width
        height = mode[1] if height is None else height
        px_per_mm = float(rng.uniform(1.0, 1.6)) if px_per_mm is None else px_per_mm
    width = 2304 if width is None else width
    height = 1296 if height is None else height
    px_per_mm = 1.3 if px_per_mm is None else px_per_mm
    cam = overhead_camera(rng, width, height, px_per_mm,
                          tilt_deg=5.0 if hard else 2.0, roll_jitter_deg=5.0 if hard else 2.0,
                          k1_range=(-0.06, 0.02) if hard else (-0.01, 0.01))
    light = Light(float(rng.uniform(0, 360)), float(rng.uniform(35, 75)))
    lighting = optics.random_lighting(rng, width, height, hard)
    if wide:
        lighting = optics.with_lamp(rng, lighting, hard)
    tile_seed = int(rng.integers(1 << 30))
    if wide and fill_light:
        lighting = optics.with_fill(np.random.default_rng([tile_seed, FILL_STREAM]), lighting,
                                    hard)
    return Scene(placed, cam, light, lighting, tile_seed, hands_list, seats, True, variety)


def calibration_scene(layout: Layout, rng: np.random.Generator, boards: bool | None = None,
                      variety: str = "classic", **kwargs: Any) -> Scene:
    """Every swatch holding the piece it names, on the tiles, and with `boards` the court
    cards too, as in the real set-up step ("lay out the tiles and the court cards, nothing
    else"). `boards=None` keeps each variety's habit: classic frames (which the tests and
    benchmarks were measured on) have no cards, wide ones have them."""
    scene = random_scene(layout, rng, variety=variety, **kwargs)
    scene.pieces = []
    scene.with_boards = (variety == "wide") if boards is None else boards
    scene.hands = []
    for zone in layout.of_kind("swatch"):
        x, y = zone.centre()
        piece = Piece(zone.raw["piece"], zone.raw["colour"], x, y, float(rng.uniform(0, 90)))
        scene.pieces.append(varied(piece, rng) if variety == "wide" else piece)
    return scene


def with_changes(scene: Scene, pieces_list: list[Piece]) -> Scene:
    """The same table, camera and light with other pieces."""
    return Scene(pieces_list, scene.camera, scene.light, scene.lighting, scene.tile_seed,
                 list(scene.hands), scene.seats, scene.with_boards, scene.variety)


_PRINTS: dict[tuple[int, float], np.ndarray] = {}
#: Printed mats with their tiles and cards, by scene: a game drawn frame by frame (or a
#: calibration frame and its bare twin) pays for its art once. Kept small: a texture at
#: 4 px per mm is 40 MB.
_TEXTURES: dict[tuple[Any, ...], np.ndarray] = {}
_TEXTURES_KEPT = 3


def _mat_print(layout: Layout, px_per_mm: float) -> np.ndarray:
    key = (id(layout), px_per_mm)
    if key not in _PRINTS:
        _PRINTS.clear()
        _PRINTS[key] = render_mat(layout, px_per_mm)
    return _PRINTS[key]


def _texture(layout: Layout, scene: Scene, s: float) -> np.ndarray:
    """The mat as printed with the scene's tiles and court cards on it (read only)."""
    key = (id(layout), scene.tile_seed, s, scene.with_boards,
           tuple(scene.seats) if scene.with_boards else (), scene.variety)
    if key in _TEXTURES:
        _TEXTURES[key] = _TEXTURES.pop(key)
        return _TEXTURES[key]
    wide = scene.variety == "wide"
    tex = _mat_print(layout, s).copy()
    rng = np.random.default_rng(scene.tile_seed)
    tile = landscape.paste_tile if wide else art.paste_tile
    board = landscape.paste_court_board if wide else art.paste_court_board
    for zone in layout.territories().values():
        cx, cy = zone.raw.get("centre_mm", zone.centre())
        tile(tex, s, (cx + rng.uniform(-2, 2), cy + rng.uniform(-2, 2)),
             art.tile_radius(layout), rng)
    if scene.with_boards:
        for court in layout.of_kind("court"):
            if court.seat in scene.seats:
                board(tex, s, court.raw, rng, layout.court_dot_mm())
    tex.flags.writeable = False
    _TEXTURES[key] = tex
    while len(_TEXTURES) > _TEXTURES_KEPT:
        del _TEXTURES[next(iter(_TEXTURES))]
    return tex


def render(layout: Layout, scene: Scene, seed: int = 0) -> np.ndarray:
    """Draw the scene as the camera sees it: a BGR uint8 frame.

    Wide scenes draw the pieces and the sensor noise from separate streams of `seed`, so
    two scenes that differ only in some pieces differ only around those pieces.
    """
    rng = np.random.default_rng(seed)
    expose_rng = rng
    cam = scene.camera
    ppm = cam.focal_px / abs(cam.centre_mm[2])
    s = 2.0 if ppm <= 1.6 else 4.0
    tex = _texture(layout, scene, s)
    if scene.variety == "wide":
        rng, expose_rng = np.random.default_rng([seed, 1]), np.random.default_rng([seed, 2])
        frame = landscape.table_background(cam.width, cam.height,
                                           np.random.default_rng([scene.tile_seed, 3]))
    else:
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
    shade = np.asarray(cv2.GaussianBlur(shade, (0, 0), 1.2), np.float32)
    if scene.lighting.fill is None:
        # the classic grey shadow, by its own arithmetic: earlier frames stay byte-identical
        frame = (frame * (1 - 0.45 * np.minimum(shade, 1))[..., None]).astype(np.uint8)
    else:
        lost = 1 - np.asarray(scene.lighting.fill, np.float32)
        frame = (frame * (1 - np.minimum(shade, 1)[..., None] * lost)).astype(np.uint8)
    nadir = np.asarray(cam.centre_mm[:2])
    for p in sorted(scene.pieces, key=lambda p: -np.hypot(p.x - nadir[0], p.y - nadir[1])):
        pieces.draw(frame, cam, p, scene.light, sizes, heights, rng)
    for hand in scene.hands:
        hands.draw(frame, cam, hand, rng)
    return optics.expose(frame, cam, scene.lighting, expose_rng)


def truth(layout: Layout, scene: Scene) -> SnapshotJSON:
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
