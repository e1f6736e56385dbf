"""Announcements spoken aloud with ``espeak-ng`` (optional, off by default).

Speaking takes seconds and the referee must not wait for it: `Voice.speak` only puts the
line in a short queue that a worker thread reads. When lines come faster than they can
be said, the oldest waiting ones are dropped — a stale "Anna's turn" is worse than none.

The voice speaks the table's language: each event is put into words by
`referee.announcements.render` with the catalog of ``language`` (the same sentence the
display and the page show), and espeak-ng is asked for that language's voice (``-v de``,
``-v hu`` …; ``[voice] voice`` overrides it, e.g. ``de+f3``). A language the catalogs do
not have is spoken in English, with an English voice, and said so once.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from firmware.config import Config
from firmware.events import BareAsk, BareLearnt, BareRefused, CameraStatus, GameEnded, NewGame
from referee.announcements import render, said
from referee.events import (
    CastleBuilt,
    CastleTaken,
    ControlGained,
    GameOver,
    Merged,
    Returned,
    TurnStarted,
)
from referee.table.events import (
    CastlePending,
    CylinderPending,
    EventClass,
    Illegal,
    Question,
    Resolved,
    TableEvent,
    Undone,
    is_one_of,
)
from web.i18n import LANGUAGES, translations

#: Events worth saying aloud, by class (the rest are visible on the display and the
#: page; `referee.table.events.is_one_of`: the rules' events inside `Stamped`).
SPOKEN: frozenset[EventClass] = frozenset(
    {
        TurnStarted,
        ControlGained,
        CastleBuilt,
        CastleTaken,
        Merged,
        Returned,
        GameOver,
        Illegal,
        Question,  # the referee doubts the camera: asked once, aloud
        Resolved,
        CastlePending,
        CylinderPending,
        Undone,
        BareAsk,  # the set-up step: lay out the tiles and court cards, then Confirm
        BareRefused,  # that frame cannot be the bare table, and why
        BareLearnt,  # learnt: now the pieces
        CameraStatus,  # the camera lost, back, stalled: the referee cannot see meanwhile
        NewGame,  # new players seated: set up the table
        GameEnded,  # the game stopped from the page
    }
)

Runner = Callable[..., Any]

#: How to get espeak-ng, as typed (the same in every language).
INSTALL = "sudo apt install espeak-ng"


class Voice:
    """Speaks lines in the background; does nothing when disabled or espeak-ng is missing."""

    def __init__(
        self,
        enabled: bool,
        language: str = "en",
        *,
        voice: str = "",
        speed: int = 150,
        backlog: int = 3,
        runner: Runner = subprocess.run,
        which: Callable[[str], str | None] = shutil.which,
        say: Callable[[str], None] = print,
    ) -> None:
        self._runner = runner
        self._say = say
        self._waiting: deque[str] = deque(maxlen=backlog)
        self._changed = threading.Condition()
        self._closed = False
        self._thread: threading.Thread | None = None
        self._failed = False
        self.dropped = 0
        self.program = which("espeak-ng") if enabled else None
        self.enabled = self.program is not None
        if enabled and not self.enabled:
            say(said("voice: espeak-ng not found (%(typed)s); running silent", typed=INSTALL))
        self.language = language.strip().replace("_", "-").split("-")[0].lower()
        if self.language not in LANGUAGES:
            if self.enabled:
                say(said("voice: no announcements in %(given)s; speaking English", given=language))
            self.language = "en"
        self._tr = translations(self.language)
        self.voice = voice or self.language
        self.speed = speed

    @classmethod
    def from_config(cls, config: Config, say: Callable[[str], None] = print) -> Voice:
        """The voice as ``[voice]`` and ``language`` in the settings ask."""
        return cls(
            config.voice.enabled,
            config.language,
            voice=config.voice.voice,
            speed=config.voice.speed,
            say=say,
        )

    def command(self, text: str) -> list[str]:
        """The espeak-ng command line that says ``text``."""
        return [self.program or "espeak-ng", "-v", self.voice, "-s", str(self.speed), "--", text]

    def speak(self, text: str) -> None:
        """Queue ``text``; returns at once. The oldest waiting line goes when the queue is full."""
        if not self.enabled or not text.strip():
            return
        with self._changed:
            if self._closed:
                return
            if len(self._waiting) == self._waiting.maxlen:
                self.dropped += 1
            self._waiting.append(text)
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="voice", daemon=True)
                self._thread.start()
            self._changed.notify()

    def update(self, view: Mapping[str, Any], events: Sequence[TableEvent] = ()) -> None:
        """The appliance's output protocol: say the events worth hearing."""
        for event in events:
            self.on_event(event)

    def on_event(self, event: TableEvent) -> None:
        """Say the event's sentence, in the table's language, if it is one worth hearing."""
        if is_one_of(event, SPOKEN):
            self.speak(render(event, self._tr) or "")

    def close(self, timeout: float = 2.0) -> None:
        """Stop after the line being said; lines still waiting are dropped."""
        with self._changed:
            self._closed = True
            self._waiting.clear()
            self._changed.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)

    def _work(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._waiting or self._closed)
                if self._closed:
                    return
                text = self._waiting.popleft()
            try:
                self._runner(
                    self.command(text),
                    check=False,
                    timeout=60,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            except (OSError, subprocess.SubprocessError) as exc:
                if not self._failed:  # say it once, keep trying with the next line
                    self._failed = True
                    self._say(said("voice: espeak-ng failed (%(reason)s)", reason=str(exc)))
