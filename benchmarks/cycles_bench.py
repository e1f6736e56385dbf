"""A physically based benchmark set: our table rendered by Blender's Cycles, read by our reader.

Not a test. Our own renderer (`vision/render`) draws what we drew by hand; this set is lit
and shaded by a path tracer instead: bevelled wooden pieces with grain, card tiles and court
cards with printed art and a little gloss, an area lamp with a colour temperature, bounced
light and soft shadows, seen by a pinhole camera with the Camera Module 3 Wide's vertical
field of view (67 degrees) from 76-88 cm at the appliance's 2304 x 1296.

The layout, the placement of every piece and the truth come from our own code
(`vision.layout`, `vision.render.scene.random_scene`/`calibration_scene`/`truth`); the tile
and court-card art from `vision.render.landscape`; only the light, the materials and the
camera are Blender's. Each scene is a calibration frame (the swatches holding their pieces,
the tiles and court cards, no other piece) and one or more play frames of the same table
under the same lamp. The reader is calibrated on the first as `carolus vision calibrate`
does and reads the others; zones are scored with `vision.render.score.zone_results`.

Seeds below 10000 are for tuning; 900000 and up are held out (never looked at while the
reader changes). Frames are cached by their spec (default /var/tmp/carolus-cycles), so a
rerun only reads:

    nice -n 19 .venv/bin/python benchmarks/cycles_bench.py --seeds 1-6 900000-900005
    .venv/bin/python benchmarks/cycles_bench.py --seeds 1-6 900000-900005 --read-only

Blender is a benchmark tool only (`apt-get install blender`, Debian's 3.4); the product and
the test suite do not need it. `benchmarks/cycles/scene.py` is the script Blender runs.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, cast

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.calibration import calibrate, reader_for
from vision.layout import Layout, load_layout
from vision.mat import render_mat
from vision.render import art, landscape
from vision.render import scene as sc
from vision.render.pieces import Piece
from vision.render.score import zone_results
from vision.snapshot import SnapshotJSON

FORMAT = "carolus-cycles-spec/1"
CACHE = Path(os.environ.get("CAROLUS_CYCLES_CACHE", "/var/tmp/carolus-cycles"))
SCENE_SCRIPT = Path(__file__).resolve().parent / "cycles" / "scene.py"
LIGHTS = ("mild", "hard")
HELD_OUT = 900_000
#: Texture resolution of the printed mat, the tiles and the cards (px per mm).
TEXTURE_PX_PER_MM = 3.0
#: Thickness (mm) of what lies on the table: the mat's paper, the tiles' card, the court cards.
MAT_MM, TILE_MM, CARD_MM = 0.4, 2.0, 1.0
#: Camera Module 3 Wide: 102 x 67 degrees; its 2304 x 1296 mode.
FOV_V_DEG = 67.0
#: Path-traced samples a pixel (adaptive: fewer where the picture settles early).
SAMPLES = 12
WIDTH, HEIGHT = 2304, 1296
#: Piece kind -> the material family the scene script gives it.
FINISH = {"cube": "wood", "cylinder": "wood", "emperor": "wood", "castle": "paint",
          "disc": "card"}


def seed_split(seed: int) -> str:
    """Which part of the set a seed belongs to."""
    if seed < 10_000:
        return "tuning"
    if seed >= HELD_OUT:
        return "held-out"
    return "other"


def kelvin_rgb(kelvin: float) -> tuple[float, float, float]:
    """An incandescent or LED lamp's colour at `kelvin` as linear RGB with green 1
    (Tanner Helland's fit of the black body's sRGB colour)."""
    t = kelvin / 100.0
    r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    g = (99.4708025861 * math.log(t) - 161.1195681661 if t <= 66
         else 288.1221695283 * (t - 60) ** -0.0755148492)
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5177312231 * math.log(t - 10)
                               - 305.0447927307)
    lin = [_linear(min(255.0, max(0.0, c)) / 255.0) for c in (r, g, b)]
    return (lin[0] / lin[1], 1.0, lin[2] / lin[1])


def _linear(c: float) -> float:
    """sRGB component (0..1) to linear."""
    return c / 12.92 if c <= 0.04045 else float(((c + 0.055) / 1.055) ** 2.4)


def piece_rgb(p: Piece) -> list[float]:
    """The piece's colour as linear RGB (0..1), from our renderer's BGR and its tint."""
    b, g, r = (float(c) * float(t) for c, t in zip(p.bgr(), p.tint, strict=True))
    return [round(_linear(min(255.0, c) / 255.0), 5) for c in (r, g, b)]


def _pieces(layout: Layout, placed: list[Piece], ground: list[tuple[np.ndarray, float]]
            ) -> list[dict[str, Any]]:
    out = []
    sizes = layout.pieces_mm
    for p in placed:
        z = MAT_MM
        for outline, top in ground:
            if cv2.pointPolygonTest(outline.astype(np.float32), (p.x, p.y), False) >= 0:
                z = max(z, top)
        out.append({"kind": p.kind, "colour": p.colour, "x": round(p.x, 3), "y": round(p.y, 3),
                    "z": round(z, 3), "rot": round(p.rot, 3), "size": round(p.size, 4),
                    "rounding": round(p.rounding, 3), "number": p.number,
                    "footprint_mm": sizes[p.kind], "height_mm": layout.height_mm(p.kind),
                    "rgb": piece_rgb(p), "finish": FINISH[p.kind]})
    return out


def _cut_out(paint: Any, shape: tuple[int, int], rng: np.random.Generator
             ) -> tuple[np.ndarray, np.ndarray]:
    """Run a paste function of `vision.render` on a black and a white canvas with the same
    random stream: where they differ the art did not cover. Returns BGRA art and the
    generator as it was left."""
    twin = copy.deepcopy(rng)
    black = np.zeros((*shape, 3), np.uint8)
    white = np.full((*shape, 3), 255, np.uint8)
    paint(black, rng)
    paint(white, twin)
    alpha = 1.0 - (white.astype(np.float32) - black.astype(np.float32)).mean(axis=2) / 255.0
    alpha = np.clip(alpha, 0.0, 1.0)
    colour = np.clip(black.astype(np.float32) / np.maximum(alpha, 1e-3)[..., None], 0, 255)
    return np.dstack([colour.astype(np.uint8), (alpha * 255).round().astype(np.uint8)]), alpha


def _outline(alpha: np.ndarray, s: float, origin_mm: tuple[float, float]) -> np.ndarray:
    """The art's outline (mm on the mat) from its coverage."""
    mask = (alpha > 0.5).astype(np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    biggest = max(contours, key=cv2.contourArea)
    poly = cv2.approxPolyDP(biggest, 0.25 * s, True).reshape(-1, 2).astype(np.float64)
    return np.asarray((poly + 0.5) / s + np.asarray(origin_mm), np.float64)


def textures(layout: Layout, tile_seed: int, seats: tuple[str, ...], cache: Path
             ) -> dict[str, Any]:
    """The printed mat, every tile and every court card as image files, with the outline
    (mm) each one covers. Drawn by `vision.render.landscape` (the wide variety's art) and
    `vision.mat`, from `tile_seed`."""
    s = TEXTURE_PX_PER_MM
    folder = cache / "textures" / f"{tile_seed}"
    index = folder / "index.json"
    mat_png = cache / "textures" / f"mat-{s:g}.png"
    if not mat_png.exists():
        mat_png.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(mat_png), render_mat(layout, s))
    if index.exists():
        kept: dict[str, Any] = json.loads(index.read_text())
        return kept
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(tile_seed)
    radius = art.tile_radius(layout)
    tiles = []
    for number, zone in sorted(layout.territories().items()):
        cx, cy = zone.raw.get("centre_mm", zone.centre())
        cx, cy = cx + rng.uniform(-2, 2), cy + rng.uniform(-2, 2)
        half = radius + 3.0
        size = math.ceil(2 * half * s)
        local = (half, half)

        def paint(canvas: np.ndarray, g: np.random.Generator, local: tuple[float, float] = local
                  ) -> None:
            landscape.paste_tile(canvas, s, local, radius, g)

        sub = np.random.default_rng([tile_seed, number])
        bgra, alpha = _cut_out(paint, (size, size), sub)
        path = folder / f"tile-{number}.png"
        cv2.imwrite(str(path), bgra)
        origin = (cx - half, cy - half)
        tiles.append({"territory": number, "image": str(path),
                      "origin_mm": [round(origin[0], 4), round(origin[1], 4)],
                      "size_mm": [size / s, size / s],
                      "outline_mm": np.round(_outline(alpha, s, origin), 3).tolist(),
                      "thickness_mm": TILE_MM})
    cards = []
    w, h = (round(v * s) for v in layout.size_mm)
    for court in layout.of_kind("court"):
        if court.seat not in seats:
            continue
        sub = np.random.default_rng([tile_seed, 100, seats.index(court.seat)])

        def paint_card(canvas: np.ndarray, g: np.random.Generator, raw: Any = court.raw
                       ) -> None:
            landscape.paste_court_board(canvas, s, raw, g, float(layout.raw.get(
                "court_dot_mm", 7)))

        bgra, alpha = _cut_out(paint_card, (h, w), sub)
        board = np.asarray(court.raw["board_mm"], np.float64)
        x0, y0 = (np.floor(board.min(axis=0) - 4) * s).astype(int)
        x1, y1 = (np.ceil(board.max(axis=0) + 4) * s).astype(int)
        path = folder / f"card-{court.seat}.png"
        cv2.imwrite(str(path), bgra[y0:y1, x0:x1])
        origin = (x0 / s, y0 / s)
        cards.append({"seat": court.seat, "image": str(path), "origin_mm": list(origin),
                      "size_mm": [(x1 - x0) / s, (y1 - y0) / s],
                      "outline_mm": np.round(_outline(alpha[y0:y1, x0:x1], s, origin),
                                             3).tolist(),
                      "thickness_mm": CARD_MM})
    made = {"mat": {"image": str(mat_png), "size_mm": list(layout.size_mm),
                    "thickness_mm": MAT_MM}, "tiles": tiles, "cards": cards}
    index.write_text(json.dumps(made))
    return made


