"""Reading under the light people really have: lamp glare on the mat, bright clipping light."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.calibration import calibrate, reader_for
from vision.layout import CASTLE_COLOURS, CUBE_COLOURS
from vision.reader import Reader
from vision.render.optics import Lighting
from vision.render.pieces import Piece
from vision.render.scene import territory_centre
from vision.render.scene import truth as truth_of
from vision.render.score import differences
from vision.render.table import TableRenderer
from vision.snapshot import empty_snapshot


def _court(layout, seat: str, counts: dict[str, int], held: tuple[str, ...]) -> list[Piece]:
    court = next(z for z in layout.of_kind("court") if z.seat == seat)
    pieces = []
    for colour, n in counts.items():
        (x0, y0), (x1, y1) = court.raw["rows_mm"][colour]
        d = np.array([x1 - x0, y1 - y0]) / np.hypot(x1 - x0, y1 - y0)
        angle = float(np.degrees(np.arctan2(d[1], d[0])))
        pieces += [Piece("cube", colour, x0 + d[0] * (21 + 8.3 * k), y0 + d[1] * (21 + 8.3 * k),
                         angle) for k in range(n)]
        if colour in held:
            pieces.append(Piece("cylinder", colour, x0, y0))
    return pieces


def _tile(layout, territory: int, colours: list[str]) -> list[Piece]:
    x, y = territory_centre(layout, territory)
    n = len(colours)
    return [Piece("cube", c, x + 20 * np.cos(2 * np.pi * k / n), y + 20 * np.sin(2 * np.pi * k / n),
                  15.0 * k) for k, c in enumerate(colours)]


def _centre_px(camera, x: float, y: float) -> tuple[float, float]:
    u, v = camera.project(np.array([[x, y, 0.0]]))[0]
    return float(u), float(v)


@pytest.mark.parametrize("seat, territory, level, gains", [
    ("south", 1, 0.8, (1.0, 1.0, 1.0)), ("east", 5, 0.8, (1.0, 1.0, 1.0)),
    ("north", 9, 0.8, (1.0, 1.0, 1.0)),
    # bright bluish light: only the red channel of the paper is below full scale
    ("west", 13, 1.12, (1.2, 0.98, 0.8))])
def test_a_glare_spot_over_a_court_and_a_tile_washes_nothing_out(layout, render_table, seat,
                                                                 territory, level,
                                                                 gains) -> None:
    """A lamp reflected on the mat adds white; pieces under it keep their colours."""
    court = next(z for z in layout.of_kind("court") if z.seat == seat)
    cx, cy = court.centre()
    tx, ty = territory_centre(layout, territory)
    pieces = (_court(layout, seat, {"red": 3, "green": 5, "yellow": 2, "blue": 4, "pink": 6},
                     held=("red", "yellow", "pink"))
              + _tile(layout, territory, [*CUBE_COLOURS, "red", "yellow"]))

    def glare(camera) -> Lighting:
        spots = tuple((*_centre_px(camera, x, y), 0.04 * camera.width, 0.45)
                      for x, y in ((cx, cy), (tx, ty)))
        return Lighting(gains, level, 0.1, 30.0, spots, 0.6, 3.0, 85)

    frame, truth = render_table(pieces, seed=31, lighting=glare)
    snap = Reader(layout).read(frame)
    assert differences(snap, truth) == []
    assert snap.courts[seat].pink == 6
    assert snap.cylinders["yellow"] == seat


@pytest.mark.parametrize("gains", [(1.2, 0.98, 0.8), (0.8, 0.98, 1.2), (1.0, 1.0, 1.0)])
def test_white_castles_stay_white_when_bright_light_clips_the_paper(layout, render_table,
                                                                   gains) -> None:
    """Bright, strongly tinted light saturates a channel of the paper and the white castles."""
    pieces = []
    for i, territory in enumerate((2, 5, 8, 11, 14)):
        x, y = territory_centre(layout, territory)
        pieces.append(Piece("castle", "white", x - 12, y, 10.0 * i))
        pieces.append(Piece("castle", CASTLE_COLOURS[1 + i % 2], x + 14, y + 6, 25.0))
        pieces.append(Piece("cube", CUBE_COLOURS[i], x, y - 22, 5.0))

    def bright(camera) -> Lighting:
        return Lighting(gains, 1.12, 0.25, 80.0, (), 0.6, 2.5, 85)

    frame, truth = render_table(pieces, seed=32, lighting=bright)
    assert (frame == 255).any(axis=2).mean() > 0.05          # the paper does clip
    snap = Reader(layout).read(frame)
    assert differences(snap, truth) == []


def test_white_castles_on_the_spots_rims_are_not_taken_for_glare(layout, render_table) -> None:
    """In bright light glare is sought on the spots' tinted rims, where a white castle
    looks just like it; a castle is narrower than any glare, so the reader is not fooled."""
    pieces = []
    for i, territory in enumerate(range(1, 16, 2)):
        x, y = territory_centre(layout, territory)
        a = 2 * np.pi * i / 8
        pieces.append(Piece("castle", "white", x + 40 * np.cos(a), y + 40 * np.sin(a), 8.0 * i))
        pieces.append(Piece("castle", "black", x - 10, y + 5, 20.0))
        pieces.append(Piece("cube", CUBE_COLOURS[i % 5], x + 8, y - 12, 5.0))

    def bright(camera) -> Lighting:
        return Lighting((1.0, 1.0, 1.0), 1.1, 0.1, 80.0, (), 0.6, 2.5, 85)

    frame, truth = render_table(pieces, seed=33, lighting=bright)
    reader = Reader(layout)
    snap = reader.read(frame)
    assert reader.glare.grid is None
    assert differences(snap, truth) == []


@pytest.mark.parametrize("side", ["right", "top"])
def test_a_shade_over_the_paper_leaves_a_glared_tile_read_as_against_the_bare_table(
        layout, side: str) -> None:
    """A bright room whose paper clips, a lamp reflected beside territory 4, and the
    glare map learnt with the bare table. Then someone standing by the table shades one
    side of the mat by a tenth: the glare measured on that frame's paper moves with the
    border's light (weaker or gone), and undoing it stretched the glared tiles' art
    differently from their picture: a river read as blue cubes (3-player hard camera game
    900328: up to 42 of them on territory 4, for as long as the game went on). The
    reflection has not moved, so the map undone is the bare table's, and every zone
    reads right with the shade as without it."""
    renderer = TableRenderer(layout, seed=36011, hard=True, variety="wide")
    x, y = territory_centre(layout, 4)
    u, v = _centre_px(renderer.base.camera, x, y)
    renderer.base.lighting = replace(renderer.base.lighting, level=1.17, lamp=None,
                                     glare=((u - 130.0, v, 76.0, 0.42),))
    reader = reader_for(layout, calibrate(renderer.calibration_frame(seed=36011, t=0.0),
                                          layout))
    assert reader.bare is not None and reader.bare.glare is not None
    assert float(reader.bare.glare.max()) > 0.2           # the reflection was measured
    table = empty_snapshot(layout.seats(), mat=True)
    for k in range(1, 16):
        table["territories"][str(k)]["cubes"][CUBE_COLOURS[k % 5]] = 1
    table["emperor"] = 1
    frame = renderer.frame(table, seed=36011, t=0.0)
    truth = truth_of(layout, renderer.scene(table))
    assert differences(reader.read(frame), truth) == []
    h, w = frame.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    away = 1.0 - xs / w if side == "right" else ys / h     # 0 at the shaded edge
    shade = 1.0 - 0.12 * np.clip((0.35 - away) / 0.2, 0.0, 1.0)
    shaded = np.clip(frame * shade[..., None], 0, 255).astype(np.uint8)
    reader.steady.reset()
    assert differences(reader.read(shaded), truth) == []
