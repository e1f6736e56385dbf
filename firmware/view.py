"""The view model: the live table as plain JSON-able data, for every screen.

The OLED screens, the web page (``GET /api/state``) and the voice all draw from this one
value, so they never disagree. It is a pure function of the engine's `Game` plus the
table referee's status (what is illegal or pending right now): `game_view`, or
`setup_view` before round 1 while the players lay the table out. Its shape is the
`View` type below (fields may be added, never renamed); it stays a dict (a `TypedDict`)
because it is sent as it is, as JSON, to the page and the display's mirror.

Each pending chore and the standing illegal act also carry their msgid and fields (``say``,
``words``) and ``texts``: the sentence in every language of the page, from the one
renderer (`web.announce.texts`).
"""

# No ``from __future__ import annotations``: `View.__optional_keys__` must see NotRequired.
from collections.abc import Sequence
from typing import NotRequired, TypedDict

from referee.announcements import N_, Said
from referee.game import Game, Phase, Step
from referee.pieces import COLOURS, Colour
from referee.setup import Player
from referee.table.events import Illegal, Question
from referee.table.referee import Chore, TableReferee
from web.announce import message_texts, texts

#: Cubes by colour.
Counts = dict[Colour, int]

#: The status line when players are seated for a new game (`Appliance.new_game`).
NEW_GAME = N_("New game: %(items)s. Set up the table.")

#: The status line before round 1, while nothing else is said.
SET_UP = N_(
    "Set up the table: 3 cubes of each colour on the territories, the emperor, each "
    "reserve; then choose discs."
)


class PlayerView(TypedDict):
    name: str
    castles: str
    seat: str | None
    court: Counts
    reserve: Counts
    control: list[str]
    discs: list[int]
    """Disc numbers still in hand."""
    disc: int | None
    territories: int
    score: int


class UnitView(TypedDict):
    territories: list[int]
    owner: str | None
    cubes: Counts
    emperor: bool
    reachable: bool
    """The emperor can stop here with the disc of the player to move."""


class TerritoryView(TypedDict):
    cubes: Counts
    owner: str | None
    unit: int
    """Its index in ``units``."""


class IllegalView(TypedDict):
    code: str | None
    message: str | None
    """The referee's words, in English."""
    player: str | None
    say: NotRequired[str]
    """The message's msgid and fields, where the referee said it with them (`said`): a
    screen then says the act in its own language (`referee.announcements.illegal_detail`)."""
    words: NotRequired[dict[str, object]]
    texts: NotRequired[dict[str, str]]
    """The whole sentence ("Not allowed (…): …") in every language of the page, by
    language code (`web.announce.texts`): each reader shows his own."""


class QuestionView(TypedDict):
    """The referee's standing question ("1 yellow on territory 7?"), as the screens and
    the page show it."""

    zone: str | None
    part: str | None
    counts: dict[str, object]
    """What the camera reads there (`referee.table.doubts.counts`)."""
    message: str | None
    code: str | None
    player: str | None


class BareView(TypedDict):
    """The set-up step that learns the bare table (`firmware.bare.BareStep.view`)."""

    step: str
    """``ask`` (lay out the tiles and court cards, then Confirm) or ``learnt``."""
    problem: str | None
    """Why the last Confirm was refused (`firmware.bare.PROBLEMS` code), if it was."""
    message: str
    """What the players are asked, in English (the page and the display translate by
    ``step`` and ``problem``)."""


class TableView(TypedDict):
    legal: bool
    illegal: IllegalView | None
    question: QuestionView | None
    pending: list[dict[str, object]]
    """The chores the table owes (`referee.table.referee.TableReferee.chores`): a castle
    (``territories``, ``side``, ``from``) or a cylinder (``colour``, ``player``,
    ``seat``), with the referee's ``message``, its ``say`` and ``words``, and ``texts``
    (its sentence by language code)."""


class StatusView(TypedDict):
    camera: str
    """``ok``, ``lost``, ``demo`` or ``none``."""
    message: str
    """The appliance's words (English): the camera's state, a new game, the set-up …"""
    texts: NotRequired[dict[str, str]]
    """The message in every language of the page, by language code
    (`web.announce.message_texts`): each reader shows his own."""
    say: NotRequired[str]
    """The message's msgid and fields, where it was said with them (`said`)."""
    words: NotRequired[dict[str, object]]