def camera(rng: np.random.Generator, layout: Layout) -> dict[str, Any]:
    """The Pi camera (Camera Module 3 Wide) over the mat's centre, 76-88 cm up, a little
    off-centre, tilted and rolled as an arm holds it, upright or turned round."""
    w, h = layout.size_mm
    return {"width": WIDTH, "height": HEIGHT, "fov_v_deg": FOV_V_DEG,
            "x_mm": round(w / 2 + float(rng.uniform(-25, 25)), 3),
            "y_mm": round(h / 2 + float(rng.uniform(-15, 15)), 3),
            "height_mm": round(float(rng.uniform(760, 880)), 3),
            "tilt_x_deg": round(float(rng.uniform(-2, 2)), 3),
            "tilt_y_deg": round(float(rng.uniform(-2, 2)), 3),
            "roll_deg": round(float(rng.choice([0.0, 180.0]) + rng.uniform(-3, 3)), 3)}


def lamp(rng: np.random.Generator, light: str, layout: Layout) -> dict[str, Any]:
    """An area lamp. Mild: a broad shade (40-70 cm) high above, neutral to warm white, with
    a room around that bounces light back. Hard: a small bulb (3-8 cm) low to one side, warm,
    in a dark room: sharp long shadows, a bright and a dim side of the mat, glare on the
    card's gloss."""
    w, h = layout.size_mm
    azimuth = float(rng.uniform(0, 2 * math.pi))
    if light == "mild":
        reach, up, size = rng.uniform(0, 350), rng.uniform(1300, 1700), rng.uniform(400, 700)
        kelvin, ambient = rng.uniform(3500, 5500), rng.uniform(0.10, 0.18)
    else:
        elevation = math.radians(float(rng.uniform(35, 55)))
        distance = float(rng.uniform(1000, 1400))
        reach, up = distance * math.cos(elevation), distance * math.sin(elevation)
        size, kelvin, ambient = rng.uniform(30, 80), rng.uniform(2700, 3300), rng.uniform(
            0.01, 0.03)
    x, y = w / 2 + reach * math.cos(azimuth), h / 2 + reach * math.sin(azimuth)
    d = math.sqrt(reach ** 2 + up ** 2)
    return {"light": light, "x_mm": round(x, 2), "y_mm": round(y, 2), "z_mm": round(float(up), 2),
            "size_mm": round(float(size), 2), "kelvin": round(float(kelvin), 1),
            "rgb": [round(c, 5) for c in kelvin_rgb(float(kelvin))],
            # the mat's centre gets about the same light from any distance
            "power_w": round(float(POWER_AT_1M[light] * (d / 1000.0) ** 2
                                   * rng.uniform(0.85, 1.15)), 2),
            "ambient": round(float(ambient), 4),
            "ambient_rgb": [round(c, 5) for c in kelvin_rgb(float(rng.uniform(4500, 6500)))]}


