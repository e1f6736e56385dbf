"""Web page figures for BENCHMARKS.md (not a test: run it by hand).

    .venv/bin/python benchmarks/web_bench.py [--clients 30] [--pace 0.02]

SSE fan-out latency: the real server (waitress, as the appliance runs it) on loopback,
a self-played game driven move by move, and ``--clients`` live pages reading
``/api/events`` in a *separate process* (as browsers are). Latency is from the moment
the hub publishes an event on the bus to the moment each page has read it (the clock is
CLOCK_MONOTONIC, shared by both processes). A ``state`` message carries the whole view
model (~7 KB), so it is reported on its own. The issue asks for under 200 ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "web"))

from firmware.bus import EventBus  # noqa: E402


class TimedBus(EventBus):
    """The appliance's bus, noting when each event was published."""

    def __init__(self) -> None:
        super().__init__()
        self.published: dict[int, float] = {}
        self.kinds: dict[int, str] = {}

    def publish(self, event: dict[str, Any]) -> int:
        stamp = time.perf_counter()
        event_id = super().publish(event)
        self.published[event_id] = stamp
        self.kinds[event_id] = event["kind"]
        return event_id


def readers(port: int, clients: int) -> None:
    """The client process: ``clients`` pages; prints each one's arrival times as JSON."""
    from sse_client import Reader

    pages = [Reader(port, time.monotonic() + 300) for _ in range(clients)]
    for page in pages:
        page.start()
    for page in pages:
        page.ready.wait(30)
    print("ready", flush=True)
    until = int(sys.stdin.readline())
    for page in pages:
        page.until_id = until
    for page in pages:
        page.join(60)
    json.dump([{str(k): v for k, v in p.arrivals.items()} for p in pages], sys.stdout)


def run(clients: int, pace: float, seed: int) -> dict[str, Any]:
    from web.preview import PreviewHub
    from web.server import serve

    bus = TimedBus()
    hub = PreviewHub(seed=seed, bus=bus)
    server = serve(hub, "127.0.0.1", 0)
    child = subprocess.Popen(
        [sys.executable, __file__, "--read", str(server.port), "--clients", str(clients)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None and child.stdin is not None
    assert child.stdout.readline().strip() == "ready"
    first = bus.last_id + 1
    moves = 0
    start = time.perf_counter()
    while not hub.game.is_over:
        hub.advance()
        moves += 1
        if pace:
            time.sleep(pace)
    took = time.perf_counter() - start
    child.stdin.write(f"{bus.last_id}\n")
    child.stdin.flush()
    pages = json.loads(child.stdout.read())
    child.wait()
    server.stop()
    every: list[float] = []
    states: list[float] = []
    lost = 0
    for arrivals in pages:
        for event_id in range(first, bus.last_id + 1):
            arrived = arrivals.get(str(event_id))
            if arrived is None:
                lost += 1
                continue
            ms = (arrived - bus.published[event_id]) * 1000
            every.append(ms)
            if bus.kinds[event_id] == "state":
                states.append(ms)
    return {
        "clients": len(pages),
        "moves": moves,
        "events": bus.last_id - first + 1,
        "seconds": took,
        "lost": lost,
        "all": _summary(every),
        "state": _summary(states),
    }


def _summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return {
        "n": len(ordered),
        "median": statistics.median(ordered),
        "p95": at(0.95),
        "p99": at(0.99),
        "max": ordered[-1],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=30)
    parser.add_argument("--pace", type=float, default=0.02, help="seconds between moves")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--read", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.read:
        readers(args.read, args.clients)
        return
    for pace, label in [(args.pace, f"a move every {args.pace * 1000:.0f} ms"), (0.0, "burst")]:
        figures = run(args.clients, pace, args.seed)
        a, s = figures["all"], figures["state"]
        print(
            f"{label}: {figures['clients']} pages, {figures['moves']} moves, "
            f"{figures['events']} events in {figures['seconds']:.2f} s, lost {figures['lost']}\n"
            f"  every event: median {a['median']:.1f} ms, p95 {a['p95']:.1f}, "
            f"p99 {a['p99']:.1f}, max {a['max']:.1f}\n"
            f"  state (view model): median {s['median']:.1f} ms, p95 {s['p95']:.1f}, "
            f"p99 {s['p99']:.1f}, max {s['max']:.1f}"
        )


if __name__ == "__main__":
    main()
