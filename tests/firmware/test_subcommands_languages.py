"""Every ``carolus`` sub-command speaks the operator's language (issue 17): ``carolus
games``, ``carolus vision`` / ``carolus mat``, ``carolus follow`` and ``carolus advise``
say their own refusals, progress and results in ``--language`` (Hungarian and German
here), each bad input a sentence naming the file, field or value with a non-zero exit
and never a traceback; the buttons' and the voice's notes that their hardware is
missing are said in the table's language. Without ``--language`` the English is word
for word what it was."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from firmware.cli import main
from firmware.config import GpioConfig
from firmware.controls import Controls, NoControls, open_controls
from firmware.follow import Progress
from firmware.hub import CommandError
from firmware.run import language, telling
from firmware.voice import Voice
from referee.announcements import said, translated
from vision.cli import said_reason

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "records"
PLAYERS = "south=Anna:white,north=Bob:black"


def refused(capsys: pytest.CaptureFixture[str], *argv: str, code: int = 2) -> str:
    """What a command said on stderr, after checking its exit code."""
    assert main(list(argv)) == code
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err.strip()


@pytest.fixture
def empty_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "games.db"
    monkeypatch.setenv("CAROLUS_DB", str(path))
    return path


# ------------------------------------------------------------------ carolus games


def test_games_says_its_refusals_in_the_language_asked(
    empty_log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert refused(capsys, "games", "show", "7", "--language", "hu") == (
        "carolus games: a játéknaplóban nincs 7 azonosítójú játék"
    )
    assert refused(capsys, "games", "--language", "de", "replay", "3", "--all") == (
        "carolus games: kein Spiel 3 im Spielprotokoll"
    )
    assert refused(capsys, "games", "export", "--language", "de") == (
        "carolus games: Export: nenne Spielnummern oder --all"
    )
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert refused(capsys, "games", "import", str(bad), "--language", "hu") == (
        f"carolus games: {bad}: érvénytelen játékjegyzőkönyv (mező: format): "
        "hiányzik egy kötelező mező"
    )
    broken = str(GOLDEN / "illegal-supply-empty.json")
    said_hu = refused(capsys, "games", "import", broken, "--language", "hu", code=1)
    assert said_hu.startswith(f"carolus games: {broken}: elutasítva: ")


def test_games_says_what_it_did_in_the_language_asked(
    empty_log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["games", "list", "--language", "hu"]) == 0
    assert capsys.readouterr().out == "Nincs játék.\n"
    record = str(GOLDEN / "ends-on-castles.json")
    assert main(["games", "import", record, "--language", "hu"]) == 0
    assert capsys.readouterr().out == f"{record}: megőrizve 1. játékként (befejezett)\n"
    assert main(["games", "import", record, "--language", "de"]) == 0
    assert capsys.readouterr().out == f"{record}: schon im Spielprotokoll als Spiel 1\n"
    out = tmp_path / "out"
    assert main(["games", "export", "1", "--out", str(out), "--language", "hu"]) == 0
    assert capsys.readouterr().out == f"{out / 'carolus-game-0001.json'}: 1. játék (befejezett)\n"
    assert main(["games", "replay", "1", "--all", "--language", "hu"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "1. játék: Anna (fehér), Bob (fekete)"
    assert lines[-1] == "Vége a játéknaplónak."
    assert main(["games", "list", "--player", "Zed", "--language", "de"]) == 0
    assert capsys.readouterr().out == "Keine Spiele passen.\n"


def test_games_in_english_is_word_for_word_what_it_was(
    empty_log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert refused(capsys, "games", "show", "7") == "carolus games: no game 7 in the log"
    assert refused(capsys, "games", "export") == "carolus games: export: name game IDs or --all"
    record = str(GOLDEN / "ends-on-castles.json")
    assert main(["games", "import", record]) == 0
    assert capsys.readouterr().out == f"{record}: kept as game 1 (finished)\n"
    assert main(["games", "replay", "1", "--all"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Game 1: Anna (white), Bob (black)"
    assert lines[-1] == "End of the game log."


# ------------------------------------------------------------------ carolus vision, mat


def test_vision_and_mat_refuse_in_the_language_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.png"
    assert refused(capsys, "vision", "read", str(missing), "--language", "hu") == (
        f"carolus: {missing}: nincs ilyen képfájl"
    )
    notes = tmp_path / "notes.txt"
    notes.write_text("not a picture")
    assert refused(capsys, "vision", "read", str(notes), "--fps", "0", "--language", "de") == (
        "carolus: vision read: --fps 0.0 muss größer als 0 sein"
    )
    out = tmp_path / "calibration.json"
    assert (
        refused(capsys, "vision", "calibrate", str(notes), "--out", str(out), "--language", "de")
        == f"carolus: {notes}: keine Bilddatei"
    )
    assert refused(capsys, "mat", "--language", "hu") == (
        "carolus: szőnyeg: adj meg ezek közül egyet: --png FILE, --pdf FILE vagy --layout FILE"
    )
    assert refused(capsys, "mat", "--png", str(out), "--px-per-mm", "99", "--language", "de") == (
        "carolus: Matte: --px-per-mm 99.0 muss in (0, 40] liegen"
    )
    # English, word for word
    assert (
        refused(capsys, "vision", "read", str(missing)) == f"carolus: {missing}: no such image file"
    )
    assert refused(capsys, "mat") == "carolus: mat: give --png FILE, --pdf FILE or --layout FILE"


@pytest.mark.parametrize(
    ("reason", "hungarian"),
    [
        (
            "not a calibration frame: the mat's markers are not found",
            "nem kalibrációs kép: a szőnyeg jelölői nem találhatók",
        ),
        (
            "3 of the mat's 12 markers found, at least 4 are needed",
            "a szőnyeg 12 jelölőjéből 3 látszik, legalább 4 kell",
        ),
        (
            "not a calibration frame: the swatches for the red, blue cube hold no cube (put "
            "each piece on its calibration spot)",
            "nem kalibrációs kép: a(z) vörös, kék lovag mintahelyén nincs lovag (tegyél minden "
            "darabot a kalibrációs helyére)",
        ),
        ("no marker of the mat in the frame", "a képen nincs a szőnyeg egyetlen jelölője sem"),
    ],
)
def test_the_visions_own_reasons_are_said_again_in_the_language_asked(
    reason: str, hungarian: str
) -> None:
    message = said_reason(reason)
    assert message == reason  # English as the vision words it
    assert translated(message, language("hu")) == hungarian
    other = "the camera's driver gave up"
    assert said_reason(other) == other  # a reason the catalogs do not know stays as it is


# ------------------------------------------------------------------ carolus follow


def test_follow_refuses_bad_input_in_the_language_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.jsonl"
    assert refused(capsys, "follow", str(missing), "--players", PLAYERS, "--language", "hu") == (
        f"carolus follow: {missing}: nincs ilyen fájl vagy mappa"
    )
    seats = "middle=Anna:white,north=Bob:black"
    assert refused(capsys, "follow", str(missing), "--players", seats, "--language", "de") == (
        "carolus follow: --players: unbekannter Platz 'middle' (Plätze: south, west, north, east)"
    )
    stream = tmp_path / "cut.jsonl"
    stream.write_text('{"format": "carolus-snapshot/1"')
    assert refused(capsys, "follow", str(stream), "--players", PLAYERS, "--language", "hu") == (
        f"carolus follow: {stream}:1: nem JSON: Expecting ',' delimiter (a sor félbeszakad: "
        "csonka a fájl?)"
    )
    assert (
        refused(
            capsys, "follow", str(stream), "--players", PLAYERS, "--fps", "0", "--language", "de"
        )
        == "carolus follow: --fps 0: muss größer als 0 sein"
    )
    # English, word for word
    assert refused(capsys, "follow", str(missing), "--players", seats) == (
        "carolus follow: --players: unknown seat 'middle' (seats: south, west, north, east)"
    )


def test_follow_says_why_no_game_began_in_the_language_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    record = tmp_path / "game.json"
    argv = ["follow", str(empty), "--players", PLAYERS]
    assert refused(capsys, *argv, "--language", "hu", code=1) == (
        "nem kezdődött játék: az asztalon sosem látszott minden játékos 5 korongja a tartóban, "
        "majd egy, amely kikerül onnan (ellenőrizd az oldalakat itt: --players)"
    )
    assert refused(capsys, *argv, "--record", str(record), "--language", "de", code=1) == (
        f"{record}: nicht geschrieben: kein Spiel hat begonnen: der Tisch zeigte nie die 5 "
        "Zahlenscheiben jedes Spielers in der Ablage und danach eine, die sie verlässt (prüfe "
        "die Plätze in --players)"
    )
    assert refused(capsys, *argv, code=1) == (
        "no game began: the table never showed every player's 5 discs in the tray and then "
        "one leaving it (check the seats in --players)"
    )


def test_follows_progress_line_in_the_language_asked() -> None:
    shown = io.StringIO()
    progress = Progress(shown, language("hu"))
    progress.show(12.5, 0.5)
    assert shown.getvalue() == "\r  követés…  50.0%  asztali idő: 12.5 mp  "
    english = io.StringIO()
    Progress(english).show(12.5, 0.5)
    assert english.getvalue() == "\r  following…  50.0%  table time 12.5s  "


# ------------------------------------------------------------------ carolus advise


def test_advise_refuses_and_advises_in_the_language_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    # said as `carolus check` says it
    assert refused(capsys, "advise", str(bad), "--language", "hu") == (
        f"{bad}: érvénytelen játékjegyzőkönyv (mező: format): hiányzik egy kötelező mező"
    )
    assert refused(capsys, "advise", str(bad)) == (
        f"{bad}: not a valid record in format: required field is missing"
    )
    broken = str(GOLDEN / "illegal-supply-empty.json")
    assert refused(capsys, "advise", broken, "--language", "de", code=1) == (
        f"{broken}: verstößt gegen eine Regel (supply-empty): Anna nimmt 2 Grün, aber der "
        "Vorrat hat nur 0 (jeder Spieler muss zuerst 2 Grün aus seinem Burghof zurückgeben)"
    )
    example = str(ROOT / "examples" / "club-night.json")
    assert refused(capsys, "advise", example, "--player", "Zed", "--language", "hu") == (
        f"{example}: --player 'Zed' nem játékos (Anna, Bob)"
    )
    assert main(["advise", example, "--language", "hu"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("2. forduló, korongválasztás (a fenyegetések")
    assert "Fenyegetések:" in lines
    over = str(GOLDEN / "ends-on-castles.json")
    assert main(["advise", over, "--language", "hu"]) == 0
    assert capsys.readouterr().out == (
        "Vége a játéknak: Anna nyer (várak 10 tartományon), 5. forduló, 2. kör.\n"
    )
    # English, word for word
    assert main(["advise", over]) == 0
    assert capsys.readouterr().out == (
        "The game is over: Anna wins (castles on 10 territories) in round 5, turn 2.\n"
    )
    assert refused(capsys, "advise", example, "--player", "Zed") == (
        f"{example}: --player 'Zed' is not a player (Anna, Bob)"
    )


# ------------------------------------------------------------------ the hardware's notes


class RefusingHub:
    def press(self, button: str, long: bool = False) -> object:
        raise CommandError(said("no game is running"))


def test_the_buttons_notes_in_the_tables_language(capsys: pytest.CaptureFixture[str]) -> None:
    factory = MockFactory()
    hub = RefusingHub()
    say = telling(language("hu"))
    busy = Controls(hub, pin_factory=factory, pins=GpioConfig())
    try:  # the pins are taken: opening them again fails, and that is said once
        controls = open_controls(hub, GpioConfig(), say, pin_factory=factory)
        assert isinstance(controls, NoControls)
        note = capsys.readouterr().err
        assert note.startswith("GPIO: a gombok, a LED-ek és a csipogó nem érhetők el (")
        assert note.rstrip().endswith("); nélkülük fut tovább")
        pressed = Controls(hub, pin_factory=MockFactory(), pins=GpioConfig(), say=say)
        try:
            pressed._press("confirm", long=False)
            assert capsys.readouterr().err == "Megerősítés gomb: nincs folyamatban játék\n"
        finally:
            pressed.close()
    finally:
        busy.close()
    english: list[str] = []
    again = Controls(hub, pin_factory=MockFactory(), pins=GpioConfig(), say=english.append)
    try:
        again._press("majorities", long=False)
    finally:
        again.close()
    assert english == ["majorities button: no game is running"]


def test_the_voices_notes_in_the_tables_language(capsys: pytest.CaptureFixture[str]) -> None:
    Voice(True, "hu", which=lambda name: None, say=telling(language("hu")))
    assert capsys.readouterr().err == (
        "hang: az espeak-ng nem található (sudo apt install espeak-ng); hang nélkül fut tovább\n"
    )
    english: list[str] = []
    Voice(True, "hu", which=lambda name: None, say=english.append)
    assert english == ["voice: espeak-ng not found (sudo apt install espeak-ng); running silent"]


# ------------------------------------------------------------------ the real command


def test_no_traceback_from_the_real_command() -> None:
    """The installed entry point, as the operator types it (a fresh process)."""
    run = subprocess.run(
        [sys.executable, "-m", "firmware", "advise", "/nonexistent.json", "--language", "hu"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.startswith("/nonexistent.json: érvénytelen játékjegyzőkönyv: ")
    assert json.dumps(run.stderr)  # one line of text
