"""Why a snapshot line, a layout file or a calibration file is not one is said in the
operator's language (issue 17): `referee.table.snapshot`'s `SnapshotError` is a `said`
message; the vision's layout and calibration errors (`vision.layout`,
`vision.calibration`: plain English, the vision loads no catalog) are matched to their
msgids by `vision.cli.said_reason`, as its other reasons are. ``carolus follow`` and
``carolus vision`` say them in ``--language`` with the field named as the file spells
it, a non-zero exit and no traceback; ``carolus run`` says them in the table's language.
Without ``--language`` the English is word for word what it was."""

from __future__ import annotations

import copy
import json
import os
import runpy
from pathlib import Path
from typing import Any

import pytest

from firmware.cli import main
from firmware.run import language
from referee.announcements import Said, translated
from referee.table.snapshot import SnapshotError, parse_snapshot
from vision.calibration import CalibrationError, load
from vision.cli import said_reason
from vision.layout import LayoutError, default_layout_path, load_layout, parse_layout
from vision.snapshot import empty_snapshot

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = "south=Anna:white,north=Bob:black"

#: The English-words check of the catalogs' tests (tests/referee, not on this test's
#: import path): every msgid's words, minus the words the languages share.
CHECK = runpy.run_path(str(ROOT / "tests" / "referee" / "test_announcements_languages.py"))


def english(text: str, message: object = None) -> set[str]:
    """The English words left in ``text``, the data set aside: paths, the fields as the
    file spells them (``courts.north.red``, ``'format'``, ``zones[3].kind``), values
    (``-1``, ``'kitchen'``) and, for a `said` ``message``, the words to type its fields
    hold (``"pool"``, ``null``, ``emperor``)."""
    for value in _data(message.words if isinstance(message, Said) else {}):
        text = text.replace(value, " ")
    words = [w for w in text.split() if not any(c in w for c in "./_[]'\"-:0123456789")]
    found: set[str] = CHECK["_words"](" ".join(words)) & CHECK["ENGLISH_WORDS"] - SAME
    return found


#: Words of these messages that are words of the other language too: Italian "zone"
#: (zones), German "Layout" and "Marker" (as the catalog says "das Layout der Matte", "die
#: Marker der Matte"), the unit "mm".
SAME = {"zone", "layout", "marker", "mm"}


def _data(words: dict[str, Any]) -> list[str]:
    """The values of a message's data fields, its clauses' too."""
    found = []
    for key, value in words.items():
        if isinstance(value, dict) and "words" in value:
            found += _data(value["words"])
        elif key.rstrip("0123456789") in ("typed", "given", "field", "file", "reason"):
            found.append(str(value))
    return found


def refused(capsys: pytest.CaptureFixture[str], *argv: str, code: int = 2) -> str:
    assert main(list(argv)) == code
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err.strip()


# ------------------------------------------------------------------ snapshots


def _snapshot() -> dict[str, Any]:
    data: dict[str, Any] = empty_snapshot(["south", "north"], mat=True)
    return data


def _broken_snapshots() -> dict[str, dict[str, Any]]:
    """One snapshot for each way `parse_snapshot` refuses one."""
    cases: dict[str, dict[str, Any]] = {}

    def case(name: str, change: Any) -> None:
        data = _snapshot()
        change(data)
        cases[name] = data

    case("format", lambda d: d.update(format="carolus-snapshot/9"))
    case("t", lambda d: d.update(t="soon"))
    case("mat", lambda d: d.update(mat="yes"))
    case("missing", lambda d: d.pop("occluded"))
    case("reader", lambda d: d.update(reader="guess"))
    case("confidence-zone", lambda d: d.update(confidence={"kitchen": 0.5}))
    case("confidence-level", lambda d: d.update(confidence={"emperor": 2}))
    case("territory-missing", lambda d: d["territories"].pop("7"))
    case("territory-extra", lambda d: d["territories"].update({"16": {}}))
    case("territory-object", lambda d: d["territories"].update({"3": [1, 2]}))
    case("emperor", lambda d: d.update(emperor=16))
    case("count", lambda d: d["courts"]["north"].update(red=-1))
    case("seat", lambda d: d["reserves"].update(kitchen={}))
    case("cylinder", lambda d: d["cylinders"].update(red="kitchen"))
    case("disc-seat", lambda d: d["discs"].update(kitchen=[1]))
    case("disc-list", lambda d: d["discs"].update(north=3))
    case("disc-number", lambda d: d["discs"].update(north=[6]))
    return cases


