"""Per-level tables: how many pushes a lone box needs to reach each goal.

A box's push distance to a goal is found by pulling it backwards from the
goal (breadth-first), one box alone on the board, while tracking which side
of the box the player stands on: the player can only switch sides by
walking around the box, so a cell the box could reach "with the player on
the wrong side" is not counted as reachable. Cells from which no goal is
reachable at all are dead squares: a box pushed there can never be solved.
These distances never overestimate, so the matching built on them is an
admissible lower bound on pushes (and, pushes being moves, on moves).

Where a lone box splits the player's floor in two or more (a doorway, a
corridor), its distances differ by side: `sided` keeps one row per side, and
the search reads the row of the side the player is on. Other boxes only ever
shrink the player's region, never join its parts, so that side is certain.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace

from fewest.solvers.common.build_cache import cached_per_board
from fewest.solvers.common.control import Check, no_check
from fewest.solvers.sokoban.board.board import Board, cells_of
from fewest.solvers.sokoban.board.sides import neighbour_labels

UNREACHABLE = 1_000_000  # "no way there": larger than any real push count, still an int
CHECK_CELLS = 256  # cells looked at between two calls of a build's check (a board has up to 10,000)


@dataclass(frozen=True, eq=False)
class Tables:
    board: Board
    rows: tuple  # rows[cell]: push distances from cell to each goal (lowest cell first), best side
    # sided[cell]: None where the player's side makes no difference, else per direction d
    # (row, region): the row for the player on the side of the neighbour in direction d and
    # that side's cells (the floor the player walks round a lone box there); None: no floor
    sided: tuple
    live: int  # floor cells from which some goal is reachable (mask)
    dead: int  # floor cells from which none is: dead squares (mask)


@cached_per_board(16)
def build_tables(board: Board, *, check: Check = no_check) -> Tables:
    """Push distances and dead squares (cached per board). `check` is called now and then
    and may raise to stop the build: on the largest boards it takes seconds."""
    return _tables(board, check)


def with_walls(tables: Tables, walls: int) -> Tables:
    """The tables with `walls` (boxes frozen on their goals) taken out of the floor and goals."""
    board = tables.board
    return _tables(replace(board, floor=board.floor & ~walls, goals=board.goals & ~walls))


def _tables(board: Board, check: Check = no_check) -> Tables:
    sides = sides_of(board, check=check)
    per_goal = []
    for goal in cells_of(board.goals):
        check()
        per_goal.append(pull_distances(board, sides, goal))
    rows: list = [None] * board.size
    sided: list = [None] * board.size
    live = 0
    for count, cell in enumerate(cells_of(board.floor)):
        if count % CHECK_CELLS == 0:
            check()
        by_label = {
            label: tuple(distances.get((cell, label), UNREACHABLE) for distances in per_goal)
            for label in set(sides[cell]) - {-1}
        }
        row = tuple(map(min, *by_label.values())) if len(by_label) > 1 else next(iter(by_label.values()), ())
        rows[cell] = row
        if len(set(by_label.values())) > 1:
            around = board.floor & ~(1 << cell)
            sided[cell] = tuple(
                None if label < 0 else (by_label[label], board.reach(cell + step, around))
                for label, step in zip(sides[cell], board.steps)
            )
        if min(row, default=UNREACHABLE) < UNREACHABLE:
            live |= 1 << cell
    return Tables(board, tuple(rows), tuple(sided), live, board.floor & ~live)


def side_row(tables: Tables, box: int, player: int) -> tuple:
    """The push distances of a box on `box` with the player on `player`: its side's row."""
    sides = tables.sided[box]
    if sides is None:
        return tables.rows[box]
    for side in sides:
        if side is not None and (side[1] >> player) & 1:
            return side[0]
    return tables.rows[box]  # the player cannot reach the box at all: the best side still bounds


@cached_per_board(16)
def sides_of(board: Board, *, check: Check = no_check) -> tuple:
    """sides[cell][d]: which walking region the neighbour in direction d lies in
    while a box stands on `cell` (-1: no floor there); neighbours with the same
    label (the lowest direction index among them) are connected around the box.
    Cached per board: the push tables, the room bounds and the search backwards all
    ask. One walk over the floor (board/sides.py: 0.04 s on a 100 x 100 room, where a
    flood fill per cell took 1.9 s)."""
    return tuple(neighbour_labels(board, board.floor, check))


def pull_distances(board: Board, sides: tuple, goal: int, cells: int | None = None) -> dict:
    """Fewest pushes to `goal` for a lone box: {(cell, player's region label): pushes}.
    With `cells`, the box never leaves those cells on its way (the player may)."""
    floor, steps = board.floor, board.steps
    allowed = floor if cells is None else cells
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
            if not (floor >> (nxt + step)) & 1 or not (allowed >> nxt) & 1:
                continue
            state = (nxt, sides[nxt][d])
            if state not in found:
                found[state] = pushes
                queue.append(state)
    return found
