"""Every ``carolus`` command's ``--help`` and argparse's usage errors speak the
operator's language (issue 17, `firmware.parsing`): our own help texts and argparse's
own words ("usage:", "options", "the following arguments are required" …) are said
through the catalogs; the language is known before parsing (``--language``, ``carolus
run``'s settings, the environment as gettext reads it, else English); the English is
word for word what plain argparse prints; the bare table's own reasons are said in the
language asked too."""

from __future__ import annotations

import argparse
import importlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from firmware import parsing
from firmware.cli import COMMAND_MODULES, build_parser, main
from referee.announcements import Said, translated
from vision.cli import said_reason
from web.i18n import translations

ROOT = Path(__file__).resolve().parents[2]
OTHERS = ("de", "it", "hu", "fi")

Tree = Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]


@pytest.fixture(autouse=True)
def _english_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal 100 columns wide whose environment asks for no language."""
    monkeypatch.setenv("COLUMNS", "100")
    for variable in parsing.ENVIRONMENT:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


def commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Tree:
    """Every parser of the command line, with the words that lead to it."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from commands(sub, (*path, name))


def helps(parser: argparse.ArgumentParser) -> Iterator[str]:
    """Every help text and description of the command line (a `said` message or a
    msgid)."""
    for _, command in commands(parser):
        if command.description:
            yield command.description
        for action in command._actions:
            if action.help and action.help != argparse.SUPPRESS:
                yield action.help
            if isinstance(action, argparse._SubParsersAction):
                yield from (choice.help for choice in action._choices_actions if choice.help)


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[^\W\d_]+", text)}


def _msgid(text: str) -> str:
    return text.msgid if isinstance(text, Said) else text


def _typed() -> tuple[set[str], list[str]]:
    """What is typed or named, kept as it is in every language: the words of the
    sub-commands and of the positionals shown by name, and the values that go into a
    help text or a description (`said` fields: examples, formats, setting keys …)."""
    words = {
        "carolus",
        "magnus",
        "anna",
        "bob",
        "raspberry",
        "pi",
        "picamera",
        "json",
        "png",
        "pdf",
    }
    values = set()
    for path, command in commands(build_parser()):
        words |= _words(" ".join(path))
        texts = [command.description, *(action.help for action in command._actions)]
        for action in command._actions:
            if isinstance(action, argparse._SubParsersAction):
                texts += [choice.help for choice in action._choices_actions]
        values |= {str(v) for t in texts if isinstance(t, Said) for v in t.words.values()}
        for action in command._actions:
            if not action.option_strings and not action.metavar:
                words |= _words(action.dest)
    return words, sorted(values, key=len, reverse=True)


NAMED, VALUES = _typed()

#: The English of the command line: argparse's own words and every help text's
#: (without what goes into them), less the names of commands and the words every
#: language shares with English (as ``SAME`` in tests/referee/test_announcements_languages).
ENGLISH = (
    {
        word
        for word in set().union(
            *(_words(msgid) for _, msgid in parsing._ARGPARSE),
            *(_words(w) for w in (*parsing.WORDS, *parsing._TYPES, "error")),
            *(_words(re.sub(r"%\(\w+\)s", " ", _msgid(h))) for h in helps(build_parser())),
        )
        if len(word) > 1  # a letter to type (``N``, ``q``) is no word
    }
    - NAMED
    - {"video", "layout", "also", "was", "serve", "in", "per", "no", "on", "is"}
)


def english(text: str) -> set[str]:
    """The English words left in ``text`` once what is typed is taken out: the values of
    the help texts, option names (``--no-log``), metavars (``CALIBRATION``) and quoted
    values (``'A5'``, the choices)."""
    flat = re.sub(r"-\s+", "-", " ".join(text.split()))  # as argparse wraps, undone
    for value in VALUES:
        flat = re.sub(rf"(?<![\w-]){re.escape(' '.join(value.split()))}(?![\w-])", " ", flat)
    flat = re.sub(r"(?<![\w-])--?[\w-]+|\b[A-Z][A-Z0-9_]+\b|'[^']*'", " ", flat)
    return _words(flat) & ENGLISH


