"""Disc slots read against the bare table: a slot is empty while it still shows the bare
table's stripes, however soft the camera draws them."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from referee.table.snapshot import DOUBTFUL
from vision.layout import Layout
from vision.reader import Reader
from vision.render import scene as sc


def _soft(frame: np.ndarray) -> np.ndarray:
    """A camera a little out of focus: the slots' fine stripes keep a fifth of their
    contrast, the pieces and the markers stay readable."""
    return cv2.GaussianBlur(frame, (0, 0), 1.6)


def test_a_soft_camera_still_tells_empty_slots_from_discs(layout: Layout) -> None:
    seed = 71
    scene = sc.random_scene(layout, np.random.default_rng(seed), hand_probability=0.0)
    truth = sc.truth(layout, scene)["discs"]
    assert any(truth.values()) and any(len(v) < 5 for v in truth.values())
    bare = sc.with_changes(scene, [])
    table = _soft(sc.render(layout, scene, seed))
    # By the stripes' contrast alone, the soft print reads as discs in every slot:
    plain = Reader(layout).read(table).to_json()["discs"]
    assert plain != truth
    reader = Reader(layout)
    reader.use_bare(reader.learn_bare(_soft(sc.render(layout, bare, seed + 1))))
    assert reader.read(table).to_json()["discs"] == truth


def test_a_disc_left_in_the_tray_when_the_bare_table_was_learnt(layout: Layout) -> None:
    """The bare table then shows no stripes in that slot, so it cannot say the slot is
    empty: the stripes' contrast decides there, and the slot reads empty once the disc
    is taken."""
    seed = 72
    scene = sc.random_scene(layout, np.random.default_rng(seed), hand_probability=0.0)
    discs = [p for p in scene.pieces if p.kind == "disc"]
    full = []
    for slot in layout.of_kind("disc-slot"):
        x, y = slot.raw.get("centre_mm", slot.centre())
        full.append(dataclasses.replace(discs[0], x=x, y=y, number=int(slot.raw["disc"])))
    reader = Reader(layout)
    reader.use_bare(reader.learn_bare(sc.render(layout, sc.with_changes(scene, full), seed + 1)))
    truth = sc.truth(layout, scene)["discs"]
    assert any(len(v) < 5 for v in truth.values())
    assert reader.read(sc.render(layout, scene, seed)).to_json()["discs"] == truth



def _tray_moved(layout: Layout, frame: np.ndarray, mm: float) -> np.ndarray:
    """`frame` with every disc tray moved `mm` along the mat's x, and nothing else: the
    print under the camera a fraction of a stripe away from where the bare table showed
    it (a camera or a mat bumped a little since), while the markers hold the pose."""
    pose = Reader(layout).locator.locate(frame)
    assert pose is not None
    out = frame.copy()
    for slot in layout.of_kind("disc-slot"):
        cx, cy = slot.raw.get("centre_mm", slot.centre())
        corners = np.array([[[cx - 14, cy - 14]], [[cx + 14, cy + 14]], [[cx, cy]],
                            [[cx + mm, cy]]], np.float32)
        (x0, y0), (x1, y1), here, there = cv2.perspectiveTransform(
            corners, pose.homography)[:, 0]
        dx, dy = there - here
        moved = cv2.warpAffine(frame, np.float32([[1, 0, dx], [0, 1, dy]]),
                               (frame.shape[1], frame.shape[0]), flags=cv2.INTER_LINEAR)
        xs = slice(int(min(x0, x1)), int(max(x0, x1)) + 1)
        ys = slice(int(min(y0, y1)), int(max(y0, y1)) + 1)
        out[ys, xs] = moved[ys, xs]
    return out


def test_a_tray_moved_a_millimetre_after_the_bare_table_still_reads_its_empty_slots(
        layout: Layout) -> None:
    """A millimetre turns the stripes' phase by sixty degrees (they repeat every 6 mm
    along the mat's x) and keeps their strength: an empty slot still shows them all."""
    seed = 73
    scene = sc.random_scene(layout, np.random.default_rng(seed), hand_probability=0.0)
    truth = sc.truth(layout, scene)["discs"]
    assert any(len(v) < 5 for v in truth.values())
    reader = Reader(layout)
    reader.use_bare(reader.learn_bare(sc.render(layout, sc.with_changes(scene, []),
                                                seed + 1)))
    table = sc.render(layout, scene, seed)
    for mm in (1.0, -1.5):
        assert reader.read(_tray_moved(layout, table, mm)).to_json()["discs"] == truth


def test_a_disc_laid_half_off_its_slot_is_asked_about(layout: Layout) -> None:
    """A disc put down between two slots leaves part of a slot's stripes, more than any
    covered slot and less than any empty one showed in the labelled frames: the tray is
    read with doubt, so the referee asks about it instead of taking it as read. Discs
    lying squarely in their slots leave no doubt."""
    seed = 74
    scene = sc.random_scene(layout, np.random.default_rng(seed), hand_probability=0.0)
    disc = next(p for p in scene.pieces if p.kind == "disc")
    bare = Reader(layout).learn_bare(sc.render(layout, sc.with_changes(scene, []), seed + 1))

    def read(table: sc.Scene) -> dict[str, float]:
        reader = Reader(layout)
        reader.use_bare(bare)
        return dict(reader.read(sc.render(layout, table, seed)).to_json().get(
            "confidence", {}))

    assert not any(zone.startswith("discs:") for zone in read(sc.with_changes(scene, [disc])))
    askew = read(sc.with_changes(scene, [dataclasses.replace(disc, x=disc.x + 13)]))
    tray = next(seat for seat, slots in
                sc.truth(layout, sc.with_changes(scene, [disc]))["discs"].items() if slots)
    assert askew.get(f"discs:{tray}", 1.0) < DOUBTFUL


def test_a_tray_read_clear_again_drops_the_doubt_its_still_slots_held(
        layout: Layout) -> None:
    """A tray's doubt is one for its five slots. Read on a stream, a slot left half shown
    is doubted; when it next reads clear while the other slots did not move, their last
    reading (the tray's doubt with it) used to be put back, and the referee asked about a
    tray read right for as long as it stood (2-player camera game 900293, 798.6 s)."""
    seed = 74
    scene = sc.random_scene(layout, np.random.default_rng(seed), hand_probability=0.0)
    disc = next(p for p in scene.pieces if p.kind == "disc")
    reader = Reader(layout)
    reader.use_bare(reader.learn_bare(sc.render(layout, sc.with_changes(scene, []),
                                                seed + 1)))
    square = sc.render(layout, sc.with_changes(scene, [disc]), seed)
    askew = sc.render(layout, sc.with_changes(
        scene, [dataclasses.replace(disc, x=disc.x + 13)]), seed)
    doubts = [reader.read(frame, t=0.2 * k).to_json().get("confidence", {})
              for k, frame in enumerate((square, askew, square))]
    tray = next(zone for zone in doubts[1] if zone.startswith("discs:"))
    assert doubts[1][tray] < DOUBTFUL
    assert tray not in doubts[0] and tray not in doubts[2]
