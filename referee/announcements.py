"""What the referee says, once, in every language of the table.

Every event kind — the engine's (`referee.events`) and the live table's
(`referee.table.events`: ``question``, ``illegal``, ``cylinder-pending`` …) — has one
message here: a gettext msgid with named fields, so each language translates a whole
sentence in its own word order, and the game's words (colours, castles, territory,
region) are each language's rulebook's (``docs/rules.md``, "Words"). `render` is the
one function that turns an event into words; the display, the voice, the web page,
``carolus follow``, ``carolus play`` and the game log all call it, and no other module
builds an announcement. The boxes give it the typed event they pass on; where an event
is only JSON (the log's stored events, the page's stream, the view's chores), its
JSON entry `render_json` says the same sentence.

The words are translated by a gettext-like object passed in (`Translator`), so this
package stays pure Python: the catalogs are one set of ``.po`` files shared by every
box, ``web/translations/<lang>/LC_MESSAGES/messages.po``, read by `web.i18n.translations`
(Babel only, no Flask). Without one, `ENGLISH` says the msgids themselves. How
translators add a string: ``docs/languages.md``.

>>> from referee.events import CastleTaken
>>> say(CastleTaken(3, 2, (5, 6, 7), "white", "black"))
'White takes over region 5+6+7 from black.'
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from referee.events import (
    CubesPlayed,
    DiscChosen,
    EmperorMoved,
    Event,
    Refilled,
)
from referee.moves import ChooseDisc, Move, MoveEmperor, PlayCubes
from referee.pieces import CASTLE_COLOURS, SEATS
from referee.pieces import COLOURS as CUBE_COLOURS

if TYPE_CHECKING:
    from referee.game import Game
    from referee.table.events import Illegal, TableEvent


class Translator(Protocol):
    """What `render` needs of a catalog: `gettext.NullTranslations` and
    `babel.support.Translations` both are one (Babel's ``pgettext`` may return a lazy
    string, hence ``object``: it is put through ``str``)."""

    def gettext(self, message: str, /) -> str: ...
    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...
    def pgettext(self, context: str, message: str, /) -> object: ...
    def npgettext(self, context: str, singular: str, plural: str, n: int, /) -> object: ...


#: The msgids themselves: English without reading a catalog (the English catalog only
#: adds the short titles of the illegal codes).
ENGLISH: Translator = gettext.NullTranslations()

Words = Mapping[str, Any]


def N_(msgid: str) -> str:
    """Mark a msgid for the catalogs (``pybabel extract -k N_``) where it is chosen;
    it is translated where it is used."""
    return msgid


def mark(context: str, word: str) -> tuple[str, str]:
    """Mark a word for the catalogs (``pybabel extract -k mark:1c,2``); it is translated
    where it is used, with ``pgettext(context, word)``."""
    return context, word


#: The game's words that are looked up by value, so extraction cannot see them.
WORDS = (
    mark("colour", "red"),
    mark("colour", "green"),
    mark("colour", "yellow"),
    mark("colour", "blue"),
    mark("colour", "pink"),
    mark("castle", "white"),
    mark("castle", "black"),
    mark("castle", "grey"),
    mark("seat", "south"),
    mark("seat", "west"),
    mark("seat", "north"),
    mark("seat", "east"),
    # the referee's codes for what is not allowed (record.md, table.md), as short titles
    mark("illegal", "bad-setup"),
    mark("illegal", "after-end"),
    mark("illegal", "disc-order"),
    mark("illegal", "disc-unavailable"),
    mark("illegal", "disc-taken"),
    mark("illegal", "turn-order"),
    mark("illegal", "unknown-territory"),
    mark("illegal", "unknown-colour"),
    mark("illegal", "cube-count"),
    mark("illegal", "not-in-reserve"),
    mark("illegal", "emperor-steps"),
    mark("illegal", "refill-count"),
    mark("illegal", "bad-return"),
    mark("illegal", "supply-empty"),
    mark("illegal", "wrong-court"),
    mark("illegal", "cube-moved"),
    mark("illegal", "castle-unearned"),
    mark("illegal", "castle-missing"),
    mark("illegal", "cylinder-wrong"),
)


# ---------------------------------------------------------------- the game's words


def colour(tr: Translator, name: str) -> str:
    """A cube or cylinder colour in the reader's language."""
    return str(tr.pgettext("colour", name)) if name in CUBE_COLOURS else name


