"""Post-game review: the turns where the eventual loser lost the most.

The record is replayed; before each turn of a losing player the hint search runs, and
his actual play is scored by the same evaluation (`score_play`). The difference is what
the turn cost him, in the search's units (10 = one castle ahead). The search is one
reply deep and ignores the dice, so a review is a second opinion, not a verdict.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from referee.advisor.hints import CASTLE, WIN, Hint, Search
from referee.advisor.words import play_words
from referee.announcements import ENGLISH, Said, Translator, clause, said, translated
from referee.game import Game
from referee.moves import ChooseDisc, Move, PlayCubes
from referee.record import Record
from referee.replay import replay


@dataclass(frozen=True)
class ReviewItem:
    """One turn of a loser: what he played, what the search prefers, and the cost."""

    round: int
    turn: int
    player: str
    played: PlayCubes
    steps: int
    played_score: float
    better: Hint
    loss: float
    consequence: str  # what the played turn allowed, e.g. "Bob could then take over ..."

    def cost_words(self) -> Said:
        if self.loss >= WIN / 2:
            return said("this turn lost the game")
        return said("this turn cost %(amount)s castles' worth", amount=f"{self.loss / CASTLE:.1f}")

    def text(self) -> Said:
        """The turn's line (a `said` message: English, said again by `translated`)."""
        words: dict[str, object] = {
            "round": self.round,
            "turn": self.turn,
            "player": self.player,
            "clause": clause(play_words(self.played, self.steps)),
            "clause3": clause(self.cost_words()),
            "clause4": clause(self.better.why),
        }
        if self.consequence:
            return said(
                "Round %(round)s, turn %(turn)s — %(player)s played %(clause)s (%(clause2)s); "
                "%(clause3)s. Better: %(clause4)s",
                clause2=clause(self.consequence),
                **words,
            )
        return said(
            "Round %(round)s, turn %(turn)s — %(player)s played %(clause)s; %(clause3)s. "
            "Better: %(clause4)s",
            **words,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "turn": self.turn,
            "player": self.player,
            "played": {
                "court": list(self.played.court),
                "territories": {str(k): list(v) for k, v in self.played.territories},
                "emperor": self.steps,
                "score": round(self.played_score, 2),
            },
            "better": self.better.to_json(),
            "loss": round(self.loss, 2),
            "consequence": self.consequence,
            "text": self.text(),
        }


def losers(game: Game) -> set[str]:
    """The players who did not win (a draw: everyone; unfinished: those behind)."""
    names = {p.name for p in game.players}
    if game.winner == "draw":
        return names
    if game.winner is not None:
        return {p.name for p in game.players if game.winner not in (p.name, p.castles)}
    counts = {side: game.castles(side) for side in game.sides}
    best = max(counts.values())
    behind = {p.name for p in game.players if counts[p.castles] < best}
    return behind or names


def review(record: Record, limit: int = 5) -> list[ReviewItem]:
    """Up to ``limit`` turns of the eventual loser(s), costliest first. Replays the
    record up to its first illegal move, if any."""
    final = _replay(record, None)
    who = losers(final)
    items: list[ReviewItem] = []
    _replay(record, lambda game, item: items.append(item) if item else None, who)
    items.sort(key=lambda i: -i.loss)
    return [i for i in items if i.loss > 0][:limit]


def describe(items: list[ReviewItem], tr: Translator = ENGLISH) -> str:
    """The review's lines in ``tr``'s language (English without one)."""
    if not items:
        return translated(
            said("No turn of the losing side stands out: the search finds nothing better."), tr
        )
    return "\n".join(translated(i.text(), tr) for i in items)


def _replay(
    record: Record,
    visit: Callable[[Game, ReviewItem | None], object] | None,
    reviewed: set[str] | None = None,
) -> Game:
    """The record replayed through the one replay (`referee.replay.replay`) up to its
    first illegal move; ``visit`` is told of each turn of a ``reviewed`` player before
    his cubes are played."""
    game = Game(record.setup)
    replay(game, _moves(record, game, visit, reviewed))
    return game


def _moves(
    record: Record,
    game: Game,
    visit: Callable[[Game, ReviewItem | None], object] | None,
    reviewed: set[str] | None,
) -> Iterator[Move]:
    """The record's moves in play order, read as `replay` pushes them on ``game``: a
    reviewed turn is judged on the game as it stands before it."""
    for r, rnd in enumerate(record.rounds, start=1):
        for name, number in rnd.discs:
            yield ChooseDisc(name, number)
        for t, turn in enumerate(rnd.turns, start=1):
            if visit is not None and reviewed is not None and turn.player in reviewed:
                visit(game, _judge_turn(game, r, t, turn.cube_play(), turn.emperor))
            yield turn.cube_play()
            yield turn.emperor_move()
            if game.is_over:
                return
            yield turn.refill_move()


def _judge_turn(game: Game, r: int, t: int, play: PlayCubes, steps: int) -> ReviewItem | None:
    disc = game.disc(play.player) or 0
    if not game.is_legal(play) or not 1 <= steps <= disc:
        return None  # the replay stops at this turn
    try:
        search = Search(game)
    except ValueError:
        return None
    hints = search.run()
    after = search.after_play(play, steps)
    actual = search.static(after) - search.reply_cost(after)
    best = hints[0]
    loss = best.score - actual
    return ReviewItem(r, t, play.player, play, steps, actual, best, loss, search.reply_words(after))
