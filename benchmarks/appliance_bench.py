"""Whole-appliance figures on the demo: frames per second, latency, memory, start-up.

    .venv/bin/python benchmarks/appliance_bench.py [--turns N]
    .venv/bin/python benchmarks/appliance_bench.py --demo-game [--size WxH] [--turns N]

The demo's frames are drawn once into a folder of JPEGs, then a real `carolus run
--source images:DIR` (no web page, the game log on) referees them as fast as it can, as
the Pi would read its camera: vision, table referee, game log, display. Prints a
Markdown table for BENCHMARKS.md.

``--demo-game``: the peak resident memory of a whole demo game instead, as a newcomer
runs it (`carolus run --speed 0`: vision, referee, log, display and web page in the
appliance's process; the simulated camera drawing the frames in a process of its own,
`firmware.demo.DrawingProcess`), each process's own peak (`VmHWM`) read from /proc while
it runs: the kernel's account of a child when it ends is the larger of the two.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2

from firmware.demo import DemoSource


def _peak_rss_kb(pid: int) -> int:
    """VmHWM of a running process (after its exec, unlike getrusage of a child)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _descendants(pid: int) -> list[int]:
    """The processes `pid` started (from any of its threads), and theirs."""
    found: list[int] = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return found
    for task in tasks:
        try:
            children = [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
        for child in children:
            found += [child, *_descendants(child)]
    return found


def demo_game(size: str | None, turns: int | None = None) -> None:
    """Peak memory and time of one whole demo game, with the web page on."""
    import socket

    with socket.socket() as probe:  # a free port for the web page
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with tempfile.TemporaryDirectory() as folder:
        command = [
            sys.executable, "-m", "firmware", "run", "--speed", "0", "--exit-at-end",
            "--no-gpio", "--db", str(Path(folder) / "demo.db"), "--set", f"web.port={port}",
            "--host", "127.0.0.1",
        ]  # fmt: skip
        if turns:  # the first turns only: the peak comes early (the reader's working set)
            command += ["--demo-turns", str(turns)]
        if size:
            width, height = size.lower().split("x")
            command += ["--set", f"camera.resolution=[{int(width)}, {int(height)}]"]
        start = time.perf_counter()
        with tempfile.TemporaryFile("w+") as err:
            child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err, text=True)
            appliance_kb, camera_kb = 0, 0
            while child.poll() is None:
                appliance_kb = max(appliance_kb, _peak_rss_kb(child.pid))
                for pid in _descendants(child.pid):
                    camera_kb = max(camera_kb, _peak_rss_kb(pid))
                time.sleep(0.2)
            status = child.returncode
            wall = time.perf_counter() - start
            err.seek(0)
            said = [line for line in err.read().splitlines() if "The demo is over" in line]
    if status:
        raise SystemExit(f"carolus run failed ({status})")
    print("| what | figure |\n|---|---|")
    print(f"| camera size | {size or 'the default (2304×1296)'} |")
    print(f"| game | {f'the first {turns} turns' if turns else 'whole'} |")
    print(f"| how it ended | {said[0].strip() if said else '?'} |")
    print(f"| whole game, wall time | {wall:.0f} s |")
    print(f"| appliance process, peak resident | {appliance_kb / 1024:.0f} MB (goal ≤ 150 MB) |")
    print(f"| simulated camera process, peak resident | {camera_kb / 1024:.0f} MB |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, help="turns of the demo (default 4; --demo-game: all)")
    parser.add_argument(
        "--demo-game", action="store_true", help="a whole demo game's peak memory instead"
    )
    parser.add_argument("--size", metavar="WxH", help="--demo-game: the demo camera's size")
    args = parser.parse_args()
    if args.demo_game:
        demo_game(args.size, args.turns)
        return
    source = DemoSource(speed=0, turns=args.turns or 4)
    players = ",".join(f"{p.seat}={p.name}:{p.castles}" for p in source.players)
    rows: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory() as folder:
        for i, (_t, frame) in enumerate(source.frames()):
            cv2.imwrite(f"{folder}/frame-{i:05}.jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
        frames = len(source.snapshots)
        db = Path(folder) / "log.db"
        command = [
            sys.executable,
            "-m",
            "firmware",
            "run",
            "--source",
            f"images:{folder}",
            "--players",
            players,
            "--no-web",
            "--no-gpio",
            "--exit-at-end",
            "--db",
            str(db),
            "-v",
        ]
        start = time.perf_counter()
        with tempfile.TemporaryFile("w+") as err:
            child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err, text=True)
            peak_kb = 0
            while child.poll() is None:
                peak_kb = max(peak_kb, _peak_rss_kb(child.pid))
                time.sleep(0.1)
            wall = time.perf_counter() - start
            if child.returncode:
                raise SystemExit(f"carolus run failed ({child.returncode})")
            err.seek(0)
            stderr = err.read()
        rss_mb = peak_kb / 1024
        startup = next(
            float(line.rsplit("started in ", 1)[1].split(" s")[0])
            for line in stderr.splitlines()
            if "started in" in line
        )
        events = sum(1 for line in stderr.splitlines() if " INFO " in line)
        rows.append(("frames refereed (2304×1296 JPEGs, vision + referee + log)", f"{frames}"))
        rows.append(("frames analysed per second", f"{frames / (wall - startup):.1f}"))
        rows.append(("start-up (command to first frame)", f"{startup:.1f} s"))
        rows.append(("resident memory, peak", f"{rss_mb:.0f} MB"))
        rows.append(("events logged and announced", f"{events}"))

    # latency: a settled change is announced on the 3rd trusted frame of the new state
    # (the settler's majority of 3 in 5); at the Pi's 5 frames a second that is 0.4 s
    # after the first frame that shows it, plus one frame's processing.
    from firmware.appliance import Appliance
    from firmware.config import load_config
    from firmware.run import _eyes

    eyes = _eyes(load_config())
    appliance = Appliance(source.players)
    cost: list[float] = []
    for t, frame in DemoSource(speed=0, turns=1).frames():
        begin = time.perf_counter()
        events = appliance.feed(eyes.read(frame, t))
        if events:
            cost.append(time.perf_counter() - begin)
    worst = max(cost) * 1000
    rows.append(
        (
            "latency, settled change to announcement",
            f"2 frames after the first sight (0.4 s at 5 fps) + ≤ {worst:.0f} ms processing",
        )
    )
    print("| what | figure |\n|---|---|")
    for what, figure in rows:
        print(f"| {what} | {figure} |")


if __name__ == "__main__":
    main()
