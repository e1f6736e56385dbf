"""The blob counting's quicker steps give what the plain numpy ones gave."""

from __future__ import annotations

import numpy as np


def test_a_lookup_by_labels_is_numpys_indexing() -> None:
    """`Reader._count_blobs` and `_shaded_cubes` look components' flags up by their
    labels with `np.take`, a third of the time of indexing, and the same array."""
    rng = np.random.default_rng(5)
    labels = rng.integers(0, 3000, (601, 420)).astype(np.uint16)
    flags = rng.random(3000) < 0.05
    assert np.array_equal(np.take(flags, labels), flags[labels])
    assert np.take(flags, labels).dtype == bool


def test_a_blobs_brightness_less_its_mean_taken_once_is_the_same() -> None:
    """`Reader._change` indexes the blob's brightness once, not once for the values and
    again for their mean."""
    rng = np.random.default_rng(6)
    brightness = (rng.random((40, 50)) * 700).astype(np.float32)
    blob = rng.random((9, 11)) < 0.6
    by, bx, bh, bw = 7, 13, 9, 11
    plain = brightness[by:by + bh, bx:bx + bw][blob] - brightness[by:by + bh,
                                                                  bx:bx + bw][blob].mean()
    now = brightness[by:by + bh, bx:bx + bw][blob]
    assert np.array_equal(now - now.mean(), plain)
