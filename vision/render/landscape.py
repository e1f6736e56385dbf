"""Printed art of the "wide" variety: tiles, court boards and tables far busier than real.

The classic art (`art.py`) keeps every detail smaller than a cube and away from the cube
colours, and a reader tuned on it learns exactly that. Here tiles are patchworks of
photographic-looking fields that may be the very colours of the cubes (ochre and yellow
wheat, red roofs and poppies, blue water, pink flowers, green meadows), with white, grey and
black patches as large as castles and villages whose roofs are as large as a cube, so that a
reader has to learn the bare table and look for what differs from it.

Everything is drawn from the generator it is given, so a tile seed gives the same tile.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.layout import CUBE_COLOURS
from vision.render.art import blend

BGR = tuple[int, int, int]

#: Field materials: palette stops (BGR) a noise field is colour-mapped through, and how the
#: field is drawn ("mottle" soft noise, "rows" ploughed or sown rows, "bloom" flower dots).
MATERIALS: dict[str, tuple[tuple[BGR, ...], str]] = {
    "soil": (((35, 60, 95), (50, 85, 125), (70, 110, 150), (60, 95, 120)), "rows"),
    "heath": (((50, 90, 95), (60, 115, 130), (80, 130, 150), (55, 100, 110)), "mottle"),
    "olive": (((45, 100, 90), (60, 120, 115), (75, 140, 135)), "mottle"),
    "ochre": (((40, 140, 195), (45, 160, 210), (60, 175, 220)), "rows"),
    "wheat": (((30, 195, 235), (35, 205, 240), (55, 215, 245)), "rows"),
    "roofs": (((35, 35, 185), (38, 38, 200), (50, 55, 210)), "mottle"),
    "poppies": (((40, 120, 60), (38, 38, 200), (45, 40, 210)), "bloom"),
    "water": (((140, 65, 15), (165, 80, 20), (190, 115, 55)), "mottle"),
    "flowers": (((175, 115, 230), (185, 125, 240), (200, 150, 245)), "bloom"),
    "meadow": (((45, 135, 35), (55, 150, 40), (70, 170, 60)), "mottle"),
    "woods": (((20, 50, 20), (30, 70, 30), (40, 90, 45)), "mottle"),
    "stone": (((120, 122, 118), (140, 140, 135), (160, 162, 158)), "mottle"),
    "snow": (((215, 218, 215), (232, 234, 232), (245, 245, 243)), "mottle"),
    "slate": (((28, 28, 30), (38, 38, 40), (55, 55, 58)), "mottle"),
}
#: The materials that are the colour of a cube; a tile is sometimes dominated by one.
CUBE_MATERIALS = {"red": ("roofs", "poppies"), "green": ("meadow",), "yellow": ("wheat", "ochre"),
                  "blue": ("water",), "pink": ("flowers",)}
EARTHY = ("soil", "heath", "olive", "woods", "meadow", "ochre")
PATCHES: tuple[BGR, ...] = ((236, 236, 232), (210, 222, 228), (138, 140, 136), (120, 128, 140),
                            (40, 38, 38), (45, 52, 60))
ROOF = ((38, 42, 195), (45, 60, 175), (30, 35, 160))
BOARD_CARDS: tuple[BGR, ...] = ((150, 190, 212), (195, 220, 232), (85, 115, 145), (150, 140, 120),
                                (95, 135, 130), (70, 80, 125), (205, 205, 200))
INKS: tuple[BGR, ...] = ((40, 55, 75), (60, 150, 190), (110, 50, 30), (35, 35, 120), (30, 30, 30))
#: Printed dot colours on the court board (BGR), as in `art.BOARD_DOTS`.
BOARD_DOTS = {"red": (45, 45, 185), "green": (70, 140, 60), "yellow": (50, 200, 225),
              "blue": (160, 95, 40), "pink": (165, 120, 225)}


def noise(rng: np.random.Generator, h: int, w: int, cells: Sequence[float],
          weights: Sequence[float]) -> np.ndarray:
    """Multi-octave value noise in 0..1: random grids of `cells` px blown up and summed."""
    acc = np.zeros((h, w), np.float32)
    for cell, weight in zip(cells, weights, strict=True):
        gh, gw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
        small = rng.standard_normal((gh, gw)).astype(np.float32)
        acc += weight * cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    lo, hi = float(acc.min()), float(acc.max())
    return np.asarray((acc - lo) / max(hi - lo, 1e-6), np.float32)


def _lut(stops: Sequence[BGR]) -> np.ndarray:
    """A 256-entry colour map through the palette stops."""
    xs = np.linspace(0, 255, len(stops))
    arr = np.asarray(stops, np.float32)
    return np.stack([np.interp(np.arange(256), xs, arr[:, c]) for c in range(3)], 1).astype(
        np.float32)


def _material(rng: np.random.Generator, name: str, h: int, w: int, s: float) -> np.ndarray:
    """One field's surface, float32 BGR, filling the whole canvas."""
    stops, how = MATERIALS[name]
    shade = rng.uniform(0.93, 1.07)
    if how == "bloom":
        ground = _lut(stops[:1] * 2)[0]
        flower = _lut(stops[1:])
        layer = np.empty((h, w, 3), np.float32)
        layer[:] = ground
        # Dense blossoms of 0.4-1.2 mm: from a distance the field takes their colour.
        dots = noise(rng, h, w, (0.6 * s, 2 * s), (1.0, 0.4))
        thick = noise(rng, h, w, (12 * s,), (1.0,))
        keep = dots < 0.35 + 0.55 * thick
        idx = (noise(rng, h, w, (3 * s,), (1.0,)) * 255).astype(np.uint8)
        layer[keep] = flower[idx[keep]]
        return layer * shade
    field = noise(rng, h, w, (20 * s, 7 * s, 2.5 * s, 0.8 * s), (1.0, 0.6, 0.35, 0.2))
    if how == "rows":
        a = rng.uniform(0, np.pi)
        period = rng.uniform(1.5, 3.5) * s
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        rows = np.sin((np.cos(a) * xx + np.sin(a) * yy) * 2 * np.pi / period)
        field = np.clip(field * 0.8 + 0.12 * rows + 0.05, 0, 1)
    idx = (field * 255).astype(np.uint8)
    return np.asarray(_lut(stops)[idx] * shade, np.float32)


