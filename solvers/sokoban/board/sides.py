"""Which neighbours of each floor cell stay joined while a box stands on it: one walk.

A box on a cell cuts the player's floor only where that cell is a cut cell
(an articulation point) of the floor. One depth-first walk over the floor
numbers each cell in the order it is first reached and keeps the lowest number
its part of the walk's tree reaches by a side edge (`low`). Take the box's cell
out: a child whose `low` does not reach above the cell hangs on the cell alone,
a piece of its own; every other neighbour stays joined to the part above the
cell. So each cell's neighbour labels come from the numbers at hand, where a
flood fill per cell (the first way) cost a second on a 100 x 100 room.
"""

from __future__ import annotations

from fewest.solvers.common.control import Check, no_check
from fewest.solvers.sokoban.board.board import Board, cells_of

CHECK_CELLS = 256  # cells walked between two calls of the build's check (a board has up to 10,000)


def neighbour_labels(board: Board, floor: int, check: Check = no_check) -> list:
    """labels[cell][d] for each cell of `floor` (None elsewhere): the lowest direction
    index among the neighbours joined to the neighbour in direction d, over `floor`
    without `cell` (-1: no floor there)."""
    steps = board.steps
    order: dict[int, int] = {}  # cell -> its number in the walk
    low: dict[int, int] = {}
    children: dict[int, list[int]] = {}
    walked = 0
    for root in cells_of(floor):
        if root in order:
            continue
        order[root] = low[root] = len(order)
        children[root] = []
        stack = [(root, -1, 0)]  # (cell, its parent, the next direction to try)
        while stack:
            cell, parent, d = stack[-1]
            if d == 4:
                stack.pop()
                walked += 1
                if walked % CHECK_CELLS == 0:
                    check()
                if parent >= 0 and low[cell] < low[parent]:
                    low[parent] = low[cell]
                continue
            stack[-1] = (cell, parent, d + 1)
            nxt = cell + steps[d]
            if not (floor >> nxt) & 1 or nxt == parent:
                continue
            if nxt in order:
                if order[nxt] < low[cell]:
                    low[cell] = order[nxt]
                continue
            order[nxt] = low[nxt] = len(order)
            children[nxt] = []
            children[cell].append(nxt)
            stack.append((nxt, cell, 0))
    labels: list = [None] * board.size
    for cell, number in order.items():
        kids = children[cell]
        pieces = []  # each neighbour's piece: the child it hangs under, or -1 for the part above
        for step in steps:
            nxt = cell + step
            if not (floor >> nxt) & 1:
                pieces.append(None)
            elif order[nxt] < number:
                pieces.append(-1)
            else:  # a descendant: under the last child reached before it
                under = max((kid for kid in kids if order[kid] <= order[nxt]), key=order.__getitem__)
                pieces.append(under if low[under] >= number else -1)
        labels[cell] = tuple(-1 if piece is None else pieces.index(piece) for piece in pieces)
    return labels
