"""The table referee: settled tables in, the refereed game out.

It holds the last accepted game (the engine `Game`) and judges every settled table
*against that game*, not against the previous frame: what differs must be progress of
the rules' current step (cubes leaving the active player's reserve, the emperor moving
forward, the refill arriving), a physical chore the rules called for and the players
have not done yet (a castle to build or swap, a cylinder to move, discs to take back),
or else an illegal act. A step that the table shows complete is played on the engine
and the record grows; several may complete at once after a long occlusion. Moves are
played tentatively and taken back when anything else on the table is wrong, so nothing
undone by the players ever reaches the record.

`reading` compares a table with the game, `problems` names illegal acts, `corrections`
holds what people told the referee; this module runs the flow and the announcements.

A camera can be wrong for long: a phantom cube on busy tile art, a castle it does not
see. Two guards keep such a misread from sounding the alarm:

- **A change needs a hand.** Every real change of the table is made by a hand, and a
  vision that says which reader read a frame (``reader``) flags frames with a hand as
  untrusted. A zone that changed with no untrusted frame since the table before is
  *untouched*: the referee keeps its last accepted reading there and acts on the rest.
  An untouched change standing for `UNTOUCHED_SECONDS` becomes a question. Streams
  without ``reader`` (older recordings, hand-typed tests) are refereed as before.
- **No alarm on a doubt.** An illegal act is raised only when every zone it rests on
  was read confidently (`DOUBTFUL`); otherwise the referee asks a ``question`` ("1
  yellow on territory 7?") and holds the game quietly until the players answer: yes,
  the camera is right (the reading stands; a real illegal act then buzzes, a move is
  played), or no, it is wrong (the zone keeps its last accepted reading, as a
  correction, until the camera reads it differently).

People who answer are part of the design: the set-up, which every later judgement
rests on, is never accepted while the vision doubts it, and "no" about a set-up tile
puts there the cube the set-up rules leave (`setup_cube`). A corrected tile keeps what
people said while cubes are played on it (`referee.table.corrections`), and an alarm
players play on over becomes a question (`STANDING_SECONDS`): a buzzer that is wrong
teaches people to ignore the buzzer, a question costs one answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

from referee.announcements import N_, Said, clause, said
from referee.errors import BadSetupError, EmperorStepsError, IllegalMoveError, RefusedError
from referee.events import CastleBuilt, CastleTaken, ControlGained, Event
from referee.game import Game, Phase, Step
from referee.moves import ChooseDisc, Move, MoveEmperor, PlayCubes, Refill, move_to_json
from referee.pieces import CASTLE_COLOURS, COLOUR_INDEX, COLOURS, NO_CUBES, SEATS, Cubes
from referee.record import Record
from referee.replay import replay
from referee.setup import TILES_PER_COLOUR, Player, Setup, reserve_size
from referee.state import DISC_CYCLE
from referee.table import doubts
from referee.table.corrections import Corrections, Value, read, write
from referee.table.events import (
    Answered,
    CastlePending,
    CastlesPlaced,
    Confirmed,
    Corrected,
    CubesPlaced,
    CylinderMoved,
    CylinderPending,
    Illegal,
    Question,
    Resolved,
    SetupAccepted,
    TableEvent,
    Undone,
    stamp,
)
from referee.table.journal import Changes, Journal
from referee.table.problems import (
    Problem,
    ProblemFound,
    find_problem,
    refill_count,
    second_disc,
)
from referee.table.reading import (
    DISCS,
    NO_CASTLE,
    Chores,
    Reading,
    castle_of,
    cubes_played,
    gained,
)
from referee.table.settle import UNTOUCHED_SECONDS, Settler
from referee.table.snapshot import DOUBTFUL, NO_DOUBTS, Snapshot, Table

#: How long an alarm stands, the table changing, before the referee doubts the reading
#: it rests on and asks about its least sure zone (`TableReferee._lasting`), in seconds.
STANDING_SECONDS: Final = 8.0
#: How long a set-up the vision doubts waits for an answer before it is taken as read,
#: marked unconfirmed (nobody may be there to answer: a recording, the unattended demo),
#: in seconds.
SETUP_WAIT_SECONDS: Final = 10.0
#: Snapshots standing in for `UNTOUCHED_SECONDS` when a stream gives no times (4 a second).
UNTOUCHED_FRAMES: Final = int(UNTOUCHED_SECONDS * 4)
#: The acts that rest on a piece the camera does not see on a tile: judged on the doubt
#: the tile was read with while it held (`TableReferee._hold_doubts`), for a piece the
#: vision misses leaves no blob to doubt (a cube on art of its own colour, a white
#: castle on a light tile).
HELD_DOUBT: Final = frozenset({"cube-moved", "castle-missing"})


@dataclass(frozen=True)
class Vouch:
    """People said yes to a part of a zone as the camera read it (``value``), when the
    game had played ``moves`` steps: the yes holds while the camera reads it so, and
    says nothing of cubes played there since. Of a tile's castles it also says nothing
    once the rules build or take over a castle there: ``castles`` is what the game had
    on the tile when people spoke (None for any other part)."""

    value: Value
    moves: int
    castles: Value | None = None


@dataclass(frozen=True)
class Untouched:
    """A zone whose reading changed with no hand over the mat: what the camera reads
    there now, and since when (snapshot time and count)."""

    seen: Value
    since: float | None
    frame: int


@dataclass(frozen=True)
class CastleChore:
    """Castles the rules built (or took over) that the table does not show yet: a
    ``side`` castle on each of ``territories`` (swapped for the ``previous`` side's,
    where it took them over)."""

    territories: tuple[int, ...]
    side: str
    previous: str | None
    #: what to do, in short (``build a white castle on territory 6``)
    message: Said
    #: the same as a sentence (``Build … 6.``), whose msgid and fields every language
    #: says it from (`referee.announcements.render_json`)
    sentence: Said

    def to_json(self) -> dict[str, object]:
        """The chore as the view model carries it to the page and the panel."""
        return {
            "kind": "castle",
            "territories": list(self.territories),
            "side": self.side,
            "from": self.previous,
            "message": self.message,
            **_words(self.sentence),
        }


@dataclass(frozen=True)
class CylinderChore:
    """A cylinder that control moved and that still stands where it was: the
    ``colour`` cylinder goes to the court of ``player`` (who controls it now; None:
    nobody, it goes to the pool), at ``seat`` (``pool`` for the pool)."""

    colour: str
    player: str | None
    seat: str
    #: what to do, in short (``move the red cylinder to Anna's court``)
    message: Said
    #: the same as a sentence, with its msgid and fields (`CastleChore.sentence`)
    sentence: Said

    def to_json(self) -> dict[str, object]:
        """The chore as the view model carries it to the page and the panel."""
        return {
            "kind": "cylinder",
            "colour": self.colour,
            "player": self.player,
            "seat": self.seat,
            "message": self.message,
            **_words(self.sentence),
        }


#: A chore the table owes (`TableReferee.chores`).
Chore = CastleChore | CylinderChore


def _moved_cube(play: PlayCubes, src: int, dst: int, colour: str) -> PlayCubes:
    """``play`` with one ``colour`` cube put on territory ``dst`` instead of ``src``."""
    onto = {str(k): list(v) for k, v in play.territories}  # ("7" is territory 7)
    onto[str(src)].remove(colour)
    onto.setdefault(str(dst), []).append(colour)
    return PlayCubes.of(play.player, court=play.court, territories=onto)


class TableReferee:
    """Referee a table from its snapshots: `feed` each frame, read the events.

    ``players`` carry their seats (``Player("Anna", "white", "south")``), in the order
    the record lists them. ``hands``: whether a change of the table needs a hand over
    the mat before it is acted on; ``None`` turns it on once a snapshot names its
    ``reader`` (the vision that says so flags hands).
    """

    def __init__(
        self, players: Sequence[Player], cubes_per_colour: int = 40, hands: bool | None = None
    ) -> None:
        if not 2 <= len(players) <= 4:
            raise RefusedError(
                said("Carolus Magnus is for 2, 3 or 4 players, not %(count)s", count=len(players))
            )
        for p in players:
            if p.seat not in SEATS:
                raise RefusedError(
                    said(
                        "%(player)s needs a seat (%(seats)s), not %(given)s",
                        player=p.name,
                        seats=list(SEATS),
                        given=repr(p.seat),
                    )
                )
        try:
            _probe = Setup(
                tuple(players),
                tuple(c for c in COLOURS for _ in range(3)),
                1,
                {p.name: ["red"] * reserve_size(len(players)) for p in players},
            )
            _probe.check()
        except BadSetupError as exc:
            raise RefusedError(exc.message) from None
        self.players: Final = tuple(players)
        self.cubes_per_colour: Final = cubes_per_colour
        self.reading: Final = Reading(players)
        self._seat: Final = self.reading.seat
        self.game: Game | None = None
        self.settler = Settler()
        self.corrections = Corrections()
        self.t: float | None = None
        self.table: Table | None = None  # last settled table, as the camera saw it
        self.illegal: Illegal | None = None  # the illegal act standing now
        self.question: Question | None = None  # the question to the players standing now
        self.hands = hands
        self._untouched: dict[str, Untouched] = {}  # correction zone -> its untouched change
        self._accepted: Table | None = None  # last table judged with nothing standing
        self._judged: Table | None = None  # last table judged
        #: correction zone -> its reading people said is right (a yes to a tile whose
        #: other half they had corrected holds for this half alone)
        self._vouched: dict[str, Vouch] = {}
        self._rechecked: set[tuple[str, Value]] = set()  # corrections asked about again
        #: corrections asked about because they may hide a cube seen nowhere (`_hiding`):
        #: zone, reading, moves then
        self._unhidden: set[tuple[str, Value, int]] = set()
        self._held_since: float | None = None  # when an alarm last held the game, till resolved
        self._held_zones: tuple[str, ...] = ()  # the zones the alarms since then rested on
        self._setup_asked: float | None = None  # when a doubtful set-up was first asked about
        self._taken_asked: float | None = None  # a doubtful refill or disc first asked about
        self._frames = 0
        self._candidate: Table | None = None  # last settled table with every tray full
        self._candidate_doubts: Mapping[str, float] = NO_DOUBTS  # the vision's, for it
        self._chores = Chores()
        self._chores_stack: list[Chores] = []
        self._ignore: Table | None = None
        self._undone: list[Move] = []  # moves Undo took back, not yet seen again (`_redone`)
        self._undone_chores: dict[int, tuple[Move, Chores]] = {}  # moves played -> after it
        #: moves played -> how sure the vision was of the tiles a cube play put cubes on
        self._played_sure: dict[int, dict[str, float]] = {}
        #: the place in the move stack of a cube play judged again (`_revised`)
        self._rejudged: int | None = None
        #: a castle nobody earned that people denied, asked about again as the game has
        #: the tile (`_denied_castle`): its castles part and the camera's reading of it
        self._castle_denied: tuple[str, Value] | None = None
        #: (seat, disc) -> the frame its tray was first seen without it (`_note_trays`)
        self._disc_gone: dict[tuple[str, int], int] = {}
        #: (seat, disc) -> the first frame of its tray's unbroken run of frames without
        #: it, settled or not (`_note_frame_trays`)
        self._disc_run: dict[tuple[str, int], int] = {}
        #: per tile, the least the vision was sure of it since the referee last accepted
        #: a change of its reading (`_hold_doubts`)
        self._held_doubt: dict[str, float] = {}
        self._placed_key: tuple[object, ...] | None = None
        self._cylinders_said: frozenset[str] = frozenset()
        self._journal = Journal()  # what was pushed and popped, for `take_changes`
        self.events: list[TableEvent] = []

    # ------------------------------------------------------------------ public

    def feed(self, snapshot: Snapshot) -> list[TableEvent]:
        """Consume one frame; the events it caused (usually none)."""
        if snapshot.t is not None:
            self.t = snapshot.t
        self._frames += 1
        if self.hands is None and snapshot.reader is not None:
            self.hands = True
        self._note_frame_trays(snapshot)
        settled = self.settler.feed(snapshot)
        if snapshot.trusted and self.settler.last is not None:
            self._hold_doubts(*self.settler.last)
        if settled is None:
            return self._log(self._unanswered() + self._ask_untouched())
        previous, self.table = self.table, settled
        self._note_hands(previous, settled)
        self._note_trays(settled)
        if self._ignore is not None:
            if settled == self._ignore:
                return self._log(self._ask_untouched())
            self._ignore = None
        if self._holding():
            return self._log(self._ask_untouched())
        table = self._mask(self.corrections.apply(settled))
        if self.hands and table == self._judged and self.question is None:
            return self._log(self._ask_untouched())  # only untouched zones changed
        unbuzzed = self._untouched_explains(table)
        if unbuzzed:
            return self._log(unbuzzed)
        return self._log(self._rule(table) + self._ask_untouched())

    def resume(self, game: Game) -> None:
        """Carry on a game rebuilt elsewhere (the game log after a power cut): it becomes
        the accepted state and the next settled table is judged against it. Its moves are
        replayed (`referee.replay.replay`) to learn what the table may still owe (the last
        castles, cylinders). What it holds counts as said: `take_changes` starts from it."""
        names = [(p.name, p.castles) for p in game.players]
        if names != [(p.name, p.castles) for p in self.players]:
            raise RefusedError(
                said("the game's players %(given)s are not the table's", given=str(names))
            )
        self._chores = Chores(back={self._seat[p.name]: DISCS for p in self.players})
        self._chores_stack = []

        def learn(scratch: Game, move: Move, events: list[Event]) -> None:
            self._chores_stack.append(self._chores)
            self._after_push(scratch, move, events, None)

        self.game = Game(game.setup)
        done = replay(self.game, game.move_stack, learn)
        if done.refused is not None:
            raise done.refused
        self.game = game
        self._journal = Journal()
        self.illegal = None
        self.question = None
        self._held_since = None
        self._held_zones = ()
        self._ignore = None
        self._undone = []
        self._undone_chores = {}
        self._placed_key = None
        self._untouched.clear()
        self._accepted = self._judged = None
        self._held_doubt.clear()
        self._played_sure.clear()
        self._rejudged = None

    def take_changes(self) -> Changes:
        """The moves taken back and played since the last call (or `resume`), net: what
        a game log must undo and store to hold the game the referee holds now.

        >>> anna, bob = Player("Anna", "white", "south"), Player("Bob", "black", "north")
        >>> TableReferee([anna, bob]).take_changes()
        Changes(popped=(), pushed=())
        """
        return self._journal.take()

    def record(self, meta: Mapping[str, object] | None = None) -> Record | None:
        """The game record so far (whole turns; a half-chosen round of discs left out)."""
        game = self.game
        if game is None:
            return None
        taken: list[Move] = []
        if game.phase is Phase.OPENING:
            while game.move_stack and isinstance(game.move_stack[-1], ChooseDisc):
                taken.append(self._pop(game))
        record = Record.from_game(game, meta)
        for move in reversed(taken):
            self._push(game, move)
        return record

    def undo(self) -> list[TableEvent]:
        """Take back the last accepted step; then ignore the table until it changes."""
        game = self.game
        if game is None or not game.move_stack:
            return self._log([Undone(t=self.t, message=said("Nothing to undo."), move=None)])
        self._undone_chores[len(game.move_stack)] = (game.move_stack[-1], self._chores)
        move = self._pop(game)
        self._chores = self._chores_stack.pop()
        self.corrections.forget_after(len(game.move_stack))
        self._castle_denied = None  # what was denied there is judged again
        self._ignore = self.table
        self._undone.append(move)
        events: list[TableEvent] = [
            Undone(t=self.t, message=_undone_words(move), move=move_to_json(move))
        ]
        if self.illegal is not None or self.question is not None:
            events.append(self._resolved())
        return self._log(events)

    def confirm(self) -> list[TableEvent]:
        """The players say the pending castles and cylinders are in place, though the
        camera does not see them: from now on read those zones as the rules want them.
        While a question stands, Confirm answers it: yes, the camera is right."""
        if self.question is not None:
            return self.answer(True)
        game, table = self.game, self.table
        if game is None or table is None:
            return []
        done: list[Said] = []
        for t, (_, side) in self._chores.castles.items():
            self.corrections.set(f"castles {t}", table, castle_of(side), self._moves())
            done.append(
                said("a %(side)s castle on territory %(territory)s", side=side, territory=t)
            )
        for colour in self._chores.cylinders:
            place = self.reading.cylinder_place(game, colour)
            self.corrections.set(f"cylinder {colour}", table, place, self._moves())
            done.append(
                said(
                    "the %(colour)s cylinder on %(place)s",
                    colour=colour,
                    place=self.reading.holder(place),
                )
            )
        message = (
            said("Confirmed: %(clauses)s.", clauses=[clause(d) for d in done])
            if done
            else said("Confirmed: nothing was pending.")
        )
        events: list[TableEvent] = [
            Confirmed(t=self.t, message=message, done=tuple(str(d) for d in done))
        ]
        events += self._rule(self._mask(self.corrections.apply(table)))
        return self._log(events)

    def answer(self, yes: bool) -> list[TableEvent]:
        """The players' answer to the standing question. Yes: the camera is right, its
        reading of the zone stands (and is trusted while it reads the same, until the game
        accepts another reading there); for a change
        seen without a hand, the whole table is then taken as read. No: the
        camera is wrong, the zone keeps its last accepted reading (a correction, dropped
        when the camera reads the zone differently). Raises `RefusedError` (a `ValueError`
        with the reason as a `Said`) when nothing is asked, or when "no" leaves nothing to
        go by (a set-up tile with two cubes of colours that are both short): then correct
        the zone by hand."""
        question, table = self.question, self.table
        if question is None or table is None:
            raise RefusedError(said("there is no question to answer"))
        zone = question.zone
        self._castle_denied = None
        parts = doubts.parts(zone)
        believed = self._mask(self.corrections.apply(table))
        # the cubes the acting player took that the table shows nowhere
        played = NO_CUBES if self.game is None else self._unplaced(self.game, believed)
        shown = doubts.counts(table, zone) != question.counts and doubts.counts(
            believed, zone) == question.counts
        if yes and shown:
            # What was asked is what the referee believes, not the camera's reading (a
            # correction hides a phantom the camera still sees): yes keeps that, and
            # ties it to the reading now so that it holds while the camera reads so.
            # The parts people's word does not change they vouch for as the camera reads
            # them: a castle doubted on a tile whose cubes they corrected stayed doubted
            # after the yes, and its question stood (3-player hard camera game 900343: a
            # castle nobody earned, confirmed, never buzzed).
            for part in parts:
                if read(believed, part) != read(table, part):
                    self._correct(part, table, read(believed, part))
                    self._rechecked.add((part, read(table, part)))
                else:
                    self._vouched[part] = self._vouch(part, table)
            answered = N_("%(clause)s Answered yes, the camera is right.")
        elif yes:
            for part in parts:
                self._vouched[part] = self._vouch(part, table)
            for part in parts:
                self.corrections.drop(part)  # what people said before no longer holds
            answered = N_("%(clause)s Answered yes, the camera is right.")
        elif question.why == "corrected" and not any(
                self._refilling(part, believed) or self._hides(part, played, believed)
                for part in parts):
            # What was said holds, unless it was said of a heap before its refill, or it
            # hides a cube the acting player played there (whole game 900313 hard:
            # Carla's red onto territory 5, where a red phantom was denied at set-up,
            # read as that phantom; "no" kept the tile without it, and her emperor move
            # buzzed as a turn of three cubes): then people say what lies there.
            answered = N_("%(clause)s Answered no, the camera is wrong.")
        else:
            fixes = {}
            asked = question.part  # "castles": the tile's cubes were not in question
            believed = self.corrections.apply(table)  # with what people already said
            for part in parts:
                if asked is not None and part.split()[0] != asked:
                    # The other half of the tile was not in question: "no" about its
                    # cubes says nothing of the castle a move just built there.
                    continue
                if question.why in ("judged-again", "castle-denied"):
                    # The cubes a move judged again put there are read wrong: too many
                    # (a phantom) or too few (hers, missed beside them, 3-player hard
                    # camera game 900345: a red and a green onto territory 5, read as
                    # the red alone). Nor are the castles as the game has them once a
                    # castle nobody earned was denied (`_denied_castle`). Which, only
                    # people can say.
                    continue
                value = self._rightful(part, believed)
                if value is not None and value != read(table, part):
                    fixes[part] = value
            if not fixes:
                raise RefusedError(
                    said(
                        "The referee cannot tell what belongs on %(part)s: correct it by hand "
                        "(for example %(given)s = %(example)s).",
                        part=" ".join(zone.split(":")),
                        given=" ".join(zone.split(":")),  # as typed: ``carolus follow --ask``
                        example=_example(zone),
                    )
                )
            for part, value in fixes.items():
                self._correct(part, table, value)
                self._rechecked.add((part, read(table, part)))  # just said: no need to ask
            self._castle_denied = self._denied_castle(question, fixes, table)
            answered = N_("%(clause)s Answered no, the camera is wrong.")
        for part in parts:
            self._untouched.pop(part, None)
        if yes and question.why == "untouched":
            self._untouched.clear()  # the table is as the camera reads it, as if a hand came
        self._ignore = None
        events: list[TableEvent] = [
            Answered(
                t=self.t,
                message=said(answered, clause=_asked(question)),
                zone=zone,
                answer="yes" if yes else "no",
                code=question.code,
            )
        ]
        events += self._rule(self._mask(self.corrections.apply(table)))
        return self._log(events)

    @staticmethod
    def _denied_castle(question: Question, fixes: Mapping[str, Value],
                       table: Table) -> tuple[str, Value] | None:
        """The castles part "no" just took a castle nobody earned off, and the camera's
        reading of it: asked about once more, as the game has the tile, before "no"
        stands (`_judge`).

        "No" to "A grey castle on territory 9?" may mean no castle at all (a shadow read
        as one) or a castle of another colour: camera games 900449 (a white castle on a
        light tile read grey) and 900255 (a white one read as white and grey) lost a
        castle nobody earned that way, unbuzzed. Most such castles are phantoms, so one
        more yes-or-no ("No castle on territory 9?"), not a correction, tells the two
        apart: yes keeps the tile without castles, as the game has it; no asks people
        what stands there. Only where the game has no castle on the tile."""
        if question.code != "castle-unearned" or question.why == "corrected":
            return None
        for part, value in fixes.items():
            # Where the game has a castle, "no" is about another read beside it or its
            # colour (a shadow beside a castle just built): it stands on its own.
            seen = read(table, part)
            if part.startswith("castles") and value == NO_CASTLE and seen != NO_CASTLE:
                return part, seen
        return None

    def correct(self, zone: str, value: object) -> list[TableEvent]:
        """Override what the camera believes of one zone, e.g. ``correct("territory 7",
        {"red": 3})``; it holds while the camera keeps reading that zone the same way.
        Zones: ``territory N``, ``castles N``, ``court SEAT``, ``reserve SEAT``,
        ``emperor``, ``cylinder COLOUR``, ``discs SEAT``. Raises `ValueError` (`RefusedError`
        before any table settled)."""
        table = self.table
        if table is None:
            raise RefusedError(said("no table has settled yet: nothing to correct"))
        self._correct(zone, table, value)
        self._castle_denied = None
        self._rechecked.add((" ".join(zone.replace(":", " ").split()), read(table, zone)))
        after = self.corrections.apply(table)
        # what the camera saw, not what the referee believed (a tile corrected before
        # read "Corrected territory 11: 1 red (the camera saw 1 red)")
        message = _corrected(zone, read(table, zone), read(after, zone))
        events: list[TableEvent] = [Corrected(t=self.t, message=message, zone=zone)]
        self._ignore = None
        for part in doubts.parts(doubts.zone_of(" ".join(zone.replace(":", " ").split()))):
            self._untouched.pop(part, None)  # people said what is there
        events += self._rule(self._mask(after))
        return self._log(events)

    def _correct(self, zone: str, table: Table, value: Value) -> None:
        """Correct ``zone`` of the raw ``table`` to what people said, noting the cubes the
        game held there then, of a tile (`Corrections.follow`)."""
        tile = None if self.game is None else self.game.territory
        self.corrections.set(zone, table, value, self._moves(), tile)

    def _moves(self) -> int:
        """The moves of the game so far (0 before it starts): when a correction is made."""
        return 0 if self.game is None else len(self.game.move_stack)

    def status(self) -> dict[str, object]:
        """What a display shows now: whose turn and step, what is wrong, what is owed."""
        game = self.game
        if game is None:
            return {
                "phase": "setup",
                "illegal": self.illegal,
                "question": self.question,
                "pending": [],
                "message": said("Lay out the table; the game begins when the first disc is taken."),
            }
        step = game.step.value if game.phase is Phase.ACTION else None
        return {
            "phase": game.phase.value,
            "round": game.round,
            "to_move": game.to_move,
            "step": step,
            "illegal": self.illegal,
            "question": self.question,
            "pending": self.pending(),
            "winner": game.winner,
            "reason": game.reason,
        }

    def chores(self) -> list[Chore]:
        """The chores the table still owes, for the screens and the page: the castles
        to build or swap (one `CastleChore` for them all) and each cylinder to move
        (`CylinderChore`), with their words (``to_json``: the view model's form)."""
        game = self.game
        if game is None:
            return []
        owed: list[Chore] = []
        castles = self._chores.castles
        if castles:
            olds = sorted({old for old, _ in castles.values() if old is not None})
            owed.append(
                CastleChore(
                    territories=tuple(sorted(castles)),
                    side=next(iter(castles.values()))[1],
                    previous=olds[0] if olds else None,
                    message=self.reading.castle_words(castles),
                    sentence=self.reading.castle_words(castles, sentence=True),
                )
            )
        for colour in self._chores.cylinders:
            owed.append(
                CylinderChore(
                    colour=colour,
                    player=game.controller(colour),  # type: ignore[arg-type]
                    seat=self.reading.cylinder_place(game, colour),
                    message=self.reading.cylinder_words(game, colour),
                    sentence=self.reading.cylinder_words(game, colour, sentence=True),
                )
            )
        return owed

    def pending(self) -> list[str]:
        """The chores the table still owes, in words (for the display)."""
        game = self.game
        if game is None:
            return []
        words: list[str] = []
        castles = self._chores.castles
        if castles:
            words.append(self.reading.castle_words(castles))
        for colour in self._chores.cylinders:
            words.append(self.reading.cylinder_words(game, colour))
        return words

    # ------------------------------------------------------------- doubts

    def _rule(self, table: Table) -> list[TableEvent]:
        """Judge ``table``; it becomes the accepted reading if nothing stands after."""
        self._judged = table
        out = self._judge(table)  # may judge the table with stale corrections released
        if self.illegal is None and self.question is None:
            self._accept(self._judged)
            self._forget_vouched(self._accepted)
        return out

    def _accept(self, table: Table | None) -> None:
        """``table`` becomes the accepted reading; a tile whose reading it changes
        starts its held doubt afresh (`_hold_doubts`)."""
        before, self._accepted = self._accepted, table
        if table is None:
            return
        for t in range(1, 16):
            if before is None or before.territory(t) != table.territory(t):
                self._held_doubt.pop(f"territory:{t}", None)
        self._hold_doubts(table, self.settler.confidence)

    def _hold_doubts(self, seen: Table, doubts: Mapping[str, float]) -> None:
        """Per tile, the least the vision was sure of it in the frames that read it as
        the referee accepted it, since that reading was accepted. A cube on art of its
        own colour comes and goes in the reading: read with doubt while seen, and, when
        lost, read as an empty spot with no doubt at all (no blob is left to doubt).
        Its going is judged on the doubt the tile was read with while it held
        (`_raise`; 3-player hard camera game 900319: a green on territory 8 since the
        set-up, lost for a frame or two every few seconds, buzzed five times as "1
        green left territory 8"); so is a castle due there that the camera never sees
        (4-player camera game 900419 mild: a white castle on territory 3)."""
        accepted = self._accepted
        if accepted is None:
            return
        # Only the doubted tiles can lower anything (most frames doubt none): this runs
        # on every trusted frame.
        for zone, level in doubts.items():
            kind, _, key = zone.partition(":")
            if kind != "territory" or not key.isdigit():
                continue
            if seen.territory(int(key)) == accepted.territory(int(key)):
                self._held_doubt[zone] = min(self._held_doubt.get(zone, 1.0), level)

    def _forget_vouched(self, accepted: Table | None) -> None:
        """Drop what people vouched for where the game has since accepted another
        reading (a move was played there): their yes was about that table. Were it kept,
        a camera that later loses the new cube reads the zone as it was then, and that
        misread would pass as vouched for, sure, and buzz."""
        if accepted is None:
            return
        for part, vouch in list(self._vouched.items()):
            if read(accepted, part) != vouch.value:
                # the yes was about the whole zone as it was then
                for sibling in doubts.parts(doubts.zone_of(part)):
                    self._vouched.pop(sibling, None)

    def _note_hands(self, previous: Table | None, settled: Table) -> None:
        """Sort the zones that changed into touched (a hand came: real) and untouched
        (no hand: a misread until the players say otherwise)."""
        accepted = self._accepted
        if not self.hands or previous is None or accepted is None:
            return
        if self.settler.touched:
            self._forget_owed_castles()
            for part, doubt in list(self._untouched.items()):
                if read(settled, part) != doubt.seen:
                    del self._untouched[part]  # a hand changed it: what it shows now is real
            return
        for part in doubts.changed(previous, settled):
            seen = read(settled, part)
            if seen == read(accepted, part):
                self._untouched.pop(part, None)  # back to what the referee believes
            elif part in self._untouched:
                self._untouched[part] = replace(self._untouched[part], seen=seen)
            else:
                self._untouched[part] = Untouched(seen, self.t, self._frames)

    def _forget_owed_castles(self) -> None:
        """Drop the yes said of the castles of each tile where castles are owed: once a
        hand has come it may have put them down, and "no castle" said before it is no
        word on the tile now (3-player mild whole game 900388: "No castle on territory
        15?", yes, rightly, while the white castle the rules built there was not down;
        put down under the next hand and never seen, the yes held the tile without it
        and the game stalled)."""
        for t in self._chores.castles:
            self._vouched.pop(f"castles {t}", None)

    def _note_trays(self, settled: Table) -> None:
        """Note when each disc was first seen gone from its tray, also while the game
        waits for an answer: players lay their discs meanwhile, and in round 1, when
        anyone may choose first, the order they did so is the record's (2-player hard
        camera game 900249: Bob laid his disc, then Anna hers, while a set-up question
        stood; both were taken in seat order, Anna first)."""
        for seat, tray in settled.discs.items():
            for disc in DISCS:
                if disc in tray:
                    self._disc_gone.pop((seat, disc), None)
                else:
                    self._disc_gone.setdefault(
                        (seat, disc), self._disc_run.get((seat, disc), self._frames))

    def _note_frame_trays(self, snapshot: Snapshot) -> None:
        """Note in every frame, settled or not, since when each tray has shown no
        disc where one lay: the order of the choices is dated back to it when the table
        settles (`_note_trays`). Players choose one after another, each a second or two
        apart, and a stretch of frames taken for a hand can hold two choices: the table
        then settles with both discs gone at once (3-player hard camera game 900394: a
        stretch of the border taken for an arm for five seconds with no hand there,
        while Carla and then Bob chose in round 1; recorded in seat order, Bob first).
        Only a frame with nothing in the way ends a run: under a hand a tray reads
        anything, and Carla's tray there read her disc back in it under a later hand."""
        if not snapshot.mat:
            return  # nothing was read: no tray says anything
        for seat, tray in snapshot.discs.items():
            for disc in DISCS:
                if disc not in tray:
                    self._disc_run.setdefault((seat, disc), self._frames)
                elif snapshot.trusted:
                    self._disc_run.pop((seat, disc), None)

    def _mask(self, table: Table) -> Table:
        """``table`` with its untouched zones as the referee last accepted them."""
        accepted = self._accepted
        if not self._untouched or accepted is None:
            return table
        for part in self._untouched:
            table = write(table, part, read(accepted, part))
        return table

    def _holding(self) -> bool:
        """Whether a question about an untouched zone still stands: the game waits."""
        question = self.question
        return (
            question is not None
            and question.why == "untouched"
            and any(part in self._untouched for part in doubts.parts(question.zone))
        )

    def _ask_untouched(self) -> list[TableEvent]:
        """A question about the oldest untouched change once it has stood for long."""
        if not self._untouched or self.question is not None or self.illegal is not None:
            return []
        part, doubt = self._oldest_untouched()
        if self.t is not None and doubt.since is not None:
            if self.t - doubt.since < UNTOUCHED_SECONDS:
                return []
        elif self._frames - doubt.frame < UNTOUCHED_FRAMES:
            return []
        assert self.table is not None
        table = self.corrections.apply(self.table)
        return self._ask(doubts.zone_of(part), part, table, self._would_be(table), "untouched")

    def _untouched_explains(self, held: Table) -> list[TableEvent]:
        """A question about the oldest untouched change, asked now, when the table as
        the referee holds it (``held``: its untouched zones as it last accepted them)
        shows an illegal act and the table as the camera reads it shows none. A hand the
        camera missed is likelier than a player breaking a rule just as that change
        would mend (3-player mild whole camera game 900387: Bob's court cube seen only
        after the hand that put it had gone, so held as a misread; the next hand moved
        the emperor and buzzed "Bob must play his 4 cubes before moving the emperor")."""
        if not self._untouched or self.question is not None or self.illegal is not None:
            return []
        problem = self._would_be(held)
        if problem is None or self.table is None:
            return []
        seen = self.corrections.apply(self.table)
        if self._would_be(seen) is not None and not self._plays_out(seen):
            return []
        part, _ = self._oldest_untouched()
        return self._ask(doubts.zone_of(part), part, seen, problem, "untouched")

    def _plays_out(self, table: Table) -> bool:
        """Whether the steps ``table`` shows, played, leave it in order: the table as
        read may show a step the held one lacks, and the act only after it (2-player
        hard camera game 900280: Anna's disc, laid with no hand seen, held as a misread;
        her first cube then was out of turn on the held table and not on the one read).
        The game is as it was afterwards."""
        game = self.game
        if game is None or game.is_over:
            return False
        pushed, _, problem = self._advance(game, table)
        self._take_back(game, len(pushed))
        return problem is None

    def _oldest_untouched(self) -> tuple[str, Untouched]:
        """The untouched change seen first: the one asked about."""
        return min(self._untouched.items(), key=lambda item: item[1].frame)

    def _would_be(self, table: Table) -> Problem | None:
        """The illegal act ``table`` would show, without playing anything."""
        game = self.game
        if game is None:
            if self._candidate is None:
                return None
            try:
                self._setup_from(table)
            except BadSetupError as exc:
                return Problem(exc.code, exc.message, exc.player)
            return None
        if game.is_over:
            return None
        return find_problem(self.reading, game, table, self._chores)

    def _ask(
        self, zone: str, part: str | None, table: Table, problem: Problem | None, why: str
    ) -> list[TableEvent]:
        """Ask the players whether the camera reads ``zone`` right; the game waits."""
        counts = doubts.counts(table, zone)
        code = problem.code if problem is not None else None
        standing = self.question
        if (
            standing is not None
            and standing.zone == zone
            and standing.counts == counts
            and standing.code == code
        ):
            return []
        game = self.game
        self.illegal = None
        self.question = Question(
            t=self.t,
            message=doubts.question(table, zone, part, self.reading.holder),
            zone=zone,
            part=part.split()[0] if part and zone.startswith("territory") else None,
            counts=counts,
            code=code,
            player=problem.player if problem is not None else None,
            why=why,
            round=game.round if game else 0,
            turn=game.turn_number if game else 0,
        )
        return [self.question]

    def _lasting(self, zones: list[str]) -> str | None:
        """When an alarm has stood for `STANDING_SECONDS` and the table goes on changing,
        the zone it rests on that the vision was least sure of (people not asked yet).

        Players take a real illegal act back within moments; an alarm they play on over
        is more likely the camera's mistake, read with some doubt though not enough to
        ask at once (a cube missed on tile art of its own colour). Asking then costs one
        question; buzzing on costs the game."""
        since = self._held_since
        if self.illegal is None or self.t is None or since is None:
            return None
        if self.t - since < STANDING_SECONDS:
            return None
        unsure = [z for z in zones if not self._said(z) and self._certainty(z) < 1.0]
        return min(unsure, key=self._certainty) if unsure else None

    def _hiding(self, unseen: Cubes) -> str | None:
        """A tile whose correction hides cubes of a colour that left a reserve and is
        seen nowhere, not asked about at this reading yet: people denied a phantom
        there, and a real cube of its colour played onto the same spot reads exactly as
        the phantom did, so the correction hides it. Asking costs one question; the
        alternative is an alarm about a cube that is on the table. Asked once per
        reading while no step is played (people may have denied this very reading as a
        phantom before the cube came)."""
        tiles = self._hiding_tiles(unseen)
        return tiles[0] if tiles else None

    def _hiding_tiles(self, unseen: Cubes) -> list[str]:
        """Every tile `_hiding` could ask about, in the order it would."""
        table = self.table
        if table is None or not unseen.total():
            return []
        believed = self.corrections.apply(table)
        moves = self._moves()
        return [part for part in self.corrections.masking(table)
                if (part, read(table, part), moves) not in self._unhidden
                and self._hides(part, unseen, believed)]

    def _hides(self, part: str, unseen: Cubes, believed: Table) -> bool:
        """Whether what people said of tile ``part`` (``believed``) hides cubes the
        camera reads there now of the colours of ``unseen`` (cubes that left a reserve
        and are seen nowhere): a real cube played where a phantom of its colour was
        denied reads as the phantom did."""
        table = self.table
        if table is None or not part.startswith("territory"):
            return False
        now, said_ = read(table, part), read(believed, part)
        assert isinstance(now, Cubes) and isinstance(said_, Cubes)
        return any(h and u for h, u in zip(gained(now - said_), unseen, strict=True))

    def _hidden_elsewhere(self, part: str, unseen: Cubes) -> bool:
        """Whether a tile other than ``part`` may hide cubes of the colours of ``unseen``
        under what people said of it, as `_hiding` would ask about it: a cube the camera
        sees there, or its old phantom.

        "No" to a tile asked about because its correction may hide the cube seen
        nowhere else does not say the cube lies there when the camera also reads one of
        its colour on another corrected tile: the reading asked about is wrong with the
        cube or without it (2-player hard whole game 900292, round 9: Bob's green onto
        territory 1, where a green phantom was denied in round 1; territory 11, where
        the camera saw green phantoms all game, was asked first, its "no" put the green
        there, and the game was lost to two false alarms). Not a tile people were asked
        about at its reading now, with the cube unseen: they said what lies there."""
        return any(other != part for other in self._hiding_tiles(unseen))

    def _recheck(self) -> str | None:
        """A correction that now hides a reading the camera has not shown before, to ask
        about before an alarm. People corrected the zone when the camera read it wrong;
        a reading there since may be the camera's old mistake or a real change the
        correction hides (a cube played where the camera saw a phantom of its colour
        reads as the phantom did). An alarm that rests on such a hidden change is
        false, so the players are asked once about each new reading first."""
        table = self.table
        if table is None:
            return None
        for part in self.corrections.masking(table):
            if (part, read(table, part)) not in self._rechecked:
                return part
        return None

    def _said(self, zone: str, castles: bool | None = None) -> bool:
        """Whether people vouched for ``zone``'s reading as it is now, or corrected it;
        ``castles``: of a tile, only its castles (True) or only its cubes (False) count,
        for a correction of a tile's cubes says nothing of the castle on it."""
        table = self.table
        parts = doubts.parts(zone)
        if self._vouched_now(zone):
            return True
        if castles is not None and len(parts) == 2:
            parts = (parts[1],) if castles else (parts[0],)
        return any(self.corrections.holds(part, table) or self._vouched_part(part)
                   for part in parts)

    def _said_before(self, zone: str, castles: bool | None = None) -> bool:
        """Whether what people said of ``zone``'s cubes (a tile's: cubes can arrive there
        unseen), a correction or a yes, was said before the game's last move, and
        nothing since: it was of an older table. A yes counts as much as a correction
        (3-player hard camera game 900348: "1 yellow on territory 8?" said yes to at
        set-up; Carla's yellow played there later, missed by the camera, left the tile
        reading as then, and the yes kept it from ever being asked about)."""
        if not zone.startswith("territory:") or castles:
            return False
        part = doubts.parts(zone)[0]
        vouch = self._vouched.get(part)
        if self._vouched_now(zone):
            return vouch is not None and vouch.moves < self._moves()
        made = self.corrections.made_at(part)
        return made is not None and made < self._moves() and self.corrections.holds(
            part, self.table)

    def _vouched_now(self, zone: str) -> bool:
        """Whether people said yes to ``zone``'s reading as the camera reads it now."""
        return all(self._vouched_part(part) for part in doubts.parts(zone))

    def _vouched_part(self, part: str) -> bool:
        """Whether people said yes to ``part`` (a correction zone) as the camera reads it
        now, and, of a tile's castles, while the game has the castles it had then."""
        table = self.table
        vouch = self._vouched.get(part)
        return (table is not None and vouch is not None and vouch.value == read(table, part)
                and vouch.castles == self._game_castles(part))

    def _vouch(self, part: str, table: Table) -> Vouch:
        """People's yes to ``part`` as the camera reads it on ``table`` now."""
        return Vouch(read(table, part), self._moves(), self._game_castles(part))

    def _game_castles(self, part: str) -> Value | None:
        """The castles the game has on the tile of a ``castles N`` part (none before the
        game begins; None for any other part): a yes to "no castle" said before the rules
        built one there is no word on that castle (3-player hard camera game 900376: "2
        green on territory 5?", yes, in round 2; the grey castle built there in round 3,
        never seen, buzzed `castle-missing` as if people had vouched for it missing)."""
        kind, _, key = part.partition(" ")
        if kind != "castles":
            return None
        return castle_of(None if self.game is None else self.game.owner(int(key)))

    def _certainty(self, zone: str, castles: bool | None = None) -> float:
        """How sure the referee is of ``zone``'s reading: sure where people vouched for it
        or corrected it (``castles``: see `_said`), else as sure as the vision said when
        it settled."""
        if self._said(zone, castles):
            return 1.0
        if zone == "emperor" and self.table is not None and self.table.emperor is None:
            return 0.0  # he is always on the ring: not seeing him is no reading at all
        if castles and self._castle_unseen(zone):
            return 0.0  # nor is not seeing a castle that stands there
        return self.settler.confidence.get(zone, 1.0)

    def _castle_unseen(self, zone: str) -> bool:
        """Whether ``zone`` is a tile where a castle the rules built and the table showed
        stands (none still to build there), and the camera sees less of it. Castles
        leave a tile only by a takeover, which the rules announce: one the camera stops
        seeing (a black castle on black art in hard light: 4-player whole game 900414)
        is a misread far likelier than a castle taken away."""
        game, table = self.game, self.table
        kind, _, key = zone.partition(":")
        if game is None or table is None or kind != "territory":
            return False
        t = int(key)
        if t in self._chores.castles:
            return False
        want = castle_of(game.owner(t))
        return any(s < w for s, w in zip(table.castle_on(t), want, strict=True))

    def _emperor_doubt(self, table: Table) -> float:
        """How sure the vision was of the tile the emperor is seen on: his place is read
        among its pieces (a yellow blob taken for him, he taken for yellow cubes)."""
        if table.emperor is None:
            return 1.0
        return self.settler.confidence.get(f"territory:{table.emperor}", 1.0)

    def _zones_off(self, table: Table) -> list[str]:
        """The zones a problem that names none rests on: those changed since the last
        accepted table (every zone when there is none)."""
        accepted = self._accepted
        if accepted is None:
            return doubts.zones(doubts.table_parts(table))
        return doubts.zones(doubts.changed(accepted, table))

    def _setup_anomalies(self, table: Table) -> list[str]:
        """The zones of a set-up that cannot be right as read: tiles without exactly one
        cube or with a castle, courts with cubes, cylinders on courts, no emperor."""
        found = [
            f"territory:{n}"
            for n in range(1, 16)
            if table.territory(n).total() != 1 or table.castle_on(n) != NO_CASTLE
        ]
        found += [f"court:{seat}" for seat, cubes in table.courts.items() if cubes.total()]
        found += [
            f"cylinder:{colour}"
            for colour, place in zip(COLOURS, table.cylinders, strict=True)
            if place not in (None, "pool")
        ]
        if table.emperor is None:
            found.append("emperor")
        return found

    def _overcounted_tiles(self, table: Table) -> list[str]:
        """The tiles of a set-up read with one cube each that hold a colour read more
        than three times, which the vision was not quite sure of and nobody has spoken
        for, least sure first. One cube's colour misread breaks the count the set-up is
        checked against, and nobody has played yet: the tile is asked about before the
        alarm (3-player hard camera game 900380: a pink on territory 10 read green at
        0.65, and `bad-setup` sounded)."""
        tiles = [table.territory(n) for n in range(1, 16)]
        if any(cubes.total() != 1 for cubes in tiles):
            return []
        counted = sum(tiles, NO_CUBES)
        over = [f"territory:{n}" for n, cubes in enumerate(tiles, start=1)
                if any(c and k > TILES_PER_COLOUR for c, k in zip(cubes, counted, strict=True))]
        unsure = [zone for zone in over if self._certainty(zone) < 1.0]  # said: 1.0
        return sorted(unsure, key=self._certainty)

    def _odd_reserves(self, table: Table) -> dict[str, int]:
        """The reserves read with another number of cubes than the set-up gives each
        player: their zones, and how many cubes more (or, below 0, fewer) they hold."""
        size = reserve_size(len(self.players))
        held = {f"reserve:{seat}": table.reserves.get(seat, NO_CUBES).total() - size
                for seat in (self._seat[p.name] for p in self.players)}
        return {zone: n for zone, n in held.items() if n}

    def _setup_zones(self, table: Table) -> list[str]:
        """The zones that can make a set-up wrong, the likeliest first (they are asked
        about in this order): tiles without exactly one cube or with a castle, courts
        with cubes, cylinders on courts, an emperor not seen, least sure first; when all
        of those look right, the tiles of a colour not counted 3 times and reserves of
        the wrong size (least sure first), then every other tile and reserve."""
        found = self._setup_anomalies(table)
        if found:
            return sorted(found, key=self._certainty)
        ring = sum(table.territories, NO_CUBES)
        odd = [
            n
            for n in range(1, 16)
            if any(ring[i] != 3 for i, c in enumerate(table.territory(n)) if c)
        ]
        reserves = [f"reserve:{self._seat[p.name]}" for p in self.players]
        short = list(self._odd_reserves(table))
        tiles = [f"territory:{n}" for n in odd] + [
            f"territory:{n}" for n in range(1, 16) if n not in odd
        ]
        first = sorted([f"territory:{n}" for n in odd], key=self._certainty)
        return (
            first
            + sorted(short, key=self._certainty)
            + [z for z in tiles + reserves if z not in first and z not in short]
        )

    def _rightful(self, part: str, table: Table) -> Value | None:
        """What belongs in ``part`` when the players say the camera is wrong there: the
        last accepted reading; in a set-up, what the set-up rules leave no doubt about
        (the players said the camera's reading is wrong, so a set-up tile's one cube is
        not what the camera reads). On a tile where the camera lost cubes, the lost
        ones are put back and the new ones kept: played cubes never leave a tile, so
        losing one is the camera's mistake, while a cube played there meanwhile is the
        next move (judged as usual) -- unless no reserve gave it: then it is the lost
        cube seen in another colour. On a tile where the camera lost nothing, the cube
        that left the acting player's reserve and lies nowhere the camera sees is put
        there (a cube on tile art of its own colour is the camera's commonest miss; of
        two or more, or where another corrected tile may hide it, which lies here only
        people can say: None),
        unless what is new there is of another colour; not beside lost ones, where the
        "no" is about those (cubes in a hand are nowhere yet). Where more is new on the
        tile than the reserves gave, only the surplus goes: the rest was played. A
        reserve, the acting player's court, a castle: see `_reserve_kept`,
        `_rightful_court` and the cases below."""
        game = self.game
        accepted = self._accepted
        if (
            part == "emperor"
            and game is not None
            and game.phase is Phase.ACTION
            and (game.step is Step.EMPEROR or (
                game.step is Step.CUBES and accepted is not None
                and table.emperor != accepted.emperor))
        ):
            # He was due to move: not read where he stood, he is not there either, most
            # likely (a hand moved him, and his shape was lost); read there, "no" says he
            # moved. Where to, only people can say. So too when he was seen gone with
            # the mover's last cubes, before her cube step was played (whole game 900415
            # mild: kept where he stood, the refill that followed buzzed `turn-order`).
            return None
        kind, _, key = part.partition(" ")
        if game is not None and kind == "territory":
            now = table.territory(int(key))
            before = (accepted.territory(int(key)) if accepted is not None
                      else game.territory(int(key)))
            # Played cubes never leave a tile: those the camera lost here are put back.
            # Of those seen only since this move began (not yet played), only as many
            # as left the acting player's reserve and lie nowhere seen now: the others
            # are seen elsewhere (900313 hard, a whole game: a phantom pink on the tile
            # matched the pink in Anna's hand, which then went into her court; put back,
            # it was a cube from nowhere, and `not-in-reserve` buzzed).
            unseen = self._unplaced(game, table)
            seen_lost = gained(before - now)
            played = Cubes(min(n, g) for n, g in zip(
                seen_lost, gained(game.territory(int(key)) - now), strict=True))
            lost = played + Cubes(min(n - p, u) for n, p, u in zip(
                seen_lost, played, unseen, strict=True))
            # Cubes that left the acting player's reserve and lie nowhere seen lie here,
            # unless what is new here is of other colours (then it is likelier a phantom
            # of this art). Another reserve's cubes seen nowhere are a misread of that
            # reserve: nobody else plays onto the tiles now.
            new = gained(now - before)
            # What is new here beyond what the reserves gave is a phantom (or, beside a
            # lost cube, that cube seen in another colour).
            phantom = self._phantoms(game, table, new)
            if seen_lost.total():
                if any(n and u for n, u in zip(lost, unseen, strict=True)):
                    # Cubes of a colour the camera lost here also left the acting
                    # player's reserve unseen: in his hand, or here beside the lost
                    # ones, missed as they were (a whole game, 900213 mild: Bob's pink
                    # onto territory 8 and one already there both unseen; "no" put one
                    # back, and his emperor move buzzed as a turn of two cubes). How many
                    # lie here only people can say.
                    return None
                # The "no" is about the cubes the camera lost: those in a hand between
                # the reserve and a tile are not here.
                return now - phantom + lost
            if any(n and not u for n, u in zip(new, unseen, strict=True)):
                if new.total() == unseen.total():
                    # As many new here, in other colours, as left the reserve unseen:
                    # a phantom of this art, or those cubes read in the wrong colour
                    # (900409 hard: Anna's blue onto territory 11 read green; "no" put
                    # the tile back as it was, and the blue was seen nowhere after).
                    # Only people can say which.
                    return None
                if unseen.total() and self._hides(part, unseen, table):
                    # The camera reads more of the unseen cubes' colours here than people
                    # said lies here: the correction of a phantom hides them, and the new
                    # cubes of other colours do not say they lie elsewhere (a whole game,
                    # 900398 hard: Carla's green onto territory 4, where green phantoms
                    # were denied, and her yellow beside it read as two; "no" kept the
                    # green out, and her emperor move buzzed as a turn of three cubes).
                    # Only people can say.
                    return None
                if unseen.total() and phantom == new:
                    # All that is new here is more than the reserves gave: none of it is
                    # the unseen cube misread, which may lie here under the phantoms, in
                    # a hand or on another tile (a whole game, 900313 hard: Carla's green
                    # onto territory 5 missed beside two red phantoms; "no" left it out,
                    # and her emperor move buzzed as a turn one cube short).
                    return None
                unseen = NO_CUBES
            if unseen.total() > 1:
                # More than one cube unseen: which of them lies here, only people can
                # say (the camera may have missed another on another tile).
                return None
            if unseen.total():
                if self._hidden_elsewhere(part, unseen):
                    # The camera does see it, on another tile where people denied a
                    # phantom of its colour: here or there, only people can say.
                    return None
                return now + unseen
            # More new here than the reserves gave: only the surplus goes, the rest came
            # out of the acting player's reserve (a yellow played onto a field of yellow,
            # read as two).
            if phantom.total() and phantom != new:
                return now - phantom
        if game is not None and kind == "reserve":
            kept = self._reserve_kept(game, table, key)
            if kept is not None:
                return kept
            if self._refilling(part, table):
                # His refill has begun: what he drew from the bag only people can say
                # (going back to the reserve before it would undo the refill).
                return None
        if game is not None and kind == "court":
            actor = self.reading.actor(game)
            if actor is not None and self._seat[actor] == key:
                return self._rightful_court(game, table, actor)
        if game is not None and kind == "castles":
            # A castle the rules built there, read with others beside it or in another
            # colour: "no" is about the others (a shadow or busy art taken for a second
            # castle) or the colour (white under a warm lamp read grey), not the castle.
            want, now_castles = castle_of(game.owner(int(key))), table.castle_on(int(key))
            if want != NO_CASTLE and now_castles != want and sum(now_castles) >= sum(want):
                return want
        if game is None and kind == "territory":
            # At set-up the last accepted reading is the camera's word alone (900311
            # mild: territory 13's blue read yellow, then empty; "no" to the empty
            # tile put the yellow back, a fourth, and `bad-setup` sounded): what the
            # three of each colour leave no doubt about comes first.
            counted = setup_cube(table, int(key))
            if counted is not None:
                return counted
        if accepted is not None and read(accepted, part) != read(table, part):
            return read(accepted, part)
        if game is not None:
            names = {seat: name for name, seat in self._seat.items()}
            if kind == "territory":
                return game.territory(int(key))
            if kind == "castles":
                return castle_of(game.owner(int(key)))
            if kind == "court" and key in names:
                return game.court(names[key])
            if kind == "reserve" and key in names:
                return game.reserve(names[key])
            if kind == "emperor":
                return game.emperor
            if kind == "cylinder":
                return self.reading.cylinder_place(game, key)
            return None
        if kind == "territory":
            return setup_cube(table, int(key))
        if kind == "castles":
            return NO_CASTLE
        if kind == "court":
            return NO_CUBES
        if kind == "cylinder":
            return "pool"
        return None

    def _rightful_court(self, game: Game, table: Table, actor: str) -> Value | None:
        """What belongs in the acting player's court when people say the camera is wrong
        there. While a cube that left his reserve is seen nowhere, only people can say:
        it may be in his court, missed in a long row, or in his hand (a whole game,
        900214 mild: Bob's tenth pink read as nine, "no" kept nine, and his emperor move
        buzzed as a turn one cube short). Otherwise played cubes never leave a court:
        those of his played turns the camera lost are put back, and those new there that
        came from his reserve are his move (900214 mild: "no" kept the court as it was,
        and Bob's blue, just played into it, was dropped with the pink the camera lost)."""
        if self._unplaced(game, table).total():
            return None
        seat = self._seat[actor]
        now = table.courts.get(seat, NO_CUBES)
        accepted = self._accepted
        before = accepted.courts.get(seat, NO_CUBES) if accepted is not None else game.court(actor)
        phantom = self._phantoms(game, table, gained(now - before))
        return now - phantom + gained(game.court(actor) - now)

    def _refilling(self, part: str, table: Table) -> bool:
        """Whether ``part`` is the reserve of the player refilling now, and ``table`` shows
        his refill begun. Nobody but he can say what came out of the bag: "no" to it
        leaves nothing to go by, not even what people said of that heap before (900309
        hard: a correction of Carla's heap, made in Bob's turn, was kept against her
        refill's unseen greens; the refill was never complete, and Anna's castle buzzed
        as unearned)."""
        game = self.game
        kind, _, seat = part.partition(" ")
        if game is None or kind != "reserve" or game.step is not Step.REFILL:
            return False
        refiller = game.to_move
        if refiller is None or self._seat.get(refiller) != seat:
            return False
        held = table.reserves.get(seat, NO_CUBES)
        return bool(gained(held - game.reserve(refiller)).total())

    def _unplaced(self, game: Game, table: Table) -> Cubes:
        """The cubes that left the acting player's reserve and that the table does not
        show placed (on a tile or in his court)."""
        actor = self.reading.actor(game)
        if actor is None:
            return NO_CUBES
        placement = self.reading.placement(game, table, actor)
        return gained(gained(placement.taken) - gained(placement.placed))

    def _unsourced(self, game: Game, table: Table) -> Cubes:
        """The cubes the table shows placed this turn beyond those that left the acting
        player's reserve: phantoms, or another's cubes (judged as such). While nobody
        places cubes (the emperor due, a refill), every cube new on a tile or in a
        court that no reserve gave (4-player camera game 900406 mild: a blue read
        yellow while the emperor was due; "no" kept the yellow beside the blue it put
        back, and it "came onto the table but not from" a reserve)."""
        actor = self.reading.actor(game)
        if actor is None:
            return self.reading.unsourced(game, table)
        placement = self.reading.placement(game, table, actor)
        return gained(gained(placement.placed) - gained(placement.taken))

    def _phantoms(self, game: Game, table: Table, new: Cubes) -> Cubes:
        """Of the cubes ``new`` in a zone, those beyond what the acting player's reserve
        gave (`_unsourced`): phantoms, taken away on "no"."""
        return Cubes(min(n, x) for n, x in zip(new, self._unsourced(game, table), strict=True))

    def _reserve_kept(self, game: Game, table: Table, seat: str) -> Cubes | None:
        """The acting player's reserve when people say the camera reads it wrong: as the
        game had it, less the cubes of colours the camera sees gone from it and seen
        placed this turn (on a tile or in his court). "No" is about the reading (a cube
        missed in the heap, a phantom), not about the cubes he truly played: putting
        those back made them come "not from his reserve". None: not the actor's."""
        actor = self.reading.actor(game)
        if actor is None or self._seat.get(actor) != seat:
            return None
        placement = self.reading.placement(game, table, actor)
        placed = gained(placement.placed)
        left = gained(placement.taken)
        return game.reserve(actor) - Cubes(min(a, b) for a, b in zip(left, placed, strict=True))

    # --------------------------------------------------------------- judging

    def _log(self, events: list[TableEvent]) -> list[TableEvent]:
        """Keep ``events``; every call ends here, with the game as it now stands, so the
        tiles' corrections follow the cubes played on them, and the emperor's ends when
        he is due to move again (`Corrections.follow`)."""
        game = self.game
        if game is not None and self.corrections:  # (every frame: nothing to do, mostly)
            due = game.phase is Phase.ACTION and game.step is Step.EMPEROR
            self.corrections.follow(game.territory, self._moves(), self.table, due)
            self._castles_due(self._chores.castles_at)
        self.events += events
        return events

    def _castles_due(self, before: int) -> None:
        """Drop what people said of the castles on a tile where castles are due, said
        when the game had fewer than ``before`` moves (before the move that made them
        due, or all of it when moves are played again, `_moved_play`): it was said of a
        game without them. Kept, "no castle" said to a phantom castle hides the real one
        put down where the camera reads the same (3-player hard whole game 900390: "no"
        to Anna's white castle on 6, seen as she put it down while her move waited to
        be judged again; once judged, the castle was due and hidden, and Bob's turn
        buzzed)."""
        for t in self._chores.castles:
            part = f"castles {t}"
            made = self.corrections.made_at(part)
            if made is not None and made < before:
                self.corrections.drop(part)

    def _push(self, game: Game, move: Move) -> list[Event]:
        """Play ``move`` on the referee's game, kept in the journal (`take_changes`); for
        cubes played onto tiles, how sure the vision was of each of those tiles then
        (`_revised`)."""
        events = game.push(move)
        self._journal.push(move)
        if isinstance(move, PlayCubes):
            self._played_sure[len(game.move_stack)] = {
                f"territory:{t}": self.settler.confidence.get(f"territory:{t}", 1.0)
                for t, _ in move.territories}
        return events

    def _pop(self, game: Game) -> Move:
        """Take back the last move of the referee's game, kept in the journal."""
        move = game.pop()
        self._journal.pop(move)
        return move

    def _resolved(self) -> Resolved:
        standing = self.illegal if self.illegal is not None else self.question
        self.illegal = self.question = None
        self._held_since = None
        self._held_zones = ()
        return Resolved(
            t=self.t,
            message=said("The table is back in order."),
            code=None if standing is None else standing.code,
            player=None if standing is None else standing.player,
        )

    def _raise(self, problem: Problem, table: Table) -> list[TableEvent]:
        """An illegal act, if the camera is sure of what shows it; else a question."""
        zones = list(problem.zones) or self._zones_off(table)
        game = self.game
        due = game is not None and game.phase is Phase.ACTION and game.step is Step.EMPEROR
        # Where the camera doubts the tile it sees the emperor on, a yellow blob taken
        # for him is likelier than a wrong move (900405 hard: he, on territory 4, read as
        # yellow cubes, and a cube on territory 7 as he).
        moved_unseen = due and problem.follows_emperor
        his_tile = (
            self._emperor_doubt(table)
            if moved_unseen or problem.code == EmperorStepsError.code
            else 1.0
        )
        castle = problem.code.startswith("castle")
        if moved_unseen and problem.code == "castle-unearned" and self._his_castle(
                table, problem.zones):
            # The castle is just what his move there would build, within his reach: that
            # move unseen is far likelier than a castle nobody earned (900215 mild: he
            # stood on art of his own colour at a tile's edge, and the camera, sure of
            # the tile he left, still read him there).
            his_tile = 0.0

        def sure(zone: str) -> float:
            if zone == "emperor" and not self._said(zone):
                return min(self._certainty(zone, castle), his_tile)
            if problem.code in HELD_DOUBT and not self._said(zone, castle):
                return min(self._certainty(zone, castle), self._held_doubt.get(zone, 1.0))
            return self._certainty(zone, castle)

        if due and "emperor" not in zones:
            if table.emperor is None:
                # he is due to move and the camera lost him: whatever looks wrong now (a
                # castle where he stopped, the refill begun) may be his move unseen
                zones.insert(0, "emperor")
            elif moved_unseen and sure("emperor") < DOUBTFUL:
                # so may what follows his move (the refill begun, a castle) where the
                # camera doubts him or the tile it sees him on (900208 mild: he, moved
                # onto territory 10, read as a yellow cube there, and still seen on
                # territory 7); the act's own zones, as doubtful, are asked first
                zones.append("emperor")

        unseen = self.reading.unaccounted(game, table) if game is not None else NO_CUBES
        hiding = self._hiding(unseen)
        if hiding is not None:
            assert self.table is not None
            self._rechecked.add((hiding, read(self.table, hiding)))
            self._unhidden.add((hiding, read(self.table, hiding), self._moves()))
            return self._ask(doubts.zone_of(hiding), hiding, self.table, problem, "corrected")
        doubtful = sorted((zone for zone in zones if sure(zone) < DOUBTFUL), key=sure)
        if doubtful:
            part = doubts.parts(doubtful[0])[-1 if castle else 0]
            return self._ask(doubtful[0], part, table, problem, "doubtful")
        surplus = self.reading.unsourced(game, table) if game is not None else NO_CUBES
        vanished = (self.reading.vanished(game, table)
                    if game is not None and problem.code == "cube-moved" else NO_CUBES)
        if unseen.total() or surplus.total() or vanished.total():
            # A cube left a reserve and lies nowhere the camera sees, or lies somewhere no
            # reserve gave it, or left a tile for nowhere on the table: the act the table
            # shows more likely rests on a misread somewhere in the zones the problem
            # names or those the stray cubes left or reached, likeliest where the vision
            # was least sure (a cube it lost gave it no blob to doubt).
            strays = (self._reserves_losing(unseen, table) + self._zones_gaining(surplus, table)
                      + self._tiles_played(surplus))
            suspects = zones + [z for z in strays if z not in zones]
            # A tile people corrected or said yes to before the last move stays a
            # suspect: a cube played there since, missed by the camera, reads as the
            # tile did then.
            def suspicion(zone: str) -> float:
                if unseen.total() and self._said_before(zone, castle):
                    return self.settler.confidence.get(zone, 1.0)
                return sure(zone)

            unsure = [z for z in suspects if suspicion(z) < 1.0]
            if unsure:
                zone = min(unsure, key=suspicion)
                part = doubts.parts(zone)[-1 if castle else 0]
                return self._ask(zone, part, table, problem, "unaccounted")
        held = self._held_since is not None
        if held:
            self._held_zones += tuple(z for z in zones if z not in self._held_zones)
        lasting = self._lasting([*zones, *(z for z in self._held_zones if z not in zones)])
        if lasting is not None:
            part = doubts.parts(lasting)[-1 if problem.code.startswith("castle") else 0]
            return self._ask(lasting, part, table, problem, "standing")
        recheck = self._recheck()
        if recheck is not None:
            assert self.table is not None
            self._rechecked.add((recheck, read(self.table, recheck)))
            zone = doubts.zone_of(recheck)
            return self._ask(zone, recheck, self.table, problem, "corrected")
        standing = self.illegal
        if (
            standing is not None
            and standing.code == problem.code
            and standing.message == problem.message
        ):
            return []
        game = self.game
        self.question = None
        if not held:
            self._held_since = self.t
            self._held_zones = tuple(zones)
        self.illegal = Illegal(
            t=self.t,
            message=problem.message,
            code=problem.code,
            player=problem.player,
            round=game.round if game else 0,
            turn=game.turn_number if game else 0,
        )
        # An alarm holds the game till the table is back in order: the players who play
        # on over it make every later table show the next step against a turn the
        # referee still waits for. Each is what the display says now, not a new buzz.
        return [] if held else [self.illegal]

    def _his_castle(self, table: Table, zones: Sequence[str]) -> bool:
        """Whether the castles ``table`` shows on the tile of ``zones`` are exactly those
        the emperor's move there, due now and within his reach, would build."""
        game = self.game
        if game is None or game.to_move is None or len(zones) != 1:
            return False
        kind, _, key = zones[0].partition(":")
        if kind != "territory":
            return False
        t = int(key)
        steps = self.reading.emperor_steps(game, table.replace(emperor=t))
        if not 1 <= steps <= (game.disc(game.to_move) or 0):
            return False
        try:
            game.push(MoveEmperor(game.to_move, steps))
        except IllegalMoveError:
            return False
        try:
            return table.castle_on(t) == castle_of(game.owner(t))
        finally:
            game.pop()

    def _judge(self, table: Table) -> list[TableEvent]:
        if self.game is None:
            return self._judge_setup(table)
        game = self.game
        if game.is_over:
            return self._announce(table, [])
        denied = self._castle_denied
        if denied is not None and self.table is not None:
            castles, seen = denied
            if read(self.table, castles) == seen:
                return self._ask(doubts.zone_of(castles), castles, table, None, "castle-denied")
            self._castle_denied = None  # the camera sees that castle no more
        self._note_returning(game, table)
        out: list[TableEvent] = self._revise_emperor(game, table)
        pushed, moves, problem = self._advance(game, table)
        replayed = None
        if problem is not None and self._redone(moves) < len(self._undone):
            replayed = self._replay_undone(game, table, len(pushed))
            if replayed is not None:
                pushed, moves, problem = replayed
        if replayed is None:  # (steps Undo took back, played again, are not played twice)
            released = self._released(game, table, len(pushed), problem is not None)
            if released is not None:
                table, (pushed, moves, problem) = released
        first: str | None = None  # a doubted tile to ask about before a play is moved
        if problem is not None:
            revised = self._revised(game, table, len(pushed), problem)
            if revised is None:
                moved = self._moved_play(game, table, len(pushed), problem)
                if isinstance(moved, str):
                    first = moved
                else:
                    revised = moved
            if revised is not None:
                undone, (pushed, moves, problem) = revised
                out.append(undone)
        if problem is not None:
            kept = self._redone(moves)
            for _ in pushed[kept:]:
                self._pop(game)
                self._chores = self._chores_stack.pop()
            del self._undone[len(self._undone) - kept :]
            if first is not None:
                ask = self._ask(first, doubts.parts(first)[0], table, None, "judged-again")
                return out + self._announce_moves(pushed[:kept]) + ask
            return out + self._announce_moves(pushed[:kept]) + self._raise(problem, table)
        # the first step played that is asked about before it stands: (index, zone, why)
        unsure: tuple[int, str, str] | None = None
        for found in (self._unsure_taken(moves), self._unsure_replay(game, moves)):
            if found is not None and (unsure is None or found[0] < unsure[0]):
                unsure = found
        if unsure is not None:
            for _ in pushed[unsure[0]:]:
                self._pop(game)
                self._chores = self._chores_stack.pop()
            pushed = pushed[:unsure[0]]
        if pushed:
            self._undone.clear()  # the game has caught up with the table
            self._undone_chores.clear()
        if unsure is not None:
            _, zone, why = unsure
            part = None
            if why == "judged-again":
                # what `_hiding` would ask once the turn goes on: whether the cube lies
                # there as the camera reads it; asked now, not twice
                part = doubts.parts(zone)[0]
                assert self.table is not None
                self._unhidden.add((part, read(self.table, part), self._moves()))
            return out + self._announce_moves(pushed) + self._ask(zone, part, table, None, why)
        self._taken_asked = None
        if self.illegal is not None or self.question is not None:
            out.append(self._resolved())
        return self._announce(table, out + self._announce_moves(pushed))

    def _reserves_losing(self, unseen: Cubes, table: Table) -> list[str]:
        """The reserves that the camera reads short of a colour among ``unseen`` cubes
        (`Reading.unaccounted`): a reserve misread is as likely where such a cube went
        as any zone the act names (a pink missed in a heap starts a turn nobody began)."""
        game = self.game
        if game is None:
            return []
        out = []
        for p in self.players:
            seat = self._seat[p.name]
            short = gained(game.reserve(p.name) - table.reserves.get(seat, NO_CUBES))
            if any(s and u for s, u in zip(short, unseen, strict=True)):
                out.append(f"reserve:{seat}")
        return out

    def _tiles_played(self, surplus: Cubes) -> list[str]:
        """The tiles onto which the turn under way played cubes of a colour among
        ``surplus`` (`Reading.unsourced`): a cube from nowhere of that colour is likelier
        the one played, seen at last where it lies, than a cube nobody took (4-player
        mild whole game 900497: Carla's green onto territory 11 was hidden by a
        correction there, a green phantom on territory 8 was taken for it, and when the
        green on 11 was vouched for it buzzed as coming from no reserve). As suspects
        they are asked about where the vision doubts them."""
        game = self.game
        if game is None or not surplus.total():
            return []
        out = []
        for move in game.move_stack[len(game.move_stack) - self._turn_so_far(game):]:
            if not isinstance(move, PlayCubes):
                continue
            for territory, colours in move.territories:
                if isinstance(territory, int) and any(surplus[COLOUR_INDEX[c]] for c in colours):
                    out.append(f"territory:{territory}")
        return out

    def _zones_gaining(self, surplus: Cubes, table: Table) -> list[str]:
        """The tiles and courts the camera reads with more cubes of a colour among
        ``surplus`` (`Reading.unsourced`) than the game has there, and the reserves,
        which a cube missed in the heap leaves looking full."""
        game = self.game
        if game is None or not surplus.total():
            return []
        return self.reading.gaining(game, table, surplus) + [
            f"reserve:{self._seat[p.name]}" for p in self.players]

    def _unanswered(self) -> list[TableEvent]:
        """The table judged again once a question about a refill or a disc has gone
        unanswered for `SETUP_WAIT_SECONDS` (`_unsure_taken`): the table stands still,
        nobody is there to answer, and the game should not wait for the next move to go
        on."""
        question, asked, judged = self.question, self._taken_asked, self._judged
        if question is None or question.why not in ("refill", "disc") or judged is None:
            return []
        if self.t is None or asked is None or self.t - asked < SETUP_WAIT_SECONDS:
            return []
        return self._rule(judged)

    def _unsure_replay(self, game: Game, moves: Sequence[Move]) -> tuple[int, str, str] | None:
        """The cube play among ``moves`` (the last steps played on ``game``) that stands
        where a play was judged again (`_revised`), and a tile it puts cubes on that the
        vision doubts and nobody vouched for (its index and the tile's zone); else None.

        A move judged again because the camera lost a phantom it rested on is judged
        on a table that the same art misreads: in 3-player hard camera game 900345
        Carla's green, missed on territory 5, was taken for a phantom on 8 and, judged
        again, for one on 12, and the game was lost. The second reading of that turn is
        asked about where it rests on a doubt; other plays are taken as read, for most
        cubes put on doubted tiles are where the camera sees them (about 150 in 36
        camera games, 3 wrong, all in that turn)."""
        base = len(game.move_stack) - len(moves)
        for k, move in enumerate(moves):
            if base + k != self._rejudged or not isinstance(move, PlayCubes):
                continue
            for t, _ in move.territories:
                zone = f"territory:{t}"
                if self._certainty(zone) < DOUBTFUL:
                    return k, zone, "judged-again"
        return None

    def _unsure_taken(self, moves: Sequence[Move]) -> tuple[int, str, str] | None:
        """The first refill or disc choice among ``moves`` read from a reserve or a tray
        the vision doubted and nobody vouched for (its index, the zone and why it is
        asked: ``refill`` or ``disc``), while it has been asked about for less than
        `SETUP_WAIT_SECONDS`; else None.

        What a player draws from the bag no rule foresees: a pink read as a red in the
        heap is taken as drawn, and every later reading of that reserve, right at last,
        then looks like a cube from nowhere (`refill-count`). Nor does a rule say which
        disc a player takes: a disc laid back half off its slot, read as gone, is a
        choice nobody made, and the discs read next would buzz `disc-order`. So either is
        asked about before it is played, like the set-up; unanswered (a recording,
        nobody there), it is taken as read."""
        for k, move in enumerate(moves):
            if isinstance(move, Refill):
                zone, why = f"reserve:{self._seat[move.player]}", "refill"
            elif isinstance(move, ChooseDisc):
                zone, why = f"discs:{self._seat[move.player]}", "disc"
            else:
                continue
            if self._certainty(zone) >= DOUBTFUL:
                continue  # (two players' discs may settle at once: each is weighed)
            if self._taken_asked is None:
                self._taken_asked = self.t
            asked = self._taken_asked
            if self.t is not None and asked is not None and self.t - asked >= SETUP_WAIT_SECONDS:
                return None
            return k, zone, why
        return None

    def _advance(
        self,
        game: Game,
        table: Table,
        pushed: Sequence[list[Event]] = (),
        moves: Sequence[Move] = (),
    ) -> tuple[list[list[Event]], list[Move], Problem | None]:
        """Play on ``game`` every step ``table`` shows complete, after ``pushed`` and
        ``moves`` (already played); all the steps played and the problem the table shows
        after them, if any."""
        done, played = list(pushed), list(moves)
        while not game.is_over:
            try:
                move = self._complete_move(game, table)
                if move is None:
                    break
                try:
                    events = self._push(game, move)
                except IllegalMoveError as exc:
                    raise ProblemFound(Problem(exc.code, exc.message, exc.player)) from None
            except ProblemFound as found:
                return done, played, found.problem
            self._chores_stack.append(self._chores)
            self._after_push(game, move, events, table)
            done.append(events)
            played.append(move)
        if game.is_over:
            return done, played, None
        return done, played, find_problem(self.reading, game, table, self._chores)

    def _revised(
        self, game: Game, table: Table, pushed: int, problem: Problem
    ) -> tuple[Undone, tuple[list[list[Event]], list[Move], Problem | None]] | None:
        """The cubes played last taken back and judged again on ``table`` (with what
        followed them: ``pushed`` steps, and the emperor's move of the same turn, if he
        has moved, `_turn_so_far`), when people said the camera is right about a
        tile those cubes seem to have left (``problem``: `cube-moved`; yes to the camera's
        reading, or a correction that holds) and the table, judged again, no longer
        shows that problem; else None (and ``game`` as it was).

        A move is taken from the table as read: a phantom on one tile can complete a
        turn whose real cube lies on another, read there with phantoms of its own (4-player
        hard camera game 900400: Bob's green taken as played on territory 7, where the
        camera saw a phantom, while his real green lay on 14). When the phantom goes and
        people say the tile is as the camera now reads it, the cube did not leave it: it
        was never there, and the move is judged again from the table as it is. Not
        where the vision was sure of the tile when the move was played there: then the
        cube was there, and it has left (four-player hard camera game 900417: a cube
        taken off territory 7 for a second went uncaught, the move judged again)."""
        zone = self._vouched_gone(problem)
        if zone is None:
            return None
        self._take_back(game, pushed)
        back = self._turn_so_far(game)
        last = game.move_stack[-back] if back else None
        seen = self._played_sure.get(len(game.move_stack) - back + 1, {}).get(zone, 0.0)
        if isinstance(last, PlayCubes) and seen < DOUBTFUL:
            sure = dict(self._played_sure)
            taken = self._lifted(game, len(game.move_stack) - back)
            result = self._advance(game, table)
            found = result[2]
            if found is None or (found.code, found.zones) != (problem.code, problem.zones):
                # (what is wrong now, if anything, is judged as usual: asked about or
                # buzzed, but not the cube that never lay on the tile people vouched for)
                self._rejudged = len(game.move_stack) - len(result[0])
                return self._misread(int(zone.split(":")[1]), last), result
            self._take_back(game, len(result[0]))
            self._put_back(game, taken)
            self._played_sure = sure
        again = self._advance(game, table)
        assert len(again[0]) == pushed
        return None

    def _vouched_gone(self, problem: Problem) -> str | None:
        """The tile ``problem`` says a played cube left (`cube-moved`), where people
        said the camera is right about it (a yes, or a correction that holds); else
        None."""
        zone = problem.zones[0] if problem.zones else ""
        if (
            problem.code != "cube-moved"
            or not zone.startswith("territory:")
            or not self._said(zone, castles=False)
        ):
            return None
        return zone

    def _moved_play(
        self, game: Game, table: Table, pushed: int, problem: Problem
    ) -> tuple[Undone, tuple[list[list[Event]], list[Move], Problem | None]] | str | None:
        """A cube play of the last round found, after its turn, to rest on a phantom:
        played again with that cube on the one tile the table shows it on, and the steps
        since played again as they were, when people said the camera is right about the
        tile it seems to have left (``problem``, as in `_revised`) and the game then
        agrees with the table; the tile it is moved to, where the camera doubts that
        tile and nobody vouched for it (asked about first); else None (and ``game`` as
        it was with ``pushed`` steps).

        `_revised` judges a move again from the table while its turn lasts. Later, the
        table also shows the steps since, which cannot be told apart from it again (the
        emperor moved on, the next player's cubes): 3-player hard whole game 900390,
        round 7, Carla's green, put on territory 6 and missed there, was taken as
        played onto a phantom on 13; people said 13 was without it only after Anna had
        played, and `cube-moved` held the game for good. One cube moved from one tile
        to another changes no control (courts decide it), so the steps since are the
        same steps; what the emperor's moves build may differ, and is judged anew."""
        zone = self._vouched_gone(problem)
        if zone is None:
            return None
        t = int(zone.split(":")[1])
        self._take_back(game, pushed)
        gone = gained(game.territory(t) - table.territories[t - 1])
        colour = gone.colours()[0] if gone.total() == 1 else None
        found = self._play_onto(game, t, colour) if colour is not None else None
        targets = [
            u for u in range(1, 16)
            if colour is not None and u != t
            and gained(table.territories[u - 1] - game.territory(u)).get(colour)
        ]
        if found is not None and colour is not None and len(targets) == 1:
            at, play = found
            (u,) = targets
            target, moved = f"territory:{u}", _moved_cube(play, t, u, colour)
            sure = self._certainty(target) >= DOUBTFUL
            result = self._played_again(game, table, at, moved, keep=sure)
            if result is not None:
                if not sure:
                    again = self._advance(game, table)
                    assert len(again[0]) == pushed
                    return target
                self._castles_due(len(game.move_stack) + 1)
                return self._misread(t, play), result
        again = self._advance(game, table)
        assert len(again[0]) == pushed
        return None

    def _misread(self, t: int, play: Move) -> Undone:
        """What is said when ``play``, taken from a phantom on territory ``t``, is judged
        again."""
        message = said(
            "The camera misread territory %(territory)s: %(player)s's move is judged again.",
            territory=t,
            player=play.player,
        )
        return Undone(t=self.t, message=message, move=move_to_json(play))

    def _play_onto(self, game: Game, t: int, colour: str) -> tuple[int, PlayCubes] | None:
        """The last cube play of a ``colour`` cube onto territory ``t`` among the last
        round's, made while the vision doubted ``t`` or judged again from the table
        (`_revised`: read on the same art that misread it once; 900390, round 8: Bob's
        green, hidden on 11 by the emperor, taken onto a phantom on 6, then, judged
        again, onto one on 12 read without doubt); its place in the move stack, and it;
        else None."""
        stack = game.move_stack
        plays = 0
        for at in range(len(stack) - 1, -1, -1):
            move = stack[at]
            if not isinstance(move, PlayCubes):
                continue
            if colour in dict(move.territories).get(t, ()):
                seen = self._played_sure.get(at + 1, {}).get(f"territory:{t}", 0.0)
                return (at, move) if seen < DOUBTFUL or at == self._rejudged else None
            plays += 1
            if plays >= len(self.players):
                return None
        return None

    def _played_again(
        self, game: Game, table: Table, at: int, play: PlayCubes, keep: bool
    ) -> tuple[list[list[Event]], list[Move], Problem | None] | None:
        """``play`` in the place of the move at ``at``, and the moves since played again
        as they were, when the rules allow them and the table, then, shows no problem
        (the steps played, from ``play`` on, and None; ``keep``: the game left so); else
        None. ``game`` is left as it was unless kept. What people have to do after them
        is judged anew: the cube moved can make a castle due (900390: Anna's emperor,
        moved onto territory 6 after Carla's green, built her castle there)."""
        sure = dict(self._played_sure)
        taken = self._lifted(game, at)
        done: list[list[Event]] = []
        played: list[Move] = []
        try:
            for k, (move, _) in enumerate(taken):
                move = play if k == 0 else move
                events = self._push(game, move)
                self._chores_stack.append(self._chores)
                self._after_push(game, move, events, table)
                done.append(events)
                played.append(move)
        except IllegalMoveError:
            result = None
        else:
            result = self._advance(game, table, done, played)
        if result is not None and result[2] is None and keep:
            # the steps played again keep how sure the vision was when they were made
            self._played_sure.update(
                (n, sure[n]) for n in range(at + 2, at + len(taken) + 1) if n in sure)
            return result
        self._take_back(game, len(game.move_stack) - at)
        self._put_back(game, taken)
        self._played_sure = sure
        return result if result is not None and result[2] is None else None

    def _lifted(self, game: Game, down_to: int) -> list[tuple[Move, Chores]]:
        """The moves above the first ``down_to`` taken back, oldest first, each with
        what people had to do after it (`_put_back` plays them again as they were)."""
        taken: list[tuple[Move, Chores]] = []
        while len(game.move_stack) > down_to:
            taken.append((game.move_stack[-1], self._chores))
            self._take_back(game, 1)
        taken.reverse()
        return taken

    def _put_back(self, game: Game, taken: Sequence[tuple[Move, Chores]]) -> None:
        for move, after in taken:
            self._push(game, move)
            self._chores_stack.append(self._chores)
            self._chores = after

    @staticmethod
    def _turn_so_far(game: Game) -> int:
        """How many of the last moves are the turn under way's cubes and what followed
        them: 1 (its cubes, the emperor due), 2 (its cubes and the emperor's move, the
        refill due), else 0.

        A phantom that completes a turn is found out only when people answer about the
        tile the real cube went to; by then the emperor has often moved (3-player hard
        whole game 900390: Carla's green, hidden on territory 12 by a phantom denied
        there, was taken as played on 11, where the camera read one; she moved the
        emperor, then people said yes to 12 and to 11 without a green, and
        `cube-moved` buzzed). The emperor's move is judged again with the cubes."""
        stack = game.move_stack
        if game.step is Step.EMPEROR and stack and isinstance(stack[-1], PlayCubes):
            return 1
        if (game.step is Step.REFILL and len(stack) >= 2
                and isinstance(stack[-1], MoveEmperor) and isinstance(stack[-2], PlayCubes)
                and stack[-1].player == stack[-2].player):
            return 2
        return 0

    def _take_back(self, game: Game, steps: int) -> None:
        for _ in range(steps):
            self._pop(game)
            self._chores = self._chores_stack.pop()

    def _replay_undone(
        self, game: Game, table: Table, pushed: int
    ) -> tuple[list[list[Event]], list[Move], Problem | None] | None:
        """The steps Undo took back played again first, then the rest judged, when the
        table is then in order or what is wrong rests on a zone the camera doubts; else
        None (and ``game`` as it was with ``pushed`` steps).

        When Undo takes back a player's cubes after the next player has put cubes down,
        the changed table shows both players' cubes on the tiles and nothing says whose
        are whose: judged from the table alone, the first player seems to have played
        too many, or from the other's reserve, and the game never comes back. The
        undone steps are the referee's own reading of that table's past; when, played
        again, they leave a table the rules accept, the table still shows them (two
        Undos in a row on the demo, issue 15). As few as possible are played again."""
        self._take_back(game, pushed)
        replay = list(reversed(self._undone))
        for k in range(1, len(replay) + 1):
            done: list[list[Event]] = []
            for move in replay[:k]:
                try:
                    events = self._push(game, move)
                except IllegalMoveError:
                    break
                self._chores_stack.append(self._chores)
                self._after_push(game, move, events, table)
                done.append(events)
            if len(done) == k:
                result = self._advance(game, table, done, replay[:k])
                if result[2] is None or self._doubted(result[2], table):
                    return result
                self._take_back(game, len(result[0]))
            else:
                self._take_back(game, len(done))
        again = self._advance(game, table)
        assert len(again[0]) == pushed
        return None

    def _released(
        self, game: Game, table: Table, pushed: int, wrong: bool
    ) -> tuple[Table, tuple[list[list[Event]], list[Move], Problem | None]] | None:
        """``table`` with its corrected tiles and reserves as the camera now reads them,
        and the steps it shows played, when that shows the game going on as the rules
        allow and ``table`` (on which ``pushed`` steps were played) shows something
        ``wrong`` or fewer steps; else None (and ``game`` as it was). The corrections of
        those zones are dropped then, but a heap's keeps the cubes people said lie unseen
        there that the table does not show played (`_spent`).

        A tile people corrected keeps what they said while the camera reads it as it did
        then (`referee.table.corrections`): a phantom denied, but also the very reading
        a real cube of the phantom's colour makes when it is played there later. The
        correction then hides a move: the turn waits for a cube that lies on the
        tile, or looks short or out of order. Cubes come out of a reserve the camera
        reads well, so a reading the rules accept as the next step, reserve and all,
        is the table; a phantom, with no cube gone from the player's reserve, is not
        accepted and stays corrected. A reserve people corrected for a cube the camera
        misses in the heap reads the same once that very cube is played (4-player hard
        camera game 900404: "1 pink came onto the table but not from Bob's reserve"):
        the reading, court or tile and all, is then the next step too.

        Not a tile the vision doubts as it reads it now (3-player hard camera game
        900348: a yellow phantom on territory 3, denied at set-up, flickered back just as
        Carla's yellow went onto territory 8, where the camera missed it; released, her
        move was recorded on 3, and the phantom's next flicker buzzed "1 yellow left
        territory 3"). Nor a tile the camera has read only as people said was wrong since
        they said it (3-player mild whole camera game 900386: the yellow phantom denied
        on territory 4 read the same for seventy seconds, Anna's yellow went onto
        territory 5, where the camera missed it, and released, the phantom was her move).
        The unseen cube is then asked about, that tile first (`_hiding`)."""
        raw = self.table
        if raw is None:
            return None
        hidden = [
            part
            for part in self.corrections.masking(raw)
            if part.startswith(("territory", "reserve")) and part not in self._untouched
            and not (part.startswith("territory")
                     and (self.settler.confidence.get(doubts.zone_of(part), 1.0) < DOUBTFUL
                          or not self.corrections.varied(part)))
        ]
        # First the heaps, each giving up only the unseen cubes the table shows played
        # from nowhere (the rest people said lie there still do); then every correction
        # as the camera reads it; then each heap alone, so that a phantom people denied
        # on a tile does not keep a cube unseen in a heap from being played. A tile's
        # correction is never released alone: it would take a denied phantom for a move
        # whenever a cube of its colour left the reserve for a spot the camera missed.
        heaps = [part for part in hidden if part.startswith("reserve")]
        tries = [(heaps, True)] if heaps else []
        tries += [(hidden, False)]
        tries += [([part], True) for part in heaps] if len(hidden) > 1 else []
        for parts, spent in tries:
            self._take_back(game, pushed)
            released = table
            for part in parts:
                released = write(released, part, self._spent(game, table, part) if spent
                                 else read(raw, part))
            if released != table:
                result = self._advance(game, released)
                if result[2] is None and (wrong or len(result[0]) > pushed):
                    for part in parts:
                        left = read(released, part)
                        if not spent or left == read(raw, part):
                            self.corrections.drop(part)
                        else:
                            self.corrections.set(part, raw, left,
                                                 self.corrections.made_at(part) or 0)
                    self._judged = released
                    return released, result
                self._take_back(game, len(result[0]))
            again = self._advance(game, table)
            assert len(again[0]) == pushed
        return None

    def _spent(self, game: Game, table: Table, part: str) -> Value:
        """A corrected heap (``part`` of ``table``, the corrections applied) less the
        cubes people said lie unseen in it that the table shows played from nowhere."""
        raw = self.table
        assert raw is not None
        believed, seen = read(table, part), read(raw, part)
        assert isinstance(believed, Cubes) and isinstance(seen, Cubes)
        unseen = gained(believed - seen)
        played = self.reading.unsourced(game, table)
        return believed - Cubes(min(u, p) for u, p in zip(unseen, played, strict=True))

    def _doubted(self, problem: Problem, table: Table) -> bool:
        """Whether ``problem`` rests on a zone the camera doubts: a question, no alarm."""
        zones = list(problem.zones) or self._zones_off(table)
        castle = problem.code.startswith("castle")
        return any(self._certainty(z, castle) < DOUBTFUL for z in zones)

    def _redone(self, moves: Sequence[Move]) -> int:
        """How many of ``moves``, the steps a table shows complete, are the steps Undo took
        back, in the order they were played: the table still shows them after it changed.

        Those stand even when something else on the table is wrong (a doubtful reading,
        an illegal act): the players left them as they were. Judged with the rest and
        taken back with it, they could be lost for good: the emperor moves on in the
        next turn, and with him the only sign of the move Undo took back, so the
        referee would call every later move of his illegal and never come back to the
        table as it is (two Undos in a row on the demo, issue 15)."""
        kept = 0
        for move, undone in zip(moves, reversed(self._undone), strict=False):
            if move != undone:
                break
            kept += 1
        return kept

    def _announce_moves(self, pushed: Sequence[Sequence[Event]]) -> list[TableEvent]:
        """The events of the steps just played, each castle built with what it asks."""
        out: list[TableEvent] = []
        for events in pushed:
            for event in events:
                out.append(stamp(event, self.t))
                if isinstance(event, CastleBuilt | CastleTaken) and self._chores.castles:
                    out.append(
                        CastlePending(
                            t=self.t,
                            message=self.reading.castle_words(self._chores.castles, sentence=True),
                            territories=tuple(sorted(self._chores.castles)),
                            side=event.side,
                        )
                    )
        return out

    def _revise_emperor(self, game: Game, table: Table) -> list[TableEvent]:
        """People count the emperor's steps by hopping him along: when he moves on before
        anything else happened (no castle touched, no refill, the next player idle), his
        first stop is taken back and the whole move judged again."""
        if game.phase is not Phase.ACTION or game.step is not Step.REFILL:
            return []
        last = game.move_stack[-1] if game.move_stack else None
        if not isinstance(last, MoveEmperor) or not self.reading.emperor_steps(game, table):
            return []
        seat = self._seat[last.player]
        if table.reserves.get(seat, NO_CUBES) != game.reserve(last.player):
            return []
        following = self.reading.next_player(game)
        if following is not None and (
            not game.cubes_to_play(following)
            or table.reserves.get(self._seat[following], NO_CUBES) != game.reserve(following)
        ):
            return []
        for t, (old, _) in self._chores.castles.items():
            if table.castles[t - 1] != castle_of(old):
                return []
        stop = game.emperor
        self._pop(game)
        self._chores = self._chores_stack.pop()
        if self.reading.emperor_steps(game, table):
            message = said(
                "The emperor goes on from territory %(territory)s: %(player)s's move is judged "
                "again.",
                territory=stop,
                player=last.player,
            )
        else:
            message = said(
                "The emperor is back where he stood: %(player)s's move is taken back.",
                player=last.player,
            )
        return [Undone(t=self.t, message=message, move=move_to_json(last))]

    # ---------------------------------------------------------- set-up phase

    def _judge_setup(self, table: Table) -> list[TableEvent]:
        full = all(table.discs.get(self._seat[p.name], frozenset()) >= DISCS for p in self.players)
        if full:
            self._setup_asked = None
            self._candidate = table
            self._candidate_doubts = self.settler.confidence
            standing = self.illegal is not None or self.question is not None
            return [self._resolved()] if standing else []
        if self._candidate is None:
            return []  # the players are still laying out the table
        setup: Setup | None = None
        error: BadSetupError | None = None
        candidate = self.corrections.overlay(self._candidate)
        for base in (candidate, table):
            try:
                setup = self._setup_from(base)
                break
            except BadSetupError as exc:
                error = exc  # the table now is what the players put right
        if setup is None:
            assert error is not None
            zones = tuple(self._setup_zones(table))
            problem = Problem(error.code, error.message, error.player, zones)
            odd = self._setup_anomalies(table) + [
                zone for zone, n in self._odd_reserves(table).items() if n < 0]
            unsaid = [zone for zone in zones if zone in odd and not self._said(zone)]
            if not unsaid:
                unsaid = self._overcounted_tiles(table)
            if unsaid:
                # a tile with two cubes or none, a reserve short of cubes, is as likely
                # the camera's mistake as the players' (a cube it missed gave it no blob
                # to doubt), and nobody has played yet: ask before any alarm
                part = doubts.parts(unsaid[0])[0]
                return self._ask(unsaid[0], part, table, problem, "doubtful")
            return self._raise(problem, table)
        unsure = self._setup_doubts(base is candidate, setup.territories)
        if unsure:
            if self._setup_asked is None:
                self._setup_asked = self.t
            asked = self._setup_asked
            if self.t is None or asked is None or self.t - asked < SETUP_WAIT_SECONDS:
                part = doubts.parts(unsure[0])[0]
                return self._ask(unsure[0], part, table, None, "setup")
        self.game = Game(setup)
        self._chores = Chores(back={p.seat or "": DISCS for p in self.players})
        standing = self.illegal is not None or self.question is not None
        out: list[TableEvent] = [self._resolved()] if standing else []
        out.append(
            SetupAccepted(
                t=self.t,
                message=_setup_words(self.players, setup, unsure),
                unconfirmed=tuple(unsure),
                territories=tuple(setup.territories),
                emperor=setup.emperor,
                reserves={name: tuple(r) for name, r in setup.reserves.items()},
            )
        )
        return out + self._judge(table)

    def _setup_doubts(self, from_candidate: bool, colours: Sequence[str]) -> list[str]:
        """The zones of a set-up that looks right which the vision doubted when it read
        them (the tiles, the reserves, the emperor), and nobody has vouched for or
        corrected yet. The set-up is every later judgement's ground: a cube misread
        there is a wrong record from the first turn on, so it is asked about, never
        accepted silently. ``from_candidate``: the set-up was read from the last table
        with every tray full, so that table's doubts count too.

        The tiles hold three cubes of each colour (``colours``, tile by tile, as read):
        a set-up read so whose doubted tiles all read one colour cannot hide a misread
        among them, for changing any of them breaks the count the set-up was checked
        against; only doubted tiles of two colours or more could be two swapped misreads.
        Those alone are asked about (the set-up questions of the camera games were
        answered "yes" 116 times in 120)."""
        zones = [f"territory:{n}" for n in range(1, 16)]
        zones += [f"reserve:{self._seat[p.name]}" for p in self.players] + ["emperor"]
        unsure = []
        for zone in zones:
            if self._said(zone):
                continue
            level = self.settler.confidence.get(zone, 1.0)
            if from_candidate:
                level = min(level, self._candidate_doubts.get(zone, 1.0))
            if level < DOUBTFUL:
                unsure.append(zone)
        tiles = {colours[int(z.split(":")[1]) - 1] for z in unsure if z.startswith("territory")}
        if len(tiles) <= 1:
            unsure = [z for z in unsure if not z.startswith("territory")]
        return unsure

    def _setup_from(self, table: Table) -> Setup:
        territories: list[str] = []
        for number, cubes in enumerate(table.territories, start=1):
            if cubes.total() != 1:
                raise BadSetupError(
                    said(
                        "territory %(territory)s holds %(pieces)s; the set-up puts exactly one "
                        "cube on each territory",
                        territory=number,
                        pieces=cubes.colours(),
                    )
                )
            territories.append(cubes.colours()[0])
            if table.castles[number - 1] != NO_CASTLE:
                raise BadSetupError(
                    said(
                        "a castle stands on territory %(territory)s before the game",
                        territory=number,
                    )
                )
        if table.emperor is None:
            raise BadSetupError(said("the emperor is not on a territory"))
        reserves: dict[str, list[str]] = {}
        for p in self.players:
            seat = self._seat[p.name]
            court = table.courts.get(seat, NO_CUBES)
            if court.total():
                raise BadSetupError(
                    said(
                        "%(player)s's court holds %(pieces)s; courts start empty",
                        player=p.name,
                        pieces=court.colours(),
                    ),
                    p.name,
                )
            reserves[p.name] = list(table.reserves.get(seat, NO_CUBES).colours())
        for colour, place in zip(COLOURS, table.cylinders, strict=True):
            if place not in (None, "pool"):
                raise BadSetupError(
                    said(
                        "the %(colour)s cylinder stands on the %(seat)s court; cylinders start "
                        "in the pool",
                        colour=colour,
                        seat=place,
                    )
                )
        setup = Setup(
            self.players, tuple(territories), table.emperor, reserves, self.cubes_per_colour
        )
        setup.check()
        return setup

    # -------------------------------------------------------- reading steps

    def _complete_move(self, game: Game, table: Table) -> Move | None:
        """The move the table shows complete for the current step, if any."""
        if game.phase is Phase.OPENING:
            return self._disc_choice(game, table)
        player = game.to_move
        assert player is not None
        if game.step is Step.CUBES:
            placement = self.reading.placement(game, table, player)
            placed = placement.placed
            want = game.cubes_to_play(player)
            if (
                placed.total() != want
                or any(n < 0 for n in placement.court)
                or any(n < 0 for c in placement.territories.values() for n in c)
                or not game.reserve(player).covers(placed)
            ):
                return None
            # the reserve may already show refill cubes when a hand hid the whole turn
            refilled = placed - placement.taken
            if any(n < 0 for n in refilled):
                return None
            if any(refilled) and not self.reading.emperor_steps(game, table):
                return None
            return placement.move()
        if game.step is Step.EMPEROR:
            steps = self.reading.emperor_steps(game, table)
            disc = game.disc(player) or 0
            units = len(game.units())
            if not steps:
                if disc >= units and self._full_circle(game, table, player):
                    return MoveEmperor(player, units)
                return None
            if steps > disc and units - steps < steps:
                raise ProblemFound(
                    Problem(
                        EmperorStepsError.code,
                        said(
                            N_(
                                "%(player)s moved the emperor backwards; it moves clockwise, 1 "
                                "to %(disc)s steps"
                            )
                            if disc > 1
                            else N_(
                                "%(player)s moved the emperor backwards; it moves clockwise, 1 step"
                            ),
                            player=player,
                            disc=disc,
                        ),
                        player,
                    )
                )
            return MoveEmperor(player, steps)
        return self._refill(game, table, player)

    def _full_circle(self, game: Game, table: Table, player: str) -> bool:
        """With few units left the emperor may go all the way round to his own unit
        (rules, Reading): seen when he stands on another tile of it, when castles change
        there, or when the refill begins while he seems not to have moved."""
        tile = self._chores.emperor_tile
        if table.emperor is not None and tile is not None and table.emperor != tile:
            return True
        for t in game.unit(game.emperor):
            if table.castles[t - 1] != castle_of(game.owner(t)):
                return True
        grown = table.reserves.get(self._seat[player], NO_CUBES) - game.reserve(player)
        if any(n > 0 for n in grown):
            return True
        return any(
            any(n < 0 for n in table.courts.get(self._seat[p.name], NO_CUBES) - game.court(p.name))
            for p in self.players
        )

    def _refill(self, game: Game, table: Table, player: str) -> Refill | None:
        """The refill, once the reserve shows it all arrived. Court cubes returned to a
        short supply are read from the courts; as the next player may already have put a
        cube of that colour into his court, the returns the rules call for are tried too."""
        grown = table.reserves.get(self._seat[player], NO_CUBES) - game.reserve(player)
        if any(n < 0 for n in grown):
            return None
        played = cubes_played(game)
        seen: dict[str, int] = {}
        for i, colour in enumerate(COLOURS):
            gone = [
                game.court(p.name)[i] - table.courts.get(self._seat[p.name], NO_CUBES)[i]
                for p in self.players
            ]
            if max(gone) > 0:
                seen[colour] = max(gone)
        complete: Refill | None = None
        short: int | None = None  # the refill due, where the heap shows less
        for returned in (seen, self._canonical_returns(game, grown)):
            back = sum(
                min(k, game.court(p.name)[COLOUR_INDEX[colour]])
                for colour, k in returned.items()
                for p in self.players
            )
            need = min(played, game.supply().total() + back)
            if grown.total() < need:
                short = need if short is None else min(short, need)
            if grown.total() != need:
                continue
            if need < played and not self._next_done(game, table):
                return None  # a short refill is over only when the game moves on
            move = Refill.of(player, grown.colours(), returned)
            if game.is_legal(move):
                return move
            complete = complete or move
        if complete is None and short is not None and self._gone_on(game, table):
            # The game has gone on without the rest of his refill: a cube missed in the
            # heap (2-player hard camera game 900287, Bob's pink), or one never drawn.
            # Waiting for it, the referee took the next round's first cube for one
            # played out of turn; the heap is asked about (or, read sure, the short
            # refill buzzes) before the game goes on.
            raise ProblemFound(Problem(
                "refill-count", refill_count(player, grown.total(), short), player,
                (f"reserve:{self._seat[player]}",)))
        return complete  # all there but against the rules: the engine will say why

    def _canonical_returns(self, game: Game, refill: Cubes) -> dict[str, int]:
        supply = game.supply()
        returns: dict[str, int] = {}
        for colour, need, have in zip(COLOURS, refill, supply, strict=True):
            if need > have:
                k = game.canonical_return(colour, need - have)
                if k:
                    returns[colour] = k
        return returns

    def _next_done(self, game: Game, table: Table) -> bool:
        """Whether the game has clearly moved on past a short refill: the next player has
        taken all his cubes (or moved the emperor), or everyone has taken his disc for the
        next round (or, after a fifth round, his discs back). Merely starting is not
        enough: the refill and its returns may still be under way."""
        return bool(self.reading.emperor_steps(game, table)) or self._gone_on(
            game, table, laid_back=True)

    def _gone_on(self, game: Game, table: Table, laid_back: bool = False) -> bool:
        """Whether pieces the camera reads well show the game gone on past a refill the
        heap reads short of: the next player has taken all his cubes, or everyone has
        chosen his disc for the next round (after a fifth round, one of those he laid
        back, or with ``laid_back`` them laid back). Not the emperor seen elsewhere (a
        misread of him is as likely as a move), nor by default discs merely laid back
        (the refiller may lay his back before his last cube)."""
        following = self.reading.next_player(game)
        if following is not None:
            return self._all_taken(game, table, following)
        if game.round % DISC_CYCLE == 0:
            trays = {p.name: table.discs.get(self._seat[p.name], frozenset())
                     for p in self.players}
            if laid_back:
                return all(trays[p.name] - game.discs_in_hand(p.name) for p in self.players)
            returning = self._chores.returning
            return all(returning.get(self._seat[p.name], frozenset()) - trays[p.name]
                       for p in self.players)
        return all(
            self.reading.missing_discs(game, table, p.name, self._chores.back) for p in self.players
        )

    def _all_taken(self, game: Game, table: Table, player: str) -> bool:
        want = game.cubes_to_play(player)
        taken = gained(self.reading.placement(game, table, player).taken).total()
        return want > 0 and taken >= want

    def _disc_choice(self, game: Game, table: Table) -> ChooseDisc | None:
        chosen = {name for name, _ in game.chosen_discs()}
        candidates: list[ChooseDisc] = []
        for p in self.players:
            missing = self.reading.missing_discs(game, table, p.name, self._chores.back)
            if not missing:
                continue
            if p.name in chosen:
                raise ProblemFound(
                    Problem("disc-order", second_disc(game, p.name, min(missing)), p.name))
            if len(missing) > 1:
                raise ProblemFound(
                    Problem(
                        "disc-order",
                        said(
                            "%(player)s took discs %(discs)s from the tray; choose one",
                            player=p.name,
                            discs=sorted(missing),
                        ),
                        p.name,
                    )
                )
            candidates.append(ChooseDisc(p.name, min(missing)))
        if not candidates:
            return None
        expected = game.to_move
        for move in candidates:
            if move.player == expected:
                return move
        # anyone may choose (round 1): the disc seen leaving its tray first
        return min(candidates, key=lambda move: self._disc_gone.get(
            (self._seat[move.player], move.number), self._frames))

    # -------------------------------------------------------- after a move

    def _after_push(self, game: Game, move: Move, events: list[Event], table: Table | None) -> None:
        chores = self._chores
        castles = dict(chores.castles)
        cylinders = dict(chores.cylinders)
        asked = dict(chores.asked)
        back = dict(chores.back)
        castles_by, castles_at = chores.castles_by, chores.castles_at
        for event in events:
            if isinstance(event, ControlGained) and event.colour not in cylinders:
                cylinders[event.colour] = (
                    "pool" if event.previous is None else self._seat[event.previous]
                )
            elif isinstance(event, ControlGained) and event.previous is not None:
                # Won again before the cylinder moved: the court it was first sent to is
                # where a player following that announcement puts it.
                earlier = asked.get(event.colour, frozenset())
                asked[event.colour] = earlier | {self._seat[event.previous]}
            elif isinstance(event, CastleBuilt):
                castles = {t: (None, event.side) for t in event.territories}
                castles_by, castles_at = move.player, len(game.move_stack)
            elif isinstance(event, CastleTaken):
                castles = {t: (event.previous, event.side) for t in event.territories}
                castles_by, castles_at = move.player, len(game.move_stack)
        returning = chores.returning
        if (
            isinstance(move, Refill)
            and game.phase is Phase.OPENING
            and (game.round - 1) % DISC_CYCLE == 0
        ):
            # A new cycle: only the discs seen back since its last refill began count.
            # The heap may have read short until the discs were laid back and chosen
            # (2-player hard camera game 900287: the discs of round 6, never seen back,
            # made Anna's first cube buzz `turn-order`).
            back = {p.seat or "": returning.get(p.seat or "", frozenset()) for p in self.players}
            returning = {}
        tile = chores.emperor_tile
        if isinstance(move, MoveEmperor):
            tile = table.emperor if table is not None else None
        self._chores = Chores(
            castles, castles_by, castles_at, cylinders, back, tile, asked, returning)
        undone = self._undone_chores.get(len(game.move_stack))
        if undone is not None and undone[0] == move:
            # a step Undo took back, played again: what was known after it then (the
            # discs seen back in the trays after a fifth round) is not on the table now
            self._chores = undone[1]

    def _note_returning(self, game: Game, table: Table) -> None:
        """Keep the discs ``table`` shows in the trays while the refill that ends a cycle
        of rounds is under way: people lay theirs back meanwhile, and the table may stand
        unaccepted then (the heap read short and asked about) until they have chosen
        again."""
        if not (game.phase is Phase.ACTION and game.step is Step.REFILL
                and game.round % DISC_CYCLE == 0 and self.reading.next_player(game) is None):
            return
        returning = dict(self._chores.returning)
        for p in self.players:
            tray = self._seat[p.name]
            returning[tray] = returning.get(tray, frozenset()) | table.discs.get(tray, frozenset())
        self._chores = replace(self._chores, returning=returning)

    # ---------------------------------------------------------- announcing

    def _announce(self, table: Table, out: list[TableEvent]) -> list[TableEvent]:
        """Commit what the accepted table shows: chores done, cubes placed so far."""
        game = self.game
        assert game is not None
        chores = self._chores
        castles = {
            t: change
            for t, change in chores.castles.items()
            if table.castles[t - 1] != castle_of(change[1])
        }
        if chores.castles and not castles:
            out.append(
                CastlesPlaced(
                    t=self.t,
                    message=said("The castles stand as the rules say."),
                    territories=tuple(sorted(chores.castles)),
                )
            )
        cylinders = {}
        for colour, origin in chores.cylinders.items():
            place = self.reading.cylinder_place(game, colour)
            seen = table.cylinders[COLOURS.index(colour)]
            if seen == place:
                if colour in self._cylinders_said:
                    out.append(
                        CylinderMoved(
                            t=self.t,
                            message=said(
                                "The %(colour)s cylinder is on %(place)s.",
                                colour=colour,
                                place=self.reading.holder(place),
                            ),
                            colour=colour,
                            to=place,
                        )
                    )
            else:
                cylinders[colour] = origin
        owed = set()
        for colour in cylinders:
            owed.add(colour)
            if colour not in self._cylinders_said:
                out.append(
                    CylinderPending(
                        t=self.t,
                        message=self.reading.cylinder_words(game, colour, sentence=True),
                        colour=colour,
                        to=self.reading.cylinder_place(game, colour),
                    )
                )
        self._cylinders_said = frozenset(owed)
        back = dict(chores.back)
        for p in self.players:
            tray = self._seat[p.name]
            in_tray = table.discs.get(tray, frozenset()) & game.discs_in_hand(p.name)
            if not in_tray <= back.get(tray, frozenset()):
                back[tray] = back.get(tray, frozenset()) | in_tray
        tile = chores.emperor_tile if table.emperor is None else table.emperor
        self._chores = replace(
            chores,
            castles=castles,
            cylinders=cylinders,
            back=back,
            emperor_tile=tile,
            asked={c: places for c, places in chores.asked.items() if c in cylinders},
        )
        if game.phase is Phase.ACTION and not game.is_over:
            actor = game.to_move if game.step is Step.CUBES else self.reading.next_player(game)
            if actor is not None:
                out += self._announce_cubes(game, table, actor)
        return out

    def _announce_cubes(self, game: Game, table: Table, actor: str) -> list[TableEvent]:
        """``cubes-placed`` when what ``actor`` has put down so far changed."""
        placement = self.reading.placement(game, table, actor)
        court = gained(placement.court)
        territories = {t: gained(c) for t, c in sorted(placement.territories.items())}
        territories = {t: c for t, c in territories.items() if any(c)}
        placed = sum(territories.values(), court).total()
        key = (actor, court, tuple(territories.items()))
        if not placed or key == self._placed_key:
            return []
        self._placed_key = key
        where = [said("%(cubes)s to the court", cubes=court.colours())] if any(court) else []
        where += [
            said("%(cubes)s on territory %(territory)s", cubes=c.colours(), territory=t)
            for t, c in territories.items()
        ]
        want = game.cubes_to_play(actor)
        return [
            CubesPlaced(
                t=self.t,
                message=said(
                    "%(player)s has placed %(count)s of %(of)s cubes: %(clauses)s.",
                    player=actor,
                    count=placed,
                    of=want,
                    clauses=[clause(w) for w in where],
                ),
                player=actor,
                court=tuple(court.colours()),
                territories={str(t): tuple(c.colours()) for t, c in territories.items()},
                count=placed,
                of=want,
            )
        ]


def setup_cube(table: Table, number: int) -> Cubes | None:
    """The cube the set-up rules leave no doubt about on territory ``number``, which the
    players say the camera reads wrong; None when they leave a choice.

    The set-up puts one cube on each of the 15 tiles, three of every colour. Every other
    tile the camera reads with one cube is taken as read: before a set-up is accepted,
    the referee asks about each tile the vision doubts, so a wrong guess here cannot
    slip through. A tile read with more cubes holds one of the colours read there (a
    phantom beside it); one read empty, any colour (a cube the camera missed, as on tile
    art of the cube's own dye). ``number`` itself holds one of the colours read there,
    any but the one read when it reads a single cube. Every way to lay the ring out
    under these constraints is tried; the answer is the colour they all give. When no
    way fits with ``number`` holding a colour read there, its cube was misread too (a
    yellow beside the emperor read as two blue, in 2-player hard camera game 900249: the
    camera's word kept one blue, a fourth, and `bad-setup` sounded), and any colour is
    tried there."""
    found = _setup_colours(table, number, widened=False)
    if not found and table.territory(number).total() > 1:
        found = _setup_colours(table, number, widened=True)
    if len(found) != 1:
        return None
    return Cubes.of([COLOURS[found.pop()]])


def _setup_colours(table: Table, number: int, widened: bool) -> set[int]:
    """The colours territory ``number`` holds in the ways to lay the ring out that
    `setup_cube` tries (two at most: more says nothing more); ``widened``: any colour
    there."""
    choices: list[tuple[int, ...]] = []
    for n in range(1, 16):
        cubes = table.territory(n)
        read_colours = tuple(i for i, c in enumerate(cubes) if c)
        if n == number:
            if widened:
                choices.append(tuple(range(len(COLOURS))))
            elif cubes.total() == 1:
                choices.append(tuple(i for i in range(len(COLOURS)) if i not in read_colours))
            elif cubes.total() == 0:
                choices.append(tuple(range(len(COLOURS))))
            else:
                choices.append(read_colours)
        elif cubes.total() == 0:
            choices.append(tuple(range(len(COLOURS))))
        else:
            choices.append(read_colours)
    free = sum(1 for c in choices if len(c) > 1)
    if free > 6:
        return set(range(len(COLOURS)))  # too little is known to rule any out
    found: set[int] = set()
    left = [3] * len(COLOURS)

    def lay(n: int) -> None:
        if len(found) > 1:
            return
        if n == len(choices):
            found.add(here[number - 1])
            return
        for colour in choices[n]:
            if left[colour]:
                left[colour] -= 1
                here.append(colour)
                lay(n + 1)
                here.pop()
                left[colour] += 1

    here: list[int] = []
    lay(0)
    return found


def _example(zone: str) -> str:
    """A correction's value for ``zone`` in the words `carolus follow --ask` reads."""
    kind = zone.split(":")[0]
    return {
        "territory": "1 red",
        "court": "2 red, 1 blue",
        "reserve": "2 red, 1 blue",
        "emperor": "7",
        "cylinder": "pool",
        "discs": "1 2 4",
    }.get(kind, "1 red")


#: What Undo took back, by the move's kind (`referee.moves.move_to_json`).
_UNDONE = {
    "disc": N_("Undone: %(player)s chose disc %(number)s."),
    "cubes": N_("Undone: %(player)s played %(cubes)s."),
    "emperor": N_("Undone: %(player)s moved the emperor %(steps)s steps."),
    "emperor-1": N_("Undone: %(player)s moved the emperor 1 step."),
    "refill": N_("Undone: %(player)s refilled %(cubes)s."),
}


def _words(message: Said) -> dict[str, object]:
    """A message's msgid and fields, as an event carries them (``say``, ``words``)."""
    return {"say": message.msgid, "words": message.words}


def _undone_words(move: Move) -> Said:
    """What Undo took back, in words with fields: ``Undone: Anna played 3 red.``"""
    data = move_to_json(move)
    kind = str(data["move"])
    if kind == "emperor" and data["steps"] == 1:
        kind = "emperor-1"
    played = move.colours() if isinstance(move, PlayCubes) else data.get("colours", [])
    return said(
        _UNDONE[kind],
        player=move.player,
        number=data.get("number"),
        steps=data.get("steps"),
        cubes=Cubes.of(played).colours(),
    )


def _asked(question: Question) -> object:
    """The standing question as a field of the answer (`clause`): its msgid and fields
    where it has them, else its words."""
    if isinstance(question.message, Said) and question.message.msgid:
        return {"say": question.message.msgid, "words": question.message.words or {}}
    return str(question.message)


def _corrected(zone: str, before: Value, after: Value) -> Said:
    """``Corrected territory 7: 1 red (the camera saw no cubes).``"""
    part = " ".join(zone.replace(":", " ").split())
    if isinstance(after, Cubes) and isinstance(before, Cubes):
        return said(
            "Corrected %(part)s: %(pieces)s (the camera saw %(pieces2)s).",
            part=part,
            pieces=after.colours(),
            pieces2=before.colours(),
        )
    if part.startswith("castles"):
        return said(
            "Corrected %(part)s: %(castles)s (the camera saw %(castles2)s).",
            part=part,
            castles=_sides(after),
            castles2=_sides(before),
        )
    if part.startswith("cylinder"):
        return said(
            "Corrected %(part)s: %(place)s (the camera saw %(place2)s).",
            part=part,
            place=str(after),
            place2=str(before),
        )
    return said(
        "Corrected %(part)s: %(value)s (the camera saw %(value2)s).",
        part=part,
        value=_plain(after),
        value2=_plain(before),
    )


def _sides(castles: Value) -> list[str]:
    """Castle counts (white, black, grey) as one castle colour a castle."""
    counts = castles if isinstance(castles, tuple) else ()
    return [side for side, n in zip(CASTLE_COLOURS, counts, strict=False) for _ in range(n)]


def _plain(value: Value) -> str:
    """A reading with no game words in it: the emperor's tile, a tray's discs."""
    if isinstance(value, frozenset):
        return ", ".join(str(n) for n in sorted(value)) or "-"
    return "-" if value is None else str(value)


def _setup_words(players: Sequence[Player], setup: Setup, unsure: Sequence[str]) -> Said:
    """``Set-up accepted: Anna (white, south) 4 red, …; the emperor stands on territory
    7.``, and the zones nobody answered about."""
    seated = [
        clause(
            said(
                "%(player)s (%(side)s, %(seat)s) %(cubes)s",
                player=p.name,
                side=p.castles,
                seat=p.seat,
                cubes=Cubes.of(setup.reserves[p.name]).colours(),
            )
        )
        for p in players
    ]
    if unsure:
        return said(
            "Set-up accepted: %(items)s; the emperor stands on territory %(territory)s. Not "
            "confirmed: nobody answered about %(zones)s.",
            items=seated,
            territory=setup.emperor,
            zones=list(unsure),
        )
    return said(
        "Set-up accepted: %(items)s; the emperor stands on territory %(territory)s.",
        items=seated,
        territory=setup.emperor,
    )


__all__ = ["Problem", "Snapshot", "TableReferee", "castle_of"]
