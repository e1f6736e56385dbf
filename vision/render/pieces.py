"""The game's pieces as small 3D solids: shaded side faces, a lit top, a cast shadow."""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.render.camera import Camera

#: Piece colours (BGR) as the plastic and wood look under neutral light.
CUBE_BGR = {"red": (38, 38, 200), "green": (55, 150, 40), "yellow": (30, 205, 240),
            "blue": (165, 80, 20), "pink": (185, 125, 240)}
CASTLE_BGR = {"white": (236, 236, 234), "black": (42, 40, 40), "grey": (135, 137, 135)}
EMPEROR_BGR = (25, 190, 238)


@dataclass
class Piece:
    """One piece on the mat: `kind` is cube, castle, emperor, cylinder or disc.

    Real sets are not uniform: cubes differ a little in size and dye, castles in paint,
    edges are worn round. `size` scales footprint and height, `tint` multiplies the BGR
    colour per channel, `rounding` is the radius (mm) of rounded vertical edges and of
    the bevel round the top. The defaults draw the pieces exactly as before they existed.

    A piece drawn once (a random table) strays a little in colour each time it is drawn
    (`stray`). A piece of a game is drawn in frame after frame, and a real one keeps its
    dye: with `kept` its `tint` already holds its stray, and it is drawn alike every time.
    """

    kind: str
    colour: str
    x: float
    y: float
    rot: float = 0.0
    number: int = 0
    size: float = 1.0
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)
    rounding: float = 0.0
    kept: bool = False

    def bgr(self) -> tuple[int, int, int]:
        if self.kind in ("cube", "cylinder"):
            return CUBE_BGR[self.colour]
        if self.kind == "emperor":
            return EMPEROR_BGR
        return CASTLE_BGR[self.colour]


@dataclass
class Light:
    """A lamp direction: azimuth and elevation in degrees."""

    azimuth: float = 45.0
    elevation: float = 55.0

    def vector(self) -> np.ndarray:
        a, e = np.radians(self.azimuth), np.radians(self.elevation)
        return np.array([np.cos(e) * np.cos(a), np.cos(e) * np.sin(a), -np.sin(e)])


def _shade(normal: np.ndarray, light: Light) -> float:
    return 0.5 + 0.6 * max(0.0, float(normal @ light.vector()))


def _fill(img: np.ndarray, pts: np.ndarray, colour: tuple[float, ...]) -> None:
    p = np.round(np.asarray(pts) * 16).astype(np.int32).reshape(-1, 1, 2)
    cv2.fillConvexPoly(img, p, tuple(float(min(255, c)) for c in colour), cv2.LINE_AA, shift=4)


def _ring(x: float, y: float, r: float, z: float, n: int, rot: float = 0.0) -> np.ndarray:
    a = np.radians(rot) + np.arange(n) * 2 * np.pi / n
    return np.stack([x + r * np.cos(a), y + r * np.sin(a), np.full(n, z)], 1)


def _rounded_square(x: float, y: float, half: float, r: float, z: float,
                    rot: float) -> np.ndarray:
    """A square of half-edge `half` whose corners are cut at radius `r`: an octagon, which
    at 10-20 px a cube is as round as an arc and draws faster."""
    pts = []
    reach = (half - r) * np.sqrt(2)
    for k in range(4):
        c = np.radians(rot + 45 + 90 * k)
        ax, ay = x + reach * np.cos(c), y + reach * np.sin(c)
        for d in (-np.pi / 4, np.pi / 4):
            pts.append((ax + r * np.cos(c + d), ay + r * np.sin(c + d), z))
    return np.array(pts, np.float64)


#: One prism or frustum of a piece: bottom ring, top ring, colour factor, and whether its
#: faces slope (a bevel: their normals lean up, so they catch the light like a top).
Solid = tuple[np.ndarray, np.ndarray, float, bool]


