"""The advisor's sentences: names, "you" for the player asking, cubes in words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.moves import PlayCubes
from referee.pieces import COLOURS


def name_or_you(name: str, you: str | None) -> str:
    return "you" if you is not None and name == you else name


def possessive(name: str, you: str | None) -> str:
    return "your" if you is not None and name == you else f"{name}'s"


def cubes_words(counts: Mapping[str, int]) -> str:
    """``{"yellow": 2, "red": 1}`` -> ``2 yellow + 1 red``."""
    return " + ".join(f"{n} {colour}" for colour, n in counts.items() if n)


def unit_words(territories: tuple[int, ...]) -> str:
    if len(territories) == 1:
        return f"territory {territories[0]}"
    return "region " + "+".join(str(t) for t in territories)


def count_words(colours: Sequence[str]) -> str:
    """``["yellow", "red", "yellow"]`` -> ``1 red + 2 yellow`` (colour order)."""
    return " + ".join(f"{colours.count(c)} {c}" for c in COLOURS if c in colours)


def play_words(play: PlayCubes, steps: int) -> str:
    """A turn in words: ``2 yellow to the court, 1 yellow onto 6; emperor 3 steps``."""
    parts = []
    if play.court:
        parts.append(f"{count_words(play.court)} to the court")
    for key, colours in play.territories:
        parts.append(f"{count_words(colours)} onto {key}")
    return f"{', '.join(parts)}; emperor {steps} step{'s' if steps != 1 else ''}"
