"""The best write order by Held-Karp: the subset dynamic programme over (cells written, last cell).

Exact for any cost table; its cost is fixed, about 2^n x n^2 simple steps for
n cells (2^16 x 16^2 on a full 4x4 code: about 2.5 ms), done one subset size at a
time as whole-array numpy operations:

- a layer is stored as best[last, row] (row = the subset's rank among the
  subsets of its size), so every numpy loop runs along the long row axis;
- one layer to the next is a min-plus product with the step costs, taken
  CHUNK previous cells at a time (a (CHUNK, n, rows) sum, then a min over
  its first axis), followed by ONE gather through a precomputed index table
  (entry [j, row'] points at (j, row' without j), or at an "unreachable"
  slot when j is not in row');
- values are uint8 whenever every path cost fits (a 4x4 code: at most 16 x
  7), else uint16: half the memory traffic on the common sizes;
- the scratch arrays are allocated once (per dtype, for the most cells seen)
  and reused under a lock: fresh multi-MB arrays cost page faults that made
  the time jumpy (CPU max 30-50 ms against 5 ms).

Used up to HELD_KARP_LIMIT cells (index tables of n x 2^n int32: 19 MB at
18); the tables are built once per n and cached.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from fewest.solvers.common.control import Control, Meter
from fewest.solvers.password.tour import Tour

HELD_KARP_LIMIT = 18
CHUNK = 8  # previous cells per min-plus step: an (8, n, rows) sum, 1.6 MB at n = 16 (best of 4, 8, 16)


@dataclass(frozen=True)
class SubsetLayers:
    """The subsets of n cells grouped by size, and how each size steps to the next.

    layers[s]: the subsets of size s in increasing order; rank[mask]: a subset's
    row in its layer; gather[s - 1] (for s = 1 .. n-1): int32 (n, len(layers[s + 1]))
    flat indices into a layer-s (n, rows) array plus one trailing "unreachable"
    slot: [j, row'] -> (j, row' without j), or the slot when j is not in row'.
    """

    layers: tuple[np.ndarray, ...]
    rank: np.ndarray
    gather: tuple[np.ndarray, ...]

    @property
    def widest(self) -> int:
        return max(len(layer) for layer in self.layers)


@lru_cache(maxsize=None)
def subset_layers(n: int) -> SubsetLayers:
    masks = np.arange(1 << n, dtype=np.int64)
    sizes = np.zeros(1 << n, dtype=np.int64)
    for bit in range(n):
        sizes += (masks >> bit) & 1
    rank = np.empty(1 << n, dtype=np.int64)
    layers = []
    for size in range(n + 1):
        layer = masks[sizes == size]
        rank[layer] = np.arange(len(layer))
        layers.append(layer)
    gather = []
    for size in range(1, n):
        rows, grown = len(layers[size]), layers[size + 1]
        index = np.full((n, len(grown)), n * rows, dtype=np.int32)
        for j in range(n):
            has_j = (grown >> j) & 1 == 1
            index[j, has_j] = j * rows + rank[grown[has_j] ^ (1 << j)]
        gather.append(index)
    return SubsetLayers(tuple(layers), rank, tuple(gather))


class _Workspace:
    """Reusable scratch for up to n cells: every layer (for the walk back), a step's sums and result."""

    def __init__(self, n: int, dtype: type) -> None:
        widest = subset_layers(n).widest
        self.n = n
        self.layers = np.empty(n << n, dtype=dtype)  # the layers back to back, each (n, rows)
        self.sums = np.empty(CHUNK * n * widest, dtype=dtype)
        self.step = np.empty(n * widest + 1, dtype=dtype)
        self.part = np.empty(n * widest, dtype=dtype)


_WORKSPACES: dict[type, _Workspace] = {}  # one per dtype, sized for the most cells seen so far
_LOCK = threading.Lock()  # hints may solve from several threads; they share the workspaces


def value_type(tour: Tour) -> type:
    """uint8 when every path on this board fits below the "unreachable" mark, else uint16.

    Chosen from the board (its longest possible step), not the code, so warm_up knows it ahead.
    """
    return np.uint8 if _unreachable(tour) + _longest_step(tour) <= np.iinfo(np.uint8).max else np.uint16


