"""The best write order by Held-Karp: the subset dynamic programme over (cells written, last cell).

Exact for any cost table; its cost is fixed, about 2^n x n^2 simple steps for
n cells (2^16 x 16^2 on a full 4x4 code), done one subset size at a time as
whole-array numpy operations. Used up to HELD_KARP_LIMIT cells (2^18 x 18
entries); the tables of subsets are built once per n and cached.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from fewest.solvers.control import Control
from fewest.solvers.password_tour import Tour

HELD_KARP_LIMIT = 18
_INFINITE = 60_000  # above any path cost (at most 36 cells x 15), below uint16's limit


@dataclass(frozen=True)
class SubsetLayers:
    """The subsets of n cells grouped by size, and how each size steps to the next.

    layers[s]: the subsets of size s in increasing order; rank[mask]: a subset's
    row in its layer; grow[s - 1][j] = (rows of layer s without j, rows of
    layer s + 1 of those subsets plus j).
    """

    layers: tuple[np.ndarray, ...]
    rank: np.ndarray
    grow: tuple[tuple[tuple[np.ndarray, np.ndarray], ...], ...]


@lru_cache(maxsize=None)
def subset_layers(n: int) -> SubsetLayers:
    masks = np.arange(1 << n, dtype=np.int32)
    sizes = np.zeros(1 << n, dtype=np.int8)
    for bit in range(n):
        sizes += ((masks >> bit) & 1).astype(np.int8)
    rank = np.empty(1 << n, dtype=np.int32)
    layers = []
    for size in range(n + 1):
        layer = masks[sizes == size]
        rank[layer] = np.arange(len(layer), dtype=np.int32)
        layers.append(layer)
    grow = []
    for size in range(1, n):
        layer = layers[size]
        per_cell = []
        for j in range(n):
            rows = np.flatnonzero((layer >> j) & 1 == 0).astype(np.int32)
            per_cell.append((rows, rank[layer[rows] | (1 << j)]))
        grow.append(tuple(per_cell))
    return SubsetLayers(tuple(layers), rank, tuple(grow))


def held_karp(tour: Tour, control: Control) -> tuple[int, ...]:
    """The cheapest write order (indices into tour.cells); ties go to the smaller index.

    best[s][row, j]: the fewest commands that write exactly the subset `row` of
    layer s, cell j last. Layer s + 1 comes from layer s by one min-plus
    product with the step costs (a loop over the previous cell i, each step a
    whole-layer numpy operation), then scattering each (subset, j) result to
    the row of subset + j.
    """
    n = len(tour.cells)
    if n == 0:
        return ()
    plan = subset_layers(n)
    costs = tour.write_costs
    steps = np.array([costs[tour.cells[i]][tour.figures[i]] for i in range(n)], dtype=np.uint16)
    first = np.full((n, n), _INFINITE, dtype=np.uint16)
    first[np.arange(n), np.arange(n)] = costs[tour.cursor][tour.rail]  # layer 1 holds 1, 2, 4, ...
    best = [first, first]
    control.bytes_per_entry = 2
    widest = max(len(layer) for layer in plan.layers) * n
    via, scratch = np.empty(widest, dtype=np.uint16), np.empty(widest, dtype=np.uint16)
    for size in range(1, n):
        here = best[size]
        rows = len(here)
        out = via[: rows * n].reshape(rows, n)  # out[row, j]: best over the previous cell i
        tmp = scratch[: rows * n].reshape(rows, n)
        np.add(here[:, :1], steps[0], out=out)
        for i in range(1, n):
            np.add(here[:, i : i + 1], steps[i], out=tmp)
            np.minimum(out, tmp, out=out)
        grown = np.full((len(plan.layers[size + 1]), n), _INFINITE, dtype=np.uint16)
        for j, (without_j, with_j) in enumerate(plan.grow[size - 1]):
            grown[with_j, j] = out[without_j, j]
        best.append(grown)
        control.stored += grown.size
        control.tick(rows * n)
    # Walk back from the full set: each step's predecessor is the first i that explains its value.
    written = (1 << n) - 1
    last = int(np.argmin(best[n][0]))
    order = [last]
    for size in range(n, 1, -1):
        value = best[size][plan.rank[written], last]
        written ^= 1 << last
        options = best[size - 1][plan.rank[written]].astype(np.int64) + steps[:, last]
        last = int(np.argmax(options == value))
        order.append(last)
    return tuple(reversed(order))
