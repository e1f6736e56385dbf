"""The panel draws an event's fields from its class (`firmware.display.cards`): each
screen of fields names who, what and where from the right field of the right kind."""

from __future__ import annotations

from firmware.display.cards import Castle, Cubes, Cylinder, of_chore, of_event
from firmware.events import CameraStatus
from referee.events import CastleTaken, ControlGained, CubesPlayed
from referee.table.events import CastlePending, CubesPlaced, CylinderPending, Stamped


def test_control_gained_sends_the_cylinder_to_the_new_holder_not_the_old() -> None:
    gained = Stamped(engine=ControlGained(2, 1, "pink", "Anna", "Bob"), t=3.0)
    assert of_event(gained) == Cylinder("pink", "Anna", "control-gained")
    assert of_event(CylinderPending(t=1.0, colour="red", to="pool")) == Cylinder(
        "red", "pool", None
    )


def test_cubes_played_and_placed_keep_court_and_territories_apart() -> None:
    played = CubesPlayed(2, 1, "Bob", ("blue",), {"7": ["green", "blue"], "9": []})
    want = Cubes("Bob", ("blue",), (("7", ("green", "blue")), ("9", ())))
    assert of_event(Stamped(engine=played, t=None)) == want
    placed = CubesPlaced(
        t=None, player="Bob", court=(), territories={"7": ("green",)}, count=1, of=3
    )
    assert of_event(placed) == Cubes("Bob", (), (("7", ("green",)),))


def test_castles_name_the_side_that_builds_and_the_announcement() -> None:
    taken = Stamped(engine=CastleTaken(3, 2, (5, 6), "white", "black"), t=None)
    assert of_event(taken) == Castle("white", (5, 6), "castle-taken")
    pending = CastlePending(t=None, territories=(7,), side="black")
    assert of_event(pending) == Castle("black", (7,), None)


def test_chores_of_the_view_and_kinds_said_in_words() -> None:
    chore = {"kind": "cylinder", "colour": "red", "player": "Anna", "seat": "south"}
    assert of_chore(chore) == Cylinder("red", "Anna", None)
    castle = {"kind": "castle", "territories": [4, 5], "side": "white", "from": None}
    assert of_chore(castle) == Castle("white", (4, 5), None)
    assert of_chore({"kind": "chore", "message": "build a castle"}) is None
    assert of_event(CameraStatus(t=0.0, message="Camera lost.", status="lost")) is None
