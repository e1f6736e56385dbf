"""The mat layout (`carolus-layout/1`): loading, validating and geometry helpers.

The layout is the one source of truth shared by the printed mat, the synthetic renderer
and the reader, so every millimetre the camera relies on comes from here.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

FORMAT = "carolus-layout/1"
SEATS = ("south", "west", "north", "east")
CUBE_COLOURS = ("red", "green", "yellow", "blue", "pink")
CASTLE_COLOURS = ("white", "black", "grey")
ZONE_KINDS = ("territory", "court", "reserve", "disc-slot", "pool", "swatch", "reference")
DEFAULT_LAYOUT = "default_layout.json"

Point = tuple[float, float]


class LayoutError(ValueError):
    """A layout file that cannot be used; the message names the file and the field.

    Plain English (the vision loads no catalog): `vision.cli._REASONS` matches each
    message to its msgid, so a reworded one must be reworded there too."""


@dataclass(frozen=True)
class Zone:
    """One zone of the mat; `raw` keeps every field of the file, known or not."""

    kind: str
    polygon: tuple[Point, ...]
    raw: dict[str, Any] = field(repr=False, compare=False)

    @property
    def seat(self) -> str | None:
        return self.raw.get("seat")

    def contains(self, x: float, y: float) -> bool:
        return point_in_polygon(x, y, self.polygon)

    def centre(self) -> Point:
        xs = [p[0] for p in self.polygon]
        ys = [p[1] for p in self.polygon]
        return (sum(xs) / len(xs), sum(ys) / len(ys))

    def bbox(self) -> tuple[float, float, float, float]:
        xs = [p[0] for p in self.polygon]
        ys = [p[1] for p in self.polygon]
        return (min(xs), min(ys), max(xs), max(ys))

    @property
    def name(self) -> str:
        """How a snapshot's `confidence` and the referee name the zone: `territory:7`,
        `court:north`, `reserve:south`, `discs:west` (a seat's tray), `pool`."""
        if self.kind == "territory":
            return f"territory:{self.raw['territory']}"
        if self.kind == "disc-slot":
            return f"discs:{self.seat}"
        return f"{self.kind}:{self.seat}" if self.seat else self.kind


@dataclass(frozen=True)
class Layout:
    """A validated layout with the zones grouped the way the reader needs them."""

    size_mm: tuple[float, float]
    dictionary: str
    markers: dict[int, tuple[Point, ...]]
    zones: tuple[Zone, ...]
    pieces_mm: dict[str, float]
    raw: dict[str, Any] = field(repr=False, compare=False)

    def of_kind(self, kind: str) -> list[Zone]:
        return [z for z in self.zones if z.kind == kind]

    def territories(self) -> dict[int, Zone]:
        return {int(z.raw["territory"]): z for z in self.of_kind("territory")}

    def seats(self) -> list[str]:
        found = {z.seat for z in self.of_kind("court")}
        return [s for s in SEATS if s in found]

    def zone_at(self, x: float, y: float) -> Zone | None:
        for zone in self.zones:
            if zone.contains(x, y):
                return zone
        return None

    def height_mm(self, piece: str) -> float:
        return float(self.raw.get("heights_mm", {}).get(piece, DEFAULT_HEIGHTS_MM[piece]))

    def court_dot_mm(self) -> float:
        """The width of a court card's printed dots, where each colour's cylinder stands."""
        return float(self.raw.get("court_dot_mm", 7))


DEFAULT_HEIGHTS_MM = {"cube": 8.0, "castle": 18.0, "emperor": 40.0, "cylinder": 14.0,
                      "disc": 3.0}


def point_in_polygon(x: float, y: float, poly: tuple[Point, ...] | list[Point]) -> bool:
    """Even-odd rule; zones are simple polygons so this is exact enough."""
    inside = False
    n = len(poly)
    j = n - 1
    for i in range(n):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def default_layout_path() -> Path:
    return Path(str(resources.files("vision") / DEFAULT_LAYOUT))


def load_layout(path: str | Path | None = None) -> Layout:
    """Load and validate a layout; `None` means the default shipped with the package."""
    path = default_layout_path() if path is None else Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise LayoutError(f"{path}: cannot read layout file ({exc.strerror or exc})") from exc
    except UnicodeDecodeError as exc:
        raise LayoutError(f"{path}: not a JSON layout file (not text)") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LayoutError(f"{path}: not a JSON layout file ({exc})") from exc
    return parse_layout(data, str(path))


def _points(value: Any, where: str, minimum: int) -> tuple[Point, ...]:
    if not isinstance(value, list) or len(value) < minimum:
        raise LayoutError(f"{where}: expected a list of at least {minimum} [x, y] points")
    out = []
    for p in value:
        if (not isinstance(p, list | tuple) or len(p) != 2
                or not all(isinstance(c, int | float) and math.isfinite(c) for c in p)):
            raise LayoutError(f"{where}: bad point {p!r}")
        out.append((float(p[0]), float(p[1])))
    return tuple(out)


def parse_layout(data: Any, source: str = "layout") -> Layout:
    """Check the contract fields of `carolus-layout/1` and build a `Layout`."""
    if not isinstance(data, dict):
        raise LayoutError(f"{source}: layout must be a JSON object")
    if data.get("format") != FORMAT:
        raise LayoutError(f"{source}: field 'format' is {data.get('format')!r}, "
                          f"expected {FORMAT!r}")
    size = data.get("size_mm")
    if (not isinstance(size, list) or len(size) != 2
            or not all(isinstance(v, int | float) and v > 0 for v in size)):
        raise LayoutError(f"{source}: field 'size_mm' must be [width, height] in mm")
    dictionary = data.get("aruco_dictionary")
    if not isinstance(dictionary, str) or not dictionary.startswith("DICT_"):
        raise LayoutError(f"{source}: field 'aruco_dictionary' is {dictionary!r}")
    markers: dict[int, tuple[Point, ...]] = {}
    raw_markers = data.get("markers")
    if not isinstance(raw_markers, list) or len(raw_markers) < 4:
        raise LayoutError(f"{source}: field 'markers' needs at least 4 markers")
    for i, m in enumerate(raw_markers):
        if not isinstance(m, dict) or not isinstance(m.get("id"), int):
            raise LayoutError(f"{source}: markers[{i}] needs an integer 'id'")
        markers[m["id"]] = _points(m.get("corners_mm"), f"{source}: markers[{i}].corners_mm", 4)
    zones = []
    raw_zones = data.get("zones")
    if not isinstance(raw_zones, list):
        raise LayoutError(f"{source}: field 'zones' must be a list")
    for i, z in enumerate(raw_zones):
        where = f"{source}: zones[{i}]"
        if not isinstance(z, dict) or z.get("kind") not in ZONE_KINDS:
            kind = z.get("kind") if isinstance(z, dict) else z
            raise LayoutError(f"{where}.kind is {kind!r}")
        zones.append(Zone(z["kind"], _points(z.get("polygon_mm"), f"{where}.polygon_mm", 3), z))
    pieces = data.get("pieces_mm")
    if not isinstance(pieces, dict):
        raise LayoutError(f"{source}: field 'pieces_mm' must be an object")
    for piece in ("cube", "castle", "emperor", "cylinder", "disc"):
        if not isinstance(pieces.get(piece), int | float) or pieces[piece] <= 0:
            raise LayoutError(f"{source}: pieces_mm.{piece} is {pieces.get(piece)!r}")
    layout = Layout((float(size[0]), float(size[1])), dictionary, markers, tuple(zones),
                    {k: float(v) for k, v in pieces.items()}, data)
    _check_zones(layout, source)
    return layout


def _check_zones(layout: Layout, source: str) -> None:
    numbers = sorted(layout.territories())
    if numbers != list(range(1, 16)):
        raise LayoutError(f"{source}: zones need territories 1..15, found {numbers}")
    seats = layout.seats()
    if len(seats) < 2:
        raise LayoutError(f"{source}: zones need a court for at least 2 seats")
    for seat in seats:
        reserves = [z for z in layout.of_kind("reserve") if z.seat == seat]
        slots = sorted(int(z.raw.get("disc", 0)) for z in layout.of_kind("disc-slot")
                       if z.seat == seat)
        if len(reserves) != 1 or slots != [1, 2, 3, 4, 5]:
            raise LayoutError(f"{source}: seat {seat!r} needs one reserve and disc slots 1..5")
    if len(layout.of_kind("pool")) != 1:
        raise LayoutError(f"{source}: zones need exactly one 'pool'")
