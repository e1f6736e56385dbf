"""One alarm at a time: while an alarm holds the game, the players who play on over it
make every later table show the next step against a turn the referee still waits for.
Those are not new illegal acts and must not buzz again (issue 14); the referee keeps
judging, comes back to the table as it is once the first alarm is put right, and a real
illegal act after that buzzes as any other."""

from __future__ import annotations

from table_games import Script

from referee.table.events import Illegal, TableEvent

RESERVES = {
    "south": "red red red green green blue pink",
    "north": "green yellow yellow blue blue pink pink",
}


def anna_to_move() -> Script:
    script = Script()
    script.lay_out(RESERVES)
    script.disc("south", 2)
    script.disc("north", 3)
    game = script.referee.game
    assert game is not None and game.to_move == "Anna" and game.step.value == "cubes"
    return script


def alarms(events: list[TableEvent]) -> list[Illegal]:
    return [e for e in events if isinstance(e, Illegal)]


def missed_green_played_on(script: Script) -> list[TableEvent]:
    """Anna plays two reds and a green the camera misses on territory 4, then the
    players play on: the emperor, the red cylinder, Anna's refill, two of Bob's cubes."""
    script.cube("south", "red", "south")
    script.cube("south", "red", "south")
    script.mat.reserves["south"][1] -= 1  # the green onto territory 4, unseen
    script.show()
    start = len(script.events)
    script.emperor(2)
    script.cylinder("red", "south")
    for colour in ("blue", "blue", "yellow"):
        script.refill("south", colour)
    script.cube("north", "blue", "north")
    script.cube("north", "blue", "north")
    return script.events[start:]


def test_an_alarm_the_players_play_on_over_buzzes_once() -> None:
    script = anna_to_move()
    events = missed_green_played_on(script)
    raised = alarms(events)
    assert [e.code for e in raised] == ["turn-order"]
    assert "resolved" not in script.kinds(events)
    standing = script.referee.illegal
    assert standing is not None  # the display still shows what is wrong now


def test_once_the_alarm_is_put_right_the_game_catches_up_with_the_table() -> None:
    script = anna_to_move()
    missed_green_played_on(script)
    script.mat.territories[3][1] += 1  # the camera sees the green after all
    events = script.show()
    kinds = script.kinds(events)
    assert kinds[0] == "resolved" and "illegal" not in kinds
    assert "cubes-played" in kinds and "refilled" in kinds and kinds[-1] == "cubes-placed"
    game = script.referee.game
    assert game is not None and game.to_move == "Bob" and game.step.value == "cubes"
    assert script.referee.illegal is None


def test_a_real_illegal_act_after_the_first_alarm_is_put_right_buzzes() -> None:
    script = anna_to_move()
    missed_green_played_on(script)
    script.mat.territories[3][1] += 1
    script.show()
    assert script.kinds(script.cube("north", "pink", 5))[0] == "cubes-played"
    events = script.cube("north", "green", "south")  # a fourth cube, into Anna's court
    assert len(alarms(events)) == 1
    script.mat.courts["south"][1] -= 1
    script.mat.reserves["north"][1] += 1
    assert script.kinds(script.show()) == ["resolved"]
    events = script.cube("north", "yellow", "south")  # and again: a new buzz
    assert len(alarms(events)) == 1


def test_undo_puts_a_held_alarm_right_and_the_next_alarm_buzzes() -> None:
    script = anna_to_move()
    for _ in range(3):
        script.cube("south", "red", "south")
    events = script.cube("south", "green", 5)  # a fourth cube
    assert [e.code for e in alarms(events)] == ["cube-count"]
    assert alarms(script.cube("south", "green", 6)) == []  # a fifth: the alarm stands
    undone = script.referee.undo()  # takes back Anna's three cubes, the alarm with them
    assert script.kinds(undone) == ["undone", "resolved"]
    events = script.cube("south", "blue", 7)  # the table changes, still too many cubes
    assert [e.code for e in alarms(events)] == ["cube-count"]
