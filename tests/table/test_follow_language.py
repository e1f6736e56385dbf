"""``carolus follow --language``: the commentary in the table's language, the same
sentences the display, the voice and the page say (`referee.announcements.render`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from table_games import source, stream_of

from firmware.cli import main

PLAYERS = "south=Anna:white,north=Bob:black"
#: English that would give a sentence away as untranslated.
ENGLISH = re.compile(r"\b(Round|ILLEGAL|QUESTION|castle|cubes?|territory|plays|turn)\b")


@pytest.fixture(scope="module")
def stream(tmp_path_factory: pytest.TempPathFactory) -> Path:
    _, record = source(2, 4)
    snapshots = stream_of(record, 7, illegal=0.3).snapshots
    path = tmp_path_factory.mktemp("follow-language") / "table.jsonl"
    path.write_text("\n".join(json.dumps(s) for s in snapshots) + "\n")
    return path


@pytest.mark.parametrize(("language", "word"), [("hu", "forduló"), ("de", "Runde")])
def test_the_commentary_speaks_the_language_asked_for(
    stream: Path, language: str, word: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["follow", str(stream), "--players", PLAYERS, "--language", language]) == 0
    text = capsys.readouterr().out
    assert word in text
    english = [line for line in text.splitlines() if ENGLISH.search(line)]
    assert english == [], english[:3]


def test_english_stays_the_default_and_json_keeps_the_referees_words(
    stream: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["follow", str(stream), "--players", PLAYERS]) == 0
    assert "Round 1: " in capsys.readouterr().out
    assert main(["follow", str(stream), "--players", PLAYERS, "--json", "--language", "hu"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert any(str(e.get("message", "")).startswith("Round 1: ") for e in events)
