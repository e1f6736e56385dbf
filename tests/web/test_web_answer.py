"""The page answers the referee's question about a doubtful reading: Yes / No, with the
PIN and the CSRF token like every change; the question and its words in the page's
language."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from web_openapi_check import check

from conftest import PIN, post
from firmware.appliance import Appliance
from referee.pieces import COLOURS
from referee.setup import Player
from referee.table.simulate import Mat
from web.announce import sentence
from web.app import create_app
from web.i18n import translations

PLAYERS = [Player("Anna", "white", "south"), Player("Bob", "black", "north")]
RESERVES = {
    "south": "red red red green green blue pink",
    "north": "green yellow yellow blue blue pink pink",
}


def show(appliance: Appliance, mat: Mat, doubts: dict[str, float], start: int) -> int:
    """A hand over the mat, then the table for 5 frames, as the new vision sends it."""
    for i, occluded in enumerate([True, True, False, False, False, False, False]):
        appliance.feed(
            {
                "format": "carolus-snapshot/1",
                "t": (start + i) / 5,
                "mat": True,
                "occluded": occluded,
                "reader": "absolute",
                "confidence": doubts,
                **mat.to_json(),
            }
        )
    return start + 7


def asking() -> Appliance:
    """An appliance whose referee asks "1 green, 1 yellow on territory 7?" in Anna's turn."""
    appliance = Appliance(PLAYERS)
    mat = Mat()
    for seat in ("south", "north"):
        mat.discs[seat] = set(range(1, 6))
    for n, colour in enumerate(COLOURS * 3):
        mat.territories[n][COLOURS.index(colour)] = 1
    mat.emperor = 1
    for seat, colours in RESERVES.items():
        for c in colours.split():
            mat.reserves[seat][COLOURS.index(c)] += 1  # type: ignore[arg-type]
    t = show(appliance, mat, {}, 0)
    mat.discs["south"].discard(2)
    t = show(appliance, mat, {}, t)
    mat.discs["north"].discard(3)
    t = show(appliance, mat, {}, t)
    mat.territories[6][COLOURS.index("yellow")] += 1  # a phantom, read with doubt
    show(appliance, mat, {"territory:7": 0.3}, t)
    return appliance


def browser(appliance: Appliance, pin: bool = True) -> FlaskClient:
    client = create_app(appliance, pin=PIN).test_client()
    client.get("/")
    if pin:
        assert post(client, "/api/pin", {"pin": PIN}).status_code == 200
    return client


def test_the_question_is_in_the_state_and_on_the_page() -> None:
    appliance = asking()
    client = browser(appliance, pin=False)
    state = client.get("/api/state").get_json()
    check("/api/state", "get", 200, state)
    question = state["table"]["question"]
    assert question["zone"] == "territory:7" and question["code"] == "not-in-reserve"
    assert question["message"] == "1 green, 1 yellow on territory 7?"
    page = client.get("/").get_data(as_text=True)
    assert 'id="answer-yes"' in page and 'id="answer-no"' in page
    assert client.get("/api/session").get_json()["extras"]["answer"] is True


def test_no_from_the_page_keeps_the_game_and_ends_the_question() -> None:
    appliance = asking()
    client = browser(appliance)
    answer = post(client, "/api/answer", {"answer": "no"})
    assert answer.status_code == 200, answer.get_json()
    check("/api/answer", "post", 200, answer.get_json())
    assert [e["kind"] for e in answer.get_json()["events"]] == ["answered", "resolved"]
    table = client.get("/api/state").get_json()["table"]
    assert table["question"] is None and table["illegal"] is None and table["legal"] is True
    assert client.get("/api/state").get_json()["territories"]["7"]["cubes"]["yellow"] == 0
    refused = post(client, "/api/answer", {"answer": "no"})
    assert refused.status_code == 409 and "no question" in refused.get_json()["error"]
    check("/api/answer", "post", 409, refused.get_json())
    client.get("/?lang=hu")  # the refusal in the page's language (issue 17)
    refused = post(client, "/api/answer", {"answer": "no"})
    assert refused.status_code == 409
    assert refused.get_json()["error"] == "nincs megválaszolandó kérdés"


def test_yes_from_the_page_makes_it_an_illegal_act() -> None:
    appliance = asking()
    client = browser(appliance)
    answer = post(client, "/api/answer", {"answer": "yes"})
    assert [e["kind"] for e in answer.get_json()["events"]] == ["answered", "illegal"]
    assert client.get("/api/state").get_json()["table"]["legal"] is False


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [({"answer": "maybe"}, 400, "answer"), ({}, 400, "answer"), ({"answer": True}, 400, "True")],
)
def test_a_bad_answer_is_a_400(body: dict[str, Any], status: int, words: str) -> None:
    client = browser(asking())
    answer = post(client, "/api/answer", body)
    assert answer.status_code == status and words in answer.get_json()["error"]
    check("/api/answer", "post", status, answer.get_json())


