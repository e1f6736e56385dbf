"""Sub-commands of the rules engine: ``carolus check`` and ``carolus play``."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: Any) -> None:
    check = subparsers.add_parser(
        "check",
        help="replay game records and judge them by the rules",
        description="Replay each carolus-record/1 file with the referee. Exit 0 when every "
        "record is legal, 1 when one breaks a rule, 2 when a file is not a record.",
    )
    check.add_argument("records", nargs="+", metavar="RECORD", help="game record files")
    check.add_argument("--json", action="store_true", help="one JSON verdict per line")
    check.add_argument(
        "--language",
        default="en",
        metavar="LANG",
        help="the verdict's language: en, de, it, hu or fi (default en; --json stays as it is)",
    )
    check.set_defaults(handler=run_check)

    play = subparsers.add_parser(
        "play",
        help="referee a game typed in move by move at the terminal",
        description="Enter a game at the terminal: discs, cubes, emperor steps and refills, "
        "each checked by the rules and explained.",
    )
    play.add_argument(
        "--players",
        required=False,
        default="Anna:white,Bob:black",
        help="NAME:CASTLES,... (default: Anna:white,Bob:black)",
    )
    play.add_argument("--seed", type=int, default=None, help="seed for the dealt set-up and dice")
    play.add_argument("--resume", metavar="RECORD", help="continue the game in a record file")
    play.add_argument("--record", metavar="OUT", help="write the game record here after each turn")
    play.add_argument(
        "--language",
        default="en",
        metavar="LANG",
        help="the referee's language: en, de, it, hu or fi (default en)",
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
