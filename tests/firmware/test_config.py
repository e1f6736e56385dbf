"""Settings: documented defaults, a file, flags on top, and bad keys named clearly."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from firmware.config import (
    Config,
    ConfigError,
    add_arguments,
    config_from_args,
    dump_config,
    load_config,
)

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "carolus.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_documented_files_equal_the_defaults() -> None:
    assert load_config(ROOT / "firmware" / "default_config.toml") == Config()
    assert load_config(ROOT / "hardware" / "carolus.toml") == Config()
    assert load_config(None) == Config()


def test_print_config_reads_back_to_the_same_settings(tmp_path: Path) -> None:
    config = load_config(
        None,
        {
            "players": "south=Anna:white,west=Cleo:grey,north=Bob:black",
            "display.i2c_address": "0x3D",
        },
    )
    text = dump_config(config)
    assert "i2c_address = 0x3d" in text
    assert 'west = { name = "Cleo", castles = "grey" }' in text
    assert load_config(write(tmp_path, text)) == config


def test_a_file_changes_only_what_it_names(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '[players]\nnorth = { name = "Bob", castles = "black" }\n'
        'south = { name = "Anna", castles = "white" }\n'
        "[gpio]\nconfirm = 5\n[camera]\nresolution = [1536, 864]\n",
    )
    config = load_config(path)
    assert [(p.seat, p.name) for p in config.players] == [("south", "Anna"), ("north", "Bob")]
    assert config.gpio.confirm == 5 and config.gpio.majorities == 17
    assert config.camera.resolution == (1536, 864)
    assert config.players_arg == "south=Anna:white,north=Bob:black"


def test_flags_override_the_file(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    path = write(tmp_path, "[web]\nport = 8000\n")
    args = parser.parse_args(
        ["--config", str(path), "--port", "9001", "--voice", "--no-gpio",
         "--set", "camera.resolution=1920x1080", "--set", "display.rotate=2"]
    )
    config = config_from_args(args)
    assert config.web.port == 9001
    assert config.voice.enabled is True and config.gpio.enabled is False
    assert config.camera.resolution == (1920, 1080) and config.display.rotate == 2


@pytest.mark.parametrize(
    ("text", "key", "words"),
    [
        ("[display]\ni2c_adress = 0x3C\n", "display.i2c_adress", "did you mean i2c_address"),
        ("[display]\ni2c_address = \"3c\"\n", "display.i2c_address", "whole number"),
        ("[display]\ni2c_address = 0x80\n", "display.i2c_address", "7-bit"),
        ("[gpio]\nconfirm = 41\n", "gpio.confirm", "GPIO 41 does not exist"),
        ("[gpio]\nconfirm = 17\n", "gpio.confirm", "already gpio.majorities"),
        ("[gpio]\nbuzzer = 3\n", "gpio.buzzer", "I2C pin"),
        ("[voice]\nenabled = \"yes\"\n", "voice.enabled", "true or false"),
        ("[web]\nport = 70000\n", "web.port", "TCP port"),
        ("[camera]\nresolution = [1920]\n", "camera.resolution", "[width, height]"),
        (
            '[players]\nnorth = {name = "B", castles = "red"}\n'
            'south = {name = "A", castles = "white"}',
            "players.north.castles",
            "not a castle colour",
        ),
        ('[players]\nkitchen = {name = "B", castles = "black"}', "players.kitchen", "unknown seat"),
        ('[players]\nsouth = {name = "Bob", castles = "black"}', "players", "2 to 4 players"),
        ("colour = 1\n", "colour", "unknown key"),
        ("[display\n", "file", "not valid TOML"),
    ],
)
def test_bad_settings_name_the_key(tmp_path: Path, text: str, key: str, words: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.key == key
    assert words in str(caught.value)
    assert str(caught.value).startswith(f"{path}: config {key}: ")


def test_bad_flags_name_the_key() -> None:
    with pytest.raises(ConfigError, match=r"config web\.port: expected a whole number"):
        load_config(None, {"web.port": "eighty"})
    with pytest.raises(ConfigError, match=r"config players: expected SEAT=NAME:CASTLES"):
        load_config(None, {"players": "south=Anna"})
    with pytest.raises(ConfigError, match=r"config gpio\.confirm_pin: unknown key"):
        load_config(None, {"gpio.confirm_pin": "5"})


def test_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such file"):
        load_config(tmp_path / "nope.toml")
