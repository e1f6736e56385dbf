"""One printed sheet of the mat is not the mat: a frame whose markers all come from one
sheet (or bunch on one edge) reads ``"mat": false`` with the reason on stderr, never a
table of made-up pieces (issue 15: page 1 of the PDF read as 22 castles on territory 1)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from firmware.cli import main
from vision.layout import Layout
from vision.markers import MatLocator
from vision.mat import render_mat, sheets


def photo_of(page: np.ndarray, size: tuple[int, int] = (2304, 1296)) -> np.ndarray:
    """A camera frame filled by one sheet lying on a brown table, a little turned."""
    w, h = size
    frame = np.full((h, w, 3), (60, 90, 130), np.uint8)
    ph, pw = page.shape[:2]
    scale = 0.9 * h / ph
    src = np.float32([[0, 0], [pw, 0], [pw, ph], [0, ph]])
    cx, cy, a = w / 2, h / 2, np.radians(4)
    corners = (src - [pw / 2, ph / 2]) * scale
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    dst = np.float32(corners @ rot.T + [cx, cy])
    m = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(page, m, (w, h), dst=frame, borderMode=cv2.BORDER_TRANSPARENT)


@pytest.fixture(scope="module")
def page_one(layout: Layout) -> np.ndarray:
    return photo_of(sheets(layout, "A3", px_per_mm=4.0)[0])


def test_page_one_of_the_pdf_is_no_mat_and_says_why(
    page_one: np.ndarray, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image = tmp_path / "page1.jpg"
    cv2.imwrite(str(image), page_one, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert main(["vision", "read", str(image)]) == 0
    captured = capsys.readouterr()
    snap = json.loads(captured.out)
    assert snap["mat"] is False
    assert all(sum(t["castles"].values()) == 0 for t in snap["territories"].values())
    assert "page1.jpg: mat not found" in captured.err
    assert "whole mat" in captured.err


@pytest.mark.parametrize("paper", ["A3", "A4"])
def test_no_single_sheet_gives_a_pose(layout: Layout, paper: str) -> None:
    locator = MatLocator(layout)
    for page in sheets(layout, paper, px_per_mm=3.0):
        gray = cv2.cvtColor(photo_of(page), cv2.COLOR_BGR2GRAY)
        assert locator.detect(gray) is None
        assert locator.failure is not None


def test_the_markers_of_one_sheet_are_seen_but_too_bunched(
    layout: Layout, page_one: np.ndarray
) -> None:
    locator = MatLocator(layout)
    _corners, ids, _ = locator.detector.detectMarkers(cv2.cvtColor(page_one, cv2.COLOR_BGR2GRAY))
    assert ids is not None and len(ids) >= 3      # enough markers for the old rule
    assert locator.detect(cv2.cvtColor(page_one, cv2.COLOR_BGR2GRAY)) is None
    assert "span only" in (locator.failure or "")


def test_the_whole_mat_still_gives_a_pose_and_a_spread_reason_is_none(layout: Layout) -> None:
    mat = render_mat(layout, 1.2)
    frame = np.full((1296, 2304, 3), (60, 90, 130), np.uint8)
    frame[100:100 + mat.shape[0], 500:500 + mat.shape[1]] = mat
    locator = MatLocator(layout)
    assert locator.detect(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)) is not None
    assert locator.failure is None
    # two adjacent edges of markers are enough; one edge is not
    top = [m for m, c in layout.markers.items() if c[0][1] < 100]
    right = [m for m, c in layout.markers.items() if c[0][0] > 800]
    assert locator.spread_failure(sorted(set(top + right))) is None
    assert locator.spread_failure(top) is not None