#: Lamp power (W) that lights the mat's centre well from 1 m, per light.
POWER_AT_1M = {"mild": 5.0, "hard": 3.6}


def scene_specs(layout: Layout, seed: int, light: str, plays: int = 1,
                samples: int = SAMPLES, cache: Path = CACHE) -> list[dict[str, Any]]:
    """One scene: its calibration frame's spec, then `plays` play frames' specs. Same table,
    camera and lamp in all of them; the pieces come from our renderer's placement, so each
    spec's `truth` is `vision.render.scene.truth` of its pieces."""
    if light not in LIGHTS:
        raise ValueError(f"light must be one of {LIGHTS}")
    rng = np.random.default_rng([seed, LIGHTS.index(light)])
    base = sc.random_scene(layout, np.random.default_rng(seed), variety="wide")
    tex = textures(layout, base.tile_seed, base.seats, cache)
    ground = [(np.asarray(t["outline_mm"]), MAT_MM + t["thickness_mm"])
              for t in tex["tiles"] + tex["cards"]]
    cam, lit = camera(rng, layout), lamp(rng, light, layout)
    frames: list[tuple[str, list[Piece]]] = [
        ("calibration", sc.calibration_scene(layout, np.random.default_rng(seed),
                                             variety="wide").pieces)]
    frames.append(("play", base.pieces))
    for k in range(1, plays):
        frames.append(("play", sc.random_scene(layout, np.random.default_rng([seed, k]),
                                               variety="wide").pieces))
    specs = []
    for k, (what, placed) in enumerate(frames):
        truth = sc.truth(layout, sc.with_changes(base, placed))
        specs.append({"format": FORMAT, "seed": seed, "light": light, "frame": what,
                      "index": k, "camera": cam, "lamp": lit, "textures": tex,
                      "render": {"samples": samples, "border_margin_mm": 60.0},
                      "pieces": _pieces(layout, placed, ground), "truth": truth})
    return specs


