"""Zones whose pixels did not change keep their counts, exactly.

The referee trusts a table once it has held for a few frames, and the stream contract
says a misread not flagged `occluded` lasts at most two snapshots. A reading that can
flicker on a still table (a count on a knife edge between two readings) breaks that on a
real camera. So each zone's pixels are kept as they were when the zone was last read;
a zone is read again only when enough of its pixels moved (a hand, a piece), and
otherwise repeats its last counts. Light that drifts slowly makes a zone read again now
and then, which is harmless.

A frame in which nothing moved at all is not read: the last snapshot stands. This is
judged on the grey thumbnail the motion check takes anyway (one pixel in 64).
"""

from __future__ import annotations

from typing import Any, TypeVar

import cv2
import numpy as np

from vision.atlas import Atlas, Cell
from vision.snapshot import SnapshotJSON

#: Thumbnail pixels (one in 8 x 8) that must change for the frame to be read again. A
#: cube alone covers one or two of them, but no piece moves without a hand, which
#: covers hundreds.
STILL_PIXELS = 2
#: Grey levels a thumbnail pixel must move to count (sensor noise stays far below).
STILL_LEVELS = 30
#: The confidence of an emperor seen, by his shape, on another tile while the tile he was
#: last seen on, by his shape, with no hand over the table, still looks as it did:
#: lifting him changes far more of its pixels than a zone needs to be read again, so one
#: of the two readings is another yellow blob taken for him (a product choice, not
#: fitted: 0 asks at once).
LEFT_UNTOUCHED = 0.0
#: The confidence of an emperor guessed (the widest yellow blob, no blob having his
#: shape) on a tile where he was not: a yellow cube on busy art may hold as wide a disc
#: as the sliver of him the frame shows, so where he went only people can say (a
#: product choice, not fitted: 0 asks at once when the move is judged wrong).
GUESSED = 0.0


