"""Printed things that lie flat on the mat: illustrated tiles, court boards, the table.

Tile art is busy on purpose: meadows, fields and water with small coloured details
(red roofs, yellow and pink flowers, white sheep, dark trees) that a careless reader
would count as cubes. Details stay smaller than a cube, as on the real tiles.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.layout import CUBE_COLOURS, Layout

LAND = [(70, 150, 110), (50, 105, 65), (80, 165, 190), (60, 100, 140), (140, 190, 205),
        (150, 125, 85), (95, 135, 120), (65, 120, 150)]
DETAILS = [((40, 40, 170), 1.2, 2.5), ((60, 200, 225), 0.7, 1.4), ((170, 120, 225), 0.6, 1.3),
           ((235, 235, 235), 0.9, 1.8), ((30, 60, 35), 1.0, 2.4), ((150, 100, 40), 0.8, 1.8),
           ((30, 30, 30), 0.5, 1.2)]
#: Printed dot colours on the court board (BGR), slightly different from the cubes.
BOARD_DOTS = {"red": (45, 45, 185), "green": (70, 140, 60), "yellow": (50, 200, 225),
              "blue": (160, 95, 40), "pink": (165, 120, 225)}


def paste_tile(tex: np.ndarray, s: float, centre: tuple[float, float], radius_mm: float,
               rng: np.random.Generator) -> None:
    """Draw one illustrated tile, an irregular polygon about 2 x `radius_mm` across."""
    n = int(rng.integers(6, 10))
    ang = np.sort(rng.uniform(0, 2 * np.pi, n))
    rad = radius_mm * rng.uniform(0.88, 1.0, n)
    poly = np.stack([centre[0] + rad * np.cos(ang), centre[1] + rad * np.sin(ang)], 1)
    r = int(np.ceil(radius_mm * s)) + 2
    cx, cy = round(centre[0] * s), round(centre[1] * s)
    x0, y0 = cx - r, cy - r
    size = 2 * r
    art: np.ndarray = np.empty((size, size, 3), np.uint8)
    art[:] = LAND[int(rng.integers(len(LAND)))]
    for _ in range(int(rng.integers(6, 12))):
        colour = LAND[int(rng.integers(len(LAND)))]
        c = (int(rng.uniform(0, size)), int(rng.uniform(0, size)))
        axes = (int(rng.uniform(8, 35) * s), int(rng.uniform(6, 25) * s))
        cv2.ellipse(art, c, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1, cv2.LINE_AA)
    for _ in range(int(rng.integers(1, 4))):             # roads and rivers
        pts = (rng.uniform(0, size, (4, 2))).astype(np.int32)
        colour = (170, 200, 215) if rng.random() < 0.6 else (165, 135, 95)
        cv2.polylines(art, [pts], False, colour, max(1, int(rng.uniform(1.0, 2.5) * s)),
                      cv2.LINE_AA)
    art = cv2.GaussianBlur(art, (0, 0), 0.6 * s)
    noise = rng.normal(0, 7, art.shape[:2])[..., None]
    art = np.clip(art + noise, 0, 255).astype(np.uint8)
    for _ in range(int(rng.integers(40, 110))):          # small details
        colour, lo, hi = DETAILS[int(rng.integers(len(DETAILS)))]
        c = (int(rng.uniform(0, size)), int(rng.uniform(0, size)))
        d = rng.uniform(lo, hi) * s
        if rng.random() < 0.5:
            cv2.circle(art, c, max(1, int(d)), colour, -1, cv2.LINE_AA)
        else:
            cv2.rectangle(art, (c[0] - int(d), c[1] - int(d * 0.7)), (c[0] + int(d),
                          c[1] + int(d * 0.7)), colour, -1)
    mask = np.zeros((size, size), np.uint8)
    local = np.round((poly * s - np.array([x0, y0])) * 16).astype(np.int32)
    cv2.fillPoly(mask, [local], 255, cv2.LINE_AA, shift=4)
    cv2.polylines(art, [local], True, (40, 60, 80), max(1, int(0.8 * s)), cv2.LINE_AA, shift=4)
    blend(tex, art, mask, x0, y0)


def blend(tex: np.ndarray, art: np.ndarray, mask: np.ndarray, x0: int, y0: int) -> None:
    """Lay `art` onto `tex` at (x0, y0) through an 8-bit `mask` (its soft edges blend)."""
    h, w = mask.shape
    roi = tex[y0:y0 + h, x0:x0 + w]
    a = (mask.astype(np.float32) / 255)[..., None]
    roi[:] = (roi * (1 - a) + art * a).astype(np.uint8)


def paste_court_board(tex: np.ndarray, s: float, zone_raw: dict[str, Any], rng: np.random.Generator,
                      dot_mm: float) -> None:
    """The player's court board: parchment card with the five coloured dots."""
    board = np.asarray(zone_raw["board_mm"], np.float64)
    jitter = rng.uniform(-1.0, 1.0, 2)
    pts = np.round((board + jitter) * s * 16).astype(np.int32)
    cv2.fillPoly(tex, [pts], (150, 190, 212), cv2.LINE_AA, shift=4)
    cv2.polylines(tex, [pts], True, (60, 90, 120), max(1, int(1.0 * s)), cv2.LINE_AA, shift=4)
    for colour in CUBE_COLOURS:
        x, y = zone_raw["rows_mm"][colour][0]
        centre = (round((x + jitter[0]) * s * 16), round((y + jitter[1]) * s * 16))
        cv2.circle(tex, centre,
                   int(dot_mm / 2 * s * 16), BOARD_DOTS[colour], -1, cv2.LINE_AA, shift=4)


def table_background(width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """A wooden table: warm brown with soft streaks."""
    base = np.array([55, 85, 125], np.float32) * rng.uniform(0.7, 1.2)
    small = rng.normal(0, 1, (max(2, height // 40), max(2, width // 8))).astype(np.float32)
    img = base[None, None, :] * (1 + 0.12 * small[..., None])
    img = cv2.resize(np.clip(img, 0, 255).astype(np.uint8), (width, height),
                     interpolation=cv2.INTER_CUBIC)
    return img


def tile_radius(layout: Layout) -> float:
    return 0.93 * float(np.linalg.norm(np.subtract(
        layout.territories()[1].polygon[0], layout.territories()[1].centre())))
