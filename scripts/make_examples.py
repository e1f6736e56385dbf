"""Regenerate the examples to try `carolus follow` and `carolus vision` on.

    .venv/bin/python scripts/make_examples.py          # writes into examples/

- ``examples/club-night.jsonl``: the game of ``examples/club-night.json`` (round 1, two
  turns: Bob plays, Anna plays and builds a castle on 6) played onto the simulated table
  (`referee.table.simulate`): one ``carolus-snapshot/1`` per line, 5 a second, with the
  hands over the mat flagged ``occluded`` and a few one-frame misreads, as a camera gives.
- ``examples/frames/calibration.jpg``: the calibration frame (tiles, court cards, every
  swatch holding its piece), drawn by `vision.render.table.TableRenderer`.
- ``examples/frames/1-setup.jpg``, ``2-bob.jpg``, ``3-anna.jpg``: the same camera over
  the table of that game after the set-up, after Bob's turn and after Anna's (the white
  castle on territory 6), 2304 x 1296 JPEG like the Camera Module 3's default mode.
- ``examples/frames/expected.jsonl``: the snapshot each of those frames shows, for
  comparing with what ``carolus vision read`` prints.

The output is deterministic for one version of the renderer.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from referee.record import load  # noqa: E402
from referee.table.simulate import Options, simulate  # noqa: E402
from vision.layout import load_layout  # noqa: E402
from vision.render.table import TableRenderer  # noqa: E402

RECORD = ROOT / "examples" / "club-night.json"
SEED = 15
JPEG_QUALITY = 80
FRAMES = ("1-setup", "2-bob", "3-anna")


def settled(snapshots: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The states that stood for 5 frames or more, in order (no hands, no misreads)."""
    out: list[dict[str, Any]] = []
    run = 0
    for i, snap in enumerate(snapshots):
        same = i and _table(snap) == _table(snapshots[i - 1]) and not snap["occluded"]
        run = run + 1 if same else 1
        if run == 5 and not snap["occluded"] and snap["mat"]:
            out.append(snap)
    return out


def _table(snap: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in snap.items() if k not in ("t", "occluded")}


def pick(states: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """After the set-up (all discs still in the trays, the last such state), after Bob's
    turn (his refill in his reserve) and the last state of the game."""
    full = [s for s in states if all(len(d) == 5 for s_, d in s["discs"].items()
                                     if s_ in ("south", "north"))]
    setup = full[-1]
    bob_reserve = 7
    bob = next(s for s in states if s["emperor"] != setup["emperor"]
               and sum(s["reserves"]["north"].values()) == bob_reserve
               and sum(s["courts"]["north"].values()) == 2)
    return [setup, bob, states[-1]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "examples")
    args = parser.parse_args(argv)
    record = load(RECORD)
    stream = simulate(record, random.Random(SEED), Options(flicker=0.3, blind=0.0))
    out: Path = args.out
    (out / "frames").mkdir(parents=True, exist_ok=True)
    with open(out / "club-night.jsonl", "w", encoding="utf-8") as f:
        for snap in stream.snapshots:
            f.write(json.dumps(snap, separators=(",", ":")) + "\n")
    clean = simulate(record, random.Random(SEED), Options(flicker=0.0, blind=0.0))
    states = pick(settled(clean.snapshots))
    renderer = TableRenderer(load_layout(), seed=SEED)
    quality = [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY]
    cv2.imwrite(str(out / "frames" / "calibration.jpg"), renderer.calibration_frame(), quality)
    with open(out / "frames" / "expected.jsonl", "w", encoding="utf-8") as f:
        for name, state in zip(FRAMES, states, strict=True):
            cv2.imwrite(str(out / "frames" / f"{name}.jpg"), renderer.frame(state), quality)
            f.write(json.dumps({"image": f"{name}.jpg", **_table(state)},
                               separators=(",", ":")) + "\n")
    print(f"{out}: club-night.jsonl ({len(stream.snapshots)} snapshots), "
          f"frames/calibration.jpg and {len(FRAMES)} frames", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