def _pick_materials(rng: np.random.Generator, k: int) -> list[str]:
    """Materials of a tile's fields: earthy patchwork, or one cube colour dominating."""
    names = list(MATERIALS)
    if rng.random() < 0.4:
        colour = CUBE_COLOURS[int(rng.integers(len(CUBE_COLOURS)))]
        main = CUBE_MATERIALS[colour]
        return [str(rng.choice(main)) if rng.random() < 0.7 else str(rng.choice(names))
                for _ in range(k)]
    return [str(rng.choice(EARTHY)) if rng.random() < 0.5 else str(rng.choice(names))
            for _ in range(k)]


def _fields(rng: np.random.Generator, size: int, s: float) -> np.ndarray:
    """A patchwork of fields with wobbly borders (warped Voronoi cells), float32 BGR."""
    k = int(rng.integers(3, 9))
    seeds = rng.uniform(0, size, (k, 2)).astype(np.float32)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    wobble = 6 * s
    wx = xx + wobble * (noise(rng, size, size, (10 * s, 3 * s), (1.0, 0.3)) - 0.5)
    wy = yy + wobble * (noise(rng, size, size, (10 * s, 3 * s), (1.0, 0.3)) - 0.5)
    d = np.stack([(wx - sx) ** 2 + (wy - sy) ** 2 for sx, sy in seeds])
    cell = np.argmin(d, axis=0)
    names = _pick_materials(rng, k)
    kinds = sorted(set(names), key=names.index)
    made = np.stack([_material(rng, name, size, size, s) for name in kinds])
    which = np.array([kinds.index(name) for name in names])[cell]
    return np.asarray(made[which, yy.astype(np.intp), xx.astype(np.intp)], np.float32)


