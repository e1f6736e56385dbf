"""The OLED: screens drawn from the view model, and the panel choosing among them."""

from firmware.display.panel import Display, render_png

__all__ = ["Display", "render_png"]
