"""A court card is known on the bare table whatever it is printed on.

Against the bare table a court's rows are counted run by run, from where its colour
begins; a court whose card the bare table did not show is read by colour alone, from
where an empty row is guessed to begin. A card printed on stock near the mat's own paper
(white card, cream, a pale grey) does not differ from the mat as a piece would, but its
five coloured dots are there all the same.
"""

from __future__ import annotations

import numpy as np
import pytest
from calibrated import calibration_for

from vision.calibration import reader_for
from vision.layout import load_layout
from vision.render import landscape
from vision.render import scene as scenes

LAYOUT = load_layout(None)
#: Card stock the colour of the mat's paper (BGR), as a card printed on white card is.
PAPER_STOCK = (238, 240, 240)


@pytest.mark.parametrize("hard", [False, True])
def test_a_court_card_printed_on_paper_like_the_mat_has_its_long_rows_counted(
        monkeypatch: pytest.MonkeyPatch, hard: bool) -> None:
    monkeypatch.setattr(landscape, "BOARD_CARDS", (PAPER_STOCK,))
    monkeypatch.setattr(scenes, "_TEXTURES", {})       # no card drawn before the patch
    table = scenes.random_scene(LAYOUT, np.random.default_rng(6406), hard=hard,
                                variety="wide")
    table.hands = []
    reader = reader_for(LAYOUT, calibration_for(table, 64, 65, hard))
    courts = {z.seat: z for z in LAYOUT.of_kind("court")}
    laid = {"red": 13, "blue": 11, "yellow": 6}
    pieces = [cube for seat in table.seats for k, (colour, n) in enumerate(laid.items())
              for cube in scenes.court_row(courts[seat], colour, n, LAYOUT.pieces_mm["cube"],
                                           np.random.default_rng(k))]
    snap = reader.read(scenes.render(LAYOUT, scenes.with_changes(table, pieces), 66))
    assert snap.reader == "reference"
    read = {seat: {c: snap.to_json()["courts"][seat][c] for c in laid} for seat in table.seats}
    assert read == {seat: laid for seat in table.seats}
