"""The OLED: each screen against a reference image, and which screen shows when.

Screens are drawn on luma's ``dummy`` device and compared pixel for pixel with
``tests/firmware/reference/*.png``. After a deliberate change of a screen, regenerate
them with ``CAROLUS_UPDATE_REFERENCE=1 .venv/bin/pytest tests/firmware/test_display.py``
and look at the images before committing.
"""

from __future__ import annotations

import io
import os
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from luma.core.device import dummy
from PIL import Image, ImageChops

from firmware.display import Display, render_png
from firmware.events import ButtonPressed
from firmware.view import game_view, illegal_view, majorities_view, majority_view
from referee.announcements import said
from referee.check import check_file
from referee.events import CastleBuilt, CubesPlayed, TurnStarted
from referee.game import Game
from referee.moves import ChooseDisc, PlayCubes
from referee.table.events import CubesPlaced, Illegal, Resolved, Stamped
from referee.table.referee import CastleChore, CylinderChore

REFERENCE = Path(__file__).parent / "reference"
UPDATE = os.environ.get("CAROLUS_UPDATE_REFERENCE") == "1"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def club_night() -> Game:
    verdict = check_file("examples/club-night.json")
    assert verdict.game is not None
    return verdict.game


def emperor_step() -> Game:
    """Round 2 of the club night, Bob has played his cubes and must move the emperor."""
    game = club_night()
    game.push(ChooseDisc("Bob", 3))
    game.push(ChooseDisc("Anna", 4))
    game.push(PlayCubes.of("Bob", ["blue"], {7: ["green", "blue"]}))
    return game


def region_game() -> Game:
    """The club night with a white region 4+5+6 laid out by hand (`Game.arrange`)."""
    game = club_night()
    game.arrange(
        territories={4: ["red", "blue"], 5: ["blue", "pink", "green"], 6: ["red"]},
        regions=[[4, 5, 6]],
        owners={6: "white"},
    )
    return game


ILLEGAL = Illegal(
    t=None,
    message="Bob put a red cube into Anna's court: take it back to Bob's reserve.",
    code="wrong-court",
    player="Bob",
    round=2,
    turn=1,
)
CUBES = Stamped(
    engine=CubesPlayed(2, 1, "Bob", ("blue",), {"7": ["green", "blue"]}),
    t=None,
    message="Bob plays 1 blue to his court; 1 green, 1 blue on territory 7.",
)
CASTLE = Stamped(engine=CastleBuilt(2, 1, (7,), "black"), t=None)


def turn_started(player: str) -> Stamped:
    """Not announced on the panel: the live view shows it."""
    return Stamped(engine=TurnStarted(2, 1, player, 3), t=None)


def press(long: bool = False) -> ButtonPressed:
    """A press of Majorities, as the appliance announces it."""
    return ButtonPressed(t=None, message="Majorities.", button="majorities", long=long)


def new_display(clock: Clock | None = None) -> tuple[Display, Any]:
    device = dummy(width=128, height=64, mode="1")
    clock = clock or Clock()
    return Display(device, announce_seconds=5, majorities_seconds=30, clock=clock), device


def check_reference(name: str, image: Image.Image) -> None:
    path = REFERENCE / f"{name}.png"
    if UPDATE:
        REFERENCE.mkdir(parents=True, exist_ok=True)
        image.convert("1").save(path)
        return
    assert path.exists(), f"no reference {path}; run with CAROLUS_UPDATE_REFERENCE=1"
    want = Image.open(path).convert("1")
    got = image.convert("1")
    diff = ImageChops.difference(want.convert("L"), got.convert("L")).getbbox()
    if diff is not None:
        got.save(path.with_suffix(".actual.png"))
    assert diff is None, f"{name} differs from the reference in box {diff}"


def _turn(display: Display) -> None:
    display.update(game_view(club_night()))


def _emperor(display: Display) -> None:
    display.update(game_view(emperor_step(), camera="ok"))


def _cubes(display: Display) -> None:
    display.update(game_view(emperor_step()))
    display.on_event(CUBES)