class Steady:
    """Per zone, the pixels and counts of its last reading."""

    def __init__(self, atlas: Atlas, changed_levels: float, least_px: float) -> None:
        self.atlas = atlas
        self.levels = changed_levels
        self.least_px = least_px
        self._pixels: np.ndarray | None = None
        self._snap: SnapshotJSON | None = None
        self._thumb: np.ndarray | None = None
        self._cells = len(atlas.cells)
        self._tiles = {int(c.zone.raw["territory"]): c for c in atlas.cells
                       if c.zone.kind == "territory"}
        #: the cells of each zone made of several (a disc tray's five slots): such a
        #: zone is read again, and keeps its last reading, as one (see `moved`)
        by_name: dict[str, list[int]] = {}
        for cell in atlas.cells:
            by_name.setdefault(cell.zone.name, []).append(cell.index)
        self._together = [np.array(cells) for cells in by_name.values() if len(cells) > 1]
        #: the tile the emperor was last read on with no hand over the table, and its
        #: pixels then
        self._anchor: tuple[int, np.ndarray] | None = None

    def reset(self) -> None:
        self._pixels = self._snap = self._thumb = None
        self._anchor = None

    def still(self, thumb: np.ndarray) -> SnapshotJSON | None:
        """The last snapshot when this frame (its grey thumbnail) shows what the one
        before did."""
        last, self._thumb = self._thumb, thumb
        if self._snap is None or last is None or last.shape != thumb.shape:
            return None
        moved = int(np.count_nonzero(cv2.absdiff(thumb, last) > STILL_LEVELS))
        if moved >= STILL_PIXELS or self._snap["occluded"]:
            return None
        return _copied(self._snap)

    def unkept(self) -> bool:
        """Will `merge` put back no place of the emperor's or a cylinder's? So after a
        read with a hand over the table (see `_keep`): this read must find them."""
        return self._snap is None or bool(self._snap["occluded"])

    def emperor_cells(self) -> list[int]:
        """The atlas cell indices the emperor may stand in unseen by the zones that
        moved: the tile he was last read on and the one he was last seen on with no
        hand over the table (`_place_emperor`), or every tile before he has been read."""
        tiles: set[int] = set()
        if self._snap is not None and self._snap["emperor"] is not None:
            tiles.add(self._snap["emperor"])
        if self._anchor is not None:
            tiles.add(self._anchor[0])
        if not tiles or not tiles <= self._tiles.keys():
            return [c.index for c in self._tiles.values()]
        return [self._tiles[t].index for t in sorted(tiles)]

    def changed(self, atlas_img: np.ndarray) -> np.ndarray:
        """Which zones (atlas cell indices, 1-based) moved since they were last read."""
        if self._pixels is None or self._pixels.shape != atlas_img.shape:
            return np.arange(1, self._cells + 1)
        diff = _brightest(cv2.absdiff(atlas_img, self._pixels)) > self.levels
        counts = np.bincount(self.atlas.zone_index[diff], minlength=self._cells + 1)
        counts[0] = 0
        return np.flatnonzero(counts >= self.least_px)

    def moved(self, changed: np.ndarray) -> np.ndarray | None:
        """Per atlas cell index (0: outside every zone), whether `merge` will take that
        zone's counts from this read, given the zones `changed` returned: None when it
        will take every zone's (no reading kept yet, or every zone moved). A read need
        not count what `merge` will put back: a still zone's counts, doubts included,
        are its last reading's whatever this frame shows."""
        if self._snap is None or self._pixels is None or len(changed) >= self._cells:
            return None
        moved = np.zeros(self._cells + 1, bool)
        moved[changed] = True
        # A zone's doubt is one for all its cells (a tray's for its five slots): kept from
        # the last reading for a still cell, it would stand for a cell read again now. In
        # 2-player camera game 900293 (798.6 s) a hand over Anna's tray left a slot half
        # shown, doubted; the next frame read that slot clear, but the still slots beside
        # it put the tray's last doubt back, and the referee asked about a tray read right
        # for as long as it stood.
        for cells in self._together:
            if moved[cells].any():
                moved[cells] = True
        return moved

    def merge(self, snap: SnapshotJSON, atlas_img: np.ndarray, changed: np.ndarray,
              guessed: bool = False) -> SnapshotJSON:
        """`snap` with every unchanged zone's counts as they were; remembers the result.
        `guessed`: the emperor was not seen by his shape, only taken to be the widest
        yellow blob (there is always one emperor on the table)."""
        last = self._snap
        moved = self.moved(changed)
        if last is not None and moved is not None:
            _keep(snap, last, [c for c in self.atlas.cells if not moved[c.index]], moved,
                  self.atlas.cells)
            # The zones read now take this frame's pixels (OpenCV's masked copy: numpy's
            # boolean indexing of a colour image took a quarter of a full read).
            lut = np.zeros(256, np.uint8)
            lut[:len(moved)] = moved
            mask = cv2.LUT(self.atlas.zone_index, lut)
            cv2.copyTo(atlas_img, mask, self._pixels)
        else:
            self._pixels = atlas_img.copy()
        if not snap["occluded"]:
            self._place_emperor(snap, atlas_img, guessed)
        self._snap = _copied(snap)
        return snap

    def _place_emperor(self, snap: SnapshotJSON, atlas_img: np.ndarray, guessed: bool
                       ) -> None:
        """Keep the emperor where he was last seen by his shape while that tile did not
        move; doubt him seen by his shape elsewhere then (`LEFT_UNTOUCHED`).

        Compared between frames with no hand over the table: during a hand his tile is
        covered and any reading of him is as good as none. A guess (the widest yellow
        blob, when no blob has his shape: he stands in a still tile whose blobs were not
        looked at again, or his shape is lost in hard light) never moves him off a tile
        that did not move, and never anchors him: at set-up, before he is put down, it
        may be a yellow cube. A guess that moves him is doubted (`GUESSED`), and so is one
        that keeps him on his tile once that tile changed as lifting him changes it."""
        now = snap["emperor"]
        anchor = self._anchor
        if anchor is not None and now != anchor[0]:
            if not self._left(anchor, atlas_img):
                if guessed or now is None:
                    snap["emperor"] = anchor[0]
                else:
                    snap.setdefault("confidence", {})["emperor"] = LEFT_UNTOUCHED
                return
        elif anchor is not None and guessed and self._left(anchor, atlas_img):
            # Guessed on his tile, which changed as lifting him changes it: the guess is
            # another yellow blob there as likely as he (3-player hard camera game
            # 900325: lifted to the next tile, unseen by his shape in that light, and a
            # yellow cube left behind kept him where he had been, sure).
            snap.setdefault("confidence", {})["emperor"] = GUESSED
            return
        if now is None or guessed or now not in self._tiles:
            if now != (anchor[0] if anchor is not None else None):
                self._anchor = None
                if guessed and now is not None:
                    snap.setdefault("confidence", {})["emperor"] = GUESSED
            return
        cell = self._tiles[now]
        self._anchor = (now, atlas_img[cell.y:cell.y + cell.h, cell.x:cell.x + cell.w].copy())

    def _left(self, anchor: tuple[int, np.ndarray], atlas_img: np.ndarray) -> bool:
        """Does the tile the emperor was last seen on by his shape look other than it did
        then, by as much as a zone needs to be read again?"""
        tile, pixels = anchor
        cell = self._tiles[tile]
        crop = atlas_img[cell.y:cell.y + cell.h, cell.x:cell.x + cell.w]
        moved = int(np.count_nonzero(
            (_brightest(cv2.absdiff(crop, pixels)) > self.levels) & cell.mask))
        return moved >= self.least_px


