"""Every position's distance to the goal, for one whole cluster (all positions reachable
from a start), computed frontier-at-a-time with numpy.

1. BFS forward from the start enumerates the cluster, keeping each position's
   neighbours (a compressed adjacency list).
2. A multi-source BFS from all solved positions gives each one its distance
   to the goal. Every slide can be undone, so the move graph is undirected and
   that BFS runs over the same adjacency.
A shortest plan from any position of the cluster then follows decreasing
distance: a hint is a lookup.

Clusters too large for a table (sparse 8 x 8 contest boards reach billions
of positions) are searched without one: "Get out" boards by A* on depth +
cars in the row (traffic/astar.py), exit puzzles by BFS from the start to the first goal.
"""

from __future__ import annotations

import numpy as np

from fewest.engine.traffic import Move
from fewest.solvers.common.control import Control
from fewest.solvers.traffic.astar import best_first
from fewest.solvers.traffic.bfs import ForwardPlan, goal_in, layers, plan_to, unique
from fewest.solvers.traffic.lines import Layout
from fewest.solvers.traffic.tuning import TUNING, TrafficTuning

# A solve that has found the goal finishes the table only while the cluster stays within
# TABLE_GROWTH times the positions seen so far (plus TABLE_SLACK): a 1-move answer on a big
# board stays instant, a hard puzzle (most of its cluster already seen) gets its table.
TABLE_GROWTH, TABLE_SLACK = 4, 5000


class DistanceTable:
    """The sorted keys of one cluster and each one's distance to the goal (-1: unsolvable)."""

    def __init__(self, layout: Layout, keys: np.ndarray, distance: np.ndarray) -> None:
        self.layout = layout
        self.keys = keys
        self.distance = distance

    def __len__(self) -> int:
        return len(self.keys)

    def _index(self, key: int) -> int | None:
        at = int(np.searchsorted(self.keys, key))
        return at if at < len(self.keys) and int(self.keys[at]) == key else None

    def __contains__(self, key: int) -> bool:
        return self._index(key) is not None

    def distance_of(self, key: int) -> int:
        """Slides from `key` to the goal, -1 when no plan exists; KeyError if not in the cluster."""
        at = self._index(key)
        if at is None:
            raise KeyError(key)
        return int(self.distance[at])

    def plan(self, key: int) -> list[Move]:
        """A shortest plan from `key`: each step is the first slide (legal_moves order) one closer."""
        remaining = self.distance_of(key)
        moves: list[Move] = []
        while remaining > 0:
            slides, after = self.layout.slides_from(key)
            closer = self.distance[np.searchsorted(self.keys, after)] == remaining - 1
            first = int(np.argmax(closer))  # one exists: distances are exact BFS layers
            moves.append(self.layout.move(int(slides[first])))
            key = int(after[first])
            remaining -= 1
        return moves


def explore(
    layout: Layout, start: int, control: Control, table_states: int | None = None, table_only: bool = False,
    tuning: TrafficTuning = TUNING,
) -> DistanceTable | ForwardPlan | None:
    """The table of the cluster of `start`, built by BFS while its adjacency fits in
    the tuning's edge_limit. With `table_states`, a one-off solve does not pay for a large table: once a
    goal is seen, it stops there when the cluster passes `table_states` positions or grows far
    beyond what finding the goal took; with no goal seen by then, a "Get out" board goes on
    by A* (traffic/astar.py). With `table_only` (a warm-up: no one waits for a plan), None as
    soon as the cluster is too large for a table. Raises Stopped when the control says so."""
    edges = _Edges(tuning.edge_limit)
    found: list[np.ndarray] = []
    goal, goal_depth, seen = None, 0, 0
    for layer in layers(layout, np.array([start], dtype=layout.dtype), control, edges, tuning.chunk_entries):
        found.append(layer)
        seen += len(layer)
        if goal is None:
            goal, goal_depth = goal_in(layout, layer), len(found)
            if goal is not None and table_states is not None:
                table_states = min(table_states, TABLE_GROWTH * seen + TABLE_SLACK)
        too_large = not edges.kept or (table_states is not None and seen > table_states)
        if too_large and table_only:
            return None
        if too_large and goal is not None:
            return plan_to(layout, found[:goal_depth], goal)
        if too_large and layout.clears_row:
            return best_first(layout, start, control, tuning.chunk_entries)
    if edges.kept:
        return _table(layout, found, edges, control)
    if goal is not None:
        return plan_to(layout, found[:goal_depth], goal)
    return ForwardPlan(None, seen)


def _table(
    layout: Layout, found: list[np.ndarray], edges: "_Edges", control: Control
) -> DistanceTable:
    order = np.concatenate(found)  # BFS order: node i of the adjacency is order[i]
    sort = np.argsort(order, kind="stable")
    keys = order[sort]
    meter = control.meter
    meter.bytes_per_entry = 12  # an int key and an int32 distance
    control.check()
    targets = sort[np.searchsorted(keys, edges.targets())]
    control.check()
    goals = np.flatnonzero(layout.solved(order))
    distance = _distances_over(edges.offsets(), targets, goals, control)
    return DistanceTable(layout, keys, distance[sort])


class _Edges:
    """The neighbour lists met by the forward BFS, node by node in BFS order."""

    def __init__(self, limit: int) -> None:
        self.limit = limit  # entries at most: past it, too large for a table
        self.kept = True
        self.size = 0
        self.counts: list[np.ndarray] = []
        self.keys: list[np.ndarray] = []

    def add(self, counts: np.ndarray, keys: np.ndarray) -> None:
        if not self.kept:
            return
        self.size += len(keys)
        if self.size > self.limit:  # too large for a table: the search goes on without one
            self.kept, self.counts, self.keys = False, [], []
            return
        self.counts.append(counts)
        self.keys.append(keys)

    def offsets(self) -> np.ndarray:
        return np.concatenate([[0], np.cumsum(np.concatenate(self.counts))])

    def targets(self) -> np.ndarray:
        return np.concatenate(self.keys)


def _distances_over(
    offsets: np.ndarray, targets: np.ndarray, goals: np.ndarray, control: Control
) -> np.ndarray:
    """Multi-source BFS over an adjacency list (node i's neighbours: targets[offsets[i]:offsets[i+1]])."""
    distance = np.full(len(offsets) - 1, -1, dtype=np.int32)
    distance[goals] = 0
    frontier, depth = goals, 0
    meter = control.meter
    while len(frontier):
        control.tick(len(frontier))
        meter.bound = depth
        starts = offsets[frontier]
        counts = offsets[frontier + 1] - starts
        # positions starts[j] .. starts[j] + counts[j] - 1, for every j, flattened
        shift = np.repeat(starts - np.cumsum(counts) + counts, counts)
        reached = targets[shift + np.arange(len(shift))]
        reached = reached[distance[reached] < 0]
        depth += 1
        distance[reached] = depth
        frontier = unique(reached)
    return distance