def castle_chore(*territories: int, side: str = "white") -> CastleChore:
    """Castles to build, worded as `referee.table.reading` words them."""
    words = {"side": side, "territories": list(territories)}
    return CastleChore(
        territories=territories,
        side=side,
        previous=None,
        message=said("build a %(side)s castle on %(territories)s", **words),
        sentence=said("Build a %(side)s castle on %(territories)s.", **words),
    )


def cylinder_chore(colour: str, player: str, seat: str) -> CylinderChore:
    """A cylinder to move to ``player``'s court."""
    words = {"colour": colour, "place": player}
    return CylinderChore(
        colour=colour,
        player=player,
        seat=seat,
        message=said("move the %(colour)s cylinder to %(place)s", **words),
        sentence=said("Move the %(colour)s cylinder to %(place)s.", **words),
    )


def _castle(display: Display) -> None:
    display.update(game_view(club_night(), pending=[castle_chore(7)]))


def _cylinder(display: Display) -> None:
    pending = [cylinder_chore("red", "Anna", "south"), castle_chore(4, 5, 6)]
    display.update(game_view(emperor_step(), pending=pending))


def _chore(display: Display) -> None:
    """Chores in words only, as an older appliance's view carried them."""
    view = game_view(emperor_step())
    view["table"]["pending"] = [
        {"kind": "chore", "message": "move the red cylinder to Anna's court"},
        {"kind": "chore", "message": "build a white castle on territory 7"},
    ]
    display.update(view)


def _illegal(display: Display) -> None:
    display.update(game_view(club_night(), illegal=illegal_view(ILLEGAL)))


def _majority(display: Display) -> None:
    game = region_game()
    display.update(game_view(game))
    region = majority_view(game, 5)
    others = [p for p in majorities_view(game) if p["territories"] != [4, 5, 6]]
    display.page_majorities([region, *others])


def _game_over(display: Display) -> None:
    # the end as the view model says it (the engine's own ending is tested in referee/)
    view = game_view(region_game())
    view.update(finished=True, winner="Anna", reason="castles")
    display.update(view)


def cubes_step() -> Game:
    """Round 2 of the club night: Bob is about to play his cubes (a hint exists)."""
    game = club_night()
    game.push(ChooseDisc("Bob", 3))
    game.push(ChooseDisc("Anna", 4))
    return game


PRESS = press()


def _advised(display: Display, game: Game) -> None:
    """Training mode on, then a Majorities press: the advisor's page comes first."""
    from referee.advisor import advise

    display._majorities = lambda: majorities_view(game)
    display._advice = lambda: advise(game.copy()).to_json()
    display.update({**game_view(game), "training": True}, [PRESS])


def _advice(display: Display) -> None:
    _advised(display, cubes_step())


def _advice_threats(display: Display) -> None:
    _advised(display, club_night())  # discs still to choose: threats, no hint


def setup_view() -> dict[str, Any]:
    """The appliance's view before round 1 (phase ``setup``), as the main loop builds it."""
    return {
        "round": 0,
        "phase": "setup",
        "step": None,
        "to_move": None,
        "players": [
            {"name": "Anna", "castles": "white", "seat": "south", "territories": 0},
            {"name": "Bob", "castles": "black", "seat": "north", "territories": 0},
        ],
        "finished": False,
        "table": {"legal": True, "illegal": None, "pending": []},
        "status": {
            "camera": "ok",
            "message": "Set up the table: 3 cubes of each colour on the territories, "
            "the emperor, each reserve; then choose discs.",
        },
    }


def _setup(display: Display) -> None:
    display.update(setup_view())


SCREENS: dict[str, tuple[Callable[[Display], None], str]] = {
    "turn": (_turn, "turn"),
    "turn-emperor": (_emperor, "turn"),
    "cubes": (_cubes, "cubes"),
    "castle": (_castle, "castle"),
    "cylinder": (_cylinder, "cylinder"),
    "chore": (_chore, "chore"),
    "illegal": (_illegal, "illegal"),
    "majority": (_majority, "majority"),
    "game-over": (_game_over, "game-over"),
    "setup": (_setup, "setup"),
    "advice": (_advice, "advice"),
    "advice-threats": (_advice_threats, "advice"),
}


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_matches_reference(name: str) -> None:
    setup, screen = SCREENS[name]
    display, device = new_display()
    setup(display)
    assert display.screen.name == screen
    assert device.image is not None and device.image.size == (128, 64)
    check_reference(name, device.image)


