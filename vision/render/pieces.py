"""The game's pieces as small 3D solids: shaded side faces, a lit top, a cast shadow."""

from __future__ import annotations

from dataclasses import dataclass

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
    """One piece on the mat: `kind` is cube, castle, emperor, cylinder or disc."""

    kind: str
    colour: str
    x: float
    y: float
    rot: float = 0.0
    number: int = 0

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


def solids(piece: Piece, sizes: dict[str, float], heights: dict[str, float]) -> list[tuple]:
    """The piece as stacked prisms: (bottom ring, top ring, colour factor)."""
    x, y = piece.x, piece.y
    if piece.kind in ("cube", "castle"):
        half = sizes[piece.kind] / 2 * np.sqrt(2)
        h = heights[piece.kind]
        return [(_ring(x, y, half, 0, 4, piece.rot + 45), _ring(x, y, half, -h, 4, piece.rot + 45),
                 1.0)]
    if piece.kind in ("cylinder", "disc"):
        r = sizes[piece.kind] / 2
        return [(_ring(x, y, r, 0, 20), _ring(x, y, r, -heights[piece.kind], 20), 1.0)]
    r = sizes["emperor"] / 2
    h = heights["emperor"]
    return [(_ring(x, y, r, 0, 24), _ring(x, y, r, -0.15 * h, 24), 0.9),
            (_ring(x, y, r * 0.68, -0.15 * h, 20), _ring(x, y, r * 0.4, -0.95 * h, 20), 1.0)]


def shadow(mask: np.ndarray, cam: Camera, piece: Piece, light: Light, sizes: dict[str, float],
           heights: dict[str, float]) -> None:
    """Paint the piece's shadow on the ground into a float mask (1 = full shadow)."""
    v = light.vector()
    push = -v[:2] / max(1e-3, -v[2])
    for bottom, top, _ in solids(piece, sizes, heights):
        ground = top.copy()
        ground[:, :2] += np.outer(-top[:, 2], push)
        ground[:, 2] = 0
        flat = bottom.copy()
        flat[:, 2] = 0
        pts = cam.project(np.vstack([flat, ground])).astype(np.float32)
        hull = cv2.convexHull(pts)
        _fill(mask, hull.reshape(-1, 2), (1.0,))


def draw(img: np.ndarray, cam: Camera, piece: Piece, light: Light, sizes: dict[str, float],
         heights: dict[str, float], rng: np.random.Generator) -> None:
    tint = 0.015 if piece.kind in ("castle", "disc") else 0.05
    base = (np.array(piece.bgr(), np.float64) * rng.uniform(1 - tint, 1 + tint, 3)
            * rng.uniform(0.95, 1.04))
    eye = cam.position()
    for bottom, top, factor in solids(piece, sizes, heights):
        n = len(bottom)
        pb, pt = cam.project(bottom), cam.project(top)
        centre = bottom[:, :2].mean(axis=0)
        faces = []
        for i in range(n):
            j = (i + 1) % n
            mid = (bottom[i] + bottom[j] + top[i] + top[j]) / 4
            outward = np.r_[mid[:2] - centre, 0.0]
            outward /= np.linalg.norm(outward) + 1e-9
            if outward @ (eye - mid) <= 0:
                continue
            faces.append((np.linalg.norm(eye - mid), i, j, outward))
        for _, i, j, outward in sorted(faces, reverse=True):
            colour = base * factor * _shade(outward, light) * 0.85
            _fill(img, np.array([pb[i], pb[j], pt[j], pt[i]]), tuple(colour))
        up = np.array([0.0, 0.0, -1.0])
        _fill(img, pt, tuple(base * factor * _shade(up, light)))
    if piece.kind == "castle":
        c = np.array([piece.x, piece.y, -heights["castle"]])
        inner = _ring(c[0], c[1], sizes["castle"] * 0.3 * np.sqrt(2), c[2], 4, piece.rot + 45)
        _fill(img, cam.project(inner), tuple(base * 0.8 * _shade(np.array([0, 0, -1.0]), light)))
    if piece.kind == "disc" and piece.number:
        centre = cam.project(np.array([[piece.x, piece.y, -heights["disc"]]]))[0]
        ink = (20, 20, 20) if piece.colour != "black" else (225, 225, 225)
        scale = sizes["disc"] * cam.focal_px / abs(cam.centre_mm[2]) / 60
        (tw, th), _ = cv2.getTextSize(str(piece.number), cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        cv2.putText(img, str(piece.number), (int(centre[0] - tw / 2), int(centre[1] + th / 2)),
                    cv2.FONT_HERSHEY_SIMPLEX, scale, ink, max(1, int(scale * 2)), cv2.LINE_AA)
