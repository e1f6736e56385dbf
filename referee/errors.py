"""Why a move is refused: one `ValueError` subclass per rule, each with its record code.

The codes are those of ``carolus check`` (``docs/record.md``); the table referee
adds its own for acts only a camera can see.
"""

from __future__ import annotations

from typing import ClassVar


class IllegalMoveError(ValueError):
    """A move that the rules forbid. ``code`` names the rule, ``player`` who broke it."""

    code: ClassVar[str] = "illegal"

    def __init__(self, message: str, player: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.player = player


class BadSetupError(IllegalMoveError):
    code = "bad-setup"


class AfterEndError(IllegalMoveError):
    code = "after-end"


class DiscOrderError(IllegalMoveError):
    code = "disc-order"


class DiscUnavailableError(IllegalMoveError):
    code = "disc-unavailable"


class DiscTakenError(IllegalMoveError):
    code = "disc-taken"


class TurnOrderError(IllegalMoveError):
    code = "turn-order"


class UnknownTerritoryError(IllegalMoveError):
    code = "unknown-territory"


class UnknownColourError(IllegalMoveError):
    code = "unknown-colour"


class CubeCountError(IllegalMoveError):
    code = "cube-count"


class NotInReserveError(IllegalMoveError):
    code = "not-in-reserve"


class EmperorStepsError(IllegalMoveError):
    code = "emperor-steps"


class RefillCountError(IllegalMoveError):
    code = "refill-count"


class BadReturnError(IllegalMoveError):
    code = "bad-return"


class SupplyEmptyError(IllegalMoveError):
    code = "supply-empty"


ERRORS_BY_CODE: dict[str, type[IllegalMoveError]] = {
    cls.code: cls
    for cls in (
        BadSetupError,
        AfterEndError,
        DiscOrderError,
        DiscUnavailableError,
        DiscTakenError,
        TurnOrderError,
        UnknownTerritoryError,
        UnknownColourError,
        CubeCountError,
        NotInReserveError,
        EmperorStepsError,
        RefillCountError,
        BadReturnError,
        SupplyEmptyError,
    )
}


class RefusedError(ValueError):
    """A request the table referee refuses (an answer when nothing is asked, a correction
    before any table settled, players it cannot seat). ``message`` is the reason, a
    `referee.announcements.Said` where it is worded for people, so every box says it again
    in its language (`translated`); ``str()`` is the English."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
