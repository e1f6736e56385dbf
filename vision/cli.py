"""`carolus mat` and `carolus vision calibrate|read`.

Heavy libraries are imported inside the handlers so that building the parser stays fast.
The commands' own words (bad input, what was written, a mat not found) are `said`
messages told in ``--language`` (issue 17); the catalogs (``referee.announcements``,
``web.i18n``) are imported only when something is said, at the command line's edge,
so the vision package itself imports neither. The English is word for word what it was.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


def N_(msgid: str) -> str:
    """A msgid marked for the catalogs (``-k N_``), said later."""
    return msgid


def said(msgid: str, /, **words: object) -> str:
    """`referee.announcements.said`, imported when a message is made."""
    from referee.announcements import said as message

    return message(msgid, **words)


def _language_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--language",
        metavar="LANG",
        default=None,
        help=said(
            "the command's own words: %(typed)s or %(typed2)s (default %(given)s)",
            typed="en, de, it, hu",
            typed2="fi",
            given="en",
        ),
    )


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    mat = subparsers.add_parser("mat", help=N_("write the printable mat or the default layout"))
    mat.add_argument("--png", type=Path, help=N_("write the mat as a PNG image"))
    mat.add_argument("--px-per-mm", type=float, default=4.0, help=N_("PNG resolution (default 4)"))
    mat.add_argument("--pdf", type=Path, help=N_("write the mat tiled onto sheets as a PDF"))
    mat.add_argument("--paper", choices=("A4", "A3"), default="A3", help=N_("PDF sheet size"))
    mat.add_argument(
        "--layout", type=Path, dest="layout_out", help=N_("write the default layout JSON here")
    )
    mat.add_argument("--from", type=Path, dest="layout_in", help=N_("render this layout instead"))
    _language_flag(mat)
    mat.set_defaults(handler=run_mat)

    vision = subparsers.add_parser("vision", help=N_("read the table from camera frames"))
    sub = vision.add_subparsers(dest="vision_command", metavar="COMMAND")
    cal = sub.add_parser(
        "calibrate", help=N_("learn this camera and light from a calibration frame")
    )
    cal.add_argument("image", type=Path)
    cal.add_argument("--out", type=Path, required=True, help=N_("calibration file to write"))
    cal.add_argument("--layout", type=Path, help=N_("layout file (default: the shipped mat)"))
    _language_flag(cal)
    cal.set_defaults(handler=run_calibrate)
    read = sub.add_parser("read", help=N_("print one snapshot (JSON line) per image"))
    read.add_argument("images", type=Path, nargs="+")
    read.add_argument("--calibration", type=Path)
    read.add_argument("--layout", type=Path)
    read.add_argument(
        "--fps",
        type=float,
        default=None,
        help=said("give each snapshot %(typed)s", typed="t = index / fps"),
    )
    _language_flag(read)
    read.set_defaults(handler=run_read)
    vision.set_defaults(handler=lambda args: _usage(vision))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_usage(sys.stderr)
    return 2


def _tell(args: argparse.Namespace, message: str, before: str = "") -> None:
    """A line on stderr: a `said` message in ``--language`` (English without one), the
    vision's own reasons said again where the catalogs know them (`said_reason`)."""
    from referee.announcements import translated
    from referee.terminal import for_terminal

    name = getattr(args, "language", None)
    if name:
        from web.i18n import closest, translations

        message = translated(message, translations(closest(name)))
    print(for_terminal(before + message), file=sys.stderr)


def _fail(args: argparse.Namespace, message: str, where: str = "") -> int:
    """Say why the command stops (after the file it is about), exit code 2."""
    _tell(args, said_reason(message), f"carolus: {where}: " if where else "carolus: ")
    return 2


def _clause(text: str) -> object:
    from referee.announcements import clause

    return clause(said_reason(text))


