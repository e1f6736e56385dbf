"""Reading pieces as what differs from the bare table, on tiles whose art we never saw."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest
from calibrated import bench_table
from fitting_scripts import script

from referee.table.snapshot import DOUBTFUL
from vision import occlusion, reference
from vision.calibration import CalibrationError, calibrate, load, reader_for, save
from vision.layout import load_layout
from vision.occlusion import HANDS_FITTED
from vision.reader import DISCS_FITTED, EMPEROR_FITTED, Reader
from vision.reference import FITTED, ROWS_FITTED, BareTable, BareTableError, RowModel
from vision.render import landscape
from vision.render import scene as scenes
from vision.render.hands import Hand
from vision.render.pieces import Piece
from vision.snapshot import Snapshot, empty_snapshot
from vision.steady import Steady

ROOT = Path(__file__).resolve().parents[2]
LAYOUT = load_layout(None)
SAMPLES = Path(__file__).with_name("samples")


def _calibration_of(table: scenes.Scene, seed: int, hard: bool = False) -> dict:
    """The calibration of `table`'s camera and light: its tiles and court cards, and
    every swatch holding its piece (the set-up step's bare table comes with it)."""
    calib_scene = scenes.calibration_scene(LAYOUT, np.random.default_rng(seed), hard=hard,
                                           variety="wide")
    calib_scene.camera, calib_scene.lighting = table.camera, table.lighting
    calib_scene.tile_seed, calib_scene.light = table.tile_seed, table.light
    return calibrate(scenes.render(LAYOUT, calib_scene, seed + 4), LAYOUT)


def _table(light: str, fields: tuple[str, ...]) -> tuple[str, dict, dict[str, np.ndarray]]:
    """A table whose every tile is made of `fields`, its calibration, and two frames:
    the tiles alone, and one yellow cube on territory 7."""
    hard = light == "hard"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(landscape, "_pick_materials",
                   lambda rng, k: [fields[i % len(fields)] for i in range(k)])
        # The renderer keeps tile art by the table's seed: not other fields'.
        mp.setattr(scenes, "_TEXTURES", {})
        rng = np.random.default_rng(4242 if hard else 4243)
        table = scenes.random_scene(LAYOUT, rng, hard=hard, variety="wide")
        table.hands = []
        calib = _calibration_of(table, 7, hard)
        empty = scenes.with_changes(table, [])
        empty_frame = scenes.render(LAYOUT, empty, 12)
        x, y = scenes.territory_centre(LAYOUT, 7)
        one = scenes.with_changes(table, [Piece("cube", "yellow", x + 6, y - 4, 20.0)])
        one_frame = scenes.render(LAYOUT, one, 13)
    return light, calib, {"empty": empty_frame, "one": one_frame}


@pytest.fixture(scope="module", params=[("mild", "ochre"), ("hard", "ochre"),
                                        ("mild", "wheat"), ("hard", "wheat")],
                ids=lambda p: "-".join(p))
def ochre_table(request: pytest.FixtureRequest) -> tuple[str, dict, dict[str, np.ndarray]]:
    """Mottled ochre fields (the kept-apart renderer's tiles that the absolute reader
    took for yellow cubes), and wheat of the yellow cubes' own dye."""
    light, field = request.param
    return _table(light, (field,))


def _yellow(snap: Snapshot) -> dict[str, int]:
    return {str(n): t.cubes.yellow for n, t in enumerate(snap.territories, start=1)
            if t.cubes.yellow}


def test_yellow_fields_are_not_yellow_cubes(ochre_table: tuple) -> None:
    _, calib, frames = ochre_table
    snap = reader_for(LAYOUT, calib).read(frames["empty"])
    assert snap.reader == "reference"
    assert _yellow(snap) == {}
    assert all(t.cubes.total() == 0 for t in snap.territories)


def test_one_yellow_cube_on_yellow_fields_reads_one(ochre_table: tuple) -> None:
    _, calib, frames = ochre_table
    snap = reader_for(LAYOUT, calib).read(frames["one"])
    assert _yellow(snap) == {"7": 1}


def test_without_a_bare_table_the_absolute_reader_is_used_and_says_so(ochre_table: tuple
                                                                       ) -> None:
    _, calib, frames = ochre_table
    without = {k: v for k, v in calib.items() if k != "bare_table"}
    snap = reader_for(LAYOUT, without).read(frames["empty"])
    assert snap.reader == "absolute"


def test_bare_table_round_trips_and_refuses_another_atlas() -> None:
    rng = np.random.default_rng(3)
    bare = BareTable(rng.integers(0, 255, (40, 60, 3), dtype=np.uint8))
    again = BareTable.from_text(bare.to_text())
    assert np.array_equal(again.atlas, bare.atlas)
    with pytest.raises(BareTableError, match="another layout or scale"):
        Reader(LAYOUT).use_bare(bare)
    with pytest.raises(BareTableError, match="not a PNG"):
        BareTable.from_bytes(b"GIF89a")


def test_a_calibration_with_a_broken_bare_table_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "calib.json"
    path.write_text(json.dumps({"format": "carolus-calibration/1", "colours": {},
                                "bare_table": "not base64!"}), encoding="utf-8")
    with pytest.raises(CalibrationError, match="bare_table"):
        load(path)


def test_the_bare_table_is_stored_with_the_calibration(ochre_table: tuple,
                                                        tmp_path: Path) -> None:
    _, calib, frames = ochre_table
    save(calib, tmp_path / "calib.json")
    again = load(tmp_path / "calib.json")
    assert reader_for(LAYOUT, again).read(frames["one"]).reader == "reference"


def test_vision_read_says_which_reader_read(ochre_table: tuple, tmp_path: Path) -> None:
    _, calib, frames = ochre_table
    save(calib, tmp_path / "calib.json")
    cv2.imwrite(str(tmp_path / "one.png"), frames["one"])
    out = subprocess.run(
        [sys.executable, "-m", "firmware", "vision", "read", str(tmp_path / "one.png"),
         "--calibration", str(tmp_path / "calib.json")],
        capture_output=True, text=True, cwd=ROOT, check=True)
    snap = json.loads(out.stdout)
    assert snap["reader"] == "reference"
    assert snap["territories"]["7"]["cubes"]["yellow"] == 1
    assert all(0.0 <= v < 1.0 for v in snap["confidence"].values())


def test_a_still_zone_repeats_its_counts_and_a_moved_one_is_read_again() -> None:
    reader = Reader(LAYOUT)
    atlas = reader.atlas
    steady = Steady(atlas, changed_levels=24, least_px=16)
    img = np.full((atlas.height, atlas.width, 3), 200, np.uint8)
    first = empty_snapshot(LAYOUT.seats(), mat=True)
    first["territories"]["3"]["cubes"]["red"] = 2
    first["territories"]["9"]["cubes"]["blue"] = 1
    steady.merge(first, img, steady.changed(img))
    # The same pixels read differently (a count on a knife edge): the zones keep theirs.
    flicker = json.loads(json.dumps(first))
    flicker["territories"]["3"]["cubes"]["red"] = 3
    assert steady.merge(flicker, img, steady.changed(img))["territories"]["3"]["cubes"][
        "red"] == 2
    # Territory 9's pixels moved (a hand took the cube): it is read again.
    cell = next(c for c in atlas.cells if c.zone.raw.get("territory") == 9)
    moved = img.copy()
    moved[cell.y:cell.y + cell.h, cell.x:cell.x + cell.w][cell.mask] = 90
    taken = json.loads(json.dumps(first))
    taken["territories"]["9"]["cubes"]["blue"] = 0
    changed = steady.changed(moved)
    assert list(changed) == [cell.index]
    assert steady.merge(taken, moved, changed)["territories"]["9"]["cubes"]["blue"] == 0




def test_a_cylinder_read_under_a_hand_does_not_stay_on_a_still_card() -> None:
    reader = Reader(LAYOUT)
    steady = Steady(reader.atlas, changed_levels=24, least_px=16)
    img = np.full((reader.atlas.height, reader.atlas.width, 3), 200, np.uint8)
    seat = LAYOUT.seats()[0]

    card = next(c for c in reader.atlas.cells if c.zone.kind == "court" and c.zone.seat == seat)
    hand = img.copy()
    hand[card.y:card.y + card.h, card.x:card.x + card.w] = 60

    def seen(red: str, pixels: np.ndarray = img, occluded: bool = False) -> object:
        snap = empty_snapshot(LAYOUT.seats(), mat=True)
        snap["cylinders"]["red"], snap["occluded"] = red, occluded
        return steady.merge(snap, pixels, steady.changed(pixels))["cylinders"]["red"]

    assert seen(seat) == seat
    assert seen("pool") == seat          # a still card keeps its cylinder through a flicker
    steady.reset()
    assert seen("pool") == "pool"
    assert seen(seat, hand, occluded=True) == seat  # a hand over the card
    # It moves off the card but a red sleeve still hangs over the dot's surroundings.
    assert seen(seat, occluded=True) == seat
    assert seen("pool") == "pool"        # the hand gone: the card is still, yet it is empty


def test_the_emperor_stays_on_a_tile_that_did_not_move() -> None:
    """Seen by his shape on one tile, he stays there while it looks as it did: a guess
    (the widest yellow blob) elsewhere is put back, his shape seen elsewhere is doubted;
    once his tile moved, he is where he is read. A guess never anchors him (at set-up,
    before he is put down, the widest yellow blob is a cube), and a guess that puts him
    on another tile is doubted: a yellow cube may hold as wide a disc as he shows."""
    reader = Reader(LAYOUT)
    atlas = reader.atlas
    steady = Steady(atlas, changed_levels=24, least_px=16)
    img = np.full((atlas.height, atlas.width, 3), 200, np.uint8)

    def tile(n: int) -> tuple[slice, slice]:
        cell = next(c for c in atlas.cells if c.zone.raw.get("territory") == n)
        return slice(cell.y, cell.y + cell.h), slice(cell.x, cell.x + cell.w)

    def seen(emperor: int | None, pixels: np.ndarray, occluded: bool = False,
             guessed: bool = False) -> tuple[object, object]:
        snap = empty_snapshot(LAYOUT.seats(), mat=True)
        snap["emperor"], snap["occluded"] = emperor, occluded
        out = steady.merge(snap, pixels, steady.changed(pixels), guessed)
        return out["emperor"], out.get("confidence", {}).get("emperor")

    assert seen(4, img, guessed=True) == (4, 0.0)    # a yellow cube guessed at set-up
    placed = img.copy()
    placed[tile(8)] = 150                            # he is put down on 8
    assert seen(8, placed) == (8, None)              # seen by his shape: not doubted
    hand = placed.copy()
    hand[tile(8)] = 60                               # a hand over his tile and another
    hand[tile(9)] = 60
    seen(9, hand, occluded=True)
    cube = placed.copy()
    cube[tile(9)] = 120                              # a yellow cube left on 9
    assert seen(9, cube, guessed=True) == (8, None)  # a guess does not move him
    assert seen(None, cube) == (8, None)             # nor does losing him
    seen(9, hand, occluded=True)
    cube[tile(9)] = 130                              # another one on 9
    assert seen(9, cube) == (9, 0.0)                 # his shape on 9: doubted
    lifted = cube.copy()
    lifted[tile(8)] = 90                             # now really lifted off 8
    seen(9, lifted, occluded=True)
    assert seen(9, lifted) == (9, None)
    gone = lifted.copy()
    gone[tile(9)] = 100                              # lifted off 9, his shape lost now:
    seen(12, gone, occluded=True)
    assert seen(12, gone, guessed=True) == (12, 0.0)  # the widest yellow blob, doubted
    assert seen(12, gone, guessed=True) == (12, 0.0)  # and on every frame after


def test_a_guess_on_his_tile_after_it_changed_as_lifting_him_changes_it_is_doubted() -> None:
    """3-player hard camera game 900325: lifted to the next tile, where the hard light
    hid his shape, he was guessed back on his tile (a yellow cube there was the widest
    yellow blob) and taken as sure; the referee then buzzed that he had not moved. A
    guess on his tile once it changed by as much as lifting him changes it is doubted;
    one while his tile looks as it did is not (a hand over the table changes nothing)."""
    reader = Reader(LAYOUT)
    atlas = reader.atlas
    steady = Steady(atlas, changed_levels=24, least_px=16)
    img = np.full((atlas.height, atlas.width, 3), 200, np.uint8)
    cell = next(c for c in atlas.cells if c.zone.raw.get("territory") == 2)
    his = (slice(cell.y, cell.y + cell.h), slice(cell.x, cell.x + cell.w))

    def seen(emperor: int, pixels: np.ndarray, occluded: bool = False,
             guessed: bool = False) -> tuple[object, object]:
        snap = empty_snapshot(LAYOUT.seats(), mat=True)
        snap["emperor"], snap["occluded"] = emperor, occluded
        out = steady.merge(snap, pixels, steady.changed(pixels), guessed)
        return out["emperor"], out.get("confidence", {}).get("emperor")

    placed = img.copy()
    placed[his] = 150                                # he stands on 2, seen by his shape
    assert seen(2, placed) == (2, None)
    assert seen(2, placed, guessed=True) == (2, None)   # his shape lost, his tile as it was
    lifted = placed.copy()
    lifted[his] = 110                                # lifted off 2: his tile changed
    seen(2, lifted, occluded=True)
    assert seen(2, lifted, guessed=True) == (2, 0.0)


def test_the_fitting_script_reproduces_its_stored_check() -> None:
    stored = json.loads(FITTED.read_text(encoding="utf-8"))
    fit_difference = script("fit_difference")
    seeds = stored["data"]["seeds"]
    assert stored["command"].endswith(f"--frames {seeds[1] - seeds[0] + 1} "
                                      f"--first-seed {seeds[0]}")
    small = stored["check"]["frames"]
    again = fit_difference.fit(small, seeds[0])
    assert again["thresholds"] == stored["check"]["thresholds"]


def test_the_light_fitting_script_reproduces_its_stored_check() -> None:
    stored = json.loads(reference.LIGHT_FITTED.read_text(encoding="utf-8"))
    frames, first = stored["data"]["frames"], stored["data"]["seeds"][0]
    assert stored["command"].endswith(f"--frames {frames} --first-seed {first}")
    again = script("fit_light").fit(stored["check"]["frames"], first)
    assert again["model"] == stored["check"]["model"]


@pytest.mark.parametrize("seed", [4301, 4302])
def test_daylight_added_since_the_bare_table_leaves_the_tiles_bare(seed: int) -> None:
    """Daylight through a window adds to every colour rather than scaling it: on the
    dark saturated parts of tile art a gain alone leaves a changed colour, where the
    zone's light line brings the tiles back to their picture."""
    table = scenes.random_scene(LAYOUT, np.random.default_rng(seed), variety="wide")
    table.hands = []
    bare_scene = scenes.with_changes(table, [])
    reader = Reader(LAYOUT)
    bare = reader.learn_bare(scenes.render(LAYOUT, bare_scene, seed))
    reader.use_bare(bare)
    bare_scene.lighting = dataclasses.replace(table.lighting, stray=(0.1, 0.08, 0.06))
    frame = scenes.render(LAYOUT, bare_scene, seed + 1)
    atlas = reader.atlas.cut(frame)
    reader.balance(frame, atlas)
    tiles = np.isin(reader.atlas.zone_index[:reader.atlas.colour_rows],
                    [c.index for c in reader.atlas.of_kind("territory")])
    none = np.zeros(atlas.shape[:2], bool)[:reader.atlas.colour_rows]

    def differing(explained: float | None) -> float:
        comparison = reference.Comparison(bare, reader.atlas, reader.difference, explained)
        return float(comparison.foreground(atlas, comparison.gains(atlas), none)[tiles].mean())

    assert differing(None) < 0.01
    assert differing(1.01) > 0.1


def test_the_row_fitting_script_reproduces_its_stored_check() -> None:
    stored = json.loads(ROWS_FITTED.read_text(encoding="utf-8"))
    fit_rows = script("fit_rows")
    frames, first = stored["data"]["frames"], stored["data"]["seeds"][0]
    assert stored["command"].endswith(f"--frames {frames} --first-seed {first}")
    again = fit_rows.fit(stored["check"]["frames"], first)
    assert again["model"] == stored["check"]["model"]


def test_a_rows_gaps_never_add_up_to_a_cube() -> None:
    """Nine cubes laid with a gap after every one, a wider one after the fifth, and a
    speck of colour blurred at a seam: each run of the colour counts its own cubes, so
    the gaps (36 mm in all, nearly four cubes' length) count none."""
    model = RowModel.load()
    cube = round(model.per_cube_mm - model.offset_mm)           # a lone cube's run
    share = np.zeros(200)
    at = 3
    for k in range(9):
        share[at:at + cube] = 0.9
        at += cube + (8 if k == 4 else 3)
    share[at + 5] = 0.9                                          # a 1 mm speck
    assert model.count(model.runs(share, 1.0))[0] == 9
    # Two touching cubes make one run twice as long: two cubes.
    pair = np.zeros(60)
    pair[5:5 + 2 * cube] = 0.9
    assert model.count(model.runs(pair, 1.0))[0] == 2


def test_a_long_run_is_doubted_as_its_length_errs() -> None:
    """A row's cubes and gaps differ from the fitted length a cube by a few per cent: a
    run estimated 12.3 cubes is one cube off as often as not, though it rounds to 12
    well inside its band; a run estimated 3.2 cubes is not (whole game 900214 mild: an
    eleventh pink in Bob's court read as ten, sure, and `cube-moved` sounded)."""
    model = RowModel.load()
    assert model.spread > 0
    assert model.confidence(12, 12.3) < DOUBTFUL
    assert model.confidence(3, 3.2) > 0.9
    assert model.confidence(12, 12.0) > model.confidence(12, 12.3)
    # The margin of the band still doubts a short run near its edge.
    assert model.confidence(3, 3.45) < DOUBTFUL


def test_the_path_traced_rows_are_never_taken_from_held_out_frames(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        script("cycles_rows").main(["--seeds", "8-9", "900001"])
    assert stop.value.code == 2
    assert "only tuning seeds" in capsys.readouterr().err



def test_the_emperor_fitting_script_reproduces_its_stored_check() -> None:
    stored = json.loads(EMPEROR_FITTED.read_text(encoding="utf-8"))
    fit_emperor = script("fit_emperor")
    frames, first = stored["data"]["frames"], stored["data"]["seeds"][0]
    assert stored["command"].endswith(f"--frames {frames} --first-seed {first}")
    again = fit_emperor.fit(stored["check"]["frames"], first)
    assert again["model"] == stored["check"]["model"]


@pytest.mark.parametrize("name, path", [("fit_hands", HANDS_FITTED),
                                        ("fit_discs", DISCS_FITTED)])
def test_the_border_and_disc_fitting_scripts_reproduce_their_stored_checks(
        name: str, path: Path) -> None:
    stored = json.loads(path.read_text(encoding="utf-8"))
    frames, first = stored["data"]["frames"], stored["data"]["seeds"][0]
    assert stored["command"].endswith(f"--frames {frames} --first-seed {first}")
    again = script(name).fit(stored["check"]["frames"], first)
    assert again["model"] == stored["check"]["model"]


def test_the_emperor_on_ochre_art_is_the_emperor_not_yellow_cubes() -> None:
    """Tuning frame 21005 (mild light, calibrated as `vision_bench` does): the emperor on
    territory 8 differs from the bare table only by a sliver of yellow and a patch of his
    shaded side, neither round nor big enough to pass for him; the reader used to read
    no emperor and one yellow cube too many there (since the cube count weighs a blob's
    top, the sliver is no cube even without the fallback). The yellow blob holding the
    widest disc is he."""
    scene, reader, frame = bench_table(21005)
    snap = reader.read(frame).to_json()
    truth = scenes.truth(LAYOUT, scene)
    assert truth["emperor"] == 8
    assert snap["emperor"] == 8
    assert snap["territories"]["8"] == truth["territories"]["8"]
    reader.emperor_disc = None                 # without the fallback: no emperor
    reader.steady.reset()
    old = reader.read(frame).to_json()
    assert old["emperor"] is None


@pytest.mark.parametrize(("seed", "territory"), [(23029, 10), (23042, 11)])
def test_an_emperor_split_into_his_colour_and_his_shade_is_no_yellow_cubes(
        seed: int, territory: int) -> None:
    """Tuning frames (mild light, calibrated as `vision_bench` does) where the art splits
    the emperor into a sliver of his yellow and a patch of his shaded side beside it:
    apart, neither holds a disc as wide as his, the sliver was counted as two or three
    yellow cubes and no emperor was read. Measured together, as the blobs touching each
    other, they hold his width."""
    scene, reader, frame = bench_table(seed)
    snap = reader.read(frame).to_json()
    truth = scenes.truth(LAYOUT, scene)
    assert truth["emperor"] == territory
    assert snap["emperor"] == territory
    assert snap["territories"][str(territory)] == truth["territories"][str(territory)]


def test_court_rows_laid_with_gaps_are_counted_by_their_cubes() -> None:
    """Rows as people lay them: gaps of a millimetre or two, a wider one after every
    fifth cube, crooked, starting on the card's edge. Their extent grows faster than
    their cubes; read against the bare table each row counts its cubes."""
    rng = np.random.default_rng(77)
    table = scenes.random_scene(LAYOUT, rng, variety="wide")
    table.hands = []
    reader = reader_for(LAYOUT, _calibration_of(table, 78))
    courts = {z.seat: z for z in LAYOUT.of_kind("court")}
    laid = {("south", "red"): 12, ("south", "blue"): 6, ("north", "green"): 14,
            ("west", "pink"): 9, ("east", "yellow"): 3}
    pieces = []
    for i, ((seat, colour), n) in enumerate(laid.items()):
        row_rng = np.random.default_rng([80, i])
        while True:      # a row with the wider gap after every fifth cube where it counts
            row = scenes.court_row(courts[seat], colour, n, LAYOUT.pieces_mm["cube"], row_rng)
            if n < 6 or _has_wide_gap(row):
                break
        pieces += row
    scene = scenes.with_changes(table, pieces)
    snap = reader.read(scenes.render(LAYOUT, scene, 81))
    truth = scenes.truth(LAYOUT, scene)
    assert {k: truth["courts"][k[0]][k[1]] for k in laid} == laid
    assert {k: snap.courts[k[0]][k[1]] for k in laid} == laid


def _has_wide_gap(row: list[Piece]) -> bool:
    steps = np.hypot(np.diff([p.x for p in row]), np.diff([p.y for p in row]))
    return bool(steps.max() - np.median(steps) >= 2.0)


@pytest.fixture(scope="module")
def wide_table() -> tuple[dict, scenes.Scene, np.ndarray]:
    """A wide-variety table in mild light with pieces, its calibration and its frame."""
    rng = np.random.default_rng(4321)
    table = scenes.random_scene(LAYOUT, rng, variety="wide")
    table.hands = []
    calib = _calibration_of(table, 4322)
    return calib, table, scenes.render(LAYOUT, table, 4324)


def _nudged(reader: Reader, territory: int, dx: int, dy: int) -> BareTable:
    """The reader's bare table with one tile's picture moved by (dx, dy) atlas pixels:
    what the camera sees when a sleeve pushed that tile after the set-up step."""
    assert reader.bare is not None
    atlas = reader.bare.atlas.copy()
    cell = next(c for c in reader.atlas.cells if c.zone.raw.get("territory") == territory)
    roi = atlas[cell.y:cell.y + cell.h, cell.x:cell.x + cell.w]
    roi[:] = np.roll(roi, (dy, dx), axis=(0, 1))
    return BareTable(atlas)


@pytest.mark.parametrize("search", [True, False], ids=["found", "not-looked-for"])
def test_a_nudged_tile_is_found_again(wide_table: tuple, search: bool,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    calib, table, frame = wide_table
    if not search:
        monkeypatch.setattr(reference, "NUDGE_PX", 0)
    def counting_by_margin(reader: Reader) -> Reader:
        # A held-out trust table gives a right but split vote confidence 0 as well: the
        # vote's own margin keeps a blind read's 0 the only one here.
        assert reader.cubes is not None
        reader.cubes = dataclasses.replace(reader.cubes, trust=None)
        return reader

    before = counting_by_margin(reader_for(LAYOUT, calib)).read(frame).to_json()
    reader = counting_by_margin(reader_for(LAYOUT, calib))
    reader.use_bare(_nudged(reader, 5, 3, -3))
    snap = reader.read(frame).to_json()
    if search:
        # Found again, the tile is read as where it was learnt (or, where that read
        # missed a piece, rightly), and not blind (confidence 0).
        truth = scenes.truth(LAYOUT, table)["territories"]["5"]
        assert snap["territories"]["5"] in (before["territories"]["5"], truth)
        assert snap["confidence"].get("territory:5", 1.0) > 0.0
    else:   # read blind: the referee is told not to trust it
        assert snap["confidence"]["territory:5"] == 0.0


def test_a_tile_a_hand_passed_over_is_still_found_again_once_nudged(
        wide_table: tuple) -> None:
    """A hand over a tile makes it look like another tile (no shift of the bare picture
    explains a sleeve); a tile given up then was never looked for again, and every tile
    has had a hand over it by the end of the set-up: a tile nudged later was read blind
    (confidence 0, a question) for the rest of the game."""
    calib, table, frame = wide_table
    reader = reader_for(LAYOUT, calib)
    assert reader.cubes is not None
    reader.cubes = dataclasses.replace(reader.cubes, trust=None)   # as in the test above
    x, y = scenes.territory_centre(LAYOUT, 5)
    over = scenes.with_changes(table, table.pieces)
    over.hands = [Hand((x, -250.0), (x, y), 80.0, (120, 150, 200), (90, 60, 40))]
    hand = scenes.render(LAYOUT, over, 4325)
    reader.use_bare(_nudged(reader, 5, 3, -3))
    assert reader.read(hand).occluded
    snap = reader.read(frame).to_json()
    assert snap["confidence"].get("territory:5", 1.0) > 0.0


def _shade_on_the_border(reader: Reader) -> Callable[[np.ndarray], np.ndarray]:
    """A picture with a stretch of the mat's top border 7 % darker, where a drifting
    lamp's shade may fall (the reader has read a frame: its border points are placed)."""
    border = reader.border
    assert border.px is not None
    stretch = (border.points_mm[:, 1] < 70) & (border.points_mm[:, 0] > 600) & (
        border.points_mm[:, 0] < 780)
    x0, y0 = border.px[stretch].min(axis=0) - 6
    x1, y1 = border.px[stretch].max(axis=0) + 6

    def shaded(picture: np.ndarray) -> np.ndarray:
        out = picture.copy()
        out[y0:y1, x0:x1] = (out[y0:y1, x0:x1] * 0.93).astype(np.uint8)
        return out

    return shaded


def test_a_lamp_shade_fallen_on_the_border_is_no_hand_once_it_holds_still(
        wide_table: tuple) -> None:
    """A lamp that drifts during the evening can leave a stretch of the mat's border a
    few per cent darker than when the bare table was learnt: taken for an arm, every
    later frame was occluded and the referee never saw the table still again (2-player
    hard camera game 900205 lost its last 70 seconds so). An arm moves; a shade that
    holds still for `HELD_SECONDS` is the light's, and an arm reaching in there later is
    an arm again."""
    calib, table, frame = wide_table
    reader = reader_for(LAYOUT, calib)
    assert not reader.read(frame, 0.0).occluded
    shaded = _shade_on_the_border(reader)
    still = shaded(frame)
    seen = [reader.read(still, round(0.2 * k, 1)).occluded for k in range(1, 36)]
    assert seen[0] and not seen[-1]
    assert seen.index(False) * 0.2 >= occlusion.HELD_SECONDS - 0.2
    over = scenes.with_changes(table, table.pieces)
    over.hands = [Hand((690.0, -250.0), (690.0, 300.0), 80.0, (120, 150, 200),
                       (90, 60, 40))]
    assert reader.read(shaded(scenes.render(LAYOUT, over, 4324)), 7.2).occluded


def test_a_shade_on_the_border_becomes_background_though_arms_pass_over_it(
        wide_table: tuple) -> None:
    """A shade the drifting lamp laid on the border, where a player's arm reaches in over
    it every second and a half: an arm moves, and once it is gone the shade is as it
    was. Timed on every frame, each passing arm restarted the shade's clock, so it never
    became background and every frame between the arms was taken for a hand (3-player
    hard camera game 900328, 23 seconds). Only frames where nothing moves are timed:
    the shade is background after `HELD_SECONDS`, and each arm is still an arm."""
    calib, table, frame = wide_table
    reader = reader_for(LAYOUT, calib)
    assert not reader.read(frame, 0.0).occluded
    shaded = _shade_on_the_border(reader)
    still = shaded(frame)
    over = scenes.with_changes(table, table.pieces)
    over.hands = [Hand((690.0, -250.0), (690.0, 300.0), 80.0, (120, 150, 200),
                       (90, 60, 40))]
    arm = shaded(scenes.render(LAYOUT, over, 4324))
    between, arms = [], []
    for k in range(1, 60):
        t = round(0.2 * k, 1)
        if k % 7 == 0:
            arms.append(reader.read(arm, t).occluded)
        elif t >= occlusion.HELD_SECONDS + 1.5 and k % 7 != 1:
            # (the frame right after an arm differs from it: moving, so occluded)
            between.append(reader.read(still, t).occluded)
        else:
            reader.read(still, t)
    assert all(arms)
    assert between and not any(between)


def test_an_arm_that_comes_back_to_the_same_stretch_later_is_an_arm_again(
        wide_table: tuple) -> None:
    """An arm leaving the border changes it as much as an arm coming: timed from the
    arm's first frame alone, an arm back over the same stretch `HELD_SECONDS` later
    matched its own old paper there, was taken for background and went unflagged
    (4-player hard camera game 900407: a disc taken with no hand seen)."""
    calib, table, frame = wide_table
    reader = reader_for(LAYOUT, calib)
    over = scenes.with_changes(table, table.pieces)
    # a dark sleeve between two markers: only the border's paper can tell it is there
    over.hands = [Hand((240.0, -250.0), (240.0, 300.0), 60.0, (40, 40, 40), (30, 30, 30))]
    arm = scenes.render(LAYOUT, over, 4324)
    assert not reader.read(frame, 0.0).occluded
    assert reader.read(arm, 0.2).occluded and reader.locator.hidden_markers == 0
    assert not any(reader.read(frame, round(0.4 + 0.2 * k, 1)).occluded for k in range(5))
    back = occlusion.HELD_SECONDS + 0.4
    assert reader.read(arm, back).occluded
    assert reader.read(arm, back + 0.2).occluded


@pytest.mark.parametrize("sample, seat", [("shaded-reserve", "south"),
                                          ("pale-pink-reserve", "west")])
def test_pink_cubes_in_a_shaded_reserve_differ_from_the_bare_paper(
        wide_table: tuple, sample: str, seat: str) -> None:
    """Plain paper cannot tell a gain from an offset, whatever the frame shows there: a
    shade's soft edge spreads the frame's paper while the bare paper stays one grey, and
    the line fitted to that flattened every colour towards the paper's. A card's print
    varies enough to fit a line on, and the soft edges of the cubes' shadows flatten it
    all the same. The samples are reserves (atlas pixels, balanced) of 4-player hard
    camera game 900405 at 85 s, whose two pink cubes were read as paper all game, and of
    3-player hard camera game 900366 at 203.2 s, whose three pale pink cubes on a printed
    card were never seen, so a player's last refill never settled."""
    calib, _, _ = wide_table
    reader = reader_for(LAYOUT, calib)
    assert reader.bare is not None
    cell = next(c for c in reader.atlas.cells
                if c.zone.kind == "reserve" and c.zone.seat == seat)
    bare, frame = (cv2.imread(str(SAMPLES / f"{sample}-{kind}.png"))
                   for kind in ("bare", "frame"))
    assert bare.shape == frame.shape == (cell.h, cell.w, 3)
    where = (slice(cell.y, cell.y + cell.h), slice(cell.x, cell.x + cell.w))
    reference = reader.bare.atlas.copy()
    reference[where] = bare
    reader.use_bare(BareTable(reference))
    comparison = reader._comparison
    assert comparison is not None
    atlas = reference.copy()
    atlas[where] = frame
    b, g, r = (frame[..., k].astype(int) for k in range(3))
    pink = np.zeros(atlas.shape[:2], bool)
    pink[where] = (r - g > 40) & (b - g > 20)     # the cubes' lit tops and sides
    assert pink.sum() > 60
    gains = comparison.gains(atlas)
    unexplained, ratio = comparison.features(atlas, gains)
    fg = comparison.difference.decide(unexplained, ratio, pink[:comparison.rows])
    assert fg[pink[:comparison.rows]].mean() > 0.8


def test_a_cylinder_seen_in_the_pool_and_on_a_card_is_doubted() -> None:
    """One piece seen in two places: one sighting is wrong, and the camera cannot say
    which (2-player hard camera game 900211: a shaded card's green dot read as the green
    cylinder, standing in the pool and seen there too, and a buzz sounded for a cylinder
    on a court that does not control green). Two green cylinders drawn, one in the pool
    and one on the south card's dot, are that double sighting; one alone is sure."""
    rng = np.random.default_rng(4244)
    table = scenes.random_scene(LAYOUT, rng, hand_probability=0.0, variety="wide")
    reader = Reader(LAYOUT)
    reader.use_bare(reader.learn_bare(scenes.render(LAYOUT, scenes.with_changes(table, []), 31)))
    px, py = LAYOUT.of_kind("pool")[0].centre()
    court = next(z for z in LAYOUT.of_kind("court") if z.seat == "south")
    dx, dy = court.raw["rows_mm"]["green"][0]
    pooled = Piece("cylinder", "green", px, py)

    def read(*pieces: Piece) -> Snapshot:
        reader.steady.reset()  # each frame read whole, as after a hand
        return reader.read(scenes.render(LAYOUT, scenes.with_changes(table, list(pieces)), 32))

    alone = read(pooled)
    assert alone.cylinders["green"] == "pool" and alone.certainty("cylinder:green") == 1.0
    twice = read(pooled, Piece("cylinder", "green", dx, dy))
    assert twice.cylinders["green"] in ("pool", "south")
    assert twice.certainty("cylinder:green") < 0.5


@pytest.mark.xfail(strict=True, reason=(
    "the colour table reaches only a set's washed and shaded swatch colours: a cube of a "
    "deeper dye than the swatch's has a top of no colour; see BENCHMARKS.md (forty-"
    "seventh session)"))
def test_a_cube_of_a_deeper_dye_than_the_swatchs_is_still_a_cube() -> None:
    """Hard tuning table 23001: the red cube on the south reserve's white card has a top
    of a deeper red (BGR 10, 17, 184 balanced) than the calibration's swatch cube (109,
    111, 213); the colour table takes its darker sides for red and its top for no colour,
    and the ring of sides alone is too thin to count: the reserve reads empty, sure."""
    table, reader, frame = bench_table(23001, hard=True)
    assert scenes.truth(LAYOUT, table)["reserves"]["south"]["red"] == 1
    assert reader.read(frame).reserves["south"]["red"] == 1
