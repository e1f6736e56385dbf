"""``carolus games``: list, show, export, import, replay and count the logged games."""

from __future__ import annotations

import argparse
import io
import json
import sqlite3
import sys
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from referee.terminal import for_terminal, say


def _date(text: str) -> str:
    try:
        datetime.strptime(text, "%Y-%m-%d")
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date YYYY-MM-DD") from None
    return text


def _game_id(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a game number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a game number")
    return value


def register(subparsers: Any) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--db",
        metavar="PATH",
        default=argparse.SUPPRESS,
        help="the game log file (default: $CAROLUS_DB, else the platform's data folder)",
    )
    games = subparsers.add_parser(
        "games",
        parents=[common],
        help="the game log: list, show, export, import, replay, stats",
        description="Every game the table refereed, entered or imported, kept in one SQLite file.",
    )
    games.set_defaults(handler=lambda args: _usage(games))
    sub = games.add_subparsers(dest="games_command", metavar="ACTION")

    p = sub.add_parser("list", parents=[common], help="list games, oldest first")
    p.add_argument("--player", help="only games this player played")
    p.add_argument("--since", type=_date, metavar="DATE", help="only games on or after DATE")
    p.add_argument("--until", type=_date, metavar="DATE", help="only games on or before DATE")
    p.add_argument(
        "--result",
        metavar="WHAT",
        help="running, finished, unfinished, castles, few-territories, draw, or a winner",
    )
    p.set_defaults(handler=run_list)

    p = sub.add_parser("show", parents=[common], help="a game's story: who won how")
    p.add_argument("id", type=_game_id, metavar="ID")
    p.add_argument(
        "--review",
        action="store_true",
        help="add the post-game review: the turns the loser lost most, with a better play",
    )
    p.set_defaults(handler=run_show)

    p = sub.add_parser(
        "export", parents=[common], help="write carolus-record/1 files (or a CSV of results)"
    )
    p.add_argument("ids", type=_game_id, nargs="*", metavar="ID")
    p.add_argument("--all", action="store_true", help="every game in the log")
    p.add_argument("--out", metavar="DIR", help="folder for the record files (default: .)")
    p.add_argument("--csv", metavar="FILE", help="write a CSV of results ('-' for stdout)")
    p.set_defaults(handler=run_export)

    p = sub.add_parser(
        "import", parents=[common], help="judge record files and keep the legal ones"
    )
    p.add_argument("files", nargs="+", metavar="FILE")
    p.set_defaults(handler=run_import)

    p = sub.add_parser(
        "replay", parents=[common], help="step through a game: Enter for the next turn, q quits"
    )
    p.add_argument("id", type=_game_id, metavar="ID")
    p.add_argument("--all", action="store_true", help="print every turn without waiting")
    p.set_defaults(handler=run_replay)

    p = sub.add_parser("stats", parents=[common], help="wins per player and colour, lengths")
    p.set_defaults(handler=run_stats)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def _error(message: str) -> None:
    say(f"carolus games: {message}", file=sys.stderr)


def _open(args: argparse.Namespace) -> Any:
    from firmware.gamelog.store import GameLog

    path = getattr(args, "db", None)
    log = GameLog(path)
    for warning in log.warnings:
        _error(f"warning: {warning}")
    return log


def _guard(run: Any) -> Any:
    """Turn the log's typed errors into one line and an exit code."""

    def handler(args: argparse.Namespace) -> int:
        from firmware.gamelog.store import GameLogError, UnknownGameError

        try:
            return int(run(args))
        except BrokenPipeError:
            raise  # the reader went away (`| head`): not the log's fault; main ends quietly
        except UnknownGameError as exc:
            _error(str(exc))
            return 2
        except GameLogError as exc:
            _error(str(exc))
            return 1
        except (sqlite3.Error, OSError) as exc:  # e.g. the disk failed while reading
            _error(f"the game log could not be read: {exc}")
            return 1

    handler.__name__ = run.__name__
    return handler


@_guard
def run_list(args: argparse.Namespace) -> int:
    from firmware.gamelog.summary import list_lines

    with _open(args) as log:
        rows = log.games(args.player, args.since, args.until, args.result)
    if not rows:
        say(_no_games(args))
        return 0
    say("\n".join(list_lines(rows)))
    return 0


