"""A fitted model as the fitting scripts store it: one JSON file whose ``model`` holds
what the reader needs (beside the command that made it, the data and the report).

Each model says in its own error class what is wrong with its own fields; that the file
cannot be read, or holds no model, is said the same way for all of them, naming the
file.
"""

from __future__ import annotations

import json
from pathlib import Path


def read_model(path: Path, error: type[ValueError]) -> dict[str, object]:
    """The ``model`` of the file at `path`; `error` (naming the file) when the file
    cannot be read or holds none."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise error(f"{path}: cannot be read ({exc})") from exc
    if not isinstance(data, dict) or not isinstance(data.get("model"), dict):
        raise error(f"{path}: no fitted 'model'")
    model: dict[str, object] = data["model"]
    return model
