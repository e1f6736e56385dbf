"""Opening the OLED: a luma device on I2C, or a stand-in when there is none.

Nothing is opened at import time. When the panel (or I2C, or luma itself) is missing the
appliance runs on a luma ``dummy`` device — the web mirror still shows every screen —
and says so once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from firmware.config import DisplayConfig
from referee.announcements import said


def stand_in() -> Any:
    """A luma ``dummy`` 128x64 one-bit device: keeps the last image, drives nothing."""
    from luma.core.device import dummy  # type: ignore[import-untyped]

    return dummy(width=128, height=64, mode="1")


def open_device(config: DisplayConfig, say: Callable[[str], None] = print) -> tuple[Any, bool]:
    """The configured panel and ``True``, or the stand-in and ``False`` (said once)."""
    if not config.enabled:
        return stand_in(), False
    try:
        from luma.core.interface.serial import i2c  # type: ignore[import-untyped]
        from luma.oled import device as oled  # type: ignore[import-untyped]

        serial = i2c(port=config.i2c_port, address=config.i2c_address)
        device = getattr(oled, config.driver)(serial, width=128, height=64, rotate=config.rotate)
        device.contrast(config.contrast)
    except Exception as exc:  # luma raises DeviceNotFoundError, DevicePermissionError, OSError …
        say(
            said(  # in the table's language where ``say`` is `firmware.run.telling`'s
                "display: no %(driver)s on I2C bus %(port)s address %(address)s (%(reason)s); "
                "running without the display",
                driver=config.driver,
                port=config.i2c_port,
                address=f"{config.i2c_address:#04x}",
                reason=str(exc),
            )
        )
        return stand_in(), False
    return device, True
