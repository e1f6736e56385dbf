"""The labelled frames the fitting scripts share: a table of the widest variety and a
reader calibrated on that table's own calibration frame (its camera, lamp and tiles),
so that the reader compares the table with its own bare table, as on a real evening."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from scripts.fit_difference import _drifted
from vision.calibration import calibrate, reader_for
from vision.castle_count import label
from vision.layout import Layout
from vision.reader import Reader
from vision.render import scene as scenes
from vision.render.pieces import Piece

VARIETY = "wide"
_GROW = np.ones((5, 5), np.uint8)


def calibrated_table(layout: Layout, seed: int, hard: bool) -> tuple[scenes.Scene, Reader]:
    """Table `seed` (no hands) and a reader calibrated under the same camera and light."""
    table = scenes.random_scene(layout, np.random.default_rng(seed), hard=hard,
                                variety=VARIETY)
    table.hands = []
    calib_scene = scenes.calibration_scene(layout, np.random.default_rng(seed + 1), hard=hard,
                                           boards=True, variety=VARIETY)
    calib_scene = dataclasses.replace(
        calib_scene, camera=table.camera, lighting=table.lighting, light=table.light,
        tile_seed=table.tile_seed)
    reader = reader_for(layout, calibrate(scenes.render(layout, calib_scene, seed + 2), layout))
    return table, reader


def drifted_table(layout: Layout, seed: int, hard: bool, hand_probability: float = 0.0
                  ) -> tuple[scenes.Scene, Reader, np.ndarray]:
    """Table `seed`, a reader that learnt its bare table (no piece, no hand) under the
    scene's lamp, and the frame of the table drawn after that lamp drifted, as between
    the set-up and the play (the frame not read yet)."""
    rng = np.random.default_rng(seed)
    scene = scenes.random_scene(layout, rng, hard=hard, variety=VARIETY,
                                hand_probability=hand_probability)
    bare_scene = scenes.with_changes(scene, [])
    bare_scene.hands = []
    reader = Reader(layout)
    reader.use_bare(reader.learn_bare(scenes.render(layout, bare_scene, seed + 1)))
    scene.lighting = _drifted(scene.lighting, rng)
    return scene, reader, scenes.render(layout, scene, seed)


def middles(reader: Reader, pieces: list[Piece], kind: str, zones: tuple[str, ...]
             ) -> list[tuple[str, Piece, int, int]]:
    """(zone, piece, atlas row, column) of the middle of each true piece of `kind` lying
    in a zone of those kinds, half its height up (as the camera sees it)."""
    cells = [c for c in reader.atlas.cells if c.zone.kind in zones]
    half = 0.5 * reader.layout.height_mm(kind)
    found = []
    for piece in pieces:
        if piece.kind != kind:
            continue
        for cell in cells:
            if cell.zone.contains(piece.x, piece.y):
                dx, dy = reader.parallax(piece.x, piece.y, half)
                iy, ix = cell.px(np.array([piece.x + dx]), np.array([piece.y + dy]),
                                 reader.scale)
                found.append((cell.zone.name, piece, int(iy[0]), int(ix[0])))
                break
    return found


def cubes_in_blobs(reader: Reader, pieces: list[Piece]
                   ) -> tuple[list[int], list[tuple[str, str, int, int]]]:
    """For each blob the reader collected (`reader.collect`, those with a box) in the frame
    it just read, how many true cubes of its colour it holds (whose middle it covers),
    and the true cubes in no blob at all (zone, colour, where in the atlas)."""
    assert reader.collect is not None
    # Where the middle of each true cube appears in the atlas, by zone and colour.
    where: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for zone, piece, iy, ix in middles(reader, pieces, "cube", ("territory", "reserve")):
        where.setdefault((zone, piece.colour), []).append((iy, ix))
    counts = []
    for zone, colour, _, box, blob in reader.collect:
        if box is None:
            continue
        bx, by = box[0], box[1]
        # A cube on art of its own colour differs at its rim only: its middle lies in
        # the hull of what differs, not in it.
        grown = cv2.copyMakeBorder(blob.astype(np.uint8), 2, 2, 2, 2, cv2.BORDER_CONSTANT,
                                   value=0)
        cv2.fillConvexPoly(grown, cv2.convexHull(cv2.findNonZero(grown)), 1)
        grown = cv2.dilate(grown, _GROW)
        left = []
        n = 0
        for iy, ix in where.get((zone, colour), []):
            y, x = iy - by + 2, ix - bx + 2
            if 0 <= y < grown.shape[0] and 0 <= x < grown.shape[1] and grown[y, x]:
                n += 1
            else:
                left.append((iy, ix))
        where[(zone, colour)] = left          # a cube is counted in one blob only
        counts.append(n)
    return counts, [(zone, colour, iy, ix) for (zone, colour), left in where.items()
                    for iy, ix in left]


def castles_in_blobs(reader: Reader, pieces: list[Piece]) -> tuple[list[str], int]:
    """For each castle blob the reader collected (`reader.collect_castles`) in the frame
    it just read, the true castles whose middle it covers (as `vision.castle_count.label`
    words), and how many true castles lie in no blob at all."""
    assert reader.collect_castles is not None
    where: dict[str, list[tuple[int, int, str]]] = {}
    for zone, piece, iy, ix in middles(reader, pieces, "castle", ("territory",)):
        where.setdefault(zone, []).append((iy, ix, piece.colour))
    words = []
    for zone, _, box, blob in reader.collect_castles:
        bx, by = box[0], box[1]
        grown = cv2.dilate(cv2.copyMakeBorder(blob.astype(np.uint8), 2, 2, 2, 2,
                                              cv2.BORDER_CONSTANT, value=0), _GROW)
        inside, left = [], []
        for iy, ix, colour in where.get(zone, []):
            y, x = iy - by + 2, ix - bx + 2
            if 0 <= y < grown.shape[0] and 0 <= x < grown.shape[1] and grown[y, x]:
                inside.append(colour)
            else:
                left.append((iy, ix, colour))
        where[zone] = left                    # a castle is counted in one blob only
        words.append(label(inside))
    return words, sum(len(left) for left in where.values())
