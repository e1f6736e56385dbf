"""The reader's faster paths give what the slower ones gave, and its caches follow changes.

A read keeps some work from frame to frame (the bare table's disc rings, the reference's
colour index and brightness) and does some with OpenCV where numpy was slow; each is
checked here against the plain computation, and a reader whose camera moved or whose
bare table was learnt again reads as a fresh reader does.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import cv2
import numpy as np
import pytest

from vision import colours, cube_count, lit
from vision.calibration import calibrate, reader_for
from vision.layout import load_layout
from vision.occlusion import MotionWatch
from vision.reader import (
    Reader,
    _channel_sum,
    _components,
    _label_flags,
    _share,
    _stats,
    _striped,
    _wave,
)
from vision.reference import _median
from vision.render import scene as scenes
from vision.render.camera import overhead_camera
from vision.steady import _brightest, _copied

LAYOUT = load_layout(None)


@pytest.mark.parametrize("shape", [(1296, 2304), (1520, 2028), (37, 61)])
def test_the_motion_thumbnail_is_one_pixel_in_eight_each_way(shape: tuple[int, int]) -> None:
    frame = np.random.default_rng(1).integers(0, 256, (*shape, 3), dtype=np.uint8)
    watch = MotionWatch()
    watch.check_frame(frame)
    strided = cv2.cvtColor(np.ascontiguousarray(frame[::8, ::8]), cv2.COLOR_BGR2GRAY)
    assert watch.last is not None and np.array_equal(watch.last, strided)


def test_opencv_helpers_equal_numpy() -> None:
    rng = np.random.default_rng(2)
    image = rng.integers(0, 256, (53, 71, 3), dtype=np.uint8)
    assert np.array_equal(_brightest(image), image.max(axis=2))
    assert np.array_equal(_channel_sum(image), image.sum(axis=2, dtype=np.float32))
    for n in (1, 2, 7, 8, 9, 40, 41):
        values = rng.random((n, 3)).astype(np.float32)
        values[: n // 2] = np.round(values[: n // 2], 1)      # ties
        median = _median(np.ascontiguousarray(values.T))
        assert median.dtype == np.float32
        assert np.array_equal(median, np.median(values, axis=0))


def test_a_colour_tables_index_is_five_bits_a_channel() -> None:
    every = np.stack(np.meshgrid(*(np.arange(256, dtype=np.uint8),) * 3, indexing="ij"),
                     axis=-1).reshape(256, -1, 3)
    b, g, r = (every[..., c].astype(np.uint16) >> 3 for c in range(3))
    index = colours.table_index(every)
    assert index.dtype == np.uint16 and np.array_equal(index, (b << 10) | (g << 5) | r)
    assert np.array_equal(colours.table_index(every[3:, 5:]), index[3:, 5:])


def test_a_gain_by_a_diagonal_transform_is_numpys_float32_product() -> None:
    """`Comparison.features` scales each zone by OpenCV's transform with its gains on
    the diagonal: the products numpy's broadcast multiply gives, bit for bit."""
    rng = np.random.default_rng(9)
    for _ in range(200):
        pixels = rng.integers(0, 256, (int(rng.integers(1, 70)), int(rng.integers(1, 70)), 3)
                              ).astype(np.float32)
        gains = rng.uniform(0.0, 4.0, 3).astype(np.float32)
        inverse = 1.0 / np.maximum(gains, 0.05)
        diagonal = np.zeros((3, 3), np.float32)
        diagonal[[0, 1, 2], [0, 1, 2]] = inverse
        view = pixels.copy()
        cv2.transform(view, diagonal, dst=view)
        assert view.tobytes() == (pixels * inverse).tobytes()


def test_a_share_of_flags_is_their_mean() -> None:
    rng = np.random.default_rng(3)
    for n in (1, 3, 7, 100, 1001):
        flags = rng.random(n) < 0.3
        assert _share(flags) == float(flags.mean())


