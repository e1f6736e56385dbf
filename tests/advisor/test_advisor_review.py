"""Post-game review: the losing side's costliest turns, with the better play."""

from __future__ import annotations

import dataclasses
import random

import pytest

from referee.advisor import hint_player, review, search
from referee.advisor.hints import score_play
from referee.advisor.review import describe, losers
from referee.game import Game
from referee.moves import ChooseDisc, MoveEmperor
from referee.record import Record, RoundRecord
from referee.selfplay import play_game, random_player, table_players


@pytest.fixture(scope="module")
def record() -> Record:
    game = play_game(table_players(2), random.Random(11), [hint_player, random_player])
    assert game.winner == "Anna"
    return Record.from_game(game)


def position_before(record: Record, rnd: int, turn: int) -> Game:
    game = Game(record.setup)
    for r, played in enumerate(record.rounds, start=1):
        for name, number in played.discs:
            game.push(ChooseDisc(name, number))
        for t, done in enumerate(played.turns, start=1):
            if (r, t) == (rnd, turn):
                return game
            game.push(done.cube_play())
            game.push(done.emperor_move())
            game.push(done.refill_move())
    raise AssertionError("turn not in record")


def test_review_lists_the_losers_costliest_turns_with_a_better_play(record: Record) -> None:
    items = review(record, limit=4)
    assert 1 <= len(items) <= 4
    assert all(i.player == "Bob" for i in items)
    losses = [i.loss for i in items]
    assert losses == sorted(losses, reverse=True) and losses[-1] > 0
    for item in items:
        game = position_before(record, item.round, item.turn)
        assert game.to_move == "Bob"
        assert game.is_legal(item.better.play)
        assert game.is_legal(item.played)
        # the cost is the search's own judgement of both plays, from that position
        best = search(game)[0]
        played = score_play(game, item.played, item.steps)
        assert item.loss == pytest.approx(best.score - played)
        game.push(item.better.play)
        game.push(MoveEmperor("Bob", item.better.steps))
        assert item.text().startswith(f"Round {item.round}, turn {item.turn} — Bob played")
    assert describe(items).count("\n") == len(items) - 1


def test_review_of_a_record_cut_at_an_illegal_turn_reviews_what_came_before(
    record: Record,
) -> None:
    last = len(record.rounds)
    broken = record.rounds[-1]
    bad_turn = dataclasses.replace(broken.turns[0], emperor=9)
    cut = dataclasses.replace(
        record,
        rounds=(*record.rounds[:-1], RoundRecord(broken.discs, (bad_turn, *broken.turns[1:]))),
    )
    items = review(cut, limit=50)
    assert items and all(i.round < last for i in items)


def test_losers_of_unfinished_and_drawn_games() -> None:
    game = play_game(table_players(3), random.Random(3), max_rounds=2)
    assert not game.is_over
    behind = losers(game)
    counts = {p.name: game.castles(p.castles) for p in game.players}
    if len(set(counts.values())) == 1:
        assert behind == set(counts)
    else:
        assert behind == {n for n, c in counts.items() if c < max(counts.values())}
