"""Draw hardware/wiring.png: the Pi's 40-pin header and what connects to it.

    .venv/bin/python hardware/wiring.py [OUT.png]

The GPIO numbers come from the appliance's default settings (`firmware.config.GpioConfig`),
so the picture cannot drift from what `carolus run` expects. Every part sits on the row
of the header pin it uses, so each signal wire is one straight line.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware.config import DisplayConfig, GpioConfig

#: Physical pin -> name on the Raspberry Pi 40-pin header (all models with 40 pins).
HEADER = {
    1: "3V3",
    2: "5V",
    3: "GPIO2 SDA",
    4: "5V",
    5: "GPIO3 SCL",
    6: "GND",
    7: "GPIO4",
    8: "GPIO14",
    9: "GND",
    10: "GPIO15",
    11: "GPIO17",
    12: "GPIO18",
    13: "GPIO27",
    14: "GND",
    15: "GPIO22",
    16: "GPIO23",
    17: "3V3",
    18: "GPIO24",
    19: "GPIO10",
    20: "GND",
    21: "GPIO9",
    22: "GPIO25",
    23: "GPIO11",
    24: "GPIO8",
    25: "GND",
    26: "GPIO7",
    27: "ID_SD",
    28: "ID_SC",
    29: "GPIO5",
    30: "GND",
    31: "GPIO6",
    32: "GPIO12",
    33: "GPIO13",
    34: "GND",
    35: "GPIO19",
    36: "GPIO16",
    37: "GPIO26",
    38: "GPIO20",
    39: "GND",
    40: "GPIO21",
}


def physical(gpio: int) -> int:
    """The header pin carrying BCM GPIO ``gpio``."""
    for pin, name in HEADER.items():
        if name.split()[0] == f"GPIO{gpio}":
            return pin
    raise ValueError(f"GPIO {gpio} is not on the header")


W, H = 1400, 960
TOP, PITCH = 70, 34
ODD_X, EVEN_X = 660, 700
INK, GREY = (20, 20, 20), (150, 150, 150)
WIRE = {"power": (200, 30, 30), "gnd": (20, 20, 20), "i2c": (30, 90, 200), "gpio": (20, 140, 60)}


def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def row_y(pin: int) -> int:
    return TOP + ((pin - 1) // 2) * PITCH


def pin_xy(pin: int) -> tuple[int, int]:
    return (ODD_X if pin % 2 else EVEN_X, row_y(pin))


def draw_header(d: ImageDraw.ImageDraw, used: set[int]) -> None:
    d.rounded_rectangle(
        (ODD_X - 13, TOP - 20, EVEN_X + 13, row_y(40) + 20), 6, outline=INK, width=2
    )
    d.text(
        ((ODD_X + EVEN_X) / 2, TOP - 36),
        "Raspberry Pi 40-pin header",
        fill=INK,
        font=font(16),
        anchor="ms",
    )
    small = font(11)
    for pin, name in HEADER.items():
        x, y = pin_xy(pin)
        fill = INK if pin in used else (255, 255, 255)
        d.ellipse((x - 6, y - 6, x + 6, y + 6), outline=INK, fill=fill, width=2)
        colour = INK if pin in used else GREY
        # labels sit just above the row, clear of the wires that end on the pin
        if pin % 2:
            d.text((x - 20, y - 6), f"{name}  {pin}", fill=colour, font=small, anchor="rs")
        else:
            d.text((x + 20, y - 6), f"{pin}  {name}", fill=colour, font=small, anchor="ls")


def wire(d: ImageDraw.ImageDraw, points: list[tuple[int, int]], kind: str) -> None:
    d.line(points, fill=WIRE[kind], width=3, joint="curve")
    for x, y in (points[0], points[-1]):
        d.ellipse((x - 3, y - 3, x + 3, y + 3), fill=WIRE[kind])


def box(d: ImageDraw.ImageDraw, xy: tuple[int, int, int, int], title: str, note: str = "") -> None:
    d.rectangle(xy, outline=INK, width=2, fill=(245, 245, 235))
    d.text((xy[0] + 8, xy[1] + 6), title, fill=INK, font=font(15))
    if note:
        d.text((xy[0] + 8, xy[1] + 26), note, fill=INK, font=font(12))


def resistor(d: ImageDraw.ImageDraw, x: int, y: int, label: str) -> None:
    d.rectangle((x - 22, y - 7, x + 22, y + 7), outline=INK, width=2, fill=(255, 255, 255))
    d.text((x, y - 10), label, fill=INK, font=font(12), anchor="ms")


def led(
    d: ImageDraw.ImageDraw, x: int, y: int, colour: tuple[int, int, int], rightward: bool
) -> None:
    """LED symbol pointing the way the current flows (anode -> cathode)."""
    s = 1 if rightward else -1
    d.polygon(
        [(x - 10 * s, y - 10), (x - 10 * s, y + 10), (x + 10 * s, y)], fill=colour, outline=INK
    )
    d.line((x + 10 * s, y - 10, x + 10 * s, y + 10), fill=INK, width=3)


def button(d: ImageDraw.ImageDraw, x: int, y: int, label: str) -> None:
    """A push button (normally open) with its name on the left."""
    d.ellipse((x - 24, y - 4, x - 16, y + 4), outline=INK, width=2)
    d.ellipse((x + 16, y - 4, x + 24, y + 4), outline=INK, width=2)
    d.line((x - 20, y - 6, x + 18, y - 16), fill=INK, width=3)
    d.line((x, y - 11, x, y - 22), fill=INK, width=2)
    d.line((x - 8, y - 22, x + 8, y - 22), fill=INK, width=3)
    d.text((x - 34, y - 4), label, fill=INK, font=font(12), anchor="rs")


def main(out: Path) -> None:
    gpio, display = GpioConfig(), DisplayConfig()
    pins = {name: physical(getattr(gpio, name)) for name in GpioConfig.PINS}
    oled = {"VCC": 1, "SDA": 3, "SCL": 5, "GND": 9}
    gnd_left, gnd_right, gnd_buzzer, five_volt = 25, 14, 34, 2
    used = {*pins.values(), *oled.values(), gnd_left, gnd_right, gnd_buzzer, five_volt}
    image = Image.new("RGB", (W, H), (255, 255, 255))
    d = ImageDraw.Draw(image)
    draw_header(d, used)

    # left: OLED on I2C, the two buttons, the green LED; ground bus on the far left
    bus_l = 60
    top, bottom = row_y(1) - 20, row_y(9) + 14
    box(
        d,
        (120, top, 330, bottom),
        f"{display.driver.upper()} OLED 128x64",
        f"I2C address {display.i2c_address:#04x}",
    )
    for name, pin in oled.items():
        y = row_y(pin)
        d.text((322, y), name, fill=INK, font=font(12), anchor="rm")
        kind = {"VCC": "power", "GND": "gnd"}.get(name, "i2c")
        wire(d, [(330, y), pin_xy(pin)], kind)
    for name in ("majorities", "confirm"):
        y = row_y(pins[name])
        x = 260
        button(d, x, y, "Majorities" if name == "majorities" else "Confirm / Undo")
        wire(d, [(x + 24, y), pin_xy(pins[name])], "gpio")
        wire(d, [(x - 24, y), (bus_l, y)], "gnd")
    y = row_y(pins["led_green"])
    wire(d, [(180, y), pin_xy(pins["led_green"])], "gpio")
    resistor(d, 420, y, "330 ohm")
    led(d, 200, y, (40, 190, 60), rightward=False)
    d.text((200, y + 14), "green LED", fill=INK, font=font(12), anchor="mt")
    wire(d, [(190, y), (bus_l, y)], "gnd")
    y_g = row_y(gnd_left)
    wire(d, [(bus_l, row_y(pins["majorities"])), (bus_l, y_g), pin_xy(gnd_left)], "gnd")
    d.text(
        (bus_l - 8, (row_y(pins["majorities"]) + y_g) / 2),
        "GND",
        fill=INK,
        font=font(13),
        anchor="rm",
    )

    # right: the red LED and the buzzer (through an NPN transistor); ground bus far right
    bus_r = W - 60
    y = row_y(pins["led_red"])
    wire(d, [pin_xy(pins["led_red"]), (bus_r, y)], "gpio")
    resistor(d, 900, y, "330 ohm")
    led(d, 1040, y, (220, 40, 40), rightward=True)
    d.text((1040, y + 14), "red LED", fill=INK, font=font(12), anchor="mt")
    d.line((1052, y, bus_r, y), fill=WIRE["gnd"], width=3)
    y = row_y(pins["buzzer"]) + 218
    t_x = 1080
    wire(d, [pin_xy(pins["buzzer"]), (860, row_y(pins["buzzer"])), (860, y), (t_x - 20, y)], "gpio")
    resistor(d, 930, y, "1 kohm")
    d.ellipse((t_x - 24, y - 24, t_x + 24, y + 24), outline=INK, width=2)
    d.text((t_x, y + 30), "NPN (PN2222A)", fill=INK, font=font(12), anchor="mt")
    d.text((t_x - 34, y - 4), "B", fill=INK, font=font(11), anchor="rs")
    d.line((t_x - 20, y, t_x - 6, y), fill=INK, width=3)
    d.line((t_x - 6, y - 14, t_x - 6, y + 14), fill=INK, width=3)
    d.line((t_x - 6, y - 6, t_x + 14, y - 22), fill=INK, width=2)  # collector
    d.line((t_x - 6, y + 6, t_x + 14, y + 22), fill=INK, width=2)  # emitter
    y_e = row_y(gnd_buzzer)
    wire(d, [(t_x + 14, y + 22), (t_x + 14, y_e), pin_xy(gnd_buzzer)], "gnd")
    buzzer_y = y - 110
    box(d, (t_x - 40, buzzer_y - 30, t_x + 70, buzzer_y + 20), "buzzer", "active, 5 V")
    wire(d, [(t_x + 14, y - 22), (t_x + 14, buzzer_y + 20)], "gpio")
    wire(
        d,
        [
            pin_xy(five_volt),
            (1385, row_y(five_volt)),
            (1385, buzzer_y - 50),
            (t_x + 50, buzzer_y - 50),
            (t_x + 50, buzzer_y - 30),
        ],
        "power",
    )
    d.text((t_x + 58, buzzer_y - 54), "+", fill=INK, font=font(16), anchor="ls")
    d.text(
        (t_x + 80, buzzer_y - 20), "(1N4148 across it\nif it is magnetic)", fill=INK, font=font(11)
    )
    wire(d, [pin_xy(gnd_right), (bus_r, row_y(gnd_right)), (bus_r, row_y(pins["led_red"]))], "gnd")

    # legend and camera note
    lx, ly = 40, H - 130
    for i, (kind, words) in enumerate(
        [("power", "power"), ("gnd", "ground"), ("i2c", "I2C"), ("gpio", "GPIO signal")]
    ):
        x = lx + i * 160
        d.line((x, ly, x + 40, ly), fill=WIRE[kind], width=4)
        d.text((x + 48, ly), words, fill=INK, font=font(13), anchor="lm")
    d.text(
        (lx, ly + 30),
        "GPIO numbers are BCM (Broadcom); pin numbers are header positions. "
        "Camera: ribbon cable to the CSI connector (CAM/DISP 0 on a Pi 5).",
        fill=INK,
        font=font(13),
    )
    d.text(
        (lx, ly + 54),
        "Buttons short the GPIO to ground (internal pull-up). "
        "LED current ~ (3.3 V - 2 V) / 330 ohm ~ 4 mA.",
        fill=INK,
        font=font(13),
    )
    d.text(
        (W / 2, H - 12),
        "Carolus wiring - drawn by hardware/wiring.py from the default settings",
        fill=GREY,
        font=font(12),
        anchor="ms",
    )
    image.save(out)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("wiring.png"))
