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
)


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
                "code": event.get("code", "?"),
                "message": event.get("message", ""),
            }
        if kind == "resolved":
            return _("The table is right again.")
        if kind == "undone":
            return _("The last step was undone.")
        if kind == "corrected":
            return _("The referee was corrected: %(zone)s.") % {"zone": event.get("zone", "?")}
        if kind == "confirmed":
            return _("Confirmed: the pending action is done.")
        if kind == "game-started":
            return _("A new game starts.")
        if kind == "game-ended":
            return _("The game was ended.")
    except (KeyError, TypeError, ValueError):
        return str(kind)
    if kind in ("state", "gap", None):
        return None
    message = event.get("message")  # the table's own events carry their words (English)
    return str(message) if message else str(kind)
