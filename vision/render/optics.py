"""What light, lens and sensor do to a rendered frame: colour cast, gradients, glare,
distortion, blur, noise and JPEG."""

from __future__ import annotations

from dataclasses import dataclass, replace

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
    #: An area lamp over the table: its spot (x, y as fractions of the frame), the spread
    #: of its pool of light (fraction of the frame width) and how much darker the rest is.
    lamp: tuple[float, float, float, float] | None = None
    #: Light that does not come from the lamp and so neither pools nor follows its level:
    #: daylight through a window, the room's other lamps (fraction of full scale per
    #: channel, BGR, added evenly). It changes a frame's colours by an offset, not a gain.
    stray: tuple[float, float, float] = (0.0, 0.0, 0.0)
    #: The camera's black level (grey levels): what a black surface reads, whatever the
    #: light; the rest of the scale is squeezed above it.
    black: float = 0.0
    #: The share of the light, per channel (BGR), that a full shadow still gets: the
    #: room's fill light, which the pieces do not block. None is the classic grey 0.55.
    #: A warm lamp's shadow lit by cooler daylight is darker and bluer than the lamp's
    #: light (the path-traced scenes show it).
    fill: tuple[float, float, float] | None = None


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


def with_lamp(rng: np.random.Generator, lighting: Lighting, hard: bool) -> Lighting:
    """Room light of a wide scene: most rooms have an area lamp whose warm or cool light
    pools under it, and the colour temperature strays further than the classic cast."""
    cast = float(rng.uniform(-0.08, 0.08) if not hard else rng.uniform(-0.12, 0.12))
    g = lighting.gains
    gains = (g[0] * (1 - cast), g[1], g[2] * (1 + cast))
    lamp = None
    if rng.random() < 0.7:
        lamp = (float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.1, 0.9)),
                float(rng.uniform(0.35, 0.9)),
                float(rng.uniform(0.05, 0.2) if not hard else rng.uniform(0.1, 0.35)))
    return replace(lighting, gains=gains, lamp=lamp)


def with_fill(rng: np.random.Generator, lighting: Lighting, hard: bool) -> Lighting:
    """Room light whose shadows are lit by a fill of its own: how much of the light a
    full shadow keeps (deeper under a hard lamp) and of which colour against the lamp's
    (a warm lamp's shadows lit by cool daylight are bluer, a cool lamp's warmer)."""
    keep = float(rng.uniform(0.25, 0.7) if hard else rng.uniform(0.45, 0.8))
    cool = float(rng.uniform(-0.35, 0.35) if hard else rng.uniform(-0.15, 0.15))
    fill = np.minimum(0.95, keep * np.array([1 + cool, 1.0, 1 - cool]))
    return replace(lighting, fill=(float(fill[0]), float(fill[1]), float(fill[2])))


def drift(lighting: Lighting, t: float, seed: int = 0) -> Lighting:
    """The same room `t` seconds later: daylight through a window and lamps warming up
    make the level wander by up to ±10 %, the colour temperature by a few per cent and the
    gradient turn, slowly (periods of minutes). `seed` picks the phases."""
    ph = np.random.default_rng([seed, 0xD21F7]).uniform(0, 2 * np.pi, 5)

    def wave(i: int, period: float) -> float:
        return float(np.sin(2 * np.pi * t / period + ph[i]))

    level = lighting.level * (1 + 0.07 * wave(0, 240.0) + 0.03 * wave(1, 900.0))
    warm = 0.05 * wave(2, 600.0)
    g = lighting.gains
    return replace(lighting, level=level,
                   gains=(g[0] * (1 - warm), g[1], g[2] * (1 + warm)),
                   gradient=max(0.0, lighting.gradient + 0.04 * (1 + wave(3, 420.0))),
                   gradient_angle=(lighting.gradient_angle + 70 * wave(4, 780.0)) % 360)


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
    if light.lamp is not None:
        lx, ly, spread, fall = light.lamp
        d2 = (xs + 0.5 - lx) ** 2 + ((ys + 0.5 - ly) * h / w) ** 2
        field = field * (1 - fall * (1 - np.exp(-d2 / (2 * spread**2))))
    glare = np.zeros((sh, sw), np.float32)
    for gx, gy, sigma, strength in light.glare:
        d2 = ((xs + 0.5) * w - gx) ** 2 + ((ys + 0.5) * h - gy) ** 2
        glare = np.maximum(glare, strength * np.exp(-d2 / (2 * sigma**2)))
    gains = np.asarray(light.gains, np.float32)
    mul = ((field * (1 - glare))[..., None] * gains).astype(np.float32)
    add = (np.repeat((255 * glare)[..., None], 3, axis=2)
           + 255 * np.asarray(light.stray, np.float32)).astype(np.float32)
    mul = np.asarray(cv2.resize(mul, (w, h), interpolation=cv2.INTER_LINEAR))
    add = np.asarray(cv2.resize(add, (w, h), interpolation=cv2.INTER_LINEAR))
    out = np.asarray(cv2.add(cv2.multiply(img.astype(np.float32), mul), add))
    if light.black:
        out = np.asarray(cv2.addWeighted(out, 1 - light.black / 255, out, 0.0, light.black))
    maps = cam.distort_maps()
    if maps is not None:
        out = np.asarray(cv2.remap(out, maps[0], maps[1], cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE))
    if light.blur > 0:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), light.blur))
    noise = np.empty_like(out)
    cv2.setRNGSeed(int(rng.integers(1 << 31)))
    cv2.randn(noise, 0.0, float(light.noise))  # type: ignore[call-overload]  # stubs want arrays
    out = cv2.add(out, noise)
    out8 = np.asarray(cv2.convertScaleAbs(out))          # saturates to 0..255
    ok, buf = cv2.imencode(".jpg", out8, [cv2.IMWRITE_JPEG_QUALITY, light.jpeg])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return out8 if decoded is None else np.asarray(decoded)