def test_the_cube_count_votes_as_an_indirect_partition_does() -> None:
    """The nearest labelled blobs found by partitioning the distances give the votes an
    indirect partition gave, ties included (the stored samples hold duplicates, so
    asking for a sample itself ties the k-th distance)."""
    model = cube_count.stored()
    if model is None:
        pytest.skip("no fitted cube count")

    def reference(features: np.ndarray) -> tuple[int, int]:
        k = min(cube_count.NEIGHBOURS, len(model.counts))
        scaled = model._scaled(model.samples)
        distance = (scaled**2).sum(axis=1) - 2.0 * (scaled @ model._scaled(features))
        tally = np.bincount(model.counts[np.argpartition(distance, k - 1)[:k]])
        n = int(tally.argmax())
        return n, int(tally[n])

    rng = np.random.default_rng(4)
    for i in range(0, len(model.samples), 7):
        sample = model.samples[i]
        assert model.vote(sample) == reference(sample)
        nudged = sample * rng.uniform(0.9, 1.1, len(sample)).astype(np.float32)
        assert model.vote(nudged) == reference(nudged)


def test_the_nearest_are_those_not_beyond_numpys_kth() -> None:
    rng = np.random.default_rng(5)
    for i in range(400):
        values = rng.standard_normal(int(rng.integers(9, 6000))).astype(np.float32)
        if i % 3 == 0:
            values = np.round(values * 3).astype(np.float32)          # ties
        if i % 5 == 0:
            values[rng.integers(0, len(values), 4)] = np.nan
        if i % 7 == 0:
            values = np.sort(values)[::-1].copy()
        for k in (1, 9):
            kth = np.partition(values, k - 1)[k - 1]
            assert np.array_equal(cube_count._not_beyond_kth(values, k),
                                  np.flatnonzero(values <= kth))


def test_a_tops_byte_pixels_measure_as_numpy_measures_them() -> None:
    """`lit.top` of byte pixels (the atlas's) by its quicker sums gives what numpy's
    reductions give for the same pixels as floats."""
    rng = np.random.default_rng(6)
    for i in range(300):
        pixels = rng.integers(0, 256, (int(rng.integers(1, 900)), 3), dtype=np.uint8)
        colour = list(colours.DEFAULT_PIECES.values())[i % len(colours.DEFAULT_PIECES)]
        quick = lit.top(pixels, colour)
        as_float = pixels.astype(np.float32)
        px_sum, mean = as_float.sum(axis=1), as_float.mean(axis=1, keepdims=True)
        own = np.asarray(colour, np.float32)
        tint = own - own.mean()
        shown = (as_float - mean) @ tint / max(1.0, float(tint @ tint))
        top, seen = np.percentile(px_sum, lit.TOP_PERCENTILE), np.percentile(shown, 90.0)
        assert quick == lit.Top(float(np.float32(top)) / float(own.sum()), float(seen))