#: The vision's own reasons (`vision.calibration`, `vision.markers`, `vision.reference`:
#: plain English), each matched to the message that says it again in every language;
#: anything else is shown as the vision words it. A reason reworded there is shown in
#: English until added here.
_REASONS: tuple[tuple[str, str], ...] = (
    # `vision.reference`'s bare table: why it cannot be kept or used (alone, or as the
    # reason of a calibration file's field ``'bare_table'``: `_CLAUSED`)
    (r"the bare table could not be encoded", N_("the bare table could not be encoded")),
    (
        r"the stored bare table is not a PNG image",
        N_("the stored bare table is not a PNG image"),
    ),
    (
        r"the stored bare table is not base64 text",
        N_("the stored bare table is not base64 text"),
    ),
    (
        r"the bare table was learnt with another layout or scale \((?P<size>\d+x\d+) atlas, "
        r"this reader's is (?P<size2>\d+x\d+)\)",
        N_(
            "the bare table was learnt with another layout or scale (%(size)s atlas, this "
            "reader's is %(size2)s)"
        ),
    ),
    (
        r"(?P<file>.+): fitted (?P<field>'\w+') missing or broken \((?P<reason>.*)\)",
        N_("%(file)s: fitted %(field)s missing or broken (%(reason)s)"),
    ),
    (
        r"not a calibration frame: the mat's markers are not found",
        N_("not a calibration frame: the mat's markers are not found"),
    ),
    (
        r"not a calibration frame: the swatches for the (?P<colours>.+) cube hold no cube "
        r"\(put each piece on its calibration spot\)",
        N_(
            "not a calibration frame: the swatches for the %(colours)s cube hold no cube "
            "(put each piece on its calibration spot)"
        ),
    ),
    (r"no marker of the mat in the frame", N_("no marker of the mat in the frame")),
    (
        r"the markers found do not agree on where the mat lies",
        N_("the markers found do not agree on where the mat lies"),
    ),
    (
        r"(?P<count>\d+) of the mat's (?P<count2>\d+) markers found, at least (?P<count3>\d+) "
        r"are needed",
        N_("%(count)s of the mat's %(count2)s markers found, at least %(count3)s are needed"),
    ),
    (
        r"the (?P<count>\d+) markers found \(ids (?P<typed>[\d, ]+)\) span only "
        r"(?P<size>\d+ x \d+) mm of the (?P<size2>\d+ x \d+) mm mat: the camera must see "
        r"the whole mat \(one printed sheet is not enough\)",
        N_(
            "the %(count)s markers found (ids %(typed)s) span only %(size)s mm of the "
            "%(size2)s mm mat: the camera must see the whole mat (one printed sheet is not "
            "enough)"
        ),
    ),
    # `vision.layout`'s and `vision.calibration`'s file errors: the file, the field as the
    # file spells it (``'format'``, ``zones[3].kind``) and the value go in as they are
    (
        r"(?P<file>.+): cannot read layout file \((?P<reason>.*)\)",
        N_("%(file)s: cannot read layout file (%(reason)s)"),
    ),
    (
        r"(?P<file>.+): not a JSON layout file \(not text\)",
        N_("%(file)s: not a JSON layout file (not text)"),
    ),
    (
        r"(?P<file>.+): not a JSON layout file \((?P<reason>.*)\)",
        N_("%(file)s: not a JSON layout file (%(reason)s)"),
    ),
    (
        r"(?P<file>.+): (?P<field>(?:markers|zones)\[\d+\]\.\w+): expected a list of at least "
        r"(?P<count>\d+) \[x, y\] points",
        N_("%(file)s: %(field)s: expected a list of at least %(count)s [x, y] points"),
    ),
    (
        r"(?P<file>.+): (?P<field>(?:markers|zones)\[\d+\]\.\w+): bad point (?P<given>.*)",
        N_("%(file)s: %(field)s: bad point %(given)s"),
    ),
    (
        r"(?P<file>.+): layout must be a JSON object",
        N_("%(file)s: layout must be a JSON object"),
    ),
    (
        r"(?P<file>.+): field (?P<field>'\w+') is (?P<given>.*), expected (?P<typed>'[^']*')",
        N_("%(file)s: field %(field)s is %(given)s, expected %(typed)s"),
    ),
    (
        r"(?P<file>.+): field (?P<field>'\w+') must be \[width, height\] in mm",
        N_("%(file)s: field %(field)s must be [width, height] in mm"),
    ),
    (
        r"(?P<file>.+): field (?P<field>'\w+') needs at least (?P<count>\d+) markers",
        N_("%(file)s: field %(field)s needs at least %(count)s markers"),
    ),
    (
        r"(?P<file>.+): (?P<field>markers\[\d+\]) needs an integer (?P<typed>'id')",
        N_("%(file)s: %(field)s needs an integer %(typed)s"),
    ),
    (
        r"(?P<file>.+): field (?P<field>'\w+') must be a list",
        N_("%(file)s: field %(field)s must be a list"),
    ),
    (
        r"(?P<file>.+): field (?P<field>'\w+') must be an object",
        N_("%(file)s: field %(field)s must be an object"),
    ),
    (
        r"(?P<file>.+): zones need territories 1\.\.15, found (?P<given>\[.*\])",
        N_("%(file)s: zones need territories 1..15, found %(given)s"),
    ),
    (
        r"(?P<file>.+): zones need a court for at least (?P<count>\d+) seats",
        N_("%(file)s: zones need a court for at least %(count)s seats"),
    ),
    (
        r"(?P<file>.+): seat (?P<given>'.*') needs one reserve and disc slots 1\.\.5",
        N_("%(file)s: seat %(given)s needs one reserve and disc slots 1..5"),
    ),
    (
        r"(?P<file>.+): zones need exactly one (?P<typed>'pool')",
        N_("%(file)s: zones need exactly one %(typed)s"),
    ),
    (
        r"(?P<file>.+): cannot read calibration \((?P<reason>.*)\)",
        N_("%(file)s: cannot read calibration (%(reason)s)"),
    ),
    (
        r"(?P<file>.+): not a calibration file \((?P<reason>.*)\)",
        N_("%(file)s: not a calibration file (%(reason)s)"),
    ),
    (
        r"(?P<file>.+): field (?P<field>'\w+') is not (?P<typed>'[^']*')",
        N_("%(file)s: field %(field)s is not %(typed)s"),
    ),
    (
        r"(?P<file>.+): field (?P<field>'\w+') missing",
        N_("%(file)s: field %(field)s missing"),
    ),
    (
        r"(?P<file>.+): field (?P<field>'\w+') is not text",
        N_("%(file)s: field %(field)s is not text"),
    ),
    (
        r"calibration: field (?P<field>'\w+'): (?P<reason>.*)",
        N_("calibration: field %(field)s: %(reason)s"),
    ),
    (
        r"(?P<file>.+): field (?P<field>'\w+'): (?P<reason>.*)",
        N_("%(file)s: field %(field)s: %(reason)s"),
    ),
    # the field and the value it holds (`'aruco_dictionary'`, `zones[3].kind`,
    # `pieces_mm.cube`): last, the widest
    (
        r"(?P<file>.+): field (?P<field>'\w+') is (?P<given>.*)",
        N_("%(file)s: field %(field)s is %(given)s"),
    ),
    (
        r"(?P<file>.+): (?P<field>zones\[\d+\]\.kind|pieces_mm\.\w+) is (?P<given>.*)",
        N_("%(file)s: %(field)s is %(given)s"),
    ),
)