def side(tr: Translator, name: str) -> str:
    """A castle colour (a side) in the reader's language; player names stay as they are."""
    return str(tr.pgettext("castle", name)) if name in CASTLE_COLOURS else name


def seat(tr: Translator, name: str) -> str:
    """A seat at the table (south, west …) in the reader's language."""
    return str(tr.pgettext("seat", name)) if name in SEATS else name


def where(tr: Translator, territories: Sequence[int]) -> str:
    """``territory 6`` or ``region 4+5+6``."""
    if len(territories) == 1:
        return tr.gettext("territory %(territory)s") % {"territory": territories[0]}
    return tr.gettext("region %(territories)s") % {
        "territories": "+".join(str(t) for t in territories)
    }


def cubes(tr: Translator, colours: Sequence[str]) -> str:
    """``2 red, 1 pink`` (in play order of first appearance), ``nothing`` when empty."""
    counts: dict[str, int] = {}
    for c in colours:
        counts[c] = counts.get(c, 0) + 1
    parts = [
        tr.gettext("%(count)s %(colour)s") % {"count": n, "colour": colour(tr, c)}
        for c, n in counts.items()
    ]
    return ", ".join(parts) or tr.gettext("nothing")


def zone_name(tr: Translator, zone: str) -> str:
    """A zone id of the snapshot ("territory:7", "court:north") in the table's words:
    the same msgids the page's ``Board.zoneName`` uses."""
    kind, _, key = zone.partition(":")
    if kind == "territory":
        return tr.gettext("territory %(territory)s") % {"territory": key}
    if kind in ("court", "reserve") and key in SEATS:
        if kind == "court":
            return tr.gettext("%(seat)s court") % {"seat": seat(tr, key)}
        return tr.gettext("%(seat)s reserve") % {"seat": seat(tr, key)}
    return zone


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def _placed(tr: Translator, event: Words) -> str:
    """``1 red to his court; 2 blue on territory 3``: where a turn's cubes went."""
    parts = []
    if event.get("court"):
        parts.append(tr.gettext("%(cubes)s to his court") % {"cubes": cubes(tr, event["court"])})
    for t, placed in dict(event.get("territories") or {}).items():
        parts.append(
            tr.gettext("%(cubes)s on territory %(territory)s")
            % {"cubes": cubes(tr, placed), "territory": t}
        )
    return "; ".join(parts)


# ---------------------------------------------------------------- the engine's events


def _disc_chosen(tr: Translator, e: Words) -> str:
    return tr.gettext("%(player)s lays disc %(number)s.") % e


def _turn_started(tr: Translator, e: Words) -> str:
    return tr.gettext("Round %(round)s: %(player)s's turn (disc %(disc)s).") % e


def _cubes_played(tr: Translator, e: Words) -> str:
    played = _placed(tr, e) or tr.gettext("no cubes")
    return tr.gettext("%(player)s plays %(cubes)s.") % {"player": e["player"], "cubes": played}


def _control_gained(tr: Translator, e: Words) -> str:
    words = {"player": e["player"], "colour": colour(tr, e["colour"])}
    if e.get("from"):
        return tr.gettext(
            "%(player)s gains control of %(colour)s from %(previous)s: "
            "move the %(colour)s cylinder to %(player)s's court."
        ) % {**words, "previous": e["from"]}
    return (
        tr.gettext(
            "%(player)s gains control of %(colour)s: "
            "move the %(colour)s cylinder to %(player)s's court."
        )
        % words
    )


