"""Shared fixtures: the default layout and a helper to render hand-made tables."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from vision.layout import Layout, load_layout
from vision.render import scene as sc
from vision.render.pieces import Piece


@pytest.fixture(scope="session")
def layout() -> Layout:
    return load_layout()


Render = Callable[..., tuple[np.ndarray, dict[str, Any]]]


@pytest.fixture(scope="session")
def render_table(layout: Layout) -> Render:
    """Render the given pieces under mild light; returns (frame, ground truth)."""

    def render(pieces: list[Piece], seed: int = 7, hands: bool = False,
               hard: bool = False, lighting: Any = None) -> tuple[np.ndarray, dict[str, Any]]:
        rng = np.random.default_rng(seed)
        base = sc.random_scene(layout, rng, hard=hard, hand_probability=1.0 if hands else 0.0)
        scene = sc.with_changes(base, pieces)
        if lighting is not None:
            scene.lighting = lighting(scene.camera)
        return sc.render(layout, scene, seed), sc.truth(layout, scene)

    return render