class View(TypedDict):
    """The whole view model: ``GET /api/state``, the SSE ``state`` event, every screen."""

    round: int
    phase: str
    step: str | None
    to_move: str | None
    cubes_to_play: NotRequired[int]
    """Not before round 1."""
    choosers: list[str]
    order: list[str]
    discs_chosen: list[list[str | int]]
    """``[name, disc]`` pairs in the order laid."""
    players: list[PlayerView]
    units: list[UnitView]
    territories: dict[str, TerritoryView]
    emperor: int | None
    supply: Counts
    finished: bool
    winner: str | None
    reason: str | None
    table: TableView
    status: StatusView
    training: NotRequired[bool]
    """A hub with the advisor: whether training mode is on for this game."""
    bare: NotRequired[BareView | None]
    """Before round 1 on a camera that learns the bare table: that step."""


class SideView(TypedDict):
    side: str
    players: list[str]
    cubes: Counts
    castles: int
    total: int


class MajorityView(TypedDict):
    """`Game.explain` as data: each side's strength in one unit and what it is made of."""

    territories: list[int]
    owner: str | None
    cubes: Counts
    sides: list[SideView]
    outcome: str
    side: str | None
    margin: int
    text: str


def game_view(
    game: Game,
    *,
    illegal: IllegalView | None = None,
    pending: Sequence[Chore] = (),
    camera: str = "none",
    message: str = "",
    question: QuestionView | None = None,
    training: bool | None = None,
) -> View:
    """The view model of ``game`` and the table around it. ``illegal``: the act standing
    now; ``pending``: the chores the table owes (`TableReferee.chores`); ``question``: the
    referee doubts the camera and waits for the players' yes or no (the table is not
    illegal); ``training``: said by a hub with the advisor."""
    to_move = game.to_move
    reach: set[int] = set()
    if game.phase is Phase.ACTION and game.step is Step.EMPEROR and to_move is not None:
        disc = game.disc(to_move) or 0
        reach = {game.emperor_reach(steps) for steps in range(1, disc + 1)}
    units: list[UnitView] = []
    territories: dict[str, TerritoryView] = {}
    for index, unit in enumerate(game.units()):
        owner = game.owner(unit[0])
        cubes = [game.territory(t) for t in unit]
        total = [sum(c[i] for c in cubes) for i in range(5)]
        units.append(
            {
                "territories": list(unit),
                "owner": owner,
                "cubes": _colours(total),
                "emperor": game.emperor == unit[0],
                "reachable": unit[0] in reach,
            }
        )
        for t in unit:
            territories[str(t)] = {
                "cubes": game.territory(t).as_dict(),
                "owner": owner,
                "unit": index,
            }
    players: list[PlayerView] = [
        {
            "name": p.name,
            "castles": p.castles,
            "seat": p.seat,
            "court": game.court(p.name).as_dict(),
            "reserve": game.reserve(p.name).as_dict(),
            "control": list(game.control(p.name)),
            "discs": sorted(game.discs_in_hand(p.name)),
            "disc": game.disc(p.name),
            "territories": game.castles(p.castles),
            "score": game.score(p.castles),
        }
        for p in game.players
    ]
    view: View = {
        "round": game.round,
        "phase": game.phase.value,
        "step": game.step.value if game.phase is Phase.ACTION else None,
        "to_move": to_move,
        "cubes_to_play": game.cubes_to_play(to_move)
        if to_move is not None
        else game.cubes_per_turn,
        "choosers": list(game.choosers()),
        "order": list(game.order_of_play()),
        "discs_chosen": [[name, disc] for name, disc in game.chosen_discs()],
        "players": players,
        "units": units,
        "territories": territories,
        "emperor": game.emperor,
        "supply": game.supply().as_dict(),
        "finished": game.is_over,
        "winner": game.winner,
        "reason": game.reason,
        "table": _table(illegal, question, pending),
        "status": _status(camera, message),
    }
    if training is not None:
        view["training"] = training
    return view


