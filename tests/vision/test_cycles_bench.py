"""The physically based benchmark's specs (`benchmarks/cycles_bench.py`): a scene made from a
seed puts its pieces where its labels say. The render itself needs Blender, which the suite
does not: that part is skipped without it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision.layout import Layout

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import cycles_bench as cb


@pytest.fixture(scope="module")
def scene(layout: Layout, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    cache = tmp_path_factory.mktemp("cycles")
    return cb.scene_specs(layout, 3, "hard", plays=2, cache=cache)


def counted(layout: Layout, pieces: list[dict[str, Any]]) -> dict[str, Any]:
    """What the spec's pieces add up to, zone by zone, counted here from their positions."""
    out: dict[str, Any] = {"territories": {}, "courts": {}, "reserves": {}, "cylinders": {},
                           "discs": {}, "emperor": None}
    for p in pieces:
        zone = layout.zone_at(p["x"], p["y"])
        assert zone is not None, p
        if zone.kind == "territory":
            n = str(zone.raw["territory"])
            if p["kind"] == "emperor":
                out["emperor"] = int(n)
            else:
                where = out["territories"].setdefault(n, {"cubes": {}, "castles": {}})
                group = where["cubes" if p["kind"] == "cube" else "castles"]
                group[p["colour"]] = group.get(p["colour"], 0) + 1
        elif zone.kind in ("court", "reserve") and p["kind"] == "cube":
            seat = out[zone.kind + "s"].setdefault(zone.seat, {})
            seat[p["colour"]] = seat.get(p["colour"], 0) + 1
        elif p["kind"] == "cylinder":
            out["cylinders"][p["colour"]] = "pool" if zone.kind == "pool" else zone.seat
        elif p["kind"] == "disc":
            out["discs"].setdefault(zone.seat, []).append(int(zone.raw["disc"]))
    return out


def nonzero(counts: dict[str, int]) -> dict[str, int]:
    return {k: v for k, v in counts.items() if v}


def test_labels_are_what_the_pieces_add_up_to(layout: Layout,
                                              scene: list[dict[str, Any]]) -> None:
    assert [s["frame"] for s in scene] == ["calibration", "play", "play"]
    for spec in scene[1:]:
        truth, mine = spec["truth"], counted(layout, spec["pieces"])
        assert truth["emperor"] == mine["emperor"] is not None
        for n, t in truth["territories"].items():
            got = mine["territories"].get(n, {"cubes": {}, "castles": {}})
            assert nonzero(t["cubes"]) == got["cubes"], n
            assert nonzero(t["castles"]) == got["castles"], n
        for kind in ("courts", "reserves"):
            for seat, cubes in truth[kind].items():
                assert nonzero(cubes) == mine[kind].get(seat, {}), (kind, seat)
        assert {c: s for c, s in truth["cylinders"].items() if s} == mine["cylinders"]
        assert {s: d for s, d in truth["discs"].items() if d} == {
            s: sorted(d) for s, d in mine["discs"].items()}
        assert sum(sum(t["cubes"].values()) for t in truth["territories"].values()) > 0
    # two play frames of one scene are two tables on the same tiles, camera and lamp
    assert scene[1]["pieces"] != scene[2]["pieces"]
    assert len({json.dumps([s["camera"], s["lamp"], s["textures"]]) for s in scene}) == 1


def test_calibration_frame_holds_only_the_swatches_pieces(layout: Layout,
                                                          scene: list[dict[str, Any]]) -> None:
    cal = scene[0]
    swatches = layout.of_kind("swatch")
    assert len(cal["pieces"]) == len(swatches)
    for p in cal["pieces"]:
        zone = layout.zone_at(p["x"], p["y"])
        assert zone is not None and zone.kind == "swatch"
        assert (zone.raw["piece"], zone.raw["colour"]) == (p["kind"], p["colour"])
    truth = cal["truth"]
    assert truth["emperor"] is None
    assert all(not any(t["cubes"].values()) for t in truth["territories"].values())


