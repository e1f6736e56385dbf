"""The command line every fitting script shares: how many labelled frames, from which
seed, where the fitted numbers go, and the small re-fit stored beside them.

The re-fit on the first frames is what the test suite runs again to check that a stored
file is its script's output, so no number in it can have been edited by hand; and no
script may fit on the seeds the benchmarks hold out."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

#: Seeds from here on are the benchmarks' held-out frames.
HELD_OUT = 900000


def labelled_frames(frames: int, first_seed: int, step: int = 10) -> Iterator[tuple[int, bool]]:
    """Each labelled frame's seed and light, mild and hard alternately, with a progress
    line on stderr: a fit over dozens of rendered frames takes minutes."""
    for i in range(frames):
        seed, hard = first_seed + step * i, i % 2 == 1
        print(f"  frame {i + 1}/{frames} (seed {seed}, {'hard' if hard else 'mild'} light)",
              file=sys.stderr)
        yield seed, hard


def fit_command(
    name: str,
    doc: str,
    fit: Callable[[int, int], dict[str, Any]],
    *,
    out: Path,
    frames: int,
    first_seed: int,
    check_frames: int,
    argv: list[str] | None = None,
    compact: bool = False,
    show: tuple[str, ...] = ("model", "report"),
) -> int:
    """Parse `argv`, run ``fit(frames, first_seed)`` and its check, write the result to
    ``--out``; exit status 2 with a sentence naming the file when it cannot be written."""
    parser = argparse.ArgumentParser(prog=name, description=doc.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=frames,
                        help=f"labelled frames (default {frames})")
    parser.add_argument("--first-seed", type=int, default=first_seed)
    root = Path(__file__).resolve().parent.parent
    shown = out.relative_to(root) if out.is_relative_to(root) else out
    parser.add_argument("--out", type=Path, default=out, help=f"where to write (default {shown})")
    args = parser.parse_args(argv)
    if not 1 <= args.frames <= 1000:
        parser.error(f"--frames {args.frames} must be between 1 and 1000")
    if args.first_seed + 10 * args.frames >= HELD_OUT:
        parser.error(f"seeds from {HELD_OUT} on are held out for the benchmarks; fit below them")
    result = fit(args.frames, args.first_seed)
    small = min(args.frames, check_frames)
    result["check"] = {"frames": small, "model": fit(small, args.first_seed)["model"]}
    text = json.dumps(result, separators=(",", ":")) if compact else json.dumps(result, indent=1)
    try:
        args.out.write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        print(f"{name}: cannot write {args.out} ({exc.strerror or exc})", file=sys.stderr)
        return 2
    for key in show:
        print(json.dumps(result[key]), file=sys.stderr)
    return 0