def setup_view(
    players: Sequence[Player],
    referee: TableReferee,
    *,
    camera: str = "none",
    message: str = "",
    bare: BareView | None = None,
) -> View:
    """The view before round 1: the table as seen while the players set it up (each
    territory its own unit, every disc in hand). ``bare``: the bare-table step before
    it, whose words are the status line while nothing else is said."""
    table = referee.table
    territories: dict[str, TerritoryView] = {}
    if table is not None:
        for t in range(1, 16):
            territories[str(t)] = {
                "cubes": table.territory(t).as_dict(),
                "owner": None,
                "unit": t - 1,
            }
    status = message or (bare["message"] if bare is not None else SET_UP)
    return {
        "round": 0,
        "phase": "setup",
        "step": None,
        "to_move": None,
        "choosers": [],
        "order": [],
        "discs_chosen": [],
        "players": [
            {
                "name": p.name,
                "castles": p.castles,
                "seat": p.seat,
                "court": {},
                "reserve": {},
                "control": [],
                "discs": [1, 2, 3, 4, 5],
                "disc": None,
                "territories": 0,
                "score": 0,
            }
            for p in players
        ],
        "units": [
            {
                "territories": [t],
                "owner": None,
                "cubes": territories[str(t)]["cubes"] if str(t) in territories else {},
                "emperor": table is not None and table.emperor == t,
                "reachable": False,
            }
            for t in range(1, 16)
        ],
        "territories": territories,
        "emperor": None if table is None else table.emperor,
        "supply": {},
        "finished": False,
        "winner": None,
        "reason": None,
        "table": _table(illegal_view(referee.illegal), question_view(referee.question)),
        "status": _status(camera, status),
        "bare": bare,
    }


def _status(camera: str, message: str) -> StatusView:
    """The status line: the camera's state and the appliance's words, in every language."""
    status: StatusView = {"camera": camera, "message": str(message)}
    if message:
        status["texts"] = message_texts(message)
    if isinstance(message, Said):
        status["say"], status["words"] = message.msgid, dict(message.words)
    return status


def _table(
    illegal: IllegalView | None,
    question: QuestionView | None,
    pending: Sequence[Chore] = (),
) -> TableView:
    owed = [chore.to_json() for chore in pending]
    return {
        "legal": illegal is None,
        "illegal": None if illegal is None else illegal.copy(),
        "question": None if question is None else question.copy(),
        "pending": [{**chore, "texts": texts(chore)} for chore in owed],
    }


def illegal_view(illegal: Illegal | None) -> IllegalView | None:
    """The referee's standing illegal act as the appliance's view shows it: its code, who
    did it and the English words, with the msgid and fields (``say``, ``words``) the panel
    says it from and ``texts``, the whole sentence the page shows, in every language."""
    if illegal is None:
        return None
    view: IllegalView = {
        "code": illegal.code,
        "message": _text(illegal.message),
        "player": illegal.player,
    }
    if isinstance(illegal.message, Said):
        view["say"], view["words"] = illegal.message.msgid, dict(illegal.message.words)
    view["texts"] = texts(illegal.to_json())
    return view


def question_view(question: Question | None) -> QuestionView | None:
    """The referee's standing question as the view shows it."""
    if question is None:
        return None
    return {
        "zone": question.zone,
        "part": question.part,
        "counts": dict(question.counts),
        "message": _text(question.message),
        "code": question.code,
        "player": question.player,
    }


def _text(message: str | None) -> str | None:
    """An event's words as the view's JSON carries them (a `Said` as its English)."""
    return None if message is None else str(message)


def majority_view(game: Game, territory: int) -> MajorityView:
    """`Game.explain` of the unit holding ``territory``, as data."""
    majority = game.explain(territory)
    return {
        "territories": list(majority.territories),
        "owner": majority.owner,
        "cubes": majority.cubes.as_dict(),
        "sides": [
            {
                "side": s.side,
                "players": list(s.players),
                "cubes": {c: n for c, n in s.cubes.as_dict().items() if n},
                "castles": s.castles,
                "total": s.total,
            }
            for s in majority.strengths
        ],
        "outcome": majority.outcome,
        "side": majority.side,
        "margin": majority.margin,
        "text": majority.describe(),
    }


def majorities_view(game: Game) -> list[MajorityView]:
    """Every unit's majority, most contested (smallest margin) first."""
    views = [majority_view(game, unit[0]) for unit in game.units()]
    return sorted(views, key=lambda v: (v["margin"], v["territories"][0]))


def _colours(counts: Sequence[int]) -> Counts:
    return dict(zip(COLOURS, counts, strict=True))