def solids(piece: Piece, sizes: dict[str, float], heights: dict[str, float]) -> list[Solid]:
    """The piece as stacked prisms and frustums."""
    x, y, k = piece.x, piece.y, piece.size
    if piece.kind in ("cube", "castle"):
        h = heights[piece.kind] * k
        if piece.rounding > 0:
            half = sizes[piece.kind] / 2 * k
            r = min(piece.rounding, 0.4 * half)
            bevel = min(piece.rounding, 0.3 * h)
            top = _rounded_square(x, y, half - bevel, max(0.2, r - bevel), -h, piece.rot)
            return [(_rounded_square(x, y, half, r, 0, piece.rot),
                     _rounded_square(x, y, half, r, -(h - bevel), piece.rot), 1.0, False),
                    (_rounded_square(x, y, half, r, -(h - bevel), piece.rot), top, 1.0, True)]
        half = sizes[piece.kind] / 2 * np.sqrt(2) * k
        return [(_ring(x, y, half, 0, 4, piece.rot + 45), _ring(x, y, half, -h, 4, piece.rot + 45),
                 1.0, False)]
    if piece.kind in ("cylinder", "disc"):
        r = sizes[piece.kind] / 2 * k
        return [(_ring(x, y, r, 0, 20), _ring(x, y, r, -heights[piece.kind] * k, 20), 1.0,
                 False)]
    r = sizes["emperor"] / 2 * k
    h = heights["emperor"] * k
    return [(_ring(x, y, r, 0, 24), _ring(x, y, r, -0.15 * h, 24), 0.9, False),
            (_ring(x, y, r * 0.68, -0.15 * h, 20), _ring(x, y, r * 0.4, -0.95 * h, 20), 1.0,
             False)]


def shadow(mask: np.ndarray, cam: Camera, piece: Piece, light: Light, sizes: dict[str, float],
           heights: dict[str, float]) -> None:
    """Paint the piece's shadow on the ground into a float mask (1 = full shadow)."""
    v = light.vector()
    push = -v[:2] / max(1e-3, -v[2])
    for bottom, top, _, _ in solids(piece, sizes, heights):
        ground = top.copy()
        ground[:, :2] += np.outer(-top[:, 2], push)
        ground[:, 2] = 0
        flat = bottom.copy()
        flat[:, 2] = 0
        pts = cam.project(np.vstack([flat, ground])).astype(np.float32)
        hull = cv2.convexHull(pts)
        _fill(mask, hull.reshape(-1, 2), (1.0,))


def _sloped_normal(bi: np.ndarray, bj: np.ndarray, ti: np.ndarray,
                   centre: np.ndarray) -> np.ndarray:
    """Outward unit normal of a bevel face (pointing away from the piece's axis)."""
    (ax, ay, az), (bx, by, bz) = bj - bi, ti - bi
    n = np.array([ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx])
    n /= float(np.sqrt(n @ n)) + 1e-9
    if n[:2] @ ((bi[:2] + bj[:2]) / 2 - centre) < 0:
        n = -n
    return n


def stray(piece: Piece, rng: np.random.Generator) -> np.ndarray:
    """How far a piece's colour strays from its paint (BGR factors): a few per cent a
    channel for cubes, less for painted castles and discs."""
    tint = 0.015 if piece.kind in ("castle", "disc") else 0.05
    factors: np.ndarray = rng.uniform(1 - tint, 1 + tint, 3) * rng.uniform(0.95, 1.04)
    return factors


def kept(piece: Piece, rng: np.random.Generator) -> Piece:
    """`piece` with a stray of its own folded into its tint, drawn alike in every frame."""
    tint = np.asarray(piece.tint, np.float64) * stray(piece, rng)
    return replace(piece, tint=(float(tint[0]), float(tint[1]), float(tint[2])), kept=True)