def _emperor_moved(tr: Translator, e: Words) -> str:
    steps = int(e["steps"])
    return tr.ngettext(
        "The emperor moves %(steps)s step to %(where)s.",
        "The emperor moves %(steps)s steps to %(where)s.",
        steps,
    ) % {"steps": steps, "where": where(tr, [e["territory"]])}


def _castle_built(tr: Translator, e: Words) -> str:
    return _upper_first(
        tr.gettext("%(side)s builds a castle on %(where)s.")
        % {"side": side(tr, e["side"]), "where": where(tr, e["territories"])}
    )


def _castle_taken(tr: Translator, e: Words) -> str:
    return _upper_first(
        tr.gettext("%(side)s takes over %(where)s from %(previous)s.")
        % {
            "side": side(tr, e["side"]),
            "where": where(tr, e["territories"]),
            "previous": side(tr, e["from"]),
        }
    )


def _merged(tr: Translator, e: Words) -> str:
    return _upper_first(
        tr.gettext("%(where)s is now one %(side)s region.")
        % {"where": where(tr, e["territories"]), "side": side(tr, e["side"])}
    )


def _returned(tr: Translator, e: Words) -> str:
    return tr.gettext(
        "The supply ran short of %(colour)s: every player returns %(k)s %(colour)s from his court."
    ) % {"colour": colour(tr, e["colour"]), "k": e["k"]}


def _refilled(tr: Translator, e: Words) -> str:
    return tr.gettext("%(player)s refills %(cubes)s.") % {
        "player": e["player"],
        "cubes": cubes(tr, e["colours"]),
    }


def _game_over(tr: Translator, e: Words) -> str:
    how = (
        tr.gettext("by castles")
        if e["reason"] == "castles"
        else tr.gettext("with fewer than 4 territories left")
    )
    if e["winner"] == "draw":
        return tr.gettext("Game over %(how)s: a draw.") % {"how": how}
    return tr.gettext("Game over %(how)s: %(winner)s wins.") % {
        "how": how,
        "winner": side(tr, str(e["winner"])),
    }


# ---------------------------------------------------------------- the appliance's events


def _game_started(tr: Translator, e: Words) -> str:
    return tr.gettext("A new game starts.")


def _game_ended(tr: Translator, e: Words) -> str:
    return tr.gettext("The game was ended.")


def _training(tr: Translator, e: Words) -> str:
    if e.get("on"):
        return tr.gettext("Training mode on: ask the advisor for threats and hints.")
    return tr.gettext("Training mode off.")


# ---------------------------------------------------------------- the live table's events


_NOT_ALLOWED = N_("Not allowed (%(code)s): %(message)s")


def speaks_english(tr: Translator) -> bool:
    """Whether ``tr`` says the msgids as they are: there, and only there, the referee's
    English words that came without fields may be shown."""
    return tr.gettext(_NOT_ALLOWED) == _NOT_ALLOWED


def illegal_detail(illegal: Illegal | Words, tr: Translator = ENGLISH) -> str:
    """What an illegal act was, without the rule's title: said from the table's msgid
    and fields (``say``, ``words``) where it gave them; else the referee's English words,
    and in another language the rule's short title alone rather than English.
    ``illegal``: the referee's `Illegal` event, or the act as JSON (the view model's
    ``table.illegal``, a logged event)."""
    event: Words = illegal if isinstance(illegal, Mapping) else illegal.to_json()
    if event.get("say"):
        return _from_fields(tr, event)
    if not speaks_english(tr):
        return _upper_first(str(tr.pgettext("illegal", str(event.get("code", "?")))))
    return str(event.get("message") or event.get("code") or "")


