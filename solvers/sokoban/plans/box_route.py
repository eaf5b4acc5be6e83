"""Moving one box to a cell the player points at: the fewest pushes, then the fewest moves.

What the best Sokoban programs do when a box is dragged with the mouse. Only that box
moves; the others stay where they are, as walls. A node is the box's cell and the
player's, right after a push (the cell the box just left); an edge is a shortest walk
to a side of the box, then one push. Dijkstra over (pushes, moves) on those nodes, the
walks measured on the padded bitboard (Board.distances), each stopping once the sides
of the box it wants are found. XSokoban's levels are routed in a few milliseconds.
"""

from __future__ import annotations

import heapq

from fewest.engine.sokoban import Level, Move, State
from fewest.solvers.sokoban.solver import step_plan
from fewest.solvers.sokoban.board.board import compile_board


def box_route(level: Level, state: State, box: int, target: int) -> list[Move] | None:
    """The moves that take the box on `box` to `target` (engine cells) with the fewest
    pushes, ties by the fewest moves, no other box moving; None when it cannot get there."""
    if box not in state.boxes:
        raise ValueError(f"no box on cell {box}")
    if target == box:
        return []
    if target not in level.floor or target in state.boxes:
        return None
    board = compile_board(level)
    free = board.floor & ~board.mask(state.boxes - {box})  # (where the box and the player may go)
    start, goal = board.inside(box), board.inside(target)
    first = (start, board.inside(state.player))
    best = {first: (0, 0)}
    parent: dict[tuple[int, int], tuple[tuple[int, int], int]] = {}
    heap = [(0, 0, first)]
    while heap:
        pushes, moves, node = heapq.heappop(heap)
        if best[node] < (pushes, moves):
            continue
        cell, player = node
        if cell == goal:
            return step_plan(board, board.mask(state.boxes), board.inside(state.player), _pushes(parent, node))[0]
        sides = {cell - step: (d, cell + step) for d, step in enumerate(board.steps) if (free >> (cell + step)) & 1}
        for behind, walk in board.distances(player, sum(1 << side for side in sides), free & ~(1 << cell)):
            d, ahead = sides[behind]
            child, cost = (ahead, cell), (pushes + 1, moves + walk + 1)
            known = best.get(child)
            if known is None or cost < known:
                best[child] = cost
                parent[child] = (node, d)
                heapq.heappush(heap, (*cost, child))
    return None


def _pushes(parent: dict, node: tuple[int, int]) -> list[tuple[int, int]]:
    """The pushes that led to `node`, first to last: (the box's cell before it, direction)."""
    pushes = []
    while node in parent:
        pushes.append((node[1], parent[node][1]))  # (a node's player stands where the box was)
        node = parent[node][0]
    return pushes[::-1]
