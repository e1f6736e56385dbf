"""Fit when a disc slot still shows the bare table's stripes, read against the bare table.

    .venv/bin/python scripts/fit_discs.py        # writes vision/fitted/discs.json

A disc slot is printed with stripes; a disc covers them. Against the bare table the
reader asks how much of the bare table's stripes the ring around the slot's centre still
shows at their frequency, whatever their phase, relative to the ring's light
(`vision.reader._follows`: a change of light scales the ring and keeps it; a tray
moved by a fraction of a millimetre turns their phase and keeps it). `kept` is the
least share an empty slot shows: halfway between the least an empty slot shows and
the most a covered one does, in labelled frames; those two extremes are kept as well
(`empty_least`, `covered_most`): a slot read between them is doubted, the more the
nearer to `kept`. `striped` tells whether the bare table's
own ring shows the print at all (the share of its variance at the stripes' frequency):
halfway between the least a bare table's ring shows and the most a disc's face does.

Labelled data: rendered tables of the widest variety (`vision.render`, seeds
`FIRST_SEED` on, tuning only — the benchmarks report on seeds 900000 and up), mild and
hard light alternately, discs in three slots of five; the bare table is drawn under the
scene's lamp and the table under the same lamp drifted, as between the set-up and the
play. The report gives both extremes (the margin between them) and how many slots the
fitted bound reads wrong.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.fitting import fit_command, labelled_frames  # noqa: E402
from scripts.labelled import VARIETY, drifted_table  # noqa: E402
from vision.layout import Layout, load_layout  # noqa: E402
from vision.reader import DISCS_FITTED, _follows, _striped  # noqa: E402
from vision.render import scene as scenes  # noqa: E402

FIRST_SEED = 35500
CHECK_FRAMES = 2
COMMAND = "scripts/fit_discs.py"


def sample(layout: Layout, seed: int, hard: bool) -> list[tuple[float, bool, float, float]]:
    """(share of the bare table's stripes still shown, a disc lies there, the share of
    the bare ring's variance that is stripes, the same now) for every disc slot."""
    scene, reader, frame = drifted_table(layout, seed, hard)
    bare = reader.bare
    assert bare is not None
    reader.read(frame)
    atlas = reader.atlas.cut(frame)
    reader.balance(frame, atlas)
    truth = scenes.truth(layout, scene)["discs"]
    out = []
    for cell, ring, wave in reader._discs:
        now = atlas[..., 1][ring].astype(np.float32)
        then = bare.atlas[..., 1][ring].astype(np.float32)
        out.append((_follows(now, then, wave), int(cell.zone.raw["disc"]) in
                    truth.get(cell.zone.seat or "", []), _striped(then, wave), _striped(now, wave)))
    return out


def fit(frames: int, first_seed: int = FIRST_SEED) -> dict[str, Any]:
    layout = load_layout(None)
    slots = []
    for seed, hard in labelled_frames(frames, first_seed):
        slots += sample(layout, seed, hard)
    empty = [c for c, disc, _, _ in slots if not disc]
    covered = [c for c, disc, _, _ in slots if disc]
    low, high = min(empty, default=1.0), max(covered, default=0.0)
    kept = round((low + high) / 2, 4)
    wrong = sum((c < kept) != disc for c, disc, _, _ in slots)
    # The bare table's rings all show the print; a disc's face shows little of it.
    print_least = min((then for _, _, then, _ in slots), default=1.0)
    disc_most = max((now for _, disc, _, now in slots if disc), default=0.0)
    striped = round((print_least + disc_most) / 2, 4)
    return {
        "command": f".venv/bin/python {COMMAND} --frames {frames} --first-seed {first_seed}",
        "data": {"renderer": "vision.render", "variety": VARIETY, "frames": frames,
                 "seeds": [first_seed, first_seed + 10 * (frames - 1)],
                 "light": "mild and hard alternately; the table under the bare table's "
                          "lamp drifted",
                 "slots": {"empty": len(empty), "with_a_disc": len(covered)}},
        "model": {"kept": kept, "striped": striped, "empty_least": round(low, 4),
                  "covered_most": round(high, 4)},
        "report": {"least_empty_slot": round(low, 4), "most_covered_slot": round(high, 4),
                   "slots_read_wrong": f"{wrong} of {len(slots)}",
                   "least_striped_bare_ring": round(print_least, 4),
                   "most_striped_disc": round(disc_most, 4)},
    }


def main(argv: list[str] | None = None) -> int:
    return fit_command("fit_discs", __doc__ or "", fit, out=DISCS_FITTED, frames=20,
                       first_seed=FIRST_SEED, check_frames=CHECK_FRAMES, argv=argv,
                       show=("model", "report"))


if __name__ == "__main__":
    raise SystemExit(main())
