"""Draw hardware/mount.png: side view of the camera arm over the mat, to scale.

    .venv/bin/python hardware/mount.py [OUT.png]

The camera height and the arm's lengths come from hardware/fov.py (Camera Module 3 Wide:
the mat plus a 50 mm margin fills the picture's short side; the Pi rides on the boom).
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fov import CAMERA_DROP, PI_FROM_CAMERA, POST, POST_GAP, arm

MAT, MARGIN, VFOV = 900.0, 50.0, 67.0  # mm, mm, degrees (Camera Module 3 Wide)
SCALE = 0.62  # px per mm
W, H = 1000, 780
INK, GREY, BLUE = (20, 20, 20), (140, 140, 140), (40, 90, 200)


def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def main(out: Path) -> None:
    numbers = arm(MAT, MARGIN, VFOV)
    h = numbers["height"]
    image = Image.new("RGB", (W, H), (255, 255, 255))
    d = ImageDraw.Draw(image)
    table_y = H - 150
    x0 = 110  # mat's left edge

    def px(x_mm: float, z_mm: float) -> tuple[float, float]:
        return (x0 + x_mm * SCALE, table_y - z_mm * SCALE)

    # table and mat
    d.rectangle((*px(-60, 0), *px(MAT + POST_GAP + 120, -30)), fill=(205, 175, 130), outline=INK)
    d.rectangle((*px(0, 6), *px(MAT, 0)), fill=(90, 140, 90), outline=INK)
    d.text(px(MAT / 2, -60), f"mat {MAT:.0f} mm (see mat.md)", fill=INK, font=font(15), anchor="mm")
    # post, boom, brace, clamp
    post_x = MAT + POST_GAP
    top = numbers["boom_top"]
    d.rectangle((*px(post_x - 10, POST), *px(post_x + 10, 0)), fill=(190, 190, 200), outline=INK)
    d.rectangle(
        (*px(post_x + 10 - numbers["boom"], top), *px(post_x + 10, top - 20)),
        fill=(190, 190, 200),
        outline=INK,
    )
    d.line((*px(post_x - 10, top - 220), *px(post_x - 230, top - 20)), fill=INK, width=4)
    d.rectangle((*px(post_x - 25, 20), *px(post_x + 40, -60)), outline=INK, width=3)
    d.text(px(post_x + 75, -20), "table clamp", fill=INK, font=font(14), anchor="lm")
    d.text(
        px(post_x + 25, top / 2), f"post: 2020 extrusion\n{POST:.0f} mm", fill=INK,
        font=font(14), anchor="lm",
    )
    d.text(
        px((MAT / 2 + post_x) / 2, top + 30),
        f"boom {numbers['boom']:.0f} mm",
        fill=INK,
        font=font(14),
        anchor="ms",
    )
    d.text(px(post_x - 250, top - 130), "brace", fill=INK, font=font(13), anchor="rm")
    # the Pi in its case on the boom, the camera cable, the lead down to the panel
    pi_x = MAT / 2 + PI_FROM_CAMERA
    d.rectangle((*px(pi_x - 45, top - 20), *px(pi_x + 45, top - 55)), fill=(60, 120, 60),
                outline=INK)
    d.text(px(pi_x, top - 75), "Pi 5 in its case", fill=INK, font=font(13), anchor="mt")
    d.line((*px(MAT / 2 + 8, h + 10), *px(MAT / 2 + 8, top - 24), *px(pi_x - 45, top - 24)),
           fill=(200, 120, 0), width=3)
    d.text(px(MAT / 2 + 60, top - 110),
           f"camera cable {numbers['camera_cable']:.0f} mm", fill=(200, 120, 0), font=font(12),
           anchor="lm")
    d.line((*px(pi_x + 45, top - 40), *px(post_x - 14, top - 40), *px(post_x - 14, 25)),
           fill=(120, 60, 160), width=2)
    d.text(px(post_x - 20, 200), f"panel lead\n{numbers['panel_lead']:.0f} mm",
           fill=(120, 60, 160), font=font(12), anchor="rm")
    # camera and its field of view
    cam = px(MAT / 2, h)
    d.rectangle((*px(MAT / 2 - 4, top - 20), *px(MAT / 2 + 4, h + CAMERA_DROP - 40)),
                fill=INK)  # drop to camera
    d.rectangle((cam[0] - 16, cam[1] - 6, cam[0] + 16, cam[1] + 14), fill=INK)
    d.text(
        (cam[0] - 24, cam[1] + 2),
        "Camera Module 3 Wide, lens down",
        fill=INK,
        font=font(14),
        anchor="rm",
    )
    half = h * math.tan(math.radians(VFOV) / 2)
    for edge in (MAT / 2 - half, MAT / 2 + half):
        d.line((cam[0], cam[1] + 14, *px(edge, 0)), fill=BLUE, width=2)
    d.text(
        px(MAT / 2 - half - 10, 40),
        f"{MARGIN:.0f} mm\nmargin",
        fill=BLUE,
        font=font(12),
        anchor="rm",
    )
    # height dimension
    dim_x = MAT / 2 - 90
    d.line((*px(dim_x, 8), *px(dim_x, h - 10)), fill=GREY, width=2)
    for z in (8, h - 10):
        d.line((*px(dim_x - 15, z), *px(dim_x + 15, z)), fill=GREY, width=2)
    d.text(px(dim_x - 12, h / 2), f"{h:.0f} mm\nlens to mat", fill=INK, font=font(16), anchor="rm")
    d.text(
        px(MAT / 2, h - 120),
        f"vertical field\nof view {VFOV:.0f}°",
        fill=BLUE,
        font=font(13),
        anchor="mm",
        align="center",
    )
    d.text(
        (W / 2, H - 20),
        "Side view, to scale - drawn by hardware/mount.py",
        fill=GREY,
        font=font(12),
        anchor="ms",
    )
    image.save(out)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("mount.png"))
