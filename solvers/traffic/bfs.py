"""Layered BFS over traffic keys, a whole frontier at a time (see traffic/lines.py).

A layer is a sorted array of distinct keys. Expanding one needs no visited
set: every slide can be undone, so the move graph is undirected and the
neighbours of layer k lie in layers k-1, k and k+1. A plan to a key of the
last layer is found by stepping back one layer at a time. ("Get out" boards
too large to enumerate are searched by traffic/astar.py instead.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator, Protocol

import numpy as np

from fewest.engine.traffic import Move
from fewest.solvers.common.control import Control
from fewest.solvers.traffic.tuning import TUNING
from fewest.solvers.traffic.lines import Layout

OPPOSITE = {"L": "R", "R": "L", "U": "D", "D": "U"}


@dataclass(frozen=True)
class ForwardPlan:
    """A shortest plan found by BFS from the start (no table), or None: no plan exists."""

    moves: list[Move] | None
    states: int


class EdgeSink(Protocol):
    """What `layers` hands each expansion to (traffic/table.py keeps them as an adjacency list)."""

    def add(self, counts: np.ndarray, keys: np.ndarray) -> None: ...


def layers(
    layout: Layout,
    sources: np.ndarray,
    control: Control,
    edges: EdgeSink | None = None,
    chunk_entries: int = TUNING.chunk_entries,
) -> Iterator[np.ndarray]:
    """BFS layers from `sources` until none is left; `edges` receives every expansion;
    at most `chunk_entries` keys x slides expanded at a time."""
    previous = np.zeros(0, dtype=layout.dtype)
    current = unique(sources)
    meter = control.meter  # (the running search's, opened by its caller: counts go on across its phases)
    seen = 0
    while len(current):
        yield current
        seen += len(current)
        meter.stored = max(meter.stored, seen)
        parts = []
        for part in chunks(current, len(layout.slides) or 1, chunk_entries):
            control.tick(len(part))
            counts, after = layout.expand(part)
            if edges is not None:
                edges.add(counts, after)
            parts.append(minus(minus(unique(after), current), previous))
        previous, current = current, _merge(parts, control)


def walk_back(layout: Layout, path_layers: list[np.ndarray], goal: int) -> list[Move]:
    """A shortest plan to `goal` (a key of the last layer): step back one layer at a time."""
    moves: list[Move] = []
    key = goal
    for layer in reversed(path_layers[:-1]):
        move, key = step_back(layout, key, lambda before: holds(layer, before))
        moves.append(move)
    return moves[::-1]


def step_back(layout: Layout, key: int, wanted: Callable[[np.ndarray], np.ndarray]) -> tuple[Move, int]:
    """The slide into `key` from its first neighbour that `wanted` (neighbours -> mask) accepts,
    and that neighbour: every slide can be undone, so the neighbours are the predecessors."""
    slides, before = layout.slides_from(key)
    first = int(np.argmax(wanted(before)))
    back = layout.move(int(slides[first]))
    return Move(back.car, OPPOSITE[back.direction], back.distance), int(before[first])


def holds(ordered: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Which `keys` the sorted array `ordered` holds (a mask); `ordered` is not empty."""
    at = np.minimum(np.searchsorted(ordered, keys), len(ordered) - 1)
    return ordered[at] == keys


def goal_in(layout: Layout, layer: np.ndarray) -> int | None:
    """The first solved key of `layer`, if any."""
    solved = layout.solved(layer)
    return int(layer[np.argmax(solved)]) if solved.any() else None


def plan_to(layout: Layout, found: list[np.ndarray], goal: int) -> ForwardPlan:
    """The plan to `goal`, a key of the last of the BFS layers `found`."""
    return ForwardPlan(walk_back(layout, found, goal), sum(map(len, found)))


def unique(keys: np.ndarray) -> np.ndarray:
    """Sorted distinct keys (np.unique is many times slower on some numpy builds)."""
    return _distinct(np.sort(keys))


def chunks(keys: np.ndarray, width: int, entries: int) -> Iterator[np.ndarray]:
    """`keys` in parts of at most `entries` keys x `width` slides (at least one key each)."""
    step = max(1, entries // width)
    for at in range(0, len(keys), step):
        yield keys[at : at + step]


def _merge(parts: list[np.ndarray], control: Control) -> np.ndarray:
    """The sorted distinct keys of sorted distinct `parts`: merged pairwise (a stable sort of
    two sorted runs is one linear merge), looking at the control between merges."""
    while len(parts) > 1:
        control.check()
        parts = [_distinct(np.sort(np.concatenate(parts[i : i + 2]), kind="stable"))
                 for i in range(0, len(parts), 2)]
    return parts[0]


def _distinct(ordered: np.ndarray) -> np.ndarray:
    if len(ordered) < 2:
        return ordered
    keep = np.empty(len(ordered), dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


def minus(keys: np.ndarray, sorted_other: np.ndarray) -> np.ndarray:
    """`keys` without those in `sorted_other` (both sorted and unique)."""
    if not len(sorted_other) or not len(keys):
        return keys
    return keys[~holds(sorted_other, keys)]