def prepare(n: int, dtype: type) -> None:
    """Build the tables for n cells and scratch for up to n cells, so a later solve only computes."""
    subset_layers(n)
    with _LOCK:
        _workspace(n, dtype)


def _workspace(n: int, dtype: type) -> _Workspace:
    space = _WORKSPACES.get(dtype)
    if space is None or space.n < n:
        space = _WORKSPACES[dtype] = _Workspace(n, dtype)
    return space


def _longest_step(tour: Tour) -> int:
    return tour.rows // 2 + tour.cols // 2 + tour.rail_size // 2 + 1


def _unreachable(tour: Tour) -> int:
    """Above any path this solver meets on the board: at most HELD_KARP_LIMIT steps."""
    return min(tour.rows * tour.cols, HELD_KARP_LIMIT) * _longest_step(tour) + 1


def held_karp(tour: Tour, control: Control) -> tuple[int, ...]:
    """The cheapest write order (indices into tour.cells); ties go to the smaller index.

    best[s][j, row]: the fewest commands that write exactly the subset `row`
    of layer s, cell j last. Raises Stopped when the caller's budget or cancel fires.
    """
    n = len(tour.cells)
    if n == 0:
        return ()
    costs = tour.write_costs
    steps = [costs[tour.cells[i]][tour.figures[i]] for i in range(n)]  # steps[i][j]: write j after i
    dtype = value_type(tour)
    plan = subset_layers(n)
    with _LOCK:
        space = _workspace(n, dtype)
        first = costs[tour.cursor][tour.rail]
        with control.metered(dtype().itemsize) as meter:
            layers = _fill_layers(plan, space, np.array(steps, dtype=dtype), first, _unreachable(tour), control, meter)
        return _walk_back(plan, layers, np.array(steps, dtype=np.int64))


def _fill_layers(
    plan: SubsetLayers,
    space: _Workspace,
    steps: np.ndarray,
    first: tuple[int, ...],
    unreachable: int,
    control: Control,
    meter: Meter,
) -> list[np.ndarray]:
    """Every layer best[s] (s = 1 .. n) as (n, rows) views into space.layers (their entries
    counted on `meter`)."""
    n = len(steps)
    here = space.layers[: n * n].reshape(n, n)  # layer 1: the subsets 1, 2, 4, ... in that order
    here.fill(unreachable)
    here[np.arange(n), np.arange(n)] = first
    layers, used = [here], n * n
    by_previous = steps[:, :, None]  # (i, j, 1): broadcasts along the rows
    for size in range(1, n):
        rows = here.shape[1]
        step = space.step[: n * rows + 1]
        step[-1] = unreachable
        best = step[:-1].reshape(n, rows)  # best[j, row]: the cheapest way to add j after `row`
        part = space.part[: n * rows].reshape(n, rows)
        for low in range(0, n, CHUNK):
            high = min(n, low + CHUNK)
            sums = space.sums[: (high - low) * n * rows].reshape(high - low, n, rows)
            np.add(here[low:high, None, :], by_previous[low:high], out=sums)
            np.min(sums, axis=0, out=best if low == 0 else part)
            if low:
                np.minimum(best, part, out=best)
        index = plan.gather[size - 1]
        here = space.layers[used : used + index.size].reshape(index.shape)
        np.take(step, index, out=here)
        used += index.size
        layers.append(here)
        meter.stored += index.size
        control.tick(rows * n)
    return layers


def _walk_back(plan: SubsetLayers, layers: list[np.ndarray], steps: np.ndarray) -> tuple[int, ...]:
    """From the full set back: each step's predecessor is the first cell that explains its value."""
    n = len(layers)
    written = (1 << n) - 1
    last = int(np.argmin(layers[n - 1][:, 0]))
    order = [last]
    for size in range(n, 1, -1):
        value = layers[size - 1][last, plan.rank[written]]
        written ^= 1 << last
        options = layers[size - 2][:, plan.rank[written]] + steps[:, last]
        last = int(np.argmax(options == value))
        order.append(last)
    return tuple(reversed(order))
