"""Calibration: learn this camera's colours and the tiles' art from one frame.

In a calibration frame every swatch holds the piece it names and the tiles lie on their
spots. The reader then classifies against the colours measured here (after the same white
balance it applies at run time) instead of the defaults, and treats the tiles' dominant
colours as background.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision import colours
from vision.atlas import Atlas
from vision.layout import CUBE_COLOURS, Layout
from vision.markers import MatLocator
from vision.reader import Reader, Tuning
from vision.reference import BareTable, BareTableError

FORMAT = "carolus-calibration/1"


class CalibrationError(ValueError):
    """A calibration frame or file that cannot be used; the message says why.

    Plain English (the vision loads no catalog): `vision.cli._REASONS` matches each
    message to its msgid, so a reworded one must be reworded there too."""


def _disc(x: float, y: float, radius: float) -> tuple[np.ndarray, np.ndarray]:
    """Mat points (mm) every 0.5 mm in a disc around (x, y)."""
    yy, xx = np.mgrid[-radius:radius + 0.1:0.5, -radius:radius + 0.1:0.5]
    keep = xx**2 + yy**2 <= radius**2
    return x + xx[keep], y + yy[keep]


def _sample(atlas: Atlas, img: np.ndarray, cell_zone: Any, x: float, y: float,
            radius: float) -> np.ndarray:
    cell = next(c for c in atlas.cells if c.zone is cell_zone)
    iy, ix = cell.px(*_disc(x, y, radius), atlas.scale)
    pixels: np.ndarray = img[iy, ix].reshape(-1, 3).astype(np.float32)
    return pixels


def _sample_frame(frame: np.ndarray, homography: np.ndarray, white: Any, x: float, y: float,
                  radius: float) -> np.ndarray:
    """White-balanced frame pixels in a disc around mat point (x, y): for a piece top that
    leans out of its swatch's cell in the atlas."""
    pts = np.stack(_disc(x, y, radius), axis=1).astype(np.float32)
    px = cv2.perspectiveTransform(pts[:, None, :], homography)[:, 0]
    h, w = frame.shape[:2]
    ix = np.clip(np.round(px[:, 0]).astype(int), 0, w - 1)
    iy = np.clip(np.round(px[:, 1]).astype(int), 0, h - 1)
    gains = colours.WHITE_LEVEL / white.at(pts[:, 0], pts[:, 1])
    balanced: np.ndarray = frame[iy, ix].astype(np.float32) * gains.astype(np.float32)
    return balanced


def calibrate(frame: np.ndarray, layout: Layout) -> dict[str, Any]:
    """Measure piece colours on the swatches and tile colours on the territories."""
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    pose = MatLocator(layout).detect(gray)
    if pose is None:
        raise CalibrationError("not a calibration frame: the mat's markers are not found")
    reader = Reader(layout, swatches=True)
    reader._set_pose(pose.homography, frame.shape)
    atlas_img = reader.atlas.cut(frame)
    white = reader.balance(frame, atlas_img)   # the same white balance `read` applies
    measured: dict[str, list[float]] = {}
    castle_tops: dict[str, float] = {}
    for zone in layout.of_kind("swatch"):
        piece, colour = zone.raw["piece"], zone.raw["colour"]
        cx, cy = zone.centre()
        dx, dy = reader.parallax(cx, cy, layout.height_mm(piece))
        radius = {"cube": 2.0, "cylinder": 3.0, "castle": 2.5, "emperor": 6.0}[piece]
        if piece == "emperor":
            # He is tall and his top small: near the mat's corners it leans out of his
            # swatch's cell, so it is sampled in the frame itself. Where exactly depends
            # on the camera's height; his lit top is the most saturated yellow around.
            px = _sample_frame(frame, pose.homography, white, cx + dx, cy + dy, radius)
            saturation = px.max(axis=1) - px.min(axis=1)
            px = px[saturation >= np.percentile(saturation, 80)]
        else:
            px = _sample(reader.atlas, atlas_img, zone, cx + dx, cy + dy, radius)
        value = np.median(px, axis=0)
        if piece == "castle":
            castle_tops[colour] = float(np.percentile(px.max(axis=1), 80))
            measured[f"castle-{colour}"] = value.tolist()
        elif piece == "emperor":
            measured["emperor"] = value.tolist()
        elif piece == "cube":
            measured[colour] = value.tolist()
        else:
            measured[f"cylinder-{colour}"] = value.tolist()
    _check_swatches_hold_cubes(measured)
    background = _tile_colours(reader, atlas_img, measured)
    # Nothing but the tiles, the court cards and the swatches' pieces lies on the mat:
    # the frame is also the bare table the pieces are read against.
    bare = Reader(layout).learn_bare(frame)
    tuning = {}
    if {"white", "grey", "black"} <= castle_tops.keys():
        tuning = {"castle_white": (castle_tops["white"] + castle_tops["grey"]) / 2,
                  "castle_black": (castle_tops["grey"] + castle_tops["black"]) / 2}
    return {"format": FORMAT, "layout": layout.raw.get("name", ""),
            "frame_size": [int(frame.shape[1]), int(frame.shape[0])],
            "homography": pose.homography.tolist(), "markers_seen": pose.markers_seen,
            "colours": measured, "background": background, "tuning": tuning,
            "bare_table": bare.to_text()}


