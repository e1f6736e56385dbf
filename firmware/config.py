"""The appliance's settings: one TOML file, documented defaults, flags on top.

The defaults live here, in the dataclasses, so the appliance starts with no file at all;
``firmware/default_config.toml`` and ``hardware/carolus.toml`` spell the same defaults out
with comments (a test keeps the three equal). A bad file never gives a traceback: every
problem is a `ConfigError` naming the key, e.g. ``config gpio.confirm: GPIO 41 does not
exist (0-27)``.

>>> config = load_config(None, {"web.port": "9000", "players": "south=Anna:white,north=Bob:black"})
>>> config.web.port, [p.name for p in config.players]
(9000, ['Anna', 'Bob'])
"""

from __future__ import annotations

import argparse
import difflib
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from referee.announcements import N_, clause, said
from referee.pieces import CASTLE_COLOURS, SEATS

#: GPIO numbers (BCM) on the 40-pin header.
GPIO_PINS = range(28)
#: The I2C pins, which the OLED needs.
I2C_PINS = (2, 3)
DRIVERS = ("ssd1306", "ssd1309", "sh1106")


class ConfigError(ValueError):
    """A setting that cannot be used; ``key`` is its dotted name (``display.i2c_address``).

    ``message`` (why) and the whole sentence (``args[0]``) are `said` messages, so
    ``carolus run`` tells the operator in the table's language (issue 17): ``language``
    is the one the settings file names, when it names one, for an error found after the
    file was read; the English is word for word what it was. The keys, the values and
    the words to type (``SEAT=NAME:CASTLES``, the seats, ``true``) stay as the file
    spells them."""

    def __init__(
        self, key: str, message: str, source: str | None = None, language: str | None = None
    ) -> None:
        self.key = key
        self.message = message
        self.source = source
        self.language = language
        if source:
            text = said(
                "%(file)s: config %(key)s: %(clause)s",
                file=source,
                key=key,
                clause=clause(message),
            )
        else:
            text = said("config %(key)s: %(clause)s", key=key, clause=clause(message))
        super().__init__(text)


@dataclass(frozen=True)
class PlayerConfig:
    seat: str
    name: str
    castles: str


@dataclass(frozen=True)
class DisplayConfig:
    enabled: bool = True
    driver: str = "ssd1306"
    i2c_port: int = 1
    i2c_address: int = 0x3C
    rotate: int = 0
    contrast: int = 255
    announce_seconds: float = 5.0
    majorities_seconds: float = 30.0


@dataclass(frozen=True)
class GpioConfig:
    enabled: bool = True
    majorities: int = 17
    confirm: int = 27
    led_green: int = 22
    led_red: int = 23
    buzzer: int = 24
    hold_seconds: float = 1.0
    beep_seconds: float = 0.15

    PINS = ("majorities", "confirm", "led_green", "led_red", "buzzer")


@dataclass(frozen=True)
class CameraConfig:
    resolution: tuple[int, int] = (2304, 1296)
    fps: int = 5
    calibration: str = ""
    layout: str = ""


@dataclass(frozen=True)
class WebConfig:
    host: str = "0.0.0.0"
    port: int = 8080
    allowed_hosts: str = ""
    """Names the page answers to besides the machine's own (see web.gate), separated by
    spaces or commas: a name given by the club's router, say. "*" turns the check off."""
    camera_needs_pin: bool = False

    @property
    def extra_hosts(self) -> tuple[str, ...]:
        return tuple(self.allowed_hosts.replace(",", " ").split())


@dataclass(frozen=True)
class VoiceConfig:
    enabled: bool = False
    voice: str = ""
    speed: int = 150


DEFAULT_PLAYERS = (
    PlayerConfig("south", "South", "white"),
    PlayerConfig("north", "North", "black"),
)


