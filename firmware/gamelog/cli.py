"""``carolus games``: list, show, export, import, replay and count the logged games.

The command's own words (its errors, what it wrote, kept or refused, the replay's
prompts) are `said` messages, told in ``--language`` (issue 17; English without one,
word for word what it was). The game's story, list and statistics are
`firmware.gamelog.summary`'s lines, said in the same language; so are the log's own
errors and warnings (`firmware.gamelog.store`: `said` messages too).
"""

from __future__ import annotations

import argparse
import io
import json
import sqlite3
import sys
from datetime import datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from referee.announcements import N_, clause, said
from referee.terminal import for_terminal, say

if TYPE_CHECKING:
    from referee.announcements import Translator


def _date(text: str) -> str:
    from firmware.parsing import type_error

    try:
        datetime.strptime(text, "%Y-%m-%d")
    except ValueError:
        raise type_error(
            said("%(given)s is not a date %(typed)s", given=repr(text), typed="YYYY-MM-DD")
        ) from None
    return text


def _game_id(text: str) -> int:
    from firmware.parsing import type_error

    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise type_error(said("%(given)s is not a game number", given=repr(text)))
    return value


def register(subparsers: Any) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--db",
        metavar="PATH",
        default=argparse.SUPPRESS,
        help=said(
            "the game log file (default: %(typed)s, else the platform's data folder)",
            typed="$CAROLUS_DB",
        ),
    )
    common.add_argument(
        "--language",
        metavar="LANG",
        default=argparse.SUPPRESS,
        help=said(
            "the command's own words: %(typed)s or %(typed2)s (default %(given)s)",
            typed="en, de, it, hu",
            typed2="fi",
            given="en",
        ),
    )
    games = subparsers.add_parser(
        "games",
        parents=[common],
        help=said("the game log: %(typed)s", typed="list, show, export, import, replay, stats"),
        description=said(
            "Every game the table refereed, entered or imported, kept in one %(typed)s file.",
            typed="SQLite",
        ),
    )
    games.set_defaults(handler=lambda args: _usage(games))
    sub = games.add_subparsers(dest="games_command", metavar="ACTION")

    p = sub.add_parser("list", parents=[common], help=N_("list games, oldest first"))
    p.add_argument("--player", help=N_("only games this player played"))
    p.add_argument(
        "--since",
        type=_date,
        metavar="DATE",
        help=said("only games on or after %(typed)s", typed="DATE"),
    )
    p.add_argument(
        "--until",
        type=_date,
        metavar="DATE",
        help=said("only games on or before %(typed)s", typed="DATE"),
    )
    p.add_argument(
        "--result",
        metavar="WHAT",
        help=said(
            "%(typed)s, or a winner",
            typed="running, finished, unfinished, castles, few-territories, draw",
        ),
    )
    p.set_defaults(handler=run_list)

    p = sub.add_parser("show", parents=[common], help=N_("a game's story: who won how"))
    p.add_argument("id", type=_game_id, metavar="ID")
    p.add_argument(
        "--review",
        action="store_true",
        help=N_("add the post-game review: the turns the loser lost most, with a better play"),
    )
    p.set_defaults(handler=run_show)

    p = sub.add_parser(
        "export",
        parents=[common],
        help=said(
            "write %(typed)s files (or a %(typed2)s of results)",
            typed="carolus-record/1",
            typed2="CSV",
        ),
    )
    p.add_argument("ids", type=_game_id, nargs="*", metavar="ID")
    p.add_argument("--all", action="store_true", help=N_("every game in the log"))
    p.add_argument("--out", metavar="DIR", help=N_("folder for the record files (default: .)"))
    p.add_argument(
        "--csv",
        metavar="FILE",
        help=said(
            "write a %(typed)s of results (%(given)s for %(typed2)s)",
            typed="CSV",
            given="'-'",
            typed2="stdout",
        ),
    )
    p.set_defaults(handler=run_export)

    p = sub.add_parser(
        "import", parents=[common], help=N_("judge record files and keep the legal ones")
    )
    p.add_argument("files", nargs="+", metavar="FILE")
    p.set_defaults(handler=run_import)

    p = sub.add_parser(
        "replay",
        parents=[common],
        help=said(
            "step through a game: %(typed)s for the next turn, %(typed2)s quits",
            typed="Enter",
            typed2="q",
        ),
    )
    p.add_argument("id", type=_game_id, metavar="ID")
    p.add_argument("--all", action="store_true", help=N_("print every turn without waiting"))
    p.set_defaults(handler=run_replay)

    p = sub.add_parser("stats", parents=[common], help=N_("wins per player and colour, lengths"))
    p.set_defaults(handler=run_stats)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def _language(args: argparse.Namespace) -> Translator:
    """The catalog of ``--language`` (English without one)."""
    from referee.announcements import ENGLISH

    name = getattr(args, "language", None)
    if not name:
        return ENGLISH
    from web.i18n import closest, translations

    return translations(closest(name))


