"""The demo's frame source: what it keeps while it plays (issue 15: the appliance's peak
resident memory over a whole demo game at most 150 MB)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np

from firmware.demo import (
    KEPT_FRAMES,
    DemoSource,
    DrawingProcess,
    KeptFrames,
    Snapshots,
    _renderer,
    read_into,
    write_all,
)
from referee.table.simulate import Options, simulate


def test_the_demo_keeps_only_the_last_frames_it_drew() -> None:
    """Issue 15: every drawn frame was kept (some 9 MB each at the camera's size), 6.6 GB
    after 8 minutes. A state stands for several frames in a row: the last few serve.
    (Drawing is stubbed: what is kept is the question, not how frames look.)"""
    source = DemoSource(speed=0, width=320, height=180, drawing_process=False)
    drawn: list[Any] = []

    def draw(snapshot: dict[str, Any], seed: int = 0) -> Any:
        drawn.append(np.zeros((2, 2, 3), np.uint8))
        return drawn[-1]

    assert isinstance(source.renderer, KeptFrames)
    source.renderer.renderer.frame = draw
    frames = [frame for _t, frame in itertools.islice(source.frames(), 600)]
    assert len(source.renderer.frames) <= KEPT_FRAMES
    assert len(drawn) > 100  # many states were drawn
    assert len(drawn) < len(frames) / 2  # and each was reused while it stood


def test_the_appliance_holds_one_frame_of_the_drawing_process() -> None:
    """The frames kept for reuse stay in the drawing process; the appliance's side holds
    the frame it was given last and gets no copy of it while the table stands."""
    source = DemoSource(speed=0, width=160, height=90, turns=1)
    try:
        stream = iter(source.snapshots)
        first = next(stream)
        again = {**first, "t": first["t"] + 0.2}  # the same table a moment later
        table = {k: v for k, v in first.items() if k != "t"}
        other = next(
            s for s in stream
            if {k: v for k, v in s.items() if k != "t"} != table and not s["occluded"]
        )  # fmt: skip
        renderer = source.renderer
        assert isinstance(renderer, DrawingProcess)
        a = renderer.frame(first)
        assert renderer.frame(again) is a  # not sent again
        b = renderer.frame(other)
        assert b is not a and b.shape == (90, 160, 3)
        assert renderer.frame(first) is not b  # back to the first: sent again, a new array
        assert vars(source).keys().isdisjoint({"_frames"})  # nothing else kept here
        # the raw bytes make the frame the drawing process drew, pixel for pixel
        here = KeptFrames(_renderer(1, 160, 90), 160, 90)
        assert np.array_equal(a, here.frame(first))
        assert np.array_equal(b, here.frame(other))
    finally:
        source.close()


def test_the_snapshot_stream_is_kept_as_text_and_reads_back_the_same() -> None:
    """Some 2000 snapshots of a whole game are about 14 MB as dicts; kept as text they
    read back as they were."""
    snapshots = simulate(DemoSource(speed=0).record, random.Random(1), Options()).snapshots[:50]
    kept = Snapshots(snapshots)
    assert len(kept) == 50
    assert kept[7] == snapshots[7] and kept[-1] == snapshots[-1]
    assert kept[3:6] == snapshots[3:6]
    assert list(kept) == snapshots


def test_the_whole_snapshot_stream_is_held_compressed() -> None:
    """A whole game's stream (some 1800 snapshots, about 4 MB as text) is held in
    compressed blocks, well under 1 MB, and reads back the same in order, backwards
    and across blocks."""
    snapshots = simulate(DemoSource(speed=0).record, random.Random(1), Options()).snapshots
    kept = Snapshots(snapshots)
    assert len(snapshots) > 10 * Snapshots.BLOCK
    assert kept.nbytes < 1_000_000
    assert list(kept) == snapshots
    last = len(snapshots) - 1
    assert [kept[i] for i in (last, 0, Snapshots.BLOCK, Snapshots.BLOCK - 1)] == [
        snapshots[i] for i in (last, 0, Snapshots.BLOCK, Snapshots.BLOCK - 1)
    ]
    assert kept[60:70] == snapshots[60:70]


def test_a_frame_comes_over_the_pipe_straight_into_its_array() -> None:
    """The frame is read into the array it will be (no message gathered first, which was
    a second frame's worth of memory for a moment), however the pipe splits it."""
    import multiprocessing
    import threading

    ours, theirs = multiprocessing.Pipe()
    sent = np.random.default_rng(1).integers(0, 256, (300, 400, 3), np.uint8)
    writer = threading.Thread(
        target=write_all, args=(theirs.fileno(), memoryview(sent.reshape(-1)))
    )
    writer.start()
    got = np.empty_like(sent)
    read_into(ours.fileno(), memoryview(got.reshape(-1)))
    writer.join()
    assert np.array_equal(got, sent)
    theirs.close()
    try:
        read_into(ours.fileno(), memoryview(np.empty(4, np.uint8)))
    except EOFError:
        pass
    else:
        raise AssertionError("a closed pipe must end the read")
    ours.close()


def test_big_blocks_go_back_to_the_system_when_freed() -> None:
    """A frame's working set (tens of MB of short-lived arrays) must not stay resident
    after it is read: `carolus run` fixes glibc's mmap threshold, so a big array freed
    gives its memory back at once."""
    import subprocess
    import sys

    probe = (
        "import numpy as np, sys\n"
        "from firmware.run import give_big_blocks_back\n"
        "def rss():\n"
        "    for line in open('/proc/self/status'):\n"
        "        if line.startswith('VmRSS'): return int(line.split()[1]) // 1024\n"
        "if sys.argv[1] == 'on': assert give_big_blocks_back()\n"
        "a = np.ones(8 << 20, np.uint8); del a  # glibc's threshold climbs to 8 MB\n"
        "big, kept = [], []\n"
        # Each big array with a smaller one that stays: 1 MB, so that it follows the big
        # one on the heap (a smaller one may fall into a hole the imports left, and then
        # the freed big ones lie at the heap's top, which glibc trims anyway).
        "for _ in range(8):  # a frame's arrays, each with a smaller one that stays\n"
        "    big.append(np.ones(4 << 20, np.uint8)); kept.append(np.ones(1 << 20, np.uint8))\n"
        "del big\n"
        "print(rss())\n"
    )
    resident = {
        mode: int(subprocess.check_output([sys.executable, "-c", probe, mode], text=True))
        for mode in ("off", "on")
    }
    assert resident["on"] < resident["off"] - 10, resident