def _illegal(tr: Translator, e: Words) -> str:
    """What is not allowed: the rule's short title, then what was done."""
    title = str(tr.pgettext("illegal", str(e["code"])))
    if e.get("say") or speaks_english(tr):
        return tr.gettext(_NOT_ALLOWED) % {"code": title, "message": illegal_detail(e, tr)}
    return tr.gettext("Not allowed: %(code)s.") % {"code": title}


# ---------------------------------------------------------------- the table referee's messages


def and_list(tr: Translator, items: Sequence[object]) -> str:
    """``4, 5 and 6``."""
    words = [str(i) for i in items]
    if len(words) <= 1:
        return "".join(words)
    return tr.gettext("%(items)s and %(last)s") % {
        "items": ", ".join(words[:-1]),
        "last": words[-1],
    }


def _territories(tr: Translator, numbers: Sequence[int]) -> str:
    """``territory 6`` or ``territories 4, 5 and 6`` (tiles, not a region)."""
    if len(numbers) == 1:
        return tr.gettext("territory %(territory)s") % {"territory": numbers[0]}
    return tr.gettext("territories %(territories)s") % {"territories": and_list(tr, numbers)}


def _place(tr: Translator, place: object) -> str:
    """Where a cylinder stands: ``the pool``, ``Anna's court`` (a player's name), or
    ``the north court`` (a seat nobody sits at)."""
    if place == "pool":
        return tr.gettext("the pool")
    if place in SEATS:
        return tr.gettext("the %(seat)s court") % {"seat": seat(tr, str(place))}
    return tr.gettext("%(player)s's court") % {"player": place}


def _reserve(tr: Translator, holder: object) -> str:
    """``Anna's reserve`` (a player's name) or ``the north reserve`` (a seat)."""
    if holder in SEATS:
        return tr.gettext("the %(seat)s reserve") % {"seat": seat(tr, str(holder))}
    return tr.gettext("%(player)s's reserve") % {"player": holder}


def _tray(tr: Translator, holder: object) -> str:
    """``Anna's tray`` (a player's name) or ``the north tray`` (a seat)."""
    if holder in SEATS:
        return tr.gettext("the %(seat)s tray") % {"seat": seat(tr, str(holder))}
    return tr.gettext("%(player)s's tray") % {"player": holder}


def _castles(tr: Translator, sides: Sequence[str]) -> str:
    """``1 white, 1 grey``: castles by colour (``no castle`` when there is none)."""
    counts: dict[str, int] = {}
    for c in sides:
        counts[c] = counts.get(c, 0) + 1
    return ", ".join(
        tr.gettext("%(count)s %(colour)s") % {"count": n, "colour": side(tr, c)}
        for c, n in counts.items()
    ) or tr.gettext("no castle")


def _pieces(tr: Translator, colours: Sequence[str]) -> str:
    """``2 red, 1 pink``, or ``no cubes`` when empty (what a zone holds)."""
    return cubes(tr, colours) if colours else tr.gettext("no cubes")


def _colour_list(tr: Translator, colours: Sequence[str]) -> str:
    """``red, red and blue`` (colours one by one), ``nothing`` when empty."""
    return and_list(tr, [colour(tr, str(c)) for c in colours]) or tr.gettext("nothing")


def _part(tr: Translator, part: object) -> str:
    """A zone as people correct it (``territory 7``, ``castles 7``, ``court south``,
    ``emperor``, ``cylinder red``, ``discs south``) in the reader's words."""
    kind, _, key = " ".join(str(part).replace(":", " ").split()).partition(" ")
    if kind == "castles":
        return tr.gettext("the castles on territory %(territory)s") % {"territory": key}
    if kind == "emperor":
        return tr.gettext("the emperor")
    if kind == "cylinder":
        return tr.gettext("the %(colour)s cylinder") % {"colour": colour(tr, key)}
    if kind == "discs":
        return _tray(tr, key)
    return zone_name(tr, f"{kind}:{key}")


def _zones(tr: Translator, zones: Sequence[str]) -> str:
    """``territory 4, the south reserve and the emperor``: vision zones in words."""
    return and_list(tr, [_part(tr, z) for z in zones])