def _tell(args: argparse.Namespace, message: str, before: str = "", **kwargs: Any) -> None:
    """A line to the terminal, a `said` message in ``--language`` (after ``before``)."""
    from referee.announcements import translated

    say(before + translated(message, _language(args)), **kwargs)


def _error(args: argparse.Namespace, message: str) -> None:
    from referee.announcements import translated

    say(f"carolus games: {translated(message, _language(args))}", file=sys.stderr)


def _open(args: argparse.Namespace) -> Any:
    from firmware.gamelog.store import GameLog

    path = getattr(args, "db", None)
    log = GameLog(path)
    for warning in log.warnings:
        _error(args, said("warning: %(clause)s", clause=clause(warning)))
    return log


def _words(exc: Exception) -> str:
    """The words an error was raised with, a `said` message kept as one (the log's own
    errors are: `firmware.gamelog.store`)."""
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, str) else str(exc)


def _guard(run: Any) -> Any:
    """Turn the log's typed errors into one line and an exit code."""

    def handler(args: argparse.Namespace) -> int:
        from firmware.gamelog.store import GameLogError, UnknownGameError

        try:
            return int(run(args))
        except BrokenPipeError:
            raise  # the reader went away (`| head`): not the log's fault; main ends quietly
        except UnknownGameError as exc:
            _error(args, _words(exc))
            return 2
        except GameLogError as exc:
            _error(args, _words(exc))
            return 1
        except (sqlite3.Error, OSError) as exc:  # e.g. the disk failed while reading
            _error(args, said("the game log could not be read: %(reason)s", reason=str(exc)))
            return 1

    handler.__name__ = run.__name__
    return handler


@_guard
def run_list(args: argparse.Namespace) -> int:
    from firmware.gamelog.summary import list_lines

    with _open(args) as log:
        rows = log.games(args.player, args.since, args.until, args.result)
    if not rows:
        _tell(args, _no_games(args))
        return 0
    say("\n".join(list_lines(rows, _language(args))))
    return 0


def _no_games(args: argparse.Namespace) -> str:
    """ "No games.", and where the demo's games are when the default log has none but
    the demo's log (which ``carolus run`` keeps apart) has some: the first thing a
    newcomer tries after watching the demo."""
    import os

    from firmware.gamelog.store import GameLog, GameLogError, default_path, demo_path

    filtered = any(getattr(args, k, None) for k in ("player", "since", "until", "result"))
    if filtered:
        return said("No games match.")
    if getattr(args, "db", None) is not None or os.environ.get("CAROLUS_DB"):
        return said("No games.")
    demo = demo_path()
    if not demo.is_file():
        return said("No games.")
    try:
        with GameLog(demo, readonly=True) as log:
            count = len(log.games())
    except (GameLogError, sqlite3.Error, OSError):
        return said("No games.")  # the demo's log is the demo's business: say nothing of it
    if not count:
        return said("No games.")
    typed = f"carolus games --db {demo} list"
    if count == 1:
        return said(
            "No games in %(file)s. The demo's game is in %(file2)s: %(typed)s",
            file=str(default_path()),
            file2=str(demo),
            typed=typed,
        )
    return said(
        "No games in %(file)s. The demo's %(count)s games are in %(file2)s: %(typed)s",
        file=str(default_path()),
        count=count,
        file2=str(demo),
        typed=typed,
    )


@_guard
def run_show(args: argparse.Namespace) -> int:
    from firmware.gamelog.summary import show_lines

    with _open(args) as log:
        say("\n".join(show_lines(log, args.id, _language(args))))
        if args.review:
            from referee.advisor import review
            from referee.advisor.review import describe

            items = review(log.record(args.id), limit=5)
            _tell(args, said("Review (the costliest turns, with a better play):"))
            if items:
                say(describe(items, _language(args)))
            else:
                _tell(args, said("nothing to review: no turn cost the loser"), "  ")
    return 0


