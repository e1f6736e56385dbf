"""``carolus games list|show|stats|replay`` say their tables and the game's story in
``--language`` (issue 17), and so do the game log's own errors and warnings and why an
import is rejected (`firmware.gamelog.store`): a small log told in Hungarian and German
has no English word left (the English-words check of the catalogs' tests, as
``tests/firmware/test_demo_hungarian.py`` uses it), each error names its file, field or
value, the exit codes are the English ones, and without ``--language`` the English is
word for word what it was."""

from __future__ import annotations

import json
import re
import runpy
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from gamelog_play import log_game, two_players

from firmware.cli import main
from firmware.gamelog import schema
from firmware.gamelog.store import GameLog
from referee.moves import ChooseDisc, move_to_json
from referee.record import UNFINISHED_TURN

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "records"
T0 = 1_790_000_000.0  # 2026-09-21


#: The English-words check of the catalogs' tests (tests/referee, not on this test's
#: import path): every msgid's words, minus the words the languages share.
CHECK = runpy.run_path(str(ROOT / "tests" / "referee" / "test_announcements_languages.py"))


def english(text: str) -> set[str]:
    """The English words in ``text`` (none in a Hungarian or German line)."""
    found: set[str] = CHECK["_words"](text) & CHECK["ENGLISH_WORDS"]
    return found


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def small_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished game, a running one, an imported game with a takeover and an imported
    draw (its notes, the players' own words, left out): written once for the module."""
    db = tmp_path_factory.mktemp("log") / "games.sqlite3"
    with GameLog(db) as log:
        log_game(log, two_players(1), seed=1, t0=T0)  # game 1: finished
        log_game(log, two_players(7), seed=7, moves=9, finish=False, t0=T0 + 86_400)  # 2
        log.import_record(json.loads((GOLDEN / "takeover.json").read_text()), "takeover")  # 3
        draw = json.loads((GOLDEN / "ends-in-a-draw.json").read_text())
        draw.pop("meta", None)
        log.import_record(draw, "draw")  # 4
    return db


@pytest.fixture
def small(small_log: Path, copy_of: Callable[[Path], Path]) -> Path:
    """This test's own copy of `small_log`."""
    return copy_of(small_log)


ACTIONS = [
    ("list",),
    ("show", "1"),
    ("show", "2"),
    ("show", "3"),
    ("show", "4"),
    ("stats",),
    ("replay", "1", "--all"),
    ("replay", "3", "--all"),
]


@pytest.mark.parametrize("lang", ["hu", "de"])
@pytest.mark.parametrize("action", ACTIONS, ids=" ".join)
def test_tables_and_story_have_no_english_word(
    small: Path, capsys: pytest.CaptureFixture[str], action: tuple[str, ...], lang: str
) -> None:
    code, out, err = run(capsys, "games", *action, "--db", str(small), "--language", lang)
    assert code == 0 and err == ""
    assert out.strip()
    left = {line: english(line) for line in out.splitlines() if english(line)}
    assert not left, left
    english_code, english_out, _ = run(capsys, "games", *action, "--db", str(small))
    assert english_code == 0 and english_out != out


def test_the_story_in_hungarian_and_german(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games", "list", "--db", str(small), "--language", "hu")
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == [
        "szám",
        "dátum",
        "forrás",
        "játékosok",
        "/",
        "eredmény",
    ]
    assert lines[1].split()[:4] == ["1", "2026-09-21", "asztal", "Anna"]
    assert "Bob nyer (várak 10 tartományon), " in lines[2]
    assert "importált" in out and "döntetlen (4-nél kevesebb tartomány maradt)" in out
    code, out, _ = run(capsys, "games", "show", "3", "--db", str(small), "--language", "de")
    assert out.splitlines()[0].startswith("Spiel 3: unvollendet, importiert (")
    assert "Wichtige Übernahmen:" in out and "übernimmt" in out
    code, out, _ = run(capsys, "games", "show", "2", "--db", str(small), "--language", "de")
    assert "Ergebnis: läuft, Runde 2, " in out and "; das Spiel geht weiter" in out
    code, out, _ = run(capsys, "games", "stats", "--db", str(small), "--language", "de")
    assert out.startswith("Spiele: 4 (2 beendet, 1 unvollendet, 1 laufend)")
    assert "Siege je Spieler (beendete Spiele):" in out


def test_the_english_is_word_for_word_what_it_was(
    small: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "games", "list", "--db", str(small))
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "  id  date        source  players / result"
    assert lines[1] == "   1  2026-09-21  table   Anna (white, south), Bob (black, north)"
    assert lines[2].startswith(" " * 26 + "Bob wins (castles on 10 territories) in round ")
    _, out, _ = run(capsys, "games", "show", "4", "--db", str(small))
    lines = out.splitlines()
    assert re.fullmatch(r"Game 4: finished, import \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\)", lines[0])
    assert lines[2] == "Result: draw (fewer than 4 territories left) in round 4, turn 2"
    assert lines[3:5] == [
        "Territories under castles at the end of each round:",
        "  round   white  black",
    ]
    _, out, _ = run(capsys, "games", "stats", "--db", str(small))
    assert out.startswith("Games: 4 (2 finished, 1 unfinished, 1 running)\n")
    assert "\nWins per player (finished games):\n  Bob                1 of 2   (50%)\n" in out


# ------------------------------------------------------------------ the log's own errors


def test_a_log_of_a_newer_carolus_is_said_in_the_language_asked(
    small: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with sqlite3.connect(small) as conn:
        conn.execute("PRAGMA user_version = 99")
    conn.close()
    said = {
        "hu": f"a játéknapló sémája 99; ez a Carolus legfeljebb a(z) {schema.LATEST}. sémát ismeri",
        "de": f"das Spielprotokoll hat die Schemaversion 99; dieses Carolus kennt sie bis "
        f"{schema.LATEST}",
        None: f"the game log has schema 99; this Carolus knows up to {schema.LATEST}",
    }
    for lang, reason in said.items():
        language = ["--language", lang] if lang else []
        code, out, err = run(capsys, "games", "list", "--db", str(small), *language)
        assert code == 1 and out == ""
        assert err == f"carolus games: {small}: {reason}\n"
        if lang:
            assert not english(reason)


def test_a_damaged_log_is_moved_aside_and_said_so(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db.parent.mkdir(parents=True)
    db.write_bytes(b"not a database at all, " * 200)
    code, out, err = run(capsys, "games", "list", "--db", str(db), "--language", "hu")
    assert code == 0 and out == "Nincs játék.\n"
    found = re.fullmatch(
        rf"carolus games: figyelmeztetés: a\(z\) {re.escape(str(db))} játéknapló sérült volt "
        r"\((?P<reason>.+)\); félretéve (?P<aside>\S+) néven, és új napló indult\n",
        err,
    )
    assert found, err
    assert (db.parent / found["aside"]).is_file()  # the file named is the one kept aside


def test_why_an_import_is_rejected_is_said_in_the_language_asked(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = GOLDEN / "illegal-supply-empty.json"
    said = {
        "de": "abgelehnt: verstößt gegen eine Regel in Runde 1, Zug 2 — supply-empty: ",
        "hu": "elutasítva: szabályt sért a(z) 1. forduló 2. körében — supply-empty: ",
        None: "rejected: breaks a rule in round 1, turn 2 — supply-empty: Anna takes 2 green",
    }
    for lang, start in said.items():
        language = ["--language", lang] if lang else []
        code, out, err = run(capsys, "games", "import", str(broken), "--db", str(db), *language)
        assert code == 1 and out == ""
        head = f"carolus games: {broken}: "
        assert err.startswith(head + start), err
        if lang:  # the rule's code is its name in the record's format, as `carolus check`'s
            assert not english(err[len(head) :].replace("supply-empty", "")), err
    after = GOLDEN / "illegal-after-end.json"
    code, _, err = run(capsys, "games", "import", str(after), "--db", str(db), "--language", "hu")
    assert code == 1
    assert err.startswith(
        f"carolus games: {after}: elutasítva: szabályt sért a(z) 6. fordulóban, korongválasztáskor"
    )


def test_steps_left_out_of_an_import_are_said_in_the_language_asked(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads((GOLDEN / "takeover.json").read_text())
    steps = [move_to_json(ChooseDisc("Bob", 9))]
    record["meta"] = {UNFINISHED_TURN: {"why": "test", "steps": steps}}
    path = tmp_path / "mid-turn.json"
    path.write_text(json.dumps(record))
    code, out, err = run(capsys, "games", "import", str(path), "--db", str(db), "--language", "de")
    assert code == 0
    assert out == f"{path}: aufgenommen als Spiel 1 (unvollendet)\n"
    head = f"carolus games: {path}: 1 der 1 Schritte des unvollendeten Zuges wurden weggelassen: "
    assert err.startswith(head), err
    assert "9" in err and not english(err[len(head) :]), err
