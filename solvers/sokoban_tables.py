"""Per-level tables: how many pushes a lone box needs to reach each goal.

A box's push distance to a goal is found by pulling it backwards from the
goal (breadth-first), one box alone on the board, while tracking which side
of the box the player stands on: the player can only switch sides by
walking around the box, so a cell the box could reach "with the player on
the wrong side" is not counted as reachable. Cells from which no goal is
reachable at all are dead squares: a box pushed there can never be solved.
These distances never overestimate, so the matching built on them is an
admissible lower bound on pushes (and, pushes being moves, on moves).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace
from functools import lru_cache

from fewest.solvers.sokoban_board import Board, cells_of

UNREACHABLE = 1_000_000  # "no way there": larger than any real push count, still an int


@dataclass(frozen=True, eq=False)
class Tables:
    board: Board
    goal_cells: tuple[int, ...]
    rows: tuple  # rows[cell] = push distances from cell to each goal, best side (None off the floor)
    live: int  # floor cells from which some goal is reachable (mask)
    dead: int  # floor cells from which none is: dead squares (mask)
    sides: tuple  # sides[cell][d] = label of the region holding the neighbour in direction d
    split: int  # cells whose box cuts the player's floor in two or more regions (mask)
    regions: tuple  # regions[cell] = ((label, mask of that region), ...) for split cells
    side_rows: tuple  # side_rows[cell][label] = push distances with the player in that region

    def row(self, cell: int, player: int) -> tuple:
        """Push distances of a box on `cell` to each goal, the player standing on `player`."""
        if not (self.split >> cell) & 1:
            return self.rows[cell]
        return self.side_rows[cell][self.label(cell, player)]

    def label(self, cell: int, player: int) -> int:
        """Which region around a box on split `cell` the player's cell lies in."""
        for label, mask in self.regions[cell]:
            if (mask >> player) & 1:
                return label
        raise ValueError("the player stands on the box")


@lru_cache(maxsize=16)
def build_tables(board: Board) -> Tables:
    """Push distances and dead squares (cached per board)."""
    return _tables(board)


def with_walls(tables: Tables, walls: int) -> Tables:
    """The tables with `walls` (boxes frozen on their goals) taken out of the floor and goals."""
    board = tables.board
    return _tables(replace(board, floor=board.floor & ~walls, goals=board.goals & ~walls))


def _tables(board: Board) -> Tables:
    sides, regions = _sides(board)
    goal_cells = tuple(cells_of(board.goals))
    per_goal = [_pull_distances(board, sides, goal) for goal in goal_cells]
    rows: list = [None] * board.size
    side_rows: list = [None] * board.size
    live = split = 0
    for cell in cells_of(board.floor):
        by_label = [None] * 4
        for label in set(sides[cell]) - {-1}:
            by_label[label] = tuple(distances.get((cell, label), UNREACHABLE) for distances in per_goal)
        present = [r for r in by_label if r is not None]
        row = tuple(map(min, zip(*present))) if present else (UNREACHABLE,) * len(goal_cells)
        rows[cell] = row
        side_rows[cell] = tuple(by_label)
        if min(row, default=UNREACHABLE) < UNREACHABLE:
            live |= 1 << cell
        if len(present) > 1:
            split |= 1 << cell
    return Tables(
        board, goal_cells, tuple(rows), live, board.floor & ~live, tuple(sides), split, tuple(regions), tuple(side_rows)
    )


def _sides(board: Board) -> tuple[list, list]:
    """sides[cell][d]: which walking region the neighbour in direction d lies in
    while a box stands on `cell` (-1: no floor there); neighbours with the same
    label (the lowest direction index among them) are connected around the box.
    regions[cell]: the (label, mask) of each region, where there are several."""
    floor, steps = board.floor, board.steps
    sides: list = [None] * board.size
    regions: list = [None] * board.size
    for cell in cells_of(floor):
        around = floor & ~(1 << cell)
        labels = [-1, -1, -1, -1]
        found = []
        for d, step in enumerate(steps):
            nxt = cell + step
            if labels[d] >= 0 or not (floor >> nxt) & 1:
                continue
            region = board.reach(nxt, around)
            found.append((d, region))
            for e in range(d, 4):
                if (region >> (cell + steps[e])) & 1:
                    labels[e] = d
        sides[cell] = tuple(labels)
        regions[cell] = tuple(found)
    return sides, regions


def _pull_distances(board: Board, sides: list, goal: int) -> dict:
    """Fewest pushes to `goal` for a lone box: {(cell, player's region label): pushes}."""
    floor, steps = board.floor, board.steps
    found = {}
    queue: deque = deque()
    for label in set(sides[goal]) - {-1}:
        found[goal, label] = 0
        queue.append((goal, label))
    while queue:
        box, label = queue.popleft()
        pushes = found[box, label] + 1
        around = sides[box]
        for d, step in enumerate(steps):
            if around[d] != label:
                continue
            # the player, on side d, pulls the box one step towards d and backs off one more
            nxt = box + step
            if not (floor >> (nxt + step)) & 1:
                continue
            state = (nxt, sides[nxt][d])
            if state not in found:
                found[state] = pushes
                queue.append(state)
    return found
