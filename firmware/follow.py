"""``carolus follow``: referee a recorded table and write its game record.

INPUT is a ``.jsonl`` file of ``carolus-snapshot/1`` lines, a folder of images (name
order) or a video file; images and video go through `vision` first. The table referee
turns the stream into events (one JSON object per line with ``--json``, else a
commentary) and the game record. Bad input is one line on stderr and exit 2; whatever
was refereed before the bad line is still written to ``--record``. Those lines, the
progress line and the notes at the end are `said` messages told in ``--language``
(issue 17; English word for word without one).

Nobody answers the referee's questions unless ``--ask`` is given: then a person (or a
program playing one) answers each on stdin, as the buttons and the page do in the
appliance. Without answers a doubt holds the game until the camera reads differently,
which on a recording may be never.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from referee.announcements import (
    ENGLISH,
    N_,
    Translator,
    clause,
    illegal_detail,
    render,
    said,
    speaks_english,
    translated,
)
from referee.errors import RefusedError
from referee.terminal import for_terminal, json_for_terminal, say

if TYPE_CHECKING:
    from referee.table.events import Illegal, Question, TableEvent
    from referee.table.referee import TableReferee
    from vision.snapshot import Snapshot

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})
VIDEO_SUFFIXES = frozenset({".mp4", ".avi", ".mov", ".mkv", ".h264", ".webm", ".m4v"})
DEFAULT_FPS = 5.0


class InputError(ValueError):
    """The input cannot be refereed; the message (a `said` message where this module
    words it) names the file, line and field."""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.message = message
        #: the file's line or the video's frame it is about (a `said` message for a frame)
        self.where = where


def register(subparsers: Any) -> None:
    follow = subparsers.add_parser(
        "follow",
        help=N_("referee a recorded table (snapshots, images or video) and write its record"),
        description=said(
            "Referee a recorded table: %(typed)s is a %(typed2)s file of %(typed3)s lines, a "
            "folder of images (name order) or a video file. Prints the referee's events and "
            "writes the game record.",
            typed="INPUT",
            typed2=".jsonl",
            typed3="carolus-snapshot/1",
        ),
    )
    follow.add_argument(
        "input",
        metavar="INPUT",
        type=Path,
        help=said("%(typed)s, image folder or video", typed=".jsonl"),
    )
    follow.add_argument(
        "--players",
        required=True,
        metavar="SEAT=NAME:CASTLES,...",
        help=said(
            "who sits where, in record order, e.g. %(example)s",
            example="south=Anna:white,north=Bob:black",
        ),
    )
    follow.add_argument("--record", metavar="OUT", type=Path, help=N_("write the game record here"))
    follow.add_argument("--json", action="store_true", help=N_("one JSON event per line"))
    follow.add_argument(
        "--language",
        default="en",
        metavar="LANG",
        help=said(
            "the commentary's language: %(typed)s or %(typed2)s (default %(given)s; "
            "%(option)s events keep the referee's English message)",
            typed="en, de, it, hu",
            typed2="fi",
            given="en",
            option="--json",
        ),
    )
    follow.add_argument("--calibration", metavar="CALIB", type=Path, help=N_("camera calibration"))
    follow.add_argument(
        "--layout", metavar="LAYOUT", type=Path, help=N_("mat layout (default: ours)")
    )
    follow.add_argument(
        "--fps",
        type=float,
        default=None,
        metavar="N",
        help=said(
            "frames per second of an image folder (default %(count)s); for a video, read N "
            "frames a second",
            count=f"{DEFAULT_FPS:g}",
        ),
    )
    follow.add_argument(
        "--ask",
        action="store_true",
        help=said(
            "a person answers the referee's questions on %(typed)s while following: "
            "%(typed2)s (the camera is right), %(typed3)s (it is wrong: the referee keeps "
            "what it believed, or what the set-up rules leave), a correction %(typed4)s "
            "(%(example)s), or %(typed5)s (leave the question standing); a bad answer is "
            "explained and asked again; end of input stops asking. With %(option)s each wait "
            "for an answer is a line %(example2)s and a refused answer %(example3)s",
            typed="stdin",
            typed2="y",
            typed3="n",
            typed4="ZONE = VALUE",
            example="territory 7 = 1 pink, castles 7 = none, court south = 2 red 1 blue, "
            "reserve north = ..., emperor = 7, cylinder red = pool, discs south = 1 2 4",
            typed5="skip",
            option="--json",
            example2='{"kind": "ask", ...}',
            example3='{"kind": "answer-refused", ...}',
        ),
    )
    follow.set_defaults(handler=run_follow)


def parse_players(text: str) -> list[Any]:
    """``south=Anna:white,north=Bob:black`` -> seated players; `InputError` if not."""
    from referee.pieces import CASTLE_COLOURS, SEATS
    from referee.setup import Player

    players = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        seat, eq, rest = item.partition("=")
        name, colon, castles = rest.partition(":")
        seat, name, castles = seat.strip(), name.strip(), castles.strip()
        if not eq or not colon or not name:
            raise InputError(
                said(
                    "%(option)s: %(given)s is not %(typed)s",
                    option="--players",
                    given=repr(item),
                    typed="SEAT=NAME:CASTLES",
                )
            )
        if seat not in SEATS:
            raise InputError(
                said(
                    "%(option)s: unknown seat %(given)s (seats: %(typed)s)",
                    option="--players",
                    given=repr(seat),
                    typed=", ".join(SEATS),
                )
            )
        if castles not in CASTLE_COLOURS:
            raise InputError(
                said(
                    "%(option)s: %(player)s's castles %(given)s are not %(typed)s",
                    option="--players",
                    player=name,
                    given=repr(castles),
                    typed=", ".join(CASTLE_COLOURS),
                )
            )
        players.append(Player(name, castles, seat))
    return players


def run_follow(args: argparse.Namespace) -> int:
    from referee.table.events import describe
    from referee.table.referee import TableReferee
    from web.i18n import closest, translations

    tr = translations(closest(args.language))

    try:
        players = parse_players(args.players)
        referee = TableReferee(players)
    except (InputError, ValueError) as exc:
        if isinstance(exc, InputError):
            return _fail(exc.message, tr)
        why = exc.message if isinstance(exc, RefusedError) else str(exc)
        return _fail(why, tr, "--players")
    if args.fps is not None and args.fps <= 0:
        return _fail(
            said("%(option)s %(given)s: must be positive", option="--fps", given=f"{args.fps:g}"),
            tr,
        )
    seats = [p.seat for p in players]
    progress = Progress(sys.stderr, tr) if sys.stderr.isatty() else None
    error: InputError | None = None

    def emit(events: Sequence[TableEvent]) -> None:
        for event in events:
            if progress:
                progress.clear()
            if args.json:
                sys.stdout.write(json_for_terminal(event.to_json()) + "\n")
            else:
                sys.stdout.write(for_terminal(describe(event, tr)) + "\n")
            sys.stdout.flush()

    person = Person(sys.stdin, sys.stdout, args.json, tr) if args.ask else None
    try:
        for snapshot, done in snapshots(args, seats):
            emit(referee.feed(snapshot))
            if person:
                if progress:
                    progress.clear()
                person.answer(referee, emit)
            if progress:
                progress.show(snapshot.t, done)
    except InputError as exc:
        error = exc
    finally:
        if progress:
            progress.clear()
    status = _write_record(referee, args.record, tr)
    if args.record is None and referee.game is None and error is None:
        no_game = said("no game began: %(clause)s", clause=clause(_why_no_game(referee, tr)))
        say(translated(no_game, tr), file=sys.stderr)
        status = 1
    if error is not None:
        return _fail(error.message, tr, error.where)
    if referee.illegal is not None:
        note = said(
            "note: the stream ends on an illegal act: %(reason)s",
            reason=_illegal_words(referee.illegal, tr),
        )
        say(translated(note, tr), file=sys.stderr)
    return status


def _illegal_words(illegal: Illegal, tr: Translator) -> str:
    """What the illegal act was, in ``tr``'s language (the referee's English message in
    English)."""
    return str(illegal.message) if speaks_english(tr) else illegal_detail(illegal, tr)


class Person:
    """Someone at the terminal who answers the referee's questions, one line each.

    Each new question is asked once; an answer the referee cannot take (a bad zone, a
    "no" that leaves nothing to go by) is explained and the question asked again. End of
    input means nobody is there any more: the remaining questions stand unanswered, as
    in a recording nobody watches."""

    PROMPT = said(
        "Answer %(typed)s if the camera is right, %(typed2)s if it is wrong, a correction "
        "such as %(example)s, or %(typed3)s.",
        typed="y",  # what it understands, as typed
        typed2="n",
        example="territory 7 = 1 pink",
        typed3="skip",
    )

    def __init__(
        self, stdin: TextIO, stdout: TextIO, json_lines: bool, tr: Translator = ENGLISH
    ) -> None:
        self.stdin, self.stdout, self.json_lines = stdin, stdout, json_lines
        self.tr = tr  # the language of a refused answer's reason (--json keeps English)
        self.gone = False
        self.asked: object = None  # the last question asked (a new one is a new object)

    def answer(self, referee: TableReferee, emit: Callable[[Sequence[TableEvent]], None]) -> None:
        """Answer every new question standing now (answers may raise new ones)."""
        while not self.gone:
            question = referee.question
            if question is None or question is self.asked:
                return
            self.asked = question
            while True:
                self._prompt(question)
                line = self.stdin.readline()
                if not line:
                    self.gone = True
                    return
                try:
                    events = self._take(referee, line.strip())
                except ValueError as exc:
                    why = exc.message if isinstance(exc, RefusedError) else str(exc)
                    self._refuse(question, why if self.json_lines else translated(why, self.tr))
                    continue
                emit(events)
                break

    def _take(self, referee: TableReferee, line: str) -> list[TableEvent]:
        from referee.table.corrections import parse_correction

        word = line.lower()
        if word in ("y", "yes"):
            return list(referee.answer(True))
        if word in ("n", "no"):
            return list(referee.answer(False))
        if word in ("s", "skip"):
            return []
        if not line:
            raise RefusedError(said("An empty line is not an answer."))
        zone, value = parse_correction(line)
        return list(referee.correct(zone, value))

    def _prompt(self, question: Question) -> None:
        if self.json_lines:
            ask = {
                "kind": "ask",
                "t": question.t,
                "zone": question.zone,
                "part": question.part,
                "counts": question.to_json()["counts"],  # as the question's JSON writes them
                "code": question.code,
                "why": question.why,
                "question": question.message,
                "message": self.PROMPT,
            }
            self.stdout.write(json_for_terminal(ask) + "\n")
        else:
            asked = question.message if speaks_english(self.tr) else render(question, self.tr)
            prompt = translated(self.PROMPT, self.tr)  # the question and this in --language
            self.stdout.write(for_terminal(f"  {asked} {prompt}") + "\n> ")
        self.stdout.flush()

    def _refuse(self, question: Question, why: str) -> None:
        message = why[:1].upper() + why[1:]
        if not message.endswith("."):
            message += "."
        if self.json_lines:
            refused = {"kind": "answer-refused", "t": question.t, "message": message}
            self.stdout.write(json_for_terminal(refused) + "\n")
        else:
            self.stdout.write(for_terminal(f"  {message}") + "\n")
        self.stdout.flush()


def _why_no_game(referee: Any, tr: Translator = ENGLISH) -> str:
    """Why the set-up was never accepted, a `said` message: a question nobody answered
    (quoted as ``tr`` says it), a set-up that reads wrong, or no disc ever taken from
    full trays."""
    question = referee.question
    if question is not None:
        asked = question.message if speaks_english(tr) else render(question, tr)
        return said(
            "the set-up waits for an answer to %(given)s (%(typed)s lets a person answer)",
            given=repr(asked),
            typed="--ask",
        )
    if referee.illegal is not None:
        return said("the set-up is wrong: %(reason)s", reason=_illegal_words(referee.illegal, tr))
    return said(
        "the table never showed every player's 5 discs in the tray and then one leaving it "
        "(check the seats in %(option)s)",
        option="--players",
    )


def _write_record(referee: Any, out: Path | None, tr: Translator = ENGLISH) -> int:
    record = referee.record()
    if out is None:
        return 0
    if record is None:
        unwritten = said(
            "%(file)s: not written: no game began: %(clause)s",
            file=str(out),
            clause=clause(_why_no_game(referee, tr)),
        )
        say(translated(unwritten, tr), file=sys.stderr)
        return 1
    try:
        out.write_text(record.dumps(), encoding="utf-8")
    except OSError as exc:
        return _fail(
            said(
                "%(file)s: cannot write the record (%(reason)s)",
                file=str(out),
                reason=str(exc.strerror or exc),
            ),
            tr,
        )
    return 0


def _fail(message: str, tr: Translator = ENGLISH, where: str = "") -> int:
    """Say why ``carolus follow`` stops, in ``tr``'s language, after what it is about
    (``where``: a flag, a file's line, a video's frame); exit code 2."""
    said_where = f"{translated(where, tr)}: " if where else ""
    say(f"carolus follow: {said_where}{translated(message, tr)}", file=sys.stderr)
    return 2


# -------------------------------------------------------------------- inputs


def snapshots(
    args: argparse.Namespace, seats: list[str]
) -> Iterator[tuple[Snapshot, float | None]]:
    """The input as parsed snapshots, each with how much of the input is done (0..1)."""
    path: Path = args.input
    if path.is_dir():
        yield from _images(path, args, seats)
    elif not path.exists():
        raise InputError(said("%(file)s: no such file or folder", file=str(path)))
    elif path.suffix.lower() == ".jsonl":
        yield from _jsonl(path, seats)
    elif path.suffix.lower() in VIDEO_SUFFIXES:
        yield from _video(path, args, seats)
    else:
        raise InputError(
            said(
                "%(file)s: not a %(typed)s file, an image folder or a video (%(typed2)s)",
                file=str(path),
                typed=".jsonl",
                typed2=", ".join(sorted(VIDEO_SUFFIXES)),
            )
        )


def _jsonl(path: Path, seats: list[str]) -> Iterator[tuple[Snapshot, float | None]]:
    from referee.table.snapshot import SnapshotError, parse_snapshot

    try:
        size = path.stat().st_size or 1
        handle = path.open("rb")
    except OSError as exc:
        reason = str(exc.strerror or exc)
        message = said("%(file)s: cannot read (%(reason)s)", file=str(path), reason=reason)
        raise InputError(message) from None
    read = 0
    with handle:
        for number, raw in enumerate(handle, start=1):
            read += len(raw)
            if not raw.strip():
                continue
            where = f"{path}:{number}"
            try:
                data = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                reason = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
                if raw.endswith(b"\n"):
                    raise InputError(
                        said("%(file)s: not JSON: %(reason)s", file=where, reason=reason)
                    ) from None
                raise InputError(
                    said(
                        "%(file)s: not JSON: %(reason)s (the line is cut short: truncated file?)",
                        file=where,
                        reason=reason,
                    )
                ) from None
            try:
                snapshot = parse_snapshot(data)
            except SnapshotError as exc:
                raise InputError(exc.args[0], where) from None  # a `said` message: field, value
            _check_seats(snapshot, seats, where)
            yield snapshot, read / size


def _check_seats(snapshot: Snapshot, seats: list[str], where: str) -> None:
    if not snapshot.mat:
        return
    for seat in seats:
        for name, zone in (
            ("courts", snapshot.courts),
            ("reserves", snapshot.reserves),
            ("discs", snapshot.discs),
        ):
            if seat not in zone:
                raise InputError(
                    said("%(field)s: missing, but a player sits there", field=f"{name}.{seat}"),
                    where,
                )


def _vision(args: argparse.Namespace) -> Any:
    try:
        from vision.calibration import CalibrationError, load, reader_for
        from vision.layout import LayoutError, load_layout
    except (ImportError, AttributeError) as exc:
        raise InputError(
            said(
                "%(file)s: reading images needs the %(typed)s package (%(reason)s); give a "
                "%(typed2)s of snapshots instead",
                file=str(args.input),
                typed="vision",
                reason=str(exc),
                typed2=".jsonl",
            )
        ) from None
    try:
        layout = load_layout(args.layout)
        calib = load(args.calibration) if args.calibration else None
        return reader_for(layout, calib)
    except (LayoutError, CalibrationError, OSError, ValueError) as exc:
        from vision.cli import said_reason  # the vision's words said again: file, field, value

        raise InputError(said_reason(_words(exc))) from None


def _words(exc: Exception) -> str:
    """The words an error was raised with, a `said` message kept as one."""
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, str) else str(exc)


def _parse_frame(reader: Any, frame: Any, t: float, where: str, seats: list[str]) -> Snapshot:
    import cv2

    from referee.table.snapshot import SnapshotError, parse_snapshot

    try:
        snapshot = parse_snapshot(reader.read(frame, t))
    except (SnapshotError, ValueError, cv2.error) as exc:
        raise InputError(_words(exc), where) from None  # the snapshot's field and value
    _check_seats(snapshot, seats, where)
    return snapshot


def _images(
    folder: Path, args: argparse.Namespace, seats: list[str]
) -> Iterator[tuple[Snapshot, float | None]]:
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise InputError(
            said(
                "%(file)s: no images (%(typed)s) in the folder",
                file=str(folder),
                typed=", ".join(sorted(IMAGE_SUFFIXES)),
            )
        )
    reader = _vision(args)
    from vision.cli import load_image  # the one reading of an image file, and its words

    fps = args.fps or DEFAULT_FPS
    for i, path in enumerate(files):
        try:
            frame = load_image(path)
        except ValueError as exc:
            raise InputError(exc.args[0]) from None  # a `said` message naming the file
        yield _parse_frame(reader, frame, round(i / fps, 3), str(path), seats), (i + 1) / len(files)


def _video(
    path: Path, args: argparse.Namespace, seats: list[str]
) -> Iterator[tuple[Snapshot, float | None]]:
    reader = _vision(args)
    import cv2

    capture = cv2.VideoCapture(str(path))
    if not capture.isOpened():
        raise InputError(said("%(file)s: cannot open the video", file=str(path)))
    rate = capture.get(cv2.CAP_PROP_FPS) or 25.0
    total = int(capture.get(cv2.CAP_PROP_FRAME_COUNT)) or 0
    every = max(1, round(rate / args.fps)) if args.fps else 1
    index = 0
    try:
        while True:
            ok, frame = capture.read()
            if not ok:
                break
            if index % every == 0:
                where = said("%(file)s: frame %(count)s", file=str(path), count=index)
                done = (index + 1) / total if total else None
                yield _parse_frame(reader, frame, round(index / rate, 3), where, seats), done
            index += 1
    finally:
        capture.release()
    if index == 0:
        raise InputError(said("%(file)s: the video has no readable frames", file=str(path)))


class Progress:
    """A one-line progress indicator on a terminal's stderr, at most 4 updates a second,
    in ``tr``'s language."""

    def __init__(self, stream: TextIO, tr: Translator = ENGLISH) -> None:
        self.stream = stream
        self.tr = tr
        self.last = 0.0
        self.shown = False

    def show(self, t: float | None, done: float | None) -> None:
        now = time.monotonic()
        if now - self.last < 0.25:
            return
        self.last = now
        parts = []
        if done is not None:
            parts.append(f"{done * 100:5.1f}%")
        if t is not None:
            table_time = said("table time %(seconds)ss", seconds=f"{t:.1f}")
            parts.append(translated(table_time, self.tr))
        following = translated(said("following…"), self.tr)
        self.stream.write(f"\r  {following} " + "  ".join(parts) + "  ")
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * 60 + "\r")
            self.stream.flush()
            self.shown = False