BROKEN = _broken_snapshots()


@pytest.mark.parametrize("name", sorted(BROKEN))
@pytest.mark.parametrize("lang", ["de", "it", "hu", "fi"])
def test_every_snapshot_error_is_said_in_every_language(name: str, lang: str) -> None:
    with pytest.raises(SnapshotError) as caught:
        parse_snapshot(BROKEN[name])
    message = caught.value.args[0]
    assert isinstance(message, Said) and str(caught.value) == message
    assert message.startswith(caught.value.field + ": ")
    said = translated(message, language(lang))
    assert said != str(message) and "%(" not in said
    assert said.startswith(caught.value.field + ": ")  # the field, as the JSON spells it
    assert not english(said, message), (lang, name, said)


def test_a_snapshot_errors_english_is_word_for_word_what_it_was() -> None:
    expected = {
        "format": "format: expected 'carolus-snapshot/1', got 'carolus-snapshot/9'",
        "t": "t: expected a number, got 'soon'",
        "mat": "mat: expected true or false, got 'yes'",
        "missing": "occluded: required field is missing",
        "reader": 'reader: expected "reference" or "absolute", got \'guess\'',
        "confidence-zone": "confidence.kitchen: unknown zone; zones are territory:1..15, "
        "court:SEAT, reserve:SEAT, discs:SEAT, cylinder:COLOUR and emperor",
        "confidence-level": "confidence.emperor: expected a number from 0 to 1, got 2",
        "territory-missing": "territories.7: territory is missing",
        "territory-extra": "territories.16: there are only territories 1 to 15",
        "territory-object": "territories.3: expected an object, got [1, 2]",
        "emperor": "emperor: expected a territory 1..15 or null, got 16",
        "count": "courts.north.red: expected a count >= 0, got -1",
        "seat": "reserves.kitchen: unknown seat 'kitchen'",
        "cylinder": "cylinders.red: expected a seat, \"pool\" or null, got 'kitchen'",
        "disc-seat": "discs.kitchen: unknown seat 'kitchen'",
        "disc-list": "discs.north: expected a list of disc numbers, got 3",
        "disc-number": "discs.north: expected disc numbers 1..5, got 6",
    }
    assert set(expected) == set(BROKEN)
    for name, text in expected.items():
        with pytest.raises(SnapshotError) as caught:
            parse_snapshot(BROKEN[name])
        assert str(caught.value) == text, name
    with pytest.raises(SnapshotError) as long:  # a long value is cut: 120 characters in all
        parse_snapshot({**_snapshot(), "reader": "x" * 300})
    assert len(str(long.value)) == len("reader: ") + 120


def test_follow_says_a_bad_snapshot_line_in_the_language_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stream = tmp_path / "bad.jsonl"
    good = _snapshot()
    bad = copy.deepcopy(good)
    bad["courts"]["north"]["red"] = -1
    stream.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    argv = ["follow", str(stream), "--players", PLAYERS]
    hungarian = refused(capsys, *argv, "--language", "hu")
    assert hungarian == (
        f"carolus follow: {stream}:2: courts.north.red: 0 vagy több darab kell, nem -1"
    )
    assert not english(hungarian.partition(": ")[2])
    assert refused(capsys, *argv, "--language", "de") == (
        f"carolus follow: {stream}:2: courts.north.red: erwartet eine Anzahl >= 0, nicht -1"
    )
    assert refused(capsys, *argv) == (
        f"carolus follow: {stream}:2: courts.north.red: expected a count >= 0, got -1"
    )
    bad = _snapshot()
    bad["cylinders"]["red"] = "kitchen"
    stream.write_text(json.dumps(bad) + "\n")
    assert refused(capsys, *argv, "--language", "hu") == (
        f"carolus follow: {stream}:1: cylinders.red: oldal, \"pool\" vagy null kell, nem 'kitchen'"
    )


# ------------------------------------------------------------------ layout, calibration


def _layout() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(default_layout_path().read_text(encoding="utf-8"))
    return data


def _without(data: dict[str, Any], drop: Any) -> dict[str, Any]:
    data["zones"] = [z for z in data["zones"] if not drop(z)]
    return data


