"""The data between the boxes is typed inside and JSON only at the edges (issue 17):
table events, the view model and the appliance's outputs."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from firmware.appliance import Appliance, Outputs
from firmware.bus import Gap
from firmware.view import View, game_view, setup_view
from referee.check import check_file
from referee.events import CastleBuilt
from referee.setup import Player
from referee.table.events import Corrected, TableEvent, stamp

PLAYERS = [Player("Anna", "white", "south"), Player("Bob", "black", "north")]


def test_a_stamped_engine_event_keeps_its_record_fields_first() -> None:
    built = stamp(CastleBuilt(3, 2, (6,), "white"), 41.5)
    assert list(built.to_json()) == ["round", "turn", "kind", "territories", "side", "t", "message"]
    assert isinstance(built.engine, CastleBuilt) and built.engine.territories == (6,)
    assert TableEvent.from_json(built.to_json()) == built
    assert built != built.to_json()  # an event is no dict: the boxes read its attributes


def test_a_table_event_goes_through_json_and_back() -> None:
    event = Corrected(t=12.0, message="Corrected.", zone="territory:7").published(4)
    data = json.loads(json.dumps(event.to_json()))
    assert list(data) == ["kind", "t", "zone", "message", "id"]
    again = TableEvent.from_json(data)
    assert again == event and again.id == 4 and again.kind == "corrected"
    assert Gap(9).to_json() == {"kind": "gap", "id": 9}


def test_commands_answer_plain_json() -> None:
    appliance = Appliance(PLAYERS)
    reply = appliance.press("majorities")
    assert json.loads(json.dumps(reply)) == reply
    assert reply["events"][0]["kind"] == "button"


def _keys(view: View) -> set[str]:
    return set(view)


def test_both_views_have_the_keys_view_declares() -> None:
    required = set(View.__required_keys__)
    declared = required | set(View.__optional_keys__)
    verdict = check_file("examples/club-night.json")
    assert verdict.game is not None
    playing = game_view(verdict.game, training=False)
    waiting = setup_view(PLAYERS, Appliance(PLAYERS).referee, camera="ok")
    for view in (playing, waiting):
        assert required <= _keys(view) <= declared
    assert waiting["status"]["message"].startswith("Set up the table")
    assert "cubes_to_play" not in waiting and waiting["bare"] is None


class Shows:
    def __init__(self) -> None:
        self.updates: list[Any] = []
        self.closed = 0

    def update(self, view: Any, events: Any) -> None:
        self.updates.append((view, list(events)))

    def close(self) -> None:
        self.closed += 1


def test_the_appliance_opens_its_outputs_for_itself() -> None:
    shows = Shows()
    asked: list[Appliance] = []

    def open_outputs(appliance: Appliance) -> Outputs:
        asked.append(appliance)  # the display asks it for majorities, the buttons press it
        return Outputs([shows], display_png=lambda: b"\x89PNG")

    appliance = Appliance(PLAYERS, outputs=open_outputs)
    assert asked == [appliance]
    appliance.set_camera("ok")
    assert shows.updates and shows.updates[-1][1][0].kind == "camera"
    assert appliance.display_png() == b"\x89PNG"
    appliance.close()
    assert shows.closed == 1


def test_each_box_reads_back_the_kinds_it_makes() -> None:
    """The appliance's kinds are the appliance's (the referee knows no camera), the page
    preview's the preview's; their JSON is the log's, field for field."""
    from firmware import events as appliance
    from referee.table.events import KINDS, OtherEvent
    from web import events as page

    lost = appliance.CameraStatus(t=2.0, message="Camera lost.", status="lost").to_json()
    assert lost == {"kind": "camera", "t": 2.0, "status": "lost", "message": "Camera lost."}
    assert list(lost) == ["kind", "t", "status", "message"]
    assert isinstance(appliance.from_json(lost), appliance.CameraStatus)
    assert isinstance(TableEvent.from_json(lost), OtherEvent)  # not a rules' kind
    assert "camera" not in KINDS and "bare-ask" not in KINDS and "state" not in KINDS
    ask = appliance.BareAsk(t=None, message="Lay out.").to_json()
    assert ask == {"kind": "bare-ask", "t": None, "step": "ask", "message": "Lay out."}
    started = page.GameStarted(t=1.0, players=("Anna", "Bob")).to_json()
    assert started == {"kind": "game-started", "t": 1.0, "players": ["Anna", "Bob"]}
    assert page.from_json(started).to_json() == started
    training = page.from_json({"kind": "training", "t": 0.0, "on": True})
    assert isinstance(training, appliance.Training) and training.on


