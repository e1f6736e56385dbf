"""What light, lens and sensor do to a rendered frame: colour cast, gradients, glare,
distortion, blur, noise and JPEG."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.render.camera import Camera


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
        return Lighting((1 - cast, 1.0, 1 + cast), float(rng.uniform(0.85, 1.05)),
                        float(rng.uniform(0, 0.08)), float(rng.uniform(0, 360)), (),
                        float(rng.uniform(0.3, 0.7)), float(rng.uniform(1.0, 2.5)),
                        int(rng.integers(85, 96)))
    cast = rng.uniform(-0.22, 0.22)                         # >0 warm, <0 cool
    level = float(rng.choice([rng.uniform(0.45, 0.7), rng.uniform(0.7, 1.0),
                              rng.uniform(1.0, 1.2)]))
    glare = tuple((float(rng.uniform(0, width)), float(rng.uniform(0, height)),
                   float(rng.uniform(0.02, 0.06) * width), float(rng.uniform(0.15, 0.45)))
                  for _ in range(int(rng.integers(0, 3))))
    return Lighting((1 - cast, 1.0 - 0.1 * abs(cast), 1 + cast), level,
                    float(rng.uniform(0.05, 0.3)), float(rng.uniform(0, 360)), glare,
                    float(rng.uniform(0.5, 1.1)), float(rng.uniform(2.0, 5.0) / level),
                    int(rng.integers(70, 92)))


def expose(img: np.ndarray, cam: Camera, light: Lighting, rng: np.random.Generator) -> np.ndarray:
    """Apply light, lens, sensor and compression to an ideal rendered frame."""
    h, w = img.shape[:2]
    a = np.radians(light.gradient_angle)
    ys, xs = np.linspace(-0.5, 0.5, h, dtype=np.float32), np.linspace(-0.5, 0.5, w,
                                                                      dtype=np.float32)
    field = 1 + light.gradient * (np.cos(a) * xs[None, :] + np.sin(a) * ys[:, None])
    out = img.astype(np.float32) * (field * light.level)[..., None]
    out *= np.asarray(light.gains, np.float32)
    for gx, gy, sigma, strength in light.glare:
        g = (np.exp(-((xs * w + w / 2 - gx) ** 2) / (2 * sigma**2))[None, :]
             * np.exp(-((ys * h + h / 2 - gy) ** 2) / (2 * sigma**2))[:, None])
        out += (255 - out) * (strength * g)[..., None]
    maps = cam.distort_maps()
    if maps is not None:
        out = cv2.remap(out, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if light.blur > 0:
        out = cv2.GaussianBlur(out, (0, 0), light.blur)
    out += rng.normal(0, light.noise, out.shape).astype(np.float32)
    out = np.clip(out, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, light.jpeg])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else out
