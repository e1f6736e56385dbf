"""The OLED panel: which screen to show now, from the latest view and the events.

Priority, highest first:

1. **majorities** — while someone pages with the Majorities button (falls back to the
   live view after ``majorities_seconds`` without a press, or on a long press); in
   training mode (``view["training"]``) the paging starts with the **advisor**'s page —
   the best play in a few words — asked for at that press, never unasked;
2. **illegal act** — persistent until the view says the table is legal again (or a
   ``resolved`` event comes); then a **question** the referee asks about a doubtful
   reading ("1 yellow on territory 7?"), until it is answered (from the view);
3. **announcements** — each event worth saying (castle built, control gained, cubes
   played …) for ``announce_seconds``, in order, the oldest dropped when they pile up;
4. **set-up** (before round 1: first the set-up step's two screens, *lay out* the tiles
   and court cards then Confirm, and *pieces* once the bare table is learnt, in the
   configured language) or **game over**;
5. **pending chores** — a castle to place, a cylinder to move (from the view);
6. the **live view** — whose turn and what he does.

The device is injected (a luma device: ``ssd1306`` on the Pi, ``dummy`` in tests and when
no panel is attached), and every render is kept as an image for the web mirror
(`Display.png`). Wiring in the main loop (``update(view, events)`` is the appliance's
output protocol; a Majorities press arrives as a ``button`` event)::

    device, attached = open_device(config.display)      # firmware.display.device
    display = Display.from_config(
        device, config.display, majorities=hub.majorities, advice=advice_or_none
    )
    display.start()                      # a timer so announcements and paging time out
    outputs.append(display)              # display.update(view, events) after each change
    render_display = lambda view: display.png()   # GET /api/display.png
"""

from __future__ import annotations

import io
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NotRequired, TypedDict

from PIL import Image, ImageDraw

from firmware.config import DisplayConfig
from firmware.display import cards, screens
from firmware.display.words import language_of
from firmware.events import ButtonPressed, Resumed
from firmware.hub import CommandError
from firmware.view import MajorityView
from referee.events import (
    CastleBuilt,
    CastleTaken,
    ControlGained,
    CubesPlayed,
    EmperorMoved,
    Merged,
    Returned,
)
from referee.table.events import (
    Confirmed,
    Corrected,
    CubesPlaced,
    EventClass,
    Illegal,
    Resolved,
    SetupAccepted,
    TableEvent,
    Undone,
    is_one_of,
)
from web.i18n import translations

#: Events the panel announces for a few seconds (the rest are in the live view anyway),
#: by class (`referee.table.events.is_one_of`: the rules' events inside `Stamped`).
ANNOUNCED: frozenset[EventClass] = frozenset(
    {
        CubesPlayed,
        CubesPlaced,
        ControlGained,
        CastleBuilt,
        CastleTaken,
        Merged,
        Returned,
        EmperorMoved,
        Undone,
        Confirmed,
        Corrected,
        Resolved,
        SetupAccepted,
        Resumed,
    }
)


#: What a screen says in a sentence from the view model (its JSON, as the page gets it):
#: the view's illegal act, question or chore (`referee.announcements.render_json`).
Words = Mapping[str, Any]


@dataclass(frozen=True)
class Screen:
    """What is on the panel: a name (for logs and tests) and the data it draws: the
    event announced (``event``), the fields it draws (``card``, `firmware.display.cards`)
    or the words it says (``words``: the view's illegal act, question or chore)."""

    name: str
    event: TableEvent | None = None
    card: cards.Card | None = None
    words: Words | None = None
    majority: MajorityView | None = None
    page: int = 1
    pages: int = 1
    advice: Mapping[str, Any] | None = None
    language: str = "en"


@dataclass(frozen=True)
class Page:
    """One page of the Majorities button: a unit's majority, or the advisor's page
    (`referee.advisor.Advice` as the hub answers it)."""

    majority: MajorityView | None = None
    advice: Mapping[str, Any] | None = None


class Shown(TypedDict):
    """What the panel shows, in short (`Display.describe`): the screen's name and, while
    the Majorities button pages, which page of how many, and its unit's territories or
    the player the advice speaks to."""

    screen: str
    page: NotRequired[int]
    of: NotRequired[int]
    territories: NotRequired[list[int]]
    player: NotRequired[str | None]


