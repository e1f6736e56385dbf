"""The web box's shape: its modules import each other without a cycle (each blueprint
imports alone), and the hub's optional parts are protocols the page checks with
``isinstance`` — which the real appliance and the preview both satisfy."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from firmware.appliance import Appliance
from firmware.hub import CAPABILITIES, CameraHub, GamesHub, QuestionHub
from web.hub_extras import offered
from web.preview import PreviewHub

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"


def web_imports() -> dict[str, set[str]]:
    """Every module of ``web/`` and the ``web`` modules it imports, at any depth of its
    code (an import inside a function closes a cycle just as well, only later)."""
    modules = {f"web.{p.stem}" for p in WEB.glob("*.py") if p.stem != "__init__"}
    graph: dict[str, set[str]] = {}
    for module in sorted(modules):
        tree = ast.parse((WEB / f"{module[4:]}.py").read_text())
        found: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names if a.name in modules}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module == "web":
                    found |= {f"web.{a.name}" for a in node.names} & modules
                elif node.module in modules:
                    found.add(node.module)
        graph[module] = found - {module}
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (its modules in order), or None."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        for imported in sorted(graph[module]):
            found = visit(imported, [*path, module])
            if found:
                return found
        done.add(module)
        return None

    for module in sorted(graph):
        found = visit(module, [])
        if found:
            return found
    return None


def test_the_web_modules_import_each_other_without_a_cycle() -> None:
    graph = web_imports()
    assert "web.context" in graph["web.api"] and "web.api" in graph["web.app"]
    assert cycle(graph) is None, " -> ".join(cycle(graph) or [])


def test_the_cycle_finder_finds_one() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_the_api_imports_alone_without_the_app() -> None:
    code = (
        "import sys, web.api, web.pages; "
        "assert 'web.app' not in sys.modules, 'web.api or web.pages pulled in web.app'"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr


def test_the_appliance_offers_every_capability() -> None:
    for capability in CAPABILITIES:
        assert issubclass(Appliance, capability), capability.__name__


def test_a_capability_is_what_a_hub_has_not_what_it_says() -> None:
    class Asks:
        def answer(self, answer: str) -> dict[str, bool]:
            return {"yes": answer == "yes"}

    class Silenced(Asks):
        answer = None  # type: ignore[assignment]

    assert isinstance(Asks(), QuestionHub) and not isinstance(Asks(), CameraHub)
    assert not isinstance(Silenced(), QuestionHub)  # a method set to None is absent
    preview = PreviewHub()
    assert isinstance(preview, GamesHub) and not isinstance(preview, CameraHub)
    assert list(offered(preview)) == [
        "camera_jpeg",
        "calibrate",
        "camera_overlay",
        "new_game",
        "end_game",
        "set_training",
        "advice",
        "answer",
    ]
