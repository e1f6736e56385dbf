"""Whole games through the camera: does `carolus follow` get the record right from frames?

The vision benchmark judges single frames; a player lives whole games, where one misread
that holds becomes a wrong record or a buzzer alarm. This benchmark plays self-played
games (2, 3 and 4 players, cut to the first ``--rounds`` rounds) onto the simulated
table (`referee.table.simulate`: hands on, the simulator's own misreads off, so every
misread comes from the vision), draws every snapshot as a camera frame with
`vision.render.table.TableRenderer` (5 frames a second, mild or hard light), writes the
frames as JPEG like the camera pipeline, and runs the real command on them:

    carolus vision calibrate CALIBRATION-FRAME --out CALIB
    carolus follow FRAMES --players ... --calibration CALIB --record OUT --json

It reports per game: record exact (the moves equal the played ones), set-up right,
turns right (turns equal to the played turn at the same place), illegal acts made and
caught, `illegal` alarms raised and false ones, `question` events, and the follow run's
frames per second.

The appliance is used by people who answer its questions (Confirm / No on the buttons
or the page), so by default a truthful person plays along: `carolus follow --ask`, and
this script answers each question from the true table at the question's time
(``snapshots.jsonl``): yes when the camera's counts for the zone are true, else no, and
a correction (``territory 7 = 1 pink``) when the referee cannot take a no. The questions
asked are the price and are reported with the answers. ``--nobody`` follows with
nobody answering, as before.

    .venv/bin/python benchmarks/camera_games.py --quick      # one 2-player round, mild
    .venv/bin/python benchmarks/camera_games.py              # 2/3/4 players x mild/hard
    .venv/bin/python benchmarks/camera_games.py --rounds 0   # whole games (long)

Rendering is the slow part (0.3-1.5 s a frame on one core, by the machine's load), so each
game's frames are cached (``--cache``, default ``/var/tmp/carolus-camera-games``) with
the calibration frame, the players argument, the expected record and the illegal acts
beside them; a game already rendered is reused. Reported games use held-out seeds
(900000 and up), never used for tuning; ``--tune`` uses seeds below 10000.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import hashlib
import importlib
import inspect
import json
import multiprocessing
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

if TYPE_CHECKING:
    from referee.record import Record
    from vision.layout import Layout
    from vision.render.table import TableRenderer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_CACHE = Path("/var/tmp/carolus-camera-games")
HELD_OUT_SEED = 900_000  # reported games: never used while tuning
TUNE_SEED = 1_000  # --tune: below 10000, like every tuning set
FPS = 5.0
WIDTH, HEIGHT, PX_PER_MM = 2304, 1296, 1.3  # the Pi camera's main mode, as the appliance
JPEG_QUALITY = 90  # as the camera pipeline stores frames
LIGHTS = ("mild", "hard")
FOLLOW_TIMEOUT_S = 3 * 3600
FRAMES_VERSION = "v3"  # bump when what this script draws changes (in the cache key)


class UsageError(Exception):
    """A bad argument or a missing tool: one line for the user, never a traceback."""


# ------------------------------------------------------------- the renderer we have


@dataclasses.dataclass(frozen=True)
class RenderCaps:
    """What `TableRenderer` offers in this checkout: a colleague is extending it (hard
    light, varieties of tiles, light that drifts with time, its own calibration frame),
    and this script must run both before and after that change."""

    hard: bool  # TableRenderer(..., hard=...) exists
    variety: str | None  # the variety used ("wide" when offered), None: no such option
    drift: bool  # frame(..., t=...) exists: the light drifts with time
    calibration_frame: bool  # TableRenderer.calibration_frame exists

    def describe(self) -> str:
        return ", ".join(
            [
                "hard light "
                + ("native (hard=True)" if self.hard else "emulated (hard base scene)"),
                f"variety {self.variety!r}" if self.variety else "variety: not offered (classic)",
                "light drifts with t" if self.drift else "light steady (no t in frame())",
                "calibration frame "
                + (
                    "TableRenderer.calibration_frame"
                    if self.calibration_frame
                    else "from calibration_scene"
                ),
            ]
        )

    def tag(self) -> str:
        """The part of a cache key that changes what is drawn."""
        return "-".join(
            [
                self.variety or "classic",
                "drift" if self.drift else "steady",
                "hardn" if self.hard else "harde",
                "calf" if self.calibration_frame else "cals",
            ]
        )


def detect_caps(layout: Layout, want_variety: str = "wide") -> RenderCaps:
    """Look at `TableRenderer` as it is now (signatures, attributes), and try the wanted
    variety once: an option may exist and still refuse a value."""
    from vision.render.table import TableRenderer

    params = inspect.signature(TableRenderer.__init__).parameters
    frame_params = inspect.signature(TableRenderer.frame).parameters
    variety: str | None = None
    if "variety" in params:
        variety = want_variety
        try:
            make: Any = TableRenderer
            make(layout, seed=0, width=320, height=180, px_per_mm=0.2, variety=variety)
        except (ValueError, KeyError, TypeError):
            variety = "classic"
    return RenderCaps(
        hard="hard" in params,
        variety=variety,
        drift="t" in frame_params,
        calibration_frame=hasattr(TableRenderer, "calibration_frame"),
    )


def make_renderer(layout: Layout, seed: int, hard: bool, caps: RenderCaps) -> TableRenderer:
    """One fixed camera over one mat. The wide variety picks its own Pi camera mode and
    scale from the seed (cameras differ between homes); otherwise the appliance's main
    mode. Without a native ``hard`` option the base scene (camera, light, tile art) is
    swapped for one drawn with ``random_scene(hard=True)``: the piece spots depend on the
    seed alone, so only the camera and the light change."""
    from vision.render import scene as sc
    from vision.render.table import TableRenderer

    kwargs: dict[str, Any] = {"seed": seed}
    if caps.variety != "wide":
        kwargs.update(width=WIDTH, height=HEIGHT, px_per_mm=PX_PER_MM)
    if caps.hard:
        kwargs["hard"] = hard
    if caps.variety is not None:
        kwargs["variety"] = caps.variety
    renderer = TableRenderer(layout, **kwargs)
    if hard and not caps.hard:
        base = sc.random_scene(
            layout,
            np.random.default_rng(seed),
            hard=True,
            width=WIDTH,
            height=HEIGHT,
            px_per_mm=PX_PER_MM,
        )
        base.hands = []
        renderer.base = base
    return renderer


def calibration_frame(
    layout: Layout, renderer: TableRenderer, seed: int, caps: RenderCaps
) -> np.ndarray:
    """Tiles and every swatch holding its piece, under the game's camera and light (at
    the game's start, where the light drifts)."""
    from vision.render import scene as sc

    if caps.calibration_frame:
        method: Any = renderer.calibration_frame  # type: ignore[attr-defined,unused-ignore]
        if "t" in inspect.signature(method).parameters:
            return np.asarray(method(seed=seed, t=0.0))
        return np.asarray(method(seed=seed))
    scene = sc.with_changes(
        renderer.base, sc.calibration_scene(layout, np.random.default_rng(seed)).pieces
    )
    scene.with_boards = False
    scene.hands = []
    return sc.render(layout, scene, seed)


