"""Who may change the game: browsers that entered the appliance's PIN once.

Watching needs nothing. Anything that changes state needs (1) a session cookie that
proves the PIN was entered in this browser — bound to the PIN, so a new PIN revokes old
browsers — and (2) the session's CSRF token in an ``X-CSRF-Token`` header, which a page
on another site cannot read or send (and a cross-site ``Origin`` is refused outright).
Wrong PINs are limited twice (`GuessLimit`): per client address, so one mistyping
browser waits a minute, and overall, with a back-off that doubles, because a guesser may
use many addresses (60 loopback addresses made 300 guesses in 0.64 s before). The
overall limit is what makes the 6-digit PIN safe: docs/security.md has the figures.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import os
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit

from flask import request, session

from referee.announcements import said
from web.errors import ApiError

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class GuessLimit:
    """How many wrong PINs the appliance checks, per address and overall."""

    per_address: int = 5
    """Wrong PINs one client address may try in `window_s`..."""
    window_s: float = 60.0
    free: int = 10
    """...and all addresses together in `memory_s` (a day) before each further guess
    waits: 1 s after the next wrong one, then 2, 4, 8 ... up to `longest_wait_s`. While
    it waits, no PIN is checked at all, the right one included (else the wait would not
    bind); a browser that entered the PIN before stays trusted meanwhile."""
    memory_s: float = 86400.0
    longest_wait_s: float = 900.0
    addresses: int = 1024
    """Client addresses remembered at most (the least recently seen are forgotten: the
    overall limit holds whatever the number of addresses)."""

    def wait_after(self, wrong: int) -> float:
        """Seconds before the next guess, after ``wrong`` wrong PINs in `memory_s`."""
        over = wrong - self.free
        return 0.0 if over <= 0 else min(2.0 ** min(over - 1, 30), self.longest_wait_s)


def new_pin(digits: int = 6) -> str:
    """A fresh PIN for the appliance's display."""
    return "".join(secrets.choice("0123456789") for _ in range(digits))


def kept_keys(path: str | Path) -> tuple[str, bytes]:
    """The PIN and the session key kept in ``path`` (made on first use, readable by the
    owner only), so that a browser that entered the PIN stays trusted after the
    appliance restarts. A damaged file is replaced by new keys."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
        pin, secret = str(data["pin"]), bytes.fromhex(data["secret"])
        Guard(pin)  # still a valid PIN
        if len(secret) >= 16:
            return pin, secret
    except (OSError, ValueError, KeyError, TypeError):
        pass
    pin, secret = new_pin(), secrets.token_bytes(32)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        json.dump({"pin": pin, "secret": secret.hex()}, out)
    return pin, secret


def _same(given: str, secret: str) -> bool:
    """Constant-time comparison that also takes non-ASCII input (a wrong answer)."""
    return hmac.compare_digest(given.encode("utf-8", "replace"), secret.encode())


def _pin_mark(pin: str) -> str:
    return hashlib.sha256(("carolus-pin:" + pin).encode()).hexdigest()[:16]


class Guard:
    """The PIN, the session marks and the wrong-PIN counter of one app."""

    def __init__(
        self,
        pin: str,
        limit: GuessLimit | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not (pin.isascii() and pin.isdigit()) or not 4 <= len(pin) <= 8:
            raise ValueError(f"the PIN must be 4 to 8 digits, not {pin!r}")
        self.pin = pin
        self.limit = limit or GuessLimit()
        self._clock = clock
        self._wrong: OrderedDict[str, deque[float]] = OrderedDict()
        self._all: deque[float] = deque()
        self._next_at = 0.0
        self._lock = threading.Lock()

    def _tries(self, client: str, now: float) -> deque[float]:
        """``client``'s wrong PINs within the window; forgets addresses whose tries are
        all older, and the least recently seen ones beyond `GuessLimit.addresses`."""
        limit = self.limit
        tries = self._wrong.pop(client, None) or deque()
        while tries and now - tries[0] > limit.window_s:
            tries.popleft()
        while self._wrong:
            oldest = next(iter(self._wrong.values()))
            if len(self._wrong) < limit.addresses and oldest and now - oldest[-1] <= limit.window_s:
                break
            self._wrong.popitem(last=False)
        self._wrong[client] = tries
        while self._all and now - self._all[0] > limit.memory_s:
            self._all.popleft()
        return tries

    def csrf_token(self) -> str:
        """This browser's CSRF token (made on first use, kept in the session)."""
        token = session.get("csrf")
        if not isinstance(token, str):
            token = secrets.token_urlsafe(24)
            session["csrf"] = token
        return token

    def trusted(self) -> bool:
        return session.get("pin") == _pin_mark(self.pin)

    def enter(self, pin: object) -> None:
        """Trust this browser if ``pin`` is right; `ApiError` otherwise."""
        client = request.remote_addr or "?"
        with self._lock:
            now = self._clock()
            tries = self._tries(client, now)
            if len(tries) >= self.limit.per_address:
                raise ApiError(429, said("too many wrong PINs; wait a minute and try again"))
            if now < self._next_at:
                wait = math.ceil(self._next_at - now)
                raise ApiError(
                    429,
                    said(
                        "too many wrong PINs on this appliance; wait %(count)s s and try again",
                        count=wait,
                    ),
                )
            if not isinstance(pin, str) or not _same(pin.strip(), self.pin):
                tries.append(now)
                self._all.append(now)
                self._next_at = now + self.limit.wait_after(len(self._all))
                raise ApiError(403, said("wrong PIN: enter the PIN shown on the appliance"))
            del self._wrong[client]
        session["pin"] = _pin_mark(self.pin)
        session.permanent = True

    def check_request(self, need_pin: bool = True) -> None:
        """Refuse a state-changing request from another site, without the CSRF token,
        or (``need_pin``) from a browser that never entered the PIN."""
        origin = request.headers.get("Origin")
        if origin and origin != "null" and urlsplit(origin).netloc != request.host:
            raise ApiError(403, said("requests from %(origin)s are not accepted", origin=origin))
        sent = request.headers.get("X-CSRF-Token", "")
        token = session.get("csrf")
        if not isinstance(token, str) or not _same(sent, token):
            raise ApiError(
                403, said("missing or wrong %(typed)s: reload the page", typed="X-CSRF-Token")
            )
        if need_pin and not self.trusted():
            raise ApiError(401, said("enter the PIN shown on the appliance first"))


def protected(guard_of: Callable[[], Guard]) -> Callable[[F], F]:
    """Decorate a view that changes state: it runs only for a trusted, same-site request."""

    def decorate(view: F) -> F:
        @wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            guard_of().check_request()
            return view(*args, **kwargs)

        return cast(F, wrapper)

    return decorate