def _hillshade(rng: np.random.Generator, size: int, s: float) -> np.ndarray:
    """Relief lit from one side: what makes a printed landscape look photographed."""
    height = noise(rng, size, size, (25 * s, 8 * s, 3 * s), (1.0, 0.4, 0.15))
    gx = cv2.Sobel(height, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(height, cv2.CV_32F, 0, 1, ksize=3)
    a = rng.uniform(0, 2 * np.pi)
    relief = (np.cos(a) * gx + np.sin(a) * gy) * (6 * s)
    return np.asarray(1 + np.clip(relief, -0.12, 0.12), np.float32)


def _band(img: np.ndarray, rng: np.random.Generator, size: int, colour: BGR, width_px: float,
          edge: BGR | None = None) -> None:
    """A wobbly band across the tile: a river or a road."""
    a = rng.uniform(0, np.pi)
    c = rng.uniform(0.25, 0.75, 2) * size
    t = np.linspace(-0.8, 0.8, 24) * size
    d = np.array([np.cos(a), np.sin(a)])
    n = np.array([-d[1], d[0]])
    bend = np.cumsum(rng.normal(0, 0.03 * size, len(t)))
    pts = c[None, :] + t[:, None] * d[None, :] + (bend - bend.mean())[:, None] * n[None, :]
    poly = np.round(pts * 16).astype(np.int32)
    if edge is not None:
        cv2.polylines(img, [poly], False, edge, max(1, int(width_px * 1.35)), cv2.LINE_AA, 4)
    cv2.polylines(img, [poly], False, colour, max(1, int(width_px)), cv2.LINE_AA, 4)


def _blob(img: np.ndarray, rng: np.random.Generator, centre: tuple[float, float], r: float,
          colour: BGR) -> None:
    """An irregular patch of about radius `r` px (a flock, a rock, a pond)."""
    n = int(rng.integers(7, 13))
    ang = np.sort(rng.uniform(0, 2 * np.pi, n))
    rad = r * rng.uniform(0.65, 1.15, n)
    pts = np.stack([centre[0] + rad * np.cos(ang), centre[1] + rad * np.sin(ang)], 1)
    cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], colour, cv2.LINE_AA, 4)


def _village(img: np.ndarray, rng: np.random.Generator, size: int, s: float) -> None:
    """A cluster of houses: red roofs from 2 mm up to the size of a cube, with a ridge."""
    cx, cy = rng.uniform(0.2, 0.8, 2) * size
    spread = rng.uniform(6, 16) * s
    for _ in range(int(rng.integers(5, 22))):
        x, y = cx + rng.normal(0, spread), cy + rng.normal(0, spread)
        w, h = rng.uniform(2, 8.5) * s, rng.uniform(2, 6) * s
        a = float(rng.uniform(0, 180))
        box = cv2.boxPoints(((float(x), float(y)), (float(w), float(h)), a))
        roof = ROOF[int(rng.integers(len(ROOF)))]
        wall = (int(rng.uniform(150, 215)),) * 3
        shadow = cv2.boxPoints(((float(x + 0.6 * s), float(y + 0.6 * s)),
                                (float(w), float(h)), a))
        cv2.fillConvexPoly(img, np.round(shadow * 16).astype(np.int32),
                           (35, 45, 50), cv2.LINE_AA, 4)
        cv2.fillConvexPoly(img, np.round(box * 16).astype(np.int32), wall, cv2.LINE_AA, 4)
        inner = cv2.boxPoints(((float(x), float(y)), (float(w * 0.92), float(h * 0.8)), a))
        cv2.fillConvexPoly(img, np.round(inner * 16).astype(np.int32), roof, cv2.LINE_AA, 4)
        ridge = (inner[0] + inner[1]) / 2, (inner[2] + inner[3]) / 2
        cv2.line(img, tuple(np.round(ridge[0] * 16).astype(int)),
                 tuple(np.round(ridge[1] * 16).astype(int)),
                 tuple(int(c * 0.7) for c in roof), max(1, int(0.4 * s)), cv2.LINE_AA, 4)