@dataclass(frozen=True)
class Config:
    language: str = "en"
    players: tuple[PlayerConfig, ...] = DEFAULT_PLAYERS
    display: DisplayConfig = field(default_factory=DisplayConfig)
    gpio: GpioConfig = field(default_factory=GpioConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    web: WebConfig = field(default_factory=WebConfig)
    voice: VoiceConfig = field(default_factory=VoiceConfig)

    @property
    def players_arg(self) -> str:
        """The players as ``carolus follow --players`` writes them: ``south=Anna:white,...``."""
        return ",".join(f"{p.seat}={p.name}:{p.castles}" for p in self.players)


SECTIONS: dict[str, type[Any]] = {
    "display": DisplayConfig,
    "gpio": GpioConfig,
    "camera": CameraConfig,
    "web": WebConfig,
    "voice": VoiceConfig,
}


# ---------------------------------------------------------------- loading


def load_config(
    path: str | Path | None = None, overrides: Mapping[str, Any] | None = None
) -> Config:
    """The defaults, then the TOML file at ``path`` (if any), then ``overrides`` (dotted
    keys such as ``"web.port"``; string values are read as TOML values, so flags can pass
    ``"0x3D"`` or ``"true"``; ``"players"`` takes ``south=Anna:white,north=Bob:black``)."""
    data: dict[str, Any] = {}
    source = None
    if path is not None:
        source = str(path)
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError("file", said("no such file"), source) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(
                "file", said("cannot read it (%(reason)s)", reason=str(exc)), source
            ) from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(
                "file", said("not valid TOML (%(reason)s)", reason=str(exc)), source
            ) from None
    named = data.get("language")
    try:
        config = _build(data)
        _check(config)
    except ConfigError as exc:
        language = named if isinstance(named, str) else None
        raise ConfigError(exc.key, exc.message, source, language) from None
    for key, value in (overrides or {}).items():
        config = _override(config, key, value)
    _check(config)
    return config


def _build(data: Mapping[str, Any]) -> Config:
    allowed = ["language", "players", *SECTIONS]
    for key in data:
        if key not in allowed:
            raise ConfigError(key, _unknown_key(key, allowed))
    config = Config()
    if "language" in data:
        config = replace(config, language=_coerce("language", data["language"], str))
    if "players" in data:
        config = replace(config, players=_players_table(data["players"]))
    for name, cls in SECTIONS.items():
        if name in data:
            table = data[name]
            if not isinstance(table, dict):
                raise ConfigError(
                    name,
                    said(
                        "expected a table %(typed)s, got %(given)s",
                        typed=f"[{name}]",
                        given=repr(table),
                    ),
                )
            config = replace(config, **{name: _section(name, cls, table)})
    return config


def _section(name: str, cls: type[Any], table: Mapping[str, Any]) -> Any:
    kinds = {f.name: f for f in fields(cls)}
    values = {}
    for key, value in table.items():
        if key not in kinds:
            raise ConfigError(f"{name}.{key}", _unknown_key(key, list(kinds)))
        values[key] = _coerce(f"{name}.{key}", value, _kind(cls, key))
    return cls(**values)


def _kind(cls: type[Any], key: str) -> Any:
    default = getattr(cls(), key)
    return tuple if isinstance(default, tuple) else type(default)


def _coerce(key: str, value: Any, kind: Any) -> Any:
    if kind is bool:
        if not isinstance(value, bool):
            raise ConfigError(key, said("expected true or false, got %(given)s", given=repr(value)))
        return value
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(
                key, said("expected a whole number, got %(given)s", given=repr(value))
            )
        return value
    if kind is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(key, said("expected a number, got %(given)s", given=repr(value)))
        return float(value)
    if kind is str:
        if not isinstance(value, str):
            raise ConfigError(key, said("expected a string, got %(given)s", given=repr(value)))
        return value
    # the only tuple is a resolution: [width, height]
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value)
    ):
        raise ConfigError(
            key,
            said(
                "expected %(typed)s in pixels, got %(given)s",
                typed="[width, height]",
                given=repr(value),
            ),
        )
    return (value[0], value[1])