def test_pieces_stand_on_what_lies_under_them(scene: list[dict[str, Any]]) -> None:
    tex = scene[1]["textures"]
    assert len(tex["tiles"]) == 15 and len(tex["cards"]) == 4
    on_tiles = on_mat = 0
    for p in scene[1]["pieces"]:
        tops = [cb.MAT_MM + t["thickness_mm"] for t in tex["tiles"] + tex["cards"]
                if cv2.pointPolygonTest(np.asarray(t["outline_mm"], np.float32),
                                        (p["x"], p["y"]), False) >= 0]
        assert p["z"] == pytest.approx(max([cb.MAT_MM, *tops]), abs=1e-3)
        on_tiles += bool(tops) and p["kind"] == "cube"
        on_mat += not tops
    assert on_tiles > 0 and on_mat > 0
    for tile in tex["tiles"]:
        art = cv2.imread(tile["image"], cv2.IMREAD_UNCHANGED)
        assert art is not None and art.shape[2] == 4 and art[..., 3].max() == 255


def test_specs_are_the_same_from_the_same_seed(layout: Layout, scene: list[dict[str, Any]]
                                               ) -> None:
    cache = Path(scene[0]["textures"]["mat"]["image"]).parent.parent
    again = cb.scene_specs(layout, 3, "hard", plays=2, cache=cache)
    assert [cb.spec_key(s) for s in again] == [cb.spec_key(s) for s in scene]
    mild = cb.scene_specs(layout, 3, "mild", plays=1, cache=cache)
    assert mild[1]["pieces"] == scene[1]["pieces"] and mild[1]["lamp"] != scene[1]["lamp"]
    assert cb.seed_split(5) == "tuning" and cb.seed_split(900_001) == "held-out"
    assert cb.parse_seeds(["1-3", "900000"]) == [1, 2, 3, 900_000]


def test_lamp_colours_follow_their_temperature() -> None:
    warm, cold = cb.kelvin_rgb(2700), cb.kelvin_rgb(6500)
    assert warm[0] > 1.5 > cold[0] and warm[2] < 0.4 < cold[2] and warm[1] == 1.0


def test_the_table_strip_fills_the_frame_round_the_rendered_part() -> None:
    part = np.full((20, 100, 3), 50, np.uint8)
    part[:, :cb.STRIP_PX] = 90      # the table at the left edge
    part[:, -cb.STRIP_PX:] = 120    # and at the right one
    part[:, 40:60] = 255            # the mat: never copied out
    part[0, :, 2] = 7               # the top row
    frame = cb.finish(part, [150, 10, 250, 30], (45, 400))
    assert frame.shape == (45, 400, 3)
    assert set(np.unique(frame[12:28, :150, 0])) == {90}
    assert set(np.unique(frame[12:28, 250:, 0])) == {120}
    assert int(frame[:, :150].max()) < 255 and int(frame[:, 250:].max()) < 255
    assert (frame[9, 150:250] == part[0]).all() and (frame[10:30, 150:250] == part).all()


@pytest.mark.skipif(shutil.which("blender") is None, reason="Blender is not installed")
def test_blender_renders_a_spec(scene: list[dict[str, Any]], tmp_path: Path) -> None:
    spec = dict(scene[0])
    spec["pieces"] = spec["pieces"][:3]
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec))
    out, info = tmp_path / "frame.png", tmp_path / "info.json"
    subprocess.run(["blender", "-b", "--factory-startup", "-t", "1", "-P",
                    str(cb.SCENE_SCRIPT), "--", "--spec", str(path), "--out", str(out),
                    "--info", str(info), "--percent", "10", "--samples", "1"],
                   check=True, capture_output=True)
    img = cv2.imread(str(out), cv2.IMREAD_UNCHANGED)
    assert img is not None and img.shape[:2] == (129, 230)
    x0, y0, x1, y1 = json.loads(info.read_text())["border_px"]
    assert 0 <= x0 < x1 <= 2304 and 0 <= y0 < y1 <= 1296


def test_piece_errors_name_phantoms_and_misses(scene: list[dict[str, Any]]) -> None:
    truth = scene[1]["truth"]
    seen = json.loads(json.dumps(truth))
    assert cb.piece_errors(seen, truth) == {}
    seen["territories"]["4"]["cubes"]["yellow"] += 2
    seen["courts"]["south"]["pink"] -= 1
    seen["emperor"] = None
    assert cb.piece_errors(seen, truth) == {"territory cube yellow: +": 2,
                                            "court cube pink: -": 1, "emperor elsewhere: +": 1}
