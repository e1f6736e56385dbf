"""Draw the printable mat for a layout: a BGR image at any px/mm, and a tiled PDF.

The print is deliberately plain: white paper the camera uses as its white reference,
pale tinted territory spots (so a white castle never sits on white paper), striped disc
slots (a disc of any colour shows as a smooth patch) and thin guide lines.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.layout import Layout, Zone

PAPER = (255, 255, 255)
INK = (60, 60, 60)
SPOT_FILL = (205, 200, 105)        # light turquoise (BGR): not white, not a piece colour
GREY_REFERENCE = (128, 128, 128)
STRIPE_MM = 3.0


def aruco_dictionary(name: str) -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))


def _px(points: Sequence[Sequence[float]], s: float) -> np.ndarray:
    return np.round(np.asarray(points, np.float64) * s * 16).astype(np.int32)


def _fill(img: np.ndarray, poly: Sequence[Sequence[float]], s: float,
          colour: tuple[int, ...]) -> None:
    cv2.fillPoly(img, [_px(poly, s)], colour, cv2.LINE_AA, shift=4)


def _outline(img: np.ndarray, poly: Sequence[Sequence[float]], s: float, colour: tuple[int, ...],
             width_mm: float = 0.8) -> None:
    cv2.polylines(img, [_px(poly, s)], True, colour, max(1, round(width_mm * s)), cv2.LINE_AA,
                  shift=4)


def _text(img: np.ndarray, text: str, at_mm: tuple[float, float], s: float, height_mm: float,
          colour: tuple[int, ...] = INK, angle: int = 0) -> None:
    """Centred text, rotated by `angle` degrees clockwise (so each seat reads its own)."""
    scale = height_mm * s / 22.0
    thick = max(1, round(scale * 2))
    (w, h), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    pad = thick + 2
    patch = np.zeros((h + base + 2 * pad, w + 2 * pad), np.uint8)
    cv2.putText(patch, text, (pad, h + pad), cv2.FONT_HERSHEY_SIMPLEX, scale, 255, thick,
                cv2.LINE_AA)
    patch = np.rot90(patch, k=-(angle // 90) % 4)
    ph, pw = patch.shape
    cx, cy = at_mm[0] * s, at_mm[1] * s
    x0, y0 = round(cx - pw / 2), round(cy - ph / 2)
    x1, y1 = x0 + pw, y0 + ph
    if x0 < 0 or y0 < 0 or x1 > img.shape[1] or y1 > img.shape[0]:
        return
    alpha = (patch.astype(np.float32) / 255.0)[..., None]
    roi = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = (roi * (1 - alpha) + np.array(colour, np.float32) * alpha).astype(
        np.uint8)


def _markers(img: np.ndarray, layout: Layout, s: float) -> None:
    dictionary = aruco_dictionary(layout.dictionary)
    for marker_id, corners in layout.markers.items():
        side = max(12, round(math.dist(corners[0], corners[1]) * s))
        tag = cv2.aruco.generateImageMarker(dictionary, marker_id, side)
        src = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
        dst = np.array(corners, np.float32) * s
        x0, y0 = np.floor(dst.min(axis=0)).astype(int)
        x1, y1 = np.ceil(dst.max(axis=0)).astype(int)
        m = cv2.getPerspectiveTransform(src, dst - np.array([x0, y0], np.float32))
        roi = img[y0:y1, x0:x1]
        warped = cv2.warpPerspective(cv2.cvtColor(tag, cv2.COLOR_GRAY2BGR), m,
                                     (x1 - x0, y1 - y0), dst=roi.copy(),
                                     flags=cv2.INTER_NEAREST,
                                     borderMode=cv2.BORDER_TRANSPARENT)
        img[y0:y1, x0:x1] = warped


def _disc_slot(img: np.ndarray, zone: Zone, s: float) -> None:
    """Diagonal stripes in a circle as big as a disc; a number in a small white hub."""
    cx, cy = zone.raw.get("centre_mm", zone.centre())
    radius = 15.0
    x0, y0 = int((cx - radius) * s), int((cy - radius) * s)
    x1, y1 = math.ceil((cx + radius) * s), math.ceil((cy + radius) * s)
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32) / s
    inside = (xx - cx) ** 2 + (yy - cy) ** 2 <= radius**2
    stripes = (np.floor((xx + yy) / STRIPE_MM) % 2 == 0)
    roi = img[y0:y1, x0:x1]
    roi[inside & stripes] = (20, 20, 20)
    roi[inside & ~stripes] = PAPER
    cv2.circle(img, (round(cx * s), round(cy * s)), round(6 * s), PAPER, -1, cv2.LINE_AA)
    _text(img, str(zone.raw["disc"]), (cx, cy), s, 6, INK, int(zone.raw.get("facing", 0)))
    _outline(img, zone.polygon, s, (200, 200, 200), 0.5)


def _court(img: np.ndarray, zone: Zone, s: float) -> None:
    _outline(img, zone.polygon, s, (170, 170, 170), 0.6)
    if "board_mm" in zone.raw:
        _outline(img, zone.raw["board_mm"], s, INK, 0.8)
    for line in zone.raw.get("rows_mm", {}).values():
        cv2.line(img, tuple(int(v) for v in _px([line[0]], s)[0]),
                 tuple(int(v) for v in _px([line[1]], s)[0]), (215, 215, 215),
                 max(1, round(0.5 * s)), cv2.LINE_AA, shift=4)


def render_mat(layout: Layout, px_per_mm: float) -> np.ndarray:
    """The whole mat as a BGR image, `px_per_mm` pixels per millimetre."""
    s = float(px_per_mm)
    w, h = (round(v * s) for v in layout.size_mm)
    img = np.full((h, w, 3), PAPER, np.uint8)
    for zone in layout.zones:
        facing = int(zone.raw.get("facing", 0))
        if zone.kind == "territory":
            _fill(img, zone.polygon, s, SPOT_FILL)
            _outline(img, zone.polygon, s, (170, 165, 80), 0.8)
            cx, cy = zone.raw.get("centre_mm", zone.centre())
            _text(img, str(zone.raw["territory"]), (cx, cy), s, 14, (185, 180, 95))
        elif zone.kind == "court":
            _court(img, zone, s)
        elif zone.kind == "reserve":
            _outline(img, zone.polygon, s, (170, 170, 170), 0.6)
            _text(img, f"{zone.seat} reserve", zone.centre(), s, 5, (205, 205, 205), facing)
        elif zone.kind == "disc-slot":
            _disc_slot(img, zone, s)
        elif zone.kind == "pool":
            _outline(img, zone.polygon, s, (170, 170, 170), 0.6)
        elif zone.kind == "swatch":
            _outline(img, zone.polygon, s, (190, 190, 190), 0.5)
            x0, _y0, x1, y1 = zone.bbox()
            _text(img, f"{zone.raw['piece']} {zone.raw['colour']}", ((x0 + x1) / 2, y1 - 3),
                  s, 3, (170, 170, 170))
        elif zone.kind == "reference" and zone.raw.get("shade") == "grey":
            _fill(img, zone.polygon, s, GREY_REFERENCE)
        elif zone.kind == "reference":
            _outline(img, zone.polygon, s, (220, 220, 220), 0.4)
    _markers(img, layout, s)
    return img


PAPER_MM = {"A4": (210.0, 297.0), "A3": (297.0, 420.0)}


def write_png(layout: Layout, path: Path, px_per_mm: float) -> None:
    img = render_mat(layout, px_per_mm)
    if not cv2.imwrite(str(path), img):
        raise OSError(f"{path}: cannot write PNG")


def sheets(layout: Layout, paper: str = "A3", px_per_mm: float = 6.0,
           margin_mm: float = 10.0, overlap_mm: float = 10.0) -> list[np.ndarray]:
    """The printed sheets of the mat (BGR pages, row by row), as `write_pdf` prints them.

    Each sheet prints `overlap_mm` more than it advances, with cross marks where the next
    sheet's edge goes, so the sheets can be trimmed and taped edge to edge.
    """
    img = render_mat(layout, px_per_mm)
    pw, ph = PAPER_MM[paper]
    if layout.size_mm[0] > layout.size_mm[1]:
        pw, ph = ph, pw
    area_w, area_h = pw - 2 * margin_mm, ph - 2 * margin_mm
    step_w, step_h = area_w - overlap_mm, area_h - overlap_mm
    cols = math.ceil((layout.size_mm[0] - overlap_mm) / step_w)
    rows = math.ceil((layout.size_mm[1] - overlap_mm) / step_h)
    s = px_per_mm
    pages = []
    for r in range(rows):
        for c in range(cols):
            page = np.full((round(ph * s), round(pw * s), 3), 255, np.uint8)
            x_mm, y_mm = c * step_w, r * step_h
            x0, y0 = round(x_mm * s), round(y_mm * s)
            tile = img[y0:y0 + round(area_h * s), x0:x0 + round(area_w * s)]
            m = round(margin_mm * s)
            page[m:m + tile.shape[0], m:m + tile.shape[1]] = tile
            _crop_marks(page, s, margin_mm, area_w, area_h, overlap_mm)
            label = f"row {r + 1}/{rows} col {c + 1}/{cols}  (mat x {x_mm:.0f} y {y_mm:.0f} mm)"
            cv2.putText(page, label, (m, round((margin_mm - 3) * s)), cv2.FONT_HERSHEY_SIMPLEX,
                        0.12 * s, (90, 90, 90), max(1, round(s / 5)), cv2.LINE_AA)
            pages.append(page)
    return pages


def write_pdf(layout: Layout, path: Path, paper: str = "A3", px_per_mm: float = 6.0,
              margin_mm: float = 10.0, overlap_mm: float = 10.0) -> int:
    """Tile the mat onto sheets (`sheets`) as one PDF; returns the sheet count."""
    from PIL import Image  # a well-kept PDF writer; imported only when printing

    pages = [Image.fromarray(cv2.cvtColor(page, cv2.COLOR_BGR2RGB))
             for page in sheets(layout, paper, px_per_mm, margin_mm, overlap_mm)]
    pages[0].save(str(path), "PDF", resolution=px_per_mm * 25.4, save_all=True,
                  append_images=pages[1:])
    return len(pages)


def _crop_marks(page: np.ndarray, s: float, margin: float, area_w: float, area_h: float,
                overlap: float) -> None:
    """Crosses at the corners of the part each sheet owns (its area less the overlap)."""
    for x in (margin + overlap / 2, margin + area_w - overlap / 2):
        for y in (margin + overlap / 2, margin + area_h - overlap / 2):
            cx, cy, arm = round(x * s), round(y * s), round(4 * s)
            for dx, dy in ((arm, 0), (0, arm)):
                cv2.line(page, (cx - dx, cy - dy), (cx + dx, cy + dy), (255, 0, 255),
                         max(1, round(0.3 * s)))