def _players_table(table: Any) -> tuple[PlayerConfig, ...]:
    if not isinstance(table, dict):
        raise ConfigError(
            "players", said("expected a table of seats, got %(given)s", given=repr(table))
        )
    players = []
    for seat, entry in table.items():
        key = f"players.{seat}"
        if seat not in SEATS:
            raise ConfigError(key, _unknown_seat())
        if not isinstance(entry, dict):
            raise ConfigError(
                key,
                said(
                    "expected %(typed)s, got %(given)s",
                    typed='{ name = "...", castles = "white" }',
                    given=repr(entry),
                ),
            )
        for k in entry:
            if k not in ("name", "castles"):
                raise ConfigError(f"{key}.{k}", _unknown_key(k, ["name", "castles"]))
        for k in ("name", "castles"):
            if k not in entry:
                raise ConfigError(f"{key}.{k}", said("missing"))
        players.append(
            PlayerConfig(
                seat,
                _coerce(f"{key}.name", entry["name"], str),
                _coerce(f"{key}.castles", entry["castles"], str),
            )
        )
    return _seat_order(players)


def parse_players(text: str) -> tuple[PlayerConfig, ...]:
    """``south=Anna:white,north=Bob:black`` (the syntax of ``carolus follow --players``)."""
    players = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        seat, eq, rest = item.partition("=")
        name, colon, castles = rest.rpartition(":")
        if not eq or not colon:
            raise ConfigError(
                "players",
                said(
                    "expected %(typed)s, got %(given)s", typed="SEAT=NAME:CASTLES", given=repr(item)
                ),
            )
        if seat.strip() not in SEATS:
            raise ConfigError(f"players.{seat.strip()}", _unknown_seat())
        players.append(PlayerConfig(seat.strip(), name.strip(), castles.strip()))
    return _seat_order(players)


def _seat_order(players: list[PlayerConfig]) -> tuple[PlayerConfig, ...]:
    seats = [p.seat for p in players]
    for seat in seats:
        if seats.count(seat) > 1:
            raise ConfigError(f"players.{seat}", said("seat given twice"))
    return tuple(sorted(players, key=lambda p: SEATS.index(p.seat)))


def _override(config: Config, key: str, value: Any) -> Config:
    if key == "players":
        players = parse_players(value) if isinstance(value, str) else _players_table(value)
        return replace(config, players=players)
    if key == "language":
        return replace(config, language=_coerce(key, _flag_value(value, str), str))
    section, _, name = key.partition(".")
    if section not in SECTIONS:
        raise ConfigError(key, _unknown_key(section, ["language", "players", *SECTIONS]))
    cls = SECTIONS[section]
    names = [f.name for f in fields(cls)]
    if name not in names:
        raise ConfigError(key, _unknown_key(name, names))
    kind = _kind(cls, name)
    current = getattr(config, section)
    new = replace(current, **{name: _coerce(key, _flag_value(value, kind), kind)})
    return replace(config, **{section: new})


def _flag_value(value: Any, kind: Any) -> Any:
    """A flag's text read as a TOML value (``0x3D``, ``true``, ``[1920, 1080]``), or kept
    as text for string keys and anything that is not TOML."""
    if not isinstance(value, str) or kind is str:
        return value
    if kind is tuple and "x" in value and "[" not in value:  # 1920x1080
        value = "[" + value.replace("x", ",") + "]"
    try:
        return tomllib.loads(f"v = {value}")["v"]
    except tomllib.TOMLDecodeError:
        return value


def _unknown_key(key: str, choices: Sequence[str]) -> str:
    """``unknown key (did you mean web?)``, or the keys it may be."""
    close = difflib.get_close_matches(key, choices, n=1)
    if close:
        return said("unknown key (did you mean %(typed)s?)", typed=close[0])
    return said("unknown key (known: %(typed)s)", typed=", ".join(choices))