def clause(text: str) -> dict[str, object] | str:
    """A message (`Said`) as a field of another message (``clause``, ``clauses``,
    ``items``): its msgid and fields as JSON, said again in every language; any other
    text goes in as it is."""
    if isinstance(text, Said):
        return {"say": text.msgid, "words": text.words}
    return str(text)


def _ring_unit(tr: Translator, unit: Any) -> str:
    """``*4+5[white]:R1G2``: a unit of the ring as `carolus play` shows it (``*`` the
    emperor, its castles' side, its cubes by colour letter, ``-`` for none); ``unit`` is
    ``[emperor, territories, side or None, counts in colour order]``."""
    emperor, territories, owner, counts = unit
    letters = "".join(
        f"{_letter(tr, c)}{n}" for c, n in zip(CUBE_COLOURS, counts, strict=True) if n
    )
    mark = f"[{side(tr, owner)}]" if owner else ""
    name = "+".join(str(t) for t in territories)
    return f"{'*' if emperor else ''}{name}{mark}:{letters or '-'}"


def _counted(tr: Translator, strength: Any) -> str:
    """``2 red + 1 pink + 1 castle``: what a side's strength is made of (``strength``:
    ``{"cubes": colours, "castles": n}``)."""
    colours = list(strength["cubes"])
    parts = [
        tr.gettext("%(count)s %(colour)s") % {"count": colours.count(c), "colour": colour(tr, c)}
        for c in CUBE_COLOURS
        if c in colours
    ]
    castles = int(strength["castles"])
    if castles == 1:
        parts.append(tr.gettext("1 castle"))
    elif castles:
        parts.append(tr.gettext("%(count)s castles") % {"count": castles})
    return " + ".join(parts)


def _letter(tr: Translator, name: str) -> str:
    """A cube colour's letter on the page (context ``letter``); the English is its
    initial."""
    letter = str(tr.pgettext("letter", name))
    return name[0].upper() if letter == name else letter


def _clause(tr: Translator, value: object) -> str:
    """A message given as a field of another (`clause`), in the reader's language."""
    if isinstance(value, Mapping) and value.get("say"):
        return _from_fields(tr, value)
    return str(value)


#: Named fields of a message that are game words, translated before they are put in:
#: a field is known by its name (``cubes``, ``cubes2`` …: a list of cube colours).
_FIELD_WORDS: dict[str, Callable[[Translator, Any], str]] = {
    "colour": lambda tr, v: colour(tr, str(v)),
    "side": lambda tr, v: side(tr, str(v)),
    "old": lambda tr, v: side(tr, str(v)),
    "seat": lambda tr, v: seat(tr, str(v)),
    "seats": lambda tr, v: ", ".join(seat(tr, str(s)) for s in v),
    "sides": lambda tr, v: ", ".join(side(tr, str(s)) for s in v),
    "cubes": lambda tr, v: cubes(tr, list(v)),
    "discs": lambda tr, v: and_list(tr, list(v)),
    "territories": lambda tr, v: _territories(tr, list(v)),
    "where": lambda tr, v: where(tr, list(v)),
    "zone": lambda tr, v: zone_name(tr, str(v)),
    "place": _place,
    "reserve": _reserve,
    "tray": _tray,
    "castles": lambda tr, v: _castles(tr, list(v)),
    "numbers": lambda tr, v: ", ".join(str(n) for n in v),
    "pieces": lambda tr, v: _pieces(tr, list(v)),
    "colours": lambda tr, v: ", ".join(colour(tr, str(c)) for c in v),
    "refilled": lambda tr, v: _colour_list(tr, list(v)),
    "part": _part,
    "zones": lambda tr, v: _zones(tr, list(v)),
    "clause": _clause,
    # lists of messages: whole clauses, one after the other
    "clauses": lambda tr, v: "; ".join(_clause(tr, c) for c in v),
    "items": lambda tr, v: ", ".join(_clause(tr, c) for c in v),
    "counted": lambda tr, v: _counted(tr, v),
    "units": lambda tr, v: " ".join(_ring_unit(tr, u) for u in v),
}


