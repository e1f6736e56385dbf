"""Draw hardware/screens.png: every OLED screen, from the display tests' reference images.

    .venv/bin/python hardware/screens.py [OUT.png]

The references (tests/firmware/reference/*.png) are exactly what the panel shows; the
display tests compare the screens with them pixel for pixel.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

REFERENCE = Path(__file__).resolve().parents[1] / "tests" / "firmware" / "reference"
CAPTIONS = {
    "turn": "live view: whose turn, what he does",
    "turn-emperor": "live view: the emperor step",
    "setup": "before round 1",
    "cubes": "cubes played (R G Y B P)",
    "castle": "a castle to place",
    "cylinder": "a cylinder to move",
    "chore": "a chore given in words",
    "illegal": "illegal act (until put right)",
    "majority": "Majorities button: one unit",
    "game-over": "game over",
}
SCALE, PAD, COLUMNS = 3, 24, 2


def main(out: Path) -> None:
    names = [n for n in CAPTIONS if (REFERENCE / f"{n}.png").exists()]
    w, h = 128 * SCALE, 64 * SCALE
    rows = (len(names) + COLUMNS - 1) // COLUMNS
    sheet = Image.new("RGB", (COLUMNS * (w + PAD) + PAD, rows * (h + PAD + 22) + PAD), "white")
    draw = ImageDraw.Draw(sheet)
    font = ImageFont.load_default(size=15)
    for i, name in enumerate(names):
        x = PAD + (i % COLUMNS) * (w + PAD)
        y = PAD + (i // COLUMNS) * (h + PAD + 22)
        screen = Image.open(REFERENCE / f"{name}.png").convert("L")
        screen = screen.resize((w, h), Image.Resampling.NEAREST)
        # white pixels as the panel's light blue-white on black
        sheet.paste(Image.merge("RGB", [screen.point(lambda v: v * 0.85)] * 2 + [screen]), (x, y))
        draw.text((x, y + h + 4), CAPTIONS[name], fill="black", font=font)
    sheet.save(out)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("screens.png"))
