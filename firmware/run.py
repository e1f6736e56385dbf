"""``carolus run``: the appliance — camera, referee, game log, display, buttons, voice, web.

On a Pi it watches the camera; anywhere else it plays the built-in demo (a bundled game
on a simulated table, read by the real vision and refereed by the real referee) so a
newcomer sees the whole product, web page included.

A live camera (and the demo) starts each new game with the set-up step (`firmware.bare`):
the tiles and court cards alone, Confirm, and the camera learns the bare table the pieces
are then read against. A recording (video, images) has nobody to press Confirm: it is read
against the bare table of the configured calibration, if it carries one. A game resumed
from the log uses the bare table stored with it.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.announcements import N_, said
from referee.terminal import for_terminal

if TYPE_CHECKING:  # each is imported where it is first needed: `carolus --help` stays quick
    from firmware.appliance import Appliance, Outputs
    from firmware.camera import CameraView
    from firmware.config import Config
    from firmware.gamelog.store import GameLog
    from firmware.watch import Eyes, FrameSource
    from referee.announcements import Translator
    from referee.setup import Player
    from vision.layout import Layout
    from vision.reader import Reader
    from vision.snapshot import SnapshotJSON
    from web.server import WebServer

log = logging.getLogger("carolus")

SOURCES = "picamera | usb:N | video:FILE | images:DIR | snapshots:FILE.jsonl | demo"

#: Where ``carolus run`` tells the person at the terminal what it does (a `said`
#: message is said in the table's language, `telling`).
Say = Callable[[str], None]


def register(subparsers: Any) -> None:
    from firmware.config import add_arguments

    p = subparsers.add_parser(
        "run",
        help=N_("run the appliance: watch the table, referee, announce, serve the web page"),
        description=N_(
            "Run the appliance. Without a camera it plays the built-in demo game. "
            "With a live camera (and in the demo) each new game starts with the set-up step: "
            "the tiles and court cards alone, Confirm, and the camera learns the bare table; a "
            "game resumed from the log reuses the one stored with it."
        ),
    )
    p.add_argument(
        "--source",
        default=None,
        metavar="SOURCE",
        help=said(
            "where frames come from: %(typed)s (default: picamera on a Pi, else demo)",
            typed=SOURCES,
        ),
    )
    p.add_argument(
        "--speed",
        type=float,
        default=1.0,
        help=N_("demo and recordings: play N times faster than life (0: as fast as possible)"),
    )
    p.add_argument("--demo-game", metavar="RECORD", help=N_("demo: play this record instead"))
    p.add_argument("--demo-turns", type=int, metavar="N", help=N_("demo: only the first N turns"))
    p.add_argument(
        "--db",
        metavar="FILE",
        help=said("game log file (default: %(typed)s or the data dir)", typed="$CAROLUS_DB"),
    )
    p.add_argument("--no-log", action="store_true", help=N_("keep no game log"))
    p.add_argument(
        "--no-pictures",
        action="store_true",
        help=N_("keep no picture of the table at the end of each turn in the game log"),
    )
    p.add_argument("--no-web", action="store_true", help=N_("serve no web page"))
    p.add_argument(
        "--host", help=said("web page address to listen on (%(typed)s)", typed="web.host")
    )
    p.add_argument(
        "--exit-at-end",
        action="store_true",
        help=N_("stop when the source runs out (the demo, a video) instead of serving on"),
    )
    p.add_argument("--seconds", type=float, help=N_("stop after this many seconds"))
    p.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help=said("log every event to %(typed)s", typed="stderr"),
    )
    add_arguments(p)
    p.set_defaults(handler=run)


#: glibc's mallopt parameters, and the size from which a block is mapped on its own.
M_MMAP_THRESHOLD, M_ARENA_MAX = -3, -8
BIG_BLOCK = 256 * 1024


def give_big_blocks_back() -> bool:
    """Have glibc's allocator give every big block back to the system when it is freed;
    whether it could be told (glibc on Linux).

    Reading a frame makes some tens of MB of short-lived arrays. glibc maps big blocks
    on their own at first, but raises that threshold to the largest block freed so far
    (up to 32 MB), after which such arrays come from the heap, which keeps what it once
    held: the appliance's resident memory grew by the frames' working set and stayed
    there. A fixed threshold keeps it mapped (and returned) every time, and two arenas
    instead of one per thread (web page, display) keep the threads' heaps few. Issue 15:
    the appliance's peak resident memory over a whole demo game at most 150 MB."""
    import ctypes
    import ctypes.util

    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False  # not glibc (musl has no mallopt)
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, BIG_BLOCK)) and bool(mallopt(M_ARENA_MAX, 2))


