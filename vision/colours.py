"""Pixel colours to piece classes through a lookup table over 15-bit BGR.

Classes are decided by the nearest prototype in Lab. Each piece colour has prototypes
for its lit top and its shaded sides; the mat and tile art have their own prototypes
that map to "nothing", so a muted green meadow never becomes a green cube. Building the
table costs a few milliseconds and happens only when the colours change (calibration).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import cv2
import numpy as np

from vision.layout import CUBE_COLOURS

NONE = 0
CLASS_OF = {c: i + 1 for i, c in enumerate(CUBE_COLOURS)}
NEUTRAL = 6
COLOUR_OF = {v: k for k, v in CLASS_OF.items()}
WHITE_LEVEL = 235.0

#: Colours after white balance (paper = 235), BGR, for the real plastic and wood.
DEFAULT_PIECES = {"red": (40, 38, 195), "green": (55, 148, 42), "yellow": (32, 200, 232),
                  "blue": (160, 80, 24), "pink": (180, 124, 232), "emperor": (28, 186, 230)}
DEFAULT_NEUTRALS = [(232, 232, 230), (135, 136, 134), (42, 40, 40)]
DEFAULT_BACKGROUND = [(205, 200, 105), (170, 165, 80), (185, 180, 95), (70, 150, 110),
                      (50, 105, 65), (80, 165, 190),
                      (60, 100, 140), (140, 190, 205), (150, 125, 85), (95, 135, 120),
                      (65, 120, 150), (170, 200, 215), (165, 135, 95), (150, 190, 212),
                      (40, 60, 80)]
PIECE_SHADES = (1.12, 0.95, 0.8, 0.65, 0.5, 0.4)
NEUTRAL_SHADES = (1.05, 0.9, 0.75, 0.6, 0.45, 0.3)
BACKGROUND_SHADES = (1.1, 0.9, 0.7, 0.55, 0.45)
GLARE_WASHES = (0.2, 0.35)
L_WEIGHT = 0.45
MAX_DISTANCE = 30.0
NEUTRAL_CHROMA = 8.0     # Lab a-b distance from grey below which a pixel is "no colour"


def _lab(bgr: np.ndarray) -> np.ndarray:
    arr = np.clip(np.asarray(bgr, np.float32).reshape(-1, 1, 3) / 255.0, 0, 1)
    lab: np.ndarray = cv2.cvtColor(arr, cv2.COLOR_BGR2Lab).reshape(-1, 3)
    return lab


def _prototypes(colours: Iterable[tuple[tuple[float, ...], int]],
                shades: tuple[float, ...], washes: tuple[float, ...] = ()
                ) -> tuple[np.ndarray, np.ndarray]:
    """Each colour at several shades, and (for pieces) washed out towards white by glare."""
    bgr, cls = [], []
    for colour, label in colours:
        for s in shades:
            bgr.append(np.asarray(colour, np.float32) * s)
            cls.append(label)
        for w in washes:
            bgr.append(np.asarray(colour, np.float32) * (1 - w) + WHITE_LEVEL * w)
            cls.append(label)
    return _lab(np.asarray(bgr)), np.asarray(cls, np.uint8)


_CACHE: dict[str, np.ndarray] = {}


def default_table() -> np.ndarray:
    """The table for the default colours, built once per process."""
    if "default" not in _CACHE:
        _CACHE["default"] = build_table()
    return _CACHE["default"]


def paper_table() -> np.ndarray:
    """The default colours with no tile art to tell apart: for zones on bare paper."""
    if "paper" not in _CACHE:
        _CACHE["paper"] = build_table(background=())
    return _CACHE["paper"]


def build_table(pieces: Mapping[str, tuple[float, ...]] | None = None,
                neutrals: Iterable[tuple[float, ...]] | None = None,
                background: Iterable[tuple[float, ...]] | None = None) -> np.ndarray:
    """The 32768-entry table from 5-bit-per-channel BGR to a class."""
    pieces = dict(DEFAULT_PIECES, **(pieces or {}))
    named = [(pieces[c], CLASS_OF[c]) for c in CUBE_COLOURS] + [(pieces["emperor"],
                                                                 CLASS_OF["yellow"])]
    labs, classes = [], []
    for group, shades, washes in (
            (named, PIECE_SHADES, GLARE_WASHES),
            ([(n, NEUTRAL) for n in (neutrals or DEFAULT_NEUTRALS)], NEUTRAL_SHADES, ()),
            ([(b, NONE) for b in (DEFAULT_BACKGROUND if background is None else background)],
             BACKGROUND_SHADES,
             GLARE_WASHES)):
        if not group:
            continue
        lab, cls = _prototypes(group, shades, washes)
        labs.append(lab)
        classes.append(cls)
    proto = np.vstack(labs)
    proto_cls = np.concatenate(classes)
    q = (np.arange(32, dtype=np.float32) * 8 + 4)
    b, g, r = np.meshgrid(q, q, q, indexing="ij")
    grid = _lab(np.stack([b.ravel(), g.ravel(), r.ravel()], 1))
    w = np.array([L_WEIGHT, 1.0, 1.0], np.float32)
    nearest = np.empty(len(grid), np.intp)
    distance = np.empty(len(grid), np.float32)
    # in slices: the whole grid against every prototype at once would take ~120 MB
    for start in range(0, len(grid), 2048):
        part = grid[start:start + 2048]
        d = (((part[:, None, :] - proto[None, :, :]) * w) ** 2).sum(axis=2)
        nearest[start:start + 2048] = d.argmin(axis=1)
        distance[start:start + 2048] = d.min(axis=1)
    table = proto_cls[nearest].copy()
    table[np.sqrt(distance) > MAX_DISTANCE] = NONE
    table[table == NEUTRAL] = NONE
    chroma = np.hypot(grid[:, 1], grid[:, 2])
    table[(chroma < NEUTRAL_CHROMA) | ((grid[:, 0] < 22) & (chroma < 12))] = NEUTRAL
    return table


def table_index(bgr: np.ndarray) -> np.ndarray:
    """Each pixel's entry in a colour table (5 bits a channel), to look up in several.

    The channels' top five bits by numpy's shifts (OpenCV's lookup tables into 16 bits,
    one per channel, took twice as long: half a millisecond a read)."""
    b, g, r = cv2.split(np.right_shift(bgr, 3))
    index: np.ndarray = np.left_shift(b, 10, dtype=np.uint16)
    index |= np.left_shift(g, 5, dtype=np.uint16)
    index |= r
    return index


def classify(bgr: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Class of every pixel of a BGR uint8 image."""
    return np.take(table, table_index(bgr))