def _said(tr: Translator, words: Words) -> dict[str, Any]:
    """A message's fields in the reader's language: game words translated by their name,
    numbers and player names as they are."""
    out = {}
    for key, value in words.items():
        kind = key.rstrip("0123456789")
        out[key] = _FIELD_WORDS[kind](tr, value) if kind in _FIELD_WORDS else value
    return out


class Said(str):
    """A message of the referee in English that keeps its msgid and fields (JSON
    values), so that `render` says it again in any language: `referee.table.events`
    puts them in the event as ``say`` and ``words``. Being a ``str``, it reads and
    compares as the English sentence it is."""

    msgid: str
    words: dict[str, object]


def said(msgid: str, /, **words: object) -> Said:
    """The message ``msgid`` (marked for the catalogs: ``-k said``) with its fields.

    >>> said("%(cubes)s left territory %(territory)s", cubes=["red", "red"], territory=7)
    '2 red left territory 7'
    """
    text = Said(msgid % _said(ENGLISH, words))
    text.msgid, text.words = msgid, dict(words)
    return text


def translated(text: str, tr: Translator = ENGLISH) -> str:
    """A message of the referee in ``tr``'s language: a `Said` (a rule broken, a table's
    message) is said again from its msgid and fields; other text stays as it is."""
    if isinstance(text, Said):
        return _from_fields(tr, {"say": text.msgid, "words": text.words})
    return str(text)


def _from_fields(tr: Translator, event: Words) -> str:
    """A message the table gave as msgid and fields (`Said`), in ``tr``'s language."""
    return tr.gettext(str(event["say"])) % _said(tr, event.get("words") or {})


def _own_words(tr: Translator, msgid: str, event: Words) -> str | None:
    """The msgid in the reader's language, or ``None`` where the catalog leaves it as it
    is (English): there the table referee's own, richer sentence is said."""
    text: str = tr.gettext(msgid)
    return None if text == msgid and event.get("message") else text


#: The table's events that are one fixed sentence.
_PLAIN = {
    "resolved": N_("The table is right again."),
    "undone": N_("The last step was undone."),
    "confirmed": N_("Confirmed: the pending action is done."),
    "castles-placed": N_("The castles stand as the rules say."),
    "setup": N_("The set-up is accepted: the game begins."),
    # the set-up step before a game (firmware.bare): the camera learns the bare table
    "bare-ask": N_("Lay out the tiles and the court cards, nothing else, then press Confirm."),
    "bare-table": N_("Now set up: the emperor, one cube on each tile, the reserves."),
    "resumed": N_("The game goes on where it stopped."),
}

#: What the set-up step before a game asks, by its state (`firmware.bare.BareStep`).
BARE_STEPS = {"ask": _PLAIN["bare-ask"], "learnt": _PLAIN["bare-table"]}

#: Why a frame could not be the bare table, by `firmware.bare.PROBLEMS` code (the same
#: English words).
BARE_PROBLEMS = {
    "no-frame": N_(
        "No camera picture yet: wait until the camera shows the mat, then press Confirm again."
    ),
    "camera-lost": N_("The camera is lost: the bare table cannot be learnt until it is back."),
    "moving": N_(
        "Something is over the mat or moving: take your hands away and press Confirm again."
    ),
    "no-mat": N_(
        "The mat is not found in the camera picture: make sure the whole mat and its corner "
        "markers are in view and lit, then press Confirm again."
    ),
    "layout": N_(
        "The camera picture does not fit the mat's layout: check the camera settings, then "
        "press Confirm again."
    ),
}