def test_components_are_opencvs_with_its_stats() -> None:
    """Labels, boxes, areas and centroids as OpenCV's own stats give them (a label's
    number decides the order its blob is read in), for empty, sparse, dense and full
    masks, small and atlas-sized, views included; and the stats worked out from the set
    pixels (`_stats`, which `_components` uses for sparse masks only) on any mask."""
    rng = np.random.default_rng(7)
    masks = []
    for i in range(400):
        h, w = int(rng.integers(1, 90)), int(rng.integers(1, 90))
        if i % 4 == 0:
            h, w = int(rng.integers(150, 620)), int(rng.integers(150, 430))
        density = [0.0, 0.0005, 0.005, 0.02, 0.1, 0.4, 0.95, 1.0][i % 8]
        mask = (rng.random((h, w)) < density).astype(np.uint8)
        if i % 5 == 0:
            mask = cv2.dilate(mask, np.ones((3, 3), np.uint8))
        if i % 3 == 0:
            mask *= np.uint8(rng.integers(1, 256))
        masks.append(mask)
        if h > 3 and w > 5:
            masks.append(mask[3:, 5:])
    for mask in masks:
        theirs = cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_16U,
                                                               cv2.CCL_DEFAULT)
        ours = _components(mask)
        assert ours[0] == theirs[0]
        for a, b in zip(ours[1:], theirs[1:], strict=True):
            assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
        ys, xs = np.nonzero(mask)
        if 0 < len(xs) < mask.size:
            stats = _stats(theirs[0], theirs[1], xs, ys)
            for a, b in zip(stats, theirs[2:], strict=True):
                assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def test_label_flags_are_numpys_take() -> None:
    rng = np.random.default_rng(8)
    for i in range(50):
        mask = (rng.random((int(rng.integers(1, 120)), int(rng.integers(1, 120))))
                < [0.0, 0.05, 0.5, 1.0][i % 4]).astype(np.uint8)
        n, cc, _, _ = _components(mask)
        flags = [rng.random(n) < 0.5 for _ in range(2)]
        flags[0][0] = False
        flags[1][0] = i % 2 == 0              # a flagged background: numpy's take
        if i % 3 == 0:
            flags = flags[:1]
        for ours, numpys in zip(_label_flags(cc, *flags), [np.take(f, cc) for f in flags],
                                strict=True):
            assert ours.dtype == numpys.dtype and np.array_equal(ours, numpys)


def test_the_kept_snapshot_is_a_deep_copy() -> None:
    snap: dict[str, Any] = {"territories": {"1": {"cubes": {"red": 2}, "castles": {}}},
                            "discs": {"south": [1, 3]}, "emperor": None, "t": 1.5}
    copied = _copied(snap)
    assert copied == copy.deepcopy(snap)
    copied["territories"]["1"]["cubes"]["red"] = 5
    copied["discs"]["south"].append(4)
    assert snap["territories"]["1"]["cubes"]["red"] == 2 and snap["discs"]["south"] == [1, 3]


def _scene(seed: int) -> tuple[scenes.Scene, dict[str, Any]]:
    """A wide table and the calibration of its set-up step (with its bare table)."""
    table = scenes.random_scene(LAYOUT, np.random.default_rng(seed), variety="wide")
    table.hands = []
    setup = scenes.calibration_scene(LAYOUT, np.random.default_rng(seed), variety="wide")
    setup.camera, setup.lighting = table.camera, table.lighting
    setup.tile_seed, setup.light = table.tile_seed, table.light
    return table, calibrate(scenes.render(LAYOUT, setup, seed + 1), LAYOUT)


def _counts(reader: Reader, frame: np.ndarray) -> dict[str, Any]:
    snap = dict(reader.read(frame).to_json())
    snap.pop("occluded")        # the first frame after a camera moved is flagged moving
    return snap


def test_a_reader_whose_camera_moved_reads_the_new_pose_as_a_fresh_reader() -> None:
    table, calib = _scene(4310)
    other = replace(table, camera=overhead_camera(np.random.default_rng(99), 2304, 1296,
                                                  1.3, tilt_deg=2.0, roll_jitter_deg=2.0))
    here, there = (scenes.render(LAYOUT, t, 4312) for t in (table, other))
    moved = reader_for(LAYOUT, calib)
    moved.read(here)
    assert moved.bare is not None and moved._bare_rings() is not None
    pose = moved.atlas.maps
    after = _counts(moved, there)
    assert moved.atlas.maps is not pose                         # the maps were rebuilt
    assert after == _counts(reader_for(LAYOUT, calib), there)