def draw(img: np.ndarray, cam: Camera, piece: Piece, light: Light, sizes: dict[str, float],
         heights: dict[str, float], rng: np.random.Generator) -> None:
    colour0 = np.array(piece.bgr(), np.float64)
    if piece.tint != (1.0, 1.0, 1.0):
        colour0 = colour0 * np.asarray(piece.tint, np.float64)
    base = colour0 if piece.kept else colour0 * stray(piece, rng)
    eye = cam.position()
    for bottom, top, factor, sloped in solids(piece, sizes, heights):
        n = len(bottom)
        pb, pt = cam.project(bottom), cam.project(top)
        centre = bottom[:, :2].mean(axis=0)
        faces = []
        for i in range(n):
            j = (i + 1) % n
            mid = (bottom[i] + bottom[j] + top[i] + top[j]) / 4
            if sloped:
                outward = _sloped_normal(bottom[i], bottom[j], top[i], centre)
            else:
                outward = np.r_[mid[:2] - centre, 0.0]
                outward /= np.linalg.norm(outward) + 1e-9
            if outward @ (eye - mid) <= 0:
                continue
            faces.append((float(np.linalg.norm(eye - mid)), i, j, outward))
        for _, i, j, outward in sorted(faces, key=lambda f: (f[0], f[1]), reverse=True):
            colour = base * factor * _shade(outward, light) * (0.95 if sloped else 0.85)
            _fill(img, np.array([pb[i], pb[j], pt[j], pt[i]]), tuple(colour))
        up = np.array([0.0, 0.0, -1.0])
        _fill(img, pt, tuple(base * factor * _shade(up, light)))
    if piece.kind == "castle":
        c = np.array([piece.x, piece.y, -heights["castle"] * piece.size])
        inner = _ring(c[0], c[1], sizes["castle"] * 0.3 * np.sqrt(2) * piece.size, c[2], 4,
                      piece.rot + 45)
        _fill(img, cam.project(inner), tuple(base * 0.8 * _shade(np.array([0, 0, -1.0]), light)))
    if piece.kind == "disc" and piece.number:
        centre = cam.project(np.array([[piece.x, piece.y, -heights["disc"]]]))[0]
        ink = (20, 20, 20) if piece.colour != "black" else (225, 225, 225)
        scale = sizes["disc"] * cam.focal_px / abs(cam.centre_mm[2]) / 60
        (tw, th), _ = cv2.getTextSize(str(piece.number), cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        cv2.putText(img, str(piece.number), (int(centre[0] - tw / 2), int(centre[1] + th / 2)),
                    cv2.FONT_HERSHEY_SIMPLEX, scale, ink, max(1, int(scale * 2)), cv2.LINE_AA)


#: How castle paint strays from the classic colours (BGR factors): cream or bluish whites,
#: brown-grey blacks, bluish or warm greys.
CASTLE_TINTS: dict[str, tuple[tuple[float, float, float], ...]] = {
    "white": ((1.0, 1.0, 1.0), (0.84, 0.95, 1.0), (0.9, 0.97, 1.0), (1.0, 0.98, 0.95)),
    "black": ((1.0, 1.0, 1.0), (1.0, 1.2, 1.45), (1.15, 1.2, 1.25), (0.95, 1.1, 1.3)),
    "grey": ((1.0, 1.0, 1.0), (1.12, 1.02, 0.9), (0.9, 0.98, 1.1), (1.05, 1.05, 1.0)),
}


def varied(piece: Piece, rng: np.random.Generator) -> Piece:
    """The same piece as one of a real, uneven set: its size, paint and edges drawn from
    `rng` (cubes ±6 % in size and ±8 % in brightness with a slight hue shift, castles of
    off-white, brown-black or tinted grey paint, a slightly different emperor)."""
    if piece.kind == "disc":
        return piece
    spread = {"cube": 0.06, "castle": 0.07, "emperor": 0.05, "cylinder": 0.03}[piece.kind]
    size = float(rng.uniform(1 - spread, 1 + spread))
    if piece.kind == "castle":
        options = CASTLE_TINTS[piece.colour]
        base = np.asarray(options[int(rng.integers(len(options)))])
        bright = rng.uniform(0.85, 1.3) if piece.colour == "black" else rng.uniform(0.9, 1.04)
        tint = base * bright * rng.uniform(0.98, 1.02, 3)
    else:
        hue = 0.04 if piece.kind == "cube" else 0.03
        tint = rng.uniform(0.92, 1.08) * rng.uniform(1 - hue, 1 + hue, 3)
    rounding = float(rng.uniform(0.4, 1.6)) if (piece.kind in ("cube", "castle")
                                                and rng.random() < 0.5) else 0.0
    return Piece(piece.kind, piece.colour, piece.x, piece.y, piece.rot, piece.number, size,
                 (float(tint[0]), float(tint[1]), float(tint[2])), rounding)
