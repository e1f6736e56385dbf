"""``carolus advise RECORD``: threats, exposure and a hint for the end of a record.

Training mode at the terminal: the position after the record's last whole turn,
explained from one player's side (``--player``, default the player to move). With
``--review`` it also lists the turns where the eventual loser lost the most.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from referee.terminal import json_for_terminal, say


def register(subparsers: Any) -> None:
    advise = subparsers.add_parser(
        "advise",
        help="threats, exposure and the best play at the end of a game record",
        description="Replay a carolus-record/1 file and advise on the position after its "
        "last turn: colours and castles that can change hands this turn, what flips each "
        "unit, and the best play for the player to move. Exit 2 for a file that is not a "
        "record or an unknown player, 1 for a record that breaks a rule.",
    )
    advise.add_argument("record", metavar="RECORD", help="game record file")
    advise.add_argument("--player", metavar="NAME", help='whose side to speak to ("you")')
    advise.add_argument("--json", action="store_true", help="one JSON object")
    advise.add_argument(
        "--review", action="store_true", help="also review the losing side's costliest turns"
    )
    advise.set_defaults(handler=run_advise)


def run_advise(args: argparse.Namespace) -> int:
    from referee.advisor import advise
    from referee.advisor.review import describe, review
    from referee.check import judge
    from referee.record import MalformedRecordError, load

    try:
        record = load(args.record)
    except MalformedRecordError as exc:
        say(f"{args.record}: not a valid record: {exc}", file=sys.stderr)
        return 2
    verdict = judge(record, args.record)
    if not verdict.legal or verdict.game is None:
        error = verdict.error or {}
        say(
            f"{args.record}: breaks a rule ({error.get('code')}): {error.get('message')}",
            file=sys.stderr,
        )
        return 1
    game = verdict.game
    names = [p.name for p in game.players]
    you = args.player or game.to_move
    if args.player is not None and args.player not in names:
        say(
            f"{args.record}: --player {args.player!r} is not a player ({', '.join(names)})",
            file=sys.stderr,
        )
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
    say(_text(game, advice, you))
    if args.review:
        say("Review:")
        say(describe(items))
    return 0


def _text(game: Any, advice: Any, you: str | None) -> str:
    lines: list[str] = []
    if game.is_over:
        return f"The game is over: {game.describe_result()} in {game.progress}."
    where = str(game.progress).capitalize()
    if game.phase.value == "action":
        lines.append(f"{where}: {game.to_move} to play.")
    else:
        lines.append(f"{where} (threats count every disc still in hand; a hint needs the discs).")
    lines.append("Threats:")
    lines += [f"  {line}" for line in advice.threats.lines(you)] or ["  none"]
    lines.append("Exposure (smallest change that flips each unit):")
    lines += [f"  {e.text()}" for e in advice.exposure]
    hint = advice.hint
    if hint is not None:
        lines.append(f"Hint for {hint.play.player}: {hint.why}")
        lines += [f"  or: {h.why}" for h in advice.hints[1:3]]
    return "\n".join(lines)
