"""Bus events said in the reader's language.

The English sentences are `referee.announcements.say`'s, word for word; here each event
kind is a gettext msgid with named placeholders, so every language gets a whole
sentence to translate (word order differs) and the game's words come from the
rulebooks' glossary (colours, castles, territory, region).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from babel.support import Translations

CUBE_COLOURS = ("red", "green", "yellow", "blue", "pink")
CASTLE_COLOURS = ("white", "black", "grey")


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
    mark("letter", "red"),
    mark("letter", "green"),
    mark("letter", "yellow"),
    mark("letter", "blue"),
    mark("letter", "pink"),
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


def colour(tr: Translations, name: str) -> str:
    """A cube or cylinder colour in the reader's language."""
    return str(tr.pgettext("colour", name)) if name in CUBE_COLOURS else name


def side(tr: Translations, name: str) -> str:
    """A castle colour (a side) in the reader's language; player names stay as they are."""
    return str(tr.pgettext("castle", name)) if name in CASTLE_COLOURS else name


def where(tr: Translations, territories: Sequence[int]) -> str:
    """``territory 6`` or ``region 4+5+6``."""
    if len(territories) == 1:
        return tr.gettext("territory %(territory)s") % {"territory": territories[0]}
    return tr.gettext("region %(territories)s") % {
        "territories": "+".join(str(t) for t in territories)
    }


def cubes(tr: Translations, colours: Sequence[str]) -> str:
    """``2 red, 1 pink`` (in play order of first appearance), ``nothing`` when empty."""
    counts: dict[str, int] = {}
    for c in colours:
        counts[c] = counts.get(c, 0) + 1
    parts = [
        tr.gettext("%(count)s %(colour)s") % {"count": n, "colour": colour(tr, c)}
        for c, n in counts.items()
    ]
    return ", ".join(parts) or tr.gettext("nothing")


def _own_words(tr: Translations, msgid: str, event: Mapping[str, Any]) -> str | None:
    """The msgid in the reader's language, or ``None`` where the catalog leaves it as it
    is (English): there the table referee's own, richer sentence is said."""
    text: str = tr.gettext(msgid)
    return None if text == msgid and event.get("message") else text


def _table_sentence(event: Mapping[str, Any], tr: Translations) -> str | None:
    """The live table's own events (`referee.table`): translated from their fields; in
    English their ``message`` as the table referee words it."""
    kind = event.get("kind")
    plain = {
        "resolved": N_("The table is right again."),
        "undone": N_("The last step was undone."),
        "confirmed": N_("Confirmed: the pending action is done."),
        "castles-placed": N_("The castles stand as the rules say."),
        "setup": N_("The set-up is accepted: the game begins."),
        # the set-up step before a game (firmware.bare): the camera learns the bare table
        "bare-ask": N_("Lay out the tiles and the court cards, nothing else, then press Confirm."),
        "bare-table": N_("Now set up: the emperor, one cube on each tile, the reserves."),
    }
    if kind == "bare-refused":
        msgid = BARE_PROBLEMS.get(str(event.get("problem")), "")
        found = _own_words(tr, msgid, event) if msgid else None
        return found if found is not None else str(event.get("message") or kind)
    if kind in plain:
        found = _own_words(tr, plain[kind], event)
        return found if found is not None else str(event["message"])
    words: dict[str, Any]
    if kind == "question":
        msgid, words = _question(tr, event)
    elif kind == "answered":
        msgid = (
            N_("Answered yes: the camera is right.")
            if event.get("answer") == "yes"
            else N_("Answered no: the camera is wrong there.")
        )
        words = {}
    elif kind == "corrected":
        msgid, words = N_("The referee was corrected: %(zone)s."), {
            "zone": zone_name(tr, str(event.get("zone", "?")))}
    elif kind == "cubes-placed":
        parts = []
        if event.get("court"):
            parts.append(
                tr.gettext("%(cubes)s to his court") % {"cubes": cubes(tr, event["court"])}
            )
        for t, placed in event.get("territories", {}).items():
            parts.append(
                tr.gettext("%(cubes)s on territory %(territory)s")
                % {"cubes": cubes(tr, placed), "territory": t}
            )
        msgid = N_("%(player)s has placed %(count)s of %(of)s cubes: %(cubes)s.")
        words = {
            "player": event["player"],
            "count": event.get("count", "?"),
            "of": event.get("of", "?"),
            "cubes": "; ".join(parts),
        }
    elif kind == "castle-pending":
        msgid = N_("Put a %(side)s castle on %(where)s.")
        words = {"side": side(tr, event["side"]), "where": where(tr, event["territories"])}
    elif kind in ("cylinder-pending", "cylinder-moved"):
        pool = event.get("to") == "pool"
        msgid = {
            ("cylinder-pending", True): N_("Put the %(colour)s cylinder back in the pool."),
            ("cylinder-pending", False): N_("Move the %(colour)s cylinder to the %(seat)s court."),
            ("cylinder-moved", True): N_("The %(colour)s cylinder is back in the pool."),
            ("cylinder-moved", False): N_("The %(colour)s cylinder is on the %(seat)s court."),
        }[(str(kind), pool)]
        words = {
            "colour": colour(tr, event["colour"]),
            "seat": tr.pgettext("seat", str(event.get("to"))),
        }
    else:
        return None
    found = _own_words(tr, msgid, event)
    return str(event["message"]) if found is None else _upper_first(found % words)


def zone_name(tr: Translations, zone: str) -> str:
    """A zone id of the snapshot ("territory:7", "court:north") in the table's words:
    the same msgids the page's ``Board.zoneName`` uses."""
    kind, _, key = zone.partition(":")
    if kind == "territory":
        return tr.gettext("territory %(territory)s") % {"territory": key}
    if kind in ("court", "reserve") and key in ("south", "west", "north", "east"):
        seat = tr.pgettext("seat", key)
        if kind == "court":
            return tr.gettext("%(seat)s court") % {"seat": seat}
        return tr.gettext("%(seat)s reserve") % {"seat": seat}
    return zone


