"""Camera height for the mat: field-of-view arithmetic behind hardware/camera.md.

    .venv/bin/python hardware/fov.py [--mat 900] [--margin 50]

A camera looking straight down from height h sees a rectangle 2·h·tan(FOV/2) wide in each
direction. The mat must fit the *short* side of the picture (the vertical field of view
for these 16:9 and 4:3 sensors), with a margin all round for hands and wobble.
"""

from __future__ import annotations

import argparse
import math

#: name, horizontal and vertical field of view (degrees), picture sizes used (w, h)
CAMERAS = [
    ("Camera Module 3 (SC0872)", 66.0, 41.0, [(2304, 1296), (4608, 2592)]),
    ("Camera Module 3 Wide (SC0874)", 102.0, 67.0, [(2304, 1296), (4608, 2592)]),
    # HQ camera (SC0261): IMX477 active area 6.287 x 4.712 mm, with a lens of focal f
    (
        "HQ camera + 6 mm CS lens",
        2 * math.degrees(math.atan(6.287 / 2 / 6)),
        2 * math.degrees(math.atan(4.712 / 2 / 6)),
        [(2028, 1520), (4056, 3040)],
    ),
    (
        "HQ camera + 16 mm C lens",
        2 * math.degrees(math.atan(6.287 / 2 / 16)),
        2 * math.degrees(math.atan(4.712 / 2 / 16)),
        [(2028, 1520), (4056, 3040)],
    ),
]


def height_mm(cover_mm: float, fov_deg: float) -> float:
    """Height at which a field of view of ``fov_deg`` spans ``cover_mm``."""
    return cover_mm / 2 / math.tan(math.radians(fov_deg) / 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mat", type=float, default=900.0, help="mat side in mm")
    parser.add_argument("--margin", type=float, default=50.0, help="margin each side in mm")
    parser.add_argument("--cube", type=float, default=8.0, help="cube edge in mm")
    args = parser.parse_args()
    cover = args.mat + 2 * args.margin
    print(f"mat {args.mat:.0f} mm + {args.margin:.0f} mm margin = {cover:.0f} mm to cover\n")
    print(
        "| camera | FOV h x v | height (mat only) | height (with margin) | "
        "seen at that height | px/mm, cube px |"
    )
    print("|---|---|---|---|---|---|")
    for name, hfov, vfov, sizes in CAMERAS:
        h = height_mm(cover, vfov)
        wide = 2 * h * math.tan(math.radians(hfov) / 2)
        px = ", ".join(
            f"{w}x{hh}: {hh / cover:.2f}, {args.cube * hh / cover:.0f}" for w, hh in sizes
        )
        print(
            f"| {name} | {hfov:.1f}° x {vfov:.1f}° | {height_mm(args.mat, vfov):.0f} mm | "
            f"{h:.0f} mm | {wide:.0f} x {cover:.0f} mm | {px} |"
        )


if __name__ == "__main__":
    main()