def spec_key(spec: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:16]


def frame_path(spec: dict[str, Any], cache: Path = CACHE) -> Path:
    return cache / "frames" / (f"{spec['seed']}-{spec['light']}-{spec['index']}-"
                               f"{spec_key(spec)}.jpg")


def render(spec: dict[str, Any], cache: Path = CACHE, blender: str = "blender") -> Path:
    """The frame of `spec` (cached): Blender renders the mat's part of the picture; a light
    non-local-means pass stands in for the denoiser Debian's Blender is built without; that
    part is kept losslessly (`.part.png`) and the rest of the frame (table only, which the
    reader never looks at) is the table strip at its edge mirrored outwards; then JPEG q90,
    and the labels beside it. A render left in the work folder by an interrupted run is
    used rather than made again."""
    out = frame_path(spec, cache)
    if out.exists():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    work = out.with_suffix(".work")
    work.mkdir(exist_ok=True)
    spec_file, png, info = work / "spec.json", work / "frame.png", work / "info.json"
    t0 = time.monotonic()
    if not (png.exists() and info.exists()):
        spec_file.write_text(json.dumps(spec))
        subprocess.run([blender, "-b", "--factory-startup", "-t", "1", "-P", str(SCENE_SCRIPT),
                        "--", "--spec", str(spec_file), "--out", str(png), "--info", str(info)],
                       check=True, stdout=subprocess.DEVNULL)
    seconds = time.monotonic() - t0
    meta = json.loads(info.read_text())
    x0, y0, x1, y1 = meta["border_px"]
    rendered = _load(png, cv2.IMREAD_COLOR)
    part = cv2.fastNlMeansDenoisingColored(np.ascontiguousarray(rendered[y0:y1, x0:x1]), None,
                                           3, 3, 5, 15)
    cv2.imwrite(str(out.with_suffix(".part.png")), part)
    labels = {"spec_key": spec_key(spec), "seed": spec["seed"], "light": spec["light"],
              "frame": spec["frame"], "truth": spec["truth"], "seconds": round(seconds, 1),
              "render_seconds": meta.get("render_seconds"), "border_px": meta["border_px"],
              "size": [int(rendered.shape[1]), int(rendered.shape[0])]}
    out.with_suffix(".json").write_text(json.dumps(labels, indent=1))
    refinish(out)
    shutil.rmtree(work)
    return out


