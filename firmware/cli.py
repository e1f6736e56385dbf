"""The one `carolus` command.

Each box of the product registers its own sub-commands; modules are imported only to
register their arguments, and the heavy libraries (OpenCV, Flask, gpiozero) only when a
sub-command runs, so `carolus check` starts fast on a Pi.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

#: Modules that contribute sub-commands, each exposing ``register(subparsers)``.
COMMAND_MODULES = (
    "referee.cli",
    "vision.cli",
    "firmware.follow",
    "firmware.run",
    "firmware.gamelog.cli",
    "referee.advisor.cli",
)

Handler = Callable[[argparse.Namespace], int]


def build_parser(language: str = "en") -> argparse.ArgumentParser:
    """The parser of every sub-command, speaking ``language`` (a code of
    `web.i18n.LANGUAGES`): its help and usage errors, argparse's words too
    (`firmware.parsing`)."""
    from firmware.parsing import catalog, speaking
    from referee.announcements import N_

    parser = speaking(catalog(language))(
        prog="carolus",
        description=N_("A table companion for Carolus Magnus: referee, camera, game log."),
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            # a box not built yet (or left out of this install) is skipped, nothing else
            if exc.name is None or not (name == exc.name or name.startswith(exc.name + ".")):
                raise
            continue
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from firmware.parsing import language

    arguments = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(language(arguments))
    args = parser.parse_args(arguments)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        code = handler(args)
        sys.stdout.flush()  # a closed pipe is met here, not in Python's flush at exit
        return code
    except KeyboardInterrupt:
        print(_interrupted(getattr(args, "language", None)), file=sys.stderr)
        return 130
    except BrokenPipeError:
        return _pipe_closed()


def _interrupted(language: str | None) -> str:
    """``interrupted`` in the language the command was asked to speak (``--language``),
    English without one."""
    from referee.announcements import said, translated

    text = said("interrupted")
    if not language:
        return text
    from web.i18n import closest, translations

    return translated(text, translations(closest(language)))


def _pipe_closed() -> int:
    """The reader of our output went away (``carolus games list | head -3``): that is
    the reader's choice, not a failure, so end quietly. Output still buffered would fail
    again when Python flushes at exit and print a traceback; it goes to /dev/null."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real stdout to redirect: nothing will be flushed
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