def test_answering_needs_the_pin_and_the_token() -> None:
    appliance = asking()
    client = browser(appliance, pin=False)
    assert post(client, "/api/answer", {"answer": "no"}).status_code == 401
    trusted = browser(appliance)
    sent = trusted.post("/api/answer", json={"answer": "no"})  # no CSRF token
    assert sent.status_code == 403
    assert appliance.state()["table"]["question"] is not None


def test_a_hub_that_asks_nothing_says_so(trusted: FlaskClient) -> None:
    answer = post(trusted, "/api/answer", {"answer": "yes"})
    assert answer.status_code == 501


def test_the_question_is_said_in_the_readers_language() -> None:
    appliance = asking()
    standing = appliance.referee.question
    assert standing is not None
    question = standing.to_json()  # as the page's stream carries it
    assert sentence(question, translations("en")) == "1 green, 1 yellow on territory 7?"
    assert sentence(question, translations("de")) == "1 Grün, 1 Gelb auf Provinz 7?"
    for lang in ("it", "hu", "fi"):
        said = sentence(question, translations(lang)) or ""
        assert said.endswith("?") and "7" in said and said != question["message"], lang
    answered = {"kind": "answered", "answer": "no", "message": "..."}
    assert sentence(answered, translations("de")) == "Antwort Nein: die Kamera irrt sich dort."
    for zone, counts in [
        ("court:south", {"red": 2}),
        ("reserve:north", {}),
        ("emperor", {"territory": 4}),
        ("emperor", {"territory": None}),
        ("cylinder:red", {"place": "pool"}),
        ("cylinder:red", {"place": "north"}),
        ("cylinder:red", {"place": None}),
        ("discs:south", {"discs": [1, 2]}),
    ]:
        event = {"kind": "question", "zone": zone, "counts": counts, "message": "?"}
        said = sentence(event, translations("it")) or ""
        assert said.endswith("?") and said != "?", (zone, said)
    castles = {"kind": "question", "zone": "territory:3", "part": "castles"}
    assert sentence({**castles, "counts": {"white": 1}, "message": "?"}, translations("de")) == (
        "Burgen auf Provinz 3: 1 Weiß?"
    )


def test_the_appliances_own_refusals_are_in_the_pages_language() -> None:
    """Undo with nothing to undo, an end with no game: the appliance's own words, in the
    reader's language like the referee's (issue 17)."""
    client = browser(Appliance(PLAYERS))
    refused = post(client, "/api/undo")
    assert refused.status_code == 409 and refused.get_json()["error"] == "nothing to undo"
    client.get("/?lang=hu")
    refused = post(client, "/api/undo")
    assert refused.status_code == 409
    assert refused.get_json()["error"] == "nincs mit visszavonni"
    ended = post(client, "/api/game/end", {})
    assert ended.status_code == 409 and ended.get_json()["error"] == "nincs folyamatban játék"


def test_the_apis_own_refusals_are_in_the_pages_language() -> None:
    """A bad resume point for the live stream: the API's own 400, in Hungarian on a
    Hungarian page (issue 17)."""
    client = browser(Appliance(PLAYERS), pin=False)
    refused = client.get("/api/events?since=soon")
    assert refused.status_code == 400
    assert refused.get_json()["error"] == "since must be an event id like '1a2b3c.42', not 'soon'"
    client.get("/?lang=hu")
    refused = client.get("/api/events?since=soon")
    assert refused.status_code == 400
    assert refused.get_json()["error"] == (
        "a(z) since egy eseményazonosító legyen, például '1a2b3c.42', nem 'soon'"
    )


def test_a_correction_sent_wrong_is_explained_in_the_pages_language() -> None:
    """A correction with a colour left out or a seat not at the table: the 400 in
    Hungarian on a Hungarian page, the API's own names kept (issue 17)."""
    client = browser(Appliance(PLAYERS))
    client.get("/?lang=hu")
    counts = {"red": 1, "green": 0, "yellow": 0, "blue": 0}
    refused = post(client, "/api/correction", {"zone": "territory:7", "counts": counts})
    assert refused.status_code == 400
    assert refused.get_json()["error"] == "counts: minden színt adj meg; hiányzik: 'pink'"
    refused = post(client, "/api/correction", {"zone": "court:west", "counts": counts})
    assert refused.status_code == 400
    assert refused.get_json()["error"] == (
        "zone 'court:west': a hely ezek egyike legyen: south, north"
    )
