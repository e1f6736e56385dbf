"""Camera height and the arm's lengths: the arithmetic behind hardware/camera.md.

    .venv/bin/python hardware/fov.py [--mat 900] [--margin 50]

A camera looking straight down from height h sees a rectangle 2·h·tan(FOV/2) wide in each
direction. The mat must fit the *short* side of the picture (the vertical field of view
for these 16:9 and 4:3 sensors), with a margin all round for hands and wobble.

The second table is the arm for the recommended Camera Module 3 Wide: the post, the boom,
where the Pi rides on the boom so that the 500 mm camera cable reaches it, and the lead
down to the front panel. `README.md`, `camera.md`, `mat.md` and `mount.png` quote these
numbers (a test checks that they agree).
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


#: The arm's fixed choices, mm (see camera.md, "The arm").
POST_GAP = 120.0        # from the mat's edge to the post's centre
POST = 1000.0           # the post, stock length: the boom slides on it
CAMERA_DROP = 40.0      # lens below the boom's underside (camera plate and module)
BOOM_BEYOND = 30.0      # boom past the camera and past the post on each end
PI_FROM_CAMERA = 250.0  # the Pi's case on the boom, from the camera (centre to centre)
CAMERA_CABLE = 500.0    # Raspberry Pi's own Pi 5 camera cable, the longest it makes
PANEL_RUN = 200.0       # from the foot of the post to the front panel on the table


def arm(mat: float = 900.0, margin: float = 50.0, vfov: float = 67.0) -> dict[str, float]:
    """The arm for a camera of vertical field `vfov` (default: Camera Module 3 Wide)."""
    height = height_mm(mat + 2 * margin, vfov)
    reach = mat / 2 + POST_GAP                      # post to the camera, along the boom
    boom = reach + 2 * BOOM_BEYOND
    boom_top = height + CAMERA_DROP + 20.0           # 2020 extrusion: 20 mm tall
    cable = CAMERA_DROP + PI_FROM_CAMERA + 60.0      # up, along, and a loop into the case
    lead = (reach - PI_FROM_CAMERA) + boom_top + PANEL_RUN
    return {
        "height": height,
        "boom": boom,
        "boom_top": boom_top,
        "post": POST,
        "pi_from_camera": PI_FROM_CAMERA,
        "camera_cable_run": cable,
        "camera_cable": CAMERA_CABLE,
        "panel_lead_run": lead,
        "panel_lead": 500.0 * math.ceil((lead + 150.0) / 500.0),  # stock length with slack
    }


def arm_table(numbers: dict[str, float]) -> list[str]:
    """The arm's numbers as the markdown rows camera.md quotes."""
    rows = [
        ("lens to mat", "height"),
        ("boom (2020 extrusion), cut to", "boom"),
        ("top of the boom above the table", "boom_top"),
        ("post (2020 extrusion)", "post"),
        ("Pi's case on the boom, from the camera", "pi_from_camera"),
        ("camera cable run, camera to Pi", "camera_cable_run"),
        ("camera cable (Raspberry Pi, Pi 5, 22-pin to 15-pin)", "camera_cable"),
        ("panel lead run, Pi to front panel", "panel_lead_run"),
        ("panel lead, bought length", "panel_lead"),
    ]
    return ["| part | mm |", "|---|---|"] + [f"| {name} | {numbers[key]:.0f} |"
                                          for name, key in rows]


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
    numbers = arm(args.mat, args.margin)
    assert numbers["camera_cable_run"] <= numbers["camera_cable"], "the cable cannot reach"
    print("\nThe arm for the Camera Module 3 Wide:\n")
    print("\n".join(arm_table(numbers)))


if __name__ == "__main__":
    main()