#: A file's reason that ends in the vision's own (a calibration file's ``'bare_table'``
#: that `vision.reference` refuses): the message that says that one again too.
_CLAUSED = {
    "calibration: field %(field)s: %(reason)s": N_("calibration: field %(field)s: %(clause)s"),
    "%(file)s: field %(field)s: %(reason)s": N_("%(file)s: field %(field)s: %(clause)s"),
}


def said_reason(text: str) -> str:
    """``text`` as a `said` message where it is one of `_REASONS`, else as it is: the
    vision's plain-English reasons, said again in any language (`carolus follow` and
    `carolus run` say a layout or calibration file's error with it too)."""
    if type(text) is not str:  # a `said` message already
        return text
    for pattern, msgid in _REASONS:
        found = re.fullmatch(pattern, text, re.S)
        if found:
            words: dict[str, object] = dict(found.groupdict())
            if "colours" in words:
                words["colours"] = str(words["colours"]).split(", ")
            for key in ("count", "count2", "count3"):
                if key in words:
                    words[key] = int(str(words[key]))
            inner = said_reason(str(words["reason"])) if msgid in _CLAUSED else None
            if inner is not None and type(inner) is not str:
                from referee.announcements import clause

                msgid, words["clause"] = _CLAUSED[msgid], clause(inner)
                del words["reason"]
            message = said(msgid, **words)
            return message if message == text else text  # the English, word for word
    return text