def test_the_commentary_names_the_act_by_its_own_fields() -> None:
    """``carolus follow``'s line of an illegal act: its code and who did it, by field."""
    from referee.table.events import Illegal, describe

    illegal = Illegal(
        t=12.0, message="Bob played out of turn.", code="turn-order", player="Bob", round=1, turn=2
    )
    assert describe(illegal) == "    12.0s  ILLEGAL (turn-order, Bob): Bob played out of turn."
    assert describe(stamp(CastleBuilt(3, 2, (6,), "white"), None)).startswith("       -  ")


def test_the_view_takes_the_standing_act_and_question_field_by_field() -> None:
    from firmware.view import illegal_view, question_view
    from referee.table.events import Illegal, Question

    asked = Question(
        t=3.0, message="1 yellow on territory 7?", zone="territory:7", part="cubes",
        counts={"yellow": 1}, code="cube-count", player="Bob", why="doubtful", round=2, turn=1,
    )  # fmt: skip
    assert question_view(asked) == {
        "zone": "territory:7",
        "part": "cubes",
        "counts": {"yellow": 1},
        "message": "1 yellow on territory 7?",
        "code": "cube-count",
        "player": "Bob",
    }
    act = Illegal(t=None, message="Out of turn.", code="turn-order", player="Ann", round=1, turn=1)
    shown = illegal_view(act)
    assert shown is not None
    texts = shown.pop("texts", {})  # and the sentence in every language (no msgid here)
    assert shown == {"code": "turn-order", "message": "Out of turn.", "player": "Ann"}
    assert texts["hu"] == "Nem szabályos: nem ő következik."


def test_no_box_reads_an_event_as_a_dict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The display, the voice, the game log, the buttons' beeps and the page's stream tell
    events by class and attribute; JSON is made only by `TableEvent.to_json`. An event
    has no mapping view (``event["code"]`` raises), and the start of the demo game
    (cubes, control, the emperor, castles, cylinders) and the commands go through every
    output without an error."""
    from luma.core.device import dummy

    from firmware.demo import DemoSource
    from firmware.display import Display
    from firmware.gamelog.store import GameLog
    from firmware.voice import Voice
    from web.i18n import translations
    from web.live import StateCache, write

    for name in ("__getitem__", "__iter__", "__len__", "__contains__", "get", "keys"):
        assert not hasattr(TableEvent, name), name  # a dict's reading raises in every box
    errors: list[str] = []
    def failed(message: str, *args: object, **kwargs: object) -> None:
        errors.append(message % args)  # an output failed: the appliance goes on, we do not

    monkeypatch.setattr(logging.getLogger("carolus"), "exception", failed)
    heard: list[str] = []
    voice = Voice(True, "hu", which=lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(voice, "speak", heard.append)
    now = [0.0]
    display = Display(dummy(width=128, height=64, mode="1"), clock=lambda: now[0])
    source = DemoSource(speed=0, drawing_process=False)
    gamelog = GameLog(tmp_path / "games.db")
    appliance = Appliance(source.players, outputs=[display, voice], gamelog=gamelog, ask_bare=False)
    appliance.set_camera("demo")
    shown = set()
    for snapshot in source.snapshots[:180]:
        appliance.feed(snapshot)
        now[0] += 0.2  # the demo's 5 frames a second: announcements take turns
        display.tick()
        shown.add(display.screen.name)
    appliance.press("majorities")
    appliance.set_training(True)
    appliance.undo()
    appliance.set_camera("lost")
    items = []
    reader = appliance.bus.subscribe(since=0)
    while (item := reader.get(timeout=0)) is not None:
        items.append(item)
    cache = StateCache(appliance.bus, appliance.state)
    page = "".join(write(items, cache, translations("de"), "0"))
    assert errors == [] and {"cubes", "cylinder", "castle", "announcement"} <= shown
    assert heard and page.count("data: ") >= len(items)
    gamelog.close()
