"""`carolus follow` on camera input: a folder of frames and a video, read by the real vision.

The frames are the demo's first turn drawn by `vision.render.table` — a game the camera
never saw as counts, only as pictures.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from firmware.demo import DemoSource, demo_record, first_turns
from referee.check import judge
from referee.record import load

PLAYERS = "south=Anna:white,north=Bob:black"


@pytest.fixture(scope="module")
def frames(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("frames")
    # a quarter of the default camera's pixels: the same turn, drawn and read faster
    demo = DemoSource(speed=0, turns=1, width=1152, height=648, drawing_process=False)
    for i, (_t, frame) in enumerate(demo.frames()):
        cv2.imwrite(str(folder / f"frame-{i:04}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return folder


def follow(source: Path, record: Path, *extra: str) -> list[dict[str, object]]:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "firmware",
            "follow",
            str(source),
            "--players",
            PLAYERS,
            "--record",
            str(record),
            "--json",
            "--ask",
            *extra,
        ],
        # a person at the table says yes to every question (the demo's reads are right;
        # a refill read with doubt is asked about before it is played)
        input="y\n" * 40,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    return [json.loads(line) for line in run.stdout.splitlines()]


def expected_moves() -> list[object]:
    game = judge(first_turns(demo_record(), 1)).game
    assert game is not None
    return list(game.move_stack)


@pytest.fixture(scope="module")
def followed(
    frames: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[list[dict[str, object]], Path]:
    """`carolus follow` on the folder of frames, run once for the module: its events and
    the record it wrote."""
    record = tmp_path_factory.mktemp("followed") / "game.json"
    return follow(frames, record, "--fps", "5"), record


def test_a_folder_of_frames_is_refereed_into_the_record(
    followed: tuple[list[dict[str, object]], Path],
) -> None:
    events, record = followed
    kinds = [e["kind"] for e in events]
    assert "setup" in kinds and "castle-built" in kinds and "illegal" not in kinds
    game = judge(load(record)).game
    assert game is not None
    moves = expected_moves()
    assert set(game.move_stack[:2]) == set(moves[:2])  # round 1 chooses in any order
    assert game.move_stack[2:] == moves[2 : len(game.move_stack)]
    assert len(game.move_stack) >= 5  # discs, cubes, emperor, refill


def test_a_video_gives_the_same_game(
    frames: Path, followed: tuple[list[dict[str, object]], Path], tmp_path: Path
) -> None:
    paths = sorted(frames.glob("*.jpg"))
    first = cv2.imread(str(paths[0]))
    video = tmp_path / "table.avi"
    writer = cv2.VideoWriter(
        str(video), cv2.VideoWriter_fourcc(*"MJPG"), 5, (first.shape[1], first.shape[0])
    )
    for path in paths:
        writer.write(cv2.imread(str(path)))
    writer.release()
    follow(video, tmp_path / "video.json")
    _events, from_frames = followed  # the folder's own run (the same frames, --fps 5)
    assert (
        json.loads((tmp_path / "video.json").read_text())["rounds"]
        == json.loads(from_frames.read_text())["rounds"]
    )