def _table_words(tr: Translator, e: Words) -> tuple[str, Words] | None:
    """The msgid and fields of a live table event with fields, or None for other kinds."""
    kind = e.get("kind")
    if kind == "question":
        return _question(tr, e)
    if kind == "answered":
        if e.get("answer") == "yes":
            return N_("Answered yes: the camera is right."), {}
        return N_("Answered no: the camera is wrong there."), {}
    if kind == "corrected":
        return N_("The referee was corrected: %(zone)s."), {
            "zone": zone_name(tr, str(e.get("zone", "?")))
        }
    if kind == "cubes-placed":
        return N_("%(player)s has placed %(count)s of %(of)s cubes: %(cubes)s."), {
            "player": e["player"],
            "count": e.get("count", "?"),
            "of": e.get("of", "?"),
            "cubes": _placed(tr, e),
        }
    if kind == "castle-pending":
        return N_("Put a %(side)s castle on %(where)s."), {
            "side": side(tr, e["side"]),
            "where": where(tr, e["territories"]),
        }
    if kind in ("cylinder-pending", "cylinder-moved"):
        msgid = {
            ("cylinder-pending", True): N_("Put the %(colour)s cylinder back in the pool."),
            ("cylinder-pending", False): N_("Move the %(colour)s cylinder to the %(seat)s court."),
            ("cylinder-moved", True): N_("The %(colour)s cylinder is back in the pool."),
            ("cylinder-moved", False): N_("The %(colour)s cylinder is on the %(seat)s court."),
        }[(str(kind), e.get("to") == "pool")]
        return msgid, {"colour": colour(tr, e["colour"]), "seat": seat(tr, str(e.get("to")))}
    return None


def _question(tr: Translator, event: Words) -> tuple[str, dict[str, Any]]:
    """The referee's question about one zone of the table ("1 yellow on territory 7?"),
    as a msgid and its words, from the event's ``zone``, ``part`` and ``counts``: for a
    question that came without its own msgid and fields (``say``; a game logged before
    `referee.table.doubts.question` gave them), naming seats rather than players."""
    kind, _, key = str(event["zone"]).partition(":")
    counts: Mapping[str, Any] = event.get("counts") or {}
    cubes_read = cubes(tr, [c for c in CUBE_COLOURS for _ in range(int(counts.get(c, 0)))])
    if kind == "territory" and event.get("part") == "castles":
        castles = ", ".join(
            tr.gettext("%(count)s %(colour)s") % {"count": counts[c], "colour": side(tr, c)}
            for c in CASTLE_COLOURS
            if counts.get(c)
        )
        return N_("Castles on territory %(territory)s: %(castles)s?"), {
            "territory": key,
            "castles": castles or tr.gettext("none"),
        }
    if kind == "territory":
        return N_("%(cubes)s on territory %(territory)s?"), {"cubes": cubes_read, "territory": key}
    if kind == "court":
        return N_("%(cubes)s in the %(seat)s court?"), {"cubes": cubes_read, "seat": seat(tr, key)}
    if kind == "reserve":
        return N_("%(cubes)s in the %(seat)s reserve?"), {
            "cubes": cubes_read,
            "seat": seat(tr, key),
        }
    if kind == "emperor":
        if counts.get("territory") is None:
            return N_("No emperor on the ring?"), {}
        return N_("The emperor on territory %(territory)s?"), {"territory": counts["territory"]}
    if kind == "cylinder":
        place = counts.get("place")
        words = {"colour": colour(tr, key), "seat": seat(tr, str(place))}
        if place is None:
            return N_("No %(colour)s cylinder anywhere?"), words
        if place == "pool":
            return N_("The %(colour)s cylinder in the pool?"), words
        return N_("The %(colour)s cylinder on the %(seat)s court?"), words
    discs = ", ".join(str(n) for n in counts.get("discs") or []) or tr.gettext("none")
    return N_("Discs in the %(seat)s tray: %(discs)s?"), {"seat": seat(tr, key), "discs": discs}