@_guard
def run_export(args: argparse.Namespace) -> int:
    from firmware.gamelog.summary import write_csv

    if not args.ids and not args.all:
        _error(args, said("export: name game IDs or %(typed)s", typed="--all"))
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
                _tell(
                    args,
                    said(
                        "%(file)s: %(count)s result lines for %(count2)s games",
                        file=args.csv,
                        count=n,
                        count2=len(rows),
                    ),
                )
        if args.out or not args.csv:
            folder = Path(args.out or ".")
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                _error(
                    args,
                    said(
                        "%(file)s: cannot make the folder: %(reason)s",
                        file=str(folder),
                        reason=str(exc.strerror or exc),
                    ),
                )
                return 1
            for row in rows:
                path = folder / f"carolus-game-{row.id:04d}.json"
                with _create(path) as out:
                    out.write(json.dumps(log.record_json(row.id), indent=1, ensure_ascii=False))
                    out.write("\n")
                _tell(
                    args,
                    said(
                        "%(file)s: game %(game)s (%(clause)s)",
                        file=str(path),
                        game=row.id,
                        clause=_status(row.status),
                    ),
                )
    return 0


def _status(status: str) -> dict[str, object] | str:
    """A game's status as a clause: said in the language of the sentence round it."""
    from firmware.gamelog.summary import status_clause

    return status_clause(status)


def _create(path: Path) -> IO[str]:
    try:
        return path.open("w", encoding="utf-8", newline="")
    except OSError as exc:
        from firmware.gamelog.store import GameLogError

        reason = str(exc.strerror or exc)
        message = said("%(file)s: cannot write: %(reason)s", file=str(path), reason=reason)
        raise GameLogError(message) from None


@_guard
def run_import(args: argparse.Namespace) -> int:
    from firmware.gamelog.store import ImportRejectedError
    from referee.check import ErrorJSON, Verdict, describe
    from referee.record import MalformedRecordError, loads, read_record_file

    worst = 0
    with _open(args) as log:
        for name in args.files:
            try:
                text = read_record_file(name)  # a FIFO or /dev/zero is refused, not read
                loads(text)  # the shape, with the field of any misfit
                imported = log.import_record(json.loads(text), name)  # kept as written
            except MalformedRecordError as exc:  # said as `carolus check` says it
                error: ErrorJSON = {"code": "malformed", "field": exc.field, "message": exc.message}
                _error(args, describe(Verdict(name, None, error), _language(args)))
                worst = max(worst, 2)
                continue
            except ImportRejectedError as exc:
                _error(
                    args,
                    said("%(file)s: rejected: %(clause)s", file=name, clause=clause(exc.message)),
                )
                worst = max(worst, exc.exit_code)
                continue
            if imported.note:
                _error(args, said("%(file)s: %(clause)s", file=name, clause=clause(imported.note)))
            if imported.duplicate:
                _tell(
                    args,
                    said(
                        "%(file)s: already in the log as game %(game)s",
                        file=name,
                        game=imported.game_id,
                    ),
                )
            else:
                _tell(
                    args,
                    said(
                        "%(file)s: kept as game %(game)s (%(clause)s)",
                        file=name,
                        game=imported.game_id,
                        clause=_status(imported.status),
                    ),
                )
    return worst


@_guard
def run_replay(args: argparse.Namespace) -> int:
    from firmware.gamelog.summary import replay_lines, turns

    with _open(args) as log:
        row = log.game(args.id)
        setup, moves = log.setup(args.id), log.moves(args.id)
    tr = _language(args)
    seats = [said("%(player)s (%(side)s)", player=s.name, side=s.castles) for s in row.seats]
    _tell(args, said("Game %(game)s: %(items)s", game=row.id, items=[clause(s) for s in seats]))
    interactive = not args.all
    for turn, game in turns(setup, moves, tr):
        say("\n".join(replay_lines(turn, game, tr)), flush=True)
        if interactive:
            # what it understands stays as typed: Enter, q
            _tell(args, said("[Enter: next turn, q: quit] "), end="", flush=True)
            answer = sys.stdin.readline()
            if not answer or answer.strip().lower().startswith("q"):
                say()
                return 0
    _tell(args, said("End of the game log."), "" if not interactive else "\n")
    return 0


@_guard
def run_stats(args: argparse.Namespace) -> int:
    from firmware.gamelog.summary import stats_lines

    with _open(args) as log:
        say("\n".join(stats_lines(log, _language(args))))
    return 0
