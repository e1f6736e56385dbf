"""The set-up step before a game: the camera learns the bare table.

The reader sees pieces as what differs from a picture of the table without them
(`vision.reference`), so before the players put any piece down the appliance asks them to
lay out the tiles and the court cards alone and press Confirm; it then learns that
picture from the camera's latest frame, and only then asks for the pieces and lets the
table referee watch. A frame that cannot serve (nothing seen yet, a hand over the mat,
the mat not found) is refused with the reason, and the step stays: a bad reference would
make every game misread, and the step costs one more press.

The picture is stored with the game in the game log; a game resumed after a restart
uses it again and skips the step (the table is full of pieces by then).

States (`BareStep.state`):

- ``"ask"``: lay out the tiles and court cards, then Confirm;
- ``"learnt"``: the bare table is learnt; now the pieces (emperor, cubes, reserves);
- ``None``: no step: no reader that learns (a snapshot stream), a recording nobody can
  confirm, or a resumed game.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Any, NoReturn

from firmware.events import BareAsk, BareLearnt
from firmware.hub import CommandError
from referee.announcements import BARE_PROBLEMS, BARE_STEPS, said
from vision.snapshot import Snapshot

if TYPE_CHECKING:
    from firmware.view import BareView

log = logging.getLogger("carolus")

#: What the display, the page and the voice say in each state, and why a frame cannot
#: be the bare table, by the code the view carries: the English words of
#: `referee.announcements`, written once there and translated through its catalogs
#: (the page and the display translate by ``step`` and ``problem``).
ASK = BARE_STEPS["ask"]
LEARNT = BARE_STEPS["learnt"]
PROBLEMS = BARE_PROBLEMS


class BareStep:
    """The bare-table step of one appliance, and the reader it teaches.

    ``eyes``: the vision reader (`vision.reader.Reader`: ``learn_bare``, ``use_bare``,
    ``bare``), or None. ``ask``: whether a new game starts with the step (False for a
    recording, where nobody can press Confirm: it is read with whatever bare table the
    calibration carries). Reading and learning go through `lock`, which the camera loop
    holds while it reads a frame: learning must not change the reader under a read.
    """

    def __init__(self, eyes: Any = None, *, ask: bool = True) -> None:
        self.eyes = eyes if eyes is not None and hasattr(eyes, "learn_bare") else None
        self.ask = ask and self.eyes is not None
        self.lock = threading.RLock()
        self.state: str | None = "ask" if self.ask else None
        self.problem: str | None = None
        self._frame: Any = None
        self._occluded = False
        self._mat = True
        self._png: bytes | None = None
        self.asked = False  # the players have been told to lay the table bare

    @property
    def waiting(self) -> bool:
        """The players are laying the table bare: the referee must not watch yet."""
        return self.state == "ask"

    def keep(self, frame: Any, snapshot: Any) -> None:
        """The camera loop's latest frame and whether its snapshot saw it clear."""
        if self.state != "ask":
            return
        self._frame = frame
        if isinstance(snapshot, Snapshot):
            self._occluded, self._mat = snapshot.occluded, snapshot.mat
        elif isinstance(snapshot, dict):
            self._occluded = bool(snapshot.get("occluded"))
            self._mat = bool(snapshot.get("mat", True))

    def learn(self, camera: str = "ok", t: float | None = None) -> BareLearnt:
        """Confirm pressed: learn the bare table from the latest frame and read against
        it from now on; the event that says so, at ``t``. Raises `CommandError` with the
        reason (and stays in the step)."""
        if self.state != "ask" or self.eyes is None:
            raise CommandError(said("the bare table is not being asked for now"))
        with self.lock:
            frame = self._frame
            if camera == "lost":
                self._refuse("camera-lost")
            if frame is None or not hasattr(frame, "shape"):
                self._refuse("no-frame")
            if not self._mat:
                self._refuse("no-mat")
            if self._occluded:
                self._refuse("moving")
            try:
                bare = self.eyes.learn_bare(frame)
            except ValueError as exc:
                self._refuse("no-mat", exc)
            try:
                self.eyes.use_bare(bare)
                png = bare.to_bytes()
            except ValueError as exc:  # BareTableError: another layout or scale
                self._refuse("layout", exc)
        self._png, self.state, self.problem = png, "learnt", None
        self._frame = None
        log.info("bare table learnt (%d bytes)", len(png))
        return BareLearnt(t=t, message=LEARNT)

    def _refuse(self, problem: str, exc: Exception | None = None) -> NoReturn:
        self.problem = problem
        if exc is not None:
            log.warning("bare table not learnt: %s", exc)
        raise CommandError(said(PROBLEMS[problem]))  # a msgid of `BARE_PROBLEMS`

    def use(self, png: bytes | None) -> str | None:
        """A resumed game: read against its stored bare table and skip the step. Returns
        why the stored picture could not be used (then the reader reads as it was
        configured), or None."""
        self.state, self.problem = None, None
        if png is None or self.eyes is None:
            return None
        from vision.reference import BareTable

        try:
            bare = BareTable.from_bytes(png)
            with self.lock:
                self.eyes.use_bare(bare)
        except ValueError as exc:
            return said("the game's stored bare table cannot be used (%(reason)s)", reason=str(exc))
        self._png = png
        return None

    def png(self) -> bytes | None:
        """The bare table learnt for this game (to store with it), or None."""
        return self._png

    def reset(self) -> None:
        """A new game: the tiles are laid out anew, so the step comes again."""
        self._png, self.problem, self._frame = None, None, None
        self.state = "ask" if self.ask else None
        self.asked = False

    def ask_event(self, t: float | None) -> list[BareAsk]:
        """The event that tells the players to lay the table bare, once per game (when
        the camera is there to see it); none when not asking."""
        if self.state != "ask" or self.asked:
            return []
        self.asked = True
        return [BareAsk(t=t, message=ASK)]

    def view(self) -> BareView | None:
        """The step as the view model carries it (``bare``), None without a step."""
        if self.state is None:
            return None
        message = ASK if self.state == "ask" else LEARNT
        if self.problem is not None:
            message = PROBLEMS[self.problem]
        return {"step": self.state, "problem": self.problem, "message": message}