#: A cube's colour is saturated; a swatch that reads as pale as paper holds no cube.
EMPTY_SWATCH_CHROMA = 15.0


def _check_swatches_hold_cubes(measured: dict[str, list[float]]) -> None:
    """Refuse a frame whose cube swatches are empty: calibrating on the bare paper would
    teach the reader that every colour looks like paper."""
    empty = []
    for colour in CUBE_COLOURS:
        if colour not in measured:
            continue
        lab = colours._lab(np.asarray([measured[colour]], np.float32))[0]
        if float(np.hypot(lab[1], lab[2])) < EMPTY_SWATCH_CHROMA:
            empty.append(colour)
    if empty:
        raise CalibrationError(
            "not a calibration frame: the swatches for the "
            + ", ".join(empty)
            + " cube hold no cube (put each piece on its calibration spot)"
        )


def _tile_colours(reader: Reader, atlas_img: np.ndarray, measured: dict[str, list[float]],
                  k: int = 10) -> list[list[float]]:
    """Dominant tile colours, minus any too close to a piece colour."""
    px = []
    for cell in reader.atlas.of_kind("territory"):
        roi = atlas_img[cell.y:cell.y + cell.h, cell.x:cell.x + cell.w][cell.mask]
        px.append(roi[::7])
    data = np.vstack(px).astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    # The labels are only an output here (no KMEANS_USE_INITIAL_LABELS); an array is
    # passed because OpenCV's stubs before 5.1 take no None for them.
    labels = np.zeros((len(data), 1), np.int32)
    _, _, centres = cv2.kmeans(data, k, labels, criteria, 2, cv2.KMEANS_PP_CENTERS)
    pieces = colours._lab(np.asarray(list(measured.values()), np.float32))
    keep = []
    for c in centres:
        lab = colours._lab(c[None, :])
        if float(np.sqrt(((pieces - lab) ** 2).sum(axis=1)).min()) > 22:
            keep.append([float(v) for v in c])
    return keep


def save(calib: dict[str, Any], path: Path) -> None:
    path.write_text(json.dumps(calib, indent=1), encoding="utf-8")


def load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise CalibrationError(f"{path}: cannot read calibration ({exc.strerror or exc})") \
            from exc
    except (json.JSONDecodeError, UnicodeDecodeError, ValueError) as exc:
        raise CalibrationError(f"{path}: not a calibration file ({exc})") from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CalibrationError(f"{path}: field 'format' is not {FORMAT!r}")
    if not isinstance(data.get("colours"), dict):
        raise CalibrationError(f"{path}: field 'colours' missing")
    bare = data.get("bare_table")
    if bare is not None:
        if not isinstance(bare, str):
            raise CalibrationError(f"{path}: field 'bare_table' is not text")
        try:
            BareTable.from_text(bare)
        except BareTableError as exc:
            raise CalibrationError(f"{path}: field 'bare_table': {exc}") from None
    return data


def reader_for(layout: Layout, calib: dict[str, Any] | None) -> Reader:
    """A reader using the calibration's colours, or the defaults without one."""
    if calib is None:
        return Reader(layout)
    measured = calib["colours"]
    pieces = {c: tuple(v) for c, v in measured.items() if c in colours.CLASS_OF}
    if "emperor" in measured:
        pieces["emperor"] = tuple(measured["emperor"])
    neutrals = [tuple(measured[f"castle-{c}"]) for c in ("white", "grey", "black")
                if f"castle-{c}" in measured] or None
    background = [tuple(b) for b in calib.get("background", [])]
    table = colours.build_table(pieces, neutrals,
                                list(colours.DEFAULT_BACKGROUND) + background)
    tuned = calib.get("tuning", {})
    tuning = Tuning()
    if "castle_white" in tuned:
        tuning.castle_white = float(tuned["castle_white"])
    if "castle_black" in tuned:
        tuning.castle_black = float(tuned["castle_black"])
    # No separate paper table here: with measured piece colours and no tile colours to
    # compete, cubes in a reserve read too big (3 reserve errors in 80 tuning frames).
    # Against the bare table only the pieces' colours are told apart.
    reader = Reader(layout, table=table, tuning=tuning,
                    pieces_table=colours.build_table(pieces, neutrals, ()),
                    piece_colours=pieces)
    if isinstance(calib.get("bare_table"), str):
        try:
            reader.use_bare(BareTable.from_text(calib["bare_table"]))
        except BareTableError as exc:
            raise CalibrationError(f"calibration: field 'bare_table': {exc}") from None
    return reader


__all__ = ["CalibrationError", "calibrate", "load", "reader_for", "save"]
