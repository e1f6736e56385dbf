"""What every request passes before any view, the PIN included: the ``Host`` it names
and the size of its body.

The ``Host`` check stops DNS rebinding: a page on another site makes its own name point
at the appliance's address, and the browser then lets that page read the answers as its
own. Such a request always carries the other site's name in ``Host``, so the appliance
answers only to names and addresses it really has: its hostname (and ``.local``, as
mDNS announces it), ``localhost``, its listen address, its interface addresses, and the
extra names of ``web.allowed_hosts``. An address typed as digits cannot come from a
rebinding (the browser's origin is then that address itself), so where the interface
addresses cannot be read (not Linux) any literal address is accepted.

The body check answers a ``Content-Length`` over the limit with a 413 before the body is
read or anyone is asked for a PIN (waitress refuses it even earlier, see `web.server`).
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from flask import Flask, request

from referee.announcements import said
from web.errors import ApiError
from web.validate import shown

#: Names that always mean this machine.
LOOPBACK = ("localhost", "127.0.0.1", "::1")
#: How long the interface addresses read from /proc are trusted before a miss re-reads.
REREAD_S = 5.0


def _address(text: str) -> str | None:
    """``text`` as a normalised IP address, or None when it is a name."""
    try:
        return str(ipaddress.ip_address(text.split("%", 1)[0]))
    except ValueError:
        return None


def split_host(host: str) -> tuple[str, int | None] | None:
    """The name (lower case, no trailing dot; an IPv6 address without brackets) and the
    port of a ``Host`` header; None when it is not one."""
    host = host.strip()
    port = ""
    if host.startswith("["):
        name, bracket, rest = host[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return None
        port = rest[1:]
        if _address(name) is None:
            return None
    else:
        name, colon, port = host.rpartition(":") if ":" in host else (host, "", "")
        if colon and not port:
            return None
    if port and not (port.isascii() and port.isdigit() and len(port) <= 5):
        return None
    if port and not 0 < int(port) < 65536:
        return None
    name = name.lower().rstrip(".")
    if not name or len(name) > 253:
        return None
    return name, int(port) if port else None


def interface_addresses() -> set[str] | None:
    """The machine's own IPv4 and IPv6 addresses, read from /proc (cheap, no library);
    None where /proc does not tell them."""
    found: set[str] = set()
    try:
        last = ""
        for line in Path("/proc/net/fib_trie").read_text().splitlines():
            text = line.strip()
            if text.startswith(("|--", "+--")):
                last = text[3:].strip().split("/")[0]
            elif text == "/32 host LOCAL" and last:
                found.add(last)
    except OSError:
        return None
    try:
        for line in Path("/proc/net/if_inet6").read_text().splitlines():
            raw = line.split()[0] if line.split() else ""
            if len(raw) == 32:
                found.add(str(ipaddress.IPv6Address(bytes.fromhex(raw))))
    except (OSError, ValueError):
        pass
    return {a for a in (_address(f) for f in found) if a}


@dataclass
class HostCheck:
    """The names and addresses this appliance answers to."""

    names: frozenset[str]
    """Names and addresses always accepted (lower case; addresses normalised)."""
    anything: bool = False
    """``*`` in ``web.allowed_hosts``: no check (behind a proxy that checks itself)."""
    addresses: Callable[[], set[str] | None] = interface_addresses
    _known: set[str] | None = field(default=None, repr=False)
    _read_at: float = field(default=-REREAD_S, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def build(cls, listen: str | None, extra: Iterable[str] = ()) -> HostCheck:
        hostname = socket.gethostname().lower().rstrip(".")
        names = {*LOOPBACK, hostname, f"{hostname}.local"}
        if "." in hostname:  # "pi.lan": also the short name and its .local
            short = hostname.split(".")[0]
            names |= {short, f"{short}.local"}
        if listen and listen not in ("0.0.0.0", "::", ""):
            names.add(listen)
        extra = [e.strip().lower().rstrip(".") for e in extra if e.strip()]
        names |= {e for e in extra if e != "*"}
        return cls(frozenset(_address(n) or n for n in names), anything="*" in extra)

    def allows(self, host: str) -> bool:
        if self.anything:
            return True
        parts = split_host(host)
        if parts is None:
            return False
        name = parts[0]
        number = _address(name)
        if (number or name) in self.names:
            return True
        return number is not None and self._own(number)

    def _own(self, number: str) -> bool:
        """Whether ``number`` is one of this machine's addresses (re-read at most every
        `REREAD_S`: a DHCP lease may change it while the appliance runs)."""
        with self._lock:
            now = time.monotonic()
            if (self._known is None or number not in self._known) and (
                now - self._read_at >= REREAD_S
            ):
                self._known, self._read_at = self.addresses(), now
                if self._known is None:
                    return True  # cannot tell: a literal address is no rebinding
            return self._known is None or number in self._known


def install(app: Flask, hosts: HostCheck) -> None:
    """Check every request's ``Host`` and ``Content-Length`` before its view runs."""

    @app.before_request
    def known_host() -> None:
        host = request.environ.get("HTTP_HOST")
        if host is None:  # HTTP/1.0 without Host: no browser, so no rebinding either
            return
        if not hosts.allows(host):
            raise ApiError(
                421,
                said(
                    "this appliance does not answer to the name %(given)s: open it by its own "
                    "name or address, or add the name to %(typed)s",
                    given=shown(host),
                    typed="web.allowed_hosts",
                ),
            )

    @app.before_request
    def small_body() -> None:
        limit = app.config["MAX_CONTENT_LENGTH"]
        sent = request.headers.get("Content-Length")
        if sent is None:
            return  # chunked or no body: the limit applies as it is read
        sent = sent.strip()
        if not (sent.isascii() and sent.isdigit()):
            raise ApiError(
                400,
                said(
                    "%(field)s must be a number, not %(given)s",
                    field="Content-Length",
                    given=shown(sent),
                ),
            )
        if len(sent) > 19 or int(sent) > limit:
            raise ApiError(
                413,
                said(
                    "the body is over the limit of %(count)s bytes (%(kb)s KB)",
                    count=limit,
                    kb=limit // 1024,
                ),
            )
