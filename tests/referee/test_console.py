"""`carolus play`: a person types a game in and the referee answers."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from firmware.cli import main
from referee.check import check_file


def play(monkeypatch, capsys, text: str, *args: str) -> str:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert main(["play", "--seed", "5", *args]) == 0
    return str(capsys.readouterr().out)


def test_a_turn_typed_in_is_refereed_and_recorded(monkeypatch, capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    record = tmp_path / "game.json"
    out = play(
        monkeypatch,
        capsys,
        "Anna 3\nBob 2\ncourt g g; 4 r\n2\nroll\nquit\n",
        "--record",
        str(record),
    )
    assert "Bob gains control of green" in out
    assert "The emperor moves 2 steps to territory 15." in out
    assert "Round 1: Anna's turn (disc 3)." in out
    verdict = check_file(record)
    assert verdict.legal
    data = json.loads(record.read_text())
    assert data["rounds"][0]["discs"] == [["Anna", 3], ["Bob", 2]]
    turn = data["rounds"][0]["turns"][0]
    assert turn["court"] == ["green", "green"] and turn["territories"] == {"4": ["red"]}


def test_refused_moves_are_explained_and_asked_again(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    out = play(
        monkeypatch,
        capsys,
        "Anna 6\nAnna 3\nBob 3\nBob 2\ncourt r r r r\ncourt purple\n9 red\ncourt g g; 4 r\n9\n",
    )
    assert "discs are numbered 1 to 5" in out
    assert "disc 3 is already chosen this round" in out
    assert "Bob played 4 cubes; each turn plays exactly 3" in out
    assert "'purple' is not a colour" in out
    assert "Bob played disc 2: the emperor moves 1 to 2 steps, not 9" in out


def test_undo_and_majority(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    out = play(monkeypatch, capsys, "Anna 3\nundo\nAnna 2\nmajority 4\nmajority 99\n")
    assert "took back Anna's move: Anna lays disc 3." in out
    assert "territory 4: 1 pink" in out
    assert "majority wants a territory number 1-15" in out


def test_bad_players_argument_is_a_clear_error() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "firmware", "play", "--players", "Anna:purple,Bob:black"],
        capture_output=True,
        text=True,
        input="",
    )
    assert result.returncode == 2
    assert "Anna:purple" in result.stderr
    assert "Traceback" not in result.stderr


def test_undo_says_the_move_as_it_was_announced(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    # the sentence of the move itself (`say_move`), never a Python repr
    out = play(monkeypatch, capsys, "Anna 3\nBob 2\ncourt g g; 4 r\n2\nundo\nundo\n")
    assert "took back Bob's move: The emperor moves 2 steps to territory 15." in out
    assert "took back Bob's move: Bob plays 2 green to his court; 1 red on territory 4." in out
    assert "MoveEmperor(" not in out and "PlayCubes(" not in out


def test_a_castle_just_built_is_told_as_built_not_kept(monkeypatch, capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # the example's round 1, typed from Anna's turn on: her emperor stops on 6, where her
    # red cube builds white's first castle
    example = Path(__file__).resolve().parents[2] / "examples" / "club-night.json"
    data = json.loads(example.read_text())
    data["rounds"][0]["turns"] = data["rounds"][0]["turns"][:1]  # up to Anna's turn
    start = tmp_path / "start.json"
    start.write_text(json.dumps(data))
    out = play(monkeypatch, capsys, "court r r p\n3\n", "--resume", str(start))
    built = out[out.index("The emperor moves 3 steps to territory 6.") :]
    assert "-> white built a castle" in built
    assert "White builds a castle on territory 6." in built
    assert "keeps it" not in built and "would" not in built


def test_the_referee_speaks_the_language_asked_for(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    """``--language``: the prompts, the announcements, the rules' refusals and Undo in
    German (the words typed in stay the command's English)."""
    out = play(
        monkeypatch,
        capsys,
        "Anna 6\nAnna 3\nBob 2\ncourt r r r r\ncourt g g; 4 r\n9\n2\nundo\n2\nroll\n",
        "--language",
        "de",
    )
    assert "discs are numbered" not in out and "choose a disc" not in out
    assert "Carolus Magnus, 2 Spieler." in out
    assert (
        "[Runde 1, Zahlenscheiben werden gewählt] Anna oder Bob, wähle eine Zahlenscheibe> " in out
    )
    assert "[Runde 1, Zug 1] Bob setzt 3 Ritter aus 1 Rot, 3 Grün, 1 Gelb, 2 Blau> " in out
    assert "Anna hat Zahlenscheibe 6 gewählt; die Zahlenscheiben tragen die Zahlen 1 bis 5" in out
    assert "Bob hat 4 Ritter eingesetzt; jeder Zug setzt genau 3" in out
    assert "Bob hat Zahlenscheibe 2 gespielt: der Kaiser zieht 1 bis 2 Schritte, nicht 9" in out
    assert "Runde 1: Anna ist am Zug (Zahlenscheibe 3)." in out
    assert "Der Kaiser zieht 2 Schritte nach Provinz 15." in out
    assert "Zug von Bob zurückgenommen: Der Kaiser zieht 2 Schritte nach Provinz 15." in out


def test_the_table_lines_and_majorities_speak_hungarian(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    """``--language hu``: the table lines, the ring and the majorities are Hungarian
    too, in the glossary's words (issue 17); the English default stays as it was."""
    out = play(
        monkeypatch, capsys, "Anna 3\nBob 2\ncourt g g; 4 r\n2\nmajority 4\n", "--language", "hu"
    )
    assert (
        "  Anna (fehér): 0 vár, nincs befolyása; várlap: semmit; tartalék: 1 vörös, 2 zöld, "
        "2 kék, 2 rózsaszín\n" in out
    )
    assert "  A tartományok (óramutató járásával egyezően, * császár): 1:V1 2:Z1 3:R1 " in out
    assert "4. tartomány — 1 vörös, 1 rózsaszín\n  fehér: 0\n  fekete: 0\n" in out
    assert "  -> semmi sem történne" in out and "    -> semmi sem történt" in out
    for english in ("castle", "controls", "court", "reserve", "Ring", "clockwise", "nothing"):
        assert english not in out, english
    out = play(monkeypatch, capsys, "Anna 3\nBob 2\ncourt g g; 4 r\n2\nmajority 4\n")
    assert "  Anna (white): 0 castles, controls no colour; court no cubes; reserve 1 red" in out
    assert "  Ring (clockwise, * emperor): 1:R1 2:G1 3:P1 " in out
    assert "territory 4: 1 red, 1 pink\n  white 0\n  black 0\n  -> nothing would happen" in out


def test_what_was_typed_wrong_is_said_in_hungarian(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    """The console's own refusals in the language asked for (the typed words quoted)."""
    out = play(
        monkeypatch,
        capsys,
        "x\nmajority 99\nsave\nAnna 3\nBob 2\ncourt g g; 4 r\nfar\n",
        "--language",
        "hu",
    )
    assert "  ! írd be a választó nevét és a korong számát, például 'Anna 3'" in out
    assert "  ! a 'majority' után egy tartomány száma kell, 1–15" in out
    assert "  ! a 'save' után fájlnév kell" in out
    assert "  ! írd be a lépések számát" in out
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "--players", "Anna:purple,Bob:black", "--language", "hu"]) == 2
    assert capsys.readouterr().err == (
        "carolus play: a(z) --players formája NAME:CASTLES,..., várszínek: fehér, fekete, "
        "szürke; ez van: 'Anna:purple'\n"
    )


def test_a_malformed_record_to_resume_is_said_in_hungarian(  # type: ignore[no-untyped-def]
    monkeypatch, capsys, tmp_path
) -> None:
    """``--resume`` a file that is not a record: why, in the language asked for (issue 17);
    the field's path as it is in the file."""
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "carolus-record/1"}')
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "--resume", str(bad), "--language", "hu"]) == 2
    assert capsys.readouterr().err == (
        f"carolus play: {bad}: players: hiányzik egy kötelező mező\n"
    )
