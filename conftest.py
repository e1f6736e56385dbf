"""Fixtures shared by every test folder (here at the top: a conftest in tests/ would put
tests/ on the import path, where tests/vision would shadow the vision package)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from typing import Any

import pytest


def _without_privileges(command: list[str]) -> list[str]:
    """``command`` as a user who may not write what its modes forbid. Root may write
    anything, so root runs it with no capabilities at all, staying root: still the owner
    of the checkout, wherever it was cloned (``nobody`` could not enter a checkout in a
    0700 folder, nor run its venv's Python)."""
    if os.geteuid() != 0:
        return command
    drop = ["setpriv", "--bounding-set=-all", "--inh-caps=-all"]
    if shutil.which("setpriv") is None or subprocess.run([*drop, "true"]).returncode != 0:
        pytest.skip("needs setpriv to drop root's capabilities")
    return [*drop, *command]


@pytest.fixture
def without_privileges() -> Callable[[list[str]], list[str]]:
    return _without_privileges


@pytest.fixture(scope="session", autouse=True)
def _border_points_once_a_layout() -> Iterator[None]:
    """Each layout's border sample points worked out once a test process (suite time).

    Every `vision.reader.Reader` works them out from the layout (`vision.occlusion.
    border_points`: some 9000 point-in-polygon tests, about a second), and the suite
    builds hundreds of readers, nearly all on the default layout. The real function
    still answers the first reader of each layout (keyed on what it reads: the mat's
    size, its markers, its zones' polygons and the sampling step); later readers get a
    copy of that answer. Readers in subprocesses (``carolus run``, ``carolus vision``)
    work them out as always."""
    try:
        from vision import occlusion
    except ImportError:  # the vision's dependencies are not installed
        yield
        return
    real = occlusion.border_points
    known: dict[Any, Any] = {}

    def border_points(layout: Any) -> Any:
        key = (
            occlusion.STEP_MM,
            tuple(layout.size_mm),
            tuple(sorted(layout.markers.items())),
            tuple(zone.polygon for zone in layout.zones),
        )
        if key not in known:
            known[key] = real(layout)
        return known[key].copy()

    occlusion.border_points = border_points
    try:
        yield
    finally:
        occlusion.border_points = real
