"""Deadlocks that are certain: positions no sequence of moves can ever solve.

Two cheap tests, neither of which ever condemns a solvable position:
- dead squares: a box off every goal's pull-reach can never reach a goal;
- freeze: a set S of boxes in which every box is blocked on both axes, each
  axis blocked by a wall, by dead squares on both sides, or by a box of S,
  can never move (the first of them to move would need an unblocked axis),
  so a box of S off its goal is stuck there forever. S is found as the
  largest such set around a box (a greatest fixed point: start from the
  touching boxes, drop any box with a free axis, repeat), not by the usual
  recursion with "treat the box as a wall", whose bookkeeping is easy to get
  wrong.
Frozen boxes that all stand on goals are no deadlock, but they are walls from
then on: `settle` measures the other boxes around them, which finds goals
nobody can reach any more and boxes with no goal left (no one-to-one
assignment of boxes to goals at all).
"""

from __future__ import annotations

from typing import Any

from fewest.solvers.sokoban_assignment import min_cost
from fewest.solvers.sokoban_board import cells_of, compile_board
from fewest.solvers.sokoban_tables import UNREACHABLE, Tables, build_tables, with_walls


def frozen_group(tables: Tables, boxes: int, cell: int) -> int:
    """The largest frozen set of boxes holding the box on `cell` (a mask; 0 if it can move)."""
    board = tables.board
    floor, dead = board.floor, tables.dead
    horizontal, vertical = board.steps[2], board.steps[3]
    group = board.reach(cell, boxes)  # the boxes touching this one, transitively
    changed = True
    while changed:
        changed = False
        for box in cells_of(group):
            if not (
                _blocked(box, horizontal, group, floor, dead) and _blocked(box, vertical, group, floor, dead)
            ):
                group ^= 1 << box
                changed = True
    return group if (group >> cell) & 1 else 0


def frozen_boxes(tables: Tables, boxes: int) -> int:
    """Every box that can never move again (the union of all frozen sets)."""
    found = 0
    for box in cells_of(boxes):
        if not (found >> box) & 1:
            found |= frozen_group(tables, boxes, box)
    return found


def _blocked(cell: int, step: int, stuck: int, floor: int, dead: int) -> bool:
    before, after = cell - step, cell + step
    if not (floor >> before) & 1 or not (floor >> after) & 1:
        return True  # a wall on one side: no push along this axis at all
    if (dead >> before) & 1 and (dead >> after) & 1:
        return True  # either push along it lands on a dead square
    return bool((stuck >> before) & 1 or (stuck >> after) & 1)


def settle(tables: Tables, boxes: int) -> tuple[int, Tables] | None:
    """(frozen boxes, tables with them as walls) for a position, or None when it is dead.

    Frozen boxes on goals are walls for good: the remaining boxes' distances
    are measured around them and their goals leave the matching.
    """
    if boxes & tables.dead:
        return None
    stuck = frozen_boxes(tables, boxes)
    if stuck & ~tables.board.goals:
        return None
    if stuck:
        tables = with_walls(tables, stuck)
    rest = boxes & ~stuck
    if rest & tables.dead or min_cost([tables.rows[box] for box in cells_of(rest)]) >= UNREACHABLE:
        return None
    return stuck, tables


def is_dead(level: Any, state: Any) -> bool:
    """Whether the engine position `state` of `level` can certainly never be solved.

    Cheap (dead squares, freeze deadlocks, goal assignment); never says True
    for a solvable position, may say False for an unsolvable one.
    """
    board = compile_board(level)
    return settle(build_tables(board), board.mask(state.boxes) & board.floor) is None