def tile_art(rng: np.random.Generator, size: int, s: float) -> np.ndarray:
    """One tile's square of art, uint8 BGR, `size` px at `s` px per mm."""
    img = _fields(rng, size, s)
    if rng.random() < 0.45:
        water = MATERIALS["water"][0][int(rng.integers(3))]
        _band(img, rng, size, water, rng.uniform(3, 9) * s, (60, 110, 120))
    if rng.random() < 0.45:
        road = ((150, 165, 175), (200, 205, 205), (110, 130, 150))[int(rng.integers(3))]
        _band(img, rng, size, road, rng.uniform(1.5, 4) * s)
    for _ in range(int(rng.integers(0, 4))):            # rocks, flocks, snow, slate: castle-sized
        colour = PATCHES[int(rng.integers(len(PATCHES)))]
        _blob(img, rng, tuple(rng.uniform(0.1, 0.9, 2) * size), rng.uniform(3, 11) * s, colour)
    for _ in range(int(rng.integers(0, 3))):            # woods: clumps of dark crowns
        cx, cy = rng.uniform(0, size, 2)
        for _ in range(int(rng.integers(6, 25))):
            p = (int(cx + rng.normal(0, 6 * s)), int(cy + rng.normal(0, 6 * s)))
            r = max(1, int(rng.uniform(1.2, 3.5) * s))
            cv2.circle(img, (p[0] + int(0.5 * s), p[1] + int(0.5 * s)), r, (15, 30, 15), -1)
            cv2.circle(img, p, r, (int(rng.uniform(25, 45)), int(rng.uniform(60, 95)),
                                   int(rng.uniform(25, 45))), -1, cv2.LINE_AA)
    if rng.random() < 0.5:
        _village(img, rng, size, s)
    for _ in range(int(rng.integers(0, 40))):           # sheep and stones
        c = (int(rng.uniform(0, size)), int(rng.uniform(0, size)))
        colour = PATCHES[int(rng.integers(len(PATCHES)))]
        cv2.ellipse(img, c, (max(1, int(rng.uniform(0.8, 2.2) * s)),
                             max(1, int(rng.uniform(0.6, 1.6) * s))),
                    float(rng.uniform(0, 180)), 0, 360, colour, -1, cv2.LINE_AA)
    img *= _hillshade(rng, size, s)[..., None]
    grain = noise(rng, size, size, (0.7 * s, 1.5 * s), (1.0, 0.5)) - 0.5
    img += (14 * grain)[..., None]
    img = cv2.GaussianBlur(img, (0, 0), 0.35 * s)
    return np.clip(img, 0, 255).astype(np.uint8)


def paste_tile(tex: np.ndarray, s: float, centre: tuple[float, float], radius_mm: float,
               rng: np.random.Generator) -> None:
    """Draw one tile of wide art, an irregular polygon about 2 x `radius_mm` across."""
    # rounder than the classic tiles: more of each spot is art
    n = int(rng.integers(7, 12))
    ang = (np.arange(n) + rng.uniform(-0.3, 0.3, n)) * 2 * np.pi / n + rng.uniform(0, 2 * np.pi)
    rad = radius_mm * rng.uniform(0.86, 1.0, n)
    poly = np.stack([centre[0] + rad * np.cos(ang), centre[1] + rad * np.sin(ang)], 1)
    r = int(np.ceil(radius_mm * s)) + 2
    cx, cy = round(centre[0] * s), round(centre[1] * s)
    x0, y0 = cx - r, cy - r
    art = tile_art(rng, 2 * r, s)
    mask = np.zeros((2 * r, 2 * r), np.uint8)
    local = np.round((poly * s - np.array([x0, y0])) * 16).astype(np.int32)
    cv2.fillPoly(mask, [local], 255, cv2.LINE_AA, shift=4)
    edge = tuple(int(c) for c in rng.uniform(25, 90, 3))
    cv2.polylines(art, [local], True, edge, max(1, int(rng.uniform(0.4, 1.2) * s)), cv2.LINE_AA,
                  shift=4)
    blend(tex, art, mask, x0, y0)


