"""Hands and arms reaching over the mat, drawn high above it with a soft shadow."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.render.camera import Camera

SKIN = [(150, 180, 225), (120, 155, 205), (95, 125, 175), (60, 85, 130), (45, 60, 95)]
SLEEVE = [(40, 40, 40), (140, 60, 30), (50, 50, 150), (200, 200, 200), (60, 120, 60)]


@dataclass
class Hand:
    """An arm from `root` (off the mat edge) to a palm at `tip`, mat millimetres."""

    root: tuple[float, float]
    tip: tuple[float, float]
    height: float
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]


def random_hand(rng: np.random.Generator, size: float = 900.0) -> Hand:
    side = int(rng.integers(4))
    along = rng.uniform(0.2, 0.8) * size
    depth = rng.uniform(0.12, 0.55) * size
    roots = [(along, size + 250), (-250, along), (along, -250), (size + 250, along)]
    tips = [(along + rng.uniform(-150, 150), size - depth), (depth, along + rng.uniform(-150, 150)),
            (along + rng.uniform(-150, 150), depth), (size - depth, along + rng.uniform(-150, 150))]
    return Hand(roots[side], tips[side], float(rng.uniform(60, 220)),
                SKIN[int(rng.integers(len(SKIN)))], SLEEVE[int(rng.integers(len(SLEEVE)))])


def _outline(hand: Hand) -> tuple[np.ndarray, np.ndarray]:
    """Arm polygon and palm-with-fingers polygon, in mat mm at the hand's height."""
    root, tip = np.asarray(hand.root), np.asarray(hand.tip)
    d = tip - root
    d /= np.linalg.norm(d)
    n = np.array([-d[1], d[0]])
    wrist = tip - d * 60
    arm = np.array([root + n * 50, wrist + n * 32, wrist - n * 32, root - n * 50])
    palm = [wrist + n * 38, wrist - n * 38]
    fingers = []
    for k, off in enumerate((-30, -12, 6, 24)):
        base = tip + n * off
        length = 60 + 10 * (k in (1, 2))
        fingers += [base - n * 8, base + d * length - n * 6, base + d * length + n * 6,
                    base + n * 8]
    hand_poly = np.array([palm[1], *fingers, palm[0]])
    return arm, hand_poly


def draw_shadow(mask: np.ndarray, cam: Camera, hand: Hand, push: np.ndarray) -> None:
    for poly in _outline(hand):
        ground = poly + push * hand.height
        pts = cam.project(np.c_[ground, np.zeros(len(ground))])
        cv2.fillPoly(mask, [np.round(pts * 16).astype(np.int32)], 0.7, cv2.LINE_AA, shift=4)


def draw(img: np.ndarray, cam: Camera, hand: Hand, rng: np.random.Generator) -> None:
    arm, palm = _outline(hand)
    for poly, colour in ((arm, hand.sleeve), (palm, hand.skin)):
        pts = cam.project(np.c_[poly, np.full(len(poly), -hand.height)])
        tint = np.array(colour, float) * rng.uniform(0.9, 1.1)
        cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], tuple(float(c) for c in tint),
                     cv2.LINE_AA, shift=4)


def covers_mat(cam: Camera, hand: Hand, size: float = 900.0) -> bool:
    """True when any part of the hand is seen over the mat."""
    mat = cam.project(np.array([[0, 0, 0], [size, 0, 0], [size, size, 0], [0, size, 0]], float))
    hull = mat.astype(np.float32).reshape(-1, 1, 2)
    for poly in _outline(hand):
        pts = cam.project(np.c_[poly, np.full(len(poly), -hand.height)])
        for p in pts:
            if cv2.pointPolygonTest(hull, (float(p[0]), float(p[1])), False) >= 0:
                return True
        inter, _ = cv2.intersectConvexConvex(hull, cv2.convexHull(pts.astype(np.float32)))
        if inter > 1.0:
            return True
    return False
