"""The password solver's model: the cheapest order in which to write the wrong cells.

Why an order is all there is. Every cell whose figure is wrong must be
written at least once, its LAST write being the right figure; nothing else
needs writing. Between two consecutive such final writes the grid cursor
travels at least the torus distance between the cells and the rail cursor at
least the cyclic distance between the figures, and grid and rail commands
are separate commands, so the gap costs at least the SUM of the two; each
write costs 1. Writing each wrong cell exactly once, in the best order, with
shortest cursor moves in between, meets this bound. So the fewest commands
is a shortest Hamiltonian path over the wrong cells, starting at the current
(cursor cell, rail figure), with step cost grid_steps + rail_steps + 1.

Two exact methods find that order: `password/heldkarp.py` and `password/astar.py`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

from fewest.engine.password import Level, State


@dataclass(frozen=True)
class Tour:
    """The cells to write (reading order), their figures, the board and where the cursors stand."""

    rows: int
    cols: int
    rail_size: int
    cells: tuple[int, ...]
    figures: tuple[int, ...]
    cursor: int
    rail: int

    def grid_steps(self, a: int, b: int) -> int:
        """Fewest grid-cursor commands from cell a to cell b on the wrapping grid."""
        return torus_steps(self.rows, self.cols)[a][b]

    def rail_steps(self, f: int, g: int) -> int:
        """Fewest rail-cursor commands from figure f to figure g on the wrapping rail."""
        return cycle_steps(self.rail_size)[f][g]

    def write_cost(self, cell: int, figure: int, j: int) -> int:
        """Commands to write cells[j] from the cursors on (cell, figure): move both, then place."""
        return self.grid_steps(cell, self.cells[j]) + self.rail_steps(figure, self.figures[j]) + 1

    @cached_property
    def write_costs(self) -> list[list[tuple[int, ...]]]:
        """write_costs[cell][figure][j] = write_cost(cell, figure, j), for the searches' inner loops."""
        grid, rail = torus_steps(self.rows, self.cols), cycle_steps(self.rail_size)
        table = []
        for cell in range(self.rows * self.cols):
            to_cells = [grid[cell][c] + 1 for c in self.cells]
            table.append([
                tuple(g + rail[figure][f] for g, f in zip(to_cells, self.figures))
                for figure in range(self.rail_size)
            ])
        return table


@lru_cache(maxsize=None)
def torus_steps(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """steps[a][b]: grid-cursor commands between cells a and b of a wrapping rows x cols grid."""
    def one(a: int, b: int) -> int:
        (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
        dr, dc = abs(ra - rb), abs(ca - cb)
        return min(dr, rows - dr) + min(dc, cols - dc)

    return tuple(tuple(one(a, b) for b in range(rows * cols)) for a in range(rows * cols))


@lru_cache(maxsize=None)
def cycle_steps(size: int) -> tuple[tuple[int, ...], ...]:
    """steps[f][g]: rail-cursor commands between figures f and g of a wrapping rail of `size`."""
    return tuple(tuple(min(abs(f - g), size - abs(f - g)) for g in range(size)) for f in range(size))


def tour_of(level: Level, state: State) -> Tour:
    wrong = tuple(i for i in range(level.cells) if state.grid[i] != level.code[i])
    return Tour(
        level.rows,
        level.cols,
        len(level.rail),
        wrong,
        tuple(level.code[i] for i in wrong),
        state.cursor,
        state.rail,
    )
