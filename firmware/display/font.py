"""Bitmap text for the OLED: luma's 5x7 LCD font, proportional, scaled by whole pixels.

A bitmap font draws the same pixels on every machine (no FreeType version in the loop),
so reference images compare exactly on x86 and on the Pi; scaling it ×2 gives 16-pixel
letters, the size that reads from arm's length on a 0.96-1.3" panel.
"""

from __future__ import annotations

from functools import lru_cache

from luma.core.legacy.font import CP437_FONT, LCD_FONT  # type: ignore[import-untyped]
from PIL import ImageDraw

#: The castle sign (CP437's house glyph), for counts of castles.
CASTLE = "\u2302"
#: Width of a space in font pixels, and the gap between letters.
SPACE = 3
GAP = 1
#: Letters the fonts lack (Hungarian ő ű, capitals with an accent) drawn as the nearest
#: they have, so a translated sentence never shows "?".
NEAREST = dict(zip("őűŐŰÁÍÓÚÀÈÌÒÙ×–—’", "öüÖÜAIOUAEIOUx--'", strict=True))
#: The ellipsis, drawn as three dots close together.
ELLIPSIS = "\u2026"


@lru_cache(maxsize=512)
def _columns(char: str) -> tuple[int, ...]:
    """The glyph's non-empty columns (bit 0 = top row); a space is blank columns.

    ASCII comes from the narrow LCD font; letters such as ü, é, ß (names!) from CP437."""
    char = NEAREST.get(char, char)
    if char == " ":
        return (0,) * SPACE
    if char == ELLIPSIS:  # three dots ("Reconnecting…"): no font here has the sign
        dot = _columns(".")
        return (*dot, 0, *dot, 0, *dot)
    if char == CASTLE:
        columns = list(CP437_FONT[0x7F])
    elif " " < char <= "~":
        columns = list(LCD_FONT[ord(char)])
    else:
        try:
            code = char.encode("cp437")[0]
        except (UnicodeEncodeError, IndexError):
            code = ord("?")
        columns = list(CP437_FONT[code])
    while columns and columns[0] == 0:
        columns.pop(0)
    while columns and columns[-1] == 0:
        columns.pop()
    return tuple(columns) or (0,) * SPACE


class Font:
    """The font scaled by whole pixels: ``scale`` across, ``tall`` down (default the same).
    ``Font(2)`` is the big font; ``Font(1, 2)`` is tall and narrow — nearly as legible
    as the big one, with twice as many letters to a line."""

    def __init__(self, scale: int = 1, tall: int | None = None) -> None:
        self.scale = scale
        self.tall = tall or scale
        self.height = 7 * self.tall  # the LCD font's letters are 7 rows high

    def width(self, text: str) -> int:
        """Pixels ``text`` takes, without a trailing gap."""
        if not text:
            return 0
        columns = sum(len(_columns(c)) for c in text) + GAP * (len(text) - 1)
        return columns * self.scale

    def draw(self, draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, fill: str) -> int:
        """Draw ``text`` with its top-left at ``xy``; returns the x just after it."""
        x, y = xy
        s, t = self.scale, self.tall
        for char in text:
            for column in _columns(char):
                for row in range(8):
                    if column >> row & 1:
                        top = y + row * t
                        draw.rectangle((x, top, x + s - 1, top + t - 1), fill=fill)
                x += s
            x += GAP * s
        return x - GAP * s

    def fit(self, text: str, width: int) -> str:
        """``text`` cut to ``width`` pixels, ending in ".." when cut."""
        if self.width(text) <= width:
            return text
        while text and self.width(text + "..") > width:
            text = text[:-1]
        return text.rstrip() + ".."

    def wrap(self, text: str, width: int) -> list[str]:
        """``text`` broken into lines of at most ``width`` pixels, at spaces where it can."""
        lines: list[str] = []
        line = ""
        for word in text.split():
            candidate = f"{line} {word}" if line else word
            if self.width(candidate) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            while self.width(word) > width:  # a word longer than the line: hard break
                cut = len(word)
                while cut > 1 and self.width(word[:cut]) > width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        if line:
            lines.append(line)
        return lines


SMALL = Font(1)
TALL = Font(1, 2)
BIG = Font(2)
