"""How the default mat is designed; `vision/default_layout.json` is generated from this.

One seat strip is drawn for `south` and rotated a quarter turn for each other seat, so
every player sees the same court, reserve and tray in front of him.
Regenerate with `python -m vision.layout_design > vision/default_layout.json`.
"""

from __future__ import annotations

import json
import math
from typing import Any

from vision.layout import CUBE_COLOURS, FORMAT, SEATS

SIZE = 900.0
MARKER = 40.0
MARKER_MARGIN = 10.0
MARKERS_PER_SIDE = 7
RING_RADIUS = 240.0
SPOT_RADIUS = 48.0
ROW_PITCH = 16.0


def _rect(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def _rotate(points: list[list[float]], quarter_turns: int) -> list[list[float]]:
    """Rotate about the mat centre, clockwise as seen from above (y points down)."""
    c = SIZE / 2
    out = []
    for x, y in points:
        dx, dy = x - c, y - c
        for _ in range(quarter_turns):
            dx, dy = -dy, dx
        out.append([round(c + dx, 2), round(c + dy, 2)])
    return out


def _markers() -> list[dict[str, Any]]:
    step = (SIZE - 2 * MARKER_MARGIN - MARKER) / (MARKERS_PER_SIDE - 1)
    offsets = [MARKER_MARGIN + i * step for i in range(MARKERS_PER_SIDE)]
    far = SIZE - MARKER_MARGIN - MARKER
    spots = [(o, MARKER_MARGIN) for o in offsets]                       # top, left to right
    spots += [(far, o) for o in offsets[1:]]                             # right, downwards
    spots += [(o, far) for o in reversed(offsets[:-1])]                  # bottom, leftwards
    spots += [(MARKER_MARGIN, o) for o in reversed(offsets[1:-1])]       # left, upwards
    return [{"id": i, "corners_mm": _rect(x, y, x + MARKER, y + MARKER)}
            for i, (x, y) in enumerate(spots)]


def _territories() -> list[dict[str, Any]]:
    zones = []
    for n in range(1, 16):
        angle = -math.pi / 2 + (n - 1) * 2 * math.pi / 15      # 1 at the top, clockwise
        cx = SIZE / 2 + RING_RADIUS * math.cos(angle)
        cy = SIZE / 2 + RING_RADIUS * math.sin(angle)
        poly = [[round(cx + SPOT_RADIUS * math.cos(2 * math.pi * k / 24), 2),
                 round(cy + SPOT_RADIUS * math.sin(2 * math.pi * k / 24), 2)] for k in range(24)]
        zones.append({"kind": "territory", "territory": n, "polygon_mm": poly,
                      "centre_mm": [round(cx, 2), round(cy, 2)]})
    return zones


def _south_seat() -> list[dict[str, Any]]:
    """Court (board + five rows), reserve and disc tray along the bottom edge."""
    top, bottom = 748.0, 842.0
    board = _rect(175, 752, 222, 838)
    rows = {}
    for i, colour in enumerate(CUBE_COLOURS):
        y = 762 + i * ROW_PITCH
        rows[colour] = [[205.0, y], [385.0, y]]
    court = {"kind": "court", "polygon_mm": _rect(172, top, 390, bottom), "board_mm": board,
             "rows_mm": rows}
    reserve = {"kind": "reserve", "polygon_mm": _rect(398, top, 540, bottom)}
    slots = []
    for d in range(1, 6):
        cx = 566 + (d - 1) * 35
        slots.append({"kind": "disc-slot", "disc": d,
                      "polygon_mm": _rect(cx - 17, 778, cx + 17, 812),
                      "centre_mm": [cx, 795.0]})
    return [court, reserve, *slots]


def _seats() -> list[dict[str, Any]]:
    zones = []
    for turns, seat in enumerate(SEATS):
        for zone in _south_seat():
            z = dict(zone, seat=seat)
            for key in ("polygon_mm", "board_mm"):
                if key in z:
                    z[key] = _rotate(z[key], turns)
            if "centre_mm" in z:
                z["centre_mm"] = _rotate([z["centre_mm"]], turns)[0]
            if "rows_mm" in z:
                z["rows_mm"] = {c: _rotate(line, turns) for c, line in z["rows_mm"].items()}
            z["facing"] = turns * 90
            zones.append(z)
    return zones


def _corner_cells() -> list[dict[str, Any]]:
    """Swatches and white/grey references in the four corners (3 x 3 cells of 32 mm)."""
    swatches = ([("cube", c) for c in CUBE_COLOURS] + [("cylinder", c) for c in CUBE_COLOURS]
                + [("castle", c) for c in ("white", "black", "grey")] + [("emperor", "yellow")])
    corners = [(62.0, 62.0), (SIZE - 62 - 96, 62.0), (SIZE - 62 - 96, SIZE - 62 - 96),
               (62.0, SIZE - 62 - 96)]
    zones: list[dict[str, Any]] = []
    queue = list(swatches)
    for ci, (x0, y0) in enumerate(corners):
        cells = [(x0 + 32 * (k % 3), y0 + 32 * (k // 3)) for k in range(9)]
        for k, (x, y) in enumerate(cells):
            poly = _rect(x + 1, y + 1, x + 31, y + 31)
            if k == 4:
                zones.append({"kind": "reference", "shade": "white", "polygon_mm": poly})
            elif k == 0 + (ci % 2) * 2:
                zones.append({"kind": "reference", "shade": "grey", "polygon_mm": poly})
            elif queue and k in (1, 3, 5, 7):
                piece, colour = queue.pop(0)
                zones.append({"kind": "swatch", "piece": piece, "colour": colour,
                              "polygon_mm": poly})
    return zones


def default_layout() -> dict[str, Any]:
    pool = {"kind": "pool", "polygon_mm": _rect(380, 428, 520, 472)}
    return {
        "format": FORMAT,
        "name": "carolus default mat",
        "size_mm": [SIZE, SIZE],
        "aruco_dictionary": "DICT_4X4_50",
        "markers": _markers(),
        "zones": [*_territories(), *_seats(), pool, *_corner_cells()],
        "pieces_mm": {"cube": 8, "castle": 16, "emperor": 24, "cylinder": 12, "disc": 28},
        "heights_mm": {"cube": 8, "castle": 18, "emperor": 40, "cylinder": 14, "disc": 3},
        "court_dot_mm": 7,
    }


if __name__ == "__main__":
    print(json.dumps(default_layout(), indent=1))
