"""How far apart the cubes of a court row lie, measured on the row itself.

A row's length says how many cubes it holds only as well as the length a cube is known,
and that length is the row's own: cubes of a real set differ by a few per cent, people
leave gaps of a millimetre or two, and fifteen cubes add all that up to a cube more or
less. Where cubes touch or nearly, the run of their colour shows no gap; but every cube
still begins and ends: its top's edges, its seams, the sides the camera or the lamp shows
repeat once a cube along the row, whatever the light, the paint or the tile below. The
pitch of that repetition is measured here, so a long run is counted in its own cubes
rather than in a length fitted on other rows.

The edges are taken without sign (a seam is darker or lighter than a top, depending on
the lamp and the bevel), summed over the colour channels of the strip's mean colour, a
strip about the row's line narrow enough to stay on the cubes' tops as a row drifts.
"""

from __future__ import annotations

import functools

import numpy as np

#: The pitches looked for, in cube sides: a cube a little smaller than the game's, up to
#: a side and a half (a gap of half a side: a wider one shows and splits the run). No
#: half or double of a pitch in this band lies in it too, so the seams' repetition is
#: never mistaken for its own harmonic. Geometry, not fitted.
PITCH_SIDES = (0.875, 1.5)
#: The pitch is looked for to this precision (mm): a fiftieth of a millimetre is a
#: thirtieth of a cube over fifteen cubes.
STEP_MM = 0.02
#: Half the width of the strip along the row's line (mm) the edges are taken on: inside
#: a cube's top (8 mm) wherever on it the line runs.
HALF_WIDTH_MM = 2.0
#: Fewer samples than this hold no repetition to measure.
SHORTEST = 4


def edges(strip: np.ndarray, scale: float) -> np.ndarray:
    """Per sample along a row's strip (along × across × channels, `scale` samples a mm),
    how much the colour changes from the sample before, on the strip's middle."""
    middle, half = strip.shape[1] // 2, max(1, round(HALF_WIDTH_MM * scale))
    colour = strip[:, max(0, middle - half): middle + half + 1].astype(np.float32).mean(axis=1)
    change = np.abs(np.diff(colour, axis=0)).sum(axis=1)
    return np.concatenate(([np.float32(0)], change))


#: Waves are made for runs up to a multiple of this many samples, and kept.
BLOCK = 64


@functools.lru_cache(maxsize=16)
def _waves(scale: float, side_mm: float, samples: int) -> tuple[np.ndarray, np.ndarray]:
    """The pitches looked for, and a wave of each over `samples` samples (a run's are
    its first columns): the same for every row of a pose, so made once, not per run
    (making them was nearly all of a pitch's time)."""
    pitches = np.arange(PITCH_SIDES[0] * side_mm, PITCH_SIDES[1] * side_mm, STEP_MM)
    at_mm = np.arange(samples) / scale
    waves = np.exp(-2j * np.pi * at_mm[None, :] / pitches[:, None])
    return pitches, waves


def pitch(change: np.ndarray, scale: float, side_mm: float) -> float | None:
    """The pitch (mm) at which `change` (from `edges`, one run's samples) repeats most
    strongly, among those a row of cubes of `side_mm` can have; None for a run too short
    to repeat, or where no pitch in that band stands out from those beyond it."""
    if len(change) < SHORTEST:
        return None
    values = change.astype(np.float64) - float(change.mean())
    pitches, waves = _waves(scale, side_mm, -(-len(values) // BLOCK) * BLOCK)
    power = np.abs(waves[:, :len(values)] @ values)
    strongest = int(np.argmax(power))
    if strongest in (0, len(pitches) - 1):
        # Strongest at the band's edge: no repetition of a cube's pitch stands out (the
        # run's light drifts along it, or its seams do not show), only what lies beyond.
        return None
    return float(pitches[strongest])


__all__ = ["PITCH_SIDES", "edges", "pitch"]