def _layout_errors() -> list[str]:
    """The words of every error `parse_layout` raises, one broken layout each."""
    changes: list[Any] = [
        lambda d: [],
        lambda d: {**d, "format": "carolus-layout/0"},
        lambda d: {**d, "size_mm": [10]},
        lambda d: {**d, "aruco_dictionary": "ARUCO"},
        lambda d: {**d, "markers": d["markers"][:3]},
        lambda d: {**d, "markers": [{"id": "0"}, *d["markers"][1:]]},
        lambda d: {**d, "markers": [{"id": 0, "corners_mm": [[1, 2]]}, *d["markers"][1:]]},
        lambda d: {
            **d,
            "markers": [{"id": 0, "corners_mm": [[1, 2], [3, 4], [5, 6], "x"]}, *d["markers"][1:]],
        },
        lambda d: {**d, "zones": {}},
        lambda d: {**d, "zones": [{"kind": "kitchen"}]},
        lambda d: {**d, "zones": [{"kind": "pool", "polygon_mm": [[1, 2]]}]},
        lambda d: {**d, "pieces_mm": []},
        lambda d: {**d, "pieces_mm": {**d["pieces_mm"], "cube": 0}},
        lambda d: _without(d, lambda z: z.get("territory") == 7),
        lambda d: _without(d, lambda z: z["kind"] == "court" and z.get("seat") != "south"),
        lambda d: _without(d, lambda z: z["kind"] == "reserve" and z.get("seat") == "north"),
        lambda d: _without(d, lambda z: z["kind"] == "pool"),
    ]
    errors = []
    for change in changes:
        with pytest.raises(LayoutError) as caught:
            parse_layout(change(_layout()), "mat.json")
        errors.append(str(caught.value))
    assert len(set(errors)) == len(errors)
    return errors


