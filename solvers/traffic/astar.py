"""A* over traffic keys for "Get out" boards too large to enumerate, a frontier at a time.

f = depth + h, with h = the number of cars covering the row to clear (each
must move at least once; one slide changes h by at most 1, so h is
consistent). Positions are expanded in buckets of equal f, and inside a
bucket in layers of equal depth: with a consistent h a position is first
expanded at its true depth, so it is never expanded twice, and the first
solved position met lies at the least depth of any. Unlike iterative
deepening, nothing is searched again when the bound grows, so a board with
no plan costs one pass over its cluster (a plain BFS's work) and a board
with one costs only the positions with f below its answer.

The expanded ("closed") positions are kept as a few sorted runs of keys with
their depths, merged like a binary counter so there are O(log n) of them;
the plan is found backwards through them (every slide can be undone).
"""

from __future__ import annotations

import numpy as np

from fewest.engine.traffic import Move
from fewest.solvers.common.control import Control
from fewest.solvers.traffic.tuning import TUNING
from fewest.solvers.traffic.bfs import ForwardPlan, chunks, holds, minus, step_back, unique
from fewest.solvers.traffic.lines import Layout


class _Closed:
    """Expanded keys with their depths, in sorted runs of growing size."""

    def __init__(self) -> None:
        self.runs: list[tuple[np.ndarray, np.ndarray]] = []  # (sorted keys, depths), largest first
        self.size = 0

    def add(self, keys: np.ndarray, depth: int) -> None:
        """Add sorted distinct keys not yet held, all expanded at `depth`."""
        run = (keys, np.full(len(keys), depth, dtype=np.int16))
        self.size += len(keys)
        while self.runs and len(self.runs[-1][0]) <= 2 * len(run[0]):
            keys_before, depths_before = self.runs.pop()
            merged = np.concatenate([keys_before, run[0]])
            order = np.argsort(merged, kind="stable")
            run = (merged[order], np.concatenate([depths_before, run[1]])[order])
        self.runs.append(run)

    def without(self, keys: np.ndarray) -> np.ndarray:
        """Sorted distinct `keys` less every key held."""
        for held, _ in self.runs:
            keys = minus(keys, held)
        return keys

    def depth_of(self, keys: np.ndarray) -> np.ndarray:
        """Each key's depth, -1 when not held."""
        found = np.full(len(keys), -1, dtype=np.int64)
        for held, depths in self.runs:
            hit = holds(held, keys)
            found[hit] = depths[np.searchsorted(held, keys[hit])]
        return found


def best_first(layout: Layout, start: int, control: Control, chunk_entries: int = TUNING.chunk_entries) -> ForwardPlan:
    """A shortest plan from `start` to a solved position, or ForwardPlan(None, n) once all n
    positions of its cluster were expanded without one. Raises Stopped as the control says."""
    closed = _Closed()
    meter = control.meter  # (the running search's, opened by its caller: counts go on across its phases)
    h0 = int(layout.lower_bound(np.array([start], dtype=layout.dtype))[0])
    # pending[f][g]: arrays of keys first met at depth g with depth + h = f (maybe repeated)
    pending: dict[int, dict[int, list[np.ndarray]]] = {h0: {0: [np.array([start], dtype=layout.dtype)]}}
    while pending:
        f = min(pending)
        meter.bound = f
        layers = pending[f]
        while layers:
            g = min(layers)
            keys = closed.without(unique(np.concatenate(layers.pop(g))))
            if not len(keys):
                continue
            if g == f:  # h = 0 here: solved, and no position with a smaller f is left
                return ForwardPlan(_walk_back(layout, closed, int(keys[0]), g), closed.size + len(keys))
            closed.add(keys, g)
            meter.stored = max(meter.stored, closed.size)
            for part in chunks(keys, len(layout.slides) or 1, chunk_entries):
                control.tick(len(part))
                children = unique(layout.expand(part)[1])
                children = closed.without(children)
                child_f = g + 1 + layout.lower_bound(children)
                for value in np.unique(child_f):
                    chosen = children[child_f == value]
                    pending.setdefault(int(value), {}).setdefault(g + 1, []).append(chosen)
        del pending[f]
    return ForwardPlan(None, closed.size)


def _walk_back(layout: Layout, closed: _Closed, goal: int, depth: int) -> list[Move]:
    """A shortest plan to `goal` at `depth`: each step back goes to an expanded key one
    shallower (its depth is exact, so the plan is as short as `depth`)."""
    moves: list[Move] = []
    key = goal
    for want in range(depth - 1, -1, -1):
        move, key = step_back(layout, key, lambda before: closed.depth_of(before) == want)
        moves.append(move)
    return moves[::-1]
