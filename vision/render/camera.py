"""A pinhole camera above the mat, with lens distortion, for the synthetic renderer.

World coordinates are mat millimetres with z pointing into the table, so a piece of
height h has its top at z = -h.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


def _rot_x(a: float) -> np.ndarray:
    c, s = np.cos(a), np.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def _rot_y(a: float) -> np.ndarray:
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])


def _rot_z(a: float) -> np.ndarray:
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


@dataclass
class Camera:
    """Pose and optics; `k1`, `k2` are OpenCV radial distortion coefficients."""

    width: int
    height: int
    focal_px: float
    centre_mm: tuple[float, float, float]    # camera position (z negative: above the mat)
    roll_deg: float = 0.0
    tilt_x_deg: float = 0.0
    tilt_y_deg: float = 0.0
    k1: float = 0.0
    k2: float = 0.0

    @property
    def matrix(self) -> np.ndarray:
        return np.array([[self.focal_px, 0, self.width / 2], [0, self.focal_px, self.height / 2],
                         [0, 0, 1]], np.float64)

    @property
    def rotation(self) -> np.ndarray:
        return np.asarray(_rot_z(np.radians(self.roll_deg)) @ _rot_x(np.radians(self.tilt_x_deg))
                          @ _rot_y(np.radians(self.tilt_y_deg)), np.float64)

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N, 3) to undistorted pixel coordinates (N, 2)."""
        pts = np.asarray(points, np.float64).reshape(-1, 3)
        cam = (pts - np.asarray(self.centre_mm)) @ self.rotation.T
        uv = cam[:, :2] / cam[:, 2:3]
        return np.asarray(uv * self.focal_px + np.array([self.width / 2, self.height / 2]),
                          np.float64)

    def position(self) -> np.ndarray:
        return np.asarray(self.centre_mm, np.float64)

    def mat_homography(self) -> np.ndarray:
        """Mat plane (mm) to undistorted image pixels."""
        src = np.array([[0, 0], [1000, 0], [1000, 1000], [0, 1000]], np.float32)
        dst = self.project(np.c_[src, np.zeros(4)]).astype(np.float32)
        return np.asarray(cv2.getPerspectiveTransform(src, dst))

    def distort_maps(self) -> tuple[np.ndarray, np.ndarray] | None:
        """Maps for cv2.remap turning an ideal image into one seen through the lens."""
        if self.k1 == 0 and self.k2 == 0:
            return None
        step = 8
        gx, gy = np.meshgrid(np.arange(0, self.width + step, step, dtype=np.float32),
                             np.arange(0, self.height + step, step, dtype=np.float32))
        pts = np.stack([gx.ravel(), gy.ravel()], axis=1).reshape(-1, 1, 2)
        dist = np.array([self.k1, self.k2, 0, 0], np.float64)
        und = cv2.undistortPoints(pts, self.matrix, dist, P=self.matrix).reshape((*gx.shape, 2))
        mx = cv2.resize(und[..., 0], None, fx=step, fy=step, interpolation=cv2.INTER_LINEAR)
        my = cv2.resize(und[..., 1], None, fx=step, fy=step, interpolation=cv2.INTER_LINEAR)
        return mx[: self.height, : self.width], my[: self.height, : self.width]


def overhead_camera(rng: np.random.Generator, width: int, height: int, px_per_mm: float,
                    mat_mm: float = 900.0, tilt_deg: float = 3.0, roll_jitter_deg: float = 3.0,
                    k1_range: tuple[float, float] = (0.0, 0.0)) -> Camera:
    """A camera about 1.1 m above the mat, roughly centred, at a right-angle roll plus jitter."""
    h = rng.uniform(1000, 1250)
    roll = float(rng.choice([0.0, 180.0]) + rng.uniform(-roll_jitter_deg, roll_jitter_deg))
    c = mat_mm / 2
    cam = Camera(width, height, px_per_mm * h, (c, c, -h), roll,
                 rng.uniform(-tilt_deg, tilt_deg), rng.uniform(-tilt_deg, tilt_deg),
                 float(rng.uniform(*k1_range)))
    target = np.array([width / 2 + rng.uniform(-0.02, 0.02) * width,
                       height / 2 + rng.uniform(-0.02, 0.02) * height])
    corners = np.array([[0, 0, 0], [mat_mm, 0, 0], [mat_mm, mat_mm, 0], [0, mat_mm, 0]], float)
    for _ in range(6):
        seen = cam.project(np.array([[c, c, 0.0]]))[0]
        shift = (seen - target) / (cam.focal_px / h)
        shift_world = np.linalg.solve(cam.rotation[:2, :2], shift)
        cam.centre_mm = (cam.centre_mm[0] + shift_world[0], cam.centre_mm[1] + shift_world[1],
                         -h)
        pts = cam.project(corners)
        margin = 12
        span = np.maximum(np.abs(pts - target).max(axis=0), 1)
        room = np.array([width / 2 - margin, height / 2 - margin])
        fit = float(min(1.0, *(room / span)))
        cam.focal_px *= fit
    return cam
