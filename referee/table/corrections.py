"""Corrections: a person overrides what the camera believes about one zone.

"Territory 7 has 3 red, not 2": the correction replaces the camera's reading of that
zone for as long as the camera keeps reading it the same way. When the reading changes,
the table has changed there and the camera is trusted again, unless the new reading is
one people already said was wrong while the game stood where it stands, or of a tile,
while nothing was played there (busy tile art read now as a yellow phantom, now as a
pink one: each was denied once, and asking again each time the camera flickers between
them would ask for ever). Zone names:
``territory N``, ``castles N``, ``court SEAT``, ``reserve SEAT``, ``emperor``,
``cylinder COLOUR``, ``discs SEAT`` (``territory:7`` works too).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from referee.announcements import said
from referee.errors import RefusedError
from referee.pieces import CASTLE_COLOURS, COLOURS, SEATS, Cubes
from referee.table.reading import NO_CASTLE, gained, lost
from referee.table.snapshot import CYLINDER_PLACES, Table

Value = object


@dataclass(frozen=True)
class Correction:
    zone: str
    seen: Value  # the camera's reading when the correction was made
    value: Value  # what is really there
    moves: int = 0  # the moves the game had when it was made
    denied: tuple[Value, ...] = ()  # earlier readings people said were wrong, same moves
    held: Cubes | None = None  # a tile's cubes in the game when it was made
    #: the cubes played onto the tile since: at how many moves, which, and whether the
    #: camera showed them beside its old reading (see `Corrections.follow`)
    followed: tuple[tuple[int, Cubes, bool], ...] = ()
    #: the camera has read the zone otherwise since (not merely as before or as denied)
    varied: bool = False

    def shifted(self, cubes: Cubes) -> Correction:
        """This correction of a tile with ``cubes`` more played there (fewer, negative)."""
        return replace(
            self,
            seen=_plus(self.seen, cubes),
            value=_plus(self.value, cubes),
            denied=tuple(_plus(v, cubes) for v in self.denied),
            held=None if self.held is None else gained(self.held + cubes),
        )

    def covers(self, reading: Value) -> bool:
        """Whether what people said still holds against ``reading`` of the zone: it is
        the camera's reading when the correction was made, or one denied before with no
        move since; for a castle people said stands, also no castle at all, or the
        castle they said.

        A castle leaves a tile only in a takeover, when the taker's castle takes its
        place: a castle the camera sees for a moment and loses again (a white castle
        under a warm lamp) is still there, and would otherwise be missing, and buzzed,
        each time the camera loses it."""
        if reading == self.seen or reading in self.denied:
            return True
        return (
            self.zone.startswith("castles")
            and self.value != NO_CASTLE
            and reading in (NO_CASTLE, self.value)
        )


def _plus(value: Value, cubes: Cubes) -> Value:
    return gained(value + cubes) if isinstance(value, Cubes) else value


def read(table: Table, zone: str) -> Value:
    """The reading of one zone of ``table``."""
    kind, key = _split(zone)
    if kind == "territory":
        return table.territories[int(key) - 1]
    if kind == "castles":
        return table.castles[int(key) - 1]
    if kind == "court":
        return table.courts.get(key, Cubes())
    if kind == "reserve":
        return table.reserves.get(key, Cubes())
    if kind == "emperor":
        return table.emperor
    if kind == "cylinder":
        return table.cylinders[COLOURS.index(key)]  # type: ignore[arg-type,unused-ignore]
    return table.discs.get(key, frozenset())


def write(table: Table, zone: str, value: Value) -> Table:
    kind, key = _split(zone)
    if kind in ("territory", "castles"):
        index = int(key) - 1
        name = "territories" if kind == "territory" else "castles"
        items = list(getattr(table, name))
        items[index] = value
        return table.replace(**{name: tuple(items)})
    if kind in ("court", "reserve", "discs"):
        name = {"court": "courts", "reserve": "reserves", "discs": "discs"}[kind]
        seats = dict(getattr(table, name))
        seats[key] = value
        return table.replace(**{name: seats})
    if kind == "emperor":
        return table.replace(emperor=value)
    cylinders: list[object] = list(table.cylinders)
    cylinders[COLOURS.index(key)] = value  # type: ignore[arg-type,unused-ignore]
    return table.replace(cylinders=tuple(cylinders))


def _split(zone: str) -> tuple[str, str]:
    words = zone.replace(":", " ").split()  # "territory 7" or "territory:7"
    kind = words[0] if words else ""
    key = words[1] if len(words) > 1 else ""
    if kind == "emperor" and len(words) == 1:
        return kind, ""
    if len(words) != 2:
        raise RefusedError(said("unknown zone %(given)s", given=repr(zone)))
    if kind in ("territory", "castles"):
        if not key.isdigit() or not 1 <= int(key) <= 15:
            raise RefusedError(
                said("%(given)s: territories are numbered 1 to 15", given=repr(zone))
            )
    elif kind in ("court", "reserve", "discs"):
        if key not in SEATS:
            raise RefusedError(
                said("%(given)s: seats are %(typed)s", given=repr(zone), typed=", ".join(SEATS))
            )
    elif kind == "cylinder":
        if key not in COLOURS:
            raise RefusedError(
                said("%(given)s: colours are %(typed)s", given=repr(zone), typed=", ".join(COLOURS))
            )
    else:
        raise RefusedError(said("unknown zone %(given)s", given=repr(zone)))
    return kind, key


def _counts(
    value: Value, names: tuple[str, ...], base: tuple[int, ...], zone: str
) -> tuple[int, ...]:
    if isinstance(value, tuple | list) and len(value) == len(names):
        counts = list(value)
    elif isinstance(value, Mapping):
        counts = list(base)
        for name, n in value.items():
            if name not in names:
                raise RefusedError(
                    said("%(typed)s: unknown colour %(given)s", typed=zone, given=repr(name))
                )
            counts[names.index(name)] = n
    else:
        raise RefusedError(
            said(
                "%(typed)s: expected counts per colour, got %(given)s",
                typed=zone,
                given=repr(value),
            )
        )
    for n in counts:
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise RefusedError(
                said(
                    "%(typed)s: counts are integers >= 0, got %(given)s", typed=zone, given=repr(n)
                )
            )
    return tuple(counts)


def normalise(table: Table, zone: str, value: Value) -> Value:
    """Check a corrected value and give it the zone's type; partial counts are merged
    with the reading (``{"red": 3}`` changes only red)."""
    kind, _ = _split(zone)
    current = read(table, zone)
    if kind in ("territory", "court", "reserve"):
        assert isinstance(current, Cubes)
        return Cubes(_counts(value, COLOURS, tuple(current), zone))
    if kind == "castles":
        assert isinstance(current, tuple)
        c = _counts(value, CASTLE_COLOURS, current, zone)
        return (c[0], c[1], c[2])
    if kind == "emperor":
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 15
        ):
            raise RefusedError(
                said("emperor: expected a territory 1..15, got %(given)s", given=repr(value))
            )
        return value
    if kind == "cylinder":
        if value is not None and value not in CYLINDER_PLACES:
            raise RefusedError(
                said(
                    "%(typed)s: expected a seat or %(pool)s, got %(given)s",
                    typed=zone,
                    pool='"pool"',  # as typed
                    given=repr(value),
                )
            )
        return value
    if not isinstance(value, list | tuple | set | frozenset) or not all(
        isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 5 for n in value
    ):
        raise RefusedError(
            said(
                "%(typed)s: expected disc numbers 1..5, got %(given)s",
                typed=zone,
                given=repr(value),
            )
        )
    return frozenset(value)


NOTHING = frozenset({"none", "nothing", "no", "empty", "0", "-"})


def parse_value(zone: str, text: str) -> Value:
    """A correction's value in a person's words, for `Corrections.set`: ``pink`` or
    ``2 red, 1 blue`` (cubes; ``none`` for none), ``white`` or ``none`` (castles), ``7``
    (the emperor's territory), ``pool`` or a seat (a cylinder), ``1 2 4`` (a tray's
    discs). Counts name every colour, so what is not said is not there. Raises
    `ValueError` with a whole sentence saying what was expected."""
    kind, key = _split(zone)
    where = f"{kind} {key}".strip()
    text = text.strip()
    heard = text.replace(",", " ").lower().split()
    if kind in ("territory", "court", "reserve", "castles"):
        names = CASTLE_COLOURS if kind == "castles" else COLOURS
        counts: dict[str, int] = dict.fromkeys(names, 0)
        if heard and not (len(heard) == 1 and heard[0] in NOTHING):
            count: int | None = None
            for word in heard:
                if word.isdigit():
                    if count is not None:
                        raise RefusedError(
                            said(
                                "%(typed)s: %(given)s has two numbers in a row.",
                                typed=where,
                                given=repr(text),
                            )
                        )
                    count = int(word)
                    continue
                colour = word.removesuffix("s") if word not in names else word
                if colour not in names:
                    raise RefusedError(
                        said(
                            "%(typed)s: %(given)s is not one of %(typed2)s "
                            "(say for example %(example)s).",
                            typed=where,
                            given=repr(word),
                            typed2=", ".join(names),  # the words it understands
                            example=f"{where} = 2 {names[0]}, 1 {names[-1]}",
                        )
                    )
                counts[colour] += 1 if count is None else count
                count = None
            if count is not None:
                raise RefusedError(
                    said(
                        "%(typed)s: %(given)s ends with a number, not a colour.",
                        typed=where,
                        given=repr(text),
                    )
                )
        elif not heard:
            raise RefusedError(
                said("%(typed)s: say what is there, or %(typed2)s.", typed=where, typed2="none")
            )
        return counts
    if kind == "emperor":
        if len(heard) == 1 and heard[0] in NOTHING:
            return None
        if len(heard) != 1 or not heard[0].isdigit() or not 1 <= int(heard[0]) <= 15:
            raise RefusedError(
                said(
                    "emperor: say the territory he stands on, 1 to 15, not %(given)s.",
                    given=repr(text),
                )
            )
        return int(heard[0])
    if kind == "cylinder":
        if len(heard) == 1 and heard[0] in CYLINDER_PLACES:
            return heard[0]
        raise RefusedError(
            said(
                "%(typed)s: say where it stands: %(typed2)s or a seat (%(typed3)s), not %(given)s.",
                typed=where,
                typed2="pool",
                typed3=", ".join(SEATS),
                given=repr(text),
            )
        )
    if len(heard) == 1 and heard[0] in NOTHING:
        return frozenset()
    if not heard or not all(w.isdigit() and 1 <= int(w) <= 5 for w in heard):
        raise RefusedError(
            said(
                "%(typed)s: say the disc numbers in the tray, such as %(example)s, or %(typed2)s.",
                typed=where,
                example="1 2 4",
                typed2="none",
            )
        )
    return frozenset(int(w) for w in heard)


def parse_correction(line: str) -> tuple[str, Value]:
    """``territory 7 = pink`` -> ``("territory 7", {...})``; `ValueError` if not."""
    zone, equals, value = line.partition("=")
    if not equals:
        raise RefusedError(
            said(
                "%(given)s is not an answer: say %(typed)s, %(typed2)s, or %(typed3)s "
                "(for example %(example)s).",
                given=repr(line.strip()),
                typed="y",  # what it understands, as typed
                typed2="n",
                typed3="ZONE = VALUE",
                example="territory 7 = 1 pink",
            )
        )
    zone = " ".join(zone.replace(":", " ").split())
    try:
        _split(zone)
    except ValueError:
        raise RefusedError(
            said(
                "%(given)s is not a zone: %(typed)s or %(typed2)s.",
                given=repr(zone),
                typed="territory N, castles N, court SEAT, reserve SEAT, emperor, cylinder COLOUR",
                typed2="discs SEAT",
            )
        ) from None
    return zone, parse_value(zone, value)


def words(value: Value) -> str:
    if isinstance(value, Cubes):
        return value.describe()
    if isinstance(value, tuple) and len(value) == 3:
        parts = [f"{n} {c}" for c, n in zip(CASTLE_COLOURS, value, strict=True) if n]
        return ", ".join(parts) or "no castle"
    if isinstance(value, frozenset):
        return "discs " + ", ".join(str(n) for n in sorted(value)) if value else "no discs"
    return str(value)


def _floor(correction: Correction, seen: Value) -> Cubes | None:
    """What a corrected tile holds when the camera reads it differently now, or None
    when the correction says nothing about it (not a tile's cubes).

    A correction of a tile is usually a camera's lasting blind spot: a cube on tile art
    of its own dye that it does not see (or sees now and then), a phantom on busy art.
    Played cubes never leave a territory, so what people said is there stays there: the
    tile holds at least the corrected cubes, plus what the camera now reads beyond its
    reading then, less the phantoms people denied. Dropping the correction instead
    would make the referee see the missed cube leave the tile and ask again, or buzz,
    each time the camera loses it or a cube is played there."""
    old, said = correction.seen, correction.value
    if not (isinstance(old, Cubes) and isinstance(said, Cubes) and isinstance(seen, Cubes)):
        return None
    return Cubes(max(v, n - max(0, o - v)) for n, o, v in zip(seen, old, said, strict=True))


def _heap(correction: Correction, seen: Value) -> Cubes | None:
    """What a corrected reserve holds when the camera reads it differently now, or None
    when the correction said no cube lies unseen there.

    A cube people said lies in the heap where the camera does not see it (a pink among
    reds under a warm lamp) stays unseen when the player takes other cubes from the
    heap: it is still there, beside what the camera reads now. Dropping the correction
    instead counted every unseen cube as taken the moment another one was (4-player hard
    camera game 900405: "took 4 cubes"). One of its colour that the camera now reads
    more of is that cube seen at last."""
    old, said_ = correction.seen, correction.value
    if not (isinstance(old, Cubes) and isinstance(said_, Cubes) and isinstance(seen, Cubes)):
        return None
    unseen = gained(gained(said_ - old) - gained(seen - old))
    return seen + unseen if unseen.total() else None


class Corrections:
    """The corrections in force, by zone."""

    def __init__(self) -> None:
        self._by_zone: dict[str, Correction] = {}
        # the readings of each zone people said were wrong, and at how many moves: kept
        # when a stale correction is dropped, so flickering back is still covered
        # (and, of a tile, the cubes the game had there and what people said: `set`)
        self._denied: dict[str, tuple[int, tuple[Cubes, Value] | None, tuple[Value, ...]]] = {}

    def __len__(self) -> int:
        return len(self._by_zone)

    def set(
        self, zone: str, table: Table, value: Value, moves: int = 0,
        tile: Callable[[int], Cubes] | None = None,
    ) -> None:
        """Correct ``zone`` of the raw camera ``table`` to ``value``; ``moves``: how many
        moves the game had then (see `forget_after`); ``tile``: the cubes the game has on
        a territory, noted for a tile's correction (see `follow`)."""
        fixed = normalise(table, zone, value)
        kind, key = _split(zone)
        held = tile(int(key)) if tile is not None and kind == "territory" else None
        zone = f"{kind} {key}".strip()
        seen = read(table, zone)
        tile_then = None if held is None else (held, fixed)
        then, was, earlier = self._denied.get(zone, (moves, tile_then, ()))
        # What people denied of a tile stays denied while the game has played nothing
        # there and people say it holds what they said before: a phantom of busy art
        # flickers between counts all game (4-player hard whole game 900486: territory
        # 1, holding one yellow, read with none to three green phantoms and one or two
        # yellow), and forgotten at every move elsewhere it was asked about again after
        # nearly every step, 24 times in 31 turns. Not once people say it holds more:
        # a reading denied before then would stand for what they say now (4-player mild
        # whole game 900489: Bob's yellow played out of turn onto territory 3, said to
        # be there, and taken back, leaving the tile read as a phantom denied before).
        kept = then == moves or (tile_then is not None and was == tile_then)
        denied = tuple(v for v in earlier if v != seen) if kept else ()
        self._denied[zone] = (then if kept else moves, tile_then, (*denied, seen))
        self._by_zone[zone] = Correction(zone, seen, fixed, moves, denied, held)

    def follow(
        self, tile: Callable[[int], Cubes], moves: int, table: Table | None, due: bool = False
    ) -> None:
        """Let each tile's correction follow the cubes the game (now at ``moves`` moves,
        ``tile(n)`` on territory n) has had played there since it was made, where the raw
        camera ``table`` shows them beside all it read when people corrected it; and drop what
        people said of the emperor before moves since, once he is ``due`` to move again:
        it was said of him before this move, and kept it would hold him there while the
        camera, unsure of him, reads him where it read him then (whole game 900415 mild:
        "emperor = 4", he moved on to 6, still read on 13, and the refill buzzed "must
        move the emperor before refilling").

        What people said of a tile was said of the cubes on it then: the camera's
        reading then and what really lay there. A cube played there since is on the tile
        in both, or the correction keeps covering the old reading as if nothing had come:
        a phantom people denied beside a cube and gone once another cube is played there
        leaves the camera reading exactly what it read when they said no, and the played
        cube would be taken off the tile again (three-round camera game 900315 hard: "1
        yellow left territory 4"). Cubes the game holds beyond both what people said and
        what it held then were played since (cubes a person counted before their move
        was played are in what they said already).

        Only a cube the camera shows beside its old reading is followed: a cube the game
        placed on the tile because the camera read something else there (another phantom
        of the busy art) may be the camera's mistake, and followed it would stay on the
        tile when the camera loses it, and the move could never be judged again
        (three-round camera game 900309 hard: Anna's green taken for a green phantom on
        territory 10). Such cubes are only noted as played, not followed."""
        for zone, correction in list(self._by_zone.items()):
            value, held = correction.value, correction.held
            if zone == "emperor":
                if due and correction.moves < moves:
                    del self._by_zone[zone]
                continue
            if not zone.startswith("territory") or not isinstance(value, Cubes):
                continue
            before = value if held is None else Cubes(map(max, value, held))
            played = gained(tile(int(zone.split()[1])) - before)
            if not played.total():
                continue
            now = None if table is None else read(table, zone)
            seen = _plus(correction.seen, played)
            shown = (isinstance(now, Cubes) and isinstance(seen, Cubes)
                     and not lost(now - seen).total())
            followed = (*correction.followed, (moves, played, shown))
            if shown:
                self._by_zone[zone] = replace(correction.shifted(played), followed=followed)
            else:
                self._by_zone[zone] = replace(correction, held=gained(before + played),
                                              followed=followed)

    def forget_after(self, moves: int) -> list[str]:
        """Drop the corrections made after the game's first ``moves`` moves; the zones.

        A correction was said of the table as it stood after the moves of its time (a
        castle Confirm put where a move built it, a reserve counted after a refill).
        When Undo takes such a move back, the correction is about a game that no longer
        is: kept, it would hold a zone against the camera for as long as nobody touches
        it, and the referee could never come back to the table as it is."""
        gone = [zone for zone, c in self._by_zone.items() if c.moves > moves]
        for zone in gone:
            del self._by_zone[zone]
        for zone, correction in list(self._by_zone.items()):
            # cubes followed since go back with their moves (`follow` plays them again)
            back = [(c, shown) for at, c, shown in correction.followed if at > moves]
            for cubes, shown in reversed(back):
                undone = Cubes() - cubes
                if shown:
                    correction = correction.shifted(undone)
                elif correction.held is not None:
                    correction = replace(correction, held=gained(correction.held + undone))
            if back:
                kept = tuple(f for f in correction.followed if f[0] <= moves)
                self._by_zone[zone] = replace(correction, followed=kept)
        for zone, (then, _, _) in list(self._denied.items()):
            if then > moves:
                del self._denied[zone]
        return gone

    def drop(self, zone: str) -> bool:
        """Forget the correction of ``zone`` (people now say the camera is right)."""
        return self._by_zone.pop(" ".join(_split(zone)).strip(), None) is not None

    def masking(self, table: Table) -> list[str]:
        """The zones whose correction now hides what the raw camera ``table`` reads
        there (the zone's reading differs from what people said)."""
        believed = self.apply(table)
        return [zone for zone in self._by_zone if read(believed, zone) != read(table, zone)]

    def made_at(self, zone: str) -> int | None:
        """How many moves the game had when ``zone`` was corrected (None: it is not)."""
        correction = self._by_zone.get(" ".join(_split(zone)).strip())
        return None if correction is None else correction.moves

    def holds(self, zone: str, table: Table | None = None) -> bool:
        """Whether a correction of ``zone`` is in force (people said what is there); with
        the raw ``table``, only while the camera reads the zone as when it was made (a
        tile's cubes played since are the camera's word, not people's)."""
        correction = self._by_zone.get(" ".join(_split(zone)).strip())
        if correction is None:
            return False
        return table is None or correction.covers(read(table, correction.zone))

    def apply(self, table: Table) -> Table:
        """The raw ``table`` with the corrections still in force; stale ones are dropped,
        but a tile's cubes stay as people said, whatever the camera reads (`_floor`), and
        a heap's unseen cubes stay unseen in it (`_heap`)."""
        if not self._by_zone:
            return table
        for zone, correction in list(self._by_zone.items()):
            seen = read(table, zone)
            value = correction.value
            if not correction.covers(seen):
                floor = (_floor(correction, seen) if zone.startswith("territory") else
                         _heap(correction, seen) if zone.startswith("reserve") else None)
                if floor is None:
                    del self._by_zone[zone]
                    continue
                value = floor
                if not correction.varied:
                    self._by_zone[zone] = replace(correction, varied=True)
            table = write(table, zone, value)
        return table

    def varied(self, zone: str) -> bool:
        """Whether the camera has read ``zone`` otherwise since it was corrected: until
        then a reading of it is the one people said was wrong, whatever else happens on
        the table."""
        correction = self._by_zone.get(" ".join(_split(zone)).strip())
        return correction is not None and correction.varied

    def overlay(self, table: Table) -> Table:
        """``table`` (an earlier reading) with the corrections whose zone it reads as the
        camera did when they were made; unlike `apply` it drops nothing. The set-up is
        judged from the last table with every tray full, settled before people answered
        about it: what they said must hold there too, or a corrected tile would still
        spoil the set-up."""
        for zone, correction in self._by_zone.items():
            if correction.covers(read(table, zone)):
                table = write(table, zone, correction.value)
        return table

    def describe(self, zone: str, before: Table, after: Table) -> str:
        return f"{words(read(after, zone))} (the camera saw {words(read(before, zone))})"