def choose(
    view: Mapping[str, Any],
    *,
    event: TableEvent | None = None,
    majority: MajorityView | None = None,
    page: int = 1,
    pages: int = 1,
    illegal: Illegal | None = None,
    advice: Mapping[str, Any] | None = None,
    language: str = "en",
) -> Screen:
    """The screen for ``view`` given what the panel is asked to show on top of it, in
    ``language``."""
    screen = _choose(
        view,
        event=event,
        majority=majority,
        page=page,
        pages=pages,
        illegal=illegal,
        advice=advice,
    )
    return replace(screen, language=language)


def _choose(
    view: Mapping[str, Any],
    *,
    event: TableEvent | None,
    majority: MajorityView | None,
    page: int,
    pages: int,
    illegal: Illegal | None,
    advice: Mapping[str, Any] | None,
) -> Screen:
    if advice is not None:
        return Screen("advice", advice=advice, page=page, pages=pages)
    if majority is not None:
        return Screen("majority", majority=majority, page=page, pages=pages)
    table = view.get("table") or {}  # (none before the panel's first view)
    if table.get("illegal"):
        return Screen("illegal", words=table["illegal"])
    if illegal is not None:
        return Screen("illegal", event=illegal)
    if table.get("question"):
        return Screen("question", words=table["question"])
    if event is not None:
        card = cards.of_event(event)
        return Screen("announcement" if card is None else card.screen, event=event, card=card)
    if view.get("phase") == "setup":
        step = (view.get("bare") or {}).get("step")
        if step in ("ask", "learnt"):
            return Screen("lay-out" if step == "ask" else "pieces")
        return Screen("setup")
    if view.get("finished"):
        return Screen("game-over")
    pending = list(table.get("pending") or [])
    if pending:
        chore = cards.of_chore(pending[0])
        name = "chore" if chore is None else chore.screen
        return Screen(name, card=chore, words=pending[0], page=1, pages=len(pending))
    return Screen("turn")


def _is_press(event: TableEvent, *, long: bool) -> bool:
    """A Majorities button press (announced on the bus by `Hub.press`)."""
    return isinstance(event, ButtonPressed) and event.button == "majorities" and event.long == long


def _same_cubes(shown: TableEvent, new: TableEvent) -> bool:
    """Two reports of the same player's cubes (placed so far, then played)."""
    before, after = cards.of_event(shown), cards.of_event(new)
    return (
        isinstance(before, cards.Cubes)
        and isinstance(after, cards.Cubes)
        and before.player == after.player
    )


def draw(canvas: ImageDraw.ImageDraw, view: Mapping[str, Any], screen: Screen) -> None:
    """Paint ``screen`` of ``view`` in the screen's language."""
    tr = translations(language_of(screen.language))
    event = screen.event
    words: Words = screen.words or {}
    card = screen.card
    note = f"{screen.page}/{screen.pages}" if screen.pages > 1 else ""
    if screen.name == "advice" and screen.advice is not None:
        screens.draw_advice(canvas, screen.advice, screen.page, screen.pages, tr)
    elif screen.name == "majority" and screen.majority is not None:
        screens.draw_majority(canvas, screen.majority, screen.page, screen.pages, tr)
    elif screen.name == "illegal":
        screens.draw_illegal(canvas, view, event if isinstance(event, Illegal) else words, tr)
    elif screen.name == "question":
        screens.draw_question(canvas, view, words, tr)
    elif isinstance(card, cards.Cubes):
        screens.draw_cubes(canvas, view, card, tr)
    elif isinstance(card, cards.Castle):
        title = screens.title(tr, card.title) if card.title else ""
        screens.draw_castle(canvas, view, card, title=title, note=note, tr=tr)
    elif isinstance(card, cards.Cylinder):
        title = screens.title(tr, card.title) if card.title else ""
        screens.draw_cylinder(canvas, view, card, title=title, note=note, tr=tr)
    elif screen.name == "announcement" and event is not None:
        screens.draw_announcement(canvas, view, event, tr=tr)
    elif screen.name == "chore":
        screens.draw_chore(canvas, view, words, note=note, tr=tr)
    elif screen.name == "game-over":
        screens.draw_game_over(canvas, view, tr)
    elif screen.name == "setup":
        screens.draw_setup(canvas, view, screen.language)
    elif screen.name == "lay-out":
        screens.draw_lay_out(canvas, view, screen.language)
    elif screen.name == "pieces":
        screens.draw_pieces(canvas, view, screen.language)
    else:
        screens.draw_turn(canvas, view, tr)


def render(view: Mapping[str, Any], screen: Screen | None = None, mode: str = "1") -> Image.Image:
    """The 128x64 image of ``screen`` (default: the one `choose` picks for ``view``)."""
    image = Image.new(mode, (screens.WIDTH, screens.HEIGHT), screens.OFF)
    draw(ImageDraw.Draw(image), view, screen or choose(view))
    return image


