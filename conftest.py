"""Fixtures shared by every test folder (here at the top: a conftest in tests/ would put
tests/ on the import path, where tests/vision would shadow the vision package)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable

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