def run_mat(args: argparse.Namespace) -> int:
    from vision import mat
    from vision.layout import LayoutError, default_layout_path, load_layout

    if not (args.png or args.pdf or args.layout_out):
        return _fail(
            args,
            said(
                "mat: give %(typed)s, %(typed2)s or %(typed3)s",
                typed="--png FILE",
                typed2="--pdf FILE",
                typed3="--layout FILE",
            ),
        )
    if args.px_per_mm <= 0 or args.px_per_mm > 40:
        return _fail(
            args,
            said(
                "mat: %(option)s %(given)s must be in (0, 40]",
                option="--px-per-mm",
                given=args.px_per_mm,
            ),
        )
    try:
        layout = load_layout(args.layout_in)
    except LayoutError as exc:
        return _fail(args, str(exc))
    try:
        if args.layout_out:
            source = args.layout_in or default_layout_path()
            args.layout_out.write_text(Path(source).read_text(encoding="utf-8"), encoding="utf-8")
        if args.png:
            mat.write_png(layout, args.png, args.px_per_mm)
        if args.pdf:
            sheets = mat.write_pdf(layout, args.pdf, args.paper)
            _tell(
                args,
                said(
                    "%(file)s: %(count)s %(typed)s sheets",
                    file=str(args.pdf),
                    count=sheets,
                    typed=args.paper,
                ),
            )
    except OSError as exc:
        return _fail(args, said("mat: %(reason)s", reason=str(exc)))
    return 0


def load_image(path: Path) -> np.ndarray:
    """The image in ``path`` (any name, any folder); `ValueError` with a `said` message
    naming the file when it cannot be read or is no image (`carolus follow` reads its
    image folders with it too)."""
    import cv2
    import numpy as np

    try:
        data = np.fromfile(str(path), np.uint8)
    except OSError as exc:
        reason = str(exc.strerror or exc)
        message = said("%(file)s: cannot read (%(reason)s)", file=str(path), reason=reason)
        raise ValueError(message) from exc
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None:
        raise ValueError(said("%(file)s: not an image file", file=str(path)))
    return img


def _words(exc: Exception) -> str:
    """The words an error was raised with, a `said` message kept as one."""
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, str) else str(exc)


def run_calibrate(args: argparse.Namespace) -> int:
    from vision.calibration import CalibrationError, calibrate, save
    from vision.layout import LayoutError, load_layout

    try:
        layout = load_layout(args.layout)
        frame = load_image(args.image)
        try:
            calib = calibrate(frame, layout)
        except CalibrationError as exc:
            return _fail(args, str(exc), str(args.image))
        save(calib, args.out)
    except (LayoutError, ValueError) as exc:
        return _fail(args, _words(exc))
    except OSError as exc:
        return _fail(
            args,
            said(
                "%(file)s: cannot write (%(reason)s)",
                file=str(args.out),
                reason=str(exc.strerror or exc),
            ),
        )
    _tell(
        args,
        said(
            "%(file)s: %(count)s markers, %(count2)s colours",
            file=str(args.out),
            count=calib["markers_seen"],
            count2=len(calib["colours"]),
        ),
    )
    return 0


def run_read(args: argparse.Namespace) -> int:
    from vision.calibration import CalibrationError, load, reader_for
    from vision.layout import LayoutError, load_layout

    if args.fps is not None and args.fps <= 0:
        return _fail(
            args,
            said(
                "vision read: %(option)s %(given)s must be positive", option="--fps", given=args.fps
            ),
        )
    try:
        layout = load_layout(args.layout)
        calib = load(args.calibration) if args.calibration else None
        reader = reader_for(layout, calib)
    except (LayoutError, CalibrationError) as exc:
        return _fail(args, str(exc))
    for path in args.images:
        if not path.is_file():
            return _fail(args, said("%(file)s: no such image file", file=str(path)))
    for i, path in enumerate(args.images):
        try:
            frame = load_image(path)
        except ValueError as exc:
            return _fail(args, _words(exc))
        t = i / args.fps if args.fps else None
        snap = reader.read(frame, t)
        if not snap.mat:
            failure = getattr(reader.locator, "failure", None)
            why = said_reason(failure) if failure else said("the mat is not in view")
            _tell(
                args,
                said("%(file)s: mat not found: %(clause)s", file=str(path), clause=_clause(why)),
                "carolus: ",
            )
        sys.stdout.write(json.dumps(snap.to_json(), separators=(",", ":")) + "\n")
        sys.stdout.flush()
    return 0