def _no_games(args: argparse.Namespace) -> str:
    """"No games.", and where the demo's games are when the default log has none but
    the demo's log (which ``carolus run`` keeps apart) has some: the first thing a
    newcomer tries after watching the demo."""
    import os

    from firmware.gamelog.store import GameLog, GameLogError, default_path, demo_path

    filtered = any(getattr(args, k, None) for k in ("player", "since", "until", "result"))
    if filtered:
        return "No games match."
    if getattr(args, "db", None) is not None or os.environ.get("CAROLUS_DB"):
        return "No games."
    demo = demo_path()
    if not demo.is_file():
        return "No games."
    try:
        with GameLog(demo, readonly=True) as log:
            count = len(log.games())
    except (GameLogError, sqlite3.Error, OSError):
        return "No games."  # the demo's log is the demo's business: say nothing of it
    if not count:
        return "No games."
    games = "game is" if count == 1 else f"{count} games are"
    return (
        f"No games in {default_path()}. The demo's {games} in {demo}: "
        f"carolus games --db {demo} list"
    )


@_guard
def run_show(args: argparse.Namespace) -> int:
    from firmware.gamelog.summary import show_lines

    with _open(args) as log:
        say("\n".join(show_lines(log, args.id)))
        if args.review:
            from referee.advisor import review
            from referee.advisor.review import describe

            items = review(log.record(args.id), limit=5)
            say("Review (the costliest turns, with a better play):")
            say(describe(items) if items else "  nothing to review: no turn cost the loser")
    return 0


@_guard
def run_export(args: argparse.Namespace) -> int:
    from firmware.gamelog.summary import write_csv

    if not args.ids and not args.all:
        _error("export: name game IDs or --all")
        return 2
    with _open(args) as log:
        rows = log.games() if args.all else [log.game(i) for i in args.ids]
        if args.csv:
            if args.csv == "-":
                if sys.stdout.isatty():  # names shown, not obeyed; a pipe gets them as kept
                    text = io.StringIO()
                    write_csv(rows, text)
                    sys.stdout.write(for_terminal(text.getvalue()))
                else:
                    write_csv(rows, sys.stdout)
            else:
                with _create(Path(args.csv)) as out:
                    n = write_csv(rows, out)
                say(f"{args.csv}: {n} result lines for {len(rows)} games")
        if args.out or not args.csv:
            folder = Path(args.out or ".")
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                _error(f"{folder}: cannot make the folder: {exc.strerror or exc}")
                return 1
            for row in rows:
                path = folder / f"carolus-game-{row.id:04d}.json"
                with _create(path) as out:
                    out.write(json.dumps(log.record_json(row.id), indent=1, ensure_ascii=False))
                    out.write("\n")
                say(f"{path}: game {row.id} ({row.status})")
    return 0


def _create(path: Path) -> IO[str]:
    try:
        return path.open("w", encoding="utf-8", newline="")
    except OSError as exc:
        from firmware.gamelog.store import GameLogError

        raise GameLogError(f"{path}: cannot write: {exc.strerror or exc}") from None


@_guard
def run_import(args: argparse.Namespace) -> int:
    from firmware.gamelog.store import ImportRejectedError
    from referee.record import MalformedRecordError, loads, read_record_file

    worst = 0
    with _open(args) as log:
        for name in args.files:
            try:
                text = read_record_file(name)  # a FIFO or /dev/zero is refused, not read
                loads(text)  # the shape, with the field of any misfit
                imported = log.import_record(json.loads(text), name)  # kept as written
            except MalformedRecordError as exc:
                where = f" in {exc.field}" if exc.field else ""
                _error(f"{name}: not a valid record{where}: {exc.message}")
                worst = max(worst, 2)
                continue
            except ImportRejectedError as exc:
                _error(f"{name}: rejected: {exc.message}")
                worst = max(worst, exc.exit_code)
                continue
            if imported.note:
                _error(f"{name}: {imported.note}")
            if imported.duplicate:
                say(f"{name}: already in the log as game {imported.game_id}")
            else:
                say(f"{name}: kept as game {imported.game_id} ({imported.status})")
    return worst


@_guard
def run_replay(args: argparse.Namespace) -> int:
    from firmware.gamelog.summary import replay_lines, turns

    with _open(args) as log:
        row = log.game(args.id)
        setup, moves = log.setup(args.id), log.moves(args.id)
    say(f"Game {row.id}: " + ", ".join(f"{s.name} ({s.castles})" for s in row.seats))
    interactive = not args.all
    for turn, game in turns(setup, moves):
        say("\n".join(replay_lines(turn, game)), flush=True)
        if interactive:
            say("[Enter: next turn, q: quit] ", end="", flush=True)
            answer = sys.stdin.readline()
            if not answer or answer.strip().lower().startswith("q"):
                say()
                return 0
    say("End of the game log." if not interactive else "\nEnd of the game log.")
    return 0


@_guard
def run_stats(args: argparse.Namespace) -> int:
    from firmware.gamelog.summary import stats_lines

    with _open(args) as log:
        say("\n".join(stats_lines(log)))
    return 0
