"""The languages' check of the referee's words (`tests/referee/test_announcements_languages.py`:
every English word of the catalogs' msgids, less the words the languages share), for the
advisor's tests: loaded from its file, as the tests are no package."""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path
from types import ModuleType

CHECK = Path(__file__).resolve().parents[1] / "referee" / "test_announcements_languages.py"


@cache
def _check() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_announcements_languages_check", CHECK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def english_words(text: str) -> set[str]:
    """The English words left in ``text``."""
    check = _check()
    found: set[str] = check._words(text) & check.ENGLISH_WORDS
    return found