def said(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """What ``carolus ARGV`` printed, and its exit code (argparse exits)."""
    try:
        code = main(list(argv))
    except SystemExit as stop:
        code = int(stop.code or 0)
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return code, out.out, out.err


def test_the_english_words_are_known() -> None:
    assert {"usage", "options", "positional", "required", "unrecognized", "invalid"} <= ENGLISH
    assert {"referee", "record", "calibration", "appliance", "log"} <= ENGLISH


def test_every_help_is_in_hungarian(capsys: pytest.CaptureFixture[str]) -> None:
    """``carolus ... --help --language hu`` of every command and sub-command: no English
    word of argparse or of our help texts, only what is typed (options, metavars,
    commands, examples, formats)."""
    paths = [path for path, _ in commands(build_parser())]
    assert len(paths) > 15
    for path in paths:
        code, out, _ = said(capsys, *path, "--help", "--language", "hu")
        assert code == 0, path
        assert out.startswith("használat: carolus"), out
        assert not english(out), (path, sorted(english(out)), out)
    code, out, _ = said(capsys, "--help", "--language=hu")
    assert code == 0 and "kapcsolók:" in out and "ezt a súgót mutatja, és kilép" in out


def test_no_command_is_the_help_in_the_environments_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LC_ALL", "hu_HU.UTF-8")
    code, out, _ = said(capsys)
    assert code == 2 and out.startswith("használat: carolus [-h] COMMAND ...")
    assert "helyhez kötött paraméterek:" in out and not english(out)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["run", "--speed", "abc"], "hiba: --speed paraméter: 'abc' nem érvényes szám"),
        (["play", "--seed", "q"], "--seed paraméter: 'q' nem érvényes egész szám"),
        (["vision", "calibrate", "x.jpg"], "ezek a paraméterek kötelezők: --out"),
        (["mat", "--paper", "A5"], "érvénytelen választás: 'A5' (lehetőségek: 'A4', 'A3')"),
        (["nope"], "érvénytelen választás: 'nope'"),
        (["check", "--json", "x.json", "--what"], "ismeretlen paraméterek: --what"),
        (["mat", "--px-per-mm"], "--px-per-mm paraméter: egy értéket vár"),
        (["games", "list", "--since", "2020-13-01"], "'2020-13-01' nem YYYY-MM-DD alakú dátum"),
        (["games", "show", "x"], "ID paraméter: 'x' nem játékazonosító"),
        (["follow", "x.jsonl"], "ezek a paraméterek kötelezők: --players"),
    ],
)
def test_a_usage_error_in_hungarian(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    code, out, err = said(capsys, *argv, "--language", "hu")
    assert code == 2 and not out
    assert err.startswith("használat: carolus") and words in err, err
    assert not english(err), (sorted(english(err)), err)


def test_english_is_what_argparse_prints(capsys: pytest.CaptureFixture[str]) -> None:
    """Plain argparse over the same commands prints the same, help and errors."""
    plain = argparse.ArgumentParser(
        prog="carolus",
        description="A table companion for Carolus Magnus: referee, camera, game log.",
    )
    subparsers = plain.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    ours = dict(commands(build_parser("en")))
    theirs = dict(commands(plain))
    assert ours.keys() == theirs.keys()
    for path, parser in ours.items():
        assert type(parser) is parsing.Parser
        assert parser.format_help() == theirs[path].format_help(), path
    for argv in (["run", "--speed", "x"], ["games", "show", "0"], ["vision", "read"], ["x"]):
        with pytest.raises(SystemExit) as stop:
            plain.parse_args(argv)
        expected = (stop.value.code, capsys.readouterr().err)
        code, out, err = said(capsys, *argv)
        assert (code, err) == expected and not out


def test_the_language_before_parsing() -> None:
    env = {"LANG": "C.UTF-8"}
    assert parsing.language(["check", "--help"], env) == "en"
    assert parsing.language(["check", "--language", "hu"], env) == "hu"
    assert parsing.language(["games", "--lang=de_AT", "list"], env) == "de"
    assert parsing.language(["check", "--language", "fr"], {"LANG": "hu_HU.UTF-8"}) == "en"
    assert parsing.language(["check", "--", "--language", "hu"], env) == "en"
    # gettext's order: LANGUAGE (its first language with a catalog), LC_ALL, LC_MESSAGES,
    # LANG; the C locale is English
    assert parsing.language(["check"], {"LANG": "de_DE.UTF-8"}) == "de"
    assert parsing.language(["check"], {"LANGUAGE": "fr:fi", "LANG": "de_DE.UTF-8"}) == "fi"
    assert parsing.language(["check"], {"LC_ALL": "C", "LANG": "de_DE.UTF-8"}) == "en"
    assert parsing.language(["check"], {"LC_MESSAGES": "it_IT", "LANG": "de_DE"}) == "it"
    assert parsing.language(["check"], {"LANG": "pt_BR.UTF-8"}) == "en"
    assert parsing.language(["check"], {}) == "en"


def test_the_environment_picks_the_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    code, out, _ = said(capsys, "check", "--help")
    assert code == 0 and out.startswith("Aufruf: carolus check")
    assert "Optionen:" in out and "diese Hilfe zeigen und beenden" in out
    code, _, err = said(capsys, "check")
    assert code == 2 and "carolus check: Fehler: diese Argumente fehlen: RECORD" in err
    code, out, _ = said(capsys, "check", "--help", "--language", "en")  # asked: English
    assert out.startswith("usage: carolus check")


def test_carolus_run_takes_the_language_of_its_settings(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    settings = tmp_path / "carolus.toml"
    settings.write_text('language = "it"\n', encoding="utf-8")
    code, _, err = said(capsys, "run", "--config", str(settings), "--speed", "x")
    assert code == 2 and "carolus run: errore: argomento --speed: 'x' non è un numero" in err
    code, _, err = said(capsys, "run", f"--config={settings}", "--set", "language=fi", "-x")
    assert code == 2 and "virhe: tuntemattomat argumentit: -x" in err
    code, _, err = said(capsys, "run", "--config", str(tmp_path / "none.toml"), "--speed", "x")
    assert code == 2 and "error: argument --speed: invalid float value: 'x'" in err


def test_every_help_and_argparse_word_is_translated() -> None:
    msgids = {_msgid(h) for h in helps(build_parser())}
    msgids |= {m for _, m in parsing._ARGPARSE} | set(parsing.WORDS) | set(parsing._TYPES)
    msgids.add("%(prog)s: error: %(clause)s")
    assert len(msgids) > 100
    for lang in OTHERS:
        tr = translations(lang)
        left = sorted(m for m in msgids if tr.gettext(m) == m)
        assert not left, (lang, left)


# ------------------------------------------------------------ the bare table's own reasons


def test_the_bare_tables_reason_in_the_language_asked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from vision import calibration
    from vision.reference import BareTable, BareTableError, Comparison

    def not_encoded(*_: object) -> dict[str, object]:
        raise BareTableError("the bare table could not be encoded")

    monkeypatch.setattr(calibration, "calibrate", not_encoded)
    frame = str(ROOT / "examples" / "frames" / "calibration.jpg")
    out = str(tmp_path / "calib.json")
    code, _, err = said(capsys, "vision", "calibrate", frame, "--out", out, "--language", "hu")
    assert (code, err) == (2, "carolus: az üres asztalt nem sikerült kódolni\n")
    code, _, err = said(capsys, "vision", "calibrate", frame, "--out", out)
    assert (code, err) == (2, "carolus: the bare table could not be encoded\n")

    # a calibration file whose bare table is not one, or of another layout
    broken = tmp_path / "broken.json"
    broken.write_text(
        json.dumps({"format": "carolus-calibration/1", "colours": {}, "bare_table": "no!"}),
        encoding="utf-8",
    )
    code, _, err = said(capsys, "vision", "read", "x.jpg", "--calibration", str(broken),
                        "--language", "de")  # fmt: skip
    assert code == 2
    assert err == f"carolus: {broken}: Feld 'bare_table': der gespeicherte leere Tisch ist " \
        "kein Base64-Text\n"  # fmt: skip
    # the bare table of another layout (as the reader refuses it: `vision.reference`)
    with pytest.raises(BareTableError) as refused:
        atlas = SimpleNamespace(zone_index=np.zeros((800, 1200), np.int16), colour_rows=800)
        Comparison(BareTable(np.zeros((40, 60, 3), np.uint8)), atlas, None)  # type: ignore[arg-type]
    english = f"calibration: field 'bare_table': {refused.value}"
    assert english.startswith(
        "calibration: field 'bare_table': the bare table was learnt with another layout or "
        "scale (60x40 atlas, this reader's is 1200x800)"
    )
    reason = said_reason(english)
    assert isinstance(reason, Said) and reason == english  # English word for word
    assert translated(reason, translations("hu")) == (
        "kalibráció: 'bare_table' mező: az üres asztalt más elrendezéssel vagy léptékkel "
        "tanulta meg (atlasz: 60x40, ennek az olvasónak: 1200x800)"
    )
