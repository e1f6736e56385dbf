"""`carolus mat` and `carolus vision calibrate|read`.

Heavy libraries are imported inside the handlers so that building the parser stays fast.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    mat = subparsers.add_parser("mat", help="write the printable mat or the default layout")
    mat.add_argument("--png", type=Path, help="write the mat as a PNG image")
    mat.add_argument("--px-per-mm", type=float, default=4.0, help="PNG resolution (default 4)")
    mat.add_argument("--pdf", type=Path, help="write the mat tiled onto sheets as a PDF")
    mat.add_argument("--paper", choices=("A4", "A3"), default="A3", help="PDF sheet size")
    mat.add_argument("--layout", type=Path, dest="layout_out",
                     help="write the default layout JSON here")
    mat.add_argument("--from", type=Path, dest="layout_in", help="render this layout instead")
    mat.set_defaults(handler=run_mat)

    vision = subparsers.add_parser("vision", help="read the table from camera frames")
    sub = vision.add_subparsers(dest="vision_command", metavar="COMMAND")
    cal = sub.add_parser("calibrate", help="learn this camera and light from a calibration frame")
    cal.add_argument("image", type=Path)
    cal.add_argument("--out", type=Path, required=True, help="calibration file to write")
    cal.add_argument("--layout", type=Path, help="layout file (default: the shipped mat)")
    cal.set_defaults(handler=run_calibrate)
    read = sub.add_parser("read", help="print one snapshot (JSON line) per image")
    read.add_argument("images", type=Path, nargs="+")
    read.add_argument("--calibration", type=Path)
    read.add_argument("--layout", type=Path)
    read.add_argument("--fps", type=float, default=None,
                      help="give each snapshot t = index / fps")
    read.set_defaults(handler=run_read)
    vision.set_defaults(handler=lambda args: _usage(vision))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_usage(sys.stderr)
    return 2


def _fail(message: str) -> int:
    print(f"carolus: {message}", file=sys.stderr)
    return 2


def run_mat(args: argparse.Namespace) -> int:
    from vision import mat
    from vision.layout import LayoutError, default_layout_path, load_layout

    if not (args.png or args.pdf or args.layout_out):
        return _fail("mat: give --png FILE, --pdf FILE or --layout FILE")
    if args.px_per_mm <= 0 or args.px_per_mm > 40:
        return _fail(f"mat: --px-per-mm {args.px_per_mm} must be in (0, 40]")
    try:
        layout = load_layout(args.layout_in)
    except LayoutError as exc:
        return _fail(str(exc))
    try:
        if args.layout_out:
            source = args.layout_in or default_layout_path()
            args.layout_out.write_text(Path(source).read_text(encoding="utf-8"),
                                       encoding="utf-8")
        if args.png:
            mat.write_png(layout, args.png, args.px_per_mm)
        if args.pdf:
            sheets = mat.write_pdf(layout, args.pdf, args.paper)
            print(f"{args.pdf}: {sheets} {args.paper} sheets", file=sys.stderr)
    except OSError as exc:
        return _fail(f"mat: {exc}")
    return 0


def _load_image(path: Path) -> np.ndarray:
    import cv2
    import numpy as np

    try:
        data = np.fromfile(str(path), np.uint8)
    except OSError as exc:
        raise ValueError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None:
        raise ValueError(f"{path}: not an image file")
    return img


def run_calibrate(args: argparse.Namespace) -> int:
    from vision.calibration import CalibrationError, calibrate, save
    from vision.layout import LayoutError, load_layout

    try:
        layout = load_layout(args.layout)
        frame = _load_image(args.image)
        try:
            calib = calibrate(frame, layout)
        except CalibrationError as exc:
            return _fail(f"{args.image}: {exc}")
        save(calib, args.out)
    except (LayoutError, ValueError) as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"{args.out}: cannot write ({exc.strerror or exc})")
    print(f"{args.out}: {calib['markers_seen']} markers, {len(calib['colours'])} colours",
          file=sys.stderr)
    return 0


def run_read(args: argparse.Namespace) -> int:
    from vision.calibration import CalibrationError, load, reader_for
    from vision.layout import LayoutError, load_layout

    if args.fps is not None and args.fps <= 0:
        return _fail(f"vision read: --fps {args.fps} must be positive")
    try:
        layout = load_layout(args.layout)
        calib = load(args.calibration) if args.calibration else None
        reader = reader_for(layout, calib)
    except (LayoutError, CalibrationError) as exc:
        return _fail(str(exc))
    for path in args.images:
        if not path.is_file():
            return _fail(f"{path}: no such image file")
    for i, path in enumerate(args.images):
        try:
            frame = _load_image(path)
        except ValueError as exc:
            return _fail(str(exc))
        t = i / args.fps if args.fps else None
        snap = reader.read(frame, t)
        if not snap.mat:
            why = getattr(reader.locator, "failure", None) or "the mat is not in view"
            print(f"carolus: {path}: mat not found: {why}", file=sys.stderr)
        sys.stdout.write(json.dumps(snap.to_json(), separators=(",", ":")) + "\n")
        sys.stdout.flush()
    return 0
