"""The exact distance tables of rotation masks, one per bit count, built with numpy.

Table k holds, for every k-bit mask in rank order (`rotation/masks.py`), the
fewest moves until the 8 centre bits are all set (uint8). Built by a
level-synchronous backward BFS from the goal masks (centre set). The eight
moves are closed under inverse (A<->F, B<->E, C<->H, D<->G), so a mask's
predecessors are its images under all eight moves. Each level expands the
frontier ("push") while it is the smaller side, and otherwise scans the masks
not yet reached for an image in the frontier ("pull"), far less work on the
last, mostly-explored levels: k = 8 (735,471 masks) takes well under 0.1 s.

Only building needs numpy; it is imported when a table is missing from the cache.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from fewest.engine.rotation import CELLS, LETTERS
from fewest.solvers.rotation import masks as bits
from fewest.solvers.rotation.masks import (
    CENTRE_MASK,
    COUNTS,
    GOAL_CELLS,
    HALF,
    LOW,
    UNREACHABLE,
)

# The scalar lookup tables as int64 arrays (numpy's index type: no conversions when gathering).
LO = np.array(bits.LO, dtype=np.int64)
HI = np.array(bits.HI, dtype=np.int64)
POPCOUNT = np.array(bits.POPCOUNT, dtype=np.int64)
RANK_LO = np.array(bits.RANK_LO, dtype=np.int64)
RANK_HI = np.array(bits.RANK_HI, dtype=np.int64)


def move_images(masks: np.ndarray, move: int) -> np.ndarray:
    """The masks (int64) after playing move number `move` (0 = A .. 7 = H), vectorised."""
    return LO[move][masks & LOW] | HI[move][masks >> HALF]


def ranks(masks: np.ndarray) -> np.ndarray:
    """Each mask's index in the table of its bit count (int64 in, int64 out)."""
    low = masks & LOW
    return RANK_LO[low] + RANK_HI[(POPCOUNT[low] << HALF) | (masks >> HALF)]


def masks_with(k: int) -> np.ndarray:
    """Every mask with k bits set, in rank order (ascending), as int64."""
    highs = np.flatnonzero((POPCOUNT <= k) & (POPCOUNT >= k - HALF))
    lows_by_count = [np.flatnonzero(POPCOUNT == p) for p in range(HALF + 1)]
    need = k - POPCOUNT[highs]
    sizes = np.array([lows.size for lows in lows_by_count])[need]
    lows = np.concatenate([lows_by_count[n] for n in need])
    return np.repeat(highs << HALF, sizes) | lows


def build(k: int, check: Callable[[], None] | None = None) -> np.ndarray:
    """The distance of every k-bit mask, indexed by rank (uint8); `check` may raise to stop."""
    if k not in COUNTS:
        raise ValueError(f"no table for {k} cells: a digit needs {GOAL_CELLS}..{CELLS}")
    masks = masks_with(k)
    dist = np.full(masks.size, UNREACHABLE, dtype=np.uint8)
    frontier = masks[(masks & CENTRE_MASK) == CENTRE_MASK]
    dist[ranks(frontier)] = 0
    left, depth = masks.size - frontier.size, 0
    while frontier.size:
        if left < frontier.size:
            frontier = _pull(masks, dist, depth, check)
        else:
            frontier = _push(frontier, dist, depth, check)
        left -= frontier.size
        depth += 1
    if left:  # every mask with 8+ cells can reach the centre; kept as a guard
        raise AssertionError(f"{left} masks with {k} cells never reached")
    return dist


def _push(
    frontier: np.ndarray, dist: np.ndarray, depth: int, check: Callable[[], None] | None
) -> np.ndarray:
    """Mark the unreached images of the frontier; return them (no duplicates: each move is a
    bijection, and masks marked by an earlier move are filtered out by the later ones)."""
    found = []
    for move in range(len(LETTERS)):
        images = move_images(frontier, move)
        where = ranks(images)
        new = dist[where] == UNREACHABLE
        dist[where[new]] = depth + 1
        found.append(images[new])
        if check is not None:
            check()
    return np.concatenate(found)


def _pull(
    masks: np.ndarray, dist: np.ndarray, depth: int, check: Callable[[], None] | None
) -> np.ndarray:
    """Mark the unreached masks with an image at `depth`; return them."""
    where = np.flatnonzero(dist == UNREACHABLE)
    found = []
    for move in range(len(LETTERS)):
        hit = dist[ranks(move_images(masks[where], move))] == depth
        found.append(where[hit])
        where = where[~hit]
        if check is not None:
            check()
    reached = np.concatenate(found)
    dist[reached] = depth + 1
    return masks[reached]
