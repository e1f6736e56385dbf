"""Whole games played by simple computer players: for tests, benchmarks and the demo.

Two players: `random_player` picks any legal move; `greedy_player` looks one turn ahead
for the play and emperor stop that gain it most castles. Chance (the dice) comes from
`roll_refill`, which also applies the rules' Readings for a supply that runs short.

>>> import random
>>> from referee.setup import Player
>>> game = play_game([Player("Anna", "white"), Player("Bob", "black")], random.Random(7))
>>> game.is_over, game.winner is not None
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from referee.game import Game, Phase, Step
from referee.moves import ChooseDisc, MoveEmperor, PlayCubes, Refill
from referee.pieces import COLOURS, Colour, Cubes
from referee.setup import DIE_FACES, Player, Setup

#: A computer player: given the game (its turn, cube step) and chance, its cube play
#: and emperor steps for this turn.
Strategy = Callable[[Game, random.Random], tuple[PlayCubes, int]]


def choose_disc(game: Game, rng: random.Random) -> ChooseDisc:
    """Any legal disc for a player allowed to choose now."""
    return rng.choice(list(game.legal_moves.discs()))


def random_cube_play(game: Game, rng: random.Random) -> PlayCubes:
    """The turn's cubes drawn at random from the reserve, each to the court or a unit."""
    player = game.to_move
    assert player is not None
    hand = game.reserve(player).colours()
    rng.shuffle(hand)
    places = [0, *(min(u) for u in game.units())]
    court: list[str] = []
    territories: dict[int, list[str]] = {}
    for colour in hand[: game.cubes_to_play(player)]:
        spot = rng.choice(places)
        if spot == 0:
            court.append(colour)
        else:
            territories.setdefault(spot, []).append(colour)
    return PlayCubes.of(player, court, territories)


def random_player(game: Game, rng: random.Random) -> tuple[PlayCubes, int]:
    player = game.to_move
    assert player is not None
    return random_cube_play(game, rng), rng.randint(1, game.disc(player) or 1)


def greedy_player(game: Game, rng: random.Random, tries: int = 24) -> tuple[PlayCubes, int]:
    """Of a few random plays and every emperor reach, the one that leaves this player's
    side most castles ahead; court cubes break ties (they win colours for later)."""
    player = game.to_move
    assert player is not None
    side = game.side_of(player)
    best: tuple[int, int] | None = None
    choice = random_player(game, rng)
    for _ in range(tries):
        play = random_cube_play(game, rng)
        game.push(play)
        for move in list(game.legal_moves.emperor_moves()):
            game.push(move)
            lead = game.castles(side) - max(
                (game.castles(s) for s in game.sides if s != side), default=0
            )
            score = (
                lead * 100 + (1000 if game.winner == _winner_name(game, side) else 0),
                len(play.court),
            )
            if best is None or score > best:
                best, choice = score, (play, move.steps)
            game.pop()
        game.pop()
    return choice


def _winner_name(game: Game, side: str) -> str:
    return side if len(game.players) == 4 else game.players_of(side)[0]


def roll_refill(game: Game, rng: random.Random) -> Refill:
    """Roll the dice for the player refilling now and take the cubes from the supply.

    A crown is a colour of the roller's choice (here: random among those the supply has).
    When the supply is short of a rolled colour, every player returns the canonical *k*
    from his court; a die the supply still cannot serve counts as a crown.
    """
    player = game.to_move
    assert player is not None and game.step is Step.REFILL
    played = _cubes_played(game)
    faces = [rng.choice(DIE_FACES) for _ in range(played)]
    supply = list(game.supply())
    wanted = Cubes.of(f for f in faces if f != "crown")
    returned: dict[str, int] = {}
    for i, colour in enumerate(COLOURS):
        if wanted[i] > supply[i]:
            k = game.canonical_return(colour, wanted[i] - supply[i])
            if k:
                returned[colour] = k
                supply[i] += sum(min(k, game.court(p.name)[i]) for p in game.players)
    taken: list[Colour] = []
    crowns = 0
    for face in faces:
        if face == "crown":
            crowns += 1
            continue
        i = COLOURS.index(face)
        if supply[i] > 0:
            supply[i] -= 1
            taken.append(COLOURS[i])
        else:
            crowns += 1
    for _ in range(crowns):
        left = [i for i in range(5) if supply[i] > 0]
        if not left:
            break
        i = rng.choice(left)
        supply[i] -= 1
        taken.append(COLOURS[i])
    return Refill.of(player, taken, returned)


def _cubes_played(game: Game) -> int:
    """Cubes played this turn (the refill rolls as many dice)."""
    for move in reversed(game.move_stack):
        if isinstance(move, PlayCubes):
            return move.count()
    raise ValueError("no cubes were played this turn")


def play_game(
    players: Sequence[Player],
    rng: random.Random,
    strategies: Sequence[Strategy] | None = None,
    max_rounds: int = 150,
    setup: Setup | None = None,
) -> Game:
    """Play a whole game (or ``max_rounds`` rounds) from a dealt set-up.

    ``strategies`` gives each player's strategy in seat order (default: all random).
    """
    game = Game(setup or Setup.random(players, rng))
    by_name = {
        p.name: (strategies[i] if strategies else random_player) for i, p in enumerate(players)
    }
    while not game.is_over and game.round <= max_rounds:
        if game.phase is Phase.OPENING:
            game.push(choose_disc(game, rng))
            continue
        player = game.to_move
        assert player is not None
        play, steps = by_name[player](game, rng)
        game.push(play)
        game.push(MoveEmperor(player, steps))
        if not game.is_over:
            game.push(roll_refill(game, rng))
    return game


def table_players(count: int) -> list[Player]:
    """Default players for ``count`` seats (4: two teams, partners opposite)."""
    names = ["Anna", "Bob", "Carla", "Dieter"]
    seats = {
        2: ["south", "north"],
        3: ["south", "west", "north"],
        4: ["south", "west", "north", "east"],
    }[count]
    castles = {
        2: ["white", "black"],
        3: ["white", "black", "grey"],
        4: ["white", "black", "white", "black"],
    }[count]
    return [Player(names[i], castles[i], seats[i]) for i in range(count)]