def _unknown_seat() -> str:
    return said("unknown seat (seats are %(typed)s)", typed=", ".join(SEATS))


# ---------------------------------------------------------------- checking


def _check(config: Config) -> None:
    """Ranges and combinations that a type alone does not catch."""
    players = config.players
    if not 2 <= len(players) <= 4:
        raise ConfigError(
            "players", said("2 to 4 players are needed, got %(count)s", count=len(players))
        )
    names = [p.name for p in players]
    for p in players:
        if not p.name.strip():
            raise ConfigError(f"players.{p.seat}.name", said("empty name"))
        if names.count(p.name) > 1:
            raise ConfigError(
                f"players.{p.seat}.name",
                said("%(given)s is used for two seats", given=repr(p.name)),
            )
        if p.castles not in CASTLE_COLOURS:
            raise ConfigError(
                f"players.{p.seat}.castles",
                said(
                    "%(given)s is not a castle colour (%(typed)s)",
                    given=repr(p.castles),
                    typed=", ".join(CASTLE_COLOURS),
                ),
            )
    if len(players) < 4 and len({p.castles for p in players}) < len(players):
        raise ConfigError(
            "players", said("with 2 or 3 players each one needs his own castle colour")
        )
    if not config.language.strip():
        raise ConfigError("language", said("empty language"))
    d = config.display
    if d.driver not in DRIVERS:
        raise ConfigError(
            "display.driver",
            said(
                "%(given)s is not one of %(typed)s", given=repr(d.driver), typed=", ".join(DRIVERS)
            ),
        )
    if not 0x03 <= d.i2c_address <= 0x77:
        raise ConfigError(
            "display.i2c_address",
            said("%(given)s is not a 7-bit I2C address", given=f"{d.i2c_address:#x}"),
        )
    if d.i2c_port < 0:
        raise ConfigError(
            "display.i2c_port", said("%(given)s is not a bus number", given=d.i2c_port)
        )
    if d.rotate not in range(4):
        raise ConfigError(
            "display.rotate", said("%(given)s is not 0, 1, 2 or 3 quarter turns", given=d.rotate)
        )
    if not 0 <= d.contrast <= 255:
        raise ConfigError(
            "display.contrast", said("%(given)s is not within 0-255", given=d.contrast)
        )
    for key in ("announce_seconds", "majorities_seconds"):
        if getattr(d, key) <= 0:
            raise ConfigError(f"display.{key}", said("must be more than 0"))
    g = config.gpio
    used: dict[int, str] = {}
    for key in GpioConfig.PINS:
        pin = getattr(g, key)
        if pin not in GPIO_PINS:
            raise ConfigError(f"gpio.{key}", said("GPIO %(pin)s does not exist (0-27)", pin=pin))
        if pin in I2C_PINS and config.display.enabled:
            raise ConfigError(
                f"gpio.{key}", said("GPIO %(pin)s is an I2C pin, the display needs it", pin=pin)
            )
        if pin in used:
            raise ConfigError(
                f"gpio.{key}",
                said("GPIO %(pin)s is already %(typed)s", pin=pin, typed=f"gpio.{used[pin]}"),
            )
        used[pin] = key
    for key in ("hold_seconds", "beep_seconds"):
        if getattr(g, key) <= 0:
            raise ConfigError(f"gpio.{key}", said("must be more than 0"))
    if config.camera.fps <= 0:
        raise ConfigError("camera.fps", said("must be more than 0"))
    if not 1 <= config.web.port <= 65535:
        raise ConfigError(
            "web.port", said("%(given)s is not a TCP port (1-65535)", given=config.web.port)
        )
    for name in config.web.extra_hosts:
        if name != "*" and not re.fullmatch(r"[A-Za-z0-9.:\[\]_-]{1,253}", name):
            raise ConfigError(
                "web.allowed_hosts",
                said("%(given)s is not a host name or address", given=repr(name)),
            )
    if not 80 <= config.voice.speed <= 450:
        raise ConfigError(
            "voice.speed",
            said("%(given)s words a minute is outside 80-450", given=config.voice.speed),
        )


