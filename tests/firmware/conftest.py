"""Hooks of the firmware tests."""

from __future__ import annotations

import pytest

#: The suite's longest test by far (the whole demo game drawn and read: some 3-4 minutes
#: of one core), which no other test waits on.
LONGEST = "tests/firmware/test_demo_game.py::test_the_demo_plays_the_whole_game_to_its_winner"


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """The whole demo game is run first (suite time). ``./test.sh`` runs one worker a core
    (pytest-xdist, worksteal), and a worker takes its share of the tests in collection
    order: collected in the middle, the longest test started only after a minute or more
    of others and the suite waited for it at the end; first, the other workers run the
    rest meanwhile."""
    first = [item for item in items if item.nodeid == LONGEST]
    if first:
        items[:] = first + [item for item in items if item.nodeid != LONGEST]