def ink_rows(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    bbox = image.crop(box).getbbox()
    return 0 if bbox is None else bbox[3] - bbox[1]


def test_the_main_line_is_big_enough_for_arms_length() -> None:
    display, device = new_display()
    _turn(display)
    # the player to move is written 14 pixels high below the 9-pixel title bar
    assert ink_rows(device.image, (0, 11, 128, 27)) == 14
    _castle(display)
    assert ink_rows(device.image, (0, 11, 128, 27)) == 14  # "White"
    assert ink_rows(device.image, (0, 28, 128, 44)) == 14  # "castle in 7"


def test_an_announcement_shows_for_a_while_then_the_live_view_returns() -> None:
    clock = Clock()
    display, device = new_display(clock)
    _emperor(display)
    live = device.image.copy()
    display.on_event(CUBES)
    assert display.screen.name == "cubes"
    clock.now += 4.9
    display.tick()
    assert display.screen.name == "cubes"
    clock.now += 0.2
    display.tick()
    assert display.screen.name == "turn"
    assert device.image.tobytes() == live.tobytes()


def test_announcements_wait_their_turn() -> None:
    clock = Clock()
    display, _ = new_display(clock)
    _emperor(display)
    display.on_event(CUBES)
    display.on_event(CASTLE)
    display.on_event(turn_started("Anna"))  # not announced: live view
    seen = []
    for _ in range(4):
        seen.append(display.screen.name)
        clock.now += 5
        display.tick()
    assert seen == ["cubes", "castle", "turn", "turn"]


def test_an_illegal_act_stays_until_the_table_is_legal_again() -> None:
    clock = Clock()
    display, device = new_display(clock)
    _emperor(display)
    display.on_event(ILLEGAL)
    display.on_event(CUBES)
    clock.now += 60
    display.tick()
    assert display.screen.name == "illegal"
    assert device.image.getpixel((127, 63)) == 255  # inverted: a white screen
    display.update(game_view(emperor_step()))  # the table is legal again
    assert display.screen.name == "cubes"  # what was said meanwhile still shows
    clock.now += 5
    display.tick()
    assert display.screen.name == "turn"
    display.on_event(ILLEGAL)
    assert display.screen.name == "illegal"
    display.on_event(Resolved(t=None, message="Back in order.", code=None, player=None))
    assert display.screen.name == "announcement"


def test_majorities_button_pages_through_every_unit_then_back() -> None:
    clock = Clock()
    display, _ = new_display(clock)
    game = club_night()
    display.update(game_view(game))
    pages = majorities_view(game)
    shown = [display.page_majorities(pages) for _ in range(len(pages) + 1)]
    assert [s.get("page") for s in shown[:-1]] == list(range(1, len(pages) + 1))
    assert [s["territories"] for s in shown[:-1]] == [p["territories"] for p in pages]
    assert shown[-1] == {"screen": "turn"}
    display.page_majorities(pages)
    display.page_majorities(pages)
    assert display.live() == {"screen": "turn"}  # long press
    display.page_majorities(pages)
    clock.now += 31  # nobody pressed for a while
    display.tick()
    assert display.screen.name == "turn"


def test_majorities_show_even_over_an_illegal_act() -> None:
    display, _ = new_display()
    _illegal(display)
    game = club_night()
    assert display.page_majorities(majorities_view(game))["screen"] == "majority"
    assert display.live()["screen"] == "illegal"


def test_two_chores_are_numbered_and_the_first_is_shown() -> None:
    display, _ = new_display()
    _cylinder(display)
    assert display.screen.name == "cylinder" and display.screen.pages == 2


def test_the_panel_is_written_only_when_the_picture_changes() -> None:
    writes = []
    device = dummy(width=128, height=64, mode="1")
    real = device.display
    device.display = lambda image: (writes.append(1), real(image))
    display = Display(device, clock=Clock())
    for _ in range(3):
        display.update(game_view(club_night()))
        display.tick()
    assert len(writes) == 1
    display.update(game_view(emperor_step()))
    assert len(writes) == 2


def test_web_mirror_is_the_panel_scaled_four_times() -> None:
    display, device = new_display()
    _emperor(display)
    png = Image.open(io.BytesIO(display.png()))
    assert png.size == (512, 256)
    assert png.convert("1").resize((128, 64), Image.Resampling.NEAREST).tobytes() == (
        device.image.convert("1").tobytes()
    )
    same = Image.open(io.BytesIO(render_png(game_view(emperor_step(), camera="ok"))))
    assert same.tobytes() == png.tobytes()
    with_event = Image.open(io.BytesIO(render_png(game_view(emperor_step()), event=CUBES)))
    assert with_event.tobytes() != png.tobytes()


def test_long_names_and_messages_are_cut_not_overflowing() -> None:
    game = club_night()
    view = game_view(
        game,
        illegal={"code": "cube-count", "player": "Maximiliane", "message": "word " * 80},
    )
    view["to_move"] = "Maximiliane-Anna von Hohenzollern"
    display, device = new_display()
    display.update(view)
    assert display.screen.name == "illegal"
    view["table"] = {"legal": True, "illegal": None, "pending": []}
    display.update(view)
    assert display.screen.name == "turn"
    assert device.image.getbbox() is not None


def test_without_a_panel_the_appliance_says_so_once_and_draws_on_a_stand_in() -> None:
    from firmware.config import DisplayConfig
    from firmware.display.device import open_device

    said: list[str] = []
    device, attached = open_device(DisplayConfig(i2c_port=97), said.append)
    assert not attached and len(said) == 1
    assert "no ssd1306 on I2C bus 97 address 0x3c" in said[0] and "running without" in said[0]
    display = Display(device, clock=Clock())
    display.update(game_view(club_night()))
    assert display.png().startswith(b"\x89PNG")
    _, attached = open_device(DisplayConfig(enabled=False), said.append)
    assert not attached and len(said) == 1  # switched off on purpose: nothing to say


def test_the_appliance_output_protocol_update_with_events() -> None:
    """``update(view, events)``: the events that led to the view, then the view itself."""
    clock = Clock()
    game = club_night()
    display, _ = new_display(clock)
    display._majorities = lambda: majorities_view(game)
    display.update(game_view(game), [CUBES, turn_started("Bob")])
    assert display.screen.name == "cubes"
    display.update(game_view(game), [press()])
    assert display.describe()["screen"] == "majority" and display.describe()["page"] == 1
    display.update(game_view(game), [press()])
    assert display.describe()["page"] == 2
    display.update(game_view(game), [press(long=True)])
    assert display.screen.name == "cubes"  # back from paging: the announcement still due
    clock.now += 5
    display.tick()
    assert display.screen.name == "turn"


def test_the_timer_lets_announcements_time_out_between_events() -> None:
    device = dummy(width=128, height=64, mode="1")
    display = Display(device, announce_seconds=0.05)
    display.update(game_view(emperor_step()), [CUBES])
    assert display.screen.name == "cubes"
    display.start(interval=0.01)
    try:
        deadline = time.monotonic() + 2
        while display.screen.name != "turn":
            assert time.monotonic() < deadline, "the announcement never timed out"
            time.sleep(0.01)
    finally:
        display.close()


def test_cubes_placed_one_by_one_show_the_latest_count_not_a_queue() -> None:
    clock = Clock()
    display, _ = new_display(clock)
    _emperor(display)
    placed = CubesPlaced(
        t=None, message=None, player="Bob", court=(), territories={}, count=1, of=3
    )
    display.on_event(replace(placed, territories={"7": ("green",)}))
    clock.now += 3
    display.tick()
    display.on_event(replace(placed, territories={"7": ("green", "blue")}, count=2))
    display.on_event(CUBES)
    assert display.screen.name == "cubes" and display.screen.event == CUBES
    clock.now += 4.9  # the latest report shows for its full time
    display.tick()
    assert display.screen.name == "cubes"
    clock.now += 0.2
    display.tick()
    assert display.screen.name == "turn"


def test_majorities_are_asked_for_without_holding_the_panel() -> None:
    """The hub answers under its own lock while another thread (the camera's) may hold the
    hub's lock and be updating the panel: asking while holding the panel would deadlock."""
    import threading

    from firmware.config import DisplayConfig

    game = club_night()
    view = game_view(game)
    display: Display

    def majorities() -> list[dict[str, Any]]:
        other = threading.Thread(target=display.update, args=(view,))
        other.start()
        other.join(1)
        assert not other.is_alive(), "the panel was locked while asking for majorities"
        return majorities_view(game)

    display = Display.from_config(
        dummy(width=128, height=64, mode="1"), DisplayConfig(), majorities=majorities
    )
    display.update(view, [press()])
    assert display.describe()["screen"] == "majority"
    display.on_event(press())
    assert display.describe()["page"] == 2


def test_in_training_mode_the_majorities_paging_starts_with_the_advisor() -> None:
    game = cubes_step()
    asked: list[int] = []

    def advice() -> dict[str, Any] | None:
        from referee.advisor import advise

        asked.append(1)
        return advise(game.copy()).to_json()

    display, device = new_display()
    display._majorities = lambda: majorities_view(game)
    display._advice = advice
    view = {**game_view(game), "training": True}
    display.update(view)
    assert asked == []  # never unasked
    units = majorities_view(game)
    display.update(view, [PRESS])
    shown = display.describe()
    assert shown == {"screen": "advice", "page": 1, "of": len(units) + 1, "player": "Bob"}
    assert device.image is not None and device.image.getbbox() is not None
    for page in range(2, len(units) + 2):
        display.update(view, [PRESS])
        assert display.describe()["screen"] == "majority"
        assert display.describe()["page"] == page
    display.update(view, [PRESS])
    assert display.screen.name == "turn"  # after the last unit: the live view
    assert asked == [1]  # asked once, when the paging started
    display.update(view, [PRESS])
    assert display.screen.name == "advice" and asked == [1, 1]  # a fresh answer


def test_without_training_mode_there_is_no_advisor_page() -> None:
    game = cubes_step()
    asked: list[int] = []
    display, _ = new_display()
    display._majorities = lambda: majorities_view(game)
    display._advice = lambda: asked.append(1) or None
    display.update(game_view(game), [PRESS])  # the view says nothing of training
    assert display.describe()["screen"] == "majority" and display.describe()["page"] == 1
    assert asked == []
    display.live()
    display.update({**game_view(game), "training": True}, [PRESS])  # on, but no advice
    assert display.describe()["screen"] == "majority" and asked == [1]


def test_the_hint_in_a_few_words() -> None:
    from firmware.display.screens import hint_words

    hint = {
        "player": "Anna",
        "court": ["yellow", "yellow"],
        "territories": {"6": ["yellow"]},
        "emperor": 3,
        "stop": [5, 6, 7],
        "outcome": "take",
    }
    assert hint_words(hint) == ("2Y court 1Y 6", "emperor 3 -> take 5+6+7")
    assert hint_words({**hint, "court": [], "outcome": "nothing"})[1].endswith("no castle 5+6+7")


def test_an_advisor_that_refuses_leaves_only_the_majorities() -> None:
    """Training went off (or the game ended) between the view and the press."""
    from firmware.hub import CommandError

    game = cubes_step()

    def refuse() -> dict[str, Any]:
        raise CommandError("the advisor is off: turn training mode on for this game")

    display, _ = new_display()
    display._majorities = lambda: majorities_view(game)
    display._advice = refuse
    display.update({**game_view(game), "training": True}, [PRESS])
    assert display.describe()["screen"] == "majority" and display.describe()["page"] == 1
