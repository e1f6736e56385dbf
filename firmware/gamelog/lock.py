"""One appliance per game log: an OS lock on ``<log>.lock``, held for the process's life.

SQLite keeps each write whole, not the game: two appliances on one log both resume the
running game and both append moves, and the game no longer replays. So ``carolus run``
takes this lock before it reads or writes the log (before the demo deletes its old log)
and refuses to start while another process holds it, naming the holder.

The lock is `fcntl.flock` on a file of its own next to the log. Not on the log itself:
SQLite takes POSIX locks on the database, and closing any descriptor of a file drops a
process's POSIX locks on it. The kernel releases a flock when its holder dies, kill -9
and power cuts included, so a lock file left behind never blocks anyone: its text (pid,
host, start time) is only read to say who holds the lock. The file is never deleted —
deleting a lock file lets two processes lock two different files of the same name.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from datetime import datetime
from pathlib import Path

from firmware.gamelog.store import GameLogError

try:
    import fcntl
except ImportError:  # Windows: no flock; the appliance runs on Linux
    fcntl = None  # type: ignore[assignment]


class LogLockError(GameLogError):
    """The lock could not be taken: the folder cannot be written, or another process
    holds it (`LogInUseError`)."""


class LogInUseError(LogLockError):
    """Another process holds the game log; ``holder`` says who, as far as it wrote."""

    def __init__(self, message: str, holder: dict[str, object]) -> None:
        super().__init__(message)
        self.holder = holder


def lock_path(log: str | Path) -> Path:
    return Path(f"{log}.lock")


class LogLock:
    """The held lock on one game log; `release` (or the process's end) frees it."""

    def __init__(self, log: Path, fd: int) -> None:
        self.log = log
        self.path = lock_path(log)
        self._fd: int | None = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the only descriptor releases the flock
            self._fd = None

    def __enter__(self) -> LogLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def __repr__(self) -> str:
        return f"LogLock({str(self.log)!r}, held={self._fd is not None})"


def lock_log(log: str | Path, by: str = "carolus run") -> LogLock:
    """Take the game log ``log`` for this process, or raise: `LogInUseError` naming the
    holder, `LogLockError` when the lock file cannot be made (a read-only folder)."""
    log = Path(log)
    path = lock_path(log.resolve())  # one lock however the log is spelt or linked
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise LogLockError(
            f"the folder {folder} cannot be written ({exc.strerror or exc}), so the game "
            f"log {log.name} there cannot be kept"
        ) from None
    if fcntl is None:
        return LogLock(log, fd)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        holder = _holder(path)
        raise LogInUseError(
            f"the game log {log} is in use by {_describe(holder)}", holder
        ) from None
    except OSError as exc:  # a filesystem without flock
        os.close(fd)
        raise LogLockError(f"cannot lock the game log {log}: {exc.strerror or exc}") from None
    stamp = datetime.now().astimezone().strftime("%Y-%m-%d %H:%M:%S %Z").strip()
    holder = {"by": by, "pid": os.getpid(), "host": socket.gethostname(), "since": stamp}
    data = (json.dumps(holder) + "\n").encode()
    with contextlib.suppress(OSError):  # who holds it is a courtesy; the flock is the lock
        os.ftruncate(fd, 0)
        os.pwrite(fd, data, 0)
    return LogLock(log, fd)


def _holder(path: Path) -> dict[str, object]:
    """What the holder wrote; it writes just after it locks, so wait a moment for it."""
    for _ in range(20):
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
            data = json.loads(text)
            if isinstance(data, dict) and data:
                return data
        except (OSError, ValueError):
            pass
        time.sleep(0.05)
    return {}


def _describe(holder: dict[str, object]) -> str:
    if not holder.get("pid"):
        return "another process (it has not said which)"
    words = f"{holder.get('by') or 'another process'}, pid {holder['pid']}"
    host = holder.get("host")
    if host and host != socket.gethostname():
        words += f" on {host}"
    if holder.get("since"):
        words += f", since {holder['since']}"
    return words


__all__ = ["LogInUseError", "LogLock", "LogLockError", "lock_log", "lock_path"]
