"""What light, lens and sensor do to a rendered frame: colour cast, gradients, glare,
distortion, blur, noise and JPEG."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.render.camera import Camera

EXPOSURE = 0.88


@dataclass
class Lighting:
    """Room light: per-channel gains (BGR), overall level, a linear gradient, glare spots."""

    gains: tuple[float, float, float] = (1.0, 1.0, 1.0)
    level: float = 1.0
    gradient: float = 0.0
    gradient_angle: float = 0.0
    glare: tuple[tuple[float, float, float, float], ...] = ()   # (x, y, sigma, strength), px
    blur: float = 0.5
    noise: float = 1.5
    jpeg: int = 92


def random_lighting(rng: np.random.Generator, width: int, height: int, hard: bool) -> Lighting:
    if not hard:
        cast = rng.uniform(-0.05, 0.05)
        return Lighting((1 - cast, 1.0, 1 + cast), float(rng.uniform(0.9, 1.05)),
                        float(rng.uniform(0, 0.08)), float(rng.uniform(0, 360)), (),
                        float(rng.uniform(0.3, 0.7)), float(rng.uniform(1.0, 2.5)),
                        int(rng.integers(85, 96)))
    cast = rng.uniform(-0.22, 0.22)                         # >0 warm, <0 cool
    level = float(rng.choice([rng.uniform(0.45, 0.65), rng.uniform(0.65, 1.0),
                              rng.uniform(1.0, 1.15)]))
    glare = tuple((float(rng.uniform(0, width)), float(rng.uniform(0, height)),
                   float(rng.uniform(0.02, 0.06) * width), float(rng.uniform(0.15, 0.45)))
                  for _ in range(int(rng.integers(0, 3))))
    return Lighting((1 - cast, 1.0 - 0.1 * abs(cast), 1 + cast), level,
                    float(rng.uniform(0.05, 0.3)), float(rng.uniform(0, 360)), glare,
                    float(rng.uniform(0.5, 1.1)), float(rng.uniform(2.0, 5.0) / level),
                    int(rng.integers(70, 92)))


def expose(img: np.ndarray, cam: Camera, light: Lighting, rng: np.random.Generator) -> np.ndarray:
    """Apply light, lens, sensor and compression to an ideal rendered frame.

    Light varies slowly, so its gain and glare are computed on a coarse grid and
    resized; the per-pixel work is a handful of OpenCV passes.
    """
    h, w = img.shape[:2]
    sh, sw = max(2, h // 8), max(2, w // 8)
    a = np.radians(light.gradient_angle)
    ys = np.linspace(-0.5, 0.5, sh, dtype=np.float32)[:, None]
    xs = np.linspace(-0.5, 0.5, sw, dtype=np.float32)[None, :]
    # A camera exposes white paper at about 88 % of full scale when level is 1.
    field = (1 + light.gradient * (np.cos(a) * xs + np.sin(a) * ys)) * light.level * EXPOSURE
    glare = np.zeros((sh, sw), np.float32)
    for gx, gy, sigma, strength in light.glare:
        d2 = ((xs + 0.5) * w - gx) ** 2 + ((ys + 0.5) * h - gy) ** 2
        glare = np.maximum(glare, strength * np.exp(-d2 / (2 * sigma**2)))
    gains = np.asarray(light.gains, np.float32)
    mul = ((field * (1 - glare))[..., None] * gains).astype(np.float32)
    add = np.repeat((255 * glare)[..., None], 3, axis=2).astype(np.float32)
    mul = cv2.resize(mul, (w, h), interpolation=cv2.INTER_LINEAR)
    add = cv2.resize(add, (w, h), interpolation=cv2.INTER_LINEAR)
    out = cv2.add(cv2.multiply(img.astype(np.float32), mul), add)
    maps = cam.distort_maps()
    if maps is not None:
        out = cv2.remap(out, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if light.blur > 0:
        out = cv2.GaussianBlur(out, (0, 0), light.blur)
    noise = np.empty_like(out)
    cv2.setRNGSeed(int(rng.integers(1 << 31)))
    cv2.randn(noise, 0.0, float(light.noise))
    out = cv2.add(out, noise)
    out8 = cv2.convertScaleAbs(out)          # saturates to 0..255
    ok, buf = cv2.imencode(".jpg", out8, [cv2.IMWRITE_JPEG_QUALITY, light.jpeg])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else out8