# ---------------------------------------------------------------- printing


def dump_config(config: Config) -> str:
    """``config`` as a TOML file that `load_config` reads back to the same value."""
    lines = [f"language = {_toml(config.language)}", "", "[players]"]
    for p in config.players:
        lines.append(f"{p.seat} = {{ name = {_toml(p.name)}, castles = {_toml(p.castles)} }}")
    for name in SECTIONS:
        lines += ["", f"[{name}]"]
        section = getattr(config, name)
        for f in fields(section):
            value = getattr(section, f.name)
            text = f"{value:#04x}" if f.name == "i2c_address" else _toml(value)
            lines.append(f"{f.name} = {text}")
    return "\n".join(lines) + "\n"


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


# ---------------------------------------------------------------- flags


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags every appliance command shares: ``--config``, ``--set``, ``--print-config``
    and shortcuts for the settings changed most often."""
    add = parser.add_argument
    add(
        "--config",
        metavar="FILE",
        help=said(
            "settings file (%(typed)s; see %(file)s)", typed="TOML", file="hardware/carolus.toml"
        ),
    )
    add(
        "--set",
        metavar="KEY=VALUE",
        action="append",
        default=[],
        help=said(
            "override one setting, e.g. %(example)s",
            example="--set gpio.confirm=5 --set display.i2c_address=0x3D",
        ),
    )
    add(
        "--players",
        metavar="SEAT=NAME:CASTLES,...",
        help=said("e.g. %(example)s", example="south=Anna:white,north=Bob:black"),
    )
    add("--port", help=said("web page port (%(typed)s)", typed="web.port"))
    add(
        "--language",
        help=said("web page, display and voice language (%(typed)s)", typed="language"),
    )
    add(
        "--voice",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=said("speak announcements (%(typed)s)", typed="voice.enabled"),
    )
    add(
        "--no-display",
        action="store_true",
        help=said("run without the %(typed)s (%(typed2)s)", typed="OLED", typed2="display.enabled"),
    )
    add(
        "--no-gpio",
        action="store_true",
        help=said(
            "run without buttons, %(typed)s, buzzer (%(typed2)s)",
            typed="LEDs",
            typed2="gpio.enabled",
        ),
    )
    add("--print-config", action="store_true", help=N_("print the settings in effect and exit"))


def overrides_from_args(args: argparse.Namespace) -> dict[str, str | bool]:
    """The dotted-key overrides that the flags of `add_arguments` ask for: the text of a
    flag (read as a TOML value by `load_config`) or a switch's true or false."""
    overrides: dict[str, str | bool] = {}
    for item in getattr(args, "set", None) or []:
        key, eq, value = item.partition("=")
        if not eq:
            raise ConfigError(
                key.strip() or "--set",
                said("expected %(typed)s, got %(given)s", typed="KEY=VALUE", given=repr(item)),
            )
        overrides[key.strip()] = value.strip()
    shortcuts: dict[str, str | bool | None] = {
        "players": getattr(args, "players", None),
        "web.port": getattr(args, "port", None),
        "language": getattr(args, "language", None),
        "voice.enabled": getattr(args, "voice", None),
        "display.enabled": False if getattr(args, "no_display", False) else None,
        "gpio.enabled": False if getattr(args, "no_gpio", False) else None,
    }
    overrides.update({k: v for k, v in shortcuts.items() if v is not None})
    return overrides


def config_from_args(args: argparse.Namespace) -> Config:
    """`load_config` of ``--config`` with the flags on top; raises `ConfigError`."""
    return load_config(getattr(args, "config", None), overrides_from_args(args))