def _fail(message: str, tr: Translator | None = None) -> int:
    """Why ``carolus run`` stops before it runs, in ``tr``'s language (English without
    one); exit code 2."""
    from referee.announcements import ENGLISH, translated

    print(for_terminal(f"carolus run: {translated(message, tr or ENGLISH)}"), file=sys.stderr)
    return 2


def language(name: str | None) -> Translator:
    """The catalog of the table's language ``name`` (``de``, ``hu_HU`` …), English
    without one: the operator reads ``carolus run``'s lines in the language the table
    speaks (issue 17). The catalogs (Babel) are imported here, when the command runs,
    as everything else this module needs: importing it stays light."""
    if not name:
        from referee.announcements import ENGLISH

        return ENGLISH
    from web.i18n import closest, translations

    return translations(closest(name))


def telling(tr: Translator | None = None) -> Say:
    """The `Say` of ``carolus run``: a line to the terminal (stderr), a `said` message
    in ``tr``'s language (English without one); other text (a device's, the system's)
    as it is."""

    def say(text: str) -> None:
        from referee.announcements import ENGLISH, translated

        print(for_terminal(translated(text, tr or ENGLISH)), file=sys.stderr, flush=True)

    return say


def on_a_pi() -> bool:
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text().lower()
    except OSError:
        return False


_say = telling()