def _question(tr: Translations, event: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """The referee's question about one zone of the table ("1 yellow on territory 7?"),
    as a msgid and its words, from the event's ``zone``, ``part`` and ``counts``."""
    kind, _, key = str(event["zone"]).partition(":")
    counts: Mapping[str, Any] = event.get("counts") or {}
    seat = tr.pgettext("seat", key) if key in ("south", "west", "north", "east") else key
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
        return N_("%(cubes)s in the %(seat)s court?"), {"cubes": cubes_read, "seat": seat}
    if kind == "reserve":
        return N_("%(cubes)s in the %(seat)s reserve?"), {"cubes": cubes_read, "seat": seat}
    if kind == "emperor":
        if counts.get("territory") is None:
            return N_("No emperor on the ring?"), {}
        return N_("The emperor on territory %(territory)s?"), {"territory": counts["territory"]}
    if kind == "cylinder":
        place = counts.get("place")
        words = {"colour": colour(tr, key), "seat": tr.pgettext("seat", str(place))}
        if place is None:
            return N_("No %(colour)s cylinder anywhere?"), words
        if place == "pool":
            return N_("The %(colour)s cylinder in the pool?"), words
        return N_("The %(colour)s cylinder on the %(seat)s court?"), words
    discs = ", ".join(str(n) for n in counts.get("discs") or []) or tr.gettext("none")
    return N_("Discs in the %(seat)s tray: %(discs)s?"), {"seat": seat, "discs": discs}


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def sentence(event: Mapping[str, Any], tr: Translations) -> str | None:
    """One sentence for a bus event, or ``None`` for events nobody needs to hear
    (``state``, ``gap``)."""
    kind = event.get("kind")
    _ = tr.gettext
    try:
        if kind == "disc-chosen":
            return _("%(player)s lays disc %(number)s.") % event
        if kind == "turn-started":
            return _("Round %(round)s: %(player)s's turn (disc %(disc)s).") % event
        if kind == "cubes-played":
            parts = []
            if event.get("court"):
                parts.append(_("%(cubes)s to his court") % {"cubes": cubes(tr, event["court"])})
            for t, placed in event.get("territories", {}).items():
                parts.append(
                    _("%(cubes)s on territory %(territory)s")
                    % {"cubes": cubes(tr, placed), "territory": t}
                )
            played = "; ".join(parts) or _("no cubes")
            return _("%(player)s plays %(cubes)s.") % {"player": event["player"], "cubes": played}
        if kind == "control-gained":
            words = {"player": event["player"], "colour": colour(tr, event["colour"])}
            if event.get("from"):
                words["previous"] = event["from"]
                return (
                    _(
                        "%(player)s gains control of %(colour)s from %(previous)s: "
                        "move the %(colour)s cylinder to %(player)s's court."
                    )
                    % words
                )
            return (
                _(
                    "%(player)s gains control of %(colour)s: "
                    "move the %(colour)s cylinder to %(player)s's court."
                )
                % words
            )
        if kind == "emperor-moved":
            steps = int(event["steps"])
            return tr.ngettext(
                "The emperor moves %(steps)s step to %(where)s.",
                "The emperor moves %(steps)s steps to %(where)s.",
                steps,
            ) % {"steps": steps, "where": where(tr, [event["territory"]])}
        if kind == "castle-built":
            return _upper_first(
                _("%(side)s builds a castle on %(where)s.")
                % {"side": side(tr, event["side"]), "where": where(tr, event["territories"])}
            )
        if kind == "castle-taken":
            return _upper_first(
                _("%(side)s takes over %(where)s from %(previous)s.")
                % {
                    "side": side(tr, event["side"]),
                    "where": where(tr, event["territories"]),
                    "previous": side(tr, event["from"]),
                }
            )
        if kind == "merged":
            return _upper_first(
                _("%(where)s is now one %(side)s region.")
                % {"where": where(tr, event["territories"]), "side": side(tr, event["side"])}
            )
        if kind == "returned":
            return _(
                "The supply ran short of %(colour)s: every player returns "
                "%(k)s %(colour)s from his court."
            ) % {"colour": colour(tr, event["colour"]), "k": event["k"]}
        if kind == "refilled":
            return _("%(player)s refills %(cubes)s.") % {
                "player": event["player"],
                "cubes": cubes(tr, event.get("colours", [])),
            }
        if kind == "game-over":
            how = (
                _("by castles")
                if event.get("reason") == "castles"
                else _("with fewer than 4 territories left")
            )
            if event.get("winner") == "draw":
                return _("Game over %(how)s: a draw.") % {"how": how}
            return _("Game over %(how)s: %(winner)s wins.") % {
                "how": how,
                "winner": side(tr, str(event.get("winner"))),
            }
        if kind == "illegal":
            return _("Not allowed (%(code)s): %(message)s") % {
                "code": tr.pgettext("illegal", str(event.get("code", "?"))),
                "message": event.get("message", ""),
            }
        table = _table_sentence(event, tr)
        if table is not None:
            return table
        if kind == "game-started":
            return _("A new game starts.")
        if kind == "game-ended":
            return _("The game was ended.")
        if kind == "training":
            if event.get("on"):
                return _("Training mode on: ask the advisor for threats and hints.")
            return _("Training mode off.")
    except (KeyError, TypeError, ValueError):
        return str(kind)
    if kind in ("state", "gap", None):
        return None
    message = event.get("message")  # the table's own events carry their words (English)
    return str(message) if message else str(kind)