def test_a_bare_table_learnt_again_replaces_what_was_kept_of_the_last() -> None:
    table, calib = _scene(4320)
    frame = scenes.render(LAYOUT, table, 4322)
    reader = reader_for(LAYOUT, calib)
    reader.read(frame)
    # The bare table learnt again with every disc in its tray: no slot shows its print.
    discs = [p for p in table.pieces if p.kind == "disc"]
    covered = scenes.with_changes(table, discs)
    reader.use_bare(reader.learn_bare(scenes.render(LAYOUT, covered, 4323)))
    assert reader.bare is not None and reader.discs is not None
    rings = reader._bare_rings()
    assert rings is not None
    grey = reader.bare.atlas[..., 1]
    for (_, ring, wave), (then, striped, before, level) in zip(reader._discs, rings,
                                                              strict=True):
        fresh = grey[ring].astype(np.float32)
        assert np.array_equal(then, fresh) and striped == _striped(fresh, wave)
        assert before == _wave(fresh, wave) and level == float(fresh.mean())
    fresh_reader = Reader(LAYOUT, table=reader.table, tuning=reader.tuning,
                          pieces_table=reader._pieces_table)
    fresh_reader.use_bare(reader.bare)
    assert _counts(reader, frame) == _counts(fresh_reader, frame)


def test_the_references_kept_index_and_brightness_follow_a_nudged_tile() -> None:
    table, calib = _scene(4330)
    reader = reader_for(LAYOUT, calib)
    reader.read(scenes.render(LAYOUT, table, 4332))
    comparison = reader._comparison
    assert comparison is not None
    rows, width = comparison.rows, reader.atlas.width

    def agree() -> bool:
        picture = comparison.picture(0, rows, 0, width)
        return bool(np.array_equal(comparison.picture_index(0, rows, 0, width),
                                   colours.table_index(picture))
                    and np.array_equal(comparison.picture_sum(0, rows, 0, width),
                                       _channel_sum(picture)))

    assert agree()
    # Territory 5's tile nudged by 3 atlas pixels: found again, the reference moves.
    cell = next(c for c in reader.atlas.cells if c.zone.kind == "territory"
                and c.zone.raw["territory"] == 5)
    atlas = reader.bare.atlas.copy() if reader.bare is not None else None
    assert atlas is not None
    box = atlas[cell.y:cell.y + cell.h, cell.x:cell.x + cell.w]
    box[:] = np.roll(box, 3, axis=1)
    gains = comparison.gains(atlas)
    stale = np.zeros(len(reader.atlas.cells) + 1, bool)
    stale[cell.index] = True
    piece_like = np.zeros((rows, width), bool)
    assert comparison.reregister(atlas, gains, stale, piece_like) == [cell.index]
    assert agree()


def test_comparing_some_zones_gives_their_pixels_what_comparing_all_gives() -> None:
    """A read compares with the bare table only the zones it needs (`Reader._compared`):
    their light maps and pixels are those of a comparison of the whole atlas, and the
    others show no change."""
    table, calib = _scene(4340)
    reader = reader_for(LAYOUT, calib)
    reader.read(scenes.render(LAYOUT, table, 4342))
    comparison = reader._comparison
    assert comparison is not None and reader._atlas is not None
    atlas = reader._atlas
    zones = np.zeros(len(reader.atlas.cells) + 1, bool)
    zones[[3, 8, 18, 21]] = True                 # two tiles, a reserve, a court
    every = comparison.gains(atlas)
    some = comparison.gains(atlas, zones)
    assert np.array_equal(some[zones], every[zones])
    assert (some[~zones] == np.eye(3, 4)).all()             # the others' light untouched
    unexplained, ratio = comparison.features(atlas, every)
    part_unexplained, part_ratio = comparison.features(atlas, some, zones)
    inside = np.zeros(ratio.shape, bool)
    for k, x, y, w, h in comparison._boxes:
        if zones[k]:
            inside[y:y + h, x:x + w] = True
    assert np.array_equal(part_unexplained[inside], unexplained[inside])
    assert np.array_equal(part_ratio[inside], ratio[inside])
    assert not part_unexplained[~inside].any() and (part_ratio[~inside] == 1.0).all()
