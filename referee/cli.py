"""Sub-commands of the rules engine: ``carolus check`` and ``carolus play``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from referee.announcements import N_, said


def register(subparsers: Any) -> None:
    check = subparsers.add_parser(
        "check",
        help=N_("replay game records and judge them by the rules"),
        description=said(
            "Replay each %(typed)s file with the referee. Exit 0 when every record is legal, "
            "1 when one breaks a rule, 2 when a file is not a record.",
            typed="carolus-record/1",
        ),
    )
    check.add_argument("records", nargs="+", metavar="RECORD", help=N_("game record files"))
    check.add_argument("--json", action="store_true", help=N_("one JSON verdict per line"))
    check.add_argument(
        "--language",
        default="en",
        metavar="LANG",
        help=said(
            "the verdict's language: %(typed)s or %(typed2)s (default %(given)s; %(option)s "
            "stays as it is)",
            typed="en, de, it, hu",
            typed2="fi",
            given="en",
            option="--json",
        ),
    )
    check.set_defaults(handler=run_check)

    play = subparsers.add_parser(
        "play",
        help=N_("referee a game typed in move by move at the terminal"),
        description=N_(
            "Enter a game at the terminal: discs, cubes, emperor steps and refills, "
            "each checked by the rules and explained."
        ),
    )
    play.add_argument(
        "--players",
        required=False,
        default="Anna:white,Bob:black",
        help=said(
            "%(typed)s (default: %(given)s)", typed="NAME:CASTLES,...", given="Anna:white,Bob:black"
        ),
    )
    play.add_argument(
        "--seed", type=int, default=None, help=N_("seed for the dealt set-up and dice")
    )
    play.add_argument("--resume", metavar="RECORD", help=N_("continue the game in a record file"))
    play.add_argument(
        "--record", metavar="OUT", help=N_("write the game record here after each turn")
    )
    play.add_argument(
        "--language",
        default="en",
        metavar="LANG",
        help=said(
            "the referee's language: %(typed)s or %(typed2)s (default %(given)s)",
            typed="en, de, it, hu",
            typed2="fi",
            given="en",
        ),
    )
    play.set_defaults(handler=run_play)


def run_check(args: argparse.Namespace) -> int:
    from referee.check import check_file, describe
    from referee.terminal import json_for_terminal, say
    from web.i18n import closest, translations  # the catalogs (Babel), at the edge

    tr = translations(closest(getattr(args, "language", None) or "en"))
    worst = 0
    for path in args.records:
        verdict = check_file(path)
        if args.json:
            say(json_for_terminal(verdict.to_json()), flush=True)
        else:
            say(describe(verdict, tr), flush=True)
        worst = max(worst, verdict.exit_code)
    return worst


def run_play(args: argparse.Namespace) -> int:
    from referee.console import play_console
    from web.i18n import closest, translations  # the catalogs (Babel), at the edge

    tr = translations(closest(getattr(args, "language", None) or "en"))
    return play_console(args, sys.stdin, sys.stdout, tr)