def refinish(out: Path) -> None:
    """(Re)make the JPEG frame from its kept part and labels."""
    labels = json.loads(out.with_suffix(".json").read_text())
    part = _load(out.with_suffix(".part.png"))
    w, h = labels.get("size", [WIDTH, HEIGHT])
    frame = finish(part, labels["border_px"], (h, w))
    cv2.imwrite(str(out), frame, [cv2.IMWRITE_JPEG_QUALITY, 90])


def _load(path: Path, flags: int = cv2.IMREAD_COLOR) -> np.ndarray:
    img = cv2.imread(str(path), flags)
    if img is None:
        raise FileNotFoundError(f"{path}: no image")
    return np.asarray(img, np.uint8)


def _outward(edge_first: np.ndarray, n: int, axis: int) -> np.ndarray:
    """`n` rows or columns going outwards from an edge: `edge_first` (the strip at the edge,
    ordered from the edge inwards), then it mirrored back, and so on."""
    m = edge_first.shape[axis]
    reps = [edge_first if k % 2 == 0 else np.flip(edge_first, axis)
            for k in range(max(1, -(-n // m)))]
    return np.take(np.concatenate(reps, axis=axis), np.arange(n), axis=axis)


#: Width (px) of the table strip at the rendered part's edge that fills the rest of the frame:
#: narrower than the table the 60 mm margin shows at the part's edge.
STRIP_PX = 32


def finish(part: np.ndarray, border: list[int], shape: tuple[int, int]) -> np.ndarray:
    """The whole camera frame (`shape`: height, width) from the rendered `part` (BGR) that
    lies in `border` (x0, y0, x1, y1): the table strip at each edge mirrored outwards, so
    no copy of the mat or its markers appears beside it."""
    x0, y0, x1, y1 = border
    h, w = shape
    img = np.ascontiguousarray(part[:, :, :3])
    for axis, before, after in ((1, x0, w - x1), (0, y0, h - y1)):
        k = min(STRIP_PX, img.shape[axis])
        first = np.take(img, np.arange(k), axis=axis)
        last = np.flip(np.take(img, np.arange(img.shape[axis] - k, img.shape[axis]), axis=axis),
                       axis)
        img = np.concatenate([np.flip(_outward(first, before, axis), axis), img,
                              _outward(last, after, axis)], axis=axis)
    return np.asarray(img, np.uint8)


def piece_errors(seen: dict[str, Any], want: dict[str, Any]) -> dict[str, int]:
    """What a reading got wrong, piece by piece: "territory cube yellow: +1" is one yellow
    cube too many read on some territory (a phantom), "-1" one missed."""
    out: dict[str, int] = {}

    def note(what: str, diff: int) -> None:
        if diff:
            key = f"{what}: {'+' if diff > 0 else '-'}"
            out[key] = out.get(key, 0) + abs(diff)

    for n, t in want["territories"].items():
        got = seen["territories"].get(n, {"cubes": {}, "castles": {}})
        for group, kind in (("cubes", "cube"), ("castles", "castle")):
            for colour, count in t[group].items():
                note(f"territory {kind} {colour}", got[group].get(colour, 0) - count)
    for kind in ("courts", "reserves"):
        for seat, cubes in want[kind].items():
            for colour, count in cubes.items():
                note(f"{kind[:-1]} cube {colour}", seen[kind].get(seat, {}).get(colour, 0)
                     - count)
    for colour, place in want["cylinders"].items():
        if seen["cylinders"].get(colour) != place:
            note(f"cylinder {colour} ({place} read as {seen['cylinders'].get(colour)})", 1)
    for seat, discs in want["discs"].items():
        got_discs = seen["discs"].get(seat, [])
        note("disc", len(set(got_discs) - set(discs)))
        note("disc", -len(set(discs) - set(got_discs)))
    if seen["emperor"] != want["emperor"]:
        note("emperor elsewhere", 1)
    return out


def score_scene(layout: Layout, specs: list[dict[str, Any]], cache: Path = CACHE
                ) -> list[tuple[dict[str, bool], dict[str, int]]]:
    """Calibrate on the scene's calibration frame, read each play frame: zone results and
    piece errors."""
    cal = _load(frame_path(specs[0], cache))
    reader = reader_for(layout, calibrate(cal, layout))
    results = []
    for spec in specs[1:]:
        frame = _load(frame_path(spec, cache))
        truth: SnapshotJSON = spec["truth"]
        seen = reader.read(frame).to_json()
        results.append((zone_results(seen, truth),
                        piece_errors(cast(dict[str, Any], seen), spec["truth"])))
    return results


def parse_seeds(words: list[str]) -> list[int]:
    seeds: list[int] = []
    for word in words:
        lo, _, hi = word.partition("-")
        seeds += list(range(int(lo), int(hi or lo) + 1))
    return seeds


Row = tuple[int, str, dict[str, bool], dict[str, int]]


def summary(rows: list[Row]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for split in ("tuning", "held-out"):
        for light in LIGHTS:
            mine = [r for s, li, r, _ in rows if seed_split(s) == split and li == light]
            if not mine:
                continue
            errors: dict[str, int] = {}
            for s_, li, _, e in rows:
                if seed_split(s_) == split and li == light:
                    for k, v in e.items():
                        errors[k] = errors.get(k, 0) + v
            zones = sum(len(r) for r in mine)
            wrong: dict[str, int] = {}
            for r in mine:
                for k, ok in r.items():
                    if not ok:
                        wrong[k.split()[0]] = wrong.get(k.split()[0], 0) + 1
            out[f"{split} {light}"] = {
                "frames": len(mine), "zones_right": sum(sum(r.values()) for r in mine),
                "zones": zones, "zone_accuracy": round(sum(sum(r.values()) for r in mine)
                                                       / zones, 4),
                "frames_right": sum(all(r.values()) for r in mine),
                "wrong_by_kind": wrong,
                "piece_errors": dict(sorted(errors.items(), key=lambda kv: -kv[1]))}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", nargs="+", default=["1-6", "900000-900005"],
                    help="seeds or ranges (1-6 900000-900005)")
    ap.add_argument("--lights", nargs="+", default=list(LIGHTS), choices=LIGHTS)
    ap.add_argument("--plays", type=int, default=1, help="play frames per scene")
    ap.add_argument("--samples", type=int, default=SAMPLES)
    ap.add_argument("--cache", type=Path, default=CACHE)
    ap.add_argument("--blender", default="blender")
    ap.add_argument("--render-only", action="store_true", help="render, do not read")
    ap.add_argument("--read-only", action="store_true",
                    help="read what is cached, render nothing")
    ap.add_argument("--details", action="store_true", help="print each frame's wrong zones")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    layout = load_layout()
    rows: list[Row] = []
    timings: list[float] = []
    for seed in parse_seeds(args.seeds):
        for light in args.lights:
            specs = scene_specs(layout, seed, light, args.plays, args.samples, args.cache)
            if not args.read_only:
                for spec in specs:
                    cached = frame_path(spec, args.cache).exists()
                    render(spec, args.cache, args.blender)
                    if not cached:
                        labels = json.loads(frame_path(spec, args.cache).with_suffix(
                            ".json").read_text())
                        timings.append(float(labels["seconds"]))
                        print(f"rendered seed {seed} {light} {spec['frame']} {spec['index']}: "
                              f"{labels['seconds']} s", flush=True)
            if args.render_only or not all(frame_path(s, args.cache).exists() for s in specs):
                continue
            scored = score_scene(layout, specs, args.cache)
            for k, (result, errors) in enumerate(scored, start=1):
                rows.append((seed, light, result, errors))
                wrong = [z for z, ok in result.items() if not ok]
                if args.details:
                    print(f"seed {seed} {light} play {k}: "
                          f"{len(result) - len(wrong)}/{len(result)} zones; wrong: {wrong}; "
                          f"{errors}", flush=True)
    if timings:
        print(f"rendered {len(timings)} frames, median {sorted(timings)[len(timings) // 2]:.1f}"
              f" s/frame (Blender, one thread, whole run)")
    if rows:
        print(json.dumps(summary(rows), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
