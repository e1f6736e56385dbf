"""Comparing a snapshot with the ground truth, zone by zone."""

from __future__ import annotations

from typing import Any


def zone_results(read: dict[str, Any], truth: dict[str, Any]) -> dict[str, bool]:
    """One entry per zone of the snapshot: did the reader get every count right?"""
    out: dict[str, bool] = {}
    for n, t in truth["territories"].items():
        out[f"territory {n}"] = read["territories"].get(n) == t
    for group in ("courts", "reserves", "discs"):
        for seat, t in truth[group].items():
            out[f"{group[:-1]} {seat}"] = read[group].get(seat) == t
    for colour, t in truth["cylinders"].items():
        out[f"cylinder {colour}"] = read["cylinders"].get(colour) == t
    out["emperor"] = read["emperor"] == truth["emperor"]
    return out


def differences(read: dict[str, Any], truth: dict[str, Any]) -> list[str]:
    """Readable list of what differs, for test failure messages."""
    return [k for k, ok in zone_results(read, truth).items() if not ok]