def draw(
    renderer: TableRenderer, snapshot: dict[str, Any], seed: int, caps: RenderCaps
) -> np.ndarray:
    """The camera frame of one snapshot. A snapshot without the mat (a hand over the
    markers) is a dark frame, as in the demo."""
    if not snapshot.get("mat", True):
        camera = renderer.base.camera
        return np.full((camera.height, camera.width, 3), 40, np.uint8)
    if caps.drift:
        frame: Any = renderer.frame
        return np.asarray(frame(snapshot, seed=seed, t=snapshot.get("t")))
    return renderer.frame(snapshot, seed=seed)


def renderer_source_hash() -> str:
    """Which renderer drew the cached frames (reported, not enforced: frames drawn by an
    older renderer are still true frames of their table)."""
    digest = hashlib.sha256()
    for path in sorted((ROOT / "vision" / "render").glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


# ------------------------------------------------------------------------ games


@dataclasses.dataclass(frozen=True)
class GameSpec:
    players: int
    seed: int
    rounds: int  # 0: the whole game
    illegal: float
    light: str

    def key(self, caps: RenderCaps) -> str:
        rounds = f"r{self.rounds}" if self.rounds else "whole"
        return (
            f"p{self.players}-s{self.seed}-{rounds}-i{self.illegal:g}-{self.light}-"
            f"{caps.tag()}-{FRAMES_VERSION}"
        )


@dataclasses.dataclass
class Played:
    players_arg: str
    record: Record
    snapshots: list[dict[str, Any]]
    illegal: list[dict[str, Any]]


def play(spec: GameSpec) -> Played:
    """The game, cut to its first rounds, played onto the simulated table."""
    from referee.record import Record
    from referee.selfplay import greedy_player, play_game, table_players
    from referee.table.simulate import Options, simulate

    players = table_players(spec.players)
    game = play_game(players, random.Random(spec.seed), [greedy_player] * spec.players)
    full = Record.from_game(game, {"seed": spec.seed, "benchmark": "camera_games"})
    rounds = full.rounds[: spec.rounds] if spec.rounds else full.rounds
    record = Record(full.setup, rounds, full.meta)
    options = Options(flicker=0.0, illegal=spec.illegal, fps=FPS)
    stream = simulate(record, random.Random(spec.seed), options)
    acts = [dataclasses.asdict(a) for a in stream.illegal]
    players_arg = ",".join(f"{p.seat}={p.name}:{p.castles}" for p in players)
    return Played(players_arg, record, stream.snapshots, acts)


# -------------------------------------------------------------- rendering workers

_RENDERERS: dict[tuple[int, bool, RenderCaps], TableRenderer] = {}
_LAYOUT: list[Layout] = []


def _worker_init() -> None:
    cv2.setNumThreads(1)  # one process per core: timings are single-core figures


Group = tuple[dict[str, Any], list[int]]  # a frame to draw, and the indices showing it


def _render_chunk(job: tuple[int, bool, RenderCaps, str, list[Group]]) -> list[float]:
    """Draw a run of distinct frames (in a worker) and write each to every index that
    shows it; the seconds each drawing took."""
    seed, hard, caps, folder, groups = job
    if not _LAYOUT:
        from vision.layout import load_layout

        _LAYOUT.append(load_layout())
    key = (seed, hard, caps)
    if key not in _RENDERERS:
        _RENDERERS.clear()
        _RENDERERS[key] = make_renderer(_LAYOUT[0], seed, hard, caps)
    renderer = _RENDERERS[key]
    took = []
    for snapshot, indices in groups:
        start = time.perf_counter()
        # One camera, one seed: the seed also draws the table around the mat and the
        # pieces' texture, so a seed per frame would make every frame look like motion.
        frame = draw(renderer, snapshot, seed, caps)
        data = encode_jpeg(frame)
        took.append(time.perf_counter() - start)
        for index in indices:
            write_atomic(Path(folder) / f"frame-{index:05}.jpg", data)
    return took


def encode_jpeg(frame: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return bytes(data.tobytes())


def write_atomic(path: Path, data: bytes) -> None:
    """A half-written frame from an interrupted run is never read (nor reused)."""
    tmp = path.with_suffix(".jpg.part")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def distinct_frames(snapshots: list[dict[str, Any]], caps: RenderCaps) -> list[Group]:
    """Snapshots that draw the same frame, grouped: a table state held for 5-7 frames is
    drawn once. A hand depends on the time (so does the light, where it drifts), so
    those frames are each their own."""
    groups: dict[str, Group] = {}
    for index, snapshot in enumerate(snapshots):
        timeless = snapshot.get("mat", True) and not snapshot.get("occluded") and not caps.drift
        shown = {k: v for k, v in snapshot.items() if k != "t" or not timeless}
        key = json.dumps(shown, sort_keys=True)
        groups.setdefault(key, (snapshot, []))[1].append(index)
    return list(groups.values())


def chunks(items: list[Group], size: int) -> Iterator[list[Group]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def prepare(
    spec: GameSpec, caps: RenderCaps, cache: Path, pool: Any, layout: Layout, rerender: bool
) -> Path:
    """The game's folder with every frame drawn (reusing what an earlier run drew)."""
    folder = cache / spec.key(caps)
    frames = folder / "frames"
    meta_path = folder / "meta.json"
    if rerender and folder.exists():
        shutil.rmtree(folder)
    if meta_path.exists():
        meta = json.loads(meta_path.read_text())
        print(
            f"  {folder.name}: {meta['frames']} frames cached "
            f"(drawn {meta['render_s_per_frame']:.2f} s/frame, renderer {meta['renderer']}"
            f"{'' if meta['renderer'] == renderer_source_hash() else ', not the current one'})",
            flush=True,
        )
        return folder
    played = play(spec)
    stream = "".join(json.dumps(s, separators=(",", ":")) + "\n" for s in played.snapshots)
    truth = folder / "snapshots.jsonl"
    if frames.exists() and (not truth.exists() or truth.read_text() != stream):
        # frames of an interrupted run of another stream (the simulator changed since)
        shutil.rmtree(frames)
    frames.mkdir(parents=True, exist_ok=True)
    (folder / "players.txt").write_text(played.players_arg + "\n")
    (folder / "expected-record.json").write_text(played.record.dumps())
    (folder / "illegal.json").write_text(json.dumps(played.illegal, indent=1) + "\n")
    truth.write_text(stream)
    hard = spec.light == "hard"
    renderer = make_renderer(layout, spec.seed, hard, caps)
    calibration = calibration_frame(layout, renderer, spec.seed, caps)
    write_atomic(folder / "calibration.jpg", encode_jpeg(calibration))
    total = len(played.snapshots)
    todo = [
        (snapshot, [i for i in indices if not (frames / f"frame-{i:05}.jpg").exists()])
        for snapshot, indices in distinct_frames(played.snapshots, caps)
    ]
    todo = [(snapshot, indices) for snapshot, indices in todo if indices]
    print(
        f"  {folder.name}: {total} snapshots, {len(played.illegal)} illegal acts; "
        f"drawing {len(todo)} distinct frames",
        flush=True,
    )
    took: list[float] = []
    start = time.perf_counter()
    last_report = start
    jobs = [(spec.seed, hard, caps, str(frames), chunk) for chunk in chunks(todo, 8)]
    results = pool.imap_unordered(_render_chunk, jobs) if pool else map(_render_chunk, jobs)
    for result in results:
        took += result
        now = time.perf_counter()
        if now - last_report > 30 or len(took) == len(todo):
            last_report = now
            rate = len(took) / (now - start)
            eta = (len(todo) - len(took)) / rate if rate else 0
            print(
                f"    drawn {len(took)}/{len(todo)}  {statistics.mean(took):.2f} s a frame on "
                f"one core, {rate:.1f} frames/s, {eta / 60:.0f} min left",
                flush=True,
            )
    wall = time.perf_counter() - start
    meta = {
        "spec": dataclasses.asdict(spec),
        "renderer_options": caps.describe(),
        "renderer": renderer_source_hash(),
        "frames": total,
        "distinct_frames_drawn": len(took),
        "size": [renderer.base.camera.width, renderer.base.camera.height],
        "jpeg_quality": JPEG_QUALITY,
        "render_s_per_frame": statistics.mean(took) if took else 0.0,
        "render_s_per_frame_median": statistics.median(took) if took else 0.0,
        "render_wall_s": wall,
        "drawn_at": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
    }
    meta_path.write_text(json.dumps(meta, indent=1) + "\n")  # written last: the game is complete
    return folder


# --------------------------------------------------------------------- following


def carolus_command() -> Path:
    """The real command, as a user runs it."""
    for candidate in (ROOT / ".venv" / "bin" / "carolus", Path(sys.executable).parent / "carolus"):
        if candidate.exists():
            return candidate
    found = shutil.which("carolus")
    if found:
        return Path(found)
    raise UsageError("no `carolus` command: run ./test.sh (or ./run.sh) once to create .venv")


def command_env() -> dict[str, str]:
    """The command imports the project from this script's checkout (as the editable
    install does for /work/main), also when the script runs from another copy."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    return env


def turns_of(record: Record) -> list[dict[str, Any]]:
    return [turn for rnd in record.to_json()["rounds"] for turn in rnd["turns"]]


class Oracle:
    """A person at the table who answers every question truthfully: the true table is
    the simulated one (``snapshots.jsonl``) at the question's time, as the players see
    it. Yes when the camera's counts for the zone are the true ones, else no; when the
    referee cannot take the no, the true value as a correction, one part of a tile at a
    time; a question still asked after that is skipped (left standing)."""

    def __init__(self, truth: Path) -> None:
        from referee.table.snapshot import parse_snapshot, table_of

        self.truth: list[tuple[float, Any]] = []
        for line in truth.read_text().splitlines():
            snapshot = parse_snapshot(json.loads(line))
            if snapshot.trusted and snapshot.t is not None:
                self.truth.append((snapshot.t, table_of(snapshot)))
        self.times = [t for t, _ in self.truth]
        self.asked = 0  # distinct questions
        self.answers: dict[str, int] = {"yes": 0, "no": 0, "correction": 0, "skip": 0}
        self.refused = 0
        self._last: tuple[object, ...] | None = None
        self._tries = 0
        self._refused_since = False

    def table_at(self, t: float) -> Any:
        """The true table at ``t``: the last one a camera could see (no hand over it)."""
        import bisect

        i = bisect.bisect_right(self.times, t + 1e-6) - 1
        return self.truth[max(i, 0)][1]

    def refusal(self) -> None:
        self.refused += 1
        self._refused_since = True

    def reply(self, ask: dict[str, Any]) -> str:
        """The answer to one ``ask`` line of ``carolus follow --ask --json``."""
        from referee.table import doubts

        key = (ask.get("t"), ask.get("zone"), json.dumps(ask.get("counts"), sort_keys=True))
        if key == self._last and self._refused_since:
            self._tries += 1
        else:
            self._last, self._tries = key, 0
            self.asked += 1
        self._refused_since = False
        zone = str(ask["zone"])
        true = self.table_at(float(ask["t"]))
        counts = ask.get("counts")
        if self._tries == 0:
            answer = "yes" if doubts.counts(true, zone) == counts else "no"
            self.answers[answer] += 1
            return answer[0]
        fixes = self.corrections(zone, true, counts or {})
        if self._tries - 1 < len(fixes):
            self.answers["correction"] += 1
            return fixes[self._tries - 1]
        self.answers["skip"] += 1
        return "skip"

    @staticmethod
    def corrections(zone: str, true: Any, seen: dict[str, Any]) -> list[str]:
        """The corrections that make ``zone`` read as on the ``true`` table, in the
        syntax `carolus follow --ask` reads; only the parts that differ."""
        from referee.pieces import CASTLE_COLOURS, COLOURS
        from referee.table.corrections import read
        from referee.table.doubts import parts

        def cubes_words(counts: Sequence[int], names: Sequence[str]) -> str:
            said = [f"{n} {c}" for c, n in zip(names, counts, strict=True) if n]
            return ", ".join(said) or "none"

        fixes = []
        for part in parts(zone):
            value: Any = read(true, part)
            kind = part.partition(" ")[0]
            if kind == "territory":
                if {c: n for c, n in seen.items() if c in COLOURS} != {
                    c: n for c, n in zip(COLOURS, value, strict=True) if n
                }:
                    fixes.append(f"{part} = {cubes_words(value, COLOURS)}")
            elif kind == "castles":
                if {c: n for c, n in seen.items() if c in CASTLE_COLOURS} != {
                    c: n for c, n in zip(CASTLE_COLOURS, value, strict=True) if n
                }:
                    fixes.append(f"{part} = {cubes_words(value, CASTLE_COLOURS)}")
            elif kind in ("court", "reserve"):
                fixes.append(f"{part} = {cubes_words(value, COLOURS)}")
            elif kind == "emperor":
                fixes.append(f"emperor = {value if value is not None else 'none'}")
            elif kind == "cylinder":
                if value is not None:
                    fixes.append(f"{part} = {value}")
            else:
                numbers = " ".join(str(n) for n in sorted(value))
                fixes.append(f"{part} = {numbers or 'none'}")
        return fixes

    def figures(self) -> dict[str, Any]:
        return {"asked": self.asked, **self.answers, "refused": self.refused}


def follow_answering(command: list[str], oracle: Oracle, stderr: Path) -> tuple[str, int]:
    """Run ``carolus follow --ask --json`` with ``oracle`` answering each ``ask`` line;
    its stdout and exit status."""
    out: list[str] = []
    deadline = time.monotonic() + FOLLOW_TIMEOUT_S
    with stderr.open("w") as err:
        proc = subprocess.Popen(
            [*command, "--ask"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            env=command_env(),
        )
        assert proc.stdin is not None and proc.stdout is not None
        for line in proc.stdout:
            out.append(line)
            if time.monotonic() > deadline:
                proc.kill()
                raise UsageError(f"carolus follow took over {FOLLOW_TIMEOUT_S} s")
            if not line.startswith("{"):
                continue
            event = json.loads(line)
            if event.get("kind") == "answer-refused":
                oracle.refusal()
            elif event.get("kind") == "ask":
                try:
                    proc.stdin.write(oracle.reply(event) + "\n")
                    proc.stdin.flush()
                except BrokenPipeError:
                    pass
        with contextlib.suppress(BrokenPipeError):
            proc.stdin.close()
        return "".join(out), proc.wait()


def same_setup(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two records' set-ups are the same table: a reserve is a heap of cubes, so the
    order its dice were rolled in (which the camera cannot see) does not count."""

    def heap(setup: dict[str, Any]) -> dict[str, Any]:
        reserves = {name: sorted(cubes) for name, cubes in setup.get("reserves", {}).items()}
        return {**setup, "reserves": reserves}

    return heap(a) == heap(b)


KEYED = (".py", ".json", ".png", ".toml")  # what of vision/ a read depends on


def vision_key(calib: Path) -> str:
    """What the vision's reading of a game depends on: its code and fitted data (the
    renderer aside) and the calibration."""
    digest = hashlib.sha256(calib.read_bytes())
    vision = ROOT / "vision"
    for path in sorted(vision.rglob("*")):
        inside = path.relative_to(vision).parts
        if path.is_file() and inside[0] != "render" and path.suffix in KEYED:
            digest.update(str(path.relative_to(vision)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def read_once(folder: Path, calib: Path) -> Path:
    """The vision's snapshots of a game's frames, read as `carolus follow FRAMES` reads
    them (one reader, the frame's time ``i / FPS``) and kept beside the frames under
    the vision's key: a change of the referee alone is then judged in seconds, on
    exactly what the camera read."""
    from vision.calibration import load, reader_for
    from vision.layout import load_layout

    out = folder / "follow" / f"reads-{vision_key(calib)}.jsonl"
    if out.exists():
        return out
    files = sorted(p for p in (folder / "frames").iterdir() if p.suffix.lower() == ".jpg")
    reader = reader_for(load_layout(), load(calib))
    partial = out.with_suffix(".part")
    with partial.open("w") as handle:
        for i, path in enumerate(files):
            frame = cv2.imdecode(np.fromfile(str(path), np.uint8), cv2.IMREAD_COLOR)
            if frame is None:
                raise UsageError(f"{path}: not an image file")
            handle.write(json.dumps(reader.read(frame, round(i / FPS, 3)).to_json()) + "\n")
    partial.replace(out)
    return out


@dataclasses.dataclass(frozen=True)
class Alarms:
    """The `illegal` events of a follow run against the illegal acts really made."""

    caught: list[dict[str, Any]]  # acts with an alarm of their own code while they stood
    caught_any: list[dict[str, Any]]  # acts with any alarm while they stood
    missed: list[dict[str, Any]]  # acts with no alarm of their code
    false: list[dict[str, Any]]  # alarms while no act stood
    raised: int


def score_alarms(acts: Sequence[dict[str, Any]], events: Sequence[dict[str, Any]]) -> Alarms:
    """Which acts (``illegal.json``: code, what, start, end in seconds) the run's events
    caught, which it missed, and which alarms no act explains: each missed act and each
    false alarm is named in the JSON, so the next look at a game starts from its time."""
    illegal = [e for e in events if e.get("kind") == "illegal"]

    def during(e: dict[str, Any], a: dict[str, Any]) -> bool:
        return isinstance(e.get("t"), int | float) and a["start"] <= e["t"] < a["end"]

    caught = [a for a in acts if any(during(e, a) and e.get("code") == a["code"] for e in illegal)]
    return Alarms(
        caught=caught,
        caught_any=[a for a in acts if any(during(e, a) for e in illegal)],
        missed=[a for a in acts if a not in caught],
        false=[e for e in illegal if not any(during(e, a) for a in acts)],
        raised=len(illegal),
    )


def judge(
    folder: Path, carolus: Path, nobody: bool = False, reads: bool = False
) -> dict[str, Any]:
    """Calibrate, follow (a truthful person answering, or ``nobody``), and compare with
    what was played. ``reads``: follow the vision's snapshots kept by `read_once`
    rather than the frames (the same reads; the frames-per-second figure is then the
    referee's alone)."""
    from referee.record import MalformedRecordError, load

    out = folder / "follow"
    out.mkdir(exist_ok=True)
    players_arg = (folder / "players.txt").read_text().strip()
    expected = load(folder / "expected-record.json")
    acts = json.loads((folder / "illegal.json").read_text())
    meta = json.loads((folder / "meta.json").read_text())
    calib = out / "calibration.json"
    calibrated = subprocess.run(
        [str(carolus), "vision", "calibrate", str(folder / "calibration.jpg"), "--out", str(calib)],
        capture_output=True,
        text=True,
        timeout=600,
        env=command_env(),
    )
    source = folder / "frames"
    if reads and calibrated.returncode == 0:
        source = read_once(folder, calib)
    command = [str(carolus), "follow", str(source), "--players", players_arg]
    if calibrated.returncode == 0 and not reads:
        command += ["--calibration", str(calib)]
    record_path = out / "record.json"
    record_path.unlink(missing_ok=True)
    command += ["--record", str(record_path), "--json"]
    start = time.perf_counter()
    oracle = None if nobody else Oracle(folder / "snapshots.jsonl")
    if oracle is None:
        try:
            run = subprocess.run(
                command,
                capture_output=True,
                text=True,
                timeout=FOLLOW_TIMEOUT_S,
                env=command_env(),
            )
        except subprocess.TimeoutExpired:
            raise UsageError(
                f"{folder.name}: carolus follow took over {FOLLOW_TIMEOUT_S} s"
            ) from None
        stdout, returncode, stderr = run.stdout, run.returncode, run.stderr
        (out / "stderr.txt").write_text(stderr)
    else:
        stdout, returncode = follow_answering(command, oracle, out / "stderr.txt")
        stderr = (out / "stderr.txt").read_text()
    wall = time.perf_counter() - start
    (out / ("events.jsonl" if nobody else "events-answered.jsonl")).write_text(stdout)
    events = [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]
    got: Record | None = None
    if record_path.exists():
        try:
            got = load(record_path)
        except MalformedRecordError:
            got = None
    want_turns = turns_of(expected)
    got_turns = turns_of(got) if got else []
    right = sum(1 for a, b in zip(want_turns, got_turns, strict=False) if a == b)
    first_wrong = next(
        (i for i, a in enumerate(want_turns) if i >= len(got_turns) or got_turns[i] != a),
        None if len(got_turns) == len(want_turns) else len(want_turns),
    )
    alarms = score_alarms(acts, events)
    return {
        "game": folder.name,
        "frames": meta["frames"],
        "size": "x".join(str(v) for v in meta["size"]),
        "calibrated": calibrated.returncode == 0,
        "calibrate_error": calibrated.stderr.strip() if calibrated.returncode else None,
        "follow_exit": returncode,
        "follow_error": stderr.strip()[-500:] if returncode else None,
        "answered": oracle is not None,
        "answers": oracle.figures() if oracle is not None else None,
        "record_written": got is not None,
        "record_exact": got is not None and got.to_json()["rounds"] == expected.to_json()["rounds"],
        "setup_right": got is not None
        and same_setup(got.to_json()["setup"], expected.to_json()["setup"]),
        "turns": len(want_turns),
        "turns_read": len(got_turns),
        "turns_right": right,
        "first_wrong_turn": first_wrong,
        "illegal_acts": len(acts),
        "illegal_caught": len(alarms.caught),
        "illegal_caught_other_code": len(alarms.caught_any) - len(alarms.caught),
        "illegal_raised": alarms.raised,
        "illegal_false": len(alarms.false),
        "false_alarm_codes": sorted({str(e.get("code")) for e in alarms.false}),
        "illegal_missed": [{k: a[k] for k in ("code", "what", "start", "end") if k in a}
                           for a in alarms.missed],
        "false_alarms": [{"t": e.get("t"), "code": e.get("code")} for e in alarms.false],
        "questions": sum(1 for e in events if e.get("kind") == "question"),
        "events": len(events),
        "follow_s": wall,
        "follow_fps": meta["frames"] / wall if wall else 0.0,
        "render_s_per_frame": meta["render_s_per_frame"],
        "control_exact": control(folder, carolus, players_arg, expected),
    }


def control(folder: Path, carolus: Path, players_arg: str, expected: Record) -> bool:
    """The same game's true snapshots through the same `carolus follow`: a perfect
    camera must give the exact record, or the fault is in this benchmark or the
    referee, not in the vision. Costs under a second."""
    from referee.record import MalformedRecordError, load

    out = folder / "follow" / "control-record.json"
    out.unlink(missing_ok=True)
    command = [str(carolus), "follow", str(folder / "snapshots.jsonl"), "--players", players_arg]
    command += ["--record", str(out), "--json"]
    subprocess.run(command, capture_output=True, text=True, timeout=600, env=command_env())
    try:
        return bool(load(out).to_json()["rounds"] == expected.to_json()["rounds"])
    except MalformedRecordError:
        return False


def load_project() -> Layout:
    """Import what the benchmark drives, and the mat layout. Others edit this checkout
    while we run: a module they left half-changed is one clear line, not a traceback."""
    try:
        for module in ("referee.selfplay", "referee.table.simulate", "vision.render.table"):
            importlib.import_module(module)
        from vision.layout import load_layout

        return load_layout()
    except Exception as exc:  # any error while importing someone's work in progress
        where = ""
        tb = exc.__traceback__
        while tb is not None:  # the deepest line of ours, not the standard library's
            if tb.tb_frame.f_code.co_filename.startswith(str(ROOT)):
                where = f" ({tb.tb_frame.f_code.co_filename}:{tb.tb_lineno})"
            tb = tb.tb_next
        raise UsageError(f"cannot load the project: {type(exc).__name__}: {exc}{where}") from None


# ------------------------------------------------------------------------ report


def answers_cell(answers: dict[str, int] | None) -> str:
    if not answers:
        return "nobody"
    return f"{answers['yes']}/{answers['no']}/{answers['correction']}/{answers['skip']}" + (
        f" ({answers['refused']} refused)" if answers["refused"] else ""
    )


def summed(many: Sequence[dict[str, int] | None]) -> dict[str, int] | None:
    present = [m for m in many if m]
    if not present:
        return None
    return {k: sum(m[k] for m in present) for k in present[0]}


def table(results: Sequence[tuple[GameSpec, dict[str, Any]]]) -> str:
    lines = [
        "| players | light | frames | record exact | set-up right | turns right | "
        "illegal acts caught | alarms raised (false) | questions | answers (yes/no/"
        "corrected/skipped) | follow |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for spec, r in results:
        if not r["record_written"]:
            exact = "no record" + (f" (exit {r['follow_exit']})" if r["follow_exit"] else "")
        else:
            exact = "**yes**" if r["record_exact"] else "no"
        other = r["illegal_caught_other_code"]
        caught = f"{r['illegal_caught']} of {r['illegal_acts']}"
        if other:
            caught += f" (+{other} with another code)"
        lines.append(
            f"| {spec.players} | {spec.light} | {r['frames']} | {exact} | "
            f"{'yes' if r['setup_right'] else 'no'} | {r['turns_right']} of {r['turns']} | "
            f"{caught} | "
            f"{r['illegal_raised']} ({r['illegal_false']}) | {r['questions']} | "
            f"{answers_cell(r.get('answers'))} | {r['follow_fps']:.1f} frames/s |"
        )
    if len(results) > 1:
        rs = [r for _, r in results]
        lines.append(
            f"| all | | {sum(r['frames'] for r in rs)} | "
            f"{sum(r['record_exact'] for r in rs)} of {len(rs)} | "
            f"{sum(r['setup_right'] for r in rs)} of {len(rs)} | "
            f"{sum(r['turns_right'] for r in rs)} of {sum(r['turns'] for r in rs)} | "
            f"{sum(r['illegal_caught'] for r in rs)} of {sum(r['illegal_acts'] for r in rs)} | "
            f"{sum(r['illegal_raised'] for r in rs)} ({sum(r['illegal_false'] for r in rs)}) | "
            f"{sum(r['questions'] for r in rs)} | "
            f"{answers_cell(summed([r.get('answers') for r in rs]))} | "
            f"{sum(r['frames'] for r in rs) / sum(r['follow_s'] for r in rs):.1f} frames/s |"
        )
    controls = sum(r["control_exact"] for _, r in results)
    lines += [
        "",
        f"Control: the same games' true snapshots through `carolus follow` give the exact "
        f"record in {controls} of {len(results)} (a perfect camera).",
    ]
    return "\n".join(lines)


# -------------------------------------------------------------------------- main


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="camera_games.py",
        description="Whole games drawn as camera frames and refereed by the real "
        "`carolus follow`: record exact, turns right, illegal alarms.",
    )
    parser.add_argument(
        "--players", default="2,3,4", help="table sizes, comma-separated (default 2,3,4)"
    )
    parser.add_argument("--light", default="mild,hard", help="mild and/or hard (default both)")
    parser.add_argument("--games", type=int, default=1, help="games per table size (default 1)")
    parser.add_argument(
        "--first-game",
        type=int,
        default=0,
        metavar="K",
        help="start at each table size's game K (0-based; default 0): run games kept for a "
        "later check without the earlier ones",
    )
    parser.add_argument(
        "--rounds", type=int, default=3, help="rounds per game, 0 = the whole game (default 3)"
    )
    parser.add_argument(
        "--illegal",
        type=float,
        default=0.05,
        help="chance of an injected illegal act at each opportunity (default 0.05: a few a game)",
    )
    parser.add_argument(
        "--cache", type=Path, default=DEFAULT_CACHE, help=f"frames folder (default {DEFAULT_CACHE})"
    )
    parser.add_argument("--jobs", type=int, default=2, help="processes drawing frames (default 2)")
    parser.add_argument(
        "--variety",
        choices=("wide", "classic"),
        default="wide",
        help="tile and piece variety where the renderer offers it (default wide)",
    )
    parser.add_argument(
        "--tune", action="store_true", help="tuning seeds (below 10000) instead of held-out"
    )
    parser.add_argument(
        "--quick", action="store_true", help="smoke check: one 2-player game, 1 round, mild"
    )
    parser.add_argument(
        "--rerender", action="store_true", help="draw the frames again even if cached"
    )
    parser.add_argument(
        "--render-only", action="store_true", help="draw (cache) the frames, follow nothing"
    )
    parser.add_argument(
        "--nobody",
        action="store_true",
        help="nobody answers the referee's questions (default: a truthful person answers "
        "each from the true table, through carolus follow --ask)",
    )
    parser.add_argument(
        "--reads",
        action="store_true",
        help="read each game's frames once per version of the vision and follow the kept "
        "snapshots (for judging a change of the referee; frames/s is then the referee's)",
    )
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write the figures here")
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.light, args.games, args.rounds = "2", "mild", 1, 1
    try:
        args.player_counts = [int(p) for p in args.players.split(",") if p.strip()]
    except ValueError:
        parser.error(f"--players {args.players!r}: give table sizes like 2,3,4")
    if not args.player_counts or any(n not in (2, 3, 4) for n in args.player_counts):
        parser.error(f"--players {args.players!r}: table sizes are 2, 3 or 4")
    args.lights = [light.strip() for light in args.light.split(",") if light.strip()]
    if not args.lights or any(light not in LIGHTS for light in args.lights):
        parser.error(f"--light {args.light!r}: choose from {', '.join(LIGHTS)}")
    if not 1 <= args.games <= 100:
        parser.error("--games: 1 to 100 (each table size has 100 seeds)")
    if not 0 <= args.first_game <= 100 - args.games:
        parser.error(
            f"--first-game {args.first_game}: 0 to {100 - args.games} with --games "
            f"{args.games} (each table size has 100 seeds)"
        )
    if args.rounds < 0:
        parser.error("--rounds must be 0 (whole game) or more")
    if not 0 <= args.illegal <= 1:
        parser.error("--illegal is a chance between 0 and 1")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        return run(args)
    except UsageError as exc:
        print(f"camera_games: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("camera_games: interrupted (frames drawn so far stay cached)", file=sys.stderr)
        return 130
    except OSError as exc:  # the cache's disk full or not writable, a file vanished
        print(f"camera_games: {exc.filename or ''}: {exc.strerror or exc}", file=sys.stderr)
        return 2


def game_specs(args: argparse.Namespace) -> list[GameSpec]:
    """The games the arguments ask for: per table size, ``--games`` seeds from game
    ``--first-game`` on, each in every light asked."""
    base = TUNE_SEED if args.tune else HELD_OUT_SEED
    return [
        GameSpec(n, base + 100 * n + g, args.rounds, args.illegal, light)
        for n in args.player_counts
        for g in range(args.first_game, args.first_game + args.games)
        for light in args.lights
    ]


def run(args: argparse.Namespace) -> int:
    carolus = carolus_command()
    try:
        args.cache.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--cache {args.cache}: cannot create ({exc.strerror or exc})") from None
    layout = load_project()
    caps = detect_caps(layout, args.variety)
    specs = game_specs(args)
    print(
        f"camera games: {len(specs)} game(s), {'tuning' if args.tune else 'held-out'} seeds, "
        f"{args.rounds or 'all'} round(s), illegal {args.illegal:g}, "
        f"{'camera mode of the wide variety' if caps.variety == 'wide' else f'{WIDTH}x{HEIGHT}'}"
        f", JPEG q{JPEG_QUALITY} at {FPS:g} fps; cache {args.cache}",
        flush=True,
    )
    print(f"renderer: {caps.describe()}", flush=True)
    results: list[tuple[GameSpec, dict[str, Any]]] = []
    started = time.perf_counter()
    # One pool for the whole run, forked after the renderer was imported: every game is
    # drawn by the same code even if the renderer's files change during a long run.
    context = multiprocessing.get_context("fork")
    pool = context.Pool(args.jobs, initializer=_worker_init) if args.jobs > 1 else None
    try:
        folders = []
        for spec in specs:
            print(f"game {spec.players} players, {spec.light} light, seed {spec.seed}:", flush=True)
            folders.append(prepare(spec, caps, args.cache, pool, layout, args.rerender))
    except BaseException:
        if pool:
            pool.terminate()  # an interrupt: stop drawing now (what is written stays)
        raise
    if pool:
        pool.close()
        pool.join()
    if args.render_only:
        print(f"frames drawn in {(time.perf_counter() - started) / 60:.1f} min", flush=True)
        return 0
    for spec, folder in zip(specs, folders, strict=True):
        # follow runs alone: its frames-per-second figure is the machine's, not the pool's
        print(f"following {folder.name} …", flush=True)
        result = judge(folder, carolus, args.nobody, args.reads)
        results.append((spec, result))
        print(
            f"  {result['size']}: record {'exact' if result['record_exact'] else 'WRONG'}, "
            f"turns {result['turns_right']}/{result['turns']}, illegal {result['illegal_caught']}/"
            f"{result['illegal_acts']} caught, {result['illegal_false']} false alarm(s), "
            f"{result['questions']} question(s) "
            f"(answers y/n/corrected/skipped {answers_cell(result['answers'])}), "
            f"{result['follow_fps']:.1f} frames/s, "
            f"control {'exact' if result['control_exact'] else 'WRONG'}"
            + (
                f"; follow exit {result['follow_exit']}: {result['follow_error']}"
                if result["follow_exit"]
                else ""
            )
            + (
                "" if result["calibrated"] else f"; calibration failed: {result['calibrate_error']}"
            ),
            flush=True,
        )
        for act in result["illegal_missed"]:
            print(f"    missed at {act['start']:.1f} s: {act['code']} ({act['what']})", flush=True)
        for alarm in result["false_alarms"]:
            print(f"    false alarm at {alarm['t']} s: {alarm['code']}", flush=True)
    render = [r["render_s_per_frame"] for _, r in results if r["render_s_per_frame"]]
    print()
    print(f"Renderer: {caps.describe()}.")
    if render:
        print(f"Drawing a frame: {statistics.mean(render):.2f} s on one core (mean over games).")
    print(
        f"Machine: {platform.machine()} Python {platform.python_version()}, load average "
        f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}; "
        f"whole run {(time.perf_counter() - started) / 60:.1f} min."
    )
    print()
    print(table(results))
    if args.json:
        out = {
            "renderer_options": caps.describe(),
            "renderer_caps": dataclasses.asdict(caps),
            "seeds": "tuning" if args.tune else "held-out",
            "answered": not args.nobody,
            "machine": f"{platform.machine()} {platform.python_version()}",
            "load_average": list(os.getloadavg()),
            "games": [{**dataclasses.asdict(spec), **r} for spec, r in results],
        }
        try:
            args.json.write_text(json.dumps(out, indent=1) + "\n")
        except OSError as exc:
            raise UsageError(f"--json {args.json}: cannot write ({exc.strerror or exc})") from None
    return 0


if __name__ == "__main__":
    sys.exit(main())
