"""Which of the hub's optional capabilities the page may use, as the page reads it.

The capabilities themselves are protocols in `firmware.hub` (`CameraHub`, `GamesHub`, …);
the views ask ``isinstance(hub, CameraHub)`` before they call one, and say "no camera"
(or "this appliance cannot start games") otherwise. The page's scripts and templates
hide a control by the name of the method behind it (``extras.camera_jpeg``), a name
``GET /api/session`` has always sent; `offered` keeps those names.
"""

from __future__ import annotations

from firmware.hub import AdvisorHub, CameraHub, GamesHub, Hub, OverlayHub, QuestionHub

#: The names the page knows each capability's methods by, in the order it sends them.
EXTRAS: tuple[tuple[str, type[object]], ...] = (
    ("camera_jpeg", CameraHub),
    ("calibrate", CameraHub),
    ("camera_overlay", OverlayHub),
    ("new_game", GamesHub),
    ("end_game", GamesHub),
    ("set_training", AdvisorHub),
    ("advice", AdvisorHub),
    ("answer", QuestionHub),
)


def offered(hub: Hub) -> dict[str, bool]:
    """Which extras this hub offers, for the page to show or hide its controls."""
    return {name: isinstance(hub, capability) for name, capability in EXTRAS}
