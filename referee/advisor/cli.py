"""``carolus advise RECORD``: threats, exposure and a hint for the end of a record.

Training mode at the terminal: the position after the record's last whole turn,
explained from one player's side (``--player``, default the player to move). With
``--review`` it also lists the turns where the eventual loser lost the most.

The command's own words (a file that is no record or breaks a rule, an unknown player,
its headings and where the game stands) and the advisor's threats, exposure, hints and
review (`said` messages built in `referee.advisor`) are told in ``--language`` (issue
17; English word for word without one); ``--json`` stays English.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from referee.announcements import ENGLISH, N_, clause, said, translated
from referee.terminal import json_for_terminal, say

if TYPE_CHECKING:
    from referee.advisor import Advice
    from referee.announcements import Translator
    from referee.game import Game


def register(subparsers: Any) -> None:
    advise = subparsers.add_parser(
        "advise",
        help=N_("threats, exposure and the best play at the end of a game record"),
        description=said(
            "Replay a %(typed)s file and advise on the position after its last turn: colours "
            "and castles that can change hands this turn, what flips each unit, and the best "
            "play for the player to move. Exit 2 for a file that is not a record or an "
            "unknown player, 1 for a record that breaks a rule.",
            typed="carolus-record/1",
        ),
    )
    advise.add_argument("record", metavar="RECORD", help=N_("game record file"))
    advise.add_argument("--player", metavar="NAME", help=N_('whose side to speak to ("you")'))
    advise.add_argument("--json", action="store_true", help=N_("one JSON object"))
    advise.add_argument(
        "--review", action="store_true", help=N_("also review the losing side's costliest turns")
    )
    advise.add_argument(
        "--language",
        default="en",
        metavar="LANG",
        help=said(
            "its words and the advice: %(typed)s or %(typed2)s (default %(given)s; "
            "%(option)s stays as it is)",
            typed="en, de, it, hu",
            typed2="fi",
            given="en",
            option="--json",
        ),
    )
    advise.set_defaults(handler=run_advise)


def run_advise(args: argparse.Namespace) -> int:
    from referee.advisor import advise
    from referee.advisor.review import describe, review
    from referee.check import ErrorJSON, Verdict, judge
    from referee.check import describe as describe_verdict
    from referee.record import MalformedRecordError, load

    tr = _language(getattr(args, "language", None))
    try:
        record = load(args.record)
    except MalformedRecordError as exc:  # said as `carolus check` says it
        error: ErrorJSON = {"code": "malformed", "field": exc.field, "message": exc.message}
        say(describe_verdict(Verdict(args.record, None, error), tr), file=sys.stderr)
        return 2
    verdict = judge(record, args.record)
    if not verdict.legal or verdict.game is None:
        error = verdict.error or {}
        broken = said(
            "%(file)s: breaks a rule (%(code)s): %(clause)s",
            file=args.record,
            code=error.get("code"),
            clause=clause(error.get("message") or ""),
        )
        say(translated(broken, tr), file=sys.stderr)
        return 1
    game = verdict.game
    names = [p.name for p in game.players]
    you = args.player or game.to_move
    if args.player is not None and args.player not in names:
        unknown = said(
            "%(file)s: %(option)s %(given)s is not a player (%(typed)s)",
            file=args.record,
            option="--player",
            given=repr(args.player),
            typed=", ".join(names),
        )
        say(translated(unknown, tr), file=sys.stderr)
        return 2
    advice = advise(game)
    items = review(record) if args.review else []
    if args.json:
        data: dict[str, Any] = {
            "file": args.record,
            "round": game.progress.round,
            "turn": game.progress.turn,
            "phase": game.phase.value,
            "to_move": game.to_move,
            "player": you,
            "finished": game.is_over,
            "winner": game.winner,
            **advice.to_json(),
        }
        if args.review:
            data["review"] = [i.to_json() for i in items]
        say(json_for_terminal(data))
        return 0
    say(_text(game, advice, you, tr))
    if args.review:
        say(translated(said("Review:"), tr))
        say(describe(items, tr))
    return 0


def _language(name: str | None) -> Translator:
    """The catalog of ``--language`` (English without one)."""
    if not name:
        return ENGLISH
    from web.i18n import closest, translations  # the catalogs (Babel), at the edge

    return translations(closest(name))


def _text(game: Game, advice: Advice, you: str | None, tr: Translator = ENGLISH) -> str:
    def t(message: str) -> str:
        return translated(message, tr)

    lines: list[str] = []
    progress = game.progress
    where = (
        said("Round %(round)s, discs being chosen", round=progress.round)
        if progress.turn == 0
        else said("Round %(round)s, turn %(turn)s", round=progress.round, turn=progress.turn)
    )
    if game.is_over:
        within = (
            said("round %(round)s, discs being chosen", round=progress.round)
            if progress.turn == 0
            else said("round %(round)s, turn %(turn)s", round=progress.round, turn=progress.turn)
        )
        return t(
            said(
                "The game is over: %(clause)s in %(clause2)s.",
                clause=clause(game.describe_result()),
                clause2=clause(within),
            )
        )
    if game.phase.value == "action":
        lines.append(
            t(said("%(clause)s: %(player)s to play.", clause=clause(where), player=game.to_move))
        )
    else:
        lines.append(
            t(
                said(
                    "%(clause)s (threats count every disc still in hand; a hint needs the discs).",
                    clause=clause(where),
                )
            )
        )
    lines.append(t(said("Threats:")))
    lines += [f"  {t(line)}" for line in advice.threats.lines(you)] or ["  " + t(said("none"))]
    lines.append(t(said("Exposure (smallest change that flips each unit):")))
    lines += [f"  {t(e.text())}" for e in advice.exposure]
    hint = advice.hint
    if hint is not None:
        lines.append(
            t(
                said(
                    "Hint for %(player)s: %(clause)s",
                    player=hint.play.player,
                    clause=clause(hint.why),
                )
            )
        )
        lines += ["  " + t(said("or: %(clause)s", clause=clause(h.why))) for h in advice.hints[1:3]]
    return "\n".join(lines)
