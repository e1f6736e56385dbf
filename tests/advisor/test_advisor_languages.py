"""The advisor's reasons in every language (issue 17): each message the advisor says
(`referee/advisor/`: threats, exposure, hints, the review) renders a whole sentence in
en, de, it, hu and fi with no English word left (the check of
`tests/referee/test_announcements_languages.py`), real positions said in every
language, and ``carolus advise --language hu`` in Hungarian; English word for word."""

from __future__ import annotations

import argparse
import random
import re
from pathlib import Path
from typing import Any

import pytest
from advisor_languages import english_words
from babel.messages.extract import extract_from_file

from referee.advisor import advise, cli, review
from referee.advisor.hints import hint_player
from referee.advisor.review import describe
from referee.announcements import clause, said, translated
from referee.game import Game, Phase
from referee.moves import MoveEmperor
from referee.record import Record
from referee.selfplay import (
    choose_disc,
    play_game,
    random_player,
    roll_refill,
    table_players,
)
from referee.setup import Setup
from web.i18n import LANGUAGES, translations

ADVISOR = Path(__file__).resolve().parents[2] / "referee" / "advisor"
#: The command line's own words are checked with the other commands'; these two put the
#: advisor's reasons into its lines.
CLI = ("Hint for %(player)s: %(clause)s", "or: %(clause)s")


def _reasons() -> list[str]:
    found = set(CLI)
    for path in sorted(ADVISOR.glob("*.py")):
        if path.name == "cli.py":
            continue
        for _, msgid, _, _ in extract_from_file("python", str(path), keywords={"said": None}):
            found.add(msgid)
    assert len(found) > 60
    return sorted(found)


REASONS = _reasons()

#: Sample fields by name (a trailing number is ignored, as `said` reads them).
VALUES: dict[str, Any] = {
    "player": "Anna",
    "colour": "yellow",
    "side": "white",
    "where": [5, 6, 7],
    "territory": 7,
    "count": 2,
    "amount": "1.5",
    "round": 2,
    "turn": 3,
    "counted": {"cubes": ["yellow", "yellow", "red"], "castles": 0},
    "items": [clause(said("win %(colour)s from %(player)s", colour="red", player="Bob"))],
    "clause": clause(said("emperor %(count)s steps away", count=3)),
}


def _reason(msgid: str) -> Any:
    names = re.findall(r"%\((\w+)\)s", msgid)
    return said(msgid, **{n: VALUES[n.rstrip("0123456789")] for n in names})


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("msgid", REASONS)
def test_every_reason_is_a_whole_sentence_in_every_language(msgid: str, lang: str) -> None:
    reason = _reason(msgid)
    text = translated(reason, translations(lang))
    assert text and "%(" not in text, (msgid, lang, text)
    english = translated(reason, translations("en"))
    assert english == str(reason)  # the English catalog says the msgid
    if lang == "en":
        return
    assert text != english, (msgid, lang, text)
    left = english_words(text)
    assert not left, f"{lang} {msgid!r}: English words {sorted(left)} in {text!r}"


def _position(seed: int) -> Game:
    """A game stopped before a player's cubes, after ``seed``-many random turns."""
    rng = random.Random(seed)
    game = Game(Setup.random(table_players(2 + seed % 3), rng))
    turns = 0
    while True:
        if game.phase is Phase.OPENING:
            game.push(choose_disc(game, rng))
            continue
        if turns >= 3 + seed % 7:
            return game
        play, steps = random_player(game, rng)
        game.push(play)
        game.push(MoveEmperor(play.player, steps))
        if game.is_over:
            return game
        game.push(roll_refill(game, rng))
        turns += 1


def _lines(game: Game) -> list[Any]:
    advice = advise(game)
    you = game.to_move
    lines = [*advice.threats.lines(you), *advice.threats.lines(None)]
    lines += [e.text() for e in advice.exposure]
    return lines + [h.why for h in advice.hints]


@pytest.mark.parametrize("seed", range(6))
def test_real_positions_are_said_in_every_language(seed: int) -> None:
    lines = _lines(_position(seed))
    assert lines
    for lang in LANGUAGES:
        tr = translations(lang)
        for line in lines:
            text = translated(line, tr)
            assert "%(" not in text, (lang, text)
            if lang == "en":
                assert text == str(line)
            else:
                assert not english_words(text), (lang, text)


def test_the_review_is_said_in_hungarian() -> None:
    game = play_game(table_players(2), random.Random(11), [hint_player, random_player])
    items = review(Record.from_game(game))
    assert items
    english = describe(items)
    assert english == "\n".join(str(i.text()) for i in items)
    assert english.startswith("Round ") and "Better: " in english
    hungarian = describe(items, translations("hu"))
    assert len(hungarian.splitlines()) == len(items)
    assert "forduló" in hungarian and "Jobb: " in hungarian
    assert not english_words(hungarian), hungarian
    nothing = describe([], translations("hu"))
    assert nothing and not english_words(nothing)


def test_english_stays_word_for_word(layout: Any) -> None:
    advice = advise(layout.worked_example())
    assert advice.threats.lines("Anna")[:3] == [
        "You hold 3 yellow in reserve: Bob's yellow lead of 1 falls unless Bob adds 2",
        "You can build on territory 3 with 2 yellow to the court, 1 unit past the emperor: 1 to 0",
        "You can take over region 5+6+7 (black, 3 castles) with 2 yellow to the court and "
        "1 yellow there, 3 units past the emperor: 7 to 6",
    ]
    assert advice.exposure[4].text() == (
        "region 5+6+7 (black): flips for Anna (white) with 3: 2 yellow to his court and "
        "1 pink there (his reserve has them); emperor 3 steps away"
    )
    assert advice.hints[0].why == (
        "2 yellow to your court (win yellow from Bob), 1 yellow onto region 5+6+7; "
        "emperor 3 steps: you take over region 5+6+7 (7 to 6), merging into a 5-castle "
        "region; Bob could then build on territory 9"
    )
    data = advice.hints[0].to_json()
    assert data["why"] == advice.hints[0].why  # the JSON keeps the English why
    assert translated(said(data["say"], **data["words"])) == data["why"]


def _advise(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="carolus")
    cli.register(parser.add_subparsers())
    args = parser.parse_args(["advise", *argv])
    code: int = args.handler(args)
    return code


def test_carolus_advise_in_hungarian(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _position(4)  # mid-round, a player about to play cubes
    assert game.phase is Phase.ACTION
    path = tmp_path / "game.json"
    path.write_text(Record.from_game(game).dumps(), encoding="utf-8")
    assert _advise(str(path)) == 0
    english = capsys.readouterr().out
    assert "Threats:" in english and "Hint for " in english
    assert _advise(str(path), "--language", "hu") == 0
    out = capsys.readouterr().out
    assert "Fenyegetések:" in out and "Tipp " in out and "lépés" in out
    assert len(out.splitlines()) == len(english.splitlines())
    for line in out.splitlines():
        assert not english_words(line), line


def test_carolus_advise_review_in_hungarian(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = play_game(table_players(2), random.Random(11), [hint_player, random_player])
    path = tmp_path / "done.json"
    path.write_text(Record.from_game(game).dumps(), encoding="utf-8")
    assert _advise(str(path), "--review", "--language", "hu") == 0
    out = capsys.readouterr().out
    assert "Visszatekintés:" in out and "Jobb: " in out
    for line in out.splitlines():
        assert not english_words(line), line
