"""The shipped layout honours the `carolus-layout/1` contract; bad layouts are refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vision.layout import LayoutError, default_layout_path, load_layout, parse_layout
from vision.layout_design import default_layout


def test_default_layout_has_every_zone(layout) -> None:
    assert layout.size_mm == (900.0, 900.0)
    assert sorted(layout.territories()) == list(range(1, 16))
    assert layout.seats() == ["south", "west", "north", "east"]
    for seat in layout.seats():
        kinds = [z.kind for z in layout.zones if z.seat == seat]
        assert kinds.count("court") == 1 and kinds.count("reserve") == 1
        assert kinds.count("disc-slot") == 5
    assert len(layout.of_kind("pool")) == 1
    swatches = {(z.raw["piece"], z.raw["colour"]) for z in layout.of_kind("swatch")}
    assert ("emperor", "yellow") in swatches and ("castle", "white") in swatches
    assert len(swatches) == 14
    assert layout.pieces_mm == {"cube": 8, "castle": 16, "emperor": 24, "cylinder": 12,
                                "disc": 28}
    assert len(layout.markers) >= 20


def test_zones_never_overlap(layout) -> None:
    # Only the zones whose bounding box holds the point are asked: a point outside a
    # simple polygon's box is never inside it, so the count is the same, ~10x sooner.
    boxes = [(z, z.bbox()) for z in layout.zones]
    for x in range(0, 900, 4):
        for y in range(0, 900, 4):
            px, py = x + 0.5, y + 0.5
            near = [z for z, (x0, y0, x1, y1) in boxes if x0 <= px <= x1 and y0 <= py <= y1]
            assert sum(z.contains(px, py) for z in near) <= 1, (x, y)


def test_court_rows_are_long_enough_for_fifteen_cubes(layout) -> None:
    for court in layout.of_kind("court"):
        for (x0, y0), (x1, y1) in court.raw["rows_mm"].values():
            assert ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 >= 15 * 8 + 17
            assert court.contains(x0, y0) and court.contains(x1 - 0.01 * (x1 - x0),
                                                             y1 - 0.01 * (y1 - y0))


def test_shipped_file_matches_the_design() -> None:
    shipped = json.loads(default_layout_path().read_text(encoding="utf-8"))
    assert shipped == json.loads(json.dumps(default_layout()))


def test_wrong_format_names_the_field(tmp_path: Path) -> None:
    bad = default_layout()
    bad["format"] = "carolus-layout/0"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(LayoutError, match=r"bad\.json.*'format'"):
        load_layout(path)


def test_missing_territory_is_refused() -> None:
    bad = default_layout()
    bad["zones"] = [z for z in bad["zones"] if z.get("territory") != 7]
    with pytest.raises(LayoutError, match="territories"):
        parse_layout(bad, "x.json")


def test_not_json_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "mat.png"
    path.write_bytes(b"\x89PNG\r\n")
    with pytest.raises(LayoutError, match=r"mat\.png"):
        load_layout(path)