def paste_court_board(tex: np.ndarray, s: float, zone_raw: dict[str, object],
                      rng: np.random.Generator, dot_mm: float) -> None:
    """A court card of varied stock and print: tinted card, grain, borders, ornaments, and
    the same five coloured dots as the classic board."""
    board = np.asarray(zone_raw["board_mm"], np.float64) + rng.uniform(-1.0, 1.0, 2)
    rows = zone_raw["rows_mm"]
    assert isinstance(rows, dict)
    x0, y0 = np.floor(board.min(axis=0) * s).astype(int) - 2
    x1, y1 = np.ceil(board.max(axis=0) * s).astype(int) + 2
    h, w = y1 - y0, x1 - x0
    card = np.asarray(BOARD_CARDS[int(rng.integers(len(BOARD_CARDS)))], np.float32)
    card = card * rng.uniform(0.9, 1.08)
    img = np.empty((h, w, 3), np.float32)
    img[:] = card
    mottle = noise(rng, h, w, (15 * s, 4 * s), (1.0, 0.5)) - 0.5
    img *= (1 + 0.16 * mottle)[..., None]
    if rng.random() < 0.4:                              # a faint printed illustration
        scene = tile_art(rng, max(h, w), s)[:h, :w].astype(np.float32)
        a = rng.uniform(0.15, 0.35)
        img = img * (1 - a) + scene * a
    img += (10 * (noise(rng, h, w, (0.7 * s,), (1.0,)) - 0.5))[..., None]
    local = (board * s - np.array([x0, y0])).astype(np.float32)
    ink = INKS[int(rng.integers(len(INKS)))]
    centre = local.mean(axis=0)
    for inset in sorted(rng.uniform(1.5, 4.5, int(rng.integers(1, 3)))):
        shrunk = centre + (local - centre) * (1 - inset * s / max(1.0, float(
            np.abs(local - centre).min(axis=0).min())))
        cv2.polylines(img, [np.round(shrunk * 16).astype(np.int32)], True, ink,
                      max(1, int(rng.uniform(0.3, 0.9) * s)), cv2.LINE_AA, 4)
    for corner in local:                                 # corner rosettes
        p = centre + (corner - centre) * 0.85
        r = int(rng.uniform(1.5, 3.5) * s)
        cv2.circle(img, (int(p[0]), int(p[1])), r, ink, max(1, int(0.4 * s)), cv2.LINE_AA)
        if rng.random() < 0.5:
            cv2.circle(img, (int(p[0]), int(p[1])), max(1, r // 2), ink, -1, cv2.LINE_AA)
    if rng.random() < 0.6:                               # an emblem between the dots
        e = centre + rng.uniform(-0.15, 0.15, 2) * (local.max(axis=0) - local.min(axis=0))
        shield = np.array([[-3, -4], [3, -4], [3, 1], [0, 4], [-3, 1]], np.float32) * s
        shield = shield * rng.uniform(0.8, 1.6) + e
        cv2.polylines(img, [np.round(shield * 16).astype(np.int32)], True, ink,
                      max(1, int(0.5 * s)), cv2.LINE_AA, 4)
    shift = board[0] - np.asarray(zone_raw["board_mm"], np.float64)[0]
    for colour in CUBE_COLOURS:                          # a clear ring of card round each dot
        x, y = (np.asarray(rows[colour][0], np.float64) + shift) * s - np.array([x0, y0])
        cv2.circle(img, (round(x * 16), round(y * 16)), int((dot_mm / 2 + 1.5) * s * 16),
                   tuple(float(c) for c in card), -1, cv2.LINE_AA, 4)
    mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(mask, [np.round(local * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
    out = np.clip(img, 0, 255).astype(np.uint8)
    cv2.polylines(out, [np.round(local * 16).astype(np.int32)], True,
                  tuple(int(c * 0.45) for c in card), max(1, int(0.8 * s)), cv2.LINE_AA, 4)
    blend(tex, out, mask, int(x0), int(y0))
    for colour in CUBE_COLOURS:
        x, y = rows[colour][0]
        centre_px = (round((x + shift[0]) * s * 16), round((y + shift[1]) * s * 16))
        cv2.circle(tex, centre_px, int(dot_mm / 2 * s * 16), BOARD_DOTS[colour], -1,
                   cv2.LINE_AA, shift=4)


def table_background(width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """The table around the mat: woods light and dark, felt, slate or linen."""
    tops: tuple[BGR, ...] = ((55, 85, 125), (30, 45, 70), (80, 120, 160), (45, 90, 40),
                             (70, 70, 72), (150, 175, 190))
    base = np.asarray(tops[int(rng.integers(len(tops)))], np.float32) * rng.uniform(0.8, 1.15)
    streaks = rng.random() < 0.6
    gh, gw = (max(2, height // 40), max(2, width // 8)) if streaks else (max(2, height // 60),
                                                                         max(2, width // 60))
    small = rng.normal(0, 1, (gh, gw)).astype(np.float32)
    img = base[None, None, :] * (1 + 0.12 * small[..., None])
    return np.asarray(cv2.resize(np.clip(img, 0, 255).astype(np.uint8), (width, height),
                                 interpolation=cv2.INTER_CUBIC), np.uint8)