def _file_errors(tmp_path: Path) -> list[str]:
    """The words of every error reading a layout or a calibration file raises."""
    missing = tmp_path / "none.json"
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe{")
    notes = tmp_path / "notes.json"
    notes.write_text("not json")
    errors = []
    for path in (missing, binary, notes):
        with pytest.raises(LayoutError) as bad_layout:
            load_layout(path)
        errors.append(str(bad_layout.value))
        with pytest.raises(CalibrationError) as bad_calibration:
            load(path)
        errors.append(str(bad_calibration.value))
    for calibration in (
        {"format": "carolus-calibration/0"},
        {"format": "carolus-calibration/1"},
        {"format": "carolus-calibration/1", "colours": {}, "bare_table": 3},
        {"format": "carolus-calibration/1", "colours": {}, "bare_table": "xx"},
    ):
        notes.write_text(json.dumps(calibration))
        with pytest.raises(CalibrationError) as caught:
            load(notes)
        errors.append(str(caught.value))
    return errors


def test_every_layout_and_calibration_error_is_said_in_every_language(tmp_path: Path) -> None:
    errors = _layout_errors() + _file_errors(tmp_path)
    for text in errors:
        message = said_reason(text)
        assert isinstance(message, Said), text  # matched to its msgid
        assert message == text  # the English word for word
        for lang in ("de", "it", "hu", "fi"):
            said = translated(message, language(lang))
            assert said != text and "%(" not in said, (lang, said)
            # what the system, the JSON reader and the bare table say stays as they word it
            own = ("No such file", "Expecting value", "codec", "base64")
            if not any(words in text for words in own):
                assert not english(said, message), (lang, said)


def test_vision_says_a_bad_layout_and_calibration_in_the_language_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image = tmp_path / "frame.png"
    image.write_text("not a picture")
    layout = tmp_path / "layout.json"
    layout.write_text(json.dumps({**_layout(), "zones": [{"kind": "kitchen"}]}))
    read = ["vision", "read", str(image), "--layout", str(layout)]
    hungarian = refused(capsys, *read, "--language", "hu")
    assert hungarian == f"carolus: {layout}: zones[0].kind értéke 'kitchen'"
    assert refused(capsys, *read) == f"carolus: {layout}: zones[0].kind is 'kitchen'"
    layout.write_text(json.dumps({**_layout(), "markers": []}))
    calibrate = ["vision", "calibrate", str(image), "--out", str(tmp_path / "c.json")]
    hungarian = refused(capsys, *calibrate, "--layout", str(layout), "--language", "hu")
    assert hungarian == f"carolus: {layout}: a(z) 'markers' mezőben legalább 4 jelölő kell"
    assert not english(hungarian)
    calibration = tmp_path / "calibration.json"
    calibration.write_text(json.dumps({"format": "carolus-calibration/0"}))
    read = ["vision", "read", str(image), "--calibration", str(calibration)]
    hungarian = refused(capsys, *read, "--language", "hu")
    assert hungarian == (
        f"carolus: {calibration}: a(z) 'format' mező értéke nem 'carolus-calibration/1'"
    )
    assert not english(hungarian)
    assert refused(capsys, *read) == (
        f"carolus: {calibration}: field 'format' is not 'carolus-calibration/1'"
    )


def test_follow_says_a_bad_calibration_in_the_language_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("cv2")
    folder = tmp_path / "frames"
    folder.mkdir()
    (folder / "0001.png").write_text("not read: the calibration is refused first")
    calibration = tmp_path / "calibration.json"
    calibration.write_text(json.dumps({"format": "carolus-calibration/1"}))
    argv = ["follow", str(folder), "--players", PLAYERS, "--calibration", str(calibration)]
    assert refused(capsys, *argv, "--language", "hu") == (
        f"carolus follow: {calibration}: hiányzik a(z) 'colours' mező"
    )
    assert refused(capsys, *argv) == f"carolus follow: {calibration}: field 'colours' missing"


def test_run_says_a_bad_layout_in_the_tables_language(tmp_path: Path) -> None:
    from firmware.config import load_config
    from firmware.run import _vision

    layout = tmp_path / "layout.json"
    layout.write_text(json.dumps({**_layout(), "pieces_mm": {**_layout()["pieces_mm"], "cube": 0}}))
    config_file = tmp_path / "carolus.toml"
    config_file.write_text(f'[camera]\nlayout = "{layout}"\n')
    with pytest.raises(ValueError) as caught:
        _vision(load_config(config_file))
    message = caught.value.args[0]
    assert message == f"{layout}: pieces_mm.cube is 0"
    assert translated(message, language("hu")) == f"{layout}: pieces_mm.cube értéke 0"


def test_run_says_the_logs_own_words_and_a_bad_calibration_in_the_tables_language(
    tmp_path: Path,
) -> None:
    """``carolus run`` at a Hungarian table: the game log's warning (a damaged file moved
    aside) and a calibration file that is not one, each with a non-zero exit where it
    stops, no traceback; SQLite's words inside stay as SQLite says them."""
    import subprocess
    import sys

    stream = tmp_path / "table.jsonl"
    stream.write_text(json.dumps(_snapshot()) + "\n")
    damaged = tmp_path / "games.db"
    damaged.write_bytes(b"x" * 2000)
    settings = tmp_path / "carolus.toml"
    settings.write_text('language = "hu"\n')
    command = [sys.executable, "-m", "firmware", "run", "--config", str(settings), "--no-web"]
    env = {k: v for k, v in os.environ.items() if k != "CAROLUS_DB"}
    source = ["--source", f"snapshots:{stream}", "--db", str(damaged)]
    run = subprocess.run([*command, *source], capture_output=True, text=True, timeout=120, env=env)
    assert "Traceback" not in run.stderr
    warning = next(line for line in run.stderr.splitlines() if line.startswith("játéknapló: "))
    assert warning.startswith(
        f"játéknapló: a(z) {damaged} játéknapló sérült volt (file is not a database); "
    )
    calibration = tmp_path / "calibration.json"
    calibration.write_text(json.dumps({"format": "carolus-calibration/0"}))
    settings.write_text(f'language = "hu"\n[camera]\ncalibration = "{calibration}"\n')
    run = subprocess.run(
        [*command, "--no-log", "--source", f"images:{tmp_path}"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.strip().splitlines()[-1] == (
        f"carolus run: {calibration}: a(z) 'format' mező értéke nem 'carolus-calibration/1'"
    )


# ------------------------------------------------------------------ calibrating from the page


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_a_calibration_from_the_page_that_fails_says_why_in_the_tables_language(
        lang: str) -> None:
    """The page's Calibrate button on a frame with no mat in it: the vision's reason
    (markers not found) is said in the table's language, not quoted in English."""
    import numpy as np

    from firmware.camera import CameraView
    from vision.reader import Reader

    layout = load_layout()
    view = CameraView(Reader(layout), layout)
    view._frame = np.full((480, 640, 3), 127, np.uint8)
    answer = view.calibrate()
    assert answer["ok"] is False
    message = answer["message"]
    shown = translated(message, language(lang))
    english_text = translated(message, language("en"))
    reason = english_text.removeprefix("Calibration failed: ")
    assert reason != english_text and reason
    assert reason not in shown, shown          # the reason said again, not quoted
    assert CHECK["_words"](shown) & CHECK["ENGLISH_WORDS"] - SAME == set(), shown
