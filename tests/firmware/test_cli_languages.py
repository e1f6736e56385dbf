"""The `carolus` command's own words to the operator in the language asked for (issue 17):
``carolus run``'s refusals, its settings' errors and its progress lines in the table's
language (``--language``, else ``language`` in the settings), ``carolus play``'s record
that cannot be written; every bad input a sentence naming what was wrong and exit 2,
never a traceback. In English the words are what they always were."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from firmware.cli import _interrupted
from firmware.config import DisplayConfig
from firmware.display.device import open_device
from firmware.run import language, telling

CAROLUS = [sys.executable, "-m", "firmware"]


def carolus(*args: str, typed: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CAROLUS, *args], capture_output=True, text=True, timeout=120, input=typed
    )


def refused(*args: str) -> str:
    """What the command said on stderr, after checking it stopped cleanly with exit 2."""
    run = carolus(*args)
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    return run.stderr.strip()


QUIET = ("--no-log", "--no-web", "--no-display", "--no-gpio", "--no-voice")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--speed", "-1", "--language", "de"), "carolus run: --speed -1.0 muss 0 oder mehr sein"),
        (
            ("--source", "teapot", "--language", "hu"),
            "carolus run: a(z) --source 'teapot' nem ezek egyike: picamera | usb:N | "
            "video:FILE | images:DIR | snapshots:FILE.jsonl | demo",
        ),
        (
            ("--source", "video:/nope.mp4", "--language", "fi"),
            "carolus run: --source video:/nope.mp4: videotiedostoa ei ole",
        ),
        (
            ("--set", "gpio.confirm=99", "--language", "it"),
            "carolus run: impostazione gpio.confirm: GPIO 99 non esiste (0-27)",
        ),
        (
            ("--set", "web.port", "--language", "de"),
            "carolus run: Einstellung web.port: erwartet KEY=VALUE, nicht 'web.port'",
        ),
        (
            ("--set", "displya.rotate=1", "--language", "hu"),
            "carolus run: displya.rotate beállítás: ismeretlen kulcs (erre gondoltál: display?)",
        ),
    ],
)
def test_carolus_run_refuses_bad_input_in_the_language_asked(
    args: tuple[str, ...], said: str
) -> None:
    assert refused("run", *QUIET, *args) == said


def test_a_demo_game_that_is_no_record_and_a_host_nobody_has(tmp_path: Path) -> None:
    missing = tmp_path / "none.json"
    assert refused("run", *QUIET, "--demo-game", str(missing), "--language", "de") == (
        f"carolus run: --demo-game {missing}: die Datei lässt sich nicht lesen: "
        "No such file or directory"
    )
    empty = tmp_path / "empty.json"
    empty.write_text("{}")
    assert refused("run", *QUIET, "--demo-game", str(empty), "--language", "hu") == (
        f"carolus run: --demo-game {empty}: format: hiányzik egy kötelező mező"
    )
    assert refused("run", *QUIET, "--demo-game", str(empty)) == (
        f"carolus run: --demo-game {empty}: format: required field is missing"
    )
    quiet = [q for q in QUIET if q != "--no-web"]
    assert refused("run", *quiet, "--host", "nobody.invalid", "--language", "de").startswith(
        "carolus run: Webseite: nobody.invalid:8080 lässt sich nicht öffnen: "
    )


def test_english_is_word_for_word_what_it_was() -> None:
    assert refused("run", *QUIET, "--speed", "-1") == "carolus run: --speed -1.0 must be 0 or more"
    assert refused("run", *QUIET, "--set", "gpio.confirm=99") == (
        "carolus run: config gpio.confirm: GPIO 99 does not exist (0-27)"
    )
    assert refused("run", *QUIET, "--source", "images:/nope") == (
        "carolus run: --source images:/nope: no such folder"
    )


def test_a_settings_file_is_refused_in_the_language_it_names(tmp_path: Path) -> None:
    settings = tmp_path / "carolus.toml"
    settings.write_text('language = "de"\n[gpio]\nconfirm = 99\n', encoding="utf-8")
    assert refused("run", *QUIET, "--config", str(settings)) == (
        f"carolus run: {settings}: Einstellung gpio.confirm: GPIO 99 gibt es nicht (0-27)"
    )
    # the command line's language goes over the file's
    assert refused("run", *QUIET, "--config", str(settings), "--language", "fi") == (
        f"carolus run: {settings}: asetus gpio.confirm: GPIO 99 ei ole olemassa (0-27)"
    )
    missing = tmp_path / "none.toml"
    assert refused("run", "--config", str(missing), "--language", "hu") == (
        f"carolus run: {missing}: file beállítás: nincs ilyen fájl"
    )


def test_carolus_runs_progress_lines_in_the_tables_language(tmp_path: Path) -> None:
    settings = tmp_path / "carolus.toml"
    settings.write_text('language = "de"\n', encoding="utf-8")
    stream = tmp_path / "none.jsonl"
    stream.write_text("")
    source = f"snapshots:{stream}"
    run = carolus("run", *QUIET, "--config", str(settings), "--source", source, "--exit-at-end")
    assert run.returncode == 0, run.stderr
    assert f"Beobachte {source}; gestartet in " in run.stderr
    assert (
        f"Die Quelle {source} ist nach 0 Bildern zu Ende: es wurde kein Spiel gespielt."
        in run.stderr
    )
    english = carolus("run", *QUIET, "--source", source, "--exit-at-end")
    assert f"The {source} is over after 0 frames: no game was played." in english.stderr


def test_carolus_play_says_a_record_it_cannot_write_and_never_a_traceback(
    tmp_path: Path,
) -> None:
    nowhere = tmp_path / "missing" / "game.json"
    assert refused("play", "--record", str(nowhere), "--language", "de") == (
        f"carolus play: --record: das Partieprotokoll lässt sich nicht nach '{nowhere}' "
        "schreiben: No such file or directory"
    )
    assert not nowhere.parent.exists()
    game = carolus("play", "--language", "de", typed=f"save {nowhere}\nquit\n")
    assert game.returncode == 0, game.stderr
    assert "Traceback" not in game.stderr
    assert f"  ! das Partieprotokoll lässt sich nicht nach '{nowhere}' schreiben" in game.stdout
    here = tmp_path / "game.json"
    kept = carolus("play", "--record", str(here), "--language", "de", typed="quit\n")
    assert kept.returncode == 0 and here.exists()  # written when the game stops, as before


def test_the_missing_display_is_said_in_the_tables_language(
    capsys: pytest.CaptureFixture[str],
) -> None:
    nowhere = DisplayConfig(i2c_port=99)
    _device, real = open_device(nowhere, telling(language("hu")))
    assert not real
    said = capsys.readouterr().err
    assert said.startswith("kijelző: nincs ssd1306 az I2C 99. buszon, 0x3c címen (")
    assert said.rstrip().endswith("); kijelző nélkül fut tovább")


def test_an_interrupted_command_says_so_in_its_language() -> None:
    assert _interrupted("de") == "abgebrochen"
    assert _interrupted("hu_HU") == "megszakítva"
    assert _interrupted(None) == "interrupted"