def _table_sentence(tr: Translator, e: Words) -> str | None:
    """The live table's own events: translated from their fields; in English their
    ``message`` as the table referee words it."""
    kind = e.get("kind")
    if e.get("say"):  # the table's message with its fields (a question …)
        return _upper_first(_from_fields(tr, e))
    if kind == "bare-refused":
        msgid = BARE_PROBLEMS.get(str(e.get("problem")), "")
        found = _own_words(tr, msgid, e) if msgid else None
        return found if found is not None else str(e.get("message") or kind)
    if kind in _PLAIN:
        found = _own_words(tr, _PLAIN[str(kind)], e)
        return found if found is not None else str(e["message"])
    words = _table_words(tr, e)
    if words is None:
        return None
    found = _own_words(tr, words[0], e)
    return str(e["message"]) if found is None else _upper_first(found % words[1])


#: The one sentence of each event kind of the rules.
_SENTENCES: dict[str, Callable[[Translator, Words], str]] = {
    "disc-chosen": _disc_chosen,
    "turn-started": _turn_started,
    "cubes-played": _cubes_played,
    "control-gained": _control_gained,
    "emperor-moved": _emperor_moved,
    "castle-built": _castle_built,
    "castle-taken": _castle_taken,
    "merged": _merged,
    "returned": _returned,
    "refilled": _refilled,
    "game-over": _game_over,
    "illegal": _illegal,
    "game-started": _game_started,
    "game-ended": _game_ended,
    "training": _training,
}

#: Events nobody needs to hear: the page's state and a gap in the stream.
SILENT = frozenset({"state", "gap"})


def render(event: Event | TableEvent, tr: Translator = ENGLISH) -> str | None:
    """One sentence for an event as the boxes pass it (an engine `Event`, or a
    `referee.table.events.TableEvent` of the table or of a box above it) in ``tr``'s
    language; ``None`` for events nobody needs to hear (``state``, ``gap``).

    The sentence is built from the event's JSON (`render_json`), so an event said live
    and the same event read back from the log are said alike."""
    return render_json(event.to_json(), tr)


def render_json(data: Words, tr: Translator = ENGLISH) -> str | None:
    """`render` for an event that is only JSON where it is said: the game log's stored
    events, the SSE stream (`web.announce.sentence`), the view model's chores; and the
    events of another version's log, whose fields a class would not take."""
    kind = data.get("kind")
    if kind in SILENT or kind is None:
        return None
    try:
        build = _SENTENCES.get(str(kind))
        if build is not None:
            return build(tr, data)
        table = _table_sentence(tr, data)
        if table is not None:
            return table
    except (KeyError, TypeError, ValueError):  # fields missing: the event's own words
        return str(data.get("message") or kind)
    message = data.get("message")  # an event this module has no words for says its own
    return str(message) if message else str(kind)


def say(event: Event, tr: Translator = ENGLISH) -> str:
    """One sentence for an engine ``event``."""
    return render(event, tr) or event.kind


def move_event(move: Move, game: Game) -> Event:
    """The event ``move`` causes, with ``game`` as the move left it (pushed, not yet
    taken back): the move's own part of what `Game.push` returns."""
    rnd, turn = game.round, game.turn_number
    if isinstance(move, ChooseDisc):
        return DiscChosen(rnd, 0, move.player, move.number)
    if isinstance(move, PlayCubes):
        places = {str(key): list(colours) for key, colours in move.territories}
        return CubesPlayed(rnd, turn, move.player, move.court, places)
    if isinstance(move, MoveEmperor):
        return EmperorMoved(rnd, turn, move.player, move.steps, game.emperor)
    return Refilled(rnd, turn, move.player, move.colours)


def say_move(move: Move, game: Game, tr: Translator = ENGLISH) -> str:
    """``move`` in words, with ``game`` as the move left it. A move is said as the event
    it causes, so a step reads the same when it is announced, replayed or taken back."""
    return say(move_event(move, game), tr)