class RunError(Exception):
    """Why ``carolus run`` cannot go on, in words for the person who started it: a
    `said` message (``message``), said in the table's language."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _message(exc: Exception) -> str:
    """The words an error was raised with, a `said` message kept as one."""
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, str) else str(exc)


@dataclass(frozen=True)
class Plan:
    """Where frames come from, who plays, and the vision that reads them."""

    players: list[Player]
    open: Callable[[], FrameSource]
    eyes: Eyes
    demo: bool
    once: bool
    """The source runs out (a video, the demo) rather than being reopened as a camera."""
    ask_bare: bool
    """Each new game starts with the set-up step (someone is there to press Confirm)."""


def run(args: argparse.Namespace) -> int:
    from firmware.config import ConfigError, config_from_args, dump_config
    from referee.announcements import said

    try:
        config = config_from_args(args)
        if args.host:
            from firmware.config import load_config, overrides_from_args

            config = load_config(args.config, {**overrides_from_args(args), "web.host": args.host})
    except ConfigError as exc:  # in --language, else in the language the file names
        return _fail(_message(exc), language(getattr(args, "language", None) or exc.language))
    if args.print_config:
        print(dump_config(config), end="")
        return 0
    tr = language(config.language)
    say = telling(tr)
    if args.speed < 0:
        return _fail(
            said("%(option)s %(given)s must be 0 or more", option="--speed", given=args.speed), tr
        )
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(message)s",
        stream=sys.stderr,
    )
    source = args.source or ("picamera" if on_a_pi() else "demo")
    started = time.monotonic()
    give_big_blocks_back()
    try:
        with ExitStack() as stack:  # what is opened is closed in reverse, however run ends
            try:
                plan = _plan_source(source, args, config)
            except ValueError as exc:
                raise RunError(_message(exc)) from None
            gamelog = _open_log(args, config, plan, stack, say)
            appliance = assemble(config, plan, gamelog, source, say)
            stack.callback(appliance.close)
            if gamelog is not None and not plan.demo:
                resume_running(gamelog, appliance, say)
            web = None if args.no_web else _serve(config, appliance, gamelog, stack, say)
            _watch(args, plan, appliance, source, started, has_web=web is not None, say=say)
    except RunError as exc:
        return _fail(exc.message, tr)
    return 0


def assemble(
    config: Config, plan: Plan, gamelog: GameLog | None, source: str, say: Say = _say
) -> Appliance:
    """The appliance for ``plan``: its referee, log, camera view and outputs, in one
    place (the outputs are opened for it, since they ask it back)."""
    from firmware.appliance import Appliance

    return Appliance(
        plan.players,
        gamelog=gamelog,
        outputs=partial(_open_outputs, config, say=say),
        camera="demo" if plan.demo else "ok",
        meta={"source": source},
        camera_view=_camera_view(plan, config),
        eyes=plan.eyes,
        ask_bare=plan.ask_bare,
    )


def _open_log(
    args: argparse.Namespace, config: Config, plan: Plan, stack: ExitStack, say: Say = _say
) -> GameLog | None:
    """The game log, locked first; the demo's own is started afresh each time. A busy
    port is said here too: before a game is resumed or a log opened."""
    from firmware.gamelog.lock import LogInUseError, LogLockError, lock_log
    from firmware.gamelog.store import GameLog, GameLogError, default_path, demo_path
    from referee.announcements import clause, said

    if args.no_log:
        _check_port(args, config)
        return None
    fresh = args.db is None and not os.environ.get("CAROLUS_DB") and plan.demo
    path = demo_path() if fresh else Path(args.db) if args.db else default_path()
    # the lock before anything reads or writes the log (or the demo deletes it)
    try:
        stack.callback(lock_log(path).release)
    except LogInUseError as exc:
        raise RunError(
            said(
                "%(reason)s; stop it first, or give this one another %(option)s",
                reason=str(exc),
                option="--db",
            )
        ) from None
    except LogLockError as exc:
        raise RunError(
            said(
                "%(reason)s; run with %(option)s, or %(typed)s in a folder you can write",
                reason=str(exc),
                option="--no-log",
                typed="--db FILE",
            )
        ) from None
    _check_port(args, config)
    if fresh:
        try:
            _start_afresh(path)
        except OSError as exc:
            raise RunError(
                said(
                    "the data folder %(folder)s cannot be written (%(reason)s), so the demo "
                    "cannot start its game log afresh; run with %(option)s, or %(typed)s in a "
                    "folder you can write",
                    folder=str(path.parent),
                    reason=exc.strerror or str(exc),
                    option="--no-log",
                    typed="--db FILE",
                )
            ) from None
        say(
            said(
                "The demo's game log (started afresh): %(file)s; see its games with: %(typed)s",
                file=str(path),
                typed=f"carolus games --db {path} list",
            )
        )
    try:
        gamelog = GameLog(path, images=not args.no_pictures)
    except GameLogError as exc:
        raise RunError(said("game log: %(clause)s", clause=clause(_message(exc)))) from None
    stack.callback(gamelog.close)
    for warning in gamelog.warnings:  # the log's own `said` messages, in the table's language
        say(said("game log: %(clause)s", clause=clause(warning)))
    return gamelog


def _check_port(args: argparse.Namespace, config: Config) -> None:
    if not args.no_web:
        problem = _cannot_listen(config.web.host, int(config.web.port))
        if problem is not None:
            raise RunError(problem)


def _serve(
    config: Config, appliance: Appliance, gamelog: GameLog | None, stack: ExitStack, say: Say = _say
) -> WebServer:
    """The web page over the appliance; its address and PIN said."""
    from referee.announcements import said
    from web.server import serve

    try:
        web = serve(
            appliance,
            config.web.host,
            int(config.web.port),
            log=gamelog,
            language=config.language,
            keys_file=None if gamelog is None else Path(gamelog.path).with_name("web-keys.json"),
            allowed_hosts=config.web.extra_hosts,
            camera_needs_pin=config.web.camera_needs_pin,
        )
    except (OSError, ValueError) as exc:  # waitress: ValueError for a host it cannot resolve
        raise RunError(_cannot_listen_on(config.web.host, int(config.web.port), exc)) from None
    stack.callback(web.stop)
    say(said("Web page: %(url)s  (PIN for corrections: %(pin)s)", url=web.url, pin=web.pin))
    if config.web.host in ("0.0.0.0", "", "::"):
        import socket

        url = f"http://{socket.gethostname()}.local:{web.port}/"
        say(said("  on the local network: %(url)s", url=url))
    return web


def _cannot_listen_on(host: str, port: int, exc: Exception) -> str:
    from referee.announcements import said

    return said(
        "web page: cannot listen on %(address)s: %(reason)s",
        address=f"{host}:{port}",
        reason=getattr(exc, "strerror", None) or str(exc),
    )


def _watch(
    args: argparse.Namespace,
    plan: Plan,
    appliance: Appliance,
    source: str,
    started: float,
    *,
    has_web: bool,
    say: Say = _say,
) -> None:
    """Watch the source until asked to stop (a signal, ``--seconds``) or, for a source
    that runs out, until it has; the page then stays up unless ``--exit-at-end``."""
    from firmware.watch import watch
    from referee.announcements import clause, said

    stop = threading.Event()

    def ask_to_stop(signum: int, _frame: object) -> None:
        say(said("stopping (%(signal)s)", signal=signal.Signals(signum).name))
        stop.set()

    signal.signal(signal.SIGTERM, ask_to_stop)
    signal.signal(signal.SIGINT, ask_to_stop)
    if args.seconds is not None:
        threading.Timer(args.seconds, stop.set).start()
    opener = plays_along(plan.open, appliance) if plan.demo else plan.open
    took = f"{time.monotonic() - started:.1f}"
    say(said("Watching %(source)s; started in %(seconds)s s.", source=source, seconds=took))
    status = "demo" if plan.demo else "ok"
    stats = watch(opener, plan.eyes, appliance, stop, status=status, once=plan.once)
    if plan.once and not stop.is_set():
        game = appliance.referee.game
        result = game.describe_result() if game else said("no game was played")
        say(
            said(
                "The %(source)s is over after %(frames)s frames: %(clause)s.",
                source=source,
                frames=stats.frames,
                clause=clause(result),
            )
        )
        if not args.exit_at_end and has_web:
            say(said("The web page stays up; Ctrl-C to stop."))
            # a timed wait: a plain Event.wait() would hold off the signal handlers
            while not stop.wait(0.5):
                pass


def _start_afresh(path: Path) -> None:
    """Delete the last demo's log (with its WAL files, which a fresh file must not
    inherit); only under the lock, so never a log another appliance has open."""
    for name in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        name.unlink(missing_ok=True)


def _cannot_listen(host: str, port: int) -> str | None:
    """Why the web page could not listen on ``host:port``, found by binding it once:
    cheap, and it lets a second appliance on a busy port stop before it opens the log.
    The server binds again later; a port taken in between still fails clearly there."""
    import socket

    if port == 0:
        return None
    try:
        places = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except OSError:
        return None  # a name that does not resolve: the server says so in its words
    for family, kind, proto, _, address in places:
        try:
            with socket.socket(family, kind, proto) as probe:
                # as the server does, so a port in TIME_WAIT is not taken for a busy one
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:
                    probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                probe.bind(address)
        except OSError as exc:
            return _cannot_listen_on(host, port, exc)
    return None


def resume_running(gamelog: GameLog, appliance: Appliance, say: Say = _say) -> bool:
    """Carry on the game the log holds as running, if these players were playing it,
    read against the bare table stored with it (no set-up step: the pieces are out)."""
    from referee.announcements import said

    resumed = gamelog.open_running()
    if resumed is None:
        return False
    if [p.name for p in resumed.game.players] != [p.name for p in appliance.players]:
        say(
            said(
                "game %(game)s in the log was left running with other players",
                game=resumed.game_id,
            )
        )
        return False
    appliance.resume(resumed.game, resumed.game_id, resumed.last_t, resumed.bare_table)
    say(appliance.message)
    return True


#: Demo seconds a question stands on the display before the demo's players answer it.
ANSWER_AFTER_S = 1.5


def plays_along(
    open_demo: Callable[[], FrameSource], appliance: Appliance
) -> Callable[[], FrameSource]:
    """The demo's source, made to play along as the players at a table would, through
    the appliance's own doors: Confirm pressed in the set-up step (`Appliance.press`),
    and each question the referee asks answered from the table the demo truly shows
    (`Appliance.answer`): yes when the camera read the zone right, no when it did not."""

    def press() -> None:
        if appliance.bare.waiting:
            appliance.press("confirm")

    asked: dict[str, Any] = {}

    def answer(truth: SnapshotJSON, t: float) -> None:
        from firmware.hub import CommandError
        from referee.table import doubts
        from referee.table.snapshot import parse_snapshot, table_of

        question = appliance.referee.question
        if question is None:
            asked.clear()
            return
        seen = (question.zone, question.part, repr(sorted(question.counts.items())))
        if asked.get("question") != seen:
            asked.update(question=seen, since=t)
        snapshot = parse_snapshot(truth)
        if t - asked["since"] < ANSWER_AFTER_S or not snapshot.trusted:
            return      # people read the question first, and answer with their hands off
        right = doubts.counts(table_of(snapshot), question.zone) == dict(question.counts)
        asked["since"] = t      # a refused answer is given again a moment later
        try:
            appliance.answer("yes" if right else "no")
        except CommandError as exc:
            log.info("demo: the answer to %s was refused: %s", question.zone, exc)

    def opened() -> FrameSource:
        from firmware.demo import DemoSource

        source = open_demo()
        if isinstance(source, DemoSource):  # the demo's own hooks
            source.confirm = press
            source.answer = answer
        return source

    return opened


def _plan_source(spec: str, args: argparse.Namespace, config: Config) -> Plan:
    """How to open ``spec``, who plays, and the vision that reads it."""
    from referee.announcements import said
    from referee.setup import Player

    if spec == "demo":
        from firmware.demo import DemoSource, demo_record

        try:
            record = demo_record(args.demo_game)
        except Exception as exc:
            raise ValueError(_not_a_demo(args.demo_game, exc)) from None
        players = list(record.setup.players)

        # the demo's simulated camera takes the configured size, as the Pi's camera does
        # (a smaller one draws and reads a whole game several times faster)
        width, height = config.camera.resolution

        def open_demo() -> FrameSource:
            return DemoSource(
                record, speed=args.speed, turns=args.demo_turns, width=width, height=height
            )

        return Plan(players, open_demo, _eyes(config), demo=True, once=True, ask_bare=True)
    players = [Player(p.name, p.castles, p.seat) for p in config.players]
    kind, _, rest = spec.partition(":")
    from vision import sources

    if spec == "picamera":
        width, height = config.camera.resolution

        def open_camera() -> FrameSource:
            return sources.PiCameraSource((int(width), int(height)))

        once = False
        opener = open_camera
    elif kind == "usb" and rest.isdigit():
        opener, once = (lambda: sources.VideoSource(int(rest))), False
    elif kind == "video" and rest:
        if not Path(rest).is_file():
            raise ValueError(said("--source %(given)s: no such video file", given=spec))
        opener, once = (lambda: sources.VideoSource(rest)), True
    elif kind == "images" and rest:
        if not Path(rest).is_dir():
            raise ValueError(said("--source %(given)s: no such folder", given=spec))
        fps = float(config.camera.fps)
        opener, once = (lambda: sources.ImageFolderSource(rest, fps)), True
    elif kind == "snapshots" and rest:
        if not Path(rest).is_file():
            raise ValueError(said("--source %(given)s: no such file", given=spec))
        speed = args.speed
        return Plan(
            players,
            lambda: SnapshotFile(rest, speed),
            PassThrough(),
            demo=False,
            once=True,
            ask_bare=False,
        )
    else:
        raise ValueError(
            said("--source %(given)s is not one of: %(typed)s", given=repr(spec), typed=SOURCES)
        )
    # a recording has nobody to press Confirm: no set-up step
    return Plan(players, opener, _eyes(config), demo=False, once=once, ask_bare=not once)


def _not_a_demo(given: str | None, exc: Exception) -> str:
    """Why ``--demo-game`` cannot be played: a record's fault (`MalformedRecordError`, a
    bad set-up) is said in the table's language from its msgid; anything else as the
    error words it."""
    from referee.announcements import Said, clause, said

    why = getattr(exc, "message", None)
    field = getattr(exc, "field", None)
    if isinstance(why, Said) and field:
        return said(
            "%(option)s %(given)s: %(field)s: %(clause)s",
            option="--demo-game",
            given=given,
            field=field,
            clause=clause(why),
        )
    if isinstance(why, Said):
        return said(
            "%(option)s %(given)s: %(clause)s",
            option="--demo-game",
            given=given,
            clause=clause(why),
        )
    return said(
        "%(option)s %(given)s: %(reason)s", option="--demo-game", given=given, reason=str(exc)
    )


class SnapshotFile:
    """A recorded stream of snapshots (``.jsonl``) played back at ``speed``: the table
    referee without the camera, for trying the appliance and for tests."""

    def __init__(self, path: str, speed: float) -> None:
        self.path, self.speed = path, speed
        self._closed = False

    def frames(self) -> Iterator[tuple[float, Any]]:
        import json

        start = time.monotonic()
        with open(self.path, encoding="utf-8") as lines:
            for number, line in enumerate(lines, start=1):
                if self._closed:
                    return
                if not line.strip():
                    continue
                try:
                    snapshot = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise ValueError(f"{self.path}:{number}: not JSON ({exc.msg})") from None
                t = float(snapshot.get("t") or 0.0)
                if self.speed > 0:
                    wait = start + t / self.speed - time.monotonic()
                    if wait > 0:
                        time.sleep(wait)
                yield t, snapshot

    def close(self) -> None:
        self._closed = True


class PassThrough:
    """The eyes of a snapshot stream: the snapshot is already what vision would say."""

    def read(self, frame: Any, t: float | None = None) -> Any:
        return frame


def _eyes(config: Config) -> Reader:
    """The vision reader for the configured layout and calibration."""
    return _vision(config)[0]


def _vision(config: Config) -> tuple[Reader, Layout]:
    from vision.calibration import CalibrationError, load, reader_for
    from vision.layout import LayoutError, load_layout

    try:
        layout = load_layout(config.camera.layout or None)
        calibration = load(Path(config.camera.calibration)) if config.camera.calibration else None
        return reader_for(layout, calibration), layout
    except (LayoutError, CalibrationError) as exc:
        from vision.cli import said_reason  # the file, field and value in the table's language

        raise ValueError(said_reason(str(exc))) from None


def _camera_view(plan: Plan, config: Config) -> CameraView | None:
    """What the web page's camera view shows (none for a snapshot stream)."""
    from firmware.camera import CameraView

    eyes = plan.eyes
    if isinstance(eyes, PassThrough):
        return None  # (before OpenCV is imported: a snapshot stream has no picture)
    from vision.reader import Reader

    if not isinstance(eyes, Reader):
        return None
    return CameraView(eyes, eyes.layout, config.camera.calibration or None)


def _open_outputs(config: Config, appliance: Appliance, say: Say = _say) -> Outputs:
    """The display, buttons/LEDs/buzzer and voice — each optional, each said once if absent."""
    from firmware.appliance import Output, Outputs
    from firmware.controls import open_controls
    from firmware.display.device import open_device, stand_in
    from firmware.display.panel import Display
    from firmware.voice import Voice

    if config.display.enabled:
        device, _real = open_device(config.display, say)
    else:
        device = stand_in()
    display = Display.from_config(
        device,
        config.display,
        majorities=appliance.majorities,
        advice=lambda: appliance.advice() if appliance.training else None,
        language=config.language,
    )
    display.start()
    shows: list[Output] = [display]
    if config.gpio.enabled:
        shows.append(open_controls(appliance, config.gpio, say))
    shows.append(Voice.from_config(config, say))
    return Outputs(shows, display_png=display.png)