def to_png(image: Image.Image, scale: int = 4) -> bytes:
    """``image`` scaled up by whole pixels (sharp in a browser), as PNG bytes."""
    big = image.convert("1").resize(
        (image.width * scale, image.height * scale), Image.Resampling.NEAREST
    )
    out = io.BytesIO()
    big.save(out, format="PNG")
    return out.getvalue()


def render_png(
    view: Mapping[str, Any],
    *,
    event: TableEvent | None = None,
    majority: MajorityView | None = None,
    page: int = 1,
    pages: int = 1,
    scale: int = 4,
    advice: Mapping[str, Any] | None = None,
) -> bytes:
    """The screen for ``view`` (and an event, majority or advice on top) as a PNG, scaled
    ×4 for ``GET /api/display.png``."""
    screen = choose(view, event=event, majority=majority, page=page, pages=pages, advice=advice)
    return to_png(render(view, screen), scale)


class Display:
    """The panel's state: latest view, announcements waiting, majorities paging."""

    def __init__(
        self,
        device: Any,
        *,
        announce_seconds: float = 5.0,
        majorities_seconds: float = 30.0,
        backlog: int = 4,
        clock: Callable[[], float] = time.monotonic,
        majorities: Callable[[], Sequence[MajorityView]] | None = None,
        advice: Callable[[], Mapping[str, Any] | None] | None = None,
        language: str = "en",
    ) -> None:
        self.device = device
        self.language = language
        self._majorities = majorities
        self._advice = advice
        self._timer: threading.Thread | None = None
        self._stop = threading.Event()
        self.announce_seconds = announce_seconds
        self.majorities_seconds = majorities_seconds
        self._clock = clock
        self._lock = threading.RLock()
        self._view: Mapping[str, Any] = {}
        self._illegal: Illegal | None = None
        self._waiting: deque[TableEvent] = deque(maxlen=backlog)
        self._shown_since: float | None = None
        self._pages: list[Page] = []
        self._page = 0
        self._paged_at = 0.0
        self._image: Image.Image | None = None
        self.screen = Screen("turn")

    @classmethod
    def from_config(
        cls,
        device: Any,
        config: DisplayConfig,
        majorities: Callable[[], Sequence[MajorityView]] | None = None,
        advice: Callable[[], Mapping[str, Any] | None] | None = None,
        language: str = "en",
    ) -> Display:
        """The panel with the timings of ``[display]`` in the settings; ``advice`` answers
        `Appliance.advice()` in training mode and ``None`` otherwise; ``language`` the
        settings' (the set-up step's screens speak it)."""
        return cls(
            device,
            announce_seconds=config.announce_seconds,
            majorities_seconds=config.majorities_seconds,
            majorities=majorities,
            advice=advice,
            language=language,
        )

    # -- inputs

    def update(self, view: Mapping[str, Any], events: Sequence[TableEvent] = ()) -> None:
        """A new view model and the events that led to it: redraw if anything changed.
        The view is the authority on illegal acts (``table.illegal``)."""
        pages = self._fetch_pages(events, view)
        with self._lock:
            for event in events:
                self._event(event, pages)
            self._view = view
            if (view.get("table") or {}).get("legal", True):
                self._illegal = None
            self._refresh()

    def on_event(self, event: TableEvent) -> None:
        """An event from the bus: announce it, or note an illegal act / its end."""
        pages = self._fetch_pages([event], self._view)
        with self._lock:
            self._event(event, pages)
            self._refresh()

    def _fetch_pages(
        self, events: Sequence[TableEvent], view: Mapping[str, Any]
    ) -> tuple[Sequence[MajorityView], Mapping[str, Any] | None] | None:
        """The majorities (and, for a press that starts the paging in training mode, the
        advice) for a Majorities press among ``events``, asked for *before* taking the
        panel's lock: the hub takes its own lock to answer, and a thread holding the
        hub's lock may be waiting for the panel's."""
        if self._majorities is None or not any(_is_press(e, long=False) for e in events):
            return None
        advice = None
        if self._advice is not None and view.get("training") and not self._pages:
            try:  # only when asked: this press starts the paging
                advice = self._advice()
            except CommandError:  # training went off or the game ended meanwhile
                advice = None
        return self._majorities(), advice

    def _event(
        self,
        event: TableEvent,
        pages: tuple[Sequence[MajorityView], Mapping[str, Any] | None] | None = None,
    ) -> None:
        if _is_press(event, long=True):
            self._pages = []
            return
        if _is_press(event, long=False):
            if pages is not None:
                self.page_majorities(pages[0], advice=pages[1])
            return
        if isinstance(event, Illegal):
            self._illegal = event
        elif isinstance(event, Resolved):
            self._illegal = None
        if is_one_of(event, ANNOUNCED):
            if not self._waiting:
                self._shown_since = None
            elif _same_cubes(self._waiting[-1], event):
                # one cube after another: show the latest count, not each step in turn
                if len(self._waiting) == 1:
                    self._shown_since = None
                self._waiting[-1] = event
                return
            self._waiting.append(event)

    def tick(self) -> None:
        """Call now and then (each loop): announcements and paging time out."""
        with self._lock:
            self._refresh()

    def page_majorities(
        self, pages: Sequence[MajorityView], advice: Mapping[str, Any] | None = None
    ) -> Shown:
        """A short press of Majorities: the first unit, then the next; after the last,
        back to the live view. ``pages`` is `Hub.majorities()` (most contested first);
        ``advice`` (training mode, the press that starts the paging) comes first."""
        units = [Page(majority=p) for p in pages]
        with self._lock:
            if not self._pages:
                head = [Page(advice=advice)] if advice is not None else []
                self._pages, self._page = head + units, 0
            elif self._page + 1 < len(self._pages):
                if units:  # the latest strengths; the advice stays as it was asked
                    head = [p for p in self._pages if p.advice is not None]
                    self._pages = head + units
                self._page = min(self._page + 1, len(self._pages) - 1)
            else:
                self._pages = []
            self._paged_at = self._clock()
            self._refresh()
            return self.describe()

    def live(self) -> Shown:
        """A long press of Majorities: back to the live view."""
        with self._lock:
            self._pages = []
            self._refresh()
            return self.describe()

    def start(self, interval: float = 0.25) -> None:
        """Tick from a background thread, so that timeouts happen between events."""
        if self._timer is not None:
            return
        self._stop.clear()

        def run() -> None:
            while not self._stop.wait(interval):
                self.tick()

        self._timer = threading.Thread(target=run, name="display", daemon=True)
        self._timer.start()

    def close(self) -> None:
        """Stop the timer (the panel keeps its last picture)."""
        self._stop.set()
        if self._timer is not None:
            self._timer.join(2)
            self._timer = None

    # -- outputs

    def describe(self) -> Shown:
        """What is shown, for `Hub.press` replies and logs."""
        out: Shown = {"screen": self.screen.name}
        if self.screen.name == "majority":
            out["page"], out["of"] = self.screen.page, self.screen.pages
            majority = self.screen.majority
            out["territories"] = [] if majority is None else list(majority["territories"])
        elif self.screen.name == "advice":
            out["page"], out["of"] = self.screen.page, self.screen.pages
            hint = (self.screen.advice or {}).get("hint") or {}
            out["player"] = hint.get("player")
        return out

    def image(self) -> Image.Image:
        """The 128x64 image on the panel now."""
        with self._lock:
            if self._image is None:
                self._refresh(force=True)
            assert self._image is not None
            return self._image.copy()

    def png(self, scale: int = 4) -> bytes:
        """The panel now as PNG bytes, scaled for a browser (`Hub.display_png`)."""
        return to_png(self.image(), scale)

    # -- inside

    def _announcement(self, now: float) -> TableEvent | None:
        while self._waiting:
            if self._shown_since is None:
                self._shown_since = now
            if now - self._shown_since < self.announce_seconds:
                return self._waiting[0]
            self._waiting.popleft()
            self._shown_since = None
        return None

    def _refresh(self, force: bool = False) -> None:
        now = self._clock()
        if self._pages and now - self._paged_at >= self.majorities_seconds:
            self._pages = []
        shown = self._pages[self._page] if self._pages else None
        majority = None if shown is None else shown.majority
        advice = None if shown is None else shown.advice
        table = self._view.get("table") or {}
        blocked = (
            shown is not None
            or self._illegal is not None
            or table.get("illegal")
            or table.get("question")
        )
        event = None if blocked else self._announcement(now)
        screen = choose(
            self._view,
            event=event,
            majority=majority,
            page=self._page + 1,
            pages=len(self._pages),
            illegal=self._illegal,
            advice=advice,
            language=self.language,
        )
        image = render(self._view, screen, self.device.mode)
        self.screen = screen
        if force or self._image is None or image.tobytes() != self._image.tobytes():
            self._image = image
            self.device.display(image)
