"""Minimum-cost perfect matching of boxes to goals (the Hungarian method).

Every box must end on its own goal, so the cheapest one-to-one assignment of
boxes to goals, each pair costing the box's push distance to that goal, is a
lower bound on the pushes still needed (a greedy nearest-goal sum is weaker,
and a greedy assignment is not a bound at all). This is the shortest
augmenting path form (Kuhn-Munkres with potentials, as in Jonker-Volgenant),
O(n^3) from scratch. `reassign` re-solves after ONE row changed, which is
all a push does, in O(n^2) from the parent's optimal potentials; `warm_assign`
re-solves from any potentials and partial matching, so a parent's serve after
boxes froze on goals (their rows and goals gone, the others' distances
longer round the new walls) and only the pairs that broke are matched again.

A `Matching` is (u, v, p): row potentials, column potentials and p[j] = the
row (1-based) matched to column j (1-based); index 0 is unused.
"""

from __future__ import annotations

from operator import sub
from typing import Sequence

Matching = tuple[list[int], list[int], list[int]]
_HUGE = 1 << 62  # larger than any sum of costs


def assign(rows: Sequence[Sequence[int]]) -> Matching:
    """Optimal potentials and matching of the square cost matrix `rows`."""
    n = len(rows)
    u = [0] * (n + 1)
    v = [0] * (n + 1)
    p = [0] * (n + 1)
    for i in range(1, n + 1):
        _augment(rows, u, v, p, i, n)
    return u, v, p


def reassign(rows: Sequence[Sequence[int]], matching: Matching, i: int) -> Matching:
    """The optimal matching after row i (0-based) of `rows` changed; `matching` is untouched."""
    u, v, p = list(matching[0]), list(matching[1]), list(matching[2])  # (a search keeps arrays)
    n = len(rows)
    i += 1
    for j in range(1, n + 1):
        if p[j] == i:
            p[j] = 0
            break
    row = rows[i - 1]
    u[i] = min(row[j - 1] - v[j] for j in range(1, n + 1))  # feasible potentials again
    _augment(rows, u, v, p, i, n)
    return u, v, p


def warm_assign(rows: Sequence[Sequence[int]], u: list[int], v: list[int], p: list[int]) -> Matching:
    """The optimal matching of the square `rows`, starting from potentials and a partial
    matching laid out as a Matching's (p[j] = 0: column j free; a row in one pair at
    most). Any such start is right; a near one is fast. The lists are taken over."""
    n = len(rows)
    taken = [False] * (n + 1)
    for j in range(1, n + 1):
        i = p[j]
        if i:
            taken[i] = True
    columns = v[1:]
    for i in range(1, n + 1):  # each row's least reduced cost back to 0: every pair feasible again
        u[i] = min(map(sub, rows[i - 1], columns))
    for j in range(1, n + 1):
        i = p[j]
        if i and rows[i - 1][j - 1] != u[i] + v[j]:
            p[j] = 0  # no longer tight: that row is matched again
            taken[i] = False
    for i in range(1, n + 1):
        if not taken[i]:
            _augment(rows, u, v, p, i, n)
    return u, v, p


def matching_cost(rows: Sequence[Sequence[int]], matching: Matching) -> int:
    p = matching[2]
    return sum([rows[p[j] - 1][j - 1] for j in range(1, len(p))])


def min_cost(rows: Sequence[Sequence[int]]) -> int:
    """Cost of the cheapest perfect matching (small cases without potentials)."""
    n = len(rows)
    if n == 0:
        return 0
    if n == 1:
        return rows[0][0]
    if n == 2:
        return min(rows[0][0] + rows[1][1], rows[0][1] + rows[1][0])
    return matching_cost(rows, assign(rows))


def _augment(rows: Sequence[Sequence[int]], u: list[int], v: list[int], p: list[int], i: int, n: int) -> None:
    """Add row i to the matching along a shortest augmenting path, keeping potentials feasible.

    Dijkstra over reduced costs from row i; a column's distance is final once taken, so
    each step looks only at the columns not yet taken, and the potentials are moved once
    at the end (by how much shorter than the path each taken column's distance was)."""
    dist = [_HUGE] * (n + 1)
    came = [0] * (n + 1)  # came[j]: the row a column was reached from
    column_of = {}  # a row met on the way -> its column before the path
    open_columns = list(range(1, n + 1))
    taken = []
    row_i, reach = i, 0
    while True:
        row, base = rows[row_i - 1], reach - u[row_i]
        best, at = _HUGE, 0
        for k, j in enumerate(open_columns):
            d = base + row[j - 1] - v[j]
            if d < dist[j]:
                dist[j] = d
                came[j] = row_i
            else:
                d = dist[j]
            if d < best or (d == best and not p[j]):
                best, at = d, k
        j = open_columns[at]
        open_columns[at] = open_columns[-1]
        open_columns.pop()
        reach = best
        if not p[j]:
            break
        taken.append(j)
        row_i = p[j]
        column_of[row_i] = j
    u[i] += reach
    for k in taken:
        gap = reach - dist[k]
        u[p[k]] += gap
        v[k] -= gap
    while True:  # flip the path: each row on it takes the column it reached
        row_i = came[j]
        p[j] = row_i
        if row_i == i:
            break
        j = column_of[row_i]
