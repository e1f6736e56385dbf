"""The docs a clone has are the docs it needs: nothing points at ``../shared`` (a folder
beside the checkout that a clone does not have), and every relative link in the README and
the docs — file and heading — leads somewhere that exists (issue 15)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SKIP = {".venv", ".git", "node_modules", "__pycache__", ".mypy_cache", ".ruff_cache",
        ".pytest_cache", ".hypothesis"}
TEXT = {".py", ".md", ".toml", ".txt", ".json", ".html", ".js", ".css", ".sh", ".cfg",
        ".service", ".yaml", ".yml", ".ini", ".jsonl", ".po", ".pot", ""}
LINKED = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
          *sorted((ROOT / "hardware").glob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")


def repo_files() -> list[Path]:
    files = []
    for path in ROOT.rglob("*"):
        rel = path.relative_to(ROOT)
        if any(part in SKIP or part.endswith(".egg-info") for part in rel.parts):
            continue
        if path.is_file() and path.suffix in TEXT and path.stat().st_size < 2_000_000:
            files.append(path)
    return files


def test_no_file_links_to_the_shared_folder_beside_the_checkout() -> None:
    offenders = []
    for path in repo_files():
        if path == Path(__file__).resolve():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if "../shared" in text:
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


@pytest.mark.parametrize("folder", ["README.md", "docs", "hardware", "examples",
                                    "firmware", "referee", "web", "vision", "tests"])
def test_the_newcomers_docs_name_no_shared_file(folder: str) -> None:
    base = ROOT / folder
    paths = [base] if base.is_file() else [p for p in base.rglob("*") if p.is_file()
                                           and p.suffix in TEXT]
    for path in paths:
        text = path.read_text(encoding="utf-8", errors="replace")
        assert not re.search(r"shared/(rules|spec|style)/", text), path


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {slug(m) for m in re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.M)}


def links(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)     # code blocks are not links
    return [a or b for a, b in LINK.findall(text)]


@pytest.mark.parametrize("doc", LINKED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_heading_that_exist(doc: Path) -> None:
    for target in links(doc):
        if re.match(r"[a-z]+:", target):            # http:, https:, mailto:
            continue
        file, _, anchor = target.partition("#")
        dest = (doc.parent / file).resolve() if file else doc
        assert dest.exists(), f"{doc.name}: {target}"
        assert ROOT in dest.parents or dest == ROOT, f"{doc.name}: {target} leaves the repo"
        if anchor and dest.suffix == ".md":
            assert anchor in anchors(dest), f"{doc.name}: {target}: no such heading"


def test_the_readme_links_the_projects_own_docs() -> None:
    readme = links(ROOT / "README.md")
    for doc in ("docs/rules.md", "docs/record.md", "docs/table.md"):
        assert doc in readme
        assert (ROOT / doc).is_file()


def test_the_docs_keep_every_field_name_of_the_formats() -> None:
    record = (ROOT / "docs" / "record.md").read_text(encoding="utf-8")
    for field in ("format", "players", "name", "castles", "seat", "setup", "territories",
                  "emperor", "reserves", "cubes_per_colour", "rounds", "discs", "turns",
                  "player", "court", "refill", "returned", "meta", "legal", "error",
                  "final", "events", "units", "owners", "round", "finished", "winner",
                  "reason", "control", "reserve", "kind", "colour", "from", "side", "k"):
        assert f"`{field}`" in record or f'"{field}"' in record, field
    table = (ROOT / "docs" / "table.md").read_text(encoding="utf-8")
    for field in ("size_mm", "aruco_dictionary", "markers", "corners_mm", "zones",
                  "polygon_mm", "board_mm", "rows_mm", "pieces_mm", "t", "mat", "occluded",
                  "territories", "cubes", "castles", "emperor", "courts", "reserves",
                  "cylinders", "discs", "piece", "disc"):
        assert f"`{field}`" in table or f'"{field}"' in table, field
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert rules.count("**Reading:**") == 6