_Tree = TypeVar("_Tree")


def _copied(tree: _Tree) -> _Tree:
    """A deep copy of JSON-like data (dicts and lists of numbers, strings and None),
    as `copy.deepcopy` makes it, in a fifth of its time: it is taken on every frame,
    the frames where nothing changed included."""
    copied: Any
    if isinstance(tree, dict):
        copied = {k: _copied(v) for k, v in tree.items()}
    elif isinstance(tree, list):
        copied = [_copied(v) for v in tree]
    else:
        return tree
    return copied  # type: ignore[no-any-return]


def _brightest(image: np.ndarray) -> np.ndarray:
    """Per pixel, the largest of a colour image's three channels (numpy's ``max(axis=2)``,
    which reduces each pixel's three bytes one at a time, twenty times slower)."""
    b, g, r = cv2.split(image)
    brightest: np.ndarray = cv2.max(cv2.max(b, g), r)
    return brightest


#: A zone as the snapshot files it: a territory by number, a disc slot by seat and disc,
#: any other zone by its seat (None for the pool).
ZoneKey = tuple[str, int | tuple[str | None, int] | str | None]


def _zone_key(cell: Cell) -> ZoneKey:
    zone = cell.zone
    if zone.kind == "territory":
        return ("territory", int(zone.raw["territory"]))
    if zone.kind == "disc-slot":
        return ("disc-slot", (zone.seat, int(zone.raw["disc"])))
    return (zone.kind, zone.seat)


def _keep(snap: SnapshotJSON, last: SnapshotJSON, still: list[Cell], moved: np.ndarray,
          cells: list[Cell]) -> None:
    """Copy the still zones' counts from `last` into `snap`.

    The emperor and the cylinders belong to whichever zone they stand in: they keep
    their last place while that zone is still and no zone that moved now shows them.
    Not a place read with a hand over the table: they are found by looking around a
    tile or a court card's dot, where a sleeve over the dot beside a still card is
    taken for a cylinder, and that echo would then stand on the card after the hand.
    """
    confidence = dict(snap.get("confidence", {}))
    for cell in still:
        name = cell.zone.name
        confidence.pop(name, None)
        if name in last.get("confidence", {}):
            confidence[name] = last["confidence"][name]
    snap["confidence"] = dict(sorted(confidence.items()))
    still_keys = {_zone_key(c) for c in still}
    moved_keys = {_zone_key(c) for c in cells if moved[c.index]}
    for kind, key in still_keys:
        if kind == "territory":
            snap["territories"][str(key)] = _copied(last["territories"][str(key)])
        elif kind == "court" and isinstance(key, str) and key in snap["courts"]:
            snap["courts"][key] = dict(last["courts"][key])
        elif kind == "reserve" and isinstance(key, str) and key in snap["reserves"]:
            snap["reserves"][key] = dict(last["reserves"][key])
        elif kind == "disc-slot" and isinstance(key, tuple):
            seat, disc = key
            if seat is None or seat not in snap["discs"]:
                continue
            lying = set(snap["discs"][seat]) - {disc}
            if disc in last["discs"][seat]:
                lying.add(disc)
            snap["discs"][seat] = sorted(lying)
    if last["occluded"]:
        return
    emperor = last["emperor"]
    new = snap["emperor"]
    if emperor is not None and ("territory", emperor) in still_keys and (
            new is None or ("territory", new) not in moved_keys):
        snap["emperor"] = emperor
    elif new is not None and ("territory", new) in still_keys and new != emperor:
        snap["emperor"] = emperor if (emperor is None or ("territory", emperor) in still_keys
                                      ) else new
    for colour, was in last["cylinders"].items():
        now = snap["cylinders"].get(colour)
        place = ("pool", None) if was == "pool" else ("court", was)
        now_place = ("pool", None) if now == "pool" else ("court", now)
        stays = was is not None and place in still_keys and (
            now is None or now_place not in moved_keys)
        # A still zone cannot have gained a cylinder: that reading is the old one's echo.
        echo = now is not None and now_place in still_keys and now != was
        if stays or echo:
            snap["cylinders"][colour] = was


__all__ = ["Steady"]
