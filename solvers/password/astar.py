"""The best write order by the generic A* with a strong admissible bound.

States are (cells written as a bitmask, cursor cell, rail figure); a step
writes one more cell. The solver uses it beyond Held-Karp's limit, where
its cost depends on the code (a few dozen nodes settle half the full 4x4
codes, but a bound a few commands short costs thousands); the tests use it
as an independent check of Held-Karp.

`Bound` (admissible). Let R be the cells still to write, the cursor on cell
c with figure f. Places: |R|. Grid: every write but one at c itself needs
at least one grid step, so at least |R| - [c in R]. Call a step "free" when
it costs no more than that: onto a neighbouring cell of the same figure, or
(first step only) onto c itself when c needs figure f. Every other step
costs at least 1 extra. A run of free steps stays in one connected
group of same-figure cells of R, and a group with L dead ends (cells with one
same-figure neighbour) needs at least ceil(L / 2) runs (a dead end is a run's
end). So the extra is at least (runs needed) - [the first step can be free];
it is also at least the rail walk that visits every figure still needed.
"""

from __future__ import annotations

from typing import Iterator

from fewest.solvers.common.control import Control
from fewest.solvers.password.tour import Tour
from fewest.solvers.common.search import astar
from fewest.solvers.common.solution import Solution


class Bound:
    """The admissible lower bound of the module docstring, on states (written mask, cursor cell, figure)."""

    def __init__(self, tour: Tour) -> None:
        self.tour = tour
        self.full = (1 << len(tour.cells)) - 1
        self.index = {cell: i for i, cell in enumerate(tour.cells)}
        self.by_figure: dict[int, int] = {}
        for i, figure in enumerate(tour.figures):
            self.by_figure[figure] = self.by_figure.get(figure, 0) | 1 << i
        # For every grid cell, the mask of tour cells one step away.
        self.near = [
            sum(1 << i for i, other in enumerate(tour.cells) if tour.grid_steps(cell, other) == 1)
            for cell in range(tour.rows * tour.cols)
        ]
        self._runs: dict[int, int] = {}
        self._walks: dict[tuple[int, int], int] = {}

    def __call__(self, state: tuple[int, int, int]) -> int:
        written, cell, figure = state
        left = self.full & ~written
        if not left:
            return 0
        count = left.bit_count()
        here = self.index.get(cell)
        at_cursor = here is not None and left >> here & 1
        runs = 0
        needed = 0
        for fig, mask in self.by_figure.items():
            mask &= left
            if mask:
                runs += self.runs(mask)
                needed |= 1 << fig
        free_start = bool(
            (at_cursor and self.tour.figures[here] == figure)
            or self.near[cell] & self.by_figure.get(figure, 0) & left
        )
        extra = max(runs - free_start, self.rail_walk(figure, needed))
        return count + count - at_cursor + extra

    def runs(self, mask: int) -> int:
        """Runs of free steps covering the same-figure cells `mask`: per group, max(1, ceil(dead ends / 2))."""
        known = self._runs.get(mask)
        if known is not None:
            return known
        total = 0
        rest = mask
        while rest:
            group = frontier = rest & -rest
            while frontier:
                low = frontier & -frontier
                frontier ^= low
                new = self.near[self.tour.cells[low.bit_length() - 1]] & mask & ~group
                group |= new
                frontier |= new
            rest &= ~group
            dead_ends = 0
            members = group
            while members:
                low = members & -members
                members ^= low
                dead_ends += (self.near[self.tour.cells[low.bit_length() - 1]] & group).bit_count() == 1
            total += max(1, (dead_ends + 1) // 2)
        self._runs[mask] = total
        return total

    def rail_walk(self, figure: int, needed: int) -> int:
        """Fewest rail steps from `figure` that visit every figure in the bitmask `needed`."""
        key = (figure, needed)
        known = self._walks.get(key)
        if known is not None:
            return known
        size = self.tour.rail_size
        ahead = sorted({(g - figure) % size for g in range(size) if needed >> g & 1} - {0})
        walk = 0
        if ahead:
            walk = min(ahead[-1], size - ahead[0])  # one way round, either way
            for a, b in zip(ahead, ahead[1:]):  # out to a and back, then the other way to b; or the reverse
                walk = min(walk, 2 * a + size - b, 2 * (size - b) + a)
        self._walks[key] = walk
        return walk


class OrderProblem:
    """The write-order problem for the generic searches: states (written mask, cursor cell, figure)."""

    def __init__(self, tour: Tour) -> None:
        self.tour = tour
        self.full = (1 << len(tour.cells)) - 1
        self.start = (0, tour.cursor, tour.rail)

    def successors(self, state: tuple[int, int, int]) -> Iterator[tuple[int, tuple[int, int, int], int]]:
        written, cell, figure = state
        tour = self.tour
        costs = tour.write_costs[cell][figure]
        for j, (target, fig) in enumerate(zip(tour.cells, tour.figures)):
            if not written >> j & 1:
                yield j, (written | 1 << j, target, fig), costs[j]

    def is_goal(self, state: tuple[int, int, int]) -> bool:
        return state[0] == self.full


def astar_order(tour: Tour, control: Control) -> Solution:
    """Generic A* with `Bound`; the Solution's moves are the write order (indices into tour.cells)."""
    return astar(OrderProblem(tour), Bound(tour), control)
